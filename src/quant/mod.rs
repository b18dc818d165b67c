//! Quantized weights: decoding GGUF tensor bytes, and the one packed form the matmul kernels take.
//!
//! # Brief overview
//!
//! - [`dequantize`] turns raw tensor bytes of any supported [`GgmlType`] into f32, bit-identical
//!   to ggml's `dequantize_row_*` (ggml-quants.c) and to PyPI `gguf.quants.dequantize`.
//! - [`QMatrix`] is the kernel format: a weight matrix kept quantized, as packed integer quants
//!   in `u32` words plus one f32 scale (and, for asymmetric types, one f32 offset) per block of
//!   16 or 32 weights. [`QMatrix::from_ggml`] converts every supported quantized type to it
//!   losslessly: `QMatrix::dequantize` equals [`dequantize`] bit for bit, for every element.
//! - [`qmatmul`] is the reference CPU matmul on a [`QMatrix`], with f32 activations.
//!
//! This module knows nothing about burn, WebGPU or files; it compiles for wasm32 unchanged.
//! F32/F16/BF16 tensors are not quantized: they are only decoded here, and take a float path.
//!
//! # How each type maps onto `QMatrix`, and why it is exact
//!
//! | GGUF | bits | block | signed | scale | offset | ggml computes | kernel computes |
//! | --- | --- | --- | --- | --- | --- | --- | --- |
//! | Q8_0 | 8 | 32 | yes | d | — | `q*d` | `s*q` |
//! | Q4_0 | 4 | 32 | yes | d | — | `(q-8)*d` | `s*q`, q = nibble−8 |
//! | Q4_1 | 4 | 32 | **no** | d | m | `q*d + m` | `s*q + o` |
//! | Q5_0 | 8 | 32 | yes | d | — | `(q-16)*d` | `s*q`, q = 5-bit−16 |
//! | Q5_1 | 8 | 32 | yes | d | m | `q*d + m` | `s*q + o` |
//! | Q4_K | 4 | 32 | **no** | d·sc | −(dmin·m) | `(d*sc)*q - dmin*m` | `s*q + o` |
//! | Q5_K | 8 | 32 | yes | d·sc | −(dmin·m) | `(d*sc)*q - dmin*m` | `s*q + o` |
//! | Q6_K | 8 | 16 | yes | d·sc | — | `(d*sc)*(q-32)` | `s*q`, q = 6-bit−32 |
//!
//! Every product above is exact in f32 (24-bit significand): `d`, `dmin` and Q4_1/Q5_1's `m` are
//! f16 (at most 11 significant bits), the K-quants' `sc` and `m` are 6-bit integers (Q6_K's `sc`
//! a signed 8-bit one, |sc| ≤ 128), and |q| ≤ 128, so `d·sc` needs at most 18 bits and `s·q` at
//! most 23 (Q6_K: 18 + 5). The only rounding is the final addition, which both sides perform on
//! the same two f32 operands (`a - b` and `a + (-b)` round identically), so the results are
//! bit-identical — and stay so if a GPU kernel fuses `s*q + o` into an FMA. (This holds for
//! finite f16 fields; an Inf or NaN scale gives Inf/NaN in the same places, NaN payloads aside.)
//!
//! **Why Q4_1 and Q4_K keep their nibbles unsigned.** Storing them signed, as `q - 8`, needs the
//! offset `o' = 8*s + o` rounded to f32. When `o` is much smaller than `8*s` (Q4_K: `dmin·m` far
//! below `d·sc`), that rounding drops the low bits of `o`, and the weights near zero — the q = 0
//! weight is exactly `o` — come back wrong by up to half an ulp of `8*s`: thousands of ulps of
//! the weight itself, not the ≤ 1 ulp a lossless format may cost. Unsigned nibbles need no
//! rewrite, so these two types keep q in 0..=15 and set `signed: false`.
//! A WGSL kernel reads either with one `extractBits` on an `i32` (sign-extends) or `u32`
//! (zero-extends) word.
//!
//! # Packed layout of `QMatrix::values`
//!
//! See [`QMatrix`].

mod blocks;
mod matmul;
mod matmul_int8;
mod qmatrix;

pub use blocks::{BlockQ4K, BlockQ4_0, BlockQ4_1, BlockQ5K, BlockQ5_0, BlockQ5_1, BlockQ6K, BlockQ8_0};
pub use matmul::{qmatmul, qmatmul_with_threads};
#[cfg(target_arch = "wasm32")]
pub use matmul_int8::use_relaxed_simd_kernel;
pub use matmul_int8::{check_int8_kernel, int8_kernel, qmatmul_int8, qmatmul_int8_each, Int8KernelCheck, Int8Matrix};
pub use qmatrix::QMatrix;

use blocks::QuantBlock;

use crate::bail;
use crate::error::{Error, Result};
use crate::formats::ggml::GgmlType;
use crate::formats::gguf::TensorInfo;

