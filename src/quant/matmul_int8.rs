//! The fast CPU matmul: activations quantized to 8 bits, as llama.cpp does, so that each block of
//! weights is one integer dot product.
//!
//! Each token's activations are cut into blocks of 32 and stored as `dx · qx` with
//! `dx = max|x| / 127` and `qx = round(x · 127 / max|x|)` in -127..=127, with `dx` then rounded to
//! f16 as ggml stores it: exactly the `quantize_row_q8_0` that llama.cpp runs on x86 and wasm, so
//! the quantized activations are llama.cpp's own. Then, for weights `s · q + m` in blocks `b`,
//!
//! ```text
//! out[t][n] = Σ_b  dx[t][b] · s[n][b] · Σ_{k in b} qx[t][k] · q[n][k]   +   Σ_b  m[n][b] · dx[t][b] · Σ_{k in b} qx[t][k]
//! ```
//!
//! where the inner sums are exact in i32. The second sum is there for the types with an offset
//! (Q4_1, Q5_1, Q4_K, Q5_K): it is llama.cpp's q8_1 scheme, a block's `dx · Σ qx` kept beside its
//! scale (in f32 here; q8_1 rounds it to f16). The K-quants' sub-blocks of 32 (16 for Q6_K) are
//! blocks here, each with its own f32 scale and offset, so their activations are quantized per 32
//! like the rest; llama.cpp's q8_K uses one scale per 256, which is coarser, so the deviation stays
//! within llama.cpp's own. This is not the exact path: quantizing activations moves logits by about
//! as much as llama.cpp's own difference from transformers, which `tests/integration/model_parity.rs`
//! measures. Natively [`qmatmul`](super::qmatmul) with f32 activations stays the default and this
//! one is asked for (`--backend cpu-int8`); the browser's worker uses it on the CPU by default.
//!
//! It takes every [`QMatrix`] form (Q8_0, Q5_0, Q4_0, Q4_1, Q5_1, Q4_K, Q5_K, Q6_K). They are
//! repacked once, at load, into an [`Int8Matrix`]: rows in groups of 16, their quants interleaved
//! four columns at a time, so that 64 bytes hold four columns of sixteen rows (eight columns as
//! two nibbles each for 4-bit types). A SIMD multiply of four such columns by four bytes of one
//! token's activations (repeated in every lane) adds four products to each of the sixteen rows'
//! sums at once; after a block's columns each lane holds one row's whole integer dot product for
//! the block, ready to scale, with no horizontal sums. (llama.cpp's x86 and Arm GEMMs repack Q4_0
//! and Q4_K similarly, interleaving 4 or 8 rows.)
//!
//! Kernels: on x86-64 with AVX-512 VNNI, 2 groups × 6 tokens in registers with `vpdpbusd` (see
//! [`avx512`]); with AVX2, half a group × 4 tokens (a group × 1 or 2 at the end) with `vpmaddubsw` +
//! `vpmaddwd` (see [`avx2`]); on
//! wasm32 (built with SIMD128, `.cargo/config.toml`), 1 group × 2 tokens with `i32x4.dot_i16x8_s`
//! (see [`simd128`]); elsewhere plain Rust computes the same integers. [`check_int8_kernel`] checks
//! the one in use against the definition; the self-test runs it, in the browser too.
//!
//! Why one long file (about 1,300 lines before its tests): the kernels (AVX-512 VNNI, AVX2, SIMD128,
//! relaxed SIMD, portable) sit beside the one repacked layout they share and the definition each is
//! checked against; apart, a change to the layout could miss one of them.

// The tile kernels index accumulators and blocks by row and token (`acc[r][i]`), as the sums above
// are written; iterators over zipped arrays would hide the tile's shape.
#![allow(clippy::needless_range_loop)]

use std::ops::Range;

use super::matmul::tokens_to_multiply;
use super::QMatrix;

/// Activations are quantized in blocks of 32; weight blocks are 32 or 16 (Q6_K) columns.
const BLOCK: usize = 32;
/// The activation sums are kept per 16 columns, the smallest weight block.
const SUM_BLOCK: usize = 16;
/// Rows that share one interleaved group: one 64-byte vector holds 4 columns of each.
const GROUP: usize = 16;
/// Below this many multiply-adds per thread, another thread costs more than it saves.
const MIN_MACS_PER_THREAD: usize = 1 << 21;

/// Whether [`Int8Matrix::new`] takes `w`: 8-bit quants in blocks of 16 or 32, 4-bit ones in blocks
/// of 32; offsets only with blocks of 32; whole activation blocks of 32 in a row. Every form
/// [`QMatrix::from_ggml`] makes is one of these.
pub fn supports(w: &QMatrix) -> bool {
    if !w.cols().is_multiple_of(BLOCK) {
        return false;
    }
    match (w.bits(), w.block()) {
        (8, 32) | (4, 32) => true,
        (8, 16) => w.offsets().is_none(),
        _ => false,
    }
}

/// A [`QMatrix`] of a [`supports`]ed form, repacked for [`qmatmul_int8`]: the same quants, scales
/// and offsets, reordered.
///
/// # Layout
///
/// Rows are taken in groups of [`GROUP`] = 16 (the last group padded with zero weights, zero
/// scales and zero offsets). The quants of group `g`, block `b` (columns `B·b .. B·b + B`, `B` =
/// `block`) are the `16 · B · bits / 8` bytes starting at `(g · blocks + b)` times that:
///
/// - 8 bits: `B / 4` 64-byte chunks. Byte `4r + j` of chunk `c` is the quant of row `16g + r`,
///   column `B·b + 4c + j`, in two's complement.
/// - 4 bits (`B` = 32): four 64-byte chunks. Byte `4r + j` of chunk `c` holds column
///   `32b + 4c + j` of row `16g + r` in its low nibble and column `32b + 4(c + 4) + j` in its high
///   nibble, each as `q + zero` (0..=15, unsigned): `zero` is 8 for Q4_0's signed quants and 0 for
///   the unsigned ones of Q4_1 and Q4_K.
///
/// `scales` (and `offsets`) hold the 16 rows' values of each (group, block), in that order, as
/// f32 or, natively where that is exact, f16 ([`Factors`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Int8Matrix {
    rows: usize,
    cols: usize,
    bits: usize,
    block: usize,
    zero: i32,
    /// 8 bits: every quant is within -32..=31 (the 5- and 6-bit types: Q5_0, Q5_1, Q5_K, Q6_K).
    /// The AVX2 kernel then biases them to 0..=63, unsigned, which `vpmaddubsw` multiplies by the
    /// signed activations directly, two columns' pairs summed in i16 without saturating; the
    /// relaxed-SIMD kernel takes them in one 7-bit dot product instead of two nibbles'.
    #[cfg_attr(not(any(target_arch = "x86_64", target_arch = "wasm32")), allow(dead_code))]
    narrow: bool,
    quants: Vec<u8>,
    scales: Factors,
    offsets: Option<Factors>,
}

/// A matrix's scales (or offsets), 16 per (group, block). Natively they are kept as f16 where every
/// one of them is an f16 value (Q4_0, Q4_1, Q5_0, Q5_1 and Q8_0 store them so; a K-quant's are a
/// product of two, kept as f32): a token's pass through Q4_1 weights then reads 20 bytes per block
/// of 32 weights, as llama.cpp does, instead of 24, and decoding one token is mostly that read.
/// The x86 kernels widen them with `vcvtph2ps`; on wasm32, which has no such instruction, they stay
/// f32.
#[derive(Debug, Clone, PartialEq)]
enum Factors {
    F32(Vec<f32>),
    F16(Vec<u16>),
}

impl Factors {
    /// A matrix's scales and offsets, both as f16 where that keeps every value exactly (and the
    /// target widens f16 in one instruction), else both as they are: the kernels read the two in
    /// one form.
    fn pair(scales: Vec<f32>, offsets: Option<Vec<f32>>) -> (Factors, Option<Factors>) {
        let exact = |v: &f32| half::f16::from_f32(*v).to_f32().to_bits() == v.to_bits();
        let as_f16 = cfg!(target_arch = "x86_64")
            && scales.iter().all(exact)
            && offsets.as_ref().is_none_or(|o| o.iter().all(exact));
        let form = |values: Vec<f32>| match as_f16 {
            true => Factors::F16(values.iter().map(|v| half::f16::from_f32(*v).to_bits()).collect()),
            false => Factors::F32(values),
        };
        (form(scales), offsets.map(form))
    }

    /// The 16 values from index `at`, as f32.
    fn sixteen(&self, at: usize) -> [f32; GROUP] {
        match self {
            Factors::F32(v) => v[at..at + GROUP].try_into().unwrap_or([0.0; GROUP]),
            Factors::F16(v) => std::array::from_fn(|i| half::f16::from_bits(v[at + i]).to_f32()),
        }
    }

    // Read by the x86 kernels only (wasm32 keeps f32).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    fn is_f16(&self) -> bool {
        matches!(self, Factors::F16(_))
    }

    /// Where the values from index `at` start (f32 or f16 ones, as [`Factors::is_f16`] says).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    fn ptr(&self, at: usize) -> *const u8 {
        match self {
            Factors::F32(v) => v[at..].as_ptr() as *const u8,
            Factors::F16(v) => v[at..].as_ptr() as *const u8,
        }
    }
}

impl Int8Matrix {
    /// `w` repacked, or `None` if its form is not [`supports`]ed.
    pub fn new(w: &QMatrix) -> Option<Int8Matrix> {
        if !supports(w) {
            return None;
        }
        let (rows, cols, bits, block) = (w.rows(), w.cols(), w.bits() as usize, w.block());
        let zero = if bits == 4 && w.signed() { 8 } else { 0 };
        let blocks = cols / block;
        let groups = rows.div_ceil(GROUP);
        let block_bytes = GROUP * block * bits / 8;
        // Padding rows hold quant 0, which a 4-bit field stores as `zero`.
        let fill = if bits == 4 { (zero as u8) | ((zero as u8) << 4) } else { 0 };
        let mut quants = vec![fill; groups * blocks * block_bytes];
        let mut scales = vec![0f32; groups * blocks * GROUP];
        let mut offsets = w.offsets().map(|_| vec![0f32; groups * blocks * GROUP]);
        let mut row = vec![0i8; cols];
        let mut narrow = bits == 8;
        for n in 0..rows {
            let (g, r) = (n / GROUP, n % GROUP);
            unpack_row(w, n, &mut row);
            narrow &= row.iter().all(|q| (-32..=31).contains(q));
            for (b, quants_b) in row.chunks_exact(block).enumerate() {
                let at = g * blocks + b;
                scales[at * GROUP + r] = w.scales()[n * blocks + b];
                if let (Some(dst), Some(src)) = (offsets.as_mut(), w.offsets()) {
                    dst[at * GROUP + r] = src[n * blocks + b];
                }
                let dst = &mut quants[at * block_bytes..(at + 1) * block_bytes];
                for (col, &q) in quants_b.iter().enumerate() {
                    let (c, j) = (col / 4, col % 4);
                    if bits == 8 {
                        dst[64 * c + 4 * r + j] = q as u8;
                    } else {
                        let nibble = (q as i32 + zero) as u8;
                        let byte = &mut dst[64 * (c % 4) + 4 * r + j];
                        *byte = if c < 4 { (*byte & 0xF0) | nibble } else { (*byte & 0x0F) | (nibble << 4) };
                    }
                }
            }
        }
        let (scales, offsets) = Factors::pair(scales, offsets);
        Some(Int8Matrix { rows, cols, bits, block, zero, narrow, quants, scales, offsets })
    }

