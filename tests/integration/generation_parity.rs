//! `LanguageModel::generate` against transformers' greedy `generate` (`tools/fixtures/generation.py`)
//! on the six tiny random-weight models, from the HF folder on burn's CPU backend and on burn-wgpu
//! (Vulkan natively; lavapipe in CI): the same prompt tokens, the same new tokens one for one, the
//! same text (special tokens skipped), the same stop at the model's EOS and at a forced EOS id, and
//! lm-eval's cut at a stop string.

use std::path::PathBuf;

use lingualens::backend::ComputeDevice;
use lingualens::engine::{self, StopReason};
use serde_json::Value;

use crate::common::{self, wgpu};

const MODELS: [&str; 6] = ["llama3_tied", "llama3_untied", "qwen2", "qwen3", "gemma3", "gemma3_qpas"];

/// The fixtures folder, if it has the generation references.
fn fixtures() -> Option<PathBuf> {
    common::fixture("generation_parity", "generation/qwen3.json", "tools/fixtures/generation.py")
        .map(|f| f.parent().unwrap().parent().unwrap().to_path_buf())
}

fn ids(v: &Value) -> Vec<u32> {
    v.as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as u32).collect()
}

/// Every case of every model on one device; returns (prompts, tokens compared, EOS stops seen).
fn check(device: &ComputeDevice) -> Option<(usize, usize, usize)> {
    let dir = fixtures()?;
    let (mut prompts, mut tokens, mut eos_stops) = (0, 0, 0);
    for model in MODELS {
        let reference: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join(format!("generation/{model}.json"))).unwrap())
                .unwrap();
        let lm = pollster::block_on(engine::load(&dir.join("models").join(model), device))
            .unwrap_or_else(|e| panic!("{model}: {e}"));
        let backend = device.info.backend.name();
        for case in reference["cases"].as_array().unwrap() {
            let prompt = case["prompt"].as_str().unwrap();
            let max = case["max_new_tokens"].as_u64().unwrap() as usize;
            let want = ids(&case["new_tokens"]);

            let g = pollster::block_on(lm.generate(prompt, &[], max)).unwrap();
            assert_eq!(g.prompt_tokens, ids(&case["prompt_tokens"]), "{model} {prompt:?}: prompt tokens");
            assert_eq!(g.tokens, want, "{model} on {backend}, {prompt:?}: greedy tokens");
            assert_eq!(g.text, case["text"].as_str().unwrap(), "{model} on {backend}, {prompt:?}: text");
            let natural_eos = case["eos_token_id"].as_u64().map(|e| e as u32);
            if want.len() < max {
                assert_eq!(g.stop, StopReason::Eos, "{model} {prompt:?}");
                assert_eq!(want.last().copied(), natural_eos);
                eos_stops += 1;
            } else {
                assert_eq!(g.stop, StopReason::MaxTokens, "{model} {prompt:?}");
                // The benches' decode (no stop at all) makes the same tokens where nothing stopped.
                if max >= 2 {
                    let (decoded, tokens_per_s) =
                        pollster::block_on(lm.greedy_decode(&ids(&case["prompt_tokens"]), max)).unwrap();
                    assert_eq!(decoded, want, "{model} on {backend}, {prompt:?}: greedy_decode");
                    assert!(tokens_per_s.is_finite() && tokens_per_s > 0.0, "{tokens_per_s}");
                }
            }
            prompts += 1;
            tokens += want.len();

            if let Some(forced) = case.get("eos") {
                let eos = forced["eos_token_id"].as_u64().unwrap() as u32;
                let g = pollster::block_on(lm.generate_tokens(&ids(&case["prompt_tokens"]), &[], max, &[eos])).unwrap();
                assert_eq!(g.tokens, ids(&forced["new_tokens"]), "{model} on {backend}, {prompt:?}: EOS {eos}");
                assert_eq!(g.stop, StopReason::Eos);
                eos_stops += 1;
            }
            if let Some(until) = case.get("until") {
                let terms: Vec<String> =
                    until["until"].as_array().unwrap().iter().map(|t| t.as_str().unwrap().to_string()).collect();
                let g = pollster::block_on(lm.generate(prompt, &terms, max)).unwrap();
                assert_eq!(
                    g.text,
                    until["text"].as_str().unwrap(),
                    "{model} on {backend}, {prompt:?}: until {terms:?}"
                );
                assert_eq!(g.stop, StopReason::Until(terms[0].clone()), "{model} {prompt:?}");
                // Generation stopped as soon as the stop string was there, not at max_tokens.
                assert!(g.tokens.len() < want.len(), "{model} {prompt:?}: {} tokens", g.tokens.len());
                assert_eq!(g.tokens[..], want[..g.tokens.len()]);
            }
        }
    }
    Some((prompts, tokens, eos_stops))
}

/// The worker's `Decode` request passes its ids and step count to `greedy_decode` as they come:
/// what cannot be run is an error, never a panic.
#[test]
fn greedy_decode_refuses_what_it_cannot_run() {
    let Some(dir) = fixtures() else { return };
    let lm = pollster::block_on(engine::load(&dir.join("models/qwen3"), &ComputeDevice::cpu())).unwrap();
    let vocab = lm.config.vocab_size as u32;
    for (prompt, steps, says) in [
        (vec![], 8, "decode needs a prompt"),
        (vec![1, 2], 1, "at least 2 steps"),
        (vec![1, vocab], 8, "outside the model's vocabulary"),
        (vec![1, 2], usize::MAX, "lingualens runs at most"),
    ] {
        let error = pollster::block_on(lm.greedy_decode(&prompt, steps)).unwrap_err().to_string();
        assert!(error.contains(says), "{prompt:?} x {steps}: {error}");
    }
}

#[test]
fn greedy_generation_matches_transformers_on_cpu() {
    if let Some((p, t, e)) = check(&ComputeDevice::cpu()) {
        println!("cpu: {p} prompts, {t} greedy tokens equal to transformers, {e} EOS stops");
    }
}

#[test]
fn greedy_generation_matches_transformers_on_wgpu() {
    if let Some((p, t, e)) = check(wgpu()) {
        println!("wgpu: {p} prompts, {t} greedy tokens equal to transformers, {e} EOS stops");
    }
}
