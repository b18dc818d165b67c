//! One entry point per parser of user-supplied input, for the fuzzers: each takes arbitrary bytes
//! and goes as far as a real run would (a GGUF header is also turned into a configuration, a
//! tokenizer and a memory estimate; a task file is also rendered over documents). They return
//! nothing: an error is a correct answer to bad input; a panic, a hang or an allocation abort is
//! the bug a fuzzer looks for.
//!
//! `tests/integration/fuzz.rs` drives them with mutated seeds for a short run in the test command, and
//! `scripts/fuzz.sh` for long runs.

use serde_json::Value as Json;

use crate::formats::gguf::GgufFile;
use crate::formats::safetensors::SafetensorsFile;
use crate::formats::source::MemorySource;
use crate::models::config::ModelConfig;
use crate::models::fit::ModelNeeds;
use crate::tasks::table::{read_table, Format};
use crate::tokenizers::Tokenizer;

/// Text in the project's scripts that every tokenizer built from fuzzed input encodes.
const TEXT: &str = "What is 7 × 6? ཀ་ཁ་ག། ሰላም ለዓለም Салам, дүйнө! <s></s>  \u{0}\u{fffd}";

/// A fuzz target: a name and a function over bytes.
pub type Target = (&'static str, fn(&[u8]));

/// Every target, by name.
pub const TARGETS: &[Target] = &[
    ("gguf", gguf),
    ("safetensors", safetensors),
    ("tokenizer_json", tokenizer_json),
    ("tables", tables),
    ("task_yaml", task_yaml),
];

pub fn target(name: &str) -> Option<fn(&[u8])> {
    TARGETS.iter().find(|(n, _)| *n == name).map(|(_, f)| *f)
}

/// A GGUF header, then what the loader derives from it before reading any weight.
pub fn gguf(bytes: &[u8]) {
    let Ok(file) = GgufFile::parse("fuzz.gguf", bytes) else { return };
    if let Ok(config) = ModelConfig::from_gguf(&file) {
        for t in &file.tensors {
            let shape: Vec<usize> = t.dims.iter().rev().map(|&d| d as usize).collect();
            let _ = config.check_shape("fuzz.gguf", &t.name, &shape);
        }
    }
    for backend in [crate::backend::BackendKind::Cpu, crate::backend::BackendKind::Wgpu] {
        let _ = ModelNeeds::from_gguf(&file, backend, None);
    }
    if let Ok(tokenizer) = Tokenizer::from_gguf(&file) {
        exercise(&tokenizer);
    }
    let _ = crate::formats::model_info::ModelInfo::from_gguf(&file);
}

/// A safetensors file (its header, and each tensor read as f32).
pub fn safetensors(bytes: &[u8]) {
    let source = MemorySource::new("fuzz.safetensors", bytes.to_vec());
    let Ok(file) = pollster::block_on(SafetensorsFile::read(&source)) else { return };
    for name in file.tensors.keys() {
        let _ = pollster::block_on(file.read_f32(&source, name));
    }
}

/// A tokenizer.json (the first half of the input) with a tokenizer_config.json (the rest, after
/// a 0 byte, when there is one), then encoding and decoding.
pub fn tokenizer_json(bytes: &[u8]) {
    let (json, config) = split_at_zero(bytes);
    let (Ok(json), config) = (std::str::from_utf8(json), config.and_then(|c| std::str::from_utf8(c).ok())) else {
        return;
    };
    if let Ok(tokenizer) = Tokenizer::from_hf_json(json, config) {
        exercise(&tokenizer);
    }
}

/// A data file read as each table format, then as documents and as the `data check` report.
pub fn tables(bytes: &[u8]) {
    for (name, format) in [
        ("fuzz.csv", Format::Csv),
        ("fuzz.json", Format::Json),
        ("fuzz.jsonl", Format::Jsonl),
        ("fuzz.parquet", Format::Parquet),
    ] {
        let _ = read_table(name, bytes, format);
        let _ = crate::tasks::yaml::docs_and_columns_from_file(name, bytes);
        let _ = crate::tasks::check::check_sources(&[crate::tasks::check::Source { name, bytes }]);
    }
}

/// A task YAML (before a 0 byte) and a JSONL data file (after it), loaded and rendered, few-shot
/// included, as `lingualens eval` would.
pub fn task_yaml(bytes: &[u8]) {
    let (yaml, data) = split_at_zero(bytes);
    let Ok(yaml) = std::str::from_utf8(yaml) else { return };
    let resolve = |path: &str| -> crate::Result<Option<String>> { Ok((path == "task.yaml").then(|| yaml.to_string())) };
    let Ok(spec) = crate::tasks::yaml::load_task("task.yaml", &resolve, &Default::default()) else { return };
    let docs: Vec<Json> = match data.map(|d| crate::tasks::yaml::docs_from_file("data.jsonl", d)) {
        Some(Ok(docs)) => docs,
        _ => vec![serde_json::json!({"question": "2 + 2?", "choices": ["3", "4"], "answer": 1, "label": "B"})],
    };
    let options = crate::eval::RunOptions { limit: Some(4), shots: Some(2), seed: 1234, ..Default::default() };
    let _ = crate::eval::plan(&spec, docs.clone(), crate::tasks::yaml::FewshotPool::Split(docs), &options);
}

fn exercise(tokenizer: &Tokenizer) {
    let ids = tokenizer.encode(TEXT, true, true);
    let _ = tokenizer.decode(&ids);
    let _ = tokenizer.encode("", true, false);
    for id in ids.iter().take(8) {
        let _ = tokenizer.token_bytes(*id);
    }
}

fn split_at_zero(bytes: &[u8]) -> (&[u8], Option<&[u8]>) {
    match bytes.iter().position(|&b| b == 0) {
        Some(at) => (&bytes[..at], Some(&bytes[at + 1..])),
        None => (bytes, None),
    }
}