    /// N, output features.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// K, input features.
    pub fn cols(&self) -> usize {
        self.cols
    }

    fn groups(&self) -> usize {
        self.rows.div_ceil(GROUP)
    }

    /// Weight blocks per row.
    fn blocks(&self) -> usize {
        self.cols / self.block
    }

    fn block_bytes(&self) -> usize {
        GROUP * self.block * self.bits / 8
    }

    /// The quant of row `r` of group `g`, column `col` of block `b`, read back from the layout.
    fn quant(&self, g: usize, b: usize, r: usize, col: usize) -> i32 {
        let bytes = &self.quants[(g * self.blocks() + b) * self.block_bytes()..];
        let (c, j) = (col / 4, col % 4);
        if self.bits == 8 {
            bytes[64 * c + 4 * r + j] as i8 as i32
        } else {
            let byte = bytes[64 * (c % 4) + 4 * r + j];
            (if c < 4 { byte & 0xF } else { byte >> 4 }) as i32 - self.zero
        }
    }

    /// The quants of group `g`, block `b`: `q[r][col]` for `col < block`.
    fn unpack_block(&self, g: usize, b: usize, q: &mut [[i32; BLOCK]; GROUP]) {
        for (r, row) in q.iter_mut().enumerate() {
            for (col, v) in row[..self.block].iter_mut().enumerate() {
                *v = self.quant(g, b, r, col);
            }
        }
    }

    /// The weights of the given rows as f32, row after row (an embedding lookup): `scale · q`
    /// (`+ offset`), the same bits as [`QMatrix::dequantize_rows`].
    ///
    /// # Panics
    ///
    /// If a row is out of range (the caller checks token ids against the vocabulary).
    pub fn dequantize_rows(&self, rows: &[usize]) -> Vec<f32> {
        let mut out = vec![0f32; rows.len() * self.cols];
        for (row_out, &n) in out.chunks_exact_mut(self.cols).zip(rows) {
            assert!(n < self.rows, "row {n} of a {}-row matrix", self.rows);
            let (g, r) = (n / GROUP, n % GROUP);
            for (b, y) in row_out.chunks_exact_mut(self.block).enumerate() {
                let scale = self.block_scales(g, b)[r];
                let offset = self.block_offsets(g, b).map(|o| o[r]);
                for (col, y) in y.iter_mut().enumerate() {
                    let v = self.quant(g, b, r, col) as f32 * scale;
                    *y = match offset {
                        Some(m) => v + m,
                        None => v,
                    };
                }
            }
        }
        out
    }

    /// The 16 scales of group `g`, block `b`.
    fn block_scales(&self, g: usize, b: usize) -> [f32; GROUP] {
        self.scales.sixteen((g * self.blocks() + b) * GROUP)
    }

    /// The 16 offsets of group `g`, block `b`, for the types that have them.
    fn block_offsets(&self, g: usize, b: usize) -> Option<[f32; GROUP]> {
        self.offsets.as_ref().map(|o| o.sixteen((g * self.blocks() + b) * GROUP))
    }
}

/// Row `n`'s quants as i8, in column order (4-bit fields sign- or zero-extended as `w` says).
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
                *q = if w.signed() {
                    // Shift the nibble to the top of an i32 and back: sign-extends.
                    (((*word << (28 - 4 * i)) as i32) >> 28) as i8
                } else {
                    ((*word >> (4 * i)) & 0xF) as i8
                };
            }
        }
    }
}

/// Activations of `t` tokens as 8-bit blocks: `x[t][k] ≈ scales[t][k / 32] · quants[t][k]`; the
/// sum of each 16 quants (`sums`), which the kernels need when a weight is stored with an offset
/// (`q + 8`, or `q + 128` in a register); and each block of 32's `dx · Σ qx` (`block_sums`), which
/// multiplies a weight block's offset `m`.
struct Int8Activations {
    quants: Vec<i8>,
    scales: Vec<f32>,
    // Read by the SIMD kernels only; the portable one multiplies signed quants directly.
    #[cfg_attr(not(any(target_arch = "x86_64", target_arch = "wasm32")), allow(dead_code))]
    sums: Vec<i32>,
    block_sums: Vec<f32>,
    /// The same rearranged for the AVX-512 kernel (made when that kernel runs).
    #[cfg(target_arch = "x86_64")]
    tiles: Option<avx512::Tiles>,
}

fn quantize_activations(x: &[f32]) -> Int8Activations {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { quantize_activations_avx2(x) };
    }
    quantize_blocks(x)
}

impl Int8Activations {
    /// `x` (rows of `k`) quantized, with what `kernel` reads besides (the AVX-512 kernel's tiles).
    fn for_kernel(kernel: Kernel, x: &[f32], k: usize) -> Int8Activations {
        #[allow(unused_mut)] // set only on x86-64
        let mut xq = quantize_activations(x);
        #[cfg(target_arch = "x86_64")]
        if kernel == Kernel::Avx512Vnni {
            xq.tiles = Some(avx512::Tiles::new(&xq, x.len() / k, k));
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (kernel, k);
        xq
    }

    fn new(quants: Vec<i8>, scales: Vec<f32>) -> Int8Activations {
        let sums: Vec<i32> = quants.chunks_exact(SUM_BLOCK).map(|b| b.iter().map(|&q| q as i32).sum()).collect();
        let block_sums =
            sums.chunks_exact(BLOCK / SUM_BLOCK).zip(&scales).map(|(s, &dx)| dx * (s[0] + s[1]) as f32).collect();
        Int8Activations {
            quants,
            scales,
            sums,
            block_sums,
            #[cfg(target_arch = "x86_64")]
            tiles: None,
        }
    }

    /// Σ qx over `len` (16 or 32) columns of token `t` from column `col` (a multiple of `len`),
    /// in a row of `k` columns.
    #[cfg_attr(not(any(target_arch = "x86_64", target_arch = "wasm32")), allow(dead_code))]
    #[inline]
    fn sum(&self, t: usize, k: usize, col: usize, len: usize) -> i32 {
        let at = (t * k + col) / SUM_BLOCK;
        if len == SUM_BLOCK {
            self.sums[at]
        } else {
            self.sums[at] + self.sums[at + 1]
        }
    }
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
        let q = v.map(|v| {
            _mm256_cvtps_epi32(_mm256_round_ps::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(_mm256_mul_ps(
                v, id,
            )))
        });
        // Pack 4 x 8 i32 into 32 i8; the packs work per 128-bit lane, and the permute restores order.
        let packed = _mm256_packs_epi16(_mm256_packs_epi32(q[0], q[1]), _mm256_packs_epi32(q[2], q[3]));
        let ordered = _mm256_permutevar8x32_epi32(packed, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
        unsafe { _mm256_storeu_si256(qb.as_mut_ptr() as *mut __m256i, ordered) };
        scales.push(half::f16::from_f32(amax / 127.0).to_f32());
    }
    Int8Activations::new(quants, scales)
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
    Int8Activations::new(quants, scales)
}

/// Where a kernel writes: `out[t][n]` with `stride` = N, `len` floats in all. Threads hold copies
/// and write disjoint columns (their own groups' rows).
#[derive(Clone, Copy)]
struct Output {
    ptr: *mut f32,
    stride: usize,
    len: usize,
}

// SAFETY: each thread writes only the columns of its own groups (see `run_on_threads`).
unsafe impl Send for Output {}
unsafe impl Sync for Output {}

/// The kernels; [`Kernel::best`] is the one this CPU runs.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kernel {
    // Not chosen in a SIMD128 build; kept for other targets (and the tests).
    #[cfg_attr(all(target_arch = "wasm32", target_feature = "simd128"), allow(dead_code))]
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(target_arch = "x86_64")]
    Avx512Vnni,
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    Simd128,
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    RelaxedSimd,
}

/// The signature every kernel's `matmul_groups` has (see [`Kernel::run`]).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
type MatmulGroups = unsafe fn(&Int8Activations, usize, &Int8Matrix, Range<usize>, Output);

/// The relaxed-SIMD kernel, once the worker build that runs it has asked for it
/// ([`use_relaxed_simd_kernel`]). Both workers link one build of this library (before, a cargo
/// feature compiled it twice), and the SIMD128 one must not hold a single relaxed instruction: a
/// wasm module is validated whole. So the kernel is generic and compiled only into the crate that
/// instantiates it, the relaxed worker's `main`: LLVM gives every function of a wasm object file
/// the union of its functions' target features, so a relaxed kernel compiled into this library
/// let `f64x2.relaxed_max` into ordinary code (`tests/integration/bundle.rs` caught it).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
static RELAXED_SIMD_KERNEL: std::sync::OnceLock<MatmulGroups> = std::sync::OnceLock::new();

/// Makes the int8 matmul use the relaxed-SIMD kernel. Only `lingualens-worker-relaxed` calls it
/// (`use_relaxed_simd_kernel::<()>()`), first thing: the page starts that build only where the
/// browser validates a relaxed-SIMD instruction (`web::protocol::RELAXED_SIMD_PROBE`). `Caller`
/// means nothing; being generic, the kernel is compiled where it is called (see [`RELAXED_SIMD_KERNEL`]).
#[cfg(target_arch = "wasm32")]
pub fn use_relaxed_simd_kernel<Caller>() {
    #[cfg(target_feature = "simd128")]
    let _ = RELAXED_SIMD_KERNEL.set(relaxed_simd::matmul_groups::<Caller> as MatmulGroups);
}

