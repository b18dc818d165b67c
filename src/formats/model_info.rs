//! A summary of a model file for people: what `lingualens model-info` prints and the page shows
//! before a model is loaded.

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use crate::error::{Error, Result};
use crate::formats::gguf::{GgufFile, Value};
use crate::formats::safetensors::SafetensorsShards;
use crate::formats::source::ByteSource;

#[derive(Debug, Clone, Serialize)]
pub struct ModelInfo {
    pub file: String,
    pub format: String,
    pub architecture: String,
    pub name: Option<String>,
    /// `<arch>.*` metadata (block_count, embedding_length, rope.freq_base, …) without the prefix.
    pub hyperparameters: BTreeMap<String, serde_json::Value>,
    pub tokenizer: Option<String>,
    pub vocab_size: Option<usize>,
    /// Tensor count and bytes per ggml type (safetensors dtype for a HF folder).
    pub tensor_types: BTreeMap<String, TypeCount>,
    pub parameters: u64,
    pub tensor_bytes: u64,
    /// The file, or all shards together.
    pub file_bytes: u64,
    /// Tensors whose type lingualens cannot load, by name.
    pub unsupported_tensors: Vec<String>,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct TypeCount {
    pub tensors: usize,
    pub parameters: u64,
    pub bytes: u64,
}

impl ModelInfo {
    pub fn from_gguf(file: &GgufFile) -> ModelInfo {
        let architecture = file.get_str("general.architecture").ok().flatten().unwrap_or("unknown").to_string();
        let prefix = format!("{architecture}.");
        let hyperparameters = file
            .metadata
            .iter()
            .filter_map(|(k, v)| k.strip_prefix(&prefix).map(|short| (short.to_string(), to_json(v))))
            .collect();
        let mut tensor_types: BTreeMap<String, TypeCount> = BTreeMap::new();
        let mut unsupported_tensors = Vec::new();
        for t in &file.tensors {
            let entry = tensor_types.entry(t.ggml_type.name()).or_default();
            entry.tensors += 1;
            entry.parameters += t.n_elements();
            entry.bytes += t.n_bytes;
            if !t.ggml_type.is_supported() {
                unsupported_tensors.push(format!("{} ({:?})", t.name, t.ggml_type));
            }
        }
        ModelInfo {
            file: file.name.clone(),
            format: format!("GGUF v{}", file.version),
            name: file.get_str("general.name").ok().flatten().map(str::to_string),
            hyperparameters,
            tokenizer: file.get_str("tokenizer.ggml.model").ok().flatten().map(str::to_string),
            vocab_size: file.get("tokenizer.ggml.tokens").and_then(Value::as_array).map(<[Value]>::len),
            parameters: file.tensors.iter().map(|t| t.n_elements()).sum(),
            tensor_bytes: file.tensors.iter().map(|t| t.n_bytes).sum(),
            file_bytes: file.file_len,
            architecture,
            tensor_types,
            unsupported_tensors,
        }
    }
}

impl ModelInfo {
    /// A Hugging Face folder: `config.json` (architecture = `model_type`, name = the class in
    /// `architectures`, every other field a hyperparameter), `tokenizer.json` if there is one, and
    /// the safetensors headers (one file or shards). `folder` names it.
    pub fn from_hf<S: ByteSource>(
        folder: &str,
        config_json: &str,
        tokenizer_json: Option<&str>,
        weights: &SafetensorsShards<S>,
    ) -> Result<ModelInfo> {
        let config: serde_json::Value = serde_json::from_str(config_json)
            .map_err(|e| Error::new(format!("{folder}/config.json: not valid JSON: {e}")))?;
        let config =
            config.as_object().ok_or_else(|| Error::new(format!("{folder}/config.json: not a JSON object")))?;
        let (tokenizer, vocab_size) = match tokenizer_json {
            Some(text) => tokenizer_summary(text).map_err(|e| Error::new(format!("{folder}/tokenizer.json: {e}")))?,
            None => (None, None),
        };
        let mut tensor_types: BTreeMap<String, TypeCount> = BTreeMap::new();
        let mut unsupported_tensors = Vec::new();
        for (name, entry) in weights.entries() {
            let count = tensor_types.entry(entry.dtype.clone()).or_default();
            count.tensors += 1;
            count.parameters += entry.shape.iter().product::<usize>() as u64;
            count.bytes += entry.data_offsets[1] - entry.data_offsets[0];
            if entry.float_type().is_none() {
                unsupported_tensors.push(format!("{name} ({})", entry.dtype));
            }
        }
        let shards = weights.sources().count();
        Ok(ModelInfo {
            file: folder.to_string(),
            format: if shards == 1 { "safetensors".to_string() } else { format!("safetensors, {shards} shards") },
            architecture: config.get("model_type").and_then(|v| v.as_str()).unwrap_or("unknown").to_string(),
            name: config.get("architectures").and_then(|v| v.get(0)).and_then(|v| v.as_str()).map(str::to_string),
            hyperparameters: config
                .iter()
                .filter(|(k, _)| !matches!(k.as_str(), "model_type" | "architectures"))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            tokenizer,
            vocab_size,
            parameters: tensor_types.values().map(|c| c.parameters).sum(),
            tensor_bytes: tensor_types.values().map(|c| c.bytes).sum(),
            file_bytes: weights.sources().map(|s| s.len()).sum(),
            tensor_types,
            unsupported_tensors,
        })
    }
}

/// The tokenizer model type (`bpe`, `unigram`, `wordpiece`) and token count of a tokenizer.json:
/// the model's vocabulary and the added tokens, each id once.
fn tokenizer_summary(text: &str) -> std::result::Result<(Option<String>, Option<usize>), String> {
    let json: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?;
    let model = &json["model"];
    let kind = model["type"].as_str().map(str::to_lowercase);
    let mut ids = std::collections::BTreeSet::new();
    match &model["vocab"] {
        serde_json::Value::Object(vocab) => ids.extend(vocab.values().filter_map(|v| v.as_u64())),
        serde_json::Value::Array(pieces) => ids.extend(0..pieces.len() as u64),
        _ => {}
    }
    if let Some(added) = json["added_tokens"].as_array() {
        ids.extend(added.iter().filter_map(|t| t["id"].as_u64()));
    }
    Ok((kind, (!ids.is_empty()).then_some(ids.len())))
}

/// Metadata as JSON, with long arrays (token lists) summarised.
fn to_json(value: &Value) -> serde_json::Value {
    use serde_json::json;
    match value {
        Value::U8(v) => json!(v),
        Value::I8(v) => json!(v),
        Value::U16(v) => json!(v),
        Value::I16(v) => json!(v),
        Value::U32(v) => json!(v),
        Value::I32(v) => json!(v),
        Value::U64(v) => json!(v),
        Value::I64(v) => json!(v),
        Value::F32(v) => json!(v),
        Value::F64(v) => json!(v),
        Value::Bool(v) => json!(v),
        Value::String(v) => json!(v),
        Value::Array(items) if items.len() > 64 => json!(format!("[{} items]", items.len())),
        Value::Array(items) => serde_json::Value::Array(items.iter().map(to_json).collect()),
    }
}

impl fmt::Display for ModelInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}  ({}, {} bytes)", self.file, self.format, self.file_bytes)?;
        writeln!(
            f,
            "architecture  {}{}",
            self.architecture,
            self.name.as_deref().map(|n| format!("  ({n})")).unwrap_or_default()
        )?;
        writeln!(f, "parameters    {} ({:.1} M)", self.parameters, self.parameters as f64 / 1e6)?;
        writeln!(f, "tensor bytes  {} ({:.1} MiB)", self.tensor_bytes, self.tensor_bytes as f64 / (1 << 20) as f64)?;
        if let Some(tokenizer) = &self.tokenizer {
            writeln!(f, "tokenizer     {tokenizer}, {} tokens", self.vocab_size.unwrap_or(0))?;
        }
        writeln!(f, "hyperparameters")?;
        for (key, value) in &self.hyperparameters {
            writeln!(f, "  {key:<34} {value}")?;
        }
        writeln!(f, "tensor types")?;
        for (name, count) in &self.tensor_types {
            writeln!(
                f,
                "  {name:<6} {:>4} tensors  {:>12} parameters  {:>12} bytes",
                count.tensors, count.parameters, count.bytes
            )?;
        }
        for name in &self.unsupported_tensors {
            writeln!(f, "  unsupported: {name}")?;
        }
        Ok(())
    }
}
