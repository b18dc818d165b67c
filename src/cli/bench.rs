//! `lingualens bench`: prompt-processing tokens/s, multiple-choice items/s and greedy decode tokens/s of a GGUF model on the
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
//! - decode: after the prompt (untimed), [`DECODE_TOKENS`] greedy tokens one at a time, each the
//!   argmax of the last one's logits through the KV cache (what every generation task does per
//!   token); tokens/s over the steps after the first. How many of the tokens agree with llama.cpp's
//!   is printed (random weights make near-ties, so a late divergence is no error).
//!
//! Every side is loaded and warmed up first; then the timed runs take turns (llama.cpp's, then
//! each backend's, `--runs` rounds), so a drift in the machine's speed during the invocation meets
//! every side alike and the ratios compare like with like.
//!
//! The same items, from [`workload`], are timed in headless Chromium against wllama by
//! `benches/browser.rs` (`scripts/bench-browser.sh`).

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use web_time::Instant;

use crate::engine::{self, LanguageModel};
use crate::error::{Error, Result};
use crate::models::KvCache;
use crate::tokenizers::Tokenizer;

const PEER_SCRIPT: &str = include_str!("../../tools/bench/llamacpp_peer.py");
const CHOICES: usize = 4;
/// Tokens generated per decode run (the 64: a short answer, a chain of thought's start).
pub const DECODE_TOKENS: usize = 64;
const WORDS: &[&str] = &[
    "the", "of", "river", "stone", "garden", "bread", "apple", "blue", "green", "mountain", "forest", "question",
    "answer", "school", "people", "little", "world", "state", "water", "house", "morning", "evening", "market",
    "village", "letter", "teacher", "children", "window", "summer", "winter", "because", "before", "after", "always",
    "never", "quickly",
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
    decode_tokens_per_s: f64,
    loglikelihoods: Vec<Vec<f64>>,
    decoded: Vec<u32>,
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
        "lingualens bench: prompt {} tokens, multiple choice {} items x {CHOICES} choices (context ~{} tokens), median of {} runs taken in turns with llama.cpp's",
        args.prompt, args.items, args.context, args.runs
    );
    println!("threads: ours = every core ({cores}); llama.cpp = {}", args.threads);
    if args.peer_python.is_none() {
        println!("no --peer-python: llama.cpp is not run, so there are no ratios");
    }
    for model in &args.models {
        println!("\n{}", model.display());
        let mut sides = Vec::new();
        for &backend in &args.backends {
            let device = super::device(backend)?;
            sides.push((backend.label(), pollster::block_on(engine::load(model, &device))?));
        }
        // The workload depends on the tokenizer only: made with the first backend's model, it is
        // the same for every backend and for llama.cpp.
        let Some((_, first)) = sides.first() else { continue };
        let (prompt, items) =
            workload(&first.tokenizer, first.config.vocab_size, args.prompt, args.context, args.items)?;
        let mut peer = match &args.peer_python {
            Some(python) => Some(Peer::start(python, model, args, &prompt, &items)?),
            None => None,
        };
        for (_, lm) in &sides {
            prompt_pass(lm, &prompt)?; // warm-up: first-use allocations, kernel compilation on wgpu
            score_items(lm, &items)?;
            decode(lm, &prompt)?;
        }
        let mut ours: Vec<Runs> = sides.iter().map(|_| Runs::default()).collect();
        let mut theirs = Runs::default();
        for _ in 0..args.runs {
            if let Some(peer) = &mut peer {
                theirs.pp.push(peer.prompt_pass()?);
            }
            for ((_, lm), runs) in sides.iter().zip(&mut ours) {
                runs.pp.push(prompt_pass(lm, &prompt)?);
            }
        }
        for _ in 0..args.runs {
            if let Some(peer) = &mut peer {
                let (tokens_per_s, tokens) = peer.decode()?;
                theirs.dec.push(tokens_per_s);
                theirs.decoded = tokens;
            }
            for ((_, lm), runs) in sides.iter().zip(&mut ours) {
                let (tokens_per_s, tokens) = decode(lm, &prompt)?;
                runs.dec.push(tokens_per_s);
                runs.decoded = tokens;
            }
        }
        for _ in 0..args.runs {
            if let Some(peer) = &mut peer {
                let (items_per_s, loglikelihoods) = peer.score_items()?;
                theirs.mc.push(items_per_s);
                theirs.loglikelihoods = loglikelihoods;
            }
            for ((_, lm), runs) in sides.iter().zip(&mut ours) {
                let (items_per_s, loglikelihoods) = score_items(lm, &items)?;
                runs.mc.push(items_per_s);
                runs.loglikelihoods = loglikelihoods;
            }
        }
        let peer = peer.map(|p| (p.version.clone(), Figures::from(theirs)));
        println!(
            "  {:<10} {:>14} {:>8} {:>14} {:>8} {:>14} {:>8}",
            "", "prompt tok/s", "ratio", "MC items/s", "ratio", "decode tok/s", "ratio"
        );
        if let Some((version, p)) = &peer {
            println!(
                "  {:<10} {:>14.1} {:>8} {:>14.2} {:>8} {:>14.1} {:>8}   (llama-cpp-python {version})",
                "llama.cpp", p.pp_tokens_per_s, "1.00", p.mc_items_per_s, "1.00", p.decode_tokens_per_s, "1.00"
            );
        }
        let ours: Vec<(&str, Figures)> =
            sides.iter().map(|(name, _)| name.as_str()).zip(ours.into_iter().map(Figures::from)).collect();
        for (name, f) in &ours {
            let ratio = |ours: f64, theirs: Option<f64>| theirs.map_or("-".to_string(), |t| format!("{:.2}", ours / t));
            println!(
                "  {:<10} {:>14.1} {:>8} {:>14.2} {:>8} {:>14.1} {:>8}",
                name,
                f.pp_tokens_per_s,
                ratio(f.pp_tokens_per_s, peer.as_ref().map(|(_, p)| p.pp_tokens_per_s)),
                f.mc_items_per_s,
                ratio(f.mc_items_per_s, peer.as_ref().map(|(_, p)| p.mc_items_per_s)),
                f.decode_tokens_per_s,
                ratio(f.decode_tokens_per_s, peer.as_ref().map(|(_, p)| p.decode_tokens_per_s))
            );
        }
        if let Some((_, p)) = &peer {
            for (name, f) in &ours {
                let d = max_abs_diff(&f.loglikelihoods, &p.loglikelihoods);
                println!("  check: max |Δ log-likelihood| {name} vs llama.cpp = {d:.3e} (llama.cpp quantizes activations; F16 KV cache)");
                let same = f.decoded.iter().zip(&p.decoded).take_while(|(a, b)| a == b).count();
                println!("  check: greedy decode, {name}'s first {same} of {DECODE_TOKENS} tokens are llama.cpp's");
            }
        }
    }
    Ok(())
}

