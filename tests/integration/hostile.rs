//! The hostile battery: several hundred bad inputs, generated here, through every command that
//! reads what a user gives (`model-info`, `tokenize`, `score`, `data check`, `eval`): truncated and
//! bit-flipped GGUFs, GGUFs with crafted metadata and tensor infos, broken Hugging Face folders,
//! malformed CSV/JSON/JSONL/Parquet, hostile task YAML and Jinja, and odd paths. Each run must end
//! within 20 s with a clean outcome: exit status 0, or 1 with a message and no "panicked". A
//! panic (101), a signal (an allocation abort), or a timeout fails the test; all failures are
//! listed together with the command that caused them.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use lingualens::formats::ggml::GgmlType;
use lingualens::formats::gguf::{GgufFile, Value};

use crate::common;

const TIMEOUT: Duration = Duration::from_secs(20);

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn scratch() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("hostile-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

struct Case {
    name: String,
    args: Vec<OsString>,
    /// The input is corrupt (as llama.cpp's reader judges a GGUF): running to the end is a failure.
    must_refuse: bool,
}

fn case(name: impl Into<String>, args: &[&dyn AsRef<std::ffi::OsStr>]) -> Case {
    Case { name: name.into(), args: args.iter().map(|a| a.as_ref().to_os_string()).collect(), must_refuse: false }
}

enum Outcome {
    Success,
    CleanError,
    Failure(String),
}

fn run(case: &Case) -> Outcome {
    let mut child = Command::new(env!("CARGO_BIN_EXE_lingualens"))
        .args(&case.args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the lingualens binary starts");
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut text);
        text
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let stderr = reader.join().unwrap_or_default();
    let tail: String =
        stderr.lines().rev().take(3).collect::<Vec<_>>().into_iter().rev().collect::<Vec<_>>().join(" | ");
    let what = format!(
        "{}: lingualens {}",
        case.name,
        case.args.iter().map(|a| a.to_string_lossy()).collect::<Vec<_>>().join(" ")
    );
    match status {
        None => Outcome::Failure(format!("{what}: still running after {TIMEOUT:?}")),
        Some(s) if stderr.contains("panicked") => {
            Outcome::Failure(format!("{what}: panicked ({:?}): {tail}", s.code()))
        }
        Some(s) if s.code() == Some(0) && case.must_refuse => {
            Outcome::Failure(format!("{what}: a corrupt file was accepted"))
        }
        Some(s) if s.code() == Some(0) => Outcome::Success,
        Some(s) if s.code() == Some(1) && !stderr.trim().is_empty() => Outcome::CleanError,
        Some(s) => Outcome::Failure(format!("{what}: ended with {s} and {tail:?}")),
    }
}

// ---- GGUF files, written here from parsed parts so that any field can be made hostile ----

fn type_id(t: GgmlType) -> u32 {
    (0..64).find(|&id| GgmlType::from_id(id) == Some(t)).unwrap()
}

fn value_type(v: &Value) -> u32 {
    match v {
        Value::U8(_) => 0,
        Value::I8(_) => 1,
        Value::U16(_) => 2,
        Value::I16(_) => 3,
        Value::U32(_) => 4,
        Value::I32(_) => 5,
        Value::F32(_) => 6,
        Value::Bool(_) => 7,
        Value::String(_) => 8,
        Value::Array(_) => 9,
        Value::U64(_) => 10,
        Value::I64(_) => 11,
        Value::F64(_) => 12,
    }
}

fn write_value(out: &mut Vec<u8>, v: &Value) {
    match v {
        Value::U8(x) => out.push(*x),
        Value::I8(x) => out.push(*x as u8),
        Value::U16(x) => out.extend(x.to_le_bytes()),
        Value::I16(x) => out.extend(x.to_le_bytes()),
        Value::U32(x) => out.extend(x.to_le_bytes()),
        Value::I32(x) => out.extend(x.to_le_bytes()),
        Value::F32(x) => out.extend(x.to_le_bytes()),
        Value::Bool(x) => out.push(*x as u8),
        Value::String(s) => {
            out.extend((s.len() as u64).to_le_bytes());
            out.extend(s.as_bytes());
        }
        Value::Array(items) => {
            out.extend(items.first().map_or(0, value_type).to_le_bytes());
            out.extend((items.len() as u64).to_le_bytes());
            for item in items {
                write_value(out, item);
            }
        }
        Value::U64(x) => out.extend(x.to_le_bytes()),
        Value::I64(x) => out.extend(x.to_le_bytes()),
        Value::F64(x) => out.extend(x.to_le_bytes()),
    }
}

#[derive(Clone)]
struct Tensor {
    name: String,
    dims: Vec<u64>,
    type_id: u32,
    offset: u64,
}

#[derive(Clone)]
struct Gguf {
    metadata: Vec<(String, Value)>,
    tensors: Vec<Tensor>,
    data: Vec<u8>,
    /// Counts written in the header (the real ones unless a case lies).
    tensor_count: Option<u64>,
    kv_count: Option<u64>,
}

impl Gguf {
    fn parse(bytes: &[u8]) -> Gguf {
        let file = GgufFile::parse("demo.gguf", bytes).unwrap();
        Gguf {
            metadata: file.metadata.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
            tensors: file
                .tensors
                .iter()
                .map(|t| Tensor {
                    name: t.name.clone(),
                    dims: t.dims.clone(),
                    type_id: type_id(t.ggml_type),
                    offset: t.offset,
                })
                .collect(),
            data: bytes[file.data_offset as usize..].to_vec(),
            tensor_count: None,
            kv_count: None,
        }
    }

    fn bytes(&self) -> Vec<u8> {
        let mut out = b"GGUF".to_vec();
        out.extend(3u32.to_le_bytes());
        out.extend(self.tensor_count.unwrap_or(self.tensors.len() as u64).to_le_bytes());
        out.extend(self.kv_count.unwrap_or(self.metadata.len() as u64).to_le_bytes());
        for (k, v) in &self.metadata {
            write_value(&mut out, &Value::String(k.clone()));
            out.extend(value_type(v).to_le_bytes());
            write_value(&mut out, v);
        }
        for t in &self.tensors {
            write_value(&mut out, &Value::String(t.name.clone()));
            out.extend((t.dims.len() as u32).to_le_bytes());
            for d in &t.dims {
                out.extend(d.to_le_bytes());
            }
            out.extend(t.type_id.to_le_bytes());
            out.extend(t.offset.to_le_bytes());
        }
        let alignment = match self.metadata.iter().find(|(k, _)| k == "general.alignment").map(|(_, v)| v) {
            Some(v) => v.to_u64().filter(|&a| a > 0 && a < 1 << 20).unwrap_or(32) as usize,
            None => 32,
        };
        while !out.len().is_multiple_of(alignment) {
            out.push(0);
        }
        out.extend(&self.data);
        out
    }

    fn set(mut self, key: &str, value: Value) -> Gguf {
        match self.metadata.iter_mut().find(|(k, _)| k == key) {
            Some(entry) => entry.1 = value,
            None => self.metadata.push((key.to_string(), value)),
        }
        self
    }

    fn remove(mut self, key: &str) -> Gguf {
        self.metadata.retain(|(k, _)| k != key);
        self
    }

    fn tensor(mut self, name: &str, edit: impl Fn(&mut Tensor)) -> Gguf {
        for t in self.tensors.iter_mut().filter(|t| t.name == name) {
            edit(t);
        }
        self
    }

    fn arch(&self) -> String {
        self.metadata
            .iter()
            .find(|(k, _)| k == "general.architecture")
            .and_then(|(_, v)| v.as_str().map(String::from))
            .unwrap()
    }
}

fn gguf_cases(dir: &Path) -> Vec<Case> {
    let demo_path = repo().join("models/demo/lingualens-demo-Q8_0.gguf");
    let demo_bytes = std::fs::read(&demo_path).unwrap();
    let demo = Gguf::parse(&demo_bytes);
    // The writer is faithful: the demo model written back (its keys in another order) reads as the
    // same metadata, tensor infos and data, so every case below differs from it only where it says.
    let (original, rewritten) =
        (GgufFile::parse("demo.gguf", &demo_bytes).unwrap(), GgufFile::parse("rewritten.gguf", &demo.bytes()).unwrap());
    assert_eq!(
        format!("{:?}", original.metadata),
        format!("{:?}", rewritten.metadata),
        "the test's GGUF writer changes the metadata"
    );
    assert_eq!(
        format!("{:?}", original.tensors),
        format!("{:?}", rewritten.tensors),
        "the test's GGUF writer changes the tensor infos"
    );
    assert!(
        demo.bytes().ends_with(&demo_bytes[original.data_offset as usize..]),
        "the test's GGUF writer changes the tensor data"
    );
    let a = demo.arch();
    let key = |k: &str| format!("{a}.{k}");
    let first = demo.tensors[0].name.clone();
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let mut variant = |name: &str, g: Gguf| files.push((name.to_string(), g.bytes()));

    for (field, values) in [
        ("attention.head_count", vec![Value::U32(0), Value::U32(3), Value::U64(1 << 40)]),
        ("attention.head_count_kv", vec![Value::U32(0), Value::U32(3), Value::U32(7)]),
        ("block_count", vec![Value::U32(0), Value::U64(1 << 40), Value::U32(1_000_000), Value::I32(-1)]),
        ("embedding_length", vec![Value::U32(0), Value::U32(u32::MAX), Value::U64(u64::MAX)]),
        ("feed_forward_length", vec![Value::U32(0), Value::U64(1 << 50)]),
        ("attention.key_length", vec![Value::U32(0), Value::U32(3), Value::U32(1 << 20)]),
        ("vocab_size", vec![Value::U64(u64::MAX), Value::U32(0), Value::U32(7)]),
        ("context_length", vec![Value::U64(1 << 50), Value::U32(0)]),
        ("rope.freq_base", vec![Value::F32(f32::NAN), Value::F32(-1.0), Value::F32(0.0), Value::F32(f32::INFINITY)]),
        ("attention.layer_norm_rms_epsilon", vec![Value::F32(f32::NAN), Value::F32(-1.0)]),
        ("attention.sliding_window_pattern", vec![Value::Array(vec![Value::Bool(true); 3])]),
    ] {
        for (i, v) in values.into_iter().enumerate() {
            variant(&format!("{field}-{i}"), demo.clone().set(&key(field), v));
        }
        variant(&format!("{field}-string"), demo.clone().set(&key(field), Value::String("many".into())));
    }
    for k in ["block_count", "embedding_length", "attention.head_count", "feed_forward_length"] {
        variant(&format!("missing-{k}"), demo.clone().remove(&key(k)));
    }
    for (name, g) in [
        ("arch-gpt2", demo.clone().set("general.architecture", Value::String("gpt2".into()))),
        ("arch-number", demo.clone().set("general.architecture", Value::U32(7))),
        ("arch-missing", demo.clone().remove("general.architecture")),
        ("alignment-0", demo.clone().set("general.alignment", Value::U32(0))),
        ("alignment-3", demo.clone().set("general.alignment", Value::U32(3))),
        ("alignment-huge", demo.clone().set("general.alignment", Value::U64(1 << 63))),
        ("bos-huge", demo.clone().set("tokenizer.ggml.bos_token_id", Value::U32(1_000_000_000))),
        ("eos-huge", demo.clone().set("tokenizer.ggml.eos_token_id", Value::U32(u32::MAX))),
        ("tokens-empty", demo.clone().set("tokenizer.ggml.tokens", Value::Array(vec![]))),
        ("tokens-numbers", demo.clone().set("tokenizer.ggml.tokens", Value::Array(vec![Value::U32(1); 64]))),
        (
            "scores-strings",
            demo.clone().set("tokenizer.ggml.scores", Value::Array(vec![Value::String("x".into()); 64])),
        ),
        ("token-types-short", demo.clone().set("tokenizer.ggml.token_type", Value::Array(vec![Value::I32(1); 3]))),
        (
            "merges-garbage",
            demo.clone().set("tokenizer.ggml.merges", Value::Array(vec![Value::String("no-space-here".into()); 10])),
        ),
        ("tokenizer-model-unknown", demo.clone().set("tokenizer.ggml.model", Value::String("nonsense".into()))),
        ("tokenizer-model-bert", demo.clone().set("tokenizer.ggml.model", Value::String("bert".into()))),
        ("tokenizer-pre-unknown", demo.clone().set("tokenizer.ggml.pre", Value::String("nonsense".into()))),
        ("nested-arrays", demo.clone().set("x.nested", (0..12).fold(Value::U8(1), |v, _| Value::Array(vec![v])))),
        ("huge-string-value", demo.clone().set("x.text", Value::String("ཀ".repeat(200_000)))),
    ] {
        variant(name, g);
    }
    // Duplicated key and tensor name: llama.cpp's reader refuses both.
    let mut dup = demo.clone();
    dup.metadata.push(dup.metadata[0].clone());
    variant("duplicate-key", dup);
    let mut dup = demo.clone();
    let mut t = dup.tensors[1].clone();
    t.name = first.clone();
    dup.tensors[1] = t;
    variant("duplicate-tensor-name", dup);
    // Tensor infos: overlapping, aliased, misaligned, past the end, wrong shape or type.
    let mut all_zero = demo.clone();
    all_zero.tensors.iter_mut().for_each(|t| t.offset = 0);
    variant("offsets-all-zero", all_zero);
    let names: Vec<String> = demo.tensors.iter().map(|t| t.name.clone()).collect();
    for name in names.iter().take(6) {
        variant(&format!("{name}-type-f16"), demo.clone().tensor(name, |t| t.type_id = 1));
        variant(&format!("{name}-type-99"), demo.clone().tensor(name, |t| t.type_id = 99));
        variant(&format!("{name}-dims-swapped"), demo.clone().tensor(name, |t| t.dims.reverse()));
        variant(&format!("{name}-dim-plus-32"), demo.clone().tensor(name, |t| t.dims[0] += 32));
        variant(&format!("{name}-dims-5"), demo.clone().tensor(name, |t| t.dims = vec![32, 1, 1, 1, 1]));
        variant(&format!("{name}-dims-huge"), demo.clone().tensor(name, |t| t.dims = vec![1 << 32, 1 << 32]));
        variant(&format!("{name}-offset-misaligned"), demo.clone().tensor(name, |t| t.offset += 1));
        variant(&format!("{name}-offset-past-end"), demo.clone().tensor(name, |t| t.offset = 1 << 40));
    }
    variant("token-embd-rows-plus-one", demo.clone().tensor("token_embd.weight", |t| t.dims[1] += 1));
    for (name, tensors, kvs) in [
        ("tensor-count-lies", Some(demo.tensors.len() as u64 + 5), None),
        ("kv-count-lies", None, Some(demo.metadata.len() as u64 + 5)),
        ("tensor-count-huge", Some(u64::MAX), None),
        ("kv-count-huge", None, Some(1 << 40)),
    ] {
        let mut g = demo.clone();
        (g.tensor_count, g.kv_count) = (tensors, kvs);
        variant(name, g);
    }
    // Truncations and bit flips of the real file.
    let header_end = demo_bytes.len() - demo.data.len();
    for cut in [
        0,
        3,
        4,
        7,
        8,
        16,
        23,
        24,
        40,
        64,
        header_end / 4,
        header_end / 2,
        header_end - 1,
        header_end,
        header_end + 100,
        demo_bytes.len() - 1,
    ] {
        files.push((format!("truncated-{cut}"), demo_bytes[..cut.min(demo_bytes.len())].to_vec()));
    }
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    for i in 0..40 {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let mut bytes = demo_bytes.clone();
        let at = (rng as usize) % header_end;
        bytes[at] ^= 1 << ((rng >> 60) % 8);
        files.push((format!("bitflip-{i}-at-{at}"), bytes));
    }

    // Files whose tensor data cannot be what their header says: loading one must fail.
    let two_d: Vec<&String> =
        demo.tensors.iter().filter(|t| t.dims.len() == 2 && t.dims[0] != t.dims[1]).map(|t| &t.name).collect();
    let corrupt = |name: &str| {
        name.starts_with("duplicate-")
            || name.starts_with("truncated-")
            || name.contains("-count-")
            || name == "offsets-all-zero"
            || name == "token-embd-rows-plus-one"
            || [
                "-type-f16",
                "-type-99",
                "-dim-plus-32",
                "-dims-5",
                "-dims-huge",
                "-offset-misaligned",
                "-offset-past-end",
            ]
            .iter()
            .any(|s| name.ends_with(s))
            || two_d.iter().any(|t| name == format!("{t}-dims-swapped"))
    };
    let mut cases = Vec::new();
    for (name, bytes) in files {
        let path = dir.join(format!("{name}.gguf"));
        std::fs::write(&path, bytes).unwrap();
        cases.push(case(format!("gguf {name}"), &[&"model-info", &path]));
        cases.push(case(format!("gguf {name}"), &[&"tokenize", &"--model", &path, &"--text", &"Hello ཀ་ཁ ሰላም"]));
        let mut score = case(
            format!("gguf {name}"),
            &[&"score", &"--model", &path, &"--context", &"Q: 2 + 2 =", &"--choice", &" 4", &"--choice", &" 5"],
        );
        score.must_refuse = corrupt(&name);
        cases.push(score);
    }
    let refused = cases.iter().filter(|c| c.must_refuse).count();
    assert!(refused > 50, "only {refused} GGUF cases are known corrupt");
    cases
}

// ---- Hugging Face folders ----

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        if e.file_type().unwrap().is_file() {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

/// A change made to a copy of a model folder, and one made to a file's bytes.
type FolderEdit = Box<dyn Fn(&Path)>;
type BytesEdit = Box<dyn Fn(&mut Vec<u8>)>;

fn hf_cases(dir: &Path) -> Vec<Case> {
    let test = "the_hostile_battery_ends_cleanly (its Hugging Face folder cases)";
    let Some(model) = common::fixture(test, "models/llama3_tied", "tools/fixtures/models.py") else {
        return Vec::new();
    };
    let config: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(model.join("config.json")).unwrap()).unwrap();
    let weights = std::fs::read(model.join("model.safetensors")).unwrap();
    let mut folders: Vec<(String, FolderEdit)> = Vec::new();
    for (field, value) in [
        ("num_attention_heads", serde_json::json!(0)),
        ("num_attention_heads", serde_json::json!(3)),
        ("num_key_value_heads", serde_json::json!(0)),
        ("hidden_size", serde_json::json!(1_000_000_000_000u64)),
        ("hidden_size", serde_json::json!(-5)),
        ("num_hidden_layers", serde_json::json!(1_000_000_000)),
        ("num_hidden_layers", serde_json::json!(0)),
        ("intermediate_size", serde_json::json!(0)),
        ("vocab_size", serde_json::json!(u64::MAX)),
        ("head_dim", serde_json::json!(0)),
        ("head_dim", serde_json::json!(7)),
        ("max_position_embeddings", serde_json::json!(0)),
        ("rope_theta", serde_json::json!(-1.0)),
        (
            "rope_scaling",
            serde_json::json!({"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 4.0, "high_freq_factor": 4.0}),
        ),
        ("architectures", serde_json::json!([])),
        ("architectures", serde_json::json!("LlamaForCausalLM")),
    ] {
        let mut c = config.clone();
        c[field] = value.clone();
        let text = c.to_string();
        folders.push((
            format!("config-{field}-{value}"),
            Box::new(move |d: &Path| std::fs::write(d.join("config.json"), &text).unwrap()),
        ));
    }
    let broken_weights = |edit: BytesEdit| -> FolderEdit {
        let mut w = weights.clone();
        edit(&mut w);
        Box::new(move |d: &Path| std::fs::write(d.join("model.safetensors"), &w).unwrap())
    };
    let header_len = u64::from_le_bytes(weights[..8].try_into().unwrap()) as usize;
    let header: serde_json::Value = serde_json::from_slice(&weights[8..8 + header_len]).unwrap();
    let rewrite = |edit: &dyn Fn(&mut serde_json::Value)| -> Vec<u8> {
        let mut h = header.clone();
        edit(&mut h);
        let mut text = h.to_string().into_bytes();
        while !(text.len() + 8).is_multiple_of(8) {
            text.push(b' ');
        }
        let mut out = (text.len() as u64).to_le_bytes().to_vec();
        out.extend(text);
        out.extend(&weights[8 + header_len..]);
        out
    };
    let first = header.as_object().unwrap().keys().find(|k| *k != "__metadata__").unwrap().clone();
    let headers: Vec<(&str, Vec<u8>)> = vec![
        (
            "offsets-overlap",
            rewrite(&|h| {
                h.as_object_mut()
                    .unwrap()
                    .values_mut()
                    .filter(|v| v.get("data_offsets").is_some())
                    .for_each(|v| v["data_offsets"] = serde_json::json!([0, 64]))
            }),
        ),
        (
            "shape-swapped",
            rewrite(&|h| {
                let s = h[&first]["shape"].as_array().unwrap().clone();
                h[&first]["shape"] = serde_json::Value::Array(s.into_iter().rev().collect());
            }),
        ),
        ("shape-huge", rewrite(&|h| h[&first]["shape"] = serde_json::json!([4294967296u64, 4294967296u64]))),
        ("dtype-i64", rewrite(&|h| h[&first]["dtype"] = serde_json::json!("I64"))),
        ("dtype-unknown", rewrite(&|h| h[&first]["dtype"] = serde_json::json!("F7"))),
        ("offsets-reversed", rewrite(&|h| h[&first]["data_offsets"] = serde_json::json!([64, 0]))),
        ("not-an-object", rewrite(&|h| *h = serde_json::json!([1, 2, 3]))),
    ];
    for (name, bytes) in headers {
        folders.push((
            format!("weights-{name}"),
            Box::new(move |d: &Path| std::fs::write(d.join("model.safetensors"), &bytes).unwrap()),
        ));
    }
    folders.push((
        "weights-header-length-max".into(),
        broken_weights(Box::new(|w| w[..8].copy_from_slice(&u64::MAX.to_le_bytes()))),
    ));
    folders.push((
        "weights-header-length-past-end".into(),
        broken_weights(Box::new(|w| {
            let n = w.len() as u64;
            w[..8].copy_from_slice(&n.to_le_bytes())
        })),
    ));
    folders.push(("weights-truncated".into(), broken_weights(Box::new(|w| w.truncate(w.len() / 2)))));
    folders.push((
        "weights-header-garbage".into(),
        broken_weights(Box::new(|w| w[8..24].copy_from_slice(b"}{][\"\\\x00\xff\xfe!!!!!!!"))),
    ));
    folders.push(("weights-empty".into(), broken_weights(Box::new(|w| w.clear()))));
    for (name, text) in [
        ("tokenizer-not-json", "{{{"),
        ("tokenizer-empty-object", "{}"),
        ("tokenizer-model-unknown", r#"{"model": {"type": "Nonsense"}}"#),
        ("tokenizer-vocab-huge-id", r#"{"model": {"type": "BPE", "vocab": {"a": 4000000000, "b": 0}, "merges": []}}"#),
        (
            "tokenizer-added-huge-id",
            r#"{"added_tokens": [{"id": 999999999, "content": "<x>", "special": true}], "model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}}"#,
        ),
        (
            "tokenizer-wordpiece-long-words",
            r###"{"normalizer": null, "pre_tokenizer": {"type": "WhitespaceSplit"}, "model": {"type": "WordPiece", "unk_token": "a", "continuing_subword_prefix": "##", "max_input_chars_per_word": 1000000000, "vocab": {"a": 0, "##a": 1}}}"###,
        ),
        (
            "tokenizer-bad-regex",
            r#"{"pre_tokenizer": {"type": "Split", "pattern": {"Regex": "(((("}, "behavior": "Isolated", "invert": false}, "model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}}"#,
        ),
    ] {
        let text = text.to_string();
        folders.push((name.into(), Box::new(move |d: &Path| std::fs::write(d.join("tokenizer.json"), &text).unwrap())));
    }
    folders.push(("config-missing".into(), Box::new(|d: &Path| std::fs::remove_file(d.join("config.json")).unwrap())));
    folders
        .push(("config-not-json".into(), Box::new(|d: &Path| std::fs::write(d.join("config.json"), "[1, 2").unwrap())));
    folders.push((
        "tokenizer-missing".into(),
        Box::new(|d: &Path| std::fs::remove_file(d.join("tokenizer.json")).unwrap()),
    ));
    folders.push((
        "index-names-missing-shard".into(),
        Box::new(|d: &Path| {
            std::fs::write(
                d.join("model.safetensors.index.json"),
                r#"{"weight_map": {"lm_head.weight": "model-00002-of-00002.safetensors"}}"#,
            )
            .unwrap();
            std::fs::remove_file(d.join("model.safetensors")).unwrap();
        }),
    ));

    let mut cases = Vec::new();
    for (name, edit) in folders {
        let folder = dir.join(format!("hf-{}", name.replace(['/', ' ', '"', '{', '}', ':', ','], "_")));
        copy_dir(&model, &folder);
        edit(&folder);
        cases.push(case(format!("hf {name}"), &[&"model-info", &folder]));
        cases.push(case(format!("hf {name}"), &[&"tokenize", &"--model", &folder, &"--text", &"aaaa".repeat(5000)]));
        cases.push(case(
            format!("hf {name}"),
            &[&"score", &"--model", &folder, &"--context", &"Q: 2 + 2 =", &"--choice", &" 4"],
        ));
    }
    cases
}

// ---- Data files, task files and Jinja ----

fn data_files() -> Vec<(&'static str, Vec<u8>)> {
    let deep_json = format!("{}1{}", "[".repeat(100_000), "]".repeat(100_000));
    let wide_csv =
        format!("{}\n{}\n", (0..50_000).map(|i| format!("c{i}")).collect::<Vec<_>>().join(","), "x,".repeat(50_000));
    vec![
        ("empty.csv", Vec::new()),
        ("header-only.csv", b"question,A,B,answer\n".to_vec()),
        ("unterminated-quote.csv", b"question,A,B,answer\n\"never ends,1,2,A\n".to_vec()),
        ("nul-bytes.csv", b"question,A,B,answer\n\0\0\0,\0,\0,\0\n".to_vec()),
        ("invalid-utf8.csv", b"question,A,B,answer\n\xff\xfe\xfd,1,2,A\n".to_vec()),
        ("bom-only.csv", b"\xef\xbb\xbf".to_vec()),
        ("ragged.csv", b"question,A,B,answer\n1\n1,2,3,4,5,6,7\n".to_vec()),
        ("wide.csv", wide_csv.into_bytes()),
        (
            "torn.jsonl",
            b"{\"question\": \"q\", \"choices\": [\"a\", \"b\"], \"answer\": 1}\n{\"question\": \"\xe0\xbd".to_vec(),
        ),
        ("deep.json", deep_json.clone().into_bytes()),
        ("deep.jsonl", deep_json.into_bytes()),
        ("number.json", b"42".to_vec()),
        ("strings.jsonl", b"\"a\"\n\"b\"\n".to_vec()),
        ("huge-number.jsonl", b"{\"question\": \"q\", \"choices\": [\"a\", \"b\"], \"answer\": 1e999}\n".to_vec()),
        ("garbage.parquet", [&b"PAR1"[..], &[0xff; 64], &b"PAR1"[..]].concat()),
        ("footer-lies.parquet", [&b"PAR1"[..], &[0u8; 16], &u32::MAX.to_le_bytes(), &b"PAR1"[..]].concat()),
        ("tiny.parquet", b"PAR1".to_vec()),
    ]
}

fn task_files() -> Vec<(&'static str, String)> {
    let mc = |doc_to_text: &str| {
        format!("task: hostile\noutput_type: multiple_choice\ntest_split: test\ndoc_to_text: {doc_to_text:?}\ndoc_to_choice: \"{{{{choices}}}}\"\ndoc_to_target: \"{{{{answer}}}}\"\n")
    };
    vec![
        ("nested-loops", mc("{% for a in range(100000) %}{% for b in range(100000) %}x{% endfor %}{% endfor %}")),
        ("string-times", mc("{{ 'x' * 100000000 }}{{ 'y' * 100000000 }}")),
        ("recursive-macro", mc("{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}")),
        ("many-choices", "task: hostile\noutput_type: multiple_choice\ntest_split: test\ndoc_to_text: q\ndoc_to_choice: \"{{ range(1000000) | list }}\"\ndoc_to_target: 0\n".into()),
        ("undefined", mc("{{ no_such_field.deeper }}")),
        ("syntax-error", mc("{% for %}")),
        ("include-self", "include: include-self.yaml\ntask: t\n".into()),
        ("include-missing", "include: /no/such/file.yaml\ntask: t\n".into()),
        ("include-dev-zero", "include: /dev/zero\ntask: t\n".into()),
        ("alias-bomb", format!("a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\ng: [*f, *f, *f, *f, *f, *f, *f, *f, *f]\n{}", mc("q"))),
        ("deep-yaml", format!("{}x{}\n", "[".repeat(50_000), "]".repeat(50_000))),
        ("not-yaml", "\t\u{0}:::{{{".into()),
        ("generate-forever", "task: hostile\noutput_type: generate_until\ntest_split: test\ndoc_to_text: \"{{question}}\"\ndoc_to_target: \"{{answer}}\"\ngeneration_kwargs:\n  until: []\n  max_gen_toks: 1000000000\n".into()),
        ("regex-backtracking", "task: hostile\noutput_type: generate_until\ntest_split: test\ndoc_to_text: \"{{question}}\"\ndoc_to_target: \"{{answer}}\"\ngeneration_kwargs:\n  until: [\"\\n\"]\n  max_gen_toks: 4\nfilter_list:\n  - name: x\n    filter:\n      - function: regex\n        regex_pattern: \"((a+)+)+(?=b)\"\n".into()),
        ("bad-regex", "task: hostile\noutput_type: generate_until\ntest_split: test\ndoc_to_text: q\ndoc_to_target: a\nfilter_list:\n  - name: x\n    filter:\n      - function: regex\n        regex_pattern: \"((((\"\n".into()),
        ("function-tag", "task: hostile\noutput_type: multiple_choice\ntest_split: test\ndoc_to_text: !function utils.doc_to_text\ndoc_to_choice: [a, b]\ndoc_to_target: 0\n".into()),
        ("target-out-of-range", mc("{{question}}").replace("\"{{answer}}\"", "99")),
        ("long-context", mc("{{ question * 200000 }}")),
    ]
}

fn data_and_task_cases(dir: &Path) -> Vec<Case> {
    let demo = repo().join("models/demo/lingualens-demo-Q8_0.gguf");
    let mut cases = Vec::new();
    let good = dir.join("good.jsonl");
    std::fs::write(&good, "{\"question\": \"Is ཀ a letter?\", \"choices\": [\"yes\", \"no\"], \"answer\": 0}\n{\"question\": \"aaaa\", \"choices\": [\"b\", \"c\"], \"answer\": 1}\n").unwrap();
    let out = dir.join("out");
    for (name, bytes) in data_files() {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        cases.push(case(format!("data {name}"), &[&"data", &"check", &path]));
        let generic = repo().join("datasets/tasks/generic/multiple_choice.yaml");
        cases.push(case(
            format!("data {name}"),
            &[&"eval", &"--model", &demo, &"--task", &generic, &"--data", &path, &"--out", &out.join(name)],
        ));
    }
    for (name, text) in task_files() {
        let path = dir.join(format!("{name}.yaml"));
        std::fs::write(&path, text).unwrap();
        cases.push(case(
            format!("task {name}"),
            &[
                &"eval",
                &"--model",
                &demo,
                &"--task",
                &path,
                &"--data",
                &good,
                &"--limit",
                &"2",
                &"--out",
                &out.join(name),
            ],
        ));
    }
    // Overrides that are hostile templates, and a hostile override sidecar.
    let generic = repo().join("datasets/tasks/generic/multiple_choice.yaml");
    for (i, o) in [
        "doc_to_text={% for a in range(100000) %}{% for b in range(100000) %}x{% endfor %}{% endfor %}",
        "doc_to_text={{ 'x' * 4000000000 }}",
        "doc_to_choice={{ 1 / 0 }}",
        "no_equals_sign",
    ]
    .iter()
    .enumerate()
    {
        cases.push(case(
            format!("override {i}"),
            &[
                &"eval",
                &"--model",
                &demo,
                &"--task",
                &generic,
                &"--data",
                &good,
                &"--override",
                o,
                &"--out",
                &out.join(format!("override-{i}")),
            ],
        ));
    }
    let sidecar = dir.join("sidecar.yaml");
    std::fs::write(&sidecar, "doc_to_text: \"{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}\"\n").unwrap();
    cases.push(case(
        "override file",
        &[
            &"eval",
            &"--model",
            &demo,
            &"--task",
            &generic,
            &"--data",
            &good,
            &"--override-file",
            &sidecar,
            &"--out",
            &out.join("sidecar"),
        ],
    ));
    cases
}

fn odd_path_cases(dir: &Path) -> Vec<Case> {
    let demo = repo().join("models/demo/lingualens-demo-Q8_0.gguf");
    let generic = repo().join("datasets/tasks/generic/multiple_choice.yaml");
    let looped = dir.join("loop");
    std::fs::create_dir_all(looped.join("inner")).unwrap();
    let _ = std::os::unix::fs::symlink(&looped, looped.join("inner/back"));
    std::fs::write(looped.join("inner/a.csv"), "question,A,B,answer\nq,1,2,A\n").unwrap();
    let fifo = dir.join("fifo.csv");
    let _ = Command::new("mkfifo").arg(&fifo).status();
    let odd_name = dir.join("new\nline ཀ.jsonl");
    std::fs::write(&odd_name, "{\"question\": \"q\", \"choices\": [\"a\", \"b\"], \"answer\": 0}\n").unwrap();
    let empty = dir.join("empty.gguf");
    std::fs::write(&empty, b"").unwrap();
    let missing = dir.join("no-such-file.gguf");
    let mut cases = vec![
        case("data check through a symlink loop", &[&"data", &"check", &looped]),
        case("data check of a fifo", &[&"data", &"check", &fifo]),
        case("data check of /dev/zero", &[&"data", &"check", &"/dev/zero"]),
        case("data check of a missing file", &[&"data", &"check", &missing]),
        case("data with a newline in its name", &[&"data", &"check", &odd_name]),
        case(
            "eval with /dev/zero as data",
            &[
                &"eval",
                &"--model",
                &demo,
                &"--task",
                &generic,
                &"--data",
                &"/dev/zero",
                &"--out",
                &dir.join("out-zero"),
            ],
        ),
        case(
            "eval with a fifo as data",
            &[&"eval", &"--model", &demo, &"--task", &generic, &"--data", &fifo, &"--out", &dir.join("out-fifo")],
        ),
        case(
            "eval with /dev/zero as task",
            &[
                &"eval",
                &"--model",
                &demo,
                &"--task",
                &"/dev/zero",
                &"--data",
                &odd_name,
                &"--out",
                &dir.join("out-zero-task"),
            ],
        ),
        case(
            "eval with a folder as task",
            &[&"eval", &"--model", &demo, &"--task", &dir, &"--data", &odd_name, &"--out", &dir.join("out-dir-task")],
        ),
        case(
            "eval with /dev/zero as override file",
            &[
                &"eval",
                &"--model",
                &demo,
                &"--task",
                &generic,
                &"--data",
                &odd_name,
                &"--override-file",
                &"/dev/zero",
                &"--out",
                &dir.join("out-zero-sidecar"),
            ],
        ),
        case(
            "eval writing into a file",
            &[&"eval", &"--model", &demo, &"--task", &generic, &"--data", &odd_name, &"--out", &demo],
        ),
    ];
    for model in [&empty as &dyn AsRef<std::ffi::OsStr>, &missing, &"/dev/zero", &dir, &fifo] {
        cases.push(case("odd model path", &[&"model-info", model]));
        cases.push(case("odd model path", &[&"score", &"--model", model, &"--context", &"a", &"--choice", &"b"]));
    }
    cases
}

#[test]
fn the_hostile_battery_ends_cleanly() {
    let dir = scratch();
    let mut cases = gguf_cases(&dir.join("gguf").tap_mkdir());
    cases.extend(hf_cases(&dir.join("hf").tap_mkdir()));
    cases.extend(data_and_task_cases(&dir.join("data").tap_mkdir()));
    cases.extend(odd_path_cases(&dir.join("paths").tap_mkdir()));
    let started = Instant::now();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for c in &cases {
        match run(c) {
            Outcome::Success => *counts.entry("ran to the end").or_default() += 1,
            Outcome::CleanError => *counts.entry("clean errors").or_default() += 1,
            Outcome::Failure(f) => failures.push(f),
        }
    }
    eprintln!(
        "hostile battery: {} cases in {:.0} s: {counts:?}, {} failures",
        cases.len(),
        started.elapsed().as_secs_f64(),
        failures.len()
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), cases.len(), failures.join("\n"));
}

trait TapMkdir {
    fn tap_mkdir(self) -> Self;
}

impl TapMkdir for PathBuf {
    fn tap_mkdir(self) -> Self {
        std::fs::create_dir_all(&self).unwrap();
        self
    }
}

/// A GGUF of 134 MB whose header declares a metadata array of 2^27 one-byte items (the file is
/// long enough to hold them, so its length alone does not refuse it): each item would become a
/// 32-byte value, 4 GB at once, an allocation abort in a browser's worker. It is refused at once,
/// by the key and the cap.
#[test]
fn a_gguf_declaring_a_huge_metadata_array_is_refused_by_name_not_allocated() {
    // Its own folder: the battery's (`scratch`) is emptied by the battery while this test runs.
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("hostile-array-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("huge-array.gguf");
    let n: u64 = 1 << 27;
    let mut header = b"GGUF".to_vec();
    header.extend(3u32.to_le_bytes());
    header.extend(0u64.to_le_bytes()); // tensors
    header.extend(1u64.to_le_bytes()); // metadata pairs
    let key = b"general.hostile";
    header.extend((key.len() as u64).to_le_bytes());
    header.extend(key);
    header.extend(9u32.to_le_bytes()); // an array
    header.extend(0u32.to_le_bytes()); // of u8
    header.extend(n.to_le_bytes());
    let file = std::fs::File::create(&path).unwrap();
    std::io::Write::write_all(&mut &file, &header).unwrap();
    file.set_len(header.len() as u64 + n).unwrap(); // sparse: the test writes 60 bytes, not 134 MB
    let started = Instant::now();
    let output =
        Command::new(env!("CARGO_BIN_EXE_lingualens")).args(["model-info", path.to_str().unwrap()]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("huge-array.gguf") && stderr.contains("general.hostile") && stderr.contains("at most 2097152"),
        "{stderr}"
    );
    assert!(started.elapsed() < Duration::from_secs(5), "refused in {:?}", started.elapsed());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Qwen3 normalises q and k per head; Llama does not. The Qwen3 fixture with its first k norm
/// renamed away is refused by that tensor, and the same file relabelled Llama (its keys renamed) is
/// refused by the q norm it holds: either way the model is not run without the norms, or with them.
#[test]
fn a_qk_norm_set_that_does_not_fit_the_architecture_is_refused_by_the_tensor() {
    let test = "a_qk_norm_set_that_does_not_fit_the_architecture_is_refused_by_the_tensor";
    let Some(path) = common::fixture(test, "models/qwen3/gguf/qwen3-F32.gguf", "tools/fixtures/models.py") else {
        return;
    };
    let qwen3 = Gguf::parse(&std::fs::read(&path).unwrap());
    assert_eq!(qwen3.arch(), "qwen3");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("hostile-qk-{}", std::process::id())).tap_mkdir();
    let logits = |name: &str, gguf: &Gguf| {
        let file = dir.join(name);
        std::fs::write(&file, gguf.bytes()).unwrap();
        let out = dir.join(format!("{name}.npy"));
        let output = Command::new(env!("CARGO_BIN_EXE_lingualens"))
            .args(["logits", "--model", file.to_str().unwrap(), "--text", "hello", "--out", out.to_str().unwrap()])
            .output()
            .unwrap();
        (output.status.code(), String::from_utf8_lossy(&output.stderr).into_owned())
    };
    assert_eq!(logits("whole.gguf", &qwen3).0, Some(0), "the fixture itself runs");
    let without_k_norm =
        qwen3.clone().tensor("blk.0.attn_k_norm.weight", |t| t.name = "blk.0.attn_k_nrm.weight".into());
    let (code, stderr) = logits("no-k-norm.gguf", &without_k_norm);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("no-k-norm.gguf") && stderr.contains("blk.0.attn_k_norm.weight is missing"), "{stderr}");
    let mut as_llama = qwen3.clone().set("general.architecture", Value::String("llama".into()));
    for (k, _) in as_llama.metadata.iter_mut() {
        if let Some(rest) = k.strip_prefix("qwen3.") {
            *k = format!("llama.{rest}");
        }
    }
    let (code, stderr) = logits("llama-with-norms.gguf", &as_llama);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("blk.0.attn_q_norm.weight") && stderr.contains("Llama models do not have"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
