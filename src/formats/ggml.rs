//! ggml's tensor types: their ids in GGUF files and their block layout.
//!
//! A quantized tensor is a sequence of blocks; each block holds `block_size` weights in
//! `type_size` bytes. Sizes follow ggml's `type_traits` table (ggml.c); the block structs that
//! decode them live with the kernels.

use serde::{Deserialize, Serialize};

#[allow(non_camel_case_types)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GgmlType {
    F32,
    F16,
    Q4_0,
    Q4_1,
    Q5_0,
    Q5_1,
    Q8_0,
    Q8_1,
    Q2_K,
    Q3_K,
    Q4_K,
    Q5_K,
    Q6_K,
    Q8_K,
    IQ2_XXS,
    IQ2_XS,
    IQ3_XXS,
    IQ1_S,
    IQ4_NL,
    IQ3_S,
    IQ2_S,
    IQ4_XS,
    I8,
    I16,
    I32,
    I64,
    F64,
    IQ1_M,
    BF16,
    TQ1_0,
    TQ2_0,
    MXFP4,
}

/// QK_K: the super-block size of the K-quants.
pub const QK_K: usize = 256;

impl GgmlType {
    /// The type for a GGUF `ggml_type` id, or `None` for an id this build does not know.
    pub fn from_id(id: u32) -> Option<GgmlType> {
        use GgmlType::*;
        Some(match id {
            0 => F32,
            1 => F16,
            2 => Q4_0,
            3 => Q4_1,
            6 => Q5_0,
            7 => Q5_1,
            8 => Q8_0,
            9 => Q8_1,
            10 => Q2_K,
            11 => Q3_K,
            12 => Q4_K,
            13 => Q5_K,
            14 => Q6_K,
            15 => Q8_K,
            16 => IQ2_XXS,
            17 => IQ2_XS,
            18 => IQ3_XXS,
            19 => IQ1_S,
            20 => IQ4_NL,
            21 => IQ3_S,
            22 => IQ2_S,
            23 => IQ4_XS,
            24 => I8,
            25 => I16,
            26 => I32,
            27 => I64,
            28 => F64,
            29 => IQ1_M,
            30 => BF16,
            34 => TQ1_0,
            35 => TQ2_0,
            39 => MXFP4,
            _ => return None,
        })
    }

    /// (weights per block, bytes per block).
    pub fn block_layout(self) -> (usize, usize) {
        use GgmlType::*;
        match self {
            F32 | I32 => (1, 4),
            F16 | BF16 | I16 => (1, 2),
            I8 => (1, 1),
            F64 | I64 => (1, 8),
            Q4_0 => (32, 2 + 16),
            Q4_1 => (32, 2 * 2 + 16),
            Q5_0 => (32, 2 + 4 + 16),
            Q5_1 => (32, 2 * 2 + 4 + 16),
            Q8_0 => (32, 2 + 32),
            Q8_1 => (32, 2 * 2 + 32),
            Q2_K => (QK_K, QK_K / 16 + QK_K / 4 + 2 * 2),
            Q3_K => (QK_K, QK_K / 8 + QK_K / 4 + 12 + 2),
            Q4_K => (QK_K, 2 * 2 + 12 + QK_K / 2),
            Q5_K => (QK_K, 2 * 2 + 12 + QK_K / 8 + QK_K / 2),
            Q6_K => (QK_K, QK_K / 2 + QK_K / 4 + QK_K / 16 + 2),
            Q8_K => (QK_K, 4 + QK_K + QK_K / 16 * 2),
            IQ2_XXS => (QK_K, 2 + QK_K / 8 * 2),
            IQ2_XS => (QK_K, 2 + QK_K / 8 * 2 + QK_K / 32),
            IQ3_XXS => (QK_K, 2 + 3 * (QK_K / 8)),
            IQ1_S => (QK_K, 2 + QK_K / 8 + QK_K / 16),
            IQ4_NL => (32, 2 + 16),
            IQ3_S => (QK_K, 2 + QK_K / 4 + QK_K / 32 + QK_K / 8 + QK_K / 64),
            IQ2_S => (QK_K, 2 + QK_K / 4 + QK_K / 16),
            IQ4_XS => (QK_K, 2 + 2 + QK_K / 64 + QK_K / 2),
            IQ1_M => (QK_K, QK_K / 8 + QK_K / 16 + QK_K / 32),
            TQ1_0 => (QK_K, 2 + 4 * 13),
            TQ2_0 => (QK_K, 2 + 64),
            MXFP4 => (32, 1 + 16),
        }
    }

    /// Whether lingualens can load tensors of this type (the types of common small-model releases).
    pub fn is_supported(self) -> bool {
        use GgmlType::*;
        matches!(self, F32 | F16 | BF16 | Q8_0 | Q4_0 | Q4_1 | Q5_0 | Q5_1 | Q4_K | Q5_K | Q6_K)
    }

    /// Bytes taken by `elements` weights, or `None` if `elements` is not a whole number of blocks.
    pub fn bytes_for(self, elements: u64) -> Option<u64> {
        let (block, size) = self.block_layout();
        elements.is_multiple_of(block as u64).then(|| (elements / block as u64).checked_mul(size as u64)).flatten()
    }

    pub fn name(self) -> String {
        format!("{self:?}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_sizes_match_ggml() {
        // The byte sizes from ggml.c's type_traits table, written out rather than derived.
        let expected = [
            (GgmlType::Q4_0, 18),
            (GgmlType::Q4_1, 20),
            (GgmlType::Q5_0, 22),
            (GgmlType::Q5_1, 24),
            (GgmlType::Q8_0, 34),
            (GgmlType::Q2_K, 84),
            (GgmlType::Q3_K, 110),
            (GgmlType::Q4_K, 144),
            (GgmlType::Q5_K, 176),
            (GgmlType::Q6_K, 210),
            (GgmlType::Q8_K, 292),
        ];
        for (t, bytes) in expected {
            assert_eq!(t.block_layout().1, bytes, "{t:?}");
        }
    }

    #[test]
    fn ids_round_trip_and_unknown_ids_are_none() {
        assert_eq!(GgmlType::from_id(8), Some(GgmlType::Q8_0));
        assert_eq!(GgmlType::from_id(30), Some(GgmlType::BF16));
        assert_eq!(GgmlType::from_id(4), None); // Q4_2, removed from ggml
        assert_eq!(GgmlType::from_id(1000), None);
    }

    #[test]
    fn bytes_for_requires_whole_blocks() {
        assert_eq!(GgmlType::Q4_0.bytes_for(64), Some(36));
        assert_eq!(GgmlType::Q4_0.bytes_for(33), None);
        assert_eq!(GgmlType::F16.bytes_for(3), Some(6));
    }
}
