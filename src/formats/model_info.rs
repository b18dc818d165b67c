//! A summary of a model file for people: what `lingualens model-info` prints and the page shows
//! before a model is loaded.

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use crate::formats::gguf::{GgufFile, Value};

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
    /// Tensor count and bytes per ggml type.
    pub tensor_types: BTreeMap<String, TypeCount>,
    pub parameters: u64,
    pub tensor_bytes: u64,
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
        writeln!(f, "architecture  {}{}", self.architecture, self.name.as_deref().map(|n| format!("  ({n})")).unwrap_or_default())?;
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
            writeln!(f, "  {name:<6} {:>4} tensors  {:>12} parameters  {:>12} bytes", count.tensors, count.parameters, count.bytes)?;
        }
        for name in &self.unsupported_tensors {
            writeln!(f, "  unsupported: {name}")?;
        }
        Ok(())
    }
}
