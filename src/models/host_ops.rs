//! Element-wise math on host memory for the CPU backend: `exp` over a slice and SwiGLU
//! (`silu(gate) · up`). burn-flex calls the C library's scalar `expf` once per element and makes a
//! tensor per step; these are single loops that LLVM vectorizes (compiled for AVX2 + FMA where the
//! CPU has them).
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

#[inline(always)]
fn swiglu_slice(gate: &mut [f32], up: &[f32]) {
    for (g, &u) in gate.iter_mut().zip(up) {
        // silu(g) = g · sigmoid(g) = g / (1 + e^-g)
        *g = *g / (1.0 + exp_one(-*g)) * u;
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn exp_slice_avx2(xs: &mut [f32]) {
    exp_slice(xs)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn swiglu_slice_avx2(gate: &mut [f32], up: &[f32]) {
    swiglu_slice(gate, up)
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

/// `gate[i] = silu(gate[i]) · up[i]`.
///
/// # Panics
/// If the lengths differ (a programming error).
pub fn swiglu_in_place(gate: &mut [f32], up: &[f32]) {
    assert_eq!(gate.len(), up.len(), "swiglu: gate and up differ in length");
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the CPU has AVX2 and FMA, checked just above.
        return unsafe { swiglu_slice_avx2(gate, up) };
    }
    swiglu_slice(gate, up)
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
    fn swiglu_equals_its_definition_in_f64() {
        let gate: Vec<f32> = (0..4001).map(|i| -100.0 + 0.05 * i as f32).collect();
        let up: Vec<f32> = (0..4001).map(|i| ((i * 37) % 101) as f32 / 50.0 - 1.0).collect();
        let mut out = gate.clone();
        swiglu_in_place(&mut out, &up);
        for ((&g, &u), &o) in gate.iter().zip(&up).zip(&out) {
            let exact = g as f64 / (1.0 + (-g as f64).exp()) * u as f64;
            assert!((o as f64 - exact).abs() <= 1e-6 * (1.0 + exact.abs()), "swiglu({g}, {u}) = {o}, exact {exact}");
        }
    }
}
