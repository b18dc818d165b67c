//! `LanguageModel::log_likelihoods` against lm-evaluation-harness's definition, as
//! `tools/fixtures/models.py` computes it with transformers (HFLM `_encode_pair` +
//! `_loglikelihood_tokens`, which the oracle run found bit-identical to `lm-eval --log_samples`):
//! the same context/continuation token split, log-likelihoods within 1e-4, the same is_greedy.
//! The "tricky" set has a trailing space in the context and tokens that merge across the boundary.

use std::path::PathBuf;

use lingualens::backend::ComputeDevice;
use lingualens::engine;
use serde_json::Value;

use crate::common;

const TOLERANCE: f64 = 1e-4;

/// `$LINGUALENS_FIXTURES/models`.
fn fixtures() -> Option<PathBuf> {
    common::fixture("loglikelihood_parity", "models/index.json", "tools/fixtures/models.py")
        .map(|f| f.parent().unwrap().to_path_buf())
}

fn check(model_path: &std::path::Path, reference: &Value, device: &ComputeDevice) -> f64 {
    let lm = pollster::block_on(engine::load(model_path, device)).unwrap_or_else(|e| panic!("{e}"));
    let mut worst = 0f64;
    for set in ["mc", "mc_tricky"] {
        for (i, item) in reference[set].as_array().unwrap().iter().enumerate() {
            let requests = item.as_array().unwrap();
            let context = requests[0]["request_context"].as_str().expect("request_context (regenerate fixtures)");
            let continuations: Vec<String> =
                requests.iter().map(|r| r["request_continuation"].as_str().unwrap().to_string()).collect();
            let ours = pollster::block_on(lm.log_likelihoods(context, &continuations)).unwrap();
            for (r, o) in requests.iter().zip(&ours) {
                let ids =
                    |v: &Value| v.as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as u32).collect::<Vec<_>>();
                let what = format!("{} {set}[{i}] {:?}", model_path.display(), o.continuation);
                assert_eq!(o.context_tokens, ids(&r["ctx_tokens"]), "{what}: context tokens");
                assert_eq!(o.continuation_tokens, ids(&r["cont_tokens"]), "{what}: continuation tokens");
                assert_eq!(o.is_greedy, r["is_greedy"].as_bool().unwrap(), "{what}: is_greedy");
                let d = (o.loglikelihood - r["loglikelihood"].as_f64().unwrap()).abs();
                assert!(d <= TOLERANCE, "{what}: log-likelihood {} vs {}", o.loglikelihood, r["loglikelihood"]);
                worst = worst.max(d);
            }
        }
    }
    worst
}

#[test]
fn log_likelihoods_equal_lm_eval_definition() {
    let Some(dir) = fixtures() else { return };
    let cpu = ComputeDevice::cpu();
    let mut report = Vec::new();
    for model in ["llama3_tied", "llama3_untied", "qwen2", "qwen3", "gemma3", "gemma3_qpas"] {
        let reference: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join(model).join("ref/ref.json")).unwrap()).unwrap();
        let hf = check(&dir.join(model), &reference, &cpu);
        report.push(format!("{model} (HF folder) {hf:.1e}"));
        if model != "gemma3_qpas" {
            let gguf = dir.join(model).join("gguf").join(format!("{model}-F32.gguf"));
            let d = check(&gguf, &reference, &cpu);
            report.push(format!("{model} (GGUF) {d:.1e}"));
        }
    }
    println!("max |Δ log-likelihood| vs lm-eval's definition: {}", report.join(", "));
}
