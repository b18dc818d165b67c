//! safetensors: an 8-byte little-endian header length, a JSON header naming each tensor's dtype,
//! shape and byte range, then the raw data. Spec: https://github.com/huggingface/safetensors
//!
//! A model is one `model.safetensors`, or several shards and `model.safetensors.index.json`, whose
//! `weight_map` names the shard of each tensor (what `save_pretrained(max_shard_size=…)` writes).
//! [`SafetensorsShards`] is either, over any [`ByteSource`]s: files natively, one `Blob` per
//! dropped file in the browser. Only headers are read up front; tensors are read one at a time.

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;

use crate::error::{Error, Result};
use crate::formats::ggml::GgmlType;
use crate::formats::source::ByteSource;

/// Headers larger than this are refused: real ones are a few hundred KB.
const MAX_HEADER_BYTES: u64 = 100 << 20;

#[derive(Debug, Clone, Deserialize)]
pub struct TensorEntry {
    pub dtype: String,
    pub shape: Vec<usize>,
    pub data_offsets: [u64; 2],
}

impl TensorEntry {
    /// The float type of a dtype lingualens reads (F32, F16, BF16), or `None` for any other.
    pub fn float_type(&self) -> Option<GgmlType> {
        match self.dtype.as_str() {
            "F32" => Some(GgmlType::F32),
            "F16" => Some(GgmlType::F16),
            "BF16" => Some(GgmlType::BF16),
            _ => None,
        }
    }
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
            return Err(Error::new(format!(
                "{name}: header length {header_len} does not fit the file ({} bytes)",
                source.len()
            )));
        }
        let header = source.read_at(8, header_len as usize).await?;
        let json: BTreeMap<String, serde_json::Value> = serde_json::from_slice(&header)
            .map_err(|e| Error::new(format!("{name}: header is not valid JSON: {e}")))?;
        let data_start = 8 + header_len;
        let data_len = source.len() - data_start;
        let mut tensors = BTreeMap::new();
        for (key, value) in json {
            if key == "__metadata__" {
                continue;
            }
            let entry: TensorEntry =
                serde_json::from_value(value).map_err(|e| Error::new(format!("{name}: tensor {key}: {e}")))?;
            let [start, end] = entry.data_offsets;
            let elements = entry.shape.iter().try_fold(1u64, |n, &d| n.checked_mul(d as u64));
            let expected = element_size(&entry.dtype).map(|s| elements.and_then(|n| n.checked_mul(s as u64)));
            if start > end || end > data_len || expected.is_some_and(|n| n != Some(end - start)) {
                return Err(Error::new(format!(
                    "{name}: tensor {key}: byte range {start}..{end} does not match its shape {:?} {} or the file",
                    entry.shape, entry.dtype
                )));
            }
            tensors.insert(key, entry);
        }
        // As the safetensors library checks: the tensors tile the data section, in order of their
        // offsets, with no gap, overlap or alias, and nothing after the last one.
        let mut ranges: Vec<(&String, [u64; 2])> = tensors.iter().map(|(k, e)| (k, e.data_offsets)).collect();
        ranges.sort_by_key(|&(_, [start, end])| (start, end));
        let mut next = 0u64;
        for (key, [start, end]) in ranges {
            if start != next {
                return Err(Error::new(format!(
                    "{name}: tensor {key} starts at byte {start} of the data, expected {next}: tensors must not overlap or leave gaps"
                )));
            }
            next = end;
        }
        if next != data_len {
            return Err(Error::new(format!(
                "{name}: the tensors end at byte {next} of the data, but the file has {data_len}"
            )));
        }
        Ok(SafetensorsFile { name, tensors, data_start })
    }

    /// A float tensor (F32, F16 or BF16) as f32, with its shape.
    pub async fn read_f32<S: ByteSource>(&self, source: &S, tensor: &str) -> Result<(Vec<f32>, Vec<usize>)> {
        let entry =
            self.tensors.get(tensor).ok_or_else(|| Error::new(format!("{}: no tensor named {tensor}", self.name)))?;
        let [start, end] = entry.data_offsets;
        let bytes = source.read_at(self.data_start + start, (end - start) as usize).await?;
        let values = match entry.float_type() {
            Some(GgmlType::F32) => {
                bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect()
            }
            Some(GgmlType::F16) => {
                bytes.chunks_exact(2).map(|b| half::f16::from_le_bytes([b[0], b[1]]).to_f32()).collect()
            }
            Some(GgmlType::BF16) => {
                bytes.chunks_exact(2).map(|b| half::bf16::from_le_bytes([b[0], b[1]]).to_f32()).collect()
            }
            _ => {
                return Err(Error::new(format!(
                    "{}: tensor {tensor} has dtype {}; only F32, F16 and BF16 weights are read",
                    self.name, entry.dtype
                )))
            }
        };
        Ok((values, entry.shape.clone()))
    }
}

