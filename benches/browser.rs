//! `cargo bench --bench browser` (run by `scripts/bench-browser.sh`, which installs what it needs):
//! lingualens in headless Chromium — on WebGPU (SwiftShader) and on the CPU (exact and int8) — beside
//! wllama (llama.cpp compiled to wasm, npm `@wllama/wllama`) on the same GGUF files, with the
//! ratios. A benchmark, not a test: it prints figures and asserts nothing about speed.
//!
//! The workload is `lingualens bench`'s (`lingualens::cli::bench::workload`): multiple-choice items
//! of about `--context` tokens with 4 choices. lingualens gets them as text through its worker
//! (`Score`, the evaluator's path); wllama gets the token ids our tokenizer gives that text, as
//! llama.cpp does in `lingualens bench`. The page (`tools/bench/browser/`) times each engine's own
//! calls; WebDriver only starts a run and reads the figures.
//!   - prompt tokens/s: the first item's context in one forward pass, median of `--runs`;
//!   - items/s: every item (the context once, each choice after its KV cache), median of `--runs`.
//! The largest |Δ log-likelihood| between lingualens and wllama is printed as a check that both
//! computed the same thing.

#[path = "../tests/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Parser;
use serde_json::{json, Value};

use common::{Browser, StaticServer, WEBGPU_FLAG};
use lingualens::cli::bench::{workload, Item};
use lingualens::formats::gguf::GgufFile;
use lingualens::formats::source::FileSource;
use lingualens::models::config::ModelConfig;
use lingualens::tokenizers::Tokenizer;

/// The wllama version `scripts/bench-browser.sh` installs: the last line (2.x) with token-level
/// calls (`tokenize`, `decode`, `getLogits`, `kvRemove`); wllama 3 keeps only OpenAI-style
/// completions, which cannot score a given continuation.
const WLLAMA_VERSION: &str = "2.3.7";

#[derive(Parser)]
#[command(about = "lingualens in headless Chromium (WebGPU on SwiftShader, CPU fallback) beside wllama on the same GGUF files")]
struct Args {
    /// GGUF files (repeatable). Default: the Q8_0 and Q4_0 bench models of
    /// tools/bench/make_bench_model.py in $LINGUALENS_CACHE/bench.
    #[arg(long = "model")]
    models: Vec<PathBuf>,
    /// What to time (repeatable): wllama (1 thread), wllama-mt (every core; needs cross-origin
    /// isolation, which the bench's server gives), wgpu, cpu (f32 activations), cpu-int8, and
    /// cpu-pool / cpu-int8-pool (a worker per core, as the page runs on the CPU: items/s of the
    /// pool; the prompt pass is one worker's).
    #[arg(long = "engine", default_values_t = ["wllama".to_string(), "wllama-mt".to_string(), "wgpu".to_string(), "cpu".to_string(), "cpu-int8".to_string(), "cpu-int8-pool".to_string()])]
    engines: Vec<String>,
    /// Multiple-choice context length in tokens (at least).
    #[arg(long, default_value_t = 200)]
    context: usize,
    /// Multiple-choice items per pass.
    #[arg(long, default_value_t = 4)]
    items: usize,
    /// Timed runs (passes) per figure, at most; the median is printed.
    #[arg(long, default_value_t = 3)]
    runs: usize,
    /// Seconds an engine may spend repeating a phase (prompt passes, item passes) before it stops at
    /// fewer than --runs; it always times at least one prompt pass and one item.
    #[arg(long, default_value_t = 60.0)]
    budget_seconds: f64,
    /// The @wllama/wllama package folder (default: $LINGUALENS_WLLAMA, else
    /// $LINGUALENS_CACHE/npm-wllama/node_modules/@wllama/wllama).
    #[arg(long)]
    wllama: Option<PathBuf>,
    /// Minutes one engine may take on one model.
    #[arg(long, default_value_t = 30)]
    timeout_minutes: u64,
    /// Passed by `cargo bench`; ignored.
    #[arg(long, hide = true)]
    bench: bool,
}

fn cache_dir() -> PathBuf {
    std::env::var_os("LINGUALENS_CACHE")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache/lingualens"))
}

/// One engine's figures on one model, as the page returns them.
struct Row {
    engine: String,
    detail: String,
    load_s: f64,
    warm_up_s: f64,
    pp: f64,
    mc: f64,
    pp_passes: usize,
    mc_passes: usize,
    /// Per item; `None` for the items the engine did not reach within its budget.
    loglikelihoods: Vec<Option<Vec<f64>>>,
    note: Option<String>,
}

fn main() {
    let args = Args::parse();
    if let Err(message) = run(&args) {
        eprintln!("bench browser: {message}");
        std::process::exit(1);
    }
}

