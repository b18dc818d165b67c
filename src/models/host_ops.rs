//! Element-wise math on host memory for the CPU backend: `exp` over a slice, the gated MLP
//! activations (SwiGLU, `silu(gate) · up`, and Gemma's `gelu_tanh(gate) · up`), RMSNorm and RoPE.
//! burn-flex calls the C library's scalar `expf` (and `powf`, `tanhf`) once per element and makes
//! a tensor per step; these are single loops that LLVM vectorizes (`exp` and the activations
//! compiled for AVX2 + FMA where the CPU has them). All but `exp` split their rows across the
//! cores (`crate::parallel`): in the browser's threaded worker what one core does alone between the
//! matmuls limits the speed-up of a pass.
//!
//! `exp` is the classic range reduction `x = n·ln2 + r`, `|r| ≤ ln2/2`, with `e^r` from its Taylor
//! polynomial to degree 7 (relative error below 2e-7, about 1.5 ulp) and `2^n` put in the exponent
//! bits. Below -87.3 (where f32 goes subnormal) the result is 0, and -inf gives exactly 0.

const LN2_HI: f32 = 0.693_145_75;
const LN2_LO: f32 = 1.428_606_8e-6;
const MIN_X: f32 = -87.336_54;
const MAX_X: f32 = 88.722_83;

#[inline(always)]
fn exp_one(x: f32) -> f32 {
    let below = x < MIN_X;
    let x = x.clamp(MIN_X, MAX_X);
    let n = (x * std::f32::consts::LOG2_E).round_ties_even();
    let r = (x - n * LN2_HI) - n * LN2_LO;
    // e^r = 1 + r + r²/2! + … + r⁷/7!, in Horner form.
    let mut p = 1.0 / 5040.0;
    for c in [1.0 / 720.0, 1.0 / 120.0, 1.0 / 24.0, 1.0 / 6.0, 0.5, 1.0, 1.0] {
        p = p * r + c;
    }
    // n ∈ [-126, 128]: 2^n as an f32, split in two factors so that n = 128 does not overflow.
    let half = (n * 0.5).floor();
    // `e as i32` would be a saturating scalar conversion that stops LLVM vectorizing the loop; an
    // integer-valued |e| < 2^22 added to 1.5·2^23 sits in the low mantissa bits instead.
    let scale =
        |e: f32| f32::from_bits(((e + 12_582_912.0).to_bits().wrapping_sub(0x4B40_0000).wrapping_add(127)) << 23);
    let y = p * scale(half) * scale(n - half);
    if below {
        0.0
    } else {
        y
    }
}

#[inline(always)]
fn exp_slice(xs: &mut [f32]) {
    for x in xs {
        *x = exp_one(*x);
    }
}

