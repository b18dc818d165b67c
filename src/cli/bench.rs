//! `lingualens bench`: prompt-processing tokens/s and multiple-choice items/s of a GGUF model on the
//! CPU backend and on wgpu, beside llama.cpp's on the same file in the same run (through
//! llama-cpp-python, `tools/bench/llamacpp_peer.py`, embedded here), with the ratio. A benchmark,
//! not a test: it prints figures and asserts nothing about speed.
//!
//! The workload, the same for both sides:
//! - prompt processing: `--prompt` seeded random token ids in one forward pass, logits of the last
//!   position only; median tokens/s over `--runs` runs after one warm-up;
//! - multiple choice: `--items` items, each a context of about `--context` tokens of seeded random
//!   words and 4 choices of 1–3 words. Ours is the evaluator's real path
//!   ([`LanguageModel::log_likelihoods`](crate::engine::LanguageModel::log_likelihoods): the context
//!   once, each choice after its KV cache); llama.cpp gets exactly our token ids and does the same
//!   passes. Median items/s over `--runs` passes. The largest |Δ log-likelihood| between the two
//!   is printed as a check that both did the same work.
//!
//! The same items, from [`workload`], are timed in headless Chromium against wllama by
//! `benches/browser.rs` (`scripts/bench-browser.sh`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use web_time::Instant;

use crate::engine::{self, LanguageModel};
use crate::error::{Error, Result};
use crate::models::KvCache;
use crate::tokenizers::Tokenizer;

const PEER_SCRIPT: &str = include_str!("../../tools/bench/llamacpp_peer.py");
const CHOICES: usize = 4;
const WORDS: &[&str] = &[
    "the", "of", "river", "stone", "garden", "bread", "apple", "blue", "green", "mountain", "forest", "question", "answer",
    "school", "people", "little", "world", "state", "water", "house", "morning", "evening", "market", "village", "letter",
    "teacher", "children", "window", "summer", "winter", "because", "before", "after", "always", "never", "quickly",
];

pub(super) struct BenchArgs {
    pub(super) models: Vec<PathBuf>,
    pub(super) backends: Vec<super::BackendArg>,
    pub(super) peer_python: Option<PathBuf>,
    pub(super) threads: usize,
    pub(super) prompt: usize,
    pub(super) context: usize,
    pub(super) items: usize,
    pub(super) runs: usize,
}

/// One side's figures on one model.
struct Figures {
    pp_tokens_per_s: f64,
    mc_items_per_s: f64,
    loglikelihoods: Vec<Vec<f64>>,
}

/// A multiple-choice item as text (our side) and as the token ids our tokenizer gives it (the
/// peer's side: llama.cpp here, wllama in `benches/browser.rs`).
#[derive(Debug, Clone, serde::Serialize)]
pub struct Item {
    pub context: String,
    pub choices: Vec<String>,
    pub context_tokens: Vec<u32>,
    pub continuation_tokens: Vec<Vec<u32>>,
}

/// xorshift64*: a fixed, dependency-free stream, so every run benchmarks the same tokens.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }

    fn words(&mut self, n: usize) -> String {
        (0..n).map(|_| WORDS[self.below(WORDS.len())]).collect::<Vec<_>>().join(" ")
    }
}

pub(super) fn run(args: &BenchArgs) -> Result<()> {
    let cores = std::thread::available_parallelism().map_or(1, |p| p.get());
    println!(
        "lingualens bench: prompt {} tokens, multiple choice {} items x {CHOICES} choices (context ~{} tokens), median of {} runs",
        args.prompt, args.items, args.context, args.runs
    );
    println!("threads: ours = every core ({cores}); llama.cpp = {}", args.threads);
    if args.peer_python.is_none() {
        println!("no --peer-python: llama.cpp is not run, so there are no ratios");
    }
    for model in &args.models {
        println!("\n{}", model.display());
        let mut ours = Vec::new();
        // The workload depends on the tokenizer only: made with the first backend's model, it is
        // the same for every backend and for llama.cpp.
        let mut work = None;
        for &backend in &args.backends {
            let device = super::device(backend)?;
            let lm = pollster::block_on(engine::load(model, &device))?;
            if work.is_none() {
                work = Some(workload(&lm.tokenizer, lm.config.vocab_size, args.prompt, args.context, args.items)?);
            }
            let (prompt, items) = work.as_ref().expect("made just above");
            ours.push((backend.label(), measure(&lm, prompt, items, args.runs)?));
        }
        let peer = match (&args.peer_python, &work) {
            (Some(python), Some((prompt, items))) => Some(run_peer(python, model, args, prompt, items)?),
            _ => None,
        };
        println!("  {:<10} {:>14} {:>8} {:>14} {:>8}", "", "prompt tok/s", "ratio", "MC items/s", "ratio");
        if let Some(p) = &peer {
            println!("  {:<10} {:>14.1} {:>8} {:>14.2} {:>8}", "llama.cpp", p.pp_tokens_per_s, "1.00", p.mc_items_per_s, "1.00");
        }
        for (name, f) in &ours {
            let ratio = |ours: f64, theirs: Option<f64>| theirs.map_or("-".to_string(), |t| format!("{:.2}", ours / t));
            println!(
                "  {:<10} {:>14.1} {:>8} {:>14.2} {:>8}",
                name,
                f.pp_tokens_per_s,
                ratio(f.pp_tokens_per_s, peer.as_ref().map(|p| p.pp_tokens_per_s)),
                f.mc_items_per_s,
                ratio(f.mc_items_per_s, peer.as_ref().map(|p| p.mc_items_per_s))
            );
        }
        if let Some(p) = &peer {
            for (name, f) in &ours {
                let d = max_abs_diff(&f.loglikelihoods, &p.loglikelihoods);
                println!("  check: max |Δ log-likelihood| {name} vs llama.cpp = {d:.3e} (llama.cpp quantizes activations; F16 KV cache)");
            }
        }
    }
    Ok(())
}

