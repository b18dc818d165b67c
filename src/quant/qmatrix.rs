//! [`QMatrix`]: the one quantized-weight format the matmul kernels (CPU and WGSL) take, and the
//! lossless conversion from each quantized GGUF type into it.

use super::blocks::{self, KernelLayout, QuantBlock};
use crate::bail;
use crate::error::{Error, Result};
use crate::formats::ggml::GgmlType;
use crate::formats::gguf::TensorInfo;

/// A weight matrix of `rows` (N, output features) by `cols` (K, input features), kept quantized:
///
/// ```text
/// weight[n][k] = scales[b] * q[n][k] + offsets[b]      b = n * (cols / block) + k / block
/// ```
///
/// with no addition at all when `offsets` is `None` (so that `-0.0` survives, as in ggml).
/// `scales[b] * q` is exact in f32 for every type converted here, so the one rounding is the
/// addition, and a kernel may fuse it into an FMA without changing a bit.
///
/// # Packed layout of `values`
///
/// - `u32` words only, row-major: row `n` is words `n * W .. (n + 1) * W` with
///   `W = cols * bits / 32`; `cols` is a multiple of `block`, and so of 32 / `bits`.
/// - Weight `(n, k)` is the `bits`-wide field of word `n * W + k / (32 / bits)` that starts at
///   bit `bits * (k % (32 / bits))`, counting from the least significant bit: the first weight
///   of a word is in its lowest bits. (Byte `i` of an 8-bit word is weight `4 * word + i` of the
///   row when the word is viewed as little-endian bytes.)
/// - `bits == 8`: always two's complement, -128..=127. WGSL: `unpack4xI8(word)[k % 4]`, or
///   `extractBits(bitcast<i32>(word), 8u * (k % 4u), 8u)`.
/// - `bits == 4` and `signed`: two's complement nibble, -8..=7 (Q4_0). WGSL:
///   `extractBits(bitcast<i32>(word), 4u * (k % 8u), 4u)` (extractBits sign-extends on i32).
/// - `bits == 4` and not `signed`: unsigned nibble, 0..=15 (Q4_1, Q4_K). WGSL:
///   `extractBits(word, 4u * (k % 8u), 4u)` on the u32 (zero-extends).
/// - `scales` (and `offsets`) hold one f32 per block, row-major with blocks along K:
///   `rows * cols / block` of them.
#[derive(Debug, Clone, PartialEq)]
pub struct QMatrix {
    rows: usize,
    cols: usize,
    bits: u32,
    block: usize,
    signed: bool,
    scales: Vec<f32>,
    offsets: Option<Vec<f32>>,
    values: Vec<u32>,
}

impl QMatrix {
    /// The GGUF types [`QMatrix::from_ggml`] converts.
    pub const TYPES: [GgmlType; 8] = {
        use GgmlType::*;
        [Q8_0, Q4_0, Q4_1, Q5_0, Q5_1, Q4_K, Q5_K, Q6_K]
    };

