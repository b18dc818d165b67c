//! The fast CPU matmul: activations quantized to 8 bits, as llama.cpp does, so that each block of
//! 32 weights is one integer dot product.
//!
//! Each token's activations are cut into blocks of 32 and stored as `dx · qx` with
//! `dx = max|x| / 127` and `qx = round(x · 127 / max|x|)` in -127..=127, with `dx` then rounded to
//! f16 as ggml stores it: exactly the `quantize_row_q8_0` that llama.cpp runs on x86 and wasm, so
//! the quantized activations are llama.cpp's own. Then
//!
//! ```text
//! out[t][n] = Σ_b  dx[t][b] · s[n][b] · Σ_{k in b} qx[t][k] · q[n][k]
//! ```
//!
//! where the inner sum is exact in i32. This is not the exact path: quantizing activations moves
//! logits by about as much as llama.cpp's own difference from transformers, which
//! `tests/model_parity.rs` measures. [`qmatmul`](super::qmatmul) with f32 activations stays the
//! default; this one is asked for (`--backend cpu-int8`).
//!
//! It takes the QMatrix forms whose quants fit in an i8 with 32-weight blocks and no offset:
//! Q8_0, Q5_0 (8-bit fields) and Q4_0 (signed nibbles). [`supports`] says which.
//!
//! On x86-64 with AVX-512 VNNI a tile of 4 weight rows × 3 tokens is summed with `vpdpbusd`
//! straight from the packed weights (see [`avx512`]); with AVX2 the dot products are `vpmaddubsw` +
//! `vpmaddwd` (llama.cpp's sign trick makes one side unsigned); elsewhere, including wasm32, plain
//! Rust computes the same integers.

use std::ops::Range;

#[cfg(not(target_arch = "wasm32"))]
use super::matmul::split_rows_across_threads;
use super::matmul::tokens_to_multiply;
use super::QMatrix;

const BLOCK: usize = 32;
/// Tokens per microkernel call: each weight block is loaded once for this many tokens.
const MR: usize = 4;
/// Below this many multiply-adds per thread, another thread costs more than it saves.
#[cfg(not(target_arch = "wasm32"))]
const MIN_MACS_PER_THREAD: usize = 1 << 21;

/// Whether [`qmatmul_int8`] takes `w`: 32-weight blocks, no offsets, quants in -128..=127.
pub fn supports(w: &QMatrix) -> bool {
    w.block() == BLOCK && w.offsets().is_none() && w.signed() && matches!(w.bits(), 4 | 8)
}

/// Activations of `t` tokens as 8-bit blocks: `x[t][k] ≈ scales[t][k / 32] · quants[t][k]`.
struct Int8Activations {
    quants: Vec<i8>,
    scales: Vec<f32>,
}

fn quantize_activations(x: &[f32]) -> Int8Activations {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { quantize_activations_avx2(x) };
    }
    quantize_blocks(x)
}

/// [`quantize_blocks`] with 8 lanes at a time: the same values (max, `127 / max`, the product, the
/// rounding and the f16 scale are each one IEEE operation either way).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn quantize_activations_avx2(x: &[f32]) -> Int8Activations {
    use std::arch::x86_64::*;
    let mut quants = vec![0i8; x.len()];
    let mut scales = Vec::with_capacity(x.len() / BLOCK);
    let sign_bit = _mm256_set1_ps(-0.0);
    for (xb, qb) in x.chunks_exact(BLOCK).zip(quants.chunks_exact_mut(BLOCK)) {
        // SAFETY: xb holds 32 f32 and qb 32 i8, read and written 8 and 32 at a time.
        let v: [__m256; 4] = std::array::from_fn(|i| unsafe { _mm256_loadu_ps(xb.as_ptr().add(8 * i)) });
        let abs = v.map(|v| _mm256_andnot_ps(sign_bit, v));
        let m = _mm256_max_ps(_mm256_max_ps(abs[0], abs[1]), _mm256_max_ps(abs[2], abs[3]));
        let m = _mm_max_ps(_mm256_castps256_ps128(m), _mm256_extractf128_ps::<1>(m));
        let m = _mm_max_ps(m, _mm_movehl_ps(m, m));
        let amax = _mm_cvtss_f32(_mm_max_ss(m, _mm_movehdup_ps(m)));
        let id = _mm256_set1_ps(if amax != 0.0 { 127.0 / amax } else { 0.0 });
        let q = v.map(|v| _mm256_cvtps_epi32(_mm256_round_ps::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(_mm256_mul_ps(v, id))));
        // Pack 4 x 8 i32 into 32 i8; the packs work per 128-bit lane, and the permute restores order.
        let packed = _mm256_packs_epi16(_mm256_packs_epi32(q[0], q[1]), _mm256_packs_epi32(q[2], q[3]));
        let ordered = _mm256_permutevar8x32_epi32(packed, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
        unsafe { _mm256_storeu_si256(qb.as_mut_ptr() as *mut __m256i, ordered) };
        scales.push(half::f16::from_f32(amax / 127.0).to_f32());
    }
    Int8Activations { quants, scales }
}