/// The types [`dequantize`] decodes (those of [`GgmlType::is_supported`]).
pub const DEQUANTIZE_TYPES: [GgmlType; 11] = {
    use GgmlType::*;
    [F32, F16, BF16, Q8_0, Q4_0, Q4_1, Q5_0, Q5_1, Q4_K, Q5_K, Q6_K]
};

/// The `n` weights in `bytes` (a tensor's raw data, `t`'s blocks in file order) as f32.
///
/// Errors if `t` is not supported, if `n` is not a whole number of `t`'s blocks, or if `bytes`
/// is not exactly the size of `n` weights. The messages name the type and the sizes; add the
/// tensor's name with [`Error::context`], or call [`dequantize_tensor`].
pub fn dequantize(t: GgmlType, bytes: &[u8], n: usize) -> Result<Vec<f32>> {
    check_size(t, bytes, n)?;
    let mut out = vec![0f32; n];
    match t {
        GgmlType::F32 => {
            for (y, b) in out.iter_mut().zip(bytes.chunks_exact(4)) {
                *y = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            }
        }
        GgmlType::F16 => {
            for (y, b) in out.iter_mut().zip(bytes.chunks_exact(2)) {
                *y = half::f16::from_le_bytes([b[0], b[1]]).to_f32();
            }
        }
        // ggml_compute_bf16_to_fp32 (ggml-impl.h): the 16 bits become the top half of an f32,
        // NaN payloads included (half's `bf16::to_f32` would set the quiet bit).
        GgmlType::BF16 => {
            for (y, b) in out.iter_mut().zip(bytes.chunks_exact(2)) {
                *y = f32::from_bits((u16::from_le_bytes([b[0], b[1]]) as u32) << 16);
            }
        }
        GgmlType::Q4_0 => dequantize_blocks::<blocks::BlockQ4_0>(bytes, &mut out),
        GgmlType::Q4_1 => dequantize_blocks::<blocks::BlockQ4_1>(bytes, &mut out),
        GgmlType::Q5_0 => dequantize_blocks::<blocks::BlockQ5_0>(bytes, &mut out),
        GgmlType::Q5_1 => dequantize_blocks::<blocks::BlockQ5_1>(bytes, &mut out),
        GgmlType::Q8_0 => dequantize_blocks::<blocks::BlockQ8_0>(bytes, &mut out),
        GgmlType::Q4_K => dequantize_blocks::<blocks::BlockQ4K>(bytes, &mut out),
        GgmlType::Q5_K => dequantize_blocks::<blocks::BlockQ5K>(bytes, &mut out),
        GgmlType::Q6_K => dequantize_blocks::<blocks::BlockQ6K>(bytes, &mut out),
        _ => unreachable!("check_size accepts only DEQUANTIZE_TYPES"),
    }
    Ok(out)
}

/// [`dequantize`] for a tensor read from a GGUF file; errors name the tensor.
pub fn dequantize_tensor(info: &TensorInfo, bytes: &[u8]) -> Result<Vec<f32>> {
    let n = usize::try_from(info.n_elements())
        .map_err(|_| Error::new(format!("tensor {}: too many elements for this platform", info.name)))?;
    dequantize(info.ggml_type, bytes, n).map_err(|e| e.context(format!("tensor {}", info.name)))
}

fn dequantize_blocks<B: QuantBlock>(bytes: &[u8], out: &mut [f32]) {
    let size = std::mem::size_of::<B>();
    for (block, y) in bytes.chunks_exact(size).zip(out.chunks_exact_mut(B::QK)) {
        B::read(block).dequantize(y);
    }
}

/// Checks that `t` is supported and that `bytes` holds exactly `n` weights of it.
fn check_size(t: GgmlType, bytes: &[u8], n: usize) -> Result<()> {
    if !DEQUANTIZE_TYPES.contains(&t) {
        bail!("{t:?} tensors are not supported (supported: {})", type_list(&DEQUANTIZE_TYPES));
    }
    let (block, block_bytes) = t.block_layout();
    if !n.is_multiple_of(block) {
        bail!("{n} weights are not a whole number of {t:?} blocks of {block}");
    }
    let expected = (n / block).checked_mul(block_bytes);
    if expected != Some(bytes.len()) {
        let expected = expected.map_or("more than usize::MAX".to_string(), |e| e.to_string());
        bail!("{n} {t:?} weights take {expected} bytes, but the data has {}", bytes.len());
    }
    Ok(())
}