    /// A matrix from its parts, checked for consistency (sizes, `bits`, `block`, `signed`).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        rows: usize,
        cols: usize,
        bits: u32,
        block: usize,
        signed: bool,
        scales: Vec<f32>,
        offsets: Option<Vec<f32>>,
        values: Vec<u32>,
    ) -> Result<QMatrix> {
        if !matches!(bits, 4 | 8) || !matches!(block, 16 | 32) {
            bail!("quantized matrix: bits must be 4 or 8 and block 16 or 32, got bits {bits}, block {block}");
        }
        if bits == 8 && !signed {
            bail!("quantized matrix: 8-bit values are always signed");
        }
        if !cols.is_multiple_of(block) {
            bail!("quantized matrix: {cols} columns are not a whole number of blocks of {block}");
        }
        let n =
            rows.checked_mul(cols).ok_or_else(|| Error::new(format!("quantized matrix: {rows} x {cols} overflows")))?;
        let n_blocks = n / block;
        let n_words = n / (32 / bits as usize);
        if scales.len() != n_blocks || offsets.as_ref().is_some_and(|o| o.len() != n_blocks) || values.len() != n_words
        {
            bail!(
                "quantized matrix {rows} x {cols}: expected {n_blocks} scales and offsets and {n_words} words, got {} scales, {} offsets, {} words",
                scales.len(),
                offsets.as_ref().map_or(0, Vec::len),
                values.len()
            );
        }
        Ok(QMatrix { rows, cols, bits, block, signed, scales, offsets, values })
    }

    /// Converts `rows` rows of `cols` weights of GGUF type `t`, from the tensor's raw bytes, with
    /// no loss (see the table in [`crate::quant`]). Errors if `t` is not a quantized type that
    /// lingualens supports, if `cols` is not a multiple of `t`'s block size (256 for the
    /// K-quants), or if `bytes` has the wrong length. Add the tensor name with
    /// [`Error::context`], or call [`QMatrix::from_tensor`].
    pub fn from_ggml(t: GgmlType, bytes: &[u8], rows: usize, cols: usize) -> Result<QMatrix> {
        match t {
            GgmlType::Q8_0 => convert::<blocks::BlockQ8_0>(bytes, rows, cols),
            GgmlType::Q4_0 => convert::<blocks::BlockQ4_0>(bytes, rows, cols),
            GgmlType::Q4_1 => convert::<blocks::BlockQ4_1>(bytes, rows, cols),
            GgmlType::Q5_0 => convert::<blocks::BlockQ5_0>(bytes, rows, cols),
            GgmlType::Q5_1 => convert::<blocks::BlockQ5_1>(bytes, rows, cols),
            GgmlType::Q4_K => convert::<blocks::BlockQ4K>(bytes, rows, cols),
            GgmlType::Q5_K => convert::<blocks::BlockQ5K>(bytes, rows, cols),
            GgmlType::Q6_K => convert::<blocks::BlockQ6K>(bytes, rows, cols),
            GgmlType::F32 | GgmlType::F16 | GgmlType::BF16 => {
                bail!("{t:?} weights are not quantized: they take the float path (quant::dequantize), not QMatrix")
            }
            _ => {
                bail!("{t:?} tensors are not supported (quantized types supported: {})", super::type_list(&Self::TYPES))
            }
        }
    }

    /// [`QMatrix::from_ggml`] for a 2-D (or higher) GGUF tensor: `dims[0]` is the row length
    /// (K) and the other dimensions multiply into the rows (N). Errors name the tensor.
    pub fn from_tensor(info: &TensorInfo, bytes: &[u8]) -> Result<QMatrix> {
        let context = || format!("tensor {}", info.name);
        let (cols, rows) = match info.dims.split_first() {
            Some((&cols, rest)) => (cols, rest.iter().product::<u64>()),
            None => return Err(Error::new("has no dimensions").context(context())),
        };
        let (Ok(rows), Ok(cols)) = (usize::try_from(rows), usize::try_from(cols)) else {
            return Err(Error::new("too large for this platform").context(context()));
        };
        QMatrix::from_ggml(info.ggml_type, bytes, rows, cols).map_err(|e| e.context(context()))
    }

    /// N, the output features.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// K, the input features (the length of each row).
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// 4 or 8 bits per stored quant.
    pub fn bits(&self) -> u32 {
        self.bits
    }

    /// Weights per scale/offset along K: 16 or 32.
    pub fn block(&self) -> usize {
        self.block
    }

    /// Whether 4-bit fields are two's complement (8-bit fields always are).
    pub fn signed(&self) -> bool {
        self.signed
    }

    pub fn scales(&self) -> &[f32] {
        &self.scales
    }

    pub fn offsets(&self) -> Option<&[f32]> {
        self.offsets.as_deref()
    }

    /// The packed quants; layout in the type's docs.
    pub fn values(&self) -> &[u32] {
        &self.values
    }

    /// Heap bytes held: values, scales and offsets.
    pub fn memory_bytes(&self) -> usize {
        4 * (self.values.len() + self.scales.len() + self.offsets.as_ref().map_or(0, Vec::len))
    }

    /// The integer quant of weight `(n, k)`. Panics if `(n, k)` is outside the matrix.
    pub fn q(&self, n: usize, k: usize) -> i32 {
        let per_word = 32 / self.bits as usize;
        let word = self.values[(n * self.cols + k) / per_word];
        let shift = self.bits * (k % per_word) as u32;
        let field = (word >> shift) & ((1 << self.bits) - 1);
        if self.signed && field >= 1 << (self.bits - 1) {
            field as i32 - (1 << self.bits)
        } else {
            field as i32
        }
    }

    /// Block `b`'s weights into `out` (`out.len() == block`), as `scales[b] * q + offsets[b]`.
    /// The shared decoder of [`QMatrix::dequantize`] and the matmul.
    pub(crate) fn dequantize_block(&self, b: usize, out: &mut [f32]) {
        let per_word = 32 / self.bits as usize;
        let words = &self.values[b * self.block / per_word..(b + 1) * self.block / per_word];
        let out = &mut out[..self.block];
        // One dispatch per block; the unpacking loops are then straight-line code.
        match (self.bits, self.signed) {
            (8, _) => unpack::<8, true>(words, out),
            (_, true) => unpack::<4, true>(words, out),
            (_, false) => unpack::<4, false>(words, out),
        }
        let scale = self.scales[b];
        match &self.offsets {
            None => out.iter_mut().for_each(|y| *y *= scale),
            Some(offsets) => {
                let offset = offsets[b];
                out.iter_mut().for_each(|y| *y = *y * scale + offset);
            }
        }
    }

    /// The same matrix with its rows reordered: row `i` of the result is row `order[i]` of this one.
    /// Rows are independent (blocks run along K), so this moves words, scales and offsets as they are.
    pub fn permute_rows(&self, order: &[usize]) -> QMatrix {
        assert_eq!(order.len(), self.rows, "permute_rows: order must name every row once");
        let words = self.cols * self.bits as usize / 32;
        let blocks = self.cols / self.block;
        let gather = |data: &[f32], per_row: usize| {
            order.iter().flat_map(|&r| data[r * per_row..(r + 1) * per_row].iter().copied()).collect::<Vec<_>>()
        };
        QMatrix {
            values: order.iter().flat_map(|&r| self.values[r * words..(r + 1) * words].iter().copied()).collect(),
            scales: gather(&self.scales, blocks),
            offsets: self.offsets.as_ref().map(|o| gather(o, blocks)),
            ..*self
        }
    }

    /// The weights of the given rows as f32, row after row (an embedding lookup).
    pub fn dequantize_rows(&self, rows: &[usize]) -> Vec<f32> {
        let blocks = self.cols / self.block;
        let mut out = vec![0f32; rows.len() * self.cols];
        for (row_out, &r) in out.chunks_exact_mut(self.cols).zip(rows) {
            for (b, y) in row_out.chunks_exact_mut(self.block).enumerate() {
                self.dequantize_block(r * blocks + b, y);
            }
        }
        out
    }

    /// All weights as f32, row-major `[rows][cols]`: bit-identical to [`super::dequantize`] of the
    /// GGUF bytes this matrix was converted from.
    pub fn dequantize(&self) -> Vec<f32> {
        let mut out = vec![0f32; self.rows * self.cols];
        for (b, y) in out.chunks_exact_mut(self.block).enumerate() {
            self.dequantize_block(b, y);
        }
        out
    }
}