/// One side's timed runs on one model: prompt tokens/s and items/s of each, and the
/// log-likelihoods of the last pass over the items.
#[derive(Default)]
struct Runs {
    pp: Vec<f64>,
    mc: Vec<f64>,
    dec: Vec<f64>,
    loglikelihoods: Vec<Vec<f64>>,
    decoded: Vec<u32>,
}

impl From<Runs> for Figures {
    fn from(runs: Runs) -> Figures {
        Figures {
            pp_tokens_per_s: median(runs.pp),
            mc_items_per_s: median(runs.mc),
            decode_tokens_per_s: median(runs.dec),
            loglikelihoods: runs.loglikelihoods,
            decoded: runs.decoded,
        }
    }
}

/// The benchmark's workload, the same wherever it runs (here, and in the browser by
/// `benches/browser.rs`): `prompt` seeded random token ids below `vocab`, and `items`
/// multiple-choice items of at least `context` tokens with 4 choices, from the seeded word stream,
/// with the token ids `tokenizer` gives them under lm-eval's rule.
pub fn workload(
    tokenizer: &Tokenizer,
    vocab: usize,
    prompt_len: usize,
    context_len: usize,
    n_items: usize,
) -> Result<(Vec<u32>, Vec<Item>)> {
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

/// One timed prompt pass: tokens/s.
fn prompt_pass(lm: &LanguageModel, prompt: &[u32]) -> Result<f64> {
    let start = Instant::now();
    pollster::block_on(lm.model.logits_cached(prompt, &mut KvCache::new(), 1))?;
    Ok(prompt.len() as f64 / start.elapsed().as_secs_f64())
}

/// One timed greedy decode of [`DECODE_TOKENS`] tokens after `prompt` (the prompt's pass
/// untimed): tokens/s over the one-token steps, and the tokens.
fn decode(lm: &LanguageModel, prompt: &[u32]) -> Result<(f64, Vec<u32>)> {
    let (tokens, tokens_per_s) = pollster::block_on(lm.greedy_decode(prompt, DECODE_TOKENS))?;
    Ok((tokens_per_s, tokens))
}

/// One timed pass over the items: items/s and each choice's log-likelihood.
fn score_items(lm: &LanguageModel, items: &[Item]) -> Result<(f64, Vec<Vec<f64>>)> {
    let start = Instant::now();
    let loglikelihoods = items
        .iter()
        .map(|item| {
            pollster::block_on(lm.log_likelihoods(&item.context, &item.choices))
                .map(|s| s.iter().map(|c| c.loglikelihood).collect())
        })
        .collect::<Result<Vec<Vec<f64>>>>()?;
    Ok((items.len() as f64 / start.elapsed().as_secs_f64(), loglikelihoods))
}

/// llama.cpp through llama-cpp-python (`tools/bench/llamacpp_peer.py`): loaded and warmed up by
/// [`Peer::start`], then one timed run per request.
struct Peer {
    python: PathBuf,
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    /// Its stderr, read on a thread of its own so that a chatty peer never blocks on a full pipe.
    stderr: Option<std::thread::JoinHandle<String>>,
    version: String,
}

impl Peer {
    fn start(python: &Path, model: &Path, args: &BenchArgs, prompt: &[u32], items: &[Item]) -> Result<Peer> {
        let job = serde_json::json!({
            "model": model,
            "threads": args.threads,
            "prompt": prompt,
            "decode": DECODE_TOKENS,
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
        let (Some(stdin), Some(stdout), Some(mut stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(failed("no pipes to it".into()));
        };
        let stderr = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            text
        });
        let mut peer = Peer {
            python: python.to_path_buf(),
            child,
            stdin,
            stdout: BufReader::new(stdout),
            stderr: Some(stderr),
            version: String::new(),
        };
        let ready = peer.ask(&job.to_string())?;
        peer.version = ready["llama_cpp_python"].as_str().unwrap_or("?").to_string();
        Ok(peer)
    }

    /// Sends one line, reads one JSON line back; if the peer has stopped, its stderr is the error.
    fn ask(&mut self, line: &str) -> Result<serde_json::Value> {
        let failed = |e: String| Error::new(format!("llama.cpp peer ({}): {e}", self.python.display()));
        let mut reply = String::new();
        let sent = writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush());
        if sent.is_err() || self.stdout.read_line(&mut reply).map_err(|e| failed(e.to_string()))? == 0 {
            let status = self.child.wait().map_or_else(|e| e.to_string(), |s| s.to_string());
            let stderr = self.stderr.take().and_then(|reader| reader.join().ok()).unwrap_or_default();
            return Err(failed(format!("it stopped ({status}): {}", stderr.trim())));
        }
        serde_json::from_str(&reply).map_err(|e| failed(format!("unreadable reply {:?}: {e}", reply.trim())))
    }

    fn number(&mut self, command: &str, key: &str) -> Result<(f64, serde_json::Value)> {
        let reply = self.ask(command)?;
        let value = reply[key].as_f64().ok_or_else(|| Error::new(format!("llama.cpp peer: no {key} in its reply")))?;
        Ok((value, reply))
    }

    fn prompt_pass(&mut self) -> Result<f64> {
        self.number("pp", "pp_tokens_per_s").map(|(v, _)| v)
    }

    fn decode(&mut self) -> Result<(f64, Vec<u32>)> {
        let (tokens_per_s, reply) = self.number("dec", "decode_tokens_per_s")?;
        let tokens =
            serde_json::from_value(reply["tokens"].clone()).map_err(|e| Error::new(format!("llama.cpp peer: {e}")))?;
        Ok((tokens_per_s, tokens))
    }

    fn score_items(&mut self) -> Result<(f64, Vec<Vec<f64>>)> {
        let (items_per_s, reply) = self.number("mc", "mc_items_per_s")?;
        let loglikelihoods = serde_json::from_value(reply["loglikelihoods"].clone())
            .map_err(|e| Error::new(format!("llama.cpp peer: {e}")))?;
        Ok((items_per_s, loglikelihoods))
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|_| self.stdin.flush());
        let _ = self.child.wait();
    }
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}

fn max_abs_diff(a: &[Vec<f64>], b: &[Vec<f64>]) -> f64 {
    a.iter().flatten().zip(b.iter().flatten()).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max)
}
