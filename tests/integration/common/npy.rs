//! The model fixtures of `tools/fixtures/models.py`: numpy logits files and the token sequences.

use std::path::{Path, PathBuf};

use serde_json::Value;

/// `$LINGUALENS_FIXTURES/models`, or `None` after [`super::skip`] when it is missing.
pub fn model_fixtures() -> Option<PathBuf> {
    super::fixture("model_fixtures", "models/index.json", "tools/fixtures/models.py")
        .map(|f| f.parent().unwrap().to_path_buf())
}

/// A little-endian float32 .npy file (numpy format 1.0/2.0), as numpy.save writes it.
pub fn read_npy(path: &Path) -> (Vec<f32>, Vec<usize>) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(&bytes[..6], b"\x93NUMPY", "{}", path.display());
    let (header_len, start) = if bytes[6] == 1 {
        (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10)
    } else {
        (u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize, 12)
    };
    let header = std::str::from_utf8(&bytes[start..start + header_len]).unwrap();
    assert!(header.contains("'descr': '<f4'") && header.contains("'fortran_order': False"), "{header}");
    let shape_text = header.split("'shape': (").nth(1).unwrap().split(')').next().unwrap();
    let shape = shape_text.split(',').filter_map(|s| s.trim().parse().ok()).collect();
    let values =
        bytes[start + header_len..].chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
    (values, shape)
}

/// The named token sequences every reference was computed on (`index.json`).
pub fn sequences(dir: &Path) -> Vec<(String, Vec<u32>)> {
    let index: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("index.json")).unwrap()).unwrap();
    index["sequences"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(name, ids)| (name.clone(), ids.as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as u32).collect()))
        .collect()
}