/// The `BITS`-wide fields of `words`, lowest bits first, as f32 (exact: |q| <= 128).
#[inline(always)]
fn unpack<const BITS: u32, const SIGNED: bool>(words: &[u32], out: &mut [f32]) {
    let per_word = (32 / BITS) as usize;
    for (out, &word) in out.chunks_exact_mut(per_word).zip(words) {
        for (i, y) in out.iter_mut().enumerate() {
            let shift = BITS * i as u32;
            let q = if SIGNED {
                // Move the field to the top, then shift it back arithmetically: sign extension.
                ((word << (32 - BITS - shift)) as i32) >> (32 - BITS)
            } else {
                ((word >> shift) & ((1 << BITS) - 1)) as i32
            };
            *y = q as f32;
        }
    }
}

/// Packs one block type into a [`QMatrix`], GGUF block by GGUF block: both are row-major with
/// blocks along K, so the kernel blocks come out in order.
fn convert<B: QuantBlock>(bytes: &[u8], rows: usize, cols: usize) -> Result<QMatrix> {
    let t = B::TYPE;
    if !cols.is_multiple_of(B::QK) {
        bail!("row length {cols} is not a multiple of the {t:?} block size {}", B::QK);
    }
    let n = rows.checked_mul(cols).ok_or_else(|| Error::new(format!("{rows} x {cols} weights overflow")))?;
    super::check_size(t, bytes, n)?;

    let KernelLayout { bits, block, signed, offsets: has_offsets } = B::KERNEL;
    let per_word = 32 / bits as usize;
    let mask = (1u32 << bits) - 1;
    let mut scales = Vec::with_capacity(n / block);
    let mut offsets = Vec::with_capacity(if has_offsets { n / block } else { 0 });
    let mut values = Vec::with_capacity(n / per_word);
    for block_bytes in bytes.chunks_exact(std::mem::size_of::<B>()) {
        B::read(block_bytes).kernel_blocks(|scale, offset, q| {
            debug_assert_eq!(q.len(), block);
            scales.push(scale);
            if has_offsets {
                offsets.push(offset);
            }
            for word_q in q.chunks_exact(per_word) {
                let word = word_q
                    .iter()
                    .enumerate()
                    .fold(0u32, |word, (i, &q)| word | ((q as u32 & mask) << (bits * i as u32)));
                values.push(word);
            }
        });
    }
    QMatrix::new(rows, cols, bits, block, signed, scales, has_offsets.then_some(offsets), values)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::quant::dequantize;

    /// A small deterministic generator (xorshift64*), so the tests need no crate.
    pub(crate) struct Rng(pub(crate) u64);

    impl Rng {
        pub(crate) fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
    }

    /// Random bytes for `n_blocks` blocks of `t`, with every f16 field (d, m, dmin) replaced by a
    /// random finite f16 of either sign, subnormals included.
    pub(crate) fn random_blocks(t: GgmlType, n_blocks: usize, rng: &mut Rng) -> Vec<u8> {
        let (_, size) = t.block_layout();
        let f16_fields: &[usize] = match t {
            GgmlType::Q4_0 | GgmlType::Q5_0 | GgmlType::Q8_0 => &[0],
            GgmlType::Q4_1 | GgmlType::Q5_1 | GgmlType::Q4_K | GgmlType::Q5_K => &[0, 2],
            GgmlType::Q6_K => &[208],
            _ => unreachable!(),
        };
        let mut bytes: Vec<u8> = (0..n_blocks * size).map(|_| rng.next() as u8).collect();
        for block in bytes.chunks_exact_mut(size) {
            for &at in f16_fields {
                let bits = loop {
                    let bits = rng.next() as u16;
                    // Any finite f16: skip the Inf/NaN exponent.
                    if bits & 0x7C00 != 0x7C00 {
                        break bits;
                    }
                };
                block[at..at + 2].copy_from_slice(&bits.to_le_bytes());
            }
        }
        bytes
    }

    #[test]
    fn conversion_is_lossless_on_random_blocks() {
        let mut rng = Rng(0x1234_5678_9ABC_DEF1);
        for t in QMatrix::TYPES {
            let (qk, _) = t.block_layout();
            let (rows, cols) = (3, 2 * qk.max(64));
            let bytes = random_blocks(t, rows * cols / qk, &mut rng);
            let expected = dequantize(t, &bytes, rows * cols).unwrap();
            let w = QMatrix::from_ggml(t, &bytes, rows, cols).unwrap();
            let got = w.dequantize();
            for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
                assert_eq!(g.to_bits(), e.to_bits(), "{t:?} weight {i}: {g} != {e}");
            }
            for i in [0, 1, cols - 1, cols, rows * cols - 1] {
                let (n, k) = (i / cols, i % cols);
                let b = i / w.block();
                let q = w.q(n, k) as f32;
                let y = match w.offsets() {
                    None => w.scales()[b] * q,
                    Some(o) => w.scales()[b] * q + o[b],
                };
                assert_eq!(y.to_bits(), expected[i].to_bits(), "{t:?} q({n}, {k})");
            }
        }
    }

    #[test]
    fn q4_0_packs_nibbles_low_bits_first_and_signed() {
        // d = 1, qs[j] = j | (15 - j) << 4: weights 0..16 are j - 8, weights 16..32 are 7 - j.
        let mut bytes = half::f16::from_f32(1.0).to_le_bytes().to_vec();
        bytes.extend((0..16u8).map(|j| j | ((15 - j) << 4)));
        let w = QMatrix::from_ggml(GgmlType::Q4_0, &bytes, 1, 32).unwrap();
        assert_eq!((w.bits(), w.block(), w.signed(), w.offsets()), (4, 32, true, None));
        // Weights 0..8 are -8..=-1 = nibbles 8..=15, lowest bits first.
        assert_eq!(w.values()[0], 0xFEDC_BA98);
        assert_eq!(w.values()[1], 0x7654_3210);
        assert_eq!((w.q(0, 0), w.q(0, 15), w.q(0, 16), w.q(0, 31)), (-8, 7, 7, -8));
    }

    #[test]
    fn q4_k_keeps_unsigned_nibbles_because_the_signed_rewrite_rounds() {
        // d = 1, dmin = 2^-24 (the smallest f16); sub-block 0 has sc = 63, m = 1, and every
        // q = 0, so weight 0 is 63 * 0 - 2^-24.
        let mut bytes = half::f16::from_f32(1.0).to_le_bytes().to_vec();
        bytes.extend(half::f16::from_f32(2f32.powi(-24)).to_le_bytes());
        bytes.extend([63, 63, 63, 63, 1, 1, 1, 1, 0x1F, 0x1F, 0x1F, 0x1F]);
        bytes.extend([0u8; 128]);
        let expected = dequantize(GgmlType::Q4_K, &bytes, 256).unwrap();
        assert_eq!(expected[0], -(2f32.powi(-24)));
        let w = QMatrix::from_ggml(GgmlType::Q4_K, &bytes, 1, 256).unwrap();
        assert_eq!(w.dequantize(), expected);
        // Signed storage would need q' = q - 8 and the offset 8 * 63 - 2^-24, which rounds to
        // 504 in f32 and loses the weight entirely.
        let (s, o) = (w.scales()[0], w.offsets().unwrap()[0]);
        let signed_offset = 8.0 * s + o;
        assert_eq!(s * -8.0 + signed_offset, 0.0);
    }

    #[test]
    fn rejects_bad_shapes_naming_the_tensor() {
        let info = TensorInfo {
            name: "blk.3.ffn_down.weight".into(),
            dims: vec![128, 4],
            ggml_type: GgmlType::Q4_K,
            offset: 0,
            n_bytes: 0,
        };
        let e = QMatrix::from_tensor(&info, &[]).unwrap_err();
        assert_eq!(
            e.message(),
            "tensor blk.3.ffn_down.weight: row length 128 is not a multiple of the Q4_K block size 256"
        );
        let info = TensorInfo { dims: vec![256, 2], ..info };
        let e = QMatrix::from_tensor(&info, &[0; 144]).unwrap_err();
        assert_eq!(e.message(), "tensor blk.3.ffn_down.weight: 512 Q4_K weights take 288 bytes, but the data has 144");
        let info = TensorInfo { ggml_type: GgmlType::F16, ..info };
        assert!(QMatrix::from_tensor(&info, &[0; 1024])
            .unwrap_err()
            .message()
            .contains("F16 weights are not quantized"));
        let info = TensorInfo { ggml_type: GgmlType::IQ4_XS, ..info };
        assert!(QMatrix::from_tensor(&info, &[]).unwrap_err().message().contains("IQ4_XS tensors are not supported"));
        assert!(QMatrix::new(1, 32, 8, 32, false, vec![1.0], None, vec![0; 8]).is_err());
        assert!(QMatrix::new(1, 32, 8, 32, true, vec![1.0], None, vec![0; 7]).is_err());
    }

    #[test]
    fn permuted_and_selected_rows_decode_like_the_whole_matrix() {
        // 3 rows of 64 4-bit weights with offsets: two blocks per row.
        let values: Vec<u32> = (0..3 * 64 / 8).map(|i| 0x9876_5432u32.rotate_left(i as u32)).collect();
        let scales: Vec<f32> = (0..6).map(|b| 0.5 + b as f32).collect();
        let offsets: Vec<f32> = (0..6).map(|b| -(b as f32) * 0.25).collect();
        let m = QMatrix::new(3, 64, 4, 32, false, scales, Some(offsets), values).unwrap();
        let full = m.dequantize();
        let row = |r: usize| full[r * 64..(r + 1) * 64].to_vec();
        let permuted = m.permute_rows(&[2, 0, 1]).dequantize();
        assert_eq!(permuted, [row(2), row(0), row(1)].concat());
        assert_eq!(m.dequantize_rows(&[1, 1, 2]), [row(1), row(1), row(2)].concat());
    }
}