fn type_list(types: &[GgmlType]) -> String {
    types.iter().map(|t| format!("{t:?}")).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f16_bytes(x: f32) -> [u8; 2] {
        half::f16::from_f32(x).to_le_bytes()
    }

    #[test]
    fn one_q4_0_block_with_known_scale_and_nibbles() {
        // d = -0.5; qs[j] = j (low nibble) | (15 - j) << 4 (high nibble).
        let mut bytes = f16_bytes(-0.5).to_vec();
        bytes.extend((0..16u8).map(|j| j | ((15 - j) << 4)));
        let y = dequantize(GgmlType::Q4_0, &bytes, 32).unwrap();
        for j in 0..16 {
            assert_eq!(y[j], (j as f32 - 8.0) * -0.5, "weight {j}");
            assert_eq!(y[j + 16], ((15 - j) as f32 - 8.0) * -0.5, "weight {}", j + 16);
        }
        // Weight 8 is q = 0 times a negative scale: -0.0, as in ggml.
        assert_eq!(y[8].to_bits(), (-0.0f32).to_bits());
    }

    #[test]
    fn one_q8_0_block() {
        let mut bytes = f16_bytes(0.25).to_vec();
        bytes.extend((0..32i8).map(|j| (j * 4 - 64) as u8));
        bytes[2 + 31] = (-128i8) as u8;
        let y = dequantize(GgmlType::Q8_0, &bytes, 32).unwrap();
        assert_eq!(y[0], -16.0);
        assert_eq!(y[30], (30 * 4 - 64) as f32 * 0.25);
        assert_eq!(y[31], -32.0);
    }

    #[test]
    fn one_q5_1_block_uses_qh_bit_j() {
        // d = 1, m = -16: y = q - 16. All low nibbles 0xF, qh with every odd bit set.
        let mut bytes = f16_bytes(1.0).to_vec();
        bytes.extend(f16_bytes(-16.0));
        bytes.extend(0xAAAA_AAAAu32.to_le_bytes());
        bytes.extend([0xFFu8; 16]);
        let y = dequantize(GgmlType::Q5_1, &bytes, 32).unwrap();
        for (j, &y) in y.iter().enumerate() {
            let q = 15 + if j % 2 == 1 { 16 } else { 0 };
            assert_eq!(y, q as f32 - 16.0, "weight {j}");
        }
    }

    #[test]
    fn one_q6_k_block() {
        // d = 2, scales[j] = j - 8; every 6-bit quant = 33 (so q - 32 = 1): low nibble 1, high bits 2.
        let mut bytes = vec![0x11u8; 128]; // ql
        bytes.extend([0b1010_1010u8; 64]); // qh: 2 in each 2-bit field
        bytes.extend((0..16i8).map(|j| (j - 8) as u8));
        bytes.extend(f16_bytes(2.0));
        let y = dequantize(GgmlType::Q6_K, &bytes, 256).unwrap();
        for (i, &y) in y.iter().enumerate() {
            assert_eq!(y, 2.0 * (i / 16) as f32 - 16.0, "weight {i}");
        }
    }

    #[test]
    fn bf16_keeps_the_bits_and_f16_widens_exactly() {
        let bytes = [0x80u8, 0x3F, 0x81, 0x7F]; // 1.0, and a signalling NaN
        let y = dequantize(GgmlType::BF16, &bytes, 2).unwrap();
        assert_eq!((y[0], y[1].to_bits()), (1.0, 0x7F81_0000));
        let y = dequantize(GgmlType::F16, &[0x01, 0x00, 0x00, 0x7C], 2).unwrap();
        assert_eq!((y[0], y[1]), (2f32.powi(-24), f32::INFINITY));
    }

    #[test]
    fn the_supported_types_are_those_of_ggml_rs() {
        let supported: Vec<GgmlType> = (0..64).filter_map(GgmlType::from_id).filter(|t| t.is_supported()).collect();
        assert_eq!(supported.len(), DEQUANTIZE_TYPES.len());
        assert!(supported.iter().all(|t| DEQUANTIZE_TYPES.contains(t)));
        assert!(QMatrix::TYPES.iter().all(|t| DEQUANTIZE_TYPES.contains(t)));
    }

    #[test]
    fn bad_sizes_and_types_are_errors_not_panics() {
        let message = |r: Result<Vec<f32>>| r.unwrap_err().message().to_string();
        assert_eq!(
            message(dequantize(GgmlType::Q4_0, &[0; 17], 32)),
            "32 Q4_0 weights take 18 bytes, but the data has 17"
        );
        assert_eq!(
            message(dequantize(GgmlType::Q4_K, &[0; 144], 255)),
            "255 weights are not a whole number of Q4_K blocks of 256"
        );
        assert!(message(dequantize(GgmlType::Q2_K, &[0; 84], 256))
            .starts_with("Q2_K tensors are not supported (supported: F32, F16, BF16"));
        assert!(message(dequantize(GgmlType::F32, &[0; 8], usize::MAX)).contains("more than usize::MAX"));

        let info = TensorInfo {
            name: "blk.0.attn_q.weight".into(),
            dims: vec![32, 2],
            ggml_type: GgmlType::Q8_0,
            offset: 0,
            n_bytes: 68,
        };
        let e = dequantize_tensor(&info, &[0; 67]).unwrap_err();
        assert_eq!(e.message(), "tensor blk.0.attn_q.weight: 64 Q8_0 weights take 68 bytes, but the data has 67");
        assert_eq!(dequantize_tensor(&info, &[0; 68]).unwrap(), vec![0.0; 64]);
    }
}
