//! ggml's quantized blocks, one `#[repr(C)]` struct per type with ggml's field names, each read
//! from raw tensor bytes and decoded two ways:
//!
//! - [`QuantBlock::dequantize`] follows ggml's `dequantize_row_*` (ggml-quants.c) expression by
//!   expression, so the f32 results are bit-identical to ggml's and to PyPI `gguf.quants`.
//! - [`QuantBlock::kernel_blocks`] hands the same block to [`QMatrix`](super::QMatrix) as
//!   integer quants plus one scale (and offset) per kernel block, without any rounding.
//!
//! The structs are only ever built by copying fields out of a byte slice (`read`), never by
//! casting pointers, so this file has no `unsafe` and reads the same on wasm32 and natively.
//! Block byte sizes come from [`GgmlType::block_layout`]; the size asserts below check that the
//! structs agree with them (and with ggml's `static_assert`s).

use half::f16;

use crate::formats::ggml::{GgmlType, QK_K};

pub const QK4_0: usize = 32;
pub const QK4_1: usize = 32;
pub const QK5_0: usize = 32;
pub const QK5_1: usize = 32;
pub const QK8_0: usize = 32;
/// Bytes of the packed 6-bit scales and mins of Q4_K and Q5_K.
pub const K_SCALE_SIZE: usize = 12;

/// How a block type is laid out in a [`QMatrix`](super::QMatrix).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KernelLayout {
    /// 4 or 8 bits per stored quant.
    pub bits: u32,
    /// Weights per scale (and offset): 16 or 32.
    pub block: usize,
    /// Whether the stored fields are two's complement (sign-extended) or unsigned.
    pub signed: bool,
    /// Whether each kernel block has an offset (asymmetric types).
    pub offsets: bool,
}

/// One ggml block type.
pub trait QuantBlock: Sized {
    const TYPE: GgmlType;
    /// Weights per block.
    const QK: usize;
    const KERNEL: KernelLayout;

    /// The block from exactly `size_of::<Self>()` bytes (the caller slices them).
    fn read(bytes: &[u8]) -> Self;

    /// The block's `QK` weights as f32, in ggml's expression order (`y.len() == QK`).
    fn dequantize(&self, y: &mut [f32]);

    /// Calls `emit(scale, offset, quants)` once per kernel block of `KERNEL.block` weights, in
    /// element order, such that `scale * q + offset` (no addition when `KERNEL.offsets` is false)
    /// is bit-identical to [`QuantBlock::dequantize`]. The quants fit `KERNEL.bits`, signed or
    /// unsigned as `KERNEL.signed` says.
    fn kernel_blocks(&self, emit: impl FnMut(f32, f32, &[i8]));
}

fn f16_at(bytes: &[u8], at: usize) -> f16 {
    f16::from_le_bytes([bytes[at], bytes[at + 1]])
}

fn array_at<const N: usize>(bytes: &[u8], at: usize) -> [u8; N] {
    let mut out = [0u8; N];
    out.copy_from_slice(&bytes[at..at + N]);
    out
}

// ---------------------------------------------------------------------------------------------
// Q4_0: 32 weights, y = (q - 8) * d

#[repr(C)]
pub struct BlockQ4_0 {
    pub d: f16,
    pub qs: [u8; QK4_0 / 2],
}
const _: () = assert!(std::mem::size_of::<BlockQ4_0>() == 2 + QK4_0 / 2);

impl BlockQ4_0 {
    /// Weight j is the low nibble of qs[j], weight j + 16 the high nibble; both minus 8.
    fn quants(&self) -> [i8; QK4_0] {
        let mut q = [0i8; QK4_0];
        for (j, &byte) in self.qs.iter().enumerate() {
            q[j] = (byte & 0x0F) as i8 - 8;
            q[j + QK4_0 / 2] = (byte >> 4) as i8 - 8;
        }
        q
    }
}

impl QuantBlock for BlockQ4_0 {
    const TYPE: GgmlType = GgmlType::Q4_0;
    const QK: usize = QK4_0;
    const KERNEL: KernelLayout = KernelLayout { bits: 4, block: 32, signed: true, offsets: false };

    fn read(b: &[u8]) -> Self {
        BlockQ4_0 { d: f16_at(b, 0), qs: array_at(b, 2) }
    }