impl Kernel {
    fn best() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        {
            if avx512::available() {
                return Kernel::Avx512Vnni;
            }
            if avx2::available() {
                return Kernel::Avx2;
            }
        }
        // A wasm module is validated whole: one built with SIMD128 (or relaxed SIMD) runs only
        // where the browser has it.
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        let fallback = if Kernel::RelaxedSimd.available() { Kernel::RelaxedSimd } else { Kernel::Simd128 };
        #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
        let fallback = Kernel::Portable;
        fallback
    }

    fn name(self) -> &'static str {
        match self {
            Kernel::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => "avx2",
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512Vnni => "avx512-vnni",
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Kernel::Simd128 => "simd128",
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Kernel::RelaxedSimd => "relaxed-simd",
        }
    }

    fn available(self) -> bool {
        match self {
            Kernel::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => avx2::available(),
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512Vnni => avx512::available(),
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Kernel::Simd128 => true,
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Kernel::RelaxedSimd => RELAXED_SIMD_KERNEL.get().is_some(),
        }
    }

    /// The output columns of the rows in `groups`, for every token, written into `out`.
    ///
    /// # Safety
    /// `out.ptr` must be valid for writes of `out.len` floats, and no other thread may write the
    /// columns of `groups` meanwhile. (The shapes and this CPU's support for `self` are checked.)
    unsafe fn run(self, xq: &Int8Activations, t: usize, w: &Int8Matrix, groups: Range<usize>, out: Output) {
        assert!(self.available(), "{self:?} is not available on this CPU");
        assert!(groups.end <= w.groups() && xq.quants.len() == t * w.cols && xq.scales.len() == t * w.cols / BLOCK);
        assert!(out.stride == w.rows && out.len == t * w.rows, "out is not [{t}][{}]", w.rows);
        match self {
            // SAFETY (all): the caller's promises and the checks above.
            Kernel::Portable => unsafe { matmul_groups(xq, t, w, groups, out) },
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => unsafe { avx2::matmul_groups(xq, t, w, groups, out) },
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512Vnni => match &xq.tiles {
                Some(tiles) => unsafe { avx512::matmul_groups(tiles, t, w, groups, out) },
                None => unsafe { avx512::matmul_groups(&avx512::Tiles::new(xq, t, w.cols), t, w, groups, out) },
            },
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Kernel::Simd128 => unsafe { simd128::matmul_groups(xq, t, w, groups, out) },
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Kernel::RelaxedSimd => match RELAXED_SIMD_KERNEL.get() {
                Some(kernel) => unsafe { kernel(xq, t, w, groups, out) },
                None => unreachable!("available() checked that the relaxed-SIMD kernel was asked for"),
            },
        }
    }
}

/// `out = x · Wᵀ` with `x` quantized to 8 bits per block (see the module docs); `x` is `[T][K]`,
/// `out` `[T][N]`, row-major. On native targets the rows are split across the available cores
/// when the matmul is large enough to pay for the threads.
///
/// # Panics
///
/// If the shapes disagree: programming errors, not bad input.
pub fn qmatmul_int8(x: &[f32], w: &Int8Matrix, out: &mut [f32]) {
    qmatmul_int8_each(x, &[w], &mut [out])
}

/// [`qmatmul_int8`] of one `x` by each of `weights` into the `outs` in the same order (a layer's
/// q, k and v, or its gate and up, which read the same input): the activations are quantized once
/// for all of them.
///
/// # Panics
///
/// If the shapes disagree or the counts differ: programming errors, not bad input.
pub fn qmatmul_int8_each(x: &[f32], weights: &[&Int8Matrix], outs: &mut [&mut [f32]]) {
    assert_eq!(weights.len(), outs.len(), "qmatmul_int8_each: one output per weight");
    assert!(weights.windows(2).all(|w| w[0].cols == w[1].cols), "qmatmul_int8_each: the weights' input sizes differ");
    let kernel = Kernel::best();
    let mut input = None;
    for (w, out) in weights.iter().zip(outs.iter_mut()) {
        let threads = crate::parallel::cores().min(x.len() * w.rows / MIN_MACS_PER_THREAD).max(1);
        let Some(t) = tokens_to_multiply("qmatmul_int8", x, w.rows, w.cols, out) else { continue };
        let xq = input.get_or_insert_with(|| Int8Activations::for_kernel(kernel, x, w.cols));
        run_on_threads(kernel, threads, xq, t, w, out);
    }
}

/// [`qmatmul_int8`] with a given kernel (checked against this CPU) on up to `threads` threads.
fn qmatmul_int8_with(kernel: Kernel, threads: usize, x: &[f32], w: &Int8Matrix, out: &mut [f32]) {
    let Some(t) = tokens_to_multiply("qmatmul_int8", x, w.rows, w.cols, out) else { return };
    run_on_threads(kernel, threads, &Int8Activations::for_kernel(kernel, x, w.cols), t, w, out);
}

/// `out = xq · Wᵀ` for `t` tokens with `kernel`, the groups split across up to `threads` threads
/// natively.
fn run_on_threads(kernel: Kernel, threads: usize, xq: &Int8Activations, t: usize, w: &Int8Matrix, out: &mut [f32]) {
    let n = w.rows;
    let groups = w.groups();
    let output = Output { ptr: out.as_mut_ptr(), stride: n, len: out.len() };

    if threads > 1 && groups > 2 {
        // Runs of an even number of groups, so that the AVX-512 tile (two groups at a time)
        // computes no group twice.
        let per_part = groups.div_ceil(threads * crate::parallel::PARTS_PER_CORE).next_multiple_of(2);
        crate::parallel::for_each_part(groups.div_ceil(per_part), |i| {
            let run = i * per_part..((i + 1) * per_part).min(groups);
            // SAFETY: the runs are disjoint, so each part writes its own columns of `out`, which
            // outlives the call.
            unsafe { kernel.run(xq, t, w, run, output) }
        });
        return;
    }
    // SAFETY: one thread writes all of `out`, which is `[t][n]`.
    unsafe { kernel.run(xq, t, w, 0..groups, output) };
}

/// The definition in the module docs, on the dequantized activations and weights, in f64, with
/// the sum of the terms' magnitudes (the scale of f32 rounding error): the kernels' reference.
fn definition(x: &[f32], w: &QMatrix) -> Vec<(f64, f64)> {
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

/// The kernel [`qmatmul_int8`] runs on this machine, checked against the definition on one
/// matrix of each form it takes (8-bit in blocks of 32 with and without offsets, signed 4-bit,
/// unsigned 4-bit with offsets, 8-bit in blocks of 16, and 8-bit within -32..=31 in blocks of 32
/// and 16, which the x86 and relaxed-SIMD kernels read as 6-bit), with a partial group of rows and a token
/// count that leaves a remainder in every kernel's tile. Returns the kernel's name and its largest
/// error as a fraction of `1 + Σ|x·w|`: the integer sums are exact, so only f32 rounding is left
/// (about 1e-7). The self-test runs this where the model will run: in the browser, the SIMD128
/// kernel in the worker's own wasm.
pub fn check_int8_kernel() -> Int8KernelCheck {
    let kernel = Kernel::best();
    let (rows, cols, tokens) = (37, 192, 7);
    // xorshift64: deterministic values without a dependency.
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let uniform = |bits: u64| (bits >> 40) as f32 / (1u64 << 23) as f32 - 1.0;
    let mut worst = 0f64;
    // (bits, block, signed, offsets, narrow: 8-bit quants within -32..=31, as Q5_0 and Q6_K's)
    for (bits, block, signed, offsets, narrow) in [
        (8, 32, true, false, false),
        (8, 32, true, true, false),
        (4, 32, true, false, false),
        (4, 32, false, true, false),
        (8, 16, true, false, false),
        (8, 32, true, false, true),
        (8, 16, true, false, true),
    ] {
        let blocks = rows * cols / block;
        let scales = (0..blocks).map(|_| uniform(next()) / 16.0).collect();
        let offsets = offsets.then(|| (0..blocks).map(|_| uniform(next())).collect());
        let narrowed = |word: u32| u32::from_le_bytes(word.to_le_bytes().map(|b| ((b & 0x3F) as i8 - 32) as u8));
        let values =
            (0..rows * cols * bits / 32).map(|_| next() as u32).map(|v| if narrow { narrowed(v) } else { v }).collect();
        let w =
            QMatrix::new(rows, cols, bits as u32, block, signed, scales, offsets, values).expect("a consistent matrix");
        let packed = Int8Matrix::new(&w).expect("a form the int8 path takes");
        let x: Vec<f32> = (0..tokens * cols).map(|_| uniform(next())).collect();
        let mut out = vec![f32::NAN; tokens * rows];
        qmatmul_int8_with(kernel, 1, &x, &packed, &mut out);
        for (&o, (e, magnitude)) in out.iter().zip(definition(&x, &w)) {
            let error = if o.is_finite() { (o as f64 - e).abs() / (1.0 + magnitude) } else { f64::INFINITY };
            worst = worst.max(error);
        }
    }
    Int8KernelCheck { kernel: kernel.name(), shape: [tokens, cols, rows], error: worst }
}

/// The kernel [`qmatmul_int8`] runs on this CPU and build: "avx512-vnni", "avx2", "relaxed-simd",
/// "simd128" or "portable".
pub fn int8_kernel() -> &'static str {
    Kernel::best().name()
}

/// What [`check_int8_kernel`] found.
#[derive(Debug, Clone, PartialEq)]
pub struct Int8KernelCheck {
    /// "avx512-vnni", "avx2", "simd128" or "portable".
    pub kernel: &'static str,
    /// Tokens, input features, output features.
    pub shape: [usize; 3],
    /// The largest error as a fraction of `1 + Σ|x·w|`.
    pub error: f64,
}

/// The portable kernel: one group and one token at a time, in plain Rust.
///
/// # Safety
/// As [`Kernel::run`].
unsafe fn matmul_groups(xq: &Int8Activations, t: usize, w: &Int8Matrix, groups: Range<usize>, out: Output) {
    let (k, wb) = (w.cols, w.block);
    let mut q = [[0i32; BLOCK]; GROUP];
    let mut sums = vec![0f32; t * GROUP];
    for g in groups {
        sums.fill(0.0);
        for b in 0..w.blocks() {
            w.unpack_block(g, b, &mut q);
            let (s, m) = (w.block_scales(g, b), w.block_offsets(g, b));
            for (ti, token_sums) in sums.chunks_exact_mut(GROUP).enumerate() {
                let xb = &xq.quants[ti * k + b * wb..][..wb];
                let a = (ti * k + b * wb) / BLOCK;
                let dx = xq.scales[a];
                for (r, (sum, row)) in token_sums.iter_mut().zip(&q).enumerate() {
                    let dot: i32 = row[..wb].iter().zip(xb).map(|(&a, &c)| a * c as i32).sum();
                    *sum += dot as f32 * (s[r] * dx);
                    if let Some(m) = m {
                        *sum += m[r] * xq.block_sums[a];
                    }
                }
            }
        }
        let valid = w.rows.saturating_sub(g * GROUP).min(GROUP);
        for (ti, token_sums) in sums.chunks_exact(GROUP).enumerate() {
            for (r, &s) in token_sums[..valid].iter().enumerate() {
                // SAFETY: the caller's promise: (ti, g * 16 + r) is in `out` and ours to write.
                unsafe { *out.ptr.add(ti * out.stride + g * GROUP + r) = s };
            }
        }
    }
}