/// As llama.cpp's SIMD `quantize_row_q8_0` (x86 AVX/AVX2 and wasm), which is what it runs:
/// `id = 127 / max|x|` and rounding half to even (its scalar reference divides by `d` and rounds
/// half away from zero, which differs only at exact halves).
fn quantize_blocks(x: &[f32]) -> Int8Activations {
    let mut quants = vec![0i8; x.len()];
    let mut scales = Vec::with_capacity(x.len() / BLOCK);
    for (xb, qb) in x.chunks_exact(BLOCK).zip(quants.chunks_exact_mut(BLOCK)) {
        let amax = xb.iter().fold(0f32, |m, v| if v.abs() > m { v.abs() } else { m });
        let id = if amax != 0.0 { 127.0 / amax } else { 0.0 };
        for (q, &v) in qb.iter_mut().zip(xb) {
            *q = (v * id).round_ties_even() as i8;
        }
        scales.push(half::f16::from_f32(amax / 127.0).to_f32());
    }
    Int8Activations { quants, scales }
}

/// `out = x · Wᵀ` with `x` quantized to 8 bits per block (see the module docs); `x` is `[T][K]`,
/// `out` `[T][N]`, row-major; natively split over N across the available cores.
///
/// # Panics
///
/// If `w` is not [`supports`]ed, or the shapes disagree: programming errors, not bad input.
pub fn qmatmul_int8(x: &[f32], w: &QMatrix, out: &mut [f32]) {
    assert!(supports(w), "qmatmul_int8: {}-bit, block {}, offsets {} is not an int8 form", w.bits(), w.block(), w.offsets().is_some());
    let Some(t) = tokens_to_multiply("qmatmul_int8", x, w, out) else { return };
    let n = w.rows();
    let xq = quantize_activations(x);

    #[cfg(not(target_arch = "wasm32"))]
    {
        let cores = std::thread::available_parallelism().map_or(1, |p| p.get());
        let threads = cores.min(t * n * w.cols() / MIN_MACS_PER_THREAD).max(1);
        if threads > 1 && n >= 2 * threads {
            split_rows_across_threads(n, t, n.div_ceil(threads), out, |rows, part| matmul_rows(&xq, t, w, rows, part));
            return;
        }
    }
    matmul_rows(&xq, t, w, 0..n, out);
}

/// Columns `rows` of every token into `out` (`[t][rows.len()]`).
fn matmul_rows(xq: &Int8Activations, t: usize, w: &QMatrix, rows: Range<usize>, out: &mut [f32]) {
    let k = w.cols();
    #[cfg(target_arch = "x86_64")]
    if avx512::available() && k.is_multiple_of(2 * BLOCK) {
        // SAFETY: the CPU has AVX-512 F/BW and VNNI, checked just above.
        unsafe { avx512::matmul_rows(xq, t, w, rows, out) };
        return;
    }
    let blocks = k / BLOCK;
    let stride = rows.len();
    let mut row_quants = vec![0i8; k];
    for (col, n) in rows.enumerate() {
        unpack_row(w, n, &mut row_quants);
        let row_scales = &w.scales()[n * blocks..(n + 1) * blocks];
        let mut t0 = 0;
        while t0 < t {
            let m = MR.min(t - t0);
            let mut sums = [0f32; MR];
            dot_tokens(xq, k, t0, m, &row_quants, row_scales, &mut sums);
            for (i, s) in sums[..m].iter().enumerate() {
                out[(t0 + i) * stride + col] = *s;
            }
            t0 += m;
        }
    }
}