    /// `dequantize_row_q4_0`: `y[j] = x0*d` with `x0 = (qs[j] & 0x0F) - 8`.
    fn dequantize(&self, y: &mut [f32]) {
        let d = self.d.to_f32();
        for j in 0..QK4_0 / 2 {
            let x0 = (self.qs[j] & 0x0F) as i32 - 8;
            let x1 = (self.qs[j] >> 4) as i32 - 8;
            y[j] = x0 as f32 * d;
            y[j + QK4_0 / 2] = x1 as f32 * d;
        }
    }

    fn kernel_blocks(&self, mut emit: impl FnMut(f32, f32, &[i8])) {
        emit(self.d.to_f32(), 0.0, &self.quants());
    }
}

// ---------------------------------------------------------------------------------------------
// Q4_1: 32 weights, y = q * d + m

#[repr(C)]
pub struct BlockQ4_1 {
    pub d: f16,
    pub m: f16,
    pub qs: [u8; QK4_1 / 2],
}
const _: () = assert!(std::mem::size_of::<BlockQ4_1>() == 2 * 2 + QK4_1 / 2);

impl BlockQ4_1 {
    fn quants(&self) -> [i8; QK4_1] {
        let mut q = [0i8; QK4_1];
        for (j, &byte) in self.qs.iter().enumerate() {
            q[j] = (byte & 0x0F) as i8;
            q[j + QK4_1 / 2] = (byte >> 4) as i8;
        }
        q
    }
}

impl QuantBlock for BlockQ4_1 {
    const TYPE: GgmlType = GgmlType::Q4_1;
    const QK: usize = QK4_1;
    // Unsigned nibbles: q - 8 with offset m + 8d would round (see the module docs of `quant`).
    const KERNEL: KernelLayout = KernelLayout { bits: 4, block: 32, signed: false, offsets: true };

    fn read(b: &[u8]) -> Self {
        BlockQ4_1 { d: f16_at(b, 0), m: f16_at(b, 2), qs: array_at(b, 4) }
    }

    /// `dequantize_row_q4_1`: `y[j] = x0*d + m` with `x0 = qs[j] & 0x0F`.
    fn dequantize(&self, y: &mut [f32]) {
        let d = self.d.to_f32();
        let m = self.m.to_f32();
        for j in 0..QK4_1 / 2 {
            let x0 = (self.qs[j] & 0x0F) as i32;
            let x1 = (self.qs[j] >> 4) as i32;
            y[j] = x0 as f32 * d + m;
            y[j + QK4_1 / 2] = x1 as f32 * d + m;
        }
    }

    fn kernel_blocks(&self, mut emit: impl FnMut(f32, f32, &[i8])) {
        emit(self.d.to_f32(), self.m.to_f32(), &self.quants());
    }
}

// ---------------------------------------------------------------------------------------------
// Q5_0: 32 weights, y = (q - 16) * d, the fifth bit of weight j is bit j of qh

#[repr(C)]
pub struct BlockQ5_0 {
    pub d: f16,
    pub qh: [u8; 4],
    pub qs: [u8; QK5_0 / 2],
}
const _: () = assert!(std::mem::size_of::<BlockQ5_0>() == 2 + 4 + QK5_0 / 2);

/// The 5-bit quants of Q5_0/Q5_1 (before any offset): low nibbles as in Q4_0, high bit j of qh.
fn quants_q5(qh: [u8; 4], qs: &[u8; 16]) -> [i8; 32] {
    let qh = u32::from_le_bytes(qh);
    let mut q = [0i8; 32];
    for j in 0..16 {
        q[j] = ((qs[j] & 0x0F) | (((qh >> j) & 1) << 4) as u8) as i8;
        q[j + 16] = ((qs[j] >> 4) | (((qh >> (j + 16)) & 1) << 4) as u8) as i8;
    }
    q
}

impl QuantBlock for BlockQ5_0 {
    const TYPE: GgmlType = GgmlType::Q5_0;
    const QK: usize = QK5_0;
    const KERNEL: KernelLayout = KernelLayout { bits: 8, block: 32, signed: true, offsets: false };

    fn read(b: &[u8]) -> Self {
        BlockQ5_0 { d: f16_at(b, 0), qh: array_at(b, 2), qs: array_at(b, 6) }
    }

    /// `dequantize_row_q5_0`: `y[j] = x0*d` with `x0 = ((qs[j] & 0x0F) | xh_0) - 16`.
    fn dequantize(&self, y: &mut [f32]) {
        let d = self.d.to_f32();
        let qh = u32::from_le_bytes(self.qh);
        for j in 0..QK5_0 / 2 {
            let xh_0 = (((qh >> j) << 4) & 0x10) as u8;
            let xh_1 = ((qh >> (j + 12)) & 0x10) as u8;
            let x0 = ((self.qs[j] & 0x0F) | xh_0) as i32 - 16;
            let x1 = ((self.qs[j] >> 4) | xh_1) as i32 - 16;
            y[j] = x0 as f32 * d;
            y[j + QK5_0 / 2] = x1 as f32 * d;
        }
    }