fn run(args: &Args) -> Result<(), String> {
    let dist = common::browser_prerequisites()?;
    let wllama = args.wllama.clone().or_else(|| std::env::var_os("LINGUALENS_WLLAMA").map(PathBuf::from)).unwrap_or_else(|| cache_dir().join("npm-wllama/node_modules/@wllama/wllama"));
    let installed = std::fs::read_to_string(wllama.join("package.json")).ok().and_then(|t| serde_json::from_str::<Value>(&t).ok());
    let version = installed.as_ref().and_then(|p| p["version"].as_str()).ok_or(format!(
        "no @wllama/wllama in {} (scripts/bench-browser.sh installs {WLLAMA_VERSION})",
        wllama.display()
    ))?;
    if version != WLLAMA_VERSION {
        return Err(format!("{} is wllama {version}; this bench speaks wllama {WLLAMA_VERSION}'s API", wllama.display()));
    }
    let models = if args.models.is_empty() {
        ["Q8_0", "Q4_0"].iter().map(|t| cache_dir().join(format!("bench/bench-llama-125m-{t}.gguf"))).collect()
    } else {
        args.models.clone()
    };
    for model in &models {
        if !model.is_file() {
            return Err(format!("{}: no such file (tools/bench/make_bench_model.py makes the bench models)", model.display()));
        }
    }
    let page_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/bench/browser");
    let mut mounts = vec![("bench".to_string(), page_dir), ("wllama".to_string(), wllama.clone())];
    for (i, model) in models.iter().enumerate() {
        mounts.push((format!("model-{i}"), model.parent().unwrap_or(Path::new(".")).to_path_buf()));
    }
    let server = StaticServer::start_isolated(dist, mounts);
    let browser = Browser::start(&[WEBGPU_FLAG]);
    browser.goto(&server.url("bench/bench.html"));
    let info = browser.wait_for("the bench page", "return window.benchInfo || null", Duration::from_secs(60));
    let cores = info["cores"].as_u64().unwrap_or(1) as usize;

    println!(
        "lingualens browser bench: headless Chromium, multiple choice {} items x 4 choices (context ~{} tokens), median of up to {} runs ({} s a phase at most)",
        args.items, args.context, args.runs, args.budget_seconds
    );
    println!(
        "page cross-origin isolated: {}; {} cores; lingualens: one wasm thread on the CPU; ratios are against wllama on 1 thread",
        info["crossOriginIsolated"], cores
    );
    let started = Instant::now();
    for (i, model) in models.iter().enumerate() {
        let (items, pp_choice) = model_workload(model, args)?;
        let size = std::fs::metadata(model).map(|m| m.len()).unwrap_or(0) as f64 / (1024.0 * 1024.0);
        let name = model.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let context_tokens: Vec<usize> = items.iter().map(|it| it.context_tokens.len()).collect();
        println!("\n{} ({size:.1} MiB), contexts of {:?} tokens", model.display(), context_tokens);
        let model_url = format!("/model-{i}/{}", common::url_encode(&name));
        let mut rows = Vec::new();
        for engine in &args.engines {
            let job = match engine.as_str() {
                "wllama" | "wllama-mt" => {
                    let threads = if engine == "wllama" { 1 } else { cores };
                    if threads < 2 && engine == "wllama-mt" {
                        println!("  ({engine}: this browser has one core; skipped)");
                        continue;
                    }
                    json!({ "engine": "wllama", "threads": threads, "version": version })
                }
                "wgpu" | "cpu" | "cpu-int8" => json!({ "engine": "lingualens", "backend": engine, "pp_choice": pp_choice }),
                // The page's pool on the CPU path: a worker per core, items shared out.
                "cpu-pool" | "cpu-int8-pool" => {
                    json!({ "engine": "lingualens", "backend": engine.trim_end_matches("-pool"), "workers": cores, "pp_choice": pp_choice })
                }
                other => return Err(format!("unknown engine {other:?} (wllama, wllama-mt, wgpu, cpu, cpu-int8, cpu-pool, cpu-int8-pool)")),
            };
            let mut job = job;
            job["model_url"] = json!(model_url);
            job["items"] = json!(items);
            job["runs"] = json!(args.runs);
            job["budget_s"] = json!(args.budget_seconds);
            let t0 = Instant::now();
            eprintln!("  {engine} on {name}:");
            let row = run_engine(&browser, engine, &job, Duration::from_secs(args.timeout_minutes * 60))
                .map_err(|e| format!("{engine} on {name}: {e}"))?;
            eprintln!("    {:>6.1} s  done", t0.elapsed().as_secs_f64());
            rows.push(row);
        }
        print_table(&rows);
    }
    println!("\nfinished in {:.0} s", started.elapsed().as_secs_f64());
    Ok(())
}