/// The file a one-file model's weights are in.
pub const SINGLE_FILE: &str = "model.safetensors";
/// The index of a sharded model.
pub const INDEX_FILE: &str = "model.safetensors.index.json";

/// `model.safetensors.index.json`: the shard file of each tensor. (Its `metadata` is not needed.)
#[derive(Debug, Clone)]
pub struct SafetensorsIndex {
    /// The index's name, for messages.
    pub name: String,
    /// Tensor name → shard file name.
    pub weight_map: BTreeMap<String, String>,
}

impl SafetensorsIndex {
    pub fn parse(name: &str, json: &str) -> Result<SafetensorsIndex> {
        let value: serde_json::Value =
            serde_json::from_str(json).map_err(|e| Error::new(format!("{name}: not valid JSON: {e}")))?;
        let map = value
            .get("weight_map")
            .ok_or_else(|| Error::new(format!("{name}: no \"weight_map\" field (tensor name → shard file)")))?
            .as_object()
            .ok_or_else(|| Error::new(format!("{name}: weight_map is not an object of tensor name → shard file")))?;
        if map.is_empty() {
            return Err(Error::new(format!("{name}: weight_map is empty")));
        }
        let mut weight_map = BTreeMap::new();
        for (tensor, file) in map {
            let file = file
                .as_str()
                .filter(|f| !f.is_empty())
                .ok_or_else(|| Error::new(format!("{name}: weight_map: {tensor} maps to {file}, not a file name")))?;
            weight_map.insert(tensor.clone(), file.to_string());
        }
        Ok(SafetensorsIndex { name: name.to_string(), weight_map })
    }

    /// The shard files, each once, sorted.
    pub fn files(&self) -> Vec<&str> {
        self.weight_map.values().map(String::as_str).collect::<BTreeSet<_>>().into_iter().collect()
    }
}

/// A model's safetensors weights: one file, or the shards an index names. Each shard's header is
/// read once; a tensor is read from its shard when asked for.
pub struct SafetensorsShards<S> {
    /// The file, or the index: what messages name.
    name: String,
    shards: Vec<(SafetensorsFile, S)>,
    /// Tensor name → its shard in `shards`.
    tensors: BTreeMap<String, usize>,
}

impl<S: ByteSource> SafetensorsShards<S> {
    /// One `model.safetensors`.
    pub async fn single(source: S) -> Result<Self> {
        let file = SafetensorsFile::read(&source).await?;
        let tensors = file.tensors.keys().map(|t| (t.clone(), 0)).collect();
        Ok(SafetensorsShards { name: file.name.clone(), shards: vec![(file, source)], tensors })
    }

    /// The shards `index_json` names, found by file name among `files`. Files the index does not
    /// name are ignored, so a caller can hand over everything the user dropped.
    pub async fn from_index(index_name: &str, index_json: &str, files: Vec<(String, S)>) -> Result<Self> {
        Self::with_index(&SafetensorsIndex::parse(index_name, index_json)?, files).await
    }