    fn kernel_blocks(&self, mut emit: impl FnMut(f32, f32, &[i8])) {
        let q = quants_q5(self.qh, &self.qs).map(|q| q - 16);
        emit(self.d.to_f32(), 0.0, &q);
    }
}

// ---------------------------------------------------------------------------------------------
// Q5_1: 32 weights, y = q * d + m

#[repr(C)]
pub struct BlockQ5_1 {
    pub d: f16,
    pub m: f16,
    pub qh: [u8; 4],
    pub qs: [u8; QK5_1 / 2],
}
const _: () = assert!(std::mem::size_of::<BlockQ5_1>() == 2 * 2 + 4 + QK5_1 / 2);

impl QuantBlock for BlockQ5_1 {
    const TYPE: GgmlType = GgmlType::Q5_1;
    const QK: usize = QK5_1;
    // Quants 0..=31 are non-negative i8s: the 8-bit field reads the same signed or not.
    const KERNEL: KernelLayout = KernelLayout { bits: 8, block: 32, signed: true, offsets: true };

    fn read(b: &[u8]) -> Self {
        BlockQ5_1 { d: f16_at(b, 0), m: f16_at(b, 2), qh: array_at(b, 4), qs: array_at(b, 8) }
    }

    /// `dequantize_row_q5_1`: `y[j] = x0*d + m` with `x0 = (qs[j] & 0x0F) | xh_0`.
    fn dequantize(&self, y: &mut [f32]) {
        let d = self.d.to_f32();
        let m = self.m.to_f32();
        let qh = u32::from_le_bytes(self.qh);
        for j in 0..QK5_1 / 2 {
            let xh_0 = (((qh >> j) << 4) & 0x10) as u8;
            let xh_1 = ((qh >> (j + 12)) & 0x10) as u8;
            let x0 = ((self.qs[j] & 0x0F) | xh_0) as i32;
            let x1 = ((self.qs[j] >> 4) | xh_1) as i32;
            y[j] = x0 as f32 * d + m;
            y[j + QK5_1 / 2] = x1 as f32 * d + m;
        }
    }

    fn kernel_blocks(&self, mut emit: impl FnMut(f32, f32, &[i8])) {
        emit(self.d.to_f32(), self.m.to_f32(), &quants_q5(self.qh, &self.qs));
    }
}

// ---------------------------------------------------------------------------------------------
// Q8_0: 32 weights, y = q * d

#[repr(C)]
pub struct BlockQ8_0 {
    pub d: f16,
    pub qs: [i8; QK8_0],
}
const _: () = assert!(std::mem::size_of::<BlockQ8_0>() == 2 + QK8_0);

impl QuantBlock for BlockQ8_0 {
    const TYPE: GgmlType = GgmlType::Q8_0;
    const QK: usize = QK8_0;
    const KERNEL: KernelLayout = KernelLayout { bits: 8, block: 32, signed: true, offsets: false };

    fn read(b: &[u8]) -> Self {
        BlockQ8_0 { d: f16_at(b, 0), qs: array_at::<QK8_0>(b, 2).map(|q| q as i8) }
    }

    /// `dequantize_row_q8_0`: `y[j] = x[i].qs[j]*d`.
    fn dequantize(&self, y: &mut [f32]) {
        let d = self.d.to_f32();
        for (y, &q) in y.iter_mut().zip(&self.qs) {
            *y = q as f32 * d;
        }
    }

    fn kernel_blocks(&self, mut emit: impl FnMut(f32, f32, &[i8])) {
        emit(self.d.to_f32(), 0.0, &self.qs);
    }
}

// ---------------------------------------------------------------------------------------------
// Q4_K: 256 weights in 8 sub-blocks of 32, y = d*sc * q - dmin*m, with 6-bit sc and m

#[repr(C)]
pub struct BlockQ4K {
    pub d: f16,
    pub dmin: f16,
    pub scales: [u8; K_SCALE_SIZE],
    pub qs: [u8; QK_K / 2],
}
const _: () = assert!(std::mem::size_of::<BlockQ4K>() == 2 * 2 + K_SCALE_SIZE + QK_K / 2);

