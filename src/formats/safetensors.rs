//! safetensors: an 8-byte little-endian header length, a JSON header naming each tensor's dtype,
//! shape and byte range, then the raw data. Spec: https://github.com/huggingface/safetensors
//!
//! Only the header is read here; tensors are read one at a time through the [`ByteSource`].

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::error::{Error, Result};
use crate::formats::source::ByteSource;

/// Headers larger than this are refused: real ones are a few hundred KB.
const MAX_HEADER_BYTES: u64 = 100 << 20;

#[derive(Debug, Clone, Deserialize)]
pub struct TensorEntry {
    pub dtype: String,
    pub shape: Vec<usize>,
    pub data_offsets: [u64; 2],
}

#[derive(Debug, Clone)]
pub struct SafetensorsFile {
    pub name: String,
    pub tensors: BTreeMap<String, TensorEntry>,
    data_start: u64,
}

impl SafetensorsFile {
    pub async fn read<S: ByteSource>(source: &S) -> Result<SafetensorsFile> {
        let name = source.name().to_string();
        if source.len() < 8 {
            return Err(Error::new(format!("{name}: too short to be a safetensors file")));
        }
        let header_len = u64::from_le_bytes(source.read_at(0, 8).await?.try_into().unwrap_or([0; 8]));
        if header_len > MAX_HEADER_BYTES || 8 + header_len > source.len() {
            return Err(Error::new(format!("{name}: header length {header_len} does not fit the file ({} bytes)", source.len())));
        }
        let header = source.read_at(8, header_len as usize).await?;
        let json: BTreeMap<String, serde_json::Value> =
            serde_json::from_slice(&header).map_err(|e| Error::new(format!("{name}: header is not valid JSON: {e}")))?;
        let data_start = 8 + header_len;
        let data_len = source.len() - data_start;
        let mut tensors = BTreeMap::new();
        for (key, value) in json {
            if key == "__metadata__" {
                continue;
            }
            let entry: TensorEntry = serde_json::from_value(value)
                .map_err(|e| Error::new(format!("{name}: tensor {key}: {e}")))?;
            let [start, end] = entry.data_offsets;
            let elements: usize = entry.shape.iter().product();
            let expected = element_size(&entry.dtype).map(|s| (s * elements) as u64);
            if start > end || end > data_len || expected.is_some_and(|n| n != end - start) {
                return Err(Error::new(format!(
                    "{name}: tensor {key}: byte range {start}..{end} does not match its shape {:?} {} or the file",
                    entry.shape, entry.dtype
                )));
            }
            tensors.insert(key, entry);
        }
        Ok(SafetensorsFile { name, tensors, data_start })
    }

    /// A float tensor (F32, F16 or BF16) as f32, with its shape.
    pub async fn read_f32<S: ByteSource>(&self, source: &S, tensor: &str) -> Result<(Vec<f32>, Vec<usize>)> {
        let entry = self
            .tensors
            .get(tensor)
            .ok_or_else(|| Error::new(format!("{}: no tensor named {tensor}", self.name)))?;
        let [start, end] = entry.data_offsets;
        let bytes = source.read_at(self.data_start + start, (end - start) as usize).await?;
        let values = match entry.dtype.as_str() {
            "F32" => bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect(),
            "F16" => bytes.chunks_exact(2).map(|b| half::f16::from_le_bytes([b[0], b[1]]).to_f32()).collect(),
            "BF16" => bytes.chunks_exact(2).map(|b| half::bf16::from_le_bytes([b[0], b[1]]).to_f32()).collect(),
            other => return Err(Error::new(format!("{}: tensor {tensor} has dtype {other}; only F32, F16 and BF16 weights are read", self.name))),
        };
        Ok((values, entry.shape.clone()))
    }
}

fn element_size(dtype: &str) -> Option<usize> {
    Some(match dtype {
        "F64" | "I64" | "U64" => 8,
        "F32" | "I32" | "U32" => 4,
        "F16" | "BF16" | "I16" | "U16" => 2,
        "I8" | "U8" | "BOOL" | "F8_E4M3" | "F8_E5M2" => 1,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::source::MemorySource;

    fn file(header: &str, data: &[u8]) -> Vec<u8> {
        let mut out = (header.len() as u64).to_le_bytes().to_vec();
        out.extend_from_slice(header.as_bytes());
        out.extend_from_slice(data);
        out
    }

    #[test]
    fn reads_f32_and_f16_tensors() {
        let mut data = Vec::new();
        for v in [1.5f32, -2.0] {
            data.extend(v.to_le_bytes());
        }
        data.extend(half::f16::from_f32(0.25).to_le_bytes());
        let header = r#"{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F16","shape":[1,1],"data_offsets":[8,10]},"__metadata__":{"format":"pt"}}"#;
        let source = MemorySource::new("m.safetensors", file(header, &data));
        let st = pollster::block_on(SafetensorsFile::read(&source)).unwrap();
        assert_eq!(pollster::block_on(st.read_f32(&source, "a")).unwrap(), (vec![1.5, -2.0], vec![2]));
        assert_eq!(pollster::block_on(st.read_f32(&source, "b")).unwrap(), (vec![0.25], vec![1, 1]));
        let missing = pollster::block_on(st.read_f32(&source, "c")).unwrap_err();
        assert!(missing.message().contains("no tensor named c"));
    }

    #[test]
    fn rejects_ranges_that_do_not_match() {
        let header = r#"{"a":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}}"#;
        let source = MemorySource::new("m.safetensors", file(header, &[0; 8]));
        let e = pollster::block_on(SafetensorsFile::read(&source)).unwrap_err();
        assert!(e.message().contains("tensor a"), "{e}");
        let source = MemorySource::new("m.safetensors", (1u64 << 40).to_le_bytes().to_vec());
        assert!(pollster::block_on(SafetensorsFile::read(&source)).unwrap_err().message().contains("header length"));
    }
}