/// The items (with our token ids) and a choice that adds exactly one token after the first
/// item's context, for the prompt pass.
fn model_workload(model: &Path, args: &Args) -> Result<(Vec<Item>, String), String> {
    let source = FileSource::open(model).map_err(|e| e.to_string())?;
    let file = pollster::block_on(GgufFile::read(&source)).map_err(|e| e.to_string())?;
    let tokenizer = Tokenizer::from_gguf(&file).map_err(|e| e.to_string())?;
    let config = ModelConfig::from_gguf(&file).map_err(|e| e.to_string())?;
    // The prompt ids are drawn first from the seeded stream: drawing `lingualens bench`'s default
    // 256 makes these items the ones it times with the same --context and --items.
    let (_, items) = workload(&tokenizer, config.vocab_size, 256, args.context, args.items).map_err(|e| e.to_string())?;
    let first = items.first().ok_or("--items must be at least 1")?;
    let pp_choice = [" the", " of", " a", " and", " answer"]
        .into_iter()
        .find(|c| lingualens::engine::encode_pair(&tokenizer, &first.context, c).is_ok_and(|(_, cont)| cont.len() == 1))
        .ok_or("no one-token choice for the prompt pass in this vocabulary")?;
    Ok((items, pp_choice.to_string()))
}

fn run_engine(browser: &Browser, engine: &str, job: &Value, timeout: Duration) -> Result<Row, String> {
    browser.eval("return window.runEngine(arguments[0])", json!([job]));
    // Poll once a second, printing each new phase the page reports (a slow engine takes minutes).
    let started = Instant::now();
    let mut phase = String::new();
    let outcome = loop {
        let state = browser.eval("return [window.benchResult, document.getElementById('status').textContent]", json!([]));
        if !state[0].is_null() {
            break state[0].clone();
        }
        let now = state[1].as_str().unwrap_or("").to_string();
        if now != phase {
            eprintln!("    {:>6.1} s  {now}", started.elapsed().as_secs_f64());
            phase = now;
        }
        if started.elapsed() > timeout {
            return Err(format!("no result after {timeout:?}; the page says: {phase}"));
        }
        std::thread::sleep(Duration::from_secs(1));
    };
    let figures = match (&outcome["ok"], &outcome["error"]) {
        (Value::Object(_), _) => &outcome["ok"],
        (_, error) => return Err(error.as_str().unwrap_or("failed").to_string()),
    };
    let number = |key: &str| figures[key].as_f64().ok_or(format!("no {key} in {figures}"));
    let count = |key: &str| figures[key].as_array().map_or(0, |a| a.len());
    let loglikelihoods = serde_json::from_value(figures["loglikelihoods"].clone()).map_err(|e| e.to_string())?;
    let note = figures["get_logits_ms"].as_f64().map(|ms| format!("getLogits(-1) {ms:.1} ms a call"));
    let name = match engine {
        "wgpu" | "cpu" | "cpu-int8" | "cpu-pool" | "cpu-int8-pool" => format!("lingualens {engine}"),
        other => other.to_string(),
    };
    Ok(Row {
        engine: name,
        detail: figures["detail"].as_str().unwrap_or("").to_string(),
        load_s: number("load_s")?,
        warm_up_s: number("warm_up_s")?,
        pp: number("pp_tokens_per_s")?,
        mc: number("mc_items_per_s")?,
        pp_passes: count("pp_runs"),
        mc_passes: count("mc_runs"),
        loglikelihoods,
        note,
    })
}

fn print_table(rows: &[Row]) {
    let baseline = rows.iter().find(|r| r.engine == "wllama");
    let ratio = |ours: f64, theirs: Option<f64>| theirs.map_or("-".to_string(), |t| format!("{:.2}", ours / t));
    println!(
        "  {:<17} {:>7} {:>9} {:>13} {:>6} {:>9} {:>6}  {}",
        "engine", "load s", "warm-up s", "prompt tok/s", "ratio", "items/s", "ratio", "what"
    );
    for r in rows {
        println!(
            "  {:<17} {:>7.1} {:>9.1} {:>13.2} {:>6} {:>9.3} {:>6}  {}; passes: {} prompt, {} items{}",
            r.engine,
            r.load_s,
            r.warm_up_s,
            r.pp,
            ratio(r.pp, baseline.map(|b| b.pp)),
            r.mc,
            ratio(r.mc, baseline.map(|b| b.mc)),
            r.detail,
            r.pp_passes,
            r.mc_passes,
            r.note.as_ref().map(|n| format!("; {n}")).unwrap_or_default()
        );
    }
    // The check: the same items scored by both, compared choice by choice.
    if let Some(reference) = baseline {
        for r in rows.iter().filter(|r| r.engine != reference.engine) {
            let pairs: Vec<(&Vec<f64>, &Vec<f64>)> = r
                .loglikelihoods
                .iter()
                .zip(&reference.loglikelihoods)
                .filter_map(|(a, b)| Some((a.as_ref()?, b.as_ref()?)))
                .collect();
            let d = pairs.iter().flat_map(|(a, b)| a.iter().zip(b.iter())).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
            let why = if r.engine.starts_with("lingualens") { " (llama.cpp quantizes activations; F16 KV cache)" } else { "" };
            println!("  check: max |Δ log-likelihood| {} vs wllama over {} items = {d:.3e}{why}", r.engine, pairs.len());
        }
    }
}