/// The benchmark's workload, the same wherever it runs (here, and in the browser by
/// `benches/browser.rs`): `prompt` seeded random token ids below `vocab`, and `items`
/// multiple-choice items of at least `context` tokens with 4 choices, from the seeded word stream,
/// with the token ids `tokenizer` gives them under lm-eval's rule.
pub fn workload(tokenizer: &Tokenizer, vocab: usize, prompt_len: usize, context_len: usize, n_items: usize) -> Result<(Vec<u32>, Vec<Item>)> {
    let mut rng = Rng(0x5eed_1234_abcd_9876);
    let prompt = (0..prompt_len).map(|_| 3 + rng.below(vocab.saturating_sub(3).max(1)) as u32).collect();
    let mut items = Vec::with_capacity(n_items);
    for _ in 0..n_items {
        let mut context = format!("Question: {}", rng.words(8));
        while tokenizer.encode(&context, true, true).len() < context_len {
            context = format!("{context} {}", rng.words(8));
        }
        context.push_str("\nAnswer:");
        let choices: Vec<String> = (0..CHOICES)
            .map(|_| {
                let n = 1 + rng.below(3);
                format!(" {}", rng.words(n))
            })
            .collect();
        let pairs = choices.iter().map(|c| engine::encode_pair(tokenizer, &context, c)).collect::<Result<Vec<_>>>()?;
        items.push(Item {
            context_tokens: pairs[0].0.clone(),
            continuation_tokens: pairs.into_iter().map(|(_, cont)| cont).collect(),
            context,
            choices,
        });
    }
    Ok((prompt, items))
}

fn measure(lm: &LanguageModel, prompt: &[u32], items: &[Item], runs: usize) -> Result<Figures> {
    let prompt_pass = || pollster::block_on(lm.model.logits_cached(prompt, &mut KvCache::new(), 1));
    prompt_pass()?; // warm-up: first-use allocations, kernel compilation on wgpu
    let mut pp = Vec::with_capacity(runs);
    for _ in 0..runs {
        let start = Instant::now();
        prompt_pass()?;
        pp.push(prompt.len() as f64 / start.elapsed().as_secs_f64());
    }
    let score = |item: &Item| pollster::block_on(lm.log_likelihoods(&item.context, &item.choices));
    score(&items[0])?;
    let (mut mc, mut loglikelihoods) = (Vec::with_capacity(runs), Vec::new());
    for _ in 0..runs {
        let start = Instant::now();
        loglikelihoods = items
            .iter()
            .map(|item| score(item).map(|s| s.iter().map(|c| c.loglikelihood).collect()))
            .collect::<Result<Vec<Vec<f64>>>>()?;
        mc.push(items.len() as f64 / start.elapsed().as_secs_f64());
    }
    Ok(Figures { pp_tokens_per_s: median(pp), mc_items_per_s: median(mc), loglikelihoods })
}

fn run_peer(python: &Path, model: &Path, args: &BenchArgs, prompt: &[u32], items: &[Item]) -> Result<Figures> {
    let job = serde_json::json!({
        "model": model,
        "threads": args.threads,
        "runs": args.runs,
        "prompt": prompt,
        "items": items.iter().map(|it| serde_json::json!({
            "context": it.context_tokens, "continuations": it.continuation_tokens,
        })).collect::<Vec<_>>(),
    });
    let failed = |e: String| Error::new(format!("llama.cpp peer ({}): {e}", python.display()));
    let mut child = Command::new(python)
        .arg("-c")
        .arg(PEER_SCRIPT)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| failed(e.to_string()))?;
    child.stdin.take().ok_or_else(|| failed("no stdin".into()))?.write_all(job.to_string().as_bytes()).map_err(|e| failed(e.to_string()))?;
    let out = child.wait_with_output().map_err(|e| failed(e.to_string()))?;
    if !out.status.success() {
        return Err(failed(format!("{}: {}", out.status, String::from_utf8_lossy(&out.stderr).trim())));
    }
    let reply: serde_json::Value = serde_json::from_slice(&out.stdout).map_err(|e| failed(format!("unreadable reply: {e}")))?;
    let number = |key: &str| reply[key].as_f64().ok_or_else(|| failed(format!("no {key} in the reply")));
    let loglikelihoods = serde_json::from_value(reply["loglikelihoods"].clone()).map_err(|e| failed(e.to_string()))?;
    println!("  llama.cpp: llama-cpp-python {}", reply["llama_cpp_python"].as_str().unwrap_or("?"));
    Ok(Figures { pp_tokens_per_s: number("pp_tokens_per_s")?, mc_items_per_s: number("mc_items_per_s")?, loglikelihoods })
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}

fn max_abs_diff(a: &[Vec<f64>], b: &[Vec<f64>]) -> f64 {
    a.iter().flatten().zip(b.iter().flatten()).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max)
}