    pub async fn with_index(index: &SafetensorsIndex, files: Vec<(String, S)>) -> Result<Self> {
        let mut by_name = BTreeMap::new();
        for (name, source) in files {
            if by_name.insert(name.clone(), source).is_some() {
                return Err(Error::new(format!("{}: two files are named {name}", index.name)));
            }
        }
        let mut shards = Vec::new();
        let mut shard_of_file = BTreeMap::new();
        for file_name in index.files() {
            let Some(source) = by_name.remove(file_name) else {
                let held: Vec<&str> =
                    index.weight_map.iter().filter(|(_, f)| *f == file_name).map(|(t, _)| t.as_str()).collect();
                let more = if held.len() > 1 { format!(" and {} more", held.len() - 1) } else { String::new() };
                return Err(Error::new(format!(
                    "{}: shard {file_name} is missing (weight_map puts {}{more} in it)",
                    index.name, held[0]
                )));
            };
            shard_of_file.insert(file_name, shards.len());
            shards.push((SafetensorsFile::read(&source).await?, source));
        }
        // Checked now rather than on first use, so a bad folder fails before any weight is loaded.
        let mut tensors = BTreeMap::new();
        for (tensor, file_name) in &index.weight_map {
            let shard = shard_of_file[file_name.as_str()];
            let file = &shards[shard].0;
            if !file.tensors.contains_key(tensor) {
                return Err(Error::new(format!(
                    "{}: no tensor {tensor}, which {} maps to this file",
                    file.name, index.name
                )));
            }
            tensors.insert(tensor.clone(), shard);
        }
        Ok(SafetensorsShards { name: index.name.clone(), shards, tensors })
    }

    /// The file, or the index of a sharded model.
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn contains(&self, tensor: &str) -> bool {
        self.tensors.contains_key(tensor)
    }

    /// Every tensor with its dtype, shape and byte range, by name.
    pub fn entries(&self) -> impl Iterator<Item = (&str, &TensorEntry)> {
        self.tensors.iter().map(|(name, &shard)| (name.as_str(), &self.shards[shard].0.tensors[name]))
    }

    /// The files the weights are in (one, or the shards), in order.
    pub fn sources(&self) -> impl Iterator<Item = &S> {
        self.shards.iter().map(|(_, source)| source)
    }

    /// A float tensor (F32, F16 or BF16) as f32, with its shape.
    pub async fn read_f32(&self, tensor: &str) -> Result<(Vec<f32>, Vec<usize>)> {
        let &shard =
            self.tensors.get(tensor).ok_or_else(|| Error::new(format!("{}: no tensor named {tensor}", self.name)))?;
        let (file, source) = &self.shards[shard];
        file.read_f32(source, tensor).await
    }
}