/// `gate[i] = f(gate[i], up[i])`: the loop the gated activations share, inlined with its `f`.
#[inline(always)]
fn gated_slice(gate: &mut [f32], up: &[f32], f: impl Fn(f32, f32) -> f32) {
    for (g, &u) in gate.iter_mut().zip(up) {
        *g = f(*g, u);
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn gated_slice_avx2(gate: &mut [f32], up: &[f32], f: impl Fn(f32, f32) -> f32) {
    gated_slice(gate, up, f)
}

/// `gate[i] = f(gate[i], up[i])`, split across the cores (`name` for the length check).
///
/// # Panics
/// If the lengths differ (a programming error).
#[inline(always)]
fn gated_in_place(name: &str, gate: &mut [f32], up: &[f32], f: impl Fn(f32, f32) -> f32 + Copy + Sync) {
    assert_eq!(gate.len(), up.len(), "{name}: gate and up differ in length");
    split_rows(gate, 1, |first, part| {
        let up = &up[first..][..part.len()];
        #[cfg(target_arch = "x86_64")]
        if has_avx2() {
            // SAFETY: the CPU has AVX2 and FMA, checked just above.
            return unsafe { gated_slice_avx2(part, up, f) };
        }
        gated_slice(part, up, f)
    });
}

/// `sqrt(2/π)`, GELU's tanh approximation's factor.
const SQRT_2_OVER_PI: f32 = 0.797_884_6;

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn exp_slice_avx2(xs: &mut [f32]) {
    exp_slice(xs)
}

#[cfg(target_arch = "x86_64")]
fn has_avx2() -> bool {
    std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma")
}

/// `xs[i] = e^xs[i]`.
pub fn exp_in_place(xs: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the CPU has AVX2 and FMA, checked just above.
        return unsafe { exp_slice_avx2(xs) };
    }
    exp_slice(xs)
}

/// `gate[i] = silu(gate[i]) · up[i]`, split across the cores.
///
/// # Panics
/// If the lengths differ (a programming error).
pub fn swiglu_in_place(gate: &mut [f32], up: &[f32]) {
    // silu(g) = g · sigmoid(g) = g / (1 + e^-g)
    gated_in_place("swiglu", gate, up, |g, u| g / (1.0 + exp_one(-g)) * u)
}

/// `gate[i] = gelu_tanh(gate[i]) · up[i]` (GELU with the tanh approximation, Gemma's MLP), split
/// across the cores.
///
/// # Panics
/// If the lengths differ (a programming error).
pub fn gelu_tanh_in_place(gate: &mut [f32], up: &[f32]) {
    // 0.5·x·(1 + tanh(z)) = x · sigmoid(2z) = x / (1 + e^-2z), z = sqrt(2/π)·(x + 0.044715·x³): the
    // same function as transformers' `gelu_pytorch_tanh`, with one `exp` and no `tanh`.
    gated_in_place("gelu_tanh", gate, up, |x, u| {
        let z = SQRT_2_OVER_PI * (x + 0.044_715 * x * x * x);
        x / (1.0 + exp_one(-2.0 * z)) * u
    })
}

/// Below this many elements a split of an element-wise op costs more than its second core saves.
const MIN_ELEMENTS_PER_PART: usize = 1 << 14;

/// Runs of whole rows of `x` (rows of `d`), one part each for the cores, with the index of each
/// part's first row.
fn split_rows(x: &mut [f32], d: usize, f: impl Fn(usize, &mut [f32]) + Sync) {
    let rows = x.len() / d.max(1);
    let parts = (x.len() / MIN_ELEMENTS_PER_PART).clamp(1, crate::parallel::cores() * crate::parallel::PARTS_PER_CORE);
    let rows_per_part = rows.div_ceil(parts).max(1);
    let mut parts: Vec<&mut [f32]> = x.chunks_mut(rows_per_part * d.max(1)).collect();
    crate::parallel::for_each_mut(&mut parts, |i, part| f(i * rows_per_part, part));
}

/// RMSNorm of each row of `x` (`[rows][d]`, `d = weight.len()`) in place:
/// `x / sqrt(mean(x²) + eps) · weight`, in f32 as transformers computes it.
///
/// # Panics
/// If `x` is not whole rows of `weight.len()` (a programming error).
pub fn rms_norm_rows(x: &mut [f32], weight: &[f32], eps: f32) {
    let d = weight.len();
    assert!(d > 0 && x.len().is_multiple_of(d), "rms_norm_rows: {} values are not rows of {d}", x.len());
    split_rows(x, d, |_, rows| {
        for row in rows.chunks_exact_mut(d) {
            // Eight running sums, which LLVM keeps in vector registers.
            let mut sums = [0f32; 8];
            let mut chunks = row.chunks_exact(8);
            for c in &mut chunks {
                for (s, &v) in sums.iter_mut().zip(c) {
                    *s += v * v;
                }
            }
            let tail: f32 = chunks.remainder().iter().map(|v| v * v).sum();
            let sum_squares = sums.iter().sum::<f32>() + tail;
            let inv_rms = 1.0 / (sum_squares / d as f32 + eps).sqrt();
            for (v, &w) in row.iter_mut().zip(weight) {
                *v = *v * inv_rms * w;
            }
        }
    });
}

/// Rotary position embedding in rotate-half form on `x` (`[heads][t][d]`) in place: token `i`'s
/// row becomes `x·cos[i] + rotate_half(x)·sin[i]`, `rotate_half([a, b]) = [-b, a]`, with `cos`
/// and `sin` `[t][d]`. The same products and sums as the tensor form, so the same bits.
///
/// # Panics
/// If the shapes disagree (a programming error).
pub fn rope_rotate(x: &mut [f32], t: usize, cos: &[f32], sin: &[f32]) {
    let d = cos.len() / t.max(1);
    assert!(
        d.is_multiple_of(2) && cos.len() == t * d && sin.len() == t * d && x.len().is_multiple_of((t * d).max(1)),
        "rope_rotate: {} values, {t} tokens, tables of {} and {}",
        x.len(),
        cos.len(),
        sin.len()
    );
    let half = d / 2;
    split_rows(x, d, |first_row, rows| {
        for (r, row) in rows.chunks_exact_mut(d).enumerate() {
            let token = (first_row + r) % t;
            let (c, s) = (&cos[token * d..][..d], &sin[token * d..][..d]);
            let (a, b) = row.split_at_mut(half);
            for j in 0..half {
                let (x1, x2) = (a[j], b[j]);
                a[j] = x1 * c[j] + -x2 * s[j];
                b[j] = x2 * c[half + j] + x1 * s[half + j];
            }
        }
    });
}

/// Values in [-1, 1) from a small LCG: deterministic test inputs with no pattern a split or a
/// kernel could hide behind (this module's tests and the attention's).
#[cfg(test)]
pub(crate) fn pseudo_random(n: usize, seed: u64) -> Vec<f32> {
    let mut state = seed;
    (0..n)
        .map(|_| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 40) as f32 / (1u64 << 23) as f32 - 1.0
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exp_is_within_two_ulp_of_f64_over_the_whole_range() {
        let mut xs: Vec<f32> = (0..200_001).map(|i| -87.0 + 175.5 * i as f32 / 200_000.0).collect();
        xs.extend([0.0, -0.0, 1e-8, -1e-8, 0.5 * std::f32::consts::LN_2, 88.7, -87.3]);
        let mut ys = xs.clone();
        exp_in_place(&mut ys);
        let mut portable = xs.clone();
        exp_slice(&mut portable);
        for ((&x, &y), &p) in xs.iter().zip(&ys).zip(&portable) {
            let exact = (x as f64).exp();
            let rel = ((y as f64 - exact) / exact).abs();
            assert!(rel < 2.5e-7, "exp({x}) = {y}, exact {exact}: relative error {rel}");
            assert!((y - p).abs() <= 1e-7 * exact as f32, "vectorized {y} and portable {p} differ at {x}");
        }
    }

    #[test]
    fn exp_of_minus_infinity_and_far_below_is_zero() {
        let mut xs = [f32::NEG_INFINITY, -1000.0, -88.0];
        exp_in_place(&mut xs);
        assert_eq!(xs, [0.0, 0.0, 0.0]);
    }

    #[test]
    fn rms_norm_equals_its_definition_in_f64_on_rows_split_across_the_cores() {
        // 403 rows of 96 (an odd count, more values than one part takes) and a row of 37 (not a
        // multiple of the eight running sums).
        for (rows, d) in [(403, 96), (5, 37)] {
            let x = pseudo_random(rows * d, 7);
            let weight = pseudo_random(d, 11);
            let eps = 1e-5f32;
            let mut y = x.clone();
            rms_norm_rows(&mut y, &weight, eps);
            for (r, (row, out)) in x.chunks(d).zip(y.chunks(d)).enumerate() {
                let mean = row.iter().map(|&v| v as f64 * v as f64).sum::<f64>() / d as f64;
                let inv = 1.0 / (mean + eps as f64).sqrt();
                for j in 0..d {
                    let exact = row[j] as f64 * inv * weight[j] as f64;
                    assert!(
                        (out[j] as f64 - exact).abs() <= 2e-6 * (1.0 + exact.abs()),
                        "row {r}, column {j}: {} against {exact}",
                        out[j]
                    );
                }
            }
        }
    }

    #[test]
    fn rope_rotates_each_tokens_row_by_its_own_angles_across_the_split() {
        // 8 heads of 50 tokens of 128: more values than one part takes, so the parts start at
        // rows that are not a head's first token.
        let (heads, t, d) = (8, 50, 128);
        let x = pseudo_random(heads * t * d, 3);
        let angles: Vec<f64> = (0..t * d).map(|i| (i / d) as f64 * 0.37 + (i % (d / 2)) as f64 * 0.011).collect();
        let cos: Vec<f32> = angles.iter().map(|a| a.cos() as f32).collect();
        let sin: Vec<f32> = angles.iter().map(|a| a.sin() as f32).collect();
        let mut y = x.clone();
        rope_rotate(&mut y, t, &cos, &sin);
        let half = d / 2;
        for (row_index, (row, out)) in x.chunks(d).zip(y.chunks(d)).enumerate() {
            let token = row_index % t;
            for j in 0..d {
                let rotated = if j < half { -(row[j + half] as f64) } else { row[j - half] as f64 };
                let exact = row[j] as f64 * cos[token * d + j] as f64 + rotated * sin[token * d + j] as f64;
                assert!(
                    (out[j] as f64 - exact).abs() <= 1e-6 * (1.0 + exact.abs()),
                    "row {row_index}, column {j}: {} against {exact}",
                    out[j]
                );
            }
        }
    }

    /// transformers' `gelu_pytorch_tanh` written as it is, in f64.
    fn gelu_tanh_f64(x: f64) -> f64 {
        0.5 * x * (1.0 + ((2.0 / std::f64::consts::PI).sqrt() * (x + 0.044715 * x * x * x)).tanh())
    }

    #[test]
    fn the_gated_activations_equal_their_definitions_in_f64_across_the_split() {
        // More values than one part takes, so the split's parts start mid-slice; the gate runs
        // over [-100, 100) (both tails and the curve between), `up` over [-1, 1).
        let n = 100_003;
        let gate: Vec<f32> = (0..n).map(|i| -100.0 + 200.0 * i as f32 / n as f32).collect();
        let up = pseudo_random(n, 5);
        let mut silu = gate.clone();
        swiglu_in_place(&mut silu, &up);
        let mut gelu = gate.clone();
        gelu_tanh_in_place(&mut gelu, &up);
        for i in 0..n {
            let (g, u) = (gate[i] as f64, up[i] as f64);
            for (name, out, exact) in
                [("swiglu", silu[i], g / (1.0 + (-g).exp()) * u), ("gelu_tanh", gelu[i], gelu_tanh_f64(g) * u)]
            {
                assert!(
                    (out as f64 - exact).abs() <= 1e-6 * (1.0 + exact.abs()),
                    "{name}({g}, {u}) = {out}, exact {exact}"
                );
            }
        }
        // Where x³ overflows f32, GELU is x on the right and 0 on the left, as in f64.
        let mut far = [1e13f32, -1e13, 1e30];
        gelu_tanh_in_place(&mut far, &[1.0; 3]);
        assert_eq!(far[0], 1e13);
        assert!(far[1].abs() < 1e-20, "{}", far[1]);
        assert_eq!(far[2], 1e30);
    }
}