/// AVX2 (no VNNI; with FMA and F16C, which every AVX2 CPU has): half a group (8 rows, one
/// vector's lanes) × 4 tokens, or the whole group × the last 1 or 2.
///
/// `vpmaddubsw` multiplies unsigned bytes by signed bytes, so 8-bit weights use llama.cpp's sign
/// trick (|w| times x with w's sign), and 4-bit weights go in as stored, `q + zero`, with the
/// `zero · Σx` this adds taken off by starting each sum from `-zero · Σx`.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;
    use std::ops::Range;

    use super::{Int8Activations, Int8Matrix, Output, BLOCK, GROUP};

    pub(super) fn available() -> bool {
        std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("fma")
            && std::is_x86_feature_detected!("f16c")
    }

    /// # Safety
    /// As [`super::Kernel::run`], on a CPU with AVX2, FMA and F16C.
    #[target_feature(enable = "avx2,fma,f16c")]
    pub(super) unsafe fn matmul_groups(
        xq: &Int8Activations,
        t: usize,
        w: &Int8Matrix,
        groups: Range<usize>,
        out: Output,
    ) {
        // A tile keeps T x H vectors of integer sums and as many of float sums in AVX2's 16
        // registers: 4 tokens over half a group (H = 1) while 3 or more are left, each weight
        // vector then used 4 times; the last 1 or 2 tokens over the whole group (H = 2), as a
        // decoded token is.
        for g in groups {
            let mut t0 = 0;
            while t - t0 >= 3 {
                let m = 4.min(t - t0);
                // A half of padding rows only, past the matrix's last row, is skipped.
                for half in (0..2).filter(|h| g * GROUP + 8 * h < w.rows) {
                    // SAFETY (all): the caller's promises; t0 + m <= t.
                    unsafe {
                        match m {
                            4 => tiles::<4, 1>(xq, w, g, half, t0, out),
                            _ => tiles::<3, 1>(xq, w, g, half, t0, out),
                        }
                    }
                }
                t0 += m;
            }
            // SAFETY (both): as above.
            match t - t0 {
                2 => unsafe { tiles::<2, 2>(xq, w, g, 0, t0, out) },
                1 => unsafe { tiles::<1, 2>(xq, w, g, 0, t0, out) },
                _ => {}
            }
        }
    }

    /// [`tile`] for `w`'s form.
    #[inline]
    #[target_feature(enable = "avx2,fma,f16c")]
    unsafe fn tiles<const T: usize, const H: usize>(
        xq: &Int8Activations,
        w: &Int8Matrix,
        g: usize,
        half: usize,
        t0: usize,
        out: Output,
    ) {
        // SAFETY (all): the caller's promises.
        unsafe {
            match (w.bits, w.narrow, w.block) {
                (8, true, 16) => tile::<T, H, 6, 16>(xq, w, g, half, t0, out),
                (8, true, _) => tile::<T, H, 6, 32>(xq, w, g, half, t0, out),
                (8, _, 16) => tile::<T, H, 8, 16>(xq, w, g, half, t0, out),
                (8, _, _) => tile::<T, H, 8, 32>(xq, w, g, half, t0, out),
                _ => tile::<T, H, 4, 32>(xq, w, g, half, t0, out),
            }
        }
    }

    /// The 8 values of `f` from index `at`, as f32 (widened from f16 with F16C).
    ///
    /// # Safety
    /// `at + 8` values are in `f`.
    #[inline]
    #[target_feature(enable = "avx2,fma,f16c")]
    unsafe fn eight(f: &super::Factors, at: usize) -> __m256 {
        let p = f.ptr(at);
        // SAFETY: the caller's promise.
        unsafe {
            if f.is_f16() {
                _mm256_cvtph_ps(_mm_loadu_si128(p as *const __m128i))
            } else {
                _mm256_loadu_ps(p as *const f32)
            }
        }
    }

    /// `H` halves of group `g` from half `half` (8 rows each, one vector's lanes) × tokens
    /// `t0 .. t0 + T`, in weight blocks of `WB` columns. `BITS` is how the quants are read: 8
    /// (signed bytes), 6 (signed bytes within -32..=31: [`Int8Matrix`]'s `narrow`) or 4 (nibbles).
    #[inline]
    #[target_feature(enable = "avx2,fma,f16c")]
    unsafe fn tile<const T: usize, const H: usize, const BITS: usize, const WB: usize>(
        xq: &Int8Activations,
        w: &Int8Matrix,
        g: usize,
        half: usize,
        t0: usize,
        out: Output,
    ) {
        let (k, blocks, block_bytes) = (w.cols, w.blocks(), w.block_bytes());
        assert!(w.block == WB && if BITS == 6 { w.bits == 8 && w.narrow } else { w.bits == BITS });
        assert!(half + H <= 2 && xq.quants.len() >= (t0 + T) * k && (g + 1) * blocks * block_bytes <= w.quants.len());
        let ones = _mm256_set1_epi16(1);
        // The block's steps of 4 columns. Where a tile holds 4 vectors of sums, a run-time count:
        // LLVM then keeps the loops below as loops, where unrolled whole it hoists every load of
        // the block and spills them (measured: a third slower).
        let steps = if T * H >= 4 { std::hint::black_box(w.block) / 4 } else { WB / 4 };
        let mut acc_f = [[_mm256_setzero_ps(); H]; T];
        // SAFETY (every read below): the asserts above and in Kernel::run bound the blocks, the
        // tokens and the columns (col0 + WB <= k for each block).
        let x_rows: [*const u8; T] =
            std::array::from_fn(|i| unsafe { xq.quants.as_ptr().add((t0 + i) * k) as *const u8 });
        for b in 0..blocks {
            let col0 = b * WB;
            // The halves' 32 bytes of each 64 (4 columns of 8 rows each).
            let p = unsafe { w.quants.as_ptr().add((g * blocks + b) * block_bytes + 32 * half) };
            let load = |at: usize| unsafe { _mm256_loadu_si256(p.add(at) as *const __m256i) };
            // Four activation bytes of token t0 + i, columns col .. col + 4, in every lane.
            let x = |i: usize, col: usize| unsafe {
                _mm256_set1_epi32((x_rows[i].add(col) as *const i32).read_unaligned())
            };
            // A 4-bit quant is stored as q + zero and a narrow 8-bit one read as q + 32: the sums
            // start at -zero · Σx (the block's activation sum) so that they end at Σ q·x.
            let bias = if BITS == 6 { 32 } else { w.zero };
            let mut acc: [[__m256i; H]; T] = if BITS == 8 {
                [[_mm256_setzero_si256(); H]; T]
            } else {
                std::array::from_fn(|i| [_mm256_set1_epi32(-bias * xq.sum(t0 + i, k, col0, WB)); H])
            };
            if BITS == 6 {
                let to_unsigned = _mm256_set1_epi8(32);
                for c in (0..steps).step_by(2) {
                    let u: [[__m256i; 2]; H] = std::array::from_fn(|h| {
                        [load(64 * c + 32 * h), load(64 * c + 64 + 32 * h)].map(|v| _mm256_add_epi8(v, to_unsigned))
                    });
                    for i in 0..T {
                        let (x0, x1) = (x(i, col0 + 4 * c), x(i, col0 + 4 * c + 4));
                        for h in 0..H {
                            // 0 <= u <= 63: a pair is at most 2 · 63 · 127, two of them 32,004.
                            let products =
                                _mm256_add_epi16(_mm256_maddubs_epi16(u[h][0], x0), _mm256_maddubs_epi16(u[h][1], x1));
                            acc[i][h] = _mm256_add_epi32(acc[i][h], _mm256_madd_epi16(products, ones));
                        }
                    }
                }
            } else if BITS == 8 {
                for c in 0..steps {
                    let wv: [__m256i; H] = std::array::from_fn(|h| load(64 * c + 32 * h));
                    let aw = wv.map(|w| _mm256_sign_epi8(w, w));
                    for i in 0..T {
                        let xv = x(i, col0 + 4 * c);
                        for h in 0..H {
                            // |w| ≤ 128 is exact as unsigned; x is never -128 for finite input
                            // (the quantizer's range is -127..=127), so negating it is exact;
                            // pairs sum to at most 2 · 128 · 127 < 2^15: no saturation.
                            let products = _mm256_maddubs_epi16(aw[h], _mm256_sign_epi8(xv, wv[h]));
                            acc[i][h] = _mm256_add_epi32(acc[i][h], _mm256_madd_epi16(products, ones));
                        }
                    }
                }
            } else {
                // Nibbles: each i16 sums 4 products of at most 15 · 127 per step, 16 over the
                // block (30,480 < 2^15), so the block is summed in i16 and widened once.
                let low_nibbles = _mm256_set1_epi8(0x0F);
                let mut sums = [[_mm256_setzero_si256(); H]; T];
                for c in 0..steps / 2 {
                    let raw: [__m256i; H] = std::array::from_fn(|h| load(64 * c + 32 * h));
                    let lo = raw.map(|v| _mm256_and_si256(v, low_nibbles));
                    let hi = raw.map(|v| _mm256_and_si256(_mm256_srli_epi16::<4>(v), low_nibbles));
                    for i in 0..T {
                        let (xlo, xhi) = (x(i, col0 + 4 * c), x(i, col0 + 16 + 4 * c));
                        for h in 0..H {
                            let products =
                                _mm256_add_epi16(_mm256_maddubs_epi16(lo[h], xlo), _mm256_maddubs_epi16(hi[h], xhi));
                            sums[i][h] = _mm256_add_epi16(sums[i][h], products);
                        }
                    }
                }
                for i in 0..T {
                    for h in 0..H {
                        acc[i][h] = _mm256_add_epi32(acc[i][h], _mm256_madd_epi16(sums[i][h], ones));
                    }
                }
            }
            let at = (g * blocks + b) * GROUP + 8 * half;
            // SAFETY: 8 H values from `at`, inside the group's (checked with the quants above).
            let s: [__m256; H] = std::array::from_fn(|h| unsafe { eight(&w.scales, at + 8 * h) });
            let m: Option<[__m256; H]> =
                w.offsets.as_ref().map(|m| std::array::from_fn(|h| unsafe { eight(m, at + 8 * h) }));
            for i in 0..T {
                let a = ((t0 + i) * k + col0) / BLOCK;
                let dx = _mm256_set1_ps(xq.scales[a]);
                for h in 0..H {
                    acc_f[i][h] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(acc[i][h]), _mm256_mul_ps(s[h], dx), acc_f[i][h]);
                }
                if let Some(m) = m {
                    let sx = _mm256_set1_ps(xq.block_sums[a]);
                    for h in 0..H {
                        acc_f[i][h] = _mm256_fmadd_ps(m[h], sx, acc_f[i][h]);
                    }
                }
            }
        }
        let first = g * GROUP + 8 * half;
        let valid = w.rows.saturating_sub(first).min(8 * H);
        for (i, acc_f) in acc_f.iter().enumerate() {
            let mut lanes = [0f32; 16];
            // SAFETY: lanes holds 16 f32; the caller's promise covers the rows' valid columns.
            unsafe {
                for h in 0..H {
                    _mm256_storeu_ps(lanes.as_mut_ptr().add(8 * h), acc_f[h]);
                }
                std::ptr::copy_nonoverlapping(lanes.as_ptr(), out.ptr.add((t0 + i) * out.stride + first), valid);
            }
        }
    }
}