/// Row `n`'s quants as i8, in column order.
fn unpack_row(w: &QMatrix, n: usize, row: &mut [i8]) {
    let k = w.cols();
    if w.bits() == 8 {
        let words = &w.values()[n * k / 4..(n + 1) * k / 4];
        for (chunk, word) in row.chunks_exact_mut(4).zip(words) {
            for (q, b) in chunk.iter_mut().zip(word.to_le_bytes()) {
                *q = b as i8;
            }
        }
    } else {
        let words = &w.values()[n * k / 8..(n + 1) * k / 8];
        for (chunk, word) in row.chunks_exact_mut(8).zip(words) {
            for (i, q) in chunk.iter_mut().enumerate() {
                // Shift the nibble to the top of an i32 and back: sign-extends.
                *q = (((*word << (28 - 4 * i)) as i32) >> 28) as i8;
            }
        }
    }
}

/// `sums[i] = Σ_b dx[t0 + i][b] · s[b] · (qx[t0 + i] · q)_b` for `m` ≤ [`MR`] tokens.
fn dot_tokens(xq: &Int8Activations, k: usize, t0: usize, m: usize, row: &[i8], row_scales: &[f32], sums: &mut [f32; MR]) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU has AVX2 and FMA, checked just above.
        unsafe { avx2::dot_tokens(xq, k, t0, m, row, row_scales, sums) };
        return;
    }
    let blocks = k / BLOCK;
    for i in 0..m {
        let xt = &xq.quants[(t0 + i) * k..(t0 + i + 1) * k];
        let dx = &xq.scales[(t0 + i) * blocks..(t0 + i + 1) * blocks];
        let mut sum = 0f32;
        for b in 0..blocks {
            let dot: i32 = xt[b * BLOCK..(b + 1) * BLOCK].iter().zip(&row[b * BLOCK..(b + 1) * BLOCK]).map(|(&a, &c)| a as i32 * c as i32).sum();
            sum += dx[b] * row_scales[b] * dot as f32;
        }
        sums[i] = sum;
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    use super::{Int8Activations, BLOCK, MR};

    /// [`super::dot_tokens`] with 32 lanes of i8 at a time.
    #[target_feature(enable = "avx2,fma")]
    pub(super) fn dot_tokens(xq: &Int8Activations, k: usize, t0: usize, m: usize, row: &[i8], row_scales: &[f32], sums: &mut [f32; MR]) {
        let blocks = k / BLOCK;
        let ones = _mm256_set1_epi16(1);
        let mut acc = [_mm256_setzero_ps(); MR];
        for b in 0..blocks {
            // SAFETY: b * 32 + 32 <= k = row.len(); each token row below has k quants too.
            let w = unsafe { _mm256_loadu_si256(row.as_ptr().add(b * BLOCK) as *const __m256i) };
            let aw = _mm256_sign_epi8(w, w);
            for i in 0..m {
                let t = t0 + i;
                let x = unsafe { _mm256_loadu_si256(xq.quants.as_ptr().add(t * k + b * BLOCK) as *const __m256i) };
                // maddubs multiplies unsigned by signed: |w| · (x with w's sign) = x · w. The sign
                // goes onto x, which is never -128 (so never overflows when negated); |w| ≤ 128
                // is exact as unsigned. Pairs sum to at most 2 · 128 · 127 < 2^15: no saturation.
                let sx = _mm256_sign_epi8(x, w);
                let dot = _mm256_madd_epi16(_mm256_maddubs_epi16(aw, sx), ones);
                let scale = _mm256_set1_ps(xq.scales[t * blocks + b] * row_scales[b]);
                acc[i] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(dot), scale, acc[i]);
            }
        }
        for i in 0..m {
            let mut lanes = [0f32; 8];
            // SAFETY: lanes holds 8 f32.
            unsafe { _mm256_storeu_ps(lanes.as_mut_ptr(), acc[i]) };
            sums[i] = lanes.iter().sum();
        }
    }
}