/// `get_scale_min_k4` (ggml-quants.c): the 6-bit scale and min of sub-block `j` (0..8), packed
/// as: bytes 0..4 hold sc 0..4 (low 6 bits) and the top 2 bits of sc 4..8; bytes 4..8 the same
/// for m; bytes 8..12 hold the low 4 bits of sc 4..8 (low nibble) and of m 4..8 (high nibble).
fn get_scale_min_k4(j: usize, q: &[u8; K_SCALE_SIZE]) -> (u8, u8) {
    if j < 4 {
        (q[j] & 63, q[j + 4] & 63)
    } else {
        ((q[j + 4] & 0x0F) | ((q[j - 4] >> 6) << 4), (q[j + 4] >> 4) | ((q[j] >> 6) << 4))
    }
}

/// The kernel blocks of Q4_K and Q5_K: sub-block j has scale `d*sc` and offset `-(dmin*m)`.
/// Both products are exact in f32 (11-bit f16 significand times a 6-bit integer), so ggml's
/// `d1 * q - m1` equals `scale * q + offset` bit for bit.
fn emit_k_sub_blocks(
    d: f16,
    dmin: f16,
    scales: &[u8; K_SCALE_SIZE],
    q: &[i8; QK_K],
    mut emit: impl FnMut(f32, f32, &[i8]),
) {
    let (d, min) = (d.to_f32(), dmin.to_f32());
    for (j, q) in q.chunks_exact(32).enumerate() {
        let (sc, m) = get_scale_min_k4(j, scales);
        emit(d * sc as f32, -(min * m as f32), q);
    }
}

impl BlockQ4K {
    /// Chunk c of 64 weights reads qs[32c..32c+32]: low nibbles are weights 64c..64c+32, high
    /// nibbles weights 64c+32..64c+64.
    fn quants(&self) -> [i8; QK_K] {
        let mut q = [0i8; QK_K];
        for (c, qs) in self.qs.chunks_exact(32).enumerate() {
            for (l, &byte) in qs.iter().enumerate() {
                q[64 * c + l] = (byte & 0x0F) as i8;
                q[64 * c + 32 + l] = (byte >> 4) as i8;
            }
        }
        q
    }
}

impl QuantBlock for BlockQ4K {
    const TYPE: GgmlType = GgmlType::Q4_K;
    const QK: usize = QK_K;
    // Unsigned nibbles: q - 8 with offset 8*d*sc - dmin*m would round (see the `quant` docs).
    const KERNEL: KernelLayout = KernelLayout { bits: 4, block: 32, signed: false, offsets: true };

    fn read(b: &[u8]) -> Self {
        BlockQ4K { d: f16_at(b, 0), dmin: f16_at(b, 2), scales: array_at(b, 4), qs: array_at(b, 4 + K_SCALE_SIZE) }
    }

    /// `dequantize_row_q4_K`: per 64 weights, `d1 = d * sc; m1 = min * m` for the low nibbles and
    /// `d2`, `m2` for the high ones, then `y = d1 * (q[l] & 0xF) - m1`.
    fn dequantize(&self, y: &mut [f32]) {
        let d = self.d.to_f32();
        let min = self.dmin.to_f32();
        for (c, q) in self.qs.chunks_exact(32).enumerate() {
            let (sc, m) = get_scale_min_k4(2 * c, &self.scales);
            let (d1, m1) = (d * sc as f32, min * m as f32);
            let (sc, m) = get_scale_min_k4(2 * c + 1, &self.scales);
            let (d2, m2) = (d * sc as f32, min * m as f32);
            let y = &mut y[64 * c..64 * c + 64];
            for l in 0..32 {
                y[l] = d1 * (q[l] & 0x0F) as f32 - m1;
            }
            for l in 0..32 {
                y[32 + l] = d2 * (q[l] >> 4) as f32 - m2;
            }
        }
    }

    fn kernel_blocks(&self, emit: impl FnMut(f32, f32, &[i8])) {
        emit_k_sub_blocks(self.d, self.dmin, &self.scales, &self.quants(), emit);
    }
}

// ---------------------------------------------------------------------------------------------
// Q5_K: as Q4_K with a fifth bit per weight in qh

#[repr(C)]
pub struct BlockQ5K {
    pub d: f16,
    pub dmin: f16,
    pub scales: [u8; K_SCALE_SIZE],
    pub qh: [u8; QK_K / 8],
    pub qs: [u8; QK_K / 2],
}
const _: () = assert!(std::mem::size_of::<BlockQ5K>() == 2 * 2 + K_SCALE_SIZE + QK_K / 8 + QK_K / 2);