/// What the two wasm kernels share: scaling a block's integer row sums into the float sums, and
/// writing a tile's float sums out.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod wasm_tile {
    use std::arch::wasm32::*;

    use super::{Int8Activations, Int8Matrix, Output, GROUP};

    /// `acc += rows · (s · dx)`, then `+= m · Σ(dx·qx)` for the types with offsets: the portable
    /// kernel's float operations in its order, for rows `4q .. 4q + 4` of block `a`'s scales `s`
    /// and offsets `m` (16 each).
    #[inline]
    pub(super) fn scale(
        acc: v128,
        rows: v128,
        q: usize,
        s: &[f32],
        m: Option<&[f32]>,
        xq: &Int8Activations,
        a: usize,
    ) -> v128 {
        let sq = f32x4(s[4 * q], s[4 * q + 1], s[4 * q + 2], s[4 * q + 3]);
        let dx = f32x4_splat(xq.scales[a]);
        let acc = f32x4_add(acc, f32x4_mul(f32x4_convert_i32x4(rows), f32x4_mul(sq, dx)));
        match m {
            Some(m) => f32x4_add(
                acc,
                f32x4_mul(f32x4(m[4 * q], m[4 * q + 1], m[4 * q + 2], m[4 * q + 3]), f32x4_splat(xq.block_sums[a])),
            ),
            None => acc,
        }
    }

    /// The group's valid rows of tokens `t0 .. t0 + T`, from `acc_f[i][q]` (rows `4q .. 4q + 4`).
    ///
    /// # Safety
    /// As [`super::Kernel::run`]: the columns of group `g` are the caller's to write.
    #[inline]
    pub(super) unsafe fn store<const T: usize>(
        acc_f: &[[v128; 4]; T],
        w: &Int8Matrix,
        g: usize,
        t0: usize,
        out: Output,
    ) {
        let valid = w.rows.saturating_sub(g * GROUP).min(GROUP);
        for (i, acc_f) in acc_f.iter().enumerate() {
            let mut lanes = [0f32; GROUP];
            for (q, v) in acc_f.iter().enumerate() {
                // SAFETY: lanes holds 16 f32.
                unsafe { v128_store(lanes.as_mut_ptr().add(4 * q) as *mut v128, *v) };
            }
            // SAFETY: the caller's promise covers the row's valid columns.
            unsafe {
                std::ptr::copy_nonoverlapping(lanes.as_ptr(), out.ptr.add((t0 + i) * out.stride + g * GROUP), valid)
            };
        }
    }
}

/// wasm32 SIMD128 (the browser's CPU path): one group × 2 tokens.
///
/// SIMD128 has no 8-bit dot product, so quants are widened to i16 and `i32x4.dot_i16x8_s` sums
/// products in pairs: 16 bytes of a chunk (4 rows × 4 columns) widen into two vectors of 2 rows
/// each, and a dot with the token's 4 bytes (widened, twice over) leaves each row's sum in two
/// lanes, one per column pair. Each block's lanes are added pairwise at its end (two shuffles and
/// an add per 4 rows). 4-bit quants are widened as stored (`q + zero`, unsigned), and the block's
/// `zero · Σx` is taken off its sums, as on x86. The scaling repeats the portable kernel's float
/// operations in its order (no fused multiply-add in SIMD128), so the two agree bit for bit.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128 {
    use std::arch::wasm32::*;
    use std::ops::Range;

    use super::wasm_tile::{scale, store};
    use super::{Int8Activations, Int8Matrix, Output, BLOCK};

    const TOKENS: usize = 2;

    /// # Safety
    /// As [`super::Kernel::run`].
    pub(super) unsafe fn matmul_groups(
        xq: &Int8Activations,
        t: usize,
        w: &Int8Matrix,
        groups: Range<usize>,
        out: Output,
    ) {
        for g in groups {
            let mut t0 = 0;
            while t0 < t {
                let m = TOKENS.min(t - t0);
                // SAFETY (all): the caller's promises; t0 + m <= t.
                unsafe {
                    match (w.bits, w.block, m) {
                        (8, 16, 2) => tile::<2, 8, 16>(xq, w, g, t0, out),
                        (8, 16, _) => tile::<1, 8, 16>(xq, w, g, t0, out),
                        (8, _, 2) => tile::<2, 8, 32>(xq, w, g, t0, out),
                        (8, _, _) => tile::<1, 8, 32>(xq, w, g, t0, out),
                        (_, _, 2) => tile::<2, 4, 32>(xq, w, g, t0, out),
                        (_, _, _) => tile::<1, 4, 32>(xq, w, g, t0, out),
                    }
                }
                t0 += m;
            }
        }
    }

    /// Rows of group `g` × tokens `t0 .. t0 + T`, in weight blocks of `WB` columns.
    #[inline]
    unsafe fn tile<const T: usize, const BITS: usize, const WB: usize>(
        xq: &Int8Activations,
        w: &Int8Matrix,
        g: usize,
        t0: usize,
        out: Output,
    ) {
        let (k, blocks, block_bytes) = (w.cols, w.blocks(), w.block_bytes());
        assert!(w.bits == BITS && w.block == WB);
        assert!(xq.quants.len() >= (t0 + T) * k && (g + 1) * blocks * block_bytes <= w.quants.len());
        let low_nibbles = u8x16_splat(0x0F);
        // acc_f[i][q]: token t0 + i, rows 4q .. 4q + 4 of the group.
        let mut acc_f = [[f32x4_splat(0.0); 4]; T];
        for b in 0..blocks {
            let col0 = b * WB;
            // SAFETY (every read below): the asserts above and in Kernel::run bound the block.
            let p = unsafe { w.quants.as_ptr().add((g * blocks + b) * block_bytes) };
            // Four activation bytes of token t0 + i, columns col .. col + 4, as i16, twice over.
            let x = |i: usize, col: usize| {
                assert!(i < T && col + 4 <= k);
                // SAFETY: inside token t0 + i's row (the asserts above bound the tokens).
                i16x8_extend_low_i8x16(unsafe {
                    v128_load32_splat(xq.quants.as_ptr().add((t0 + i) * k + col) as *const u32)
                })
            };
            // 16 bytes of the block's quants at byte `at`: 4 rows × 4 columns.
            let load = |at: usize| {
                assert!(at + 16 <= block_bytes);
                // SAFETY: inside block b of group g.
                unsafe { v128_load(p.add(at) as *const v128) }
            };
            // acc[i][q][h]: rows 4q + 2h and 4q + 2h + 1, each as two lanes (column pairs).
            let mut acc = [[[i32x4_splat(0); 2]; 4]; T];
            if BITS == 8 {
                for c in 0..WB / 4 {
                    let xs: [v128; T] = std::array::from_fn(|i| x(i, col0 + 4 * c));
                    for q in 0..4 {
                        let v = load(64 * c + 16 * q);
                        let wv = [i16x8_extend_low_i8x16(v), i16x8_extend_high_i8x16(v)];
                        for (acc, xv) in acc.iter_mut().zip(&xs) {
                            for h in 0..2 {
                                acc[q][h] = i32x4_add(acc[q][h], i32x4_dot_i16x8(wv[h], *xv));
                            }
                        }
                    }
                }
            } else {
                for c in 0..4 {
                    let xlo: [v128; T] = std::array::from_fn(|i| x(i, col0 + 4 * c));
                    let xhi: [v128; T] = std::array::from_fn(|i| x(i, col0 + 16 + 4 * c));
                    for q in 0..4 {
                        let raw = load(64 * c + 16 * q);
                        let (lo, hi) = (v128_and(raw, low_nibbles), u8x16_shr(raw, 4));
                        let widen = |v: v128| [u16x8_extend_low_u8x16(v), u16x8_extend_high_u8x16(v)];
                        let (wlo, whi) = (widen(lo), widen(hi));
                        for (i, acc) in acc.iter_mut().enumerate() {
                            for h in 0..2 {
                                let products =
                                    i32x4_add(i32x4_dot_i16x8(wlo[h], xlo[i]), i32x4_dot_i16x8(whi[h], xhi[i]));
                                acc[q][h] = i32x4_add(acc[q][h], products);
                            }
                        }
                    }
                }
            }
            let (s, m) = (w.block_scales(g, b), w.block_offsets(g, b));
            for (i, (acc, acc_f)) in acc.iter().zip(&mut acc_f).enumerate() {
                let a = ((t0 + i) * k + col0) / BLOCK;
                // 4-bit quants went in as stored, `q + zero`: `zero · Σx` comes off each row.
                let offset = i32x4_splat(if BITS == 4 { w.zero * xq.sum(t0 + i, k, col0, WB) } else { 0 });
                for q in 0..4 {
                    let [lo, hi] = acc[q];
                    let rows = i32x4_add(i32x4_shuffle::<0, 2, 4, 6>(lo, hi), i32x4_shuffle::<1, 3, 5, 7>(lo, hi));
                    let rows = i32x4_sub(rows, offset);
                    acc_f[q] = scale(acc_f[q], rows, q, &s, m.as_ref().map(|m| &m[..]), xq, a);
                }
            }
        }
        // SAFETY: the caller's promise.
        unsafe { store(&acc_f, w, g, t0, out) };
    }
}