/// The AVX-512 VNNI path: a tile of 4 weight rows × 3 tokens in registers, weights read straight
/// from the packed matrix (Q4_0 rows widened to bytes first when many tokens will read them).
///
/// `vpdpbusd` multiplies 64 unsigned bytes by 64 signed bytes and sums each four into one of 16
/// i32 lanes (lanes 0–7 are one block, 8–15 the next). The activations go in unsigned, as
/// `x + 128`, and the weights as they are stored (Q4_0's nibbles widened in registers), so nothing
/// is unpacked to memory; the `128 · Σw` this adds is taken off by starting each sum from
/// `-(128 · Σw)`, computed once per row and shared by the tile's tokens. The integer sums stay
/// exact, as on the other paths.
#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;
    use std::ops::Range;

    use super::{Int8Activations, QMatrix, BLOCK};

    /// Weight rows per tile.
    const ROWS: usize = 4;
    /// Tokens per tile: 4 × 3 sums leave registers for the operands.
    const TOKENS: usize = 3;

    pub(super) fn available() -> bool {
        std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512bw") && std::is_x86_feature_detected!("avx512vnni")
    }

    /// [`super::matmul_rows`] for `k` a multiple of 64.
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    pub(super) fn matmul_rows(xq: &Int8Activations, t: usize, w: &QMatrix, rows: Range<usize>, out: &mut [f32]) {
        let k = w.cols();
        let blocks = k / BLOCK;
        let (words, scales) = (w.values(), w.scales());
        let row_bytes = k * w.bits() as usize / 8;
        assert!(rows.end * row_bytes <= words.len() * 4 && rows.end * blocks <= scales.len());
        // Q4_0 rows are widened to bytes once per tile of rows when more than one tile of tokens
        // will read them; for one tile, in registers.
        let widen = w.bits() == 4 && t > TOKENS;
        let mut widened = vec![0i8; if widen { ROWS * k } else { 0 }];
        let stride = rows.len();
        for n0 in rows.clone().step_by(ROWS) {
            let nr = ROWS.min(rows.end - n0);
            // Rows past the end repeat the last one; their sums are not written.
            let tile_rows: [usize; ROWS] = std::array::from_fn(|r| n0 + r.min(nr - 1));
            // SAFETY: the assert above bounds every row.
            let mut row_ptr: [*const u8; ROWS] = tile_rows.map(|n| unsafe { (words.as_ptr() as *const u8).add(n * row_bytes) });
            if widen {
                for (r, dst) in widened.chunks_exact_mut(k).enumerate() {
                    for p in 0..k / 64 {
                        // SAFETY: row r holds k / 2 bytes; dst has room for 64 more bytes at p * 64.
                        unsafe { _mm512_storeu_si512(dst.as_mut_ptr().add(p * 64) as *mut _, load_weights::<4>(row_ptr[r], p)) };
                    }
                    row_ptr[r] = dst.as_ptr() as *const u8;
                }
            }
            let row_scales = tile_rows.map(|n| &scales[n * blocks..(n + 1) * blocks]);
            let mut t0 = 0;
            while t0 < t {
                let m = TOKENS.min(t - t0);
                let mut sums = [[0f32; TOKENS]; ROWS];
                // SAFETY (all): row_ptr rows hold k weights of the given width (checked above).
                unsafe {
                    match (w.bits() == 8 || widen, m) {
                        (true, 3) => tile::<3, 8>(xq, k, row_ptr, row_scales, t0, &mut sums),
                        (true, 2) => tile::<2, 8>(xq, k, row_ptr, row_scales, t0, &mut sums),
                        (true, _) => tile::<1, 8>(xq, k, row_ptr, row_scales, t0, &mut sums),
                        (false, 3) => tile::<3, 4>(xq, k, row_ptr, row_scales, t0, &mut sums),
                        (false, 2) => tile::<2, 4>(xq, k, row_ptr, row_scales, t0, &mut sums),
                        (false, _) => tile::<1, 4>(xq, k, row_ptr, row_scales, t0, &mut sums),
                    }
                }
                for (r, row_sums) in sums[..nr].iter().enumerate() {
                    for (i, s) in row_sums[..m].iter().enumerate() {
                        out[(t0 + i) * stride + n0 - rows.start + r] = *s;
                    }
                }
                t0 += m;
            }
        }
    }

    /// `sums[r][i]` for the weight rows at `row_ptr` (`k` weights of `BITS` bits each, block
    /// scales `row_scales`) and tokens `t0 .. t0 + M`.
    ///
    /// # Safety
    /// Each `row_ptr[r]` must be readable for `k * BITS / 8` bytes.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    unsafe fn tile<const M: usize, const BITS: usize>(
        xq: &Int8Activations,
        k: usize,
        row_ptr: [*const u8; ROWS],
        row_scales: [&[f32]; ROWS],
        t0: usize,
        sums: &mut [[f32; TOKENS]; ROWS],
    ) {
        let (blocks, pairs) = (k / BLOCK, k / (2 * BLOCK));
        assert!(row_scales.iter().all(|s| s.len() == blocks));
        assert!(xq.quants.len() >= (t0 + M) * k && xq.scales.len() >= (t0 + M) * blocks);
        let (x_ptr, dx_ptr) = (unsafe { xq.quants.as_ptr().add(t0 * k) }, unsafe { xq.scales.as_ptr().add(t0 * blocks) });
        let zero = _mm512_setzero_si512();
        let all_128 = _mm512_set1_epi8(-128); // 0x80
        let mut acc = [[_mm512_setzero_ps(); M]; ROWS];
        for p in 0..pairs {
            // SAFETY (every read below): the caller's promise and the asserts above.
            let wv: [__m512i; ROWS] = std::array::from_fn(|r| unsafe { load_weights::<BITS>(row_ptr[r], p) });
            let minus_128_sum_w = wv.map(|w| _mm512_sub_epi32(zero, _mm512_dpbusd_epi32(zero, all_128, w)));
            let sw: [__m512; ROWS] = std::array::from_fn(|r| unsafe { pair_scales(row_scales[r].as_ptr().add(2 * p)) });
            for i in 0..M {
                let x = _mm512_xor_si512(unsafe { _mm512_loadu_si512(x_ptr.add(i * k + p * 64) as *const _) }, all_128);
                let dx = unsafe { pair_scales(dx_ptr.add(i * blocks + 2 * p)) };
                for r in 0..ROWS {
                    let dot = _mm512_dpbusd_epi32(minus_128_sum_w[r], x, wv[r]);
                    acc[r][i] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(dot), _mm512_mul_ps(dx, sw[r]), acc[r][i]);
                }
            }
        }
        for r in 0..ROWS {
            for i in 0..M {
                sums[r][i] = _mm512_reduce_add_ps(acc[r][i]);
            }
        }
    }

    /// The 64 weights of pair of blocks `p` of a row, as signed bytes in column order.
    ///
    /// # Safety
    /// `row` must be readable for `(p + 1) * 64 * BITS / 8` bytes.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn load_weights<const BITS: usize>(row: *const u8, p: usize) -> __m512i {
        if BITS == 8 {
            return unsafe { _mm512_loadu_si512(row.add(p * 64) as *const _) };
        }
        // Byte j holds columns 2j (low nibble) and 2j+1 (high), two's complement: widen each byte
        // to 16 bits, put the high nibble in the upper byte, then sign-extend: (v ^ 8) - 8.
        let wide = _mm512_cvtepu8_epi16(unsafe { _mm256_loadu_si256(row.add(p * 32) as *const __m256i) });
        let nibbles = _mm512_or_si512(_mm512_and_si512(wide, _mm512_set1_epi16(0x000F)), _mm512_and_si512(_mm512_slli_epi16::<4>(wide), _mm512_set1_epi16(0x0F00)));
        _mm512_sub_epi8(_mm512_xor_si512(nibbles, _mm512_set1_epi8(8)), _mm512_set1_epi8(8))
    }

    /// `[s[0] × 8, s[1] × 8]`.
    ///
    /// # Safety
    /// `s` must be readable for 2 floats.
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn pair_scales(s: *const f32) -> __m512 {
        unsafe { _mm512_shuffle_f32x4::<0>(_mm512_set1_ps(*s), _mm512_set1_ps(*s.add(1))) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::ggml::GgmlType;
    use crate::quant::qmatrix::tests::{random_blocks, Rng};

    /// The definition in the module docs, on the dequantized activations and weights, in f64,
    /// with the sum of the terms' magnitudes (the scale of f32 rounding error).
    fn reference(x: &[f32], w: &QMatrix) -> Vec<(f64, f64)> {
        let (n, k) = (w.rows(), w.cols());
        let xq = quantize_activations(x);
        let x_back: Vec<f64> = xq.quants.iter().enumerate().map(|(i, &q)| q as f64 * xq.scales[i / BLOCK] as f64).collect();
        let weights = w.dequantize();
        let t = x.len() / k;
        let mut out = vec![(0f64, 0f64); t * n];
        for ti in 0..t {
            for ni in 0..n {
                let terms = (0..k).map(|kk| x_back[ti * k + kk] * weights[ni * k + kk] as f64);
                out[ti * n + ni] = terms.fold((0.0, 0.0), |(sum, mag), v| (sum + v, mag + v.abs()));
            }
        }
        out
    }

    #[test]
    fn equals_the_definition_on_every_int8_form() {
        // Random Q8_0 blocks include -128, which llama.cpp never writes but a file may hold.
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        for (ty, rows, cols, tokens) in [(GgmlType::Q8_0, 13, 96, 7), (GgmlType::Q4_0, 21, 544, 5), (GgmlType::Q5_0, 9, 64, 1), (GgmlType::Q4_0, 130, 256, 9), (GgmlType::Q8_0, 3, 128, 6), (GgmlType::Q8_0, 66, 192, 3), (GgmlType::Q4_0, 7, 128, 2), (GgmlType::Q4_0, 5, 192, 4)] {
            let w = QMatrix::from_ggml(ty, &random_blocks(ty, rows * cols / 32, &mut rng), rows, cols).unwrap();
            assert!(supports(&w), "{ty:?}");
            let x: Vec<f32> = (0..tokens * cols).map(|_| (rng.next() >> 40) as f32 / (1u64 << 23) as f32 - 1.0).collect();
            let expected = reference(&x, &w);
            let mut out = vec![f32::NAN; tokens * rows];
            qmatmul_int8(&x, &w, &mut out);
            for (i, (&o, &(e, magnitude))) in out.iter().zip(&expected).enumerate() {
                assert!((o as f64 - e).abs() <= 1e-6 * (1.0 + magnitude), "{ty:?} out[{i}]: {o} vs {e} (terms' magnitude {magnitude})");
            }
        }
    }

    #[test]
    fn activations_round_to_the_nearest_of_255_levels() {
        let x: Vec<f32> = (0..32).map(|i| (i as f32 - 15.5) / 10.0).collect();
        let xq = quantize_activations(&x);
        assert_eq!(xq.scales, vec![half::f16::from_f32(1.55 / 127.0).to_f32()]);
        // 0.05 / (1.55 / 127) = 4.097: rounds to 4.
        assert_eq!((xq.quants[0], xq.quants[31], xq.quants[16]), (-127, 127, 4));
    }

    #[test]
    fn halves_round_to_even_as_llama_cpp_simd_does() {
        // max 127 makes the multiplier exactly 1.
        let mut x = vec![0f32; 32];
        x[..5].copy_from_slice(&[127.0, 2.5, 3.5, -2.5, -0.5]);
        let xq = quantize_activations(&x);
        assert_eq!(&xq.quants[..5], &[127, 2, 4, -2, 0]);
        assert_eq!(quantize_blocks(&x).quants, xq.quants);
    }

    #[test]
    fn every_quantizer_gives_the_portable_one_s_values() {
        let mut rng = Rng(99);
        let mut x: Vec<f32> = (0..32 * 40).map(|_| ((rng.next() >> 40) as f32 / (1u64 << 23) as f32 - 1.0) * 3.0).collect();
        x[32..64].fill(0.0); // an all-zero block
        x[64] = f32::MIN_POSITIVE; // a tiny block maximum
        let portable = quantize_blocks(&x);
        let used = quantize_activations(&x);
        assert_eq!(used.quants, portable.quants);
        assert_eq!(used.scales, portable.scales);
    }

    #[test]
    fn forms_with_offsets_or_16_blocks_are_not_taken() {
        let mut rng = Rng(7);
        for ty in [GgmlType::Q4_1, GgmlType::Q5_1, GgmlType::Q4_K, GgmlType::Q6_K] {
            let (qk, _) = ty.block_layout();
            let w = QMatrix::from_ggml(ty, &random_blocks(ty, 256 / qk, &mut rng), 1, 256).unwrap();
            assert!(!supports(&w), "{ty:?}");
        }
    }
}
