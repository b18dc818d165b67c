//! Logits of the four architectures against transformers, on tiny random-weight models that
//! `tools/fixtures/models.py` builds (every parameter random, so an ignored norm weight or bias
//! shows): from the HF folder and from each GGUF export, on burn's CPU backend and on burn-wgpu
//! (Vulkan natively; lavapipe in CI). Quantized files are compared with transformers run on the
//! exactly dequantized weights of that file, activations in float32.
//!
//! Needs `LINGUALENS_FIXTURES` (scripts/test.sh sets it); without it the tests say they were skipped.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use lingualens::backend::ComputeDevice;
use lingualens::formats::source::FileSource;
use lingualens::models::Model;
use serde_json::Value;

const TOLERANCE: f32 = 1e-3;
const MODELS: [&str; 6] = ["llama3_tied", "llama3_untied", "qwen2", "qwen3", "gemma3", "gemma3_qpas"];

fn fixtures() -> Option<PathBuf> {
    let dir = std::env::var_os("LINGUALENS_FIXTURES").map(PathBuf::from).map(|d| d.join("models"));
    match dir {
        Some(d) if d.join("index.json").is_file() => Some(d),
        _ if std::env::var("LINGUALENS_REQUIRE_FIXTURES").as_deref() == Ok("1") => {
            panic!("LINGUALENS_REQUIRE_FIXTURES=1 but $LINGUALENS_FIXTURES/models/index.json is missing (tools/fixtures/models.py)")
        }
        _ => {
            eprintln!("SKIPPED: no model fixtures (set LINGUALENS_FIXTURES; see tools/fixtures/models.py)");
            None
        }
    }
}

/// A little-endian float32 .npy file (numpy format 1.0/2.0), as numpy.save writes it.
fn read_npy(path: &Path) -> (Vec<f32>, Vec<usize>) {
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
    let values = bytes[start + header_len..].chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
    (values, shape)
}

fn sequences(dir: &Path) -> Vec<(String, Vec<u32>)> {
    let index: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("index.json")).unwrap()).unwrap();
    index["sequences"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(name, ids)| (name.clone(), ids.as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as u32).collect()))
        .collect()
}

fn wgpu() -> &'static ComputeDevice {
    static DEVICE: OnceLock<ComputeDevice> = OnceLock::new();
    DEVICE.get_or_init(|| pollster::block_on(ComputeDevice::wgpu()).expect("burn-wgpu (Vulkan; lavapipe in CI)"))
}

enum Source {
    HfFolder,
    Gguf(&'static str),
}

/// Max |Δ logit| over every sequence, for one model from one source on one device.
fn max_diff(dir: &Path, model: &str, source: &Source, device: &ComputeDevice) -> f32 {
    let mdir = dir.join(model);
    let loaded = match source {
        Source::HfFolder => pollster::block_on(Model::from_hf_folder(&mdir, device)),
        Source::Gguf(t) => {
            let path = mdir.join("gguf").join(format!("{model}-{t}.gguf"));
            pollster::block_on(Model::from_gguf(FileSource::open(&path).unwrap(), device))
        }
    };
    let (m, _) = loaded.unwrap_or_else(|e| panic!("{model}: {e}"));
    let tag = match source {
        Source::HfFolder | Source::Gguf("F32") => "f32",
        Source::Gguf(t) => t,
    };
    let mut worst = 0f32;
    for (name, tokens) in sequences(dir) {
        let (reference, shape) = read_npy(&mdir.join("ref").join(format!("{name}.{tag}.npy")));
        let ours = pollster::block_on(m.logits(&tokens)).unwrap();
        assert_eq!(ours.len(), reference.len(), "{model} {name}: logits shape, reference {shape:?}");
        let d = ours.iter().zip(&reference).map(|(a, b)| (a - b).abs()).fold(0f32, f32::max);
        assert!(d.is_finite(), "{model} {name}: non-finite logits");
        worst = worst.max(d);
    }
    worst
}

fn check(source: Source, device: &ComputeDevice, models: &[&str]) {
    let Some(dir) = fixtures() else { return };
    let mut report = Vec::new();
    for model in models {
        let d = max_diff(&dir, model, &source, device);
        report.push(format!("{model} {d:.2e}"));
        assert!(d <= TOLERANCE, "{model}: max |Δ logit| = {d} > {TOLERANCE} ({})", device.info.backend.name());
    }
    let what = match source {
        Source::HfFolder => "HF folder".to_string(),
        Source::Gguf(t) => format!("GGUF {t}"),
    };
    println!("{what} on {}: max |Δ logit| vs transformers: {}", device.info.backend.name(), report.join(", "));
}

// gemma3_qpas sets query_pre_attn_scalar != head_dim, which GGUF does not carry (llama.cpp uses
// head_dim): only the HF folder can reproduce transformers there.
const GGUF_MODELS: [&str; 5] = ["llama3_tied", "llama3_untied", "qwen2", "qwen3", "gemma3"];

#[test]
fn hf_folder_on_cpu() {
    check(Source::HfFolder, &ComputeDevice::cpu(), &MODELS);
}

#[test]
fn hf_folder_on_wgpu() {
    check(Source::HfFolder, wgpu(), &MODELS);
}

#[test]
fn gguf_f32_on_cpu() {
    check(Source::Gguf("F32"), &ComputeDevice::cpu(), &GGUF_MODELS);
}

#[test]
fn gguf_f32_on_wgpu() {
    check(Source::Gguf("F32"), wgpu(), &GGUF_MODELS);
}

#[test]
fn gguf_quantized_on_cpu_match_dequantized_transformers() {
    for t in ["F16", "Q8_0", "Q4_0"] {
        check(Source::Gguf(t), &ComputeDevice::cpu(), &GGUF_MODELS);
    }
    for t in ["Q4_1", "Q5_0", "Q5_1", "BF16"] {
        check(Source::Gguf(t), &ComputeDevice::cpu(), &["qwen2"]);
    }
}

#[test]
fn gguf_quantized_on_wgpu_match_dequantized_transformers() {
    for t in ["F16", "Q8_0", "Q4_0"] {
        check(Source::Gguf(t), wgpu(), &GGUF_MODELS);
    }
}

/// Running a sequence in two steps through the KV cache gives the logits of one full pass: on the
/// window-crossing 80-token sequence, split after 50 tokens (Gemma 3's window is 8).
#[test]
fn kv_cache_continuation_equals_the_full_pass() {
    let Some(dir) = fixtures() else { return };
    let tokens = sequences(&dir).into_iter().find(|(n, _)| n == "rand80").unwrap().1;
    for model in ["llama3_untied", "gemma3", "qwen3"] {
        for device in [ComputeDevice::cpu(), wgpu().clone()] {
            let (m, _) = pollster::block_on(Model::from_hf_folder(&dir.join(model), &device)).unwrap();
            let mut cache = lingualens::models::KvCache::new();
            let _ = pollster::block_on(m.logits_cached(&tokens[..50], &mut cache, 1)).unwrap();
            let tail = pollster::block_on(m.logits_cached(&tokens[50..], &mut cache, 30)).unwrap();
            assert_eq!(cache.len(), 80);
            let (reference, _) = read_npy(&dir.join(model).join("ref/rand80.f32.npy"));
            let vocab = reference.len() / 80;
            let d = tail.iter().zip(&reference[50 * vocab..]).map(|(a, b)| (a - b).abs()).fold(0f32, f32::max);
            assert!(d <= TOLERANCE, "{model} on {}: cached logits differ by {d}", device.info.backend.name());
        }
    }
}