impl BlockQ5K {
    /// As Q4_K for the low 4 bits; the fifth bit of weight 64c + l is bit 2c of qh[l] and that of
    /// weight 64c + 32 + l is bit 2c + 1.
    fn quants(&self) -> [i8; QK_K] {
        let mut q = [0i8; QK_K];
        for (c, qs) in self.qs.chunks_exact(32).enumerate() {
            for (l, (&byte, &high)) in qs.iter().zip(&self.qh).enumerate() {
                q[64 * c + l] = ((byte & 0x0F) | (((high >> (2 * c)) & 1) << 4)) as i8;
                q[64 * c + 32 + l] = ((byte >> 4) | (((high >> (2 * c + 1)) & 1) << 4)) as i8;
            }
        }
        q
    }
}

impl QuantBlock for BlockQ5K {
    const TYPE: GgmlType = GgmlType::Q5_K;
    const QK: usize = QK_K;
    // Quants 0..=31 are non-negative i8s.
    const KERNEL: KernelLayout = KernelLayout { bits: 8, block: 32, signed: true, offsets: true };

    fn read(b: &[u8]) -> Self {
        BlockQ5K {
            d: f16_at(b, 0),
            dmin: f16_at(b, 2),
            scales: array_at(b, 4),
            qh: array_at(b, 4 + K_SCALE_SIZE),
            qs: array_at(b, 4 + K_SCALE_SIZE + QK_K / 8),
        }
    }

    /// `dequantize_row_q5_K`: `y = d1 * ((ql[l] & 0xF) + (qh[l] & u1 ? 16 : 0)) - m1`, with the
    /// masks `u1 = 1, u2 = 2` shifted left by 2 per 64 weights.
    fn dequantize(&self, y: &mut [f32]) {
        let d = self.d.to_f32();
        let min = self.dmin.to_f32();
        let (mut u1, mut u2) = (1u8, 2u8);
        for (c, ql) in self.qs.chunks_exact(32).enumerate() {
            let (sc, m) = get_scale_min_k4(2 * c, &self.scales);
            let (d1, m1) = (d * sc as f32, min * m as f32);
            let (sc, m) = get_scale_min_k4(2 * c + 1, &self.scales);
            let (d2, m2) = (d * sc as f32, min * m as f32);
            let y = &mut y[64 * c..64 * c + 64];
            for l in 0..32 {
                let high = if self.qh[l] & u1 != 0 { 16 } else { 0 };
                y[l] = d1 * ((ql[l] & 0x0F) + high) as f32 - m1;
            }
            for l in 0..32 {
                let high = if self.qh[l] & u2 != 0 { 16 } else { 0 };
                y[32 + l] = d2 * ((ql[l] >> 4) + high) as f32 - m2;
            }
            u1 <<= 2;
            u2 <<= 2;
        }
    }

    fn kernel_blocks(&self, emit: impl FnMut(f32, f32, &[i8])) {
        emit_k_sub_blocks(self.d, self.dmin, &self.scales, &self.quants(), emit);
    }
}

// ---------------------------------------------------------------------------------------------
// Q6_K: 256 weights in 16 sub-blocks of 16, y = d * sc * (q - 32), with signed 8-bit sc

#[repr(C)]
pub struct BlockQ6K {
    pub ql: [u8; QK_K / 2],
    pub qh: [u8; QK_K / 4],
    pub scales: [i8; QK_K / 16],
    pub d: f16,
}
const _: () = assert!(std::mem::size_of::<BlockQ6K>() == QK_K / 2 + QK_K / 4 + QK_K / 16 + 2);