impl<S> std::fmt::Debug for SafetensorsShards<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SafetensorsShards({}: {} tensors in {} files)", self.name, self.tensors.len(), self.shards.len())
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl SafetensorsShards<crate::formats::source::FileSource> {
    /// A Hugging Face folder's weights: `model.safetensors`, or else `model.safetensors.index.json`
    /// and its shards (transformers looks in the same order).
    pub async fn open_folder(dir: &std::path::Path) -> Result<Self> {
        use crate::formats::source::FileSource;
        let single = dir.join(SINGLE_FILE);
        if single.is_file() {
            return Self::single(FileSource::open(single)?).await;
        }
        let index_path = dir.join(INDEX_FILE);
        if !index_path.is_file() {
            return Err(Error::new(format!("{}: neither {SINGLE_FILE} nor {INDEX_FILE} is here", dir.display())));
        }
        let name = index_path.display().to_string();
        let text = crate::formats::source::read_text_capped(
            &index_path,
            crate::formats::source::limits::TEXT_FILE,
            "safetensors index",
        )?;
        let index = SafetensorsIndex::parse(&name, &text)?;
        let mut files = Vec::new();
        for file_name in index.files() {
            // A plain name only: the index must not reach outside its folder.
            let mut parts = std::path::Path::new(file_name).components();
            if !matches!((parts.next(), parts.next()), (Some(std::path::Component::Normal(_)), None)) {
                return Err(Error::new(format!(
                    "{name}: weight_map names {file_name}, which is not a file name in this folder"
                )));
            }
            let path = dir.join(file_name);
            // A missing shard is left out here and reported by `with_index`, with its tensors.
            if path.is_file() {
                files.push((file_name.to_string(), FileSource::open(path)?));
            }
        }
        Self::with_index(&index, files).await
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

    fn f32_file(tensors: &[(&str, &[f32])]) -> Vec<u8> {
        let (mut header, mut data) = (Vec::new(), Vec::new());
        for (name, values) in tensors {
            let start = data.len();
            values.iter().for_each(|v| data.extend(v.to_le_bytes()));
            header.push(format!(
                r#""{name}":{{"dtype":"F32","shape":[{}],"data_offsets":[{start},{}]}}"#,
                values.len(),
                data.len()
            ));
        }
        file(&format!("{{{}}}", header.join(",")), &data)
    }

    #[test]
    fn index_parser_reads_the_weight_map_and_names_bad_fields() {
        let text = r#"{"metadata":{"total_size":12},"weight_map":{"b":"m-2.safetensors","a":"m-1.safetensors","c":"m-2.safetensors"}}"#;
        let index = SafetensorsIndex::parse("idx.json", text).unwrap();
        assert_eq!(index.weight_map["a"], "m-1.safetensors");
        assert_eq!(index.files(), ["m-1.safetensors", "m-2.safetensors"]);
        let message = |text: &str| SafetensorsIndex::parse("idx.json", text).unwrap_err().message().to_string();
        assert!(message(r#"{"weight_map": {"a": "m"#).starts_with("idx.json: not valid JSON"));
        assert!(message(r#"{"metadata": {}}"#).contains("idx.json: no \"weight_map\""));
        assert!(message(r#"[1, 2]"#).contains("no \"weight_map\""));
        assert!(message(r#"{"weight_map": ["m-1.safetensors"]}"#).contains("weight_map is not an object"));
        assert!(message(r#"{"weight_map": {}}"#).contains("weight_map is empty"));
        assert!(message(r#"{"weight_map": {"a": 3}}"#).contains("weight_map: a maps to 3"));
        assert!(message(r#"{"weight_map": {"a": ""}}"#).contains("weight_map: a maps to"));
    }

    #[test]
    fn shards_are_read_by_tensor_and_checked_against_the_index() {
        let index = r#"{"weight_map":{"x":"m-1.safetensors","y":"m-2.safetensors","z":"m-2.safetensors"}}"#;
        let shard1 =
            || ("m-1.safetensors".to_string(), MemorySource::new("m-1.safetensors", f32_file(&[("x", &[1.0, 2.0])])));
        let shard2 = || {
            (
                "m-2.safetensors".to_string(),
                MemorySource::new("m-2.safetensors", f32_file(&[("y", &[3.0]), ("z", &[4.0, 5.0, 6.0])])),
            )
        };
        let other = || ("config.json".to_string(), MemorySource::new("config.json", b"{}".to_vec()));
        let open = |files| pollster::block_on(SafetensorsShards::from_index("idx.json", index, files));
        let shards = open(vec![other(), shard2(), shard1()]).unwrap();
        assert_eq!(shards.name(), "idx.json");
        assert_eq!(pollster::block_on(shards.read_f32("z")).unwrap(), (vec![4.0, 5.0, 6.0], vec![3]));
        assert_eq!(pollster::block_on(shards.read_f32("x")).unwrap(), (vec![1.0, 2.0], vec![2]));
        assert_eq!(shards.entries().map(|(name, _)| name).collect::<Vec<_>>(), ["x", "y", "z"]);
        assert_eq!(shards.sources().count(), 2);
        assert!(pollster::block_on(shards.read_f32("w"))
            .unwrap_err()
            .message()
            .contains("idx.json: no tensor named w"));

        let e = open(vec![shard1()]).unwrap_err();
        assert!(
            e.message().contains("idx.json: shard m-2.safetensors is missing (weight_map puts y and 1 more in it)"),
            "{e}"
        );
        let lacking = ("m-2.safetensors".to_string(), MemorySource::new("m-2.safetensors", f32_file(&[("y", &[3.0])])));
        let e = open(vec![shard1(), lacking]).unwrap_err();
        assert!(e.message().contains("m-2.safetensors: no tensor z, which idx.json maps to this file"), "{e}");
        let e = open(vec![shard1(), shard2(), shard1()]).unwrap_err();
        assert!(e.message().contains("two files are named m-1.safetensors"), "{e}");
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
