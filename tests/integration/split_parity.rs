//! Tensors split across storage bindings give the same logits. A real adapter allows 128 MiB to a
//! few GiB per binding, and only large models cross it (Gemma 3 1B's embedding is 1.2 GB in f32);
//! here `LINGUALENS_MAX_BINDING_BYTES` lowers the limit to 16 KiB so that the tiny fixture models
//! split too: every f32 weight and embedding into row pieces, every quantized weight into row
//! parts. The logits must still match transformers within 1e-3, as in `model_parity`.
//!
//! This is its own test binary because the limit is read from the environment: set once here, it
//! cannot leak into the other parity tests.

use crate::common;

use std::path::Path;

use lingualens::backend::ComputeDevice;
use lingualens::formats::source::FileSource;
use lingualens::models::Model;

use crate::common::npy::{model_fixtures, read_npy, sequences};

const LIMIT_BYTES: &str = "16384";
const TOLERANCE: f32 = 1e-3;

fn max_diff(dir: &Path, model: &str, loaded: Model, tag: &str) -> f32 {
    let mut worst = 0f32;
    for (name, tokens) in sequences(dir) {
        let ours = pollster::block_on(loaded.logits(&tokens)).unwrap();
        let (reference, _) = read_npy(&dir.join(model).join("ref").join(format!("{name}.{tag}.npy")));
        assert_eq!(ours.len(), reference.len(), "{model} {name}");
        worst = worst.max(ours.iter().zip(&reference).map(|(a, b)| (a - b).abs()).fold(0f32, f32::max));
    }
    worst
}

#[test]
fn split_tensors_on_wgpu_match_transformers() {
    // The limit is read from the environment at each model load, which the other tests of this
    // process share: set it in a process of this test's own.
    if !common::in_own_process(
        "split_parity::split_tensors_on_wgpu_match_transformers",
        &[("LINGUALENS_MAX_BINDING_BYTES", LIMIT_BYTES)],
    ) {
        return;
    }
    let Some(dir) = model_fixtures() else { return };
    let compute = pollster::block_on(ComputeDevice::wgpu()).expect("burn-wgpu (Vulkan; lavapipe in CI)");
    let mut report = Vec::new();
    // HF folders: f32 weights in row pieces (gemma3: tied embedding; qwen2: biases; llama3_untied:
    // a separate output matrix).
    for model in ["gemma3", "qwen2", "llama3_untied"] {
        let (m, _) = pollster::block_on(Model::from_hf_folder(&dir.join(model), &compute)).unwrap();
        let d = max_diff(&dir, model, m, "f32");
        report.push(format!("{model} HF {d:.2e}"));
        assert!(d <= TOLERANCE, "{model} HF folder, split: max |Δ| {d}");
    }
    // GGUF: packed quantized parts (and f32 pieces for the F32 file), tied embedding included.
    for t in ["F32", "Q8_0", "Q4_0", "Q4_K", "Q6_K"] {
        let model = "llama3_h256";
        let path = dir.join(model).join("gguf").join(format!("{model}-{t}.gguf"));
        let (m, _) = pollster::block_on(Model::from_gguf(FileSource::open(&path).unwrap(), &compute)).unwrap();
        let d = max_diff(&dir, model, m, if t == "F32" { "f32" } else { t });
        report.push(format!("{model} {t} {d:.2e}"));
        assert!(d <= TOLERANCE, "{model} {t}, split: max |Δ| {d}");
    }
    println!("split at {LIMIT_BYTES} bytes per binding, max |Δ logit| vs transformers: {}", report.join(", "));
}