impl BlockQ6K {
    /// Per 128 weights (ql advancing by 64, qh by 32): weight l takes the low nibble of ql[l],
    /// l + 32 the low nibble of ql[l + 32], l + 64 and l + 96 their high nibbles; the top two
    /// bits of each are bits 0-1, 2-3, 4-5, 6-7 of qh[l]. Minus 32.
    fn quants(&self) -> [i8; QK_K] {
        let mut q = [0i8; QK_K];
        for (h, (ql, qh)) in self.ql.chunks_exact(64).zip(self.qh.chunks_exact(32)).enumerate() {
            let q = &mut q[128 * h..128 * h + 128];
            for l in 0..32 {
                q[l] = ((ql[l] & 0x0F) | ((qh[l] & 3) << 4)) as i8 - 32;
                q[l + 32] = ((ql[l + 32] & 0x0F) | (((qh[l] >> 2) & 3) << 4)) as i8 - 32;
                q[l + 64] = ((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) as i8 - 32;
                q[l + 96] = ((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) as i8 - 32;
            }
        }
        q
    }
}

impl QuantBlock for BlockQ6K {
    const TYPE: GgmlType = GgmlType::Q6_K;
    const QK: usize = QK_K;
    const KERNEL: KernelLayout = KernelLayout { bits: 8, block: 16, signed: true, offsets: false };

    fn read(b: &[u8]) -> Self {
        BlockQ6K {
            ql: array_at(b, 0),
            qh: array_at(b, QK_K / 2),
            scales: array_at::<{ QK_K / 16 }>(b, QK_K / 2 + QK_K / 4).map(|s| s as i8),
            d: f16_at(b, QK_K / 2 + QK_K / 4 + QK_K / 16),
        }
    }

    /// `dequantize_row_q6_K`: `y[l] = d * sc[is] * q1`, evaluated left to right as `(d*sc)*q1`.
    fn dequantize(&self, y: &mut [f32]) {
        let d = self.d.to_f32();
        for (h, (ql, qh)) in self.ql.chunks_exact(64).zip(self.qh.chunks_exact(32)).enumerate() {
            let sc = &self.scales[8 * h..8 * h + 8];
            let y = &mut y[128 * h..128 * h + 128];
            for l in 0..32 {
                let is = l / 16;
                let q1 = ((ql[l] & 0x0F) | ((qh[l] & 3) << 4)) as i8 - 32;
                let q2 = ((ql[l + 32] & 0x0F) | (((qh[l] >> 2) & 3) << 4)) as i8 - 32;
                let q3 = ((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) as i8 - 32;
                let q4 = ((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) as i8 - 32;
                y[l] = d * sc[is] as f32 * q1 as f32;
                y[l + 32] = d * sc[is + 2] as f32 * q2 as f32;
                y[l + 64] = d * sc[is + 4] as f32 * q3 as f32;
                y[l + 96] = d * sc[is + 6] as f32 * q4 as f32;
            }
        }
    }

    /// Sub-block j (16 weights) has scale `d*sc[j]`: exact in f32 (11 by 8 bits), and so is its
    /// product with q (at most 18 by 6 bits), so no rounding happens anywhere.
    fn kernel_blocks(&self, mut emit: impl FnMut(f32, f32, &[i8])) {
        let d = self.d.to_f32();
        let q = self.quants();
        for (q, &sc) in q.chunks_exact(16).zip(&self.scales) {
            emit(d * sc as f32, 0.0, q);
        }
    }
}

// ---------------------------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;

    fn check_size<B: QuantBlock>() {
        let (qk, bytes) = B::TYPE.block_layout();
        assert_eq!((B::QK, std::mem::size_of::<B>()), (qk, bytes), "{:?}", B::TYPE);
    }

    #[test]
    fn block_structs_match_ggml_layouts() {
        check_size::<BlockQ4_0>();
        check_size::<BlockQ4_1>();
        check_size::<BlockQ5_0>();
        check_size::<BlockQ5_1>();
        check_size::<BlockQ8_0>();
        check_size::<BlockQ4K>();
        check_size::<BlockQ5K>();
        check_size::<BlockQ6K>();
    }

    #[test]
    fn get_scale_min_k4_unpacks_all_eight() {
        // sc_j = j + 1 + 8 * (j >= 4 ? 7 : 0), m_j = 60 - j: values above 15 for j >= 4 exercise the top bits.
        let sc: [u8; 8] = [1, 2, 3, 4, 61, 62, 63, 40];
        let m: [u8; 8] = [60, 59, 58, 57, 56, 17, 0, 33];
        let mut packed = [0u8; K_SCALE_SIZE];
        for j in 0..8 {
            // The packing of ggml's quantize_row_q4_K_ref.
            if j < 4 {
                packed[j] = sc[j];
                packed[j + 4] = m[j];
            } else {
                packed[j + 4] = (sc[j] & 0x0F) | ((m[j] & 0x0F) << 4);
                packed[j - 4] |= (sc[j] >> 4) << 6;
                packed[j] |= (m[j] >> 4) << 6;
            }
        }
        for j in 0..8 {
            assert_eq!(get_scale_min_k4(j, &packed), (sc[j], m[j]), "sub-block {j}");
        }
    }
}