/// wasm32 relaxed SIMD, where the browser has it (`lingualens-worker-relaxed`, which the page
/// starts only after `WebAssembly.validate` of a relaxed instruction; see [`RELAXED_SIMD_KERNEL`]):
/// `i32x4.relaxed_dot_i8x16_i7x16_add_s` adds four products of signed activation bytes and 7-bit
/// weight bytes into each lane, as VNNI's `vpdpbusd` does (V8 emits that where the CPU has
/// AVX-VNNI). So each 16 bytes of a chunk (4 rows × 4 columns) is one instruction per token, with
/// a row in each lane and no pairwise sums. 4-bit quants are 7-bit as stored (`q + zero`), and so
/// are the 5- and 6-bit types' as `q + 32` (`narrow`); a full-range 8-bit quant goes in as the two
/// nibbles of `q + 128` (`q + 128 = 16 · hi + lo`), each nibble's sums kept apart and combined at
/// the block's end. The result is implementation-defined only for
/// a weight byte above 127, which never occurs here; the scaling is the portable kernel's.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod relaxed_simd {
    use std::arch::wasm32::*;
    use std::ops::Range;

    use super::wasm_tile::{scale, store};
    use super::{Int8Activations, Int8Matrix, Output, BLOCK};

    /// # Safety
    /// As [`super::Kernel::run`], in a browser with relaxed SIMD (the page checks before it
    /// starts this build of the worker).
    // `Caller` is unused on purpose: generic, the kernel is compiled into the crate that names it
    // (see `RELAXED_SIMD_KERNEL`).
    #[allow(clippy::extra_unused_type_parameters)]
    #[target_feature(enable = "relaxed-simd")]
    pub(super) unsafe fn matmul_groups<Caller>(
        xq: &Int8Activations,
        t: usize,
        w: &Int8Matrix,
        groups: Range<usize>,
        out: Output,
    ) {
        // SAFETY (all): the caller's promises.
        unsafe {
            match (w.bits, w.narrow, w.block) {
                (8, true, 16) => tiles::<6, 16>(xq, t, w, groups, out),
                (8, true, _) => tiles::<6, 32>(xq, t, w, groups, out),
                (8, _, 16) => tiles::<8, 16>(xq, t, w, groups, out),
                (8, _, _) => tiles::<8, 32>(xq, t, w, groups, out),
                _ => tiles::<4, 32>(xq, t, w, groups, out),
            }
        }
    }

    /// The groups in tiles of 16 rows × 4 tokens (the last 1 to 3 tokens in one of their own).
    /// Tiles that fit x86-64's 16 vector registers (4 rows × 4 tokens, with no spill in V8's
    /// code) were slower in Chromium 156: 11 against 19 GMAC/s on 4-bit weights.
    #[inline]
    #[target_feature(enable = "relaxed-simd")]
    unsafe fn tiles<const BITS: usize, const WB: usize>(
        xq: &Int8Activations,
        t: usize,
        w: &Int8Matrix,
        groups: Range<usize>,
        out: Output,
    ) {
        for g in groups {
            let mut t0 = 0;
            while t0 < t {
                let m = 4.min(t - t0);
                // SAFETY (all): the caller's promises; t0 + m <= t.
                unsafe {
                    match m {
                        1 => tile::<1, BITS, WB>(xq, w, g, t0, out),
                        2 => tile::<2, BITS, WB>(xq, w, g, t0, out),
                        3 => tile::<3, BITS, WB>(xq, w, g, t0, out),
                        _ => tile::<4, BITS, WB>(xq, w, g, t0, out),
                    }
                }
                t0 += m;
            }
        }
    }

    /// Rows of group `g` × tokens `t0 .. t0 + T`, in weight blocks of `WB` columns. `BITS` is how
    /// the quants are read: 8 (signed bytes, as two nibbles of `q + 128`), 6 (signed bytes within
    /// -32..=31, `narrow`: `q + 32` is 7-bit, so one dot product) or 4.
    #[inline]
    #[target_feature(enable = "relaxed-simd")]
    unsafe fn tile<const T: usize, const BITS: usize, const WB: usize>(
        xq: &Int8Activations,
        w: &Int8Matrix,
        g: usize,
        t0: usize,
        out: Output,
    ) {
        let (k, blocks, block_bytes) = (w.cols, w.blocks(), w.block_bytes());
        assert!(w.block == WB && if BITS == 6 { w.bits == 8 && w.narrow } else { w.bits == BITS });
        assert!(xq.quants.len() >= (t0 + T) * k && (g + 1) * blocks * block_bytes <= w.quants.len());
        let low_nibbles = u8x16_splat(0x0F);
        let flip = u8x16_splat(0x80);
        let to_unsigned = i8x16_splat(32);
        let mut acc_f = [[f32x4_splat(0.0); 4]; T];
        // SAFETY (every read below): the asserts above and in Kernel::run bound the blocks, the
        // tokens and the columns (col0 + WB <= k for each block).
        let x_rows: [*const u8; T] =
            std::array::from_fn(|i| unsafe { xq.quants.as_ptr().add((t0 + i) * k) as *const u8 });
        for b in 0..blocks {
            let col0 = b * WB;
            let p = unsafe { w.quants.as_ptr().add((g * blocks + b) * block_bytes) };
            let load = |at: usize| unsafe { v128_load(p.add(at) as *const v128) };
            // Four activation bytes of token t0 + i, columns col .. col + 4, in every lane.
            let x = |i: usize, col: usize| unsafe { v128_load32_splat(x_rows[i].add(col) as *const u32) };
            // acc[i][q]: token t0 + i, rows 4q .. 4q + 4 (for 8 bits: the low nibbles' sums).
            let mut acc = [[i32x4_splat(0); 4]; T];
            let mut acc_high = [[i32x4_splat(0); 4]; T];
            if BITS == 8 {
                for c in 0..WB / 4 {
                    let xs: [v128; T] = std::array::from_fn(|i| x(i, col0 + 4 * c));
                    for q in 0..4 {
                        let v = v128_xor(load(64 * c + 16 * q), flip);
                        let (lo, hi) = (v128_and(v, low_nibbles), u8x16_shr(v, 4));
                        for i in 0..T {
                            acc[i][q] = i32x4_relaxed_dot_i8x16_i7x16_add(xs[i], lo, acc[i][q]);
                            acc_high[i][q] = i32x4_relaxed_dot_i8x16_i7x16_add(xs[i], hi, acc_high[i][q]);
                        }
                    }
                }
            } else if BITS == 6 {
                for c in 0..WB / 4 {
                    let xs: [v128; T] = std::array::from_fn(|i| x(i, col0 + 4 * c));
                    for q in 0..4 {
                        let u = i8x16_add(load(64 * c + 16 * q), to_unsigned);
                        for i in 0..T {
                            acc[i][q] = i32x4_relaxed_dot_i8x16_i7x16_add(xs[i], u, acc[i][q]);
                        }
                    }
                }
            } else {
                for c in 0..4 {
                    let xlo: [v128; T] = std::array::from_fn(|i| x(i, col0 + 4 * c));
                    let xhi: [v128; T] = std::array::from_fn(|i| x(i, col0 + 16 + 4 * c));
                    for q in 0..4 {
                        let raw = load(64 * c + 16 * q);
                        let (lo, hi) = (v128_and(raw, low_nibbles), u8x16_shr(raw, 4));
                        for i in 0..T {
                            acc[i][q] = i32x4_relaxed_dot_i8x16_i7x16_add(xlo[i], lo, acc[i][q]);
                            acc[i][q] = i32x4_relaxed_dot_i8x16_i7x16_add(xhi[i], hi, acc[i][q]);
                        }
                    }
                }
            }
            let (s, m) = (w.block_scales(g, b), w.block_offsets(g, b));
            for i in 0..T {
                let a = ((t0 + i) * k + col0) / BLOCK;
                let sum_x = xq.sum(t0 + i, k, col0, WB);
                for q in 0..4 {
                    // Take off what the stored form added: `zero · Σx`, `32 · Σx` for narrow
                    // quants, `128 · Σx` for 8 bits.
                    let rows = match BITS {
                        8 => i32x4_sub(i32x4_add(i32x4_shl(acc_high[i][q], 4), acc[i][q]), i32x4_splat(128 * sum_x)),
                        6 => i32x4_sub(acc[i][q], i32x4_splat(32 * sum_x)),
                        _ => i32x4_sub(acc[i][q], i32x4_splat(w.zero * sum_x)),
                    };
                    acc_f[i][q] = scale(acc_f[i][q], rows, q, &s, m.as_ref().map(|m| &m[..]), xq, a);
                }
            }
        }
        // SAFETY: the caller's promise.
        unsafe { store(&acc_f, w, g, t0, out) };
    }
}

/// AVX-512 VNNI: 2 groups (32 rows) × 6 tokens in registers.
///
/// `vpdpbusd` multiplies 64 unsigned bytes by 64 signed bytes and adds each four into one of 16
/// i32 lanes: here the lanes are the group's 16 rows and the signed side is four bytes of one
/// token, repeated. The weights go in unsigned, `q + zero` for 4 bits as stored and `q + 128` for
/// 8 bits (one XOR with 0x80), and each sum starts from `-zero · Σx` or `-128 · Σx` to take that
/// offset off again; the integer sums stay exact, as on the other paths.
///
/// The activations are first copied into [`Tiles`]: per tile of 6 tokens, each four columns' bytes
/// of the 6 tokens side by side, and their scales and sums the same way, so that
/// the inner loop reads everything at fixed offsets from one pointer per array. (Read from the
/// row-major activations, each token needs its own address; the bookkeeping then took as many
/// instructions as the multiplies.)
#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;
    use std::ops::Range;

    use super::{Int8Activations, Int8Matrix, Output, BLOCK, GROUP, SUM_BLOCK};

    /// Groups per tile.
    const GROUPS: usize = 2;
    /// Tokens per tile: 2 × 6 integer sums and 2 × 6 float sums leave registers for the operands.
    const TOKENS: usize = 6;

    pub(super) fn available() -> bool {
        std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512vnni")
    }

    /// The activations of one matmul rearranged for this kernel. Tokens go in tiles of
    /// [`TOKENS`] (the last one shorter); tile `j` starts at token `t0 = 6j` and holds `m` tokens.
    /// Within a tile, index `[a][i]` is item `a` of token `t0 + i`:
    ///
    /// - `quants`: bytes `4a .. 4a + 4` of each token's row, so four columns of the `m` tokens are
    ///   `4m` consecutive bytes; the tile starts at byte `t0 · k`.
    /// - `scales`, `block_sums`: per block of 32 columns; the tile starts at `t0 · k / 32`.
    /// - `sums`: `Σ qx` per 16 columns; the tile starts at `t0 · k / 16`.
    pub(super) struct Tiles {
        quants: Vec<u8>,
        scales: Vec<f32>,
        block_sums: Vec<f32>,
        sums: Vec<i32>,
    }

    impl Tiles {
        /// `xq`, `t` tokens of `k` columns.
        pub(super) fn new(xq: &Int8Activations, t: usize, k: usize) -> Tiles {
            let (blocks, sums) = (k / BLOCK, k / SUM_BLOCK);
            let mut tiles = Tiles {
                quants: vec![0; t * k],
                scales: vec![0.0; t * blocks],
                block_sums: vec![0.0; t * blocks],
                sums: vec![0; t * sums],
            };
            for t0 in (0..t).step_by(TOKENS) {
                let m = TOKENS.min(t - t0);
                for i in 0..m {
                    let token = t0 + i;
                    let row = &xq.quants[token * k..(token + 1) * k];
                    for (a, four) in row.chunks_exact(4).enumerate() {
                        let at = t0 * k + 4 * (a * m + i);
                        for (to, &q) in tiles.quants[at..at + 4].iter_mut().zip(four) {
                            *to = q as u8;
                        }
                    }
                    for a in 0..blocks {
                        let (from, to) = (token * blocks + a, t0 * blocks + a * m + i);
                        tiles.scales[to] = xq.scales[from];
                        tiles.block_sums[to] = xq.block_sums[from];
                    }
                    for a in 0..sums {
                        tiles.sums[t0 * sums + a * m + i] = xq.sums[token * sums + a];
                    }
                }
            }
            tiles
        }
    }

    /// # Safety
    /// As [`super::Kernel::run`], on a CPU with AVX-512 F/BW and VNNI; `tiles` hold `t` tokens of
    /// `w.cols` columns.
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    pub(super) unsafe fn matmul_groups(tiles: &Tiles, t: usize, w: &Int8Matrix, groups: Range<usize>, out: Output) {
        let k = w.cols;
        // Whole blocks of 32 (`supports`), so every weight block has its activations' scale.
        assert!(k.is_multiple_of(BLOCK));
        assert!(
            tiles.quants.len() == t * k
                && tiles.scales.len() == t * (k / BLOCK)
                && tiles.sums.len() == t * (k / SUM_BLOCK)
        );
        let seeded = w.bits == 8 || w.zero != 0;
        for g0 in groups.clone().step_by(GROUPS) {
            // An odd last group is computed twice; the copies write the same values.
            let g = [g0, (g0 + 1).min(groups.end - 1)];
            let mut t0 = 0;
            while t0 < t {
                let m = TOKENS.min(t - t0);
                let tile = Tile {
                    x: tiles.quants[t0 * k..].as_ptr(),
                    scales: tiles.scales[t0 * (k / BLOCK)..].as_ptr(),
                    block_sums: tiles.block_sums[t0 * (k / BLOCK)..].as_ptr(),
                    sums: tiles.sums[t0 * (k / SUM_BLOCK)..].as_ptr(),
                    offset: if w.bits == 8 { 128 } else { w.zero },
                    w: g.map(|g| w.quants[g * w.blocks() * w.block_bytes()..].as_ptr()),
                    w_scales: g.map(|g| w.scales.ptr(g * w.blocks() * GROUP)),
                    w_offsets: w.offsets.as_ref().map(|o| g.map(|g| o.ptr(g * w.blocks() * GROUP))),
                    half: w.scales.is_f16(),
                    blocks: w.blocks(),
                    out: g.map(|g| {
                        let valid = w.rows.saturating_sub(g * GROUP).min(GROUP);
                        // SAFETY: row t0 of `out`, column g · 16: inside `out` (Kernel::run's checks).
                        (unsafe { out.ptr.add(t0 * out.stride + g * GROUP) }, ((1u32 << valid) - 1) as __mmask16)
                    }),
                    stride: out.stride,
                };
                // SAFETY (all): the pointers above start inside their arrays, whose lengths were
                // checked against `t`, `k` and the group count (here and in Kernel::run); each
                // `tile` reads the m tokens and blocks these arrays hold from there.
                unsafe {
                    match (w.bits, w.block, seeded, w.offsets.is_some()) {
                        (8, 16, _, _) => tiles_of::<8, 16, true, false>(m, &tile),
                        (8, _, _, false) => tiles_of::<8, 32, true, false>(m, &tile),
                        (8, _, _, true) => tiles_of::<8, 32, true, true>(m, &tile),
                        (_, _, true, false) => tiles_of::<4, 32, true, false>(m, &tile),
                        (_, _, true, true) => tiles_of::<4, 32, true, true>(m, &tile),
                        (_, _, false, false) => tiles_of::<4, 32, false, false>(m, &tile),
                        (_, _, false, true) => tiles_of::<4, 32, false, true>(m, &tile),
                    }
                }
                t0 += m;
            }
        }
    }

    /// Where one tile reads and writes: its tokens' part of [`Tiles`], its groups' block 0 of the
    /// weights, scales and offsets, and its output rows at column `16g`, with the mask of each
    /// group's valid rows.
    struct Tile {
        x: *const u8,
        scales: *const f32,
        block_sums: *const f32,
        sums: *const i32,
        /// The weights go in as `q + offset`.
        offset: i32,
        w: [*const u8; GROUPS],
        /// f32 values, or f16 ones where `half` (the offsets in the scales' form: `Factors::pair`).
        w_scales: [*const u8; GROUPS],
        w_offsets: Option<[*const u8; GROUPS]>,
        half: bool,
        blocks: usize,
        out: [(*mut f32, __mmask16); GROUPS],
        stride: usize,
    }

    /// [`tile`] for `m` ≤ [`TOKENS`] tokens.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    unsafe fn tiles_of<const BITS: usize, const WB: usize, const SEEDED: bool, const OFFSETS: bool>(
        m: usize,
        at: &Tile,
    ) {
        // SAFETY (all): the caller's promises.
        unsafe {
            match m {
                1 => tile::<1, BITS, WB, SEEDED, OFFSETS>(at),
                2 => tile::<2, BITS, WB, SEEDED, OFFSETS>(at),
                3 => tile::<3, BITS, WB, SEEDED, OFFSETS>(at),
                4 => tile::<4, BITS, WB, SEEDED, OFFSETS>(at),
                5 => tile::<5, BITS, WB, SEEDED, OFFSETS>(at),
                _ => tile::<TOKENS, BITS, WB, SEEDED, OFFSETS>(at),
            }
        }
    }

    /// 32 rows × `T` tokens, in weight blocks of `WB` columns, `BITS`-bit quants; `SEEDED`: the
    /// weights go in with an offset to take off; `OFFSETS`: the blocks have offsets `m`.
    ///
    /// # Safety
    /// `at` points into arrays holding `at.blocks` blocks of `T` tokens and of each group.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    unsafe fn tile<const T: usize, const BITS: usize, const WB: usize, const SEEDED: bool, const OFFSETS: bool>(
        at: &Tile,
    ) {
        let block_bytes = GROUP * WB * BITS / 8;
        let flip = _mm512_set1_epi8(-128); // 0x80
        let low_nibbles = _mm512_set1_epi8(0x0F);
        let mut acc_f = [[_mm512_setzero_ps(); T]; GROUPS];
        // SAFETY (every read below): inside block b of the tile's tokens and groups.
        unsafe {
            for b in 0..at.blocks {
                let x = at.x.add(b * WB * T);
                // Four bytes of token i at four-column `c` of the block, in every lane.
                let x4 =
                    |c: usize, i: usize| _mm512_set1_epi32((x.add(4 * (c * T + i)) as *const i32).read_unaligned());
                let w = at.w.map(|p| p.add(b * block_bytes));
                let load = |r: usize, c: usize| _mm512_loadu_si512(w[r].add(64 * c) as *const _);
                let mut acc = [[_mm512_setzero_si512(); T]; GROUPS];
                if SEEDED {
                    // Each sum starts from `-offset · Σ qx` over the block, taking the offset off.
                    for i in 0..T {
                        let a = b * WB / SUM_BLOCK * T + i;
                        let sum = if WB == SUM_BLOCK { *at.sums.add(a) } else { *at.sums.add(a) + *at.sums.add(a + T) };
                        let seed = _mm512_set1_epi32(-at.offset * sum);
                        acc[0][i] = seed;
                        acc[1][i] = seed;
                    }
                }
                if BITS == 8 {
                    for c in 0..WB / 4 {
                        let wv: [__m512i; GROUPS] = std::array::from_fn(|r| _mm512_xor_si512(load(r, c), flip));
                        for i in 0..T {
                            let xv = x4(c, i);
                            for r in 0..GROUPS {
                                acc[r][i] = _mm512_dpbusd_epi32(acc[r][i], wv[r], xv);
                            }
                        }
                    }
                } else {
                    for c in 0..4 {
                        let raw: [__m512i; GROUPS] = std::array::from_fn(|r| load(r, c));
                        let lo = raw.map(|v| _mm512_and_si512(v, low_nibbles));
                        let hi = raw.map(|v| _mm512_and_si512(_mm512_srli_epi16::<4>(v), low_nibbles));
                        for i in 0..T {
                            let (xlo, xhi) = (x4(c, i), x4(c + 4, i));
                            for r in 0..GROUPS {
                                acc[r][i] = _mm512_dpbusd_epi32(_mm512_dpbusd_epi32(acc[r][i], lo[r], xlo), hi[r], xhi);
                            }
                        }
                    }
                }
                // The activations' block of 32 holding this weight block.
                let a = b * WB / BLOCK * T;
                // 16 scales or offsets of block b from `p`, widened from f16 where they are kept so.
                let sixteen = |p: *const u8| {
                    if at.half {
                        _mm512_cvtph_ps(_mm256_loadu_si256((p as *const u16).add(b * GROUP) as *const __m256i))
                    } else {
                        _mm512_loadu_ps((p as *const f32).add(b * GROUP))
                    }
                };
                for r in 0..GROUPS {
                    let s = sixteen(at.w_scales[r]);
                    for i in 0..T {
                        let dx = _mm512_set1_ps(*at.scales.add(a + i));
                        acc_f[r][i] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(acc[r][i]), _mm512_mul_ps(s, dx), acc_f[r][i]);
                    }
                    if OFFSETS {
                        let offsets = at.w_offsets.unwrap_unchecked()[r];
                        let m = sixteen(offsets);
                        for i in 0..T {
                            acc_f[r][i] = _mm512_fmadd_ps(m, _mm512_set1_ps(*at.block_sums.add(a + i)), acc_f[r][i]);
                        }
                    }
                }
            }
            for (r, &(out, mask)) in at.out.iter().enumerate() {
                for i in 0..T {
                    _mm512_mask_storeu_ps(out.add(i * at.stride), mask, acc_f[r][i]);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::ggml::GgmlType;
    use crate::quant::qmatrix::tests::{random_blocks, Rng};

    /// Every kernel this CPU can run: the portable one always.
    fn kernels() -> Vec<Kernel> {
        let mut kernels = vec![Kernel::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            if avx2::available() {
                kernels.push(Kernel::Avx2);
            }
            if avx512::available() {
                kernels.push(Kernel::Avx512Vnni);
            }
        }
        kernels
    }

    #[test]
    fn every_kernel_equals_the_definition_on_every_int8_form() {
        // Random Q8_0 blocks include -128, which llama.cpp never writes but a file may hold.
        // Shapes: partial groups, odd group counts, token counts that leave every remainder of
        // the 6- and 2-token tiles, and one token (decode) on every form; each on 1 to 4 threads,
        // which split the groups into runs (of even length, the last one odd when the group count is).
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        let cases = [
            (GgmlType::Q8_0, 13, 96, 1),
            (GgmlType::Q8_0, 260, 1024, 1),
            (GgmlType::Q4_0, 300, 512, 1),
            (GgmlType::Q4_1, 130, 576, 1),
            (GgmlType::Q5_1, 19, 96, 1),
            (GgmlType::Q6_K, 96, 768, 1),
            (GgmlType::Q5_K, 17, 512, 1),
            (GgmlType::Q8_0, 13, 96, 7),
            (GgmlType::Q4_0, 21, 544, 5),
            (GgmlType::Q5_0, 9, 64, 1),
            (GgmlType::Q4_0, 130, 256, 9),
            (GgmlType::Q8_0, 3, 128, 6),
            (GgmlType::Q8_0, 66, 192, 3),
            (GgmlType::Q4_0, 7, 128, 2),
            (GgmlType::Q4_0, 5, 192, 4),
            (GgmlType::Q8_0, 48, 32, 11),
            (GgmlType::Q4_0, 300, 512, 20),
            (GgmlType::Q8_0, 260, 1024, 13),
            (GgmlType::Q4_1, 37, 160, 7),
            (GgmlType::Q4_1, 130, 576, 13),
            (GgmlType::Q5_1, 19, 96, 5),
            (GgmlType::Q4_K, 35, 256, 8),
            (GgmlType::Q4_K, 64, 512, 1),
            (GgmlType::Q5_K, 17, 512, 3),
            (GgmlType::Q6_K, 21, 256, 7),
            (GgmlType::Q6_K, 96, 768, 2),
        ];
        for (ty, rows, cols, tokens) in cases {
            let q = QMatrix::from_ggml(ty, &random_blocks(ty, rows * cols / ty.block_layout().0, &mut rng), rows, cols)
                .unwrap();
            let w = Int8Matrix::new(&q).unwrap_or_else(|| panic!("{ty:?} is an int8 form"));
            // Both forms of the scales are run: f16 for the types that store them so (natively),
            // f32 for the K-quants' products.
            let f16_scales =
                matches!(ty, GgmlType::Q8_0 | GgmlType::Q4_0 | GgmlType::Q4_1 | GgmlType::Q5_0 | GgmlType::Q5_1);
            assert_eq!(w.scales.is_f16(), cfg!(target_arch = "x86_64") && f16_scales, "{ty:?}");
            let x: Vec<f32> =
                (0..tokens * cols).map(|_| (rng.next() >> 40) as f32 / (1u64 << 23) as f32 - 1.0).collect();
            let expected = definition(&x, &q);
            for kernel in kernels() {
                for threads in 1..=4 {
                    let mut out = vec![f32::NAN; tokens * rows];
                    qmatmul_int8_with(kernel, threads, &x, &w, &mut out);
                    for (i, (&o, &(e, magnitude))) in out.iter().zip(&expected).enumerate() {
                        assert!(
                            (o as f64 - e).abs() <= 1e-6 * (1.0 + magnitude),
                            "{kernel:?} on {threads} threads, {ty:?} {rows}x{cols}, {tokens} tokens: out[{i}] = {o}, expected {e} (terms' magnitude {magnitude})"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn extreme_quants_neither_overflow_nor_saturate() {
        // Every Q8_0 weight -128 (scale 1) against activations all +127 or alternating ±127: the
        // largest products the AVX2 pairs and the VNNI offsets see. Each block's dot product is
        // exact in f32, so every kernel must give the exact sum.
        let (rows, cols) = (19, 128);
        let block = |_| {
            let mut b = half::f16::from_f32(1.0).to_le_bytes().to_vec();
            b.extend([0x80u8; 32]);
            b
        };
        let bytes: Vec<u8> = (0..rows * cols / 32).flat_map(block).collect();
        let w = Int8Matrix::new(&QMatrix::from_ggml(GgmlType::Q8_0, &bytes, rows, cols).unwrap()).unwrap();
        for (x, expected) in [(vec![1f32; cols], -128.0 * cols as f32), ([1f32, -1.0].repeat(cols / 2), 0.0)] {
            // Activation blocks of ±1 quantize to ±127 with scale 1/127 (rounded to f16).
            let dx = half::f16::from_f32(1.0 / 127.0).to_f32();
            let expected = expected * 127.0 * dx;
            for kernel in kernels() {
                let mut out = vec![f32::NAN; rows];
                qmatmul_int8_with(kernel, 1, &x, &w, &mut out);
                assert!(
                    out.iter().all(|&o| (o - expected).abs() <= 1e-5 * expected.abs().max(1.0)),
                    "{kernel:?}: {out:?}, expected {expected}"
                );
            }
        }
    }

    #[test]
    fn the_largest_nibbles_and_narrow_quants_over_a_whole_block_neither_overflow_nor_saturate() {
        // Every Q4_1 quant 15 (the AVX2 kernel sums a block's 4-bit products in i16: 16 of
        // 15 · 127 each) and every Q6_K quant 31 (read as 63 unsigned: two pairs of 63 · 127 per
        // i16), scale 1, against activations all +1 (quantized to +127) and all -1.
        let (rows, cols) = (19, 512);
        let one = half::f16::from_f32(1.0).to_le_bytes();
        let q4_1: Vec<u8> = [one.as_slice(), &[0, 0], &[0xFF; 16]].concat();
        // Q6_K: ql and qh all ones (q = 63 - 32 = 31), the 16 sub-block scales 1, then d.
        let q6_k: Vec<u8> = [[0xFF; 128].as_slice(), &[0xFF; 64], &[1; 16], &one].concat();
        for (ty, block, weight) in [(GgmlType::Q4_1, q4_1, 15.0), (GgmlType::Q6_K, q6_k, 31.0)] {
            let per_block = ty.block_layout().0;
            let bytes = block.repeat(rows * cols / per_block);
            let w = Int8Matrix::new(&QMatrix::from_ggml(ty, &bytes, rows, cols).unwrap()).unwrap();
            let dx = half::f16::from_f32(1.0 / 127.0).to_f32();
            for sign in [1f32, -1.0] {
                // 1 to 6 tokens: every tile shape of every kernel.
                for tokens in 1..=6 {
                    let x = vec![sign; tokens * cols];
                    let expected = sign * weight * 127.0 * dx * cols as f32;
                    for kernel in kernels() {
                        let mut out = vec![f32::NAN; tokens * rows];
                        qmatmul_int8_with(kernel, 1, &x, &w, &mut out);
                        assert!(
                            out.iter().all(|&o| (o - expected).abs() <= 1e-5 * expected.abs()),
                            "{kernel:?}, {ty:?}, {tokens} tokens: {out:?}, expected {expected}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_int8_lookup_equals_the_packed_one_bit_for_bit() {
        let mut rng = Rng(5);
        for ty in QMatrix::TYPES {
            let q =
                QMatrix::from_ggml(ty, &random_blocks(ty, 37 * 256 / ty.block_layout().0, &mut rng), 37, 256).unwrap();
            let rows = [0, 36, 17, 16, 15, 17];
            let (ours, packed) = (Int8Matrix::new(&q).unwrap().dequantize_rows(&rows), q.dequantize_rows(&rows));
            assert_eq!(
                ours.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                packed.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                "{ty:?}"
            );
        }
    }

    #[test]
    fn the_repacked_layout_holds_every_quant_and_scale_where_its_docs_say() {
        let mut rng = Rng(11);
        for ty in QMatrix::TYPES {
            let (rows, cols) = (19, 256);
            let q = QMatrix::from_ggml(ty, &random_blocks(ty, rows * cols / ty.block_layout().0, &mut rng), rows, cols)
                .unwrap();
            let w = Int8Matrix::new(&q).unwrap();
            let blocks = cols / q.block();
            assert_eq!((w.rows(), w.cols(), w.groups(), w.blocks()), (19, 256, 2, blocks));
            let mut block = [[0i32; BLOCK]; GROUP];
            for g in 0..2 {
                for b in 0..blocks {
                    w.unpack_block(g, b, &mut block);
                    for r in 0..GROUP {
                        let n = g * GROUP + r;
                        for col in 0..q.block() {
                            let expected = if n < rows { q.q(n, b * q.block() + col) } else { 0 };
                            assert_eq!(block[r][col], expected, "{ty:?} row {n} column {}", b * q.block() + col);
                        }
                        let at = n * blocks + b;
                        let scale = if n < rows { q.scales()[at] } else { 0.0 };
                        assert_eq!(w.block_scales(g, b)[r], scale, "{ty:?} row {n} block {b}");
                        let offset = q.offsets().map(|o| if n < rows { o[at] } else { 0.0 });
                        assert_eq!(w.block_offsets(g, b).map(|o| o[r]), offset, "{ty:?} row {n} block {b}");
                    }
                }
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
        let half = |h: usize| xq.quants[16 * h..16 * h + 16].iter().map(|&q| q as i32).sum::<i32>();
        assert_eq!(xq.sums, vec![half(0), half(1)]);
        assert_eq!(xq.block_sums, vec![xq.scales[0] * (half(0) + half(1)) as f32]);
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
        let mut x: Vec<f32> =
            (0..32 * 40).map(|_| ((rng.next() >> 40) as f32 / (1u64 << 23) as f32 - 1.0) * 3.0).collect();
        x[32..64].fill(0.0); // an all-zero block
        x[64] = f32::MIN_POSITIVE; // a tiny block maximum
        let portable = quantize_blocks(&x);
        let used = quantize_activations(&x);
        assert_eq!(used.quants, portable.quants);
        assert_eq!(used.scales, portable.scales);
        assert_eq!(used.sums, portable.sums);
        assert_eq!(used.block_sums, portable.block_sums);
    }

    #[test]
    fn every_quantized_form_is_taken() {
        let mut rng = Rng(7);
        for ty in QMatrix::TYPES {
            let (qk, _) = ty.block_layout();
            let w = QMatrix::from_ggml(ty, &random_blocks(ty, 256 / qk, &mut rng), 1, 256).unwrap();
            assert!(supports(&w) && Int8Matrix::new(&w).is_some(), "{ty:?}");
        }
        // A form no GGUF type converts to: 4-bit quants in blocks of 16.
        let w = QMatrix::new(1, 32, 4, 16, true, vec![1.0; 2], None, vec![0; 4]).unwrap();
        assert!(!supports(&w) && Int8Matrix::new(&w).is_none());
        // Nor rows that end inside an activation block of 32 (8-bit blocks of 16, 48 columns).
        let w = QMatrix::new(1, 48, 8, 16, true, vec![1.0; 3], None, vec![0; 12]).unwrap();
        assert!(!supports(&w) && Int8Matrix::new(&w).is_none());
    }
}
