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
//! - prompt tokens/s: the first item's context in one forward pass, median of `--runs`;
//! - decode tokens/s: `lingualens bench`'s decode (after its 256-token prompt, 64 greedy tokens one
//!   at a time, tokens/s over the steps after the first), median of `--runs`; lingualens on one
//!   worker (a pool's first), wllama through its sampler cut to the most likely token;
//! - items/s: every item (the context once, each choice after its KV cache), median of `--runs`.
//!
//! The largest |Δ log-likelihood| between lingualens and wllama is printed as a check that both
//! computed the same thing.
//!
//! `--page-run TASK --model FILE --data FOLDER` times the app itself instead: the page runs TASK
//! (e.g. `dzen_en` over DZEN's CSVs) from its Run button to its last row, as a user's run goes.

#[path = "../tests/integration/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Parser;
use serde_json::{json, Value};

use common::{Browser, StaticServer, WEBGPU_FLAG};
use lingualens::cli::bench::{workload, Item, DECODE_TOKENS};
use lingualens::formats::gguf::GgufFile;
use lingualens::formats::source::FileSource;
use lingualens::models::config::ModelConfig;
use lingualens::tokenizers::Tokenizer;

/// The wllama version `scripts/bench-browser.sh` installs: the last line (2.x) with token-level
/// calls (`tokenize`, `decode`, `getLogits`, `kvRemove`); wllama 3 keeps only OpenAI-style
/// completions, which cannot score a given continuation.
const WLLAMA_VERSION: &str = "2.3.7";

#[derive(Parser)]
#[command(
    about = "lingualens in headless Chromium (WebGPU on SwiftShader, CPU fallback) beside wllama on the same GGUF files"
)]
struct Args {
    /// GGUF files (repeatable). Default: the Q8_0 and Q4_0 bench models of
    /// tools/bench/make_bench_model.py in $LINGUALENS_CACHE/bench.
    #[arg(long = "model")]
    models: Vec<PathBuf>,
    /// What to time (repeatable): wllama (1 thread), wllama-mt (every core; needs cross-origin
    /// isolation, which the bench's server gives), wgpu, cpu (f32 activations), cpu-int8, and
    /// cpu-pool / cpu-int8-pool (a worker per core, as the page runs on the CPU when it is not
    /// cross-origin isolated: items/s of the pool; the prompt pass is one worker's), and
    /// cpu-threads / cpu-int8-threads (the threaded worker, as the page runs where it is: one copy
    /// of the model, every pass on every core).
    #[arg(long = "engine", default_values_t = ["wllama".to_string(), "wllama-mt".to_string(), "wgpu".to_string(), "cpu".to_string(), "cpu-int8".to_string(), "cpu-int8-pool".to_string(), "cpu-int8-threads".to_string()])]
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
    /// Instead of the engines' figures: run task TASK in the app page itself, as a user would
    /// (the model fetched by URL, the pool of workers on the CPU path, every row drawn), with the
    /// first --model over the data files under --data, and print its wall time and accuracy.
    #[arg(long, value_name = "TASK")]
    page_run: Option<String>,
    /// --page-run: a folder whose data files (.csv, .jsonl, .json, .parquet, any depth) go to the
    /// page's file input (DZEN's folder for dzen_en).
    #[arg(long)]
    data: Option<PathBuf>,
    /// --page-run: only the first N items.
    #[arg(long)]
    limit: Option<usize>,
    /// --page-run: `?workers=N` (default: the page's own choice, a worker per core).
    #[arg(long)]
    workers: Option<usize>,
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
    decode: f64,
    mc: f64,
    pp_passes: usize,
    decode_runs: usize,
    mc_passes: usize,
    /// The greedy tokens of the last decode run.
    decoded: Vec<u32>,
    /// Per item; `None` for the items the engine did not reach within its budget.
    loglikelihoods: Vec<Option<Vec<f64>>>,
    note: Option<String>,
}

fn main() {
    let args = Args::parse();
    let outcome = match &args.page_run {
        Some(task) => page_run(&args, task),
        None => run(&args),
    };
    if let Err(message) = outcome {
        eprintln!("bench browser: {message}");
        std::process::exit(1);
    }
}

fn run(args: &Args) -> Result<(), String> {
    let dist = common::browser_prerequisites()?;
    let wllama = args
        .wllama
        .clone()
        .or_else(|| std::env::var_os("LINGUALENS_WLLAMA").map(PathBuf::from))
        .unwrap_or_else(|| cache_dir().join("npm-wllama/node_modules/@wllama/wllama"));
    let installed =
        std::fs::read_to_string(wllama.join("package.json")).ok().and_then(|t| serde_json::from_str::<Value>(&t).ok());
    let version = installed.as_ref().and_then(|p| p["version"].as_str()).ok_or(format!(
        "no @wllama/wllama in {} (scripts/bench-browser.sh installs {WLLAMA_VERSION})",
        wllama.display()
    ))?;
    if version != WLLAMA_VERSION {
        return Err(format!(
            "{} is wllama {version}; this bench speaks wllama {WLLAMA_VERSION}'s API",
            wllama.display()
        ));
    }
    let models = if args.models.is_empty() {
        ["Q8_0", "Q4_0"].iter().map(|t| cache_dir().join(format!("bench/bench-llama-125m-{t}.gguf"))).collect()
    } else {
        args.models.clone()
    };
    for model in &models {
        if !model.is_file() {
            return Err(format!(
                "{}: no such file (tools/bench/make_bench_model.py makes the bench models)",
                model.display()
            ));
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
        "page cross-origin isolated: {}; {} cores; lingualens: one worker per engine, a worker per core for the -pool ones; ratios are against wllama-mt (every core) where it ran, else wllama (1 thread)",
        info["crossOriginIsolated"], cores
    );
    let started = Instant::now();
    for (i, model) in models.iter().enumerate() {
        let (prompt, items, pp_choice) = model_workload(model, args)?;
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
                "wgpu" | "cpu" | "cpu-int8" => {
                    json!({ "engine": "lingualens", "backend": engine, "pp_choice": pp_choice })
                }
                // The page's pool on the CPU path: a worker per core, items shared out.
                "cpu-pool" | "cpu-int8-pool" => {
                    json!({ "engine": "lingualens", "backend": engine.trim_end_matches("-pool"), "workers": cores, "pp_choice": pp_choice })
                }
                // The threaded worker (the page's where it is cross-origin isolated, as this page
                // is): one copy of the model, each pass on every core.
                "cpu-threads" | "cpu-int8-threads" => {
                    json!({ "engine": "lingualens", "backend": engine.trim_end_matches("-threads"), "threads": true, "pp_choice": pp_choice })
                }
                other => {
                    return Err(format!(
                        "unknown engine {other:?} (wllama, wllama-mt, wgpu, cpu, cpu-int8, cpu-pool, cpu-int8-pool, cpu-threads, cpu-int8-threads)"
                    ))
                }
            };
            let mut job = job;
            job["model_url"] = json!(model_url);
            job["items"] = json!(items);
            job["prompt"] = json!(prompt);
            job["decode_steps"] = json!(DECODE_TOKENS);
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

/// The decode's prompt (token ids), the items (with our token ids) and a choice that adds exactly
/// one token after the first item's context, for the prompt pass.
fn model_workload(model: &Path, args: &Args) -> Result<(Vec<u32>, Vec<Item>, String), String> {
    let source = FileSource::open(model).map_err(|e| e.to_string())?;
    let file = pollster::block_on(GgufFile::read(&source)).map_err(|e| e.to_string())?;
    let tokenizer = Tokenizer::from_gguf(&file).map_err(|e| e.to_string())?;
    let config = ModelConfig::from_gguf(&file).map_err(|e| e.to_string())?;
    // The prompt ids are drawn first from the seeded stream: drawing `lingualens bench`'s default
    // 256 makes these items the ones it times with the same --context and --items, and the prompt
    // its decode's.
    let (prompt, items) =
        workload(&tokenizer, config.vocab_size, 256, args.context, args.items).map_err(|e| e.to_string())?;
    let first = items.first().ok_or("--items must be at least 1")?;
    let pp_choice = [" the", " of", " a", " and", " answer"]
        .into_iter()
        .find(|c| lingualens::engine::encode_pair(&tokenizer, &first.context, c).is_ok_and(|(_, cont)| cont.len() == 1))
        .ok_or("no one-token choice for the prompt pass in this vocabulary")?;
    Ok((prompt, items, pp_choice.to_string()))
}

fn run_engine(browser: &Browser, engine: &str, job: &Value, timeout: Duration) -> Result<Row, String> {
    browser.eval("return window.runEngine(arguments[0])", json!([job]));
    // Poll once a second, printing each new phase the page reports (a slow engine takes minutes).
    let started = Instant::now();
    let mut phase = String::new();
    let outcome = loop {
        let state =
            browser.eval("return [window.benchResult, document.getElementById('status').textContent]", json!([]));
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
    // A log-likelihood of minus infinity (a probability that underflowed to 0 in wllama's softmax
    // over a large vocabulary) comes through JSON as null.
    let loglikelihoods: Vec<Option<Vec<Option<f64>>>> =
        serde_json::from_value(figures["loglikelihoods"].clone()).map_err(|e| e.to_string())?;
    let loglikelihoods = loglikelihoods
        .into_iter()
        .map(|item| item.map(|lls| lls.into_iter().map(|ll| ll.unwrap_or(f64::NEG_INFINITY)).collect()))
        .collect();
    let note = figures["get_logits_ms"]
        .as_f64()
        .map(|ms| format!("getLogits(-1) {ms:.1} ms a call"))
        .or_else(|| figures["wasm_memory_mib"].as_f64().map(|mib| format!("wasm memory {mib:.0} MiB")));
    let name = match engine {
        "wgpu" | "cpu" | "cpu-int8" | "cpu-pool" | "cpu-int8-pool" | "cpu-threads" | "cpu-int8-threads" => {
            format!("lingualens {engine}")
        }
        other => other.to_string(),
    };
    Ok(Row {
        engine: name,
        detail: figures["detail"].as_str().unwrap_or("").to_string(),
        load_s: number("load_s")?,
        warm_up_s: number("warm_up_s")?,
        pp: number("pp_tokens_per_s")?,
        decode: number("decode_tokens_per_s")?,
        mc: number("mc_items_per_s")?,
        pp_passes: count("pp_runs"),
        decode_runs: count("decode_runs"),
        mc_passes: count("mc_runs"),
        decoded: serde_json::from_value(figures["decoded"].clone()).map_err(|e| format!("decoded: {e}"))?,
        loglikelihoods,
        note,
    })
}

fn print_table(rows: &[Row]) {
    // The goals are against wllama on every core; wllama on one thread where that is all.
    let baseline = rows.iter().find(|r| r.engine == "wllama-mt").or_else(|| rows.iter().find(|r| r.engine == "wllama"));
    let ratio = |ours: f64, theirs: Option<f64>| theirs.map_or("-".to_string(), |t| format!("{:.2}", ours / t));
    println!(
        "  {:<27} {:>7} {:>9} {:>13} {:>6} {:>9} {:>6} {:>13} {:>6}  what",
        "engine", "load s", "warm-up s", "prompt tok/s", "ratio", "items/s", "ratio", "decode tok/s", "ratio"
    );
    for r in rows {
        println!(
            "  {:<27} {:>7.1} {:>9.1} {:>13.2} {:>6} {:>9.3} {:>6} {:>13.2} {:>6}  {}; passes: {} prompt, {} items, {} decode{}",
            r.engine,
            r.load_s,
            r.warm_up_s,
            r.pp,
            ratio(r.pp, baseline.map(|b| b.pp)),
            r.mc,
            ratio(r.mc, baseline.map(|b| b.mc)),
            r.decode,
            ratio(r.decode, baseline.map(|b| b.decode)),
            r.detail,
            r.pp_passes,
            r.mc_passes,
            r.decode_runs,
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
            let choices = pairs.iter().flat_map(|(a, b)| a.iter().zip(b.iter()));
            let finite: Vec<f64> =
                choices.clone().filter(|(x, y)| x.is_finite() && y.is_finite()).map(|(x, y)| (x - y).abs()).collect();
            let d = finite.iter().copied().fold(0.0, f64::max);
            let left_out = choices.count() - finite.len();
            let left_out =
                if left_out > 0 { format!(", {left_out} choices left out (-inf on one side)") } else { String::new() };
            let why = if r.engine.starts_with("lingualens") {
                " (llama.cpp quantizes activations; F16 KV cache)"
            } else {
                ""
            };
            println!(
                "  check: max |Δ log-likelihood| {} vs {} over {} items = {d:.3e}{why}{left_out}",
                r.engine,
                reference.engine,
                pairs.len()
            );
            // Random weights make near-ties, so a late divergence is no error.
            let agree = r.decoded.iter().zip(&reference.decoded).take_while(|(a, b)| a == b).count();
            println!(
                "  check: the first {agree} of {} greedy tokens of {} equal {}'s",
                r.decoded.len(),
                r.engine,
                reference.engine
            );
        }
    }
}

/// `--page-run TASK`: the app page runs TASK over the data under `--data` with the first `--model`,
/// started by its Run button; progress every 30 s, then the wall time from the click to the last
/// row (model load and the pool's start included), items/s and accuracy, as the page shows them.
fn page_run(args: &Args, task: &str) -> Result<(), String> {
    let dist = common::browser_prerequisites()?;
    let model = args.models.first().ok_or("--page-run needs --model FILE.gguf")?;
    let data = args.data.as_ref().ok_or("--page-run needs --data FOLDER")?;
    // The file input takes absolute paths only (WebDriver refuses `../shared/…`).
    let data = &std::fs::canonicalize(data).map_err(|e| format!("--data {}: {e}", data.display()))?;
    let name = model.file_name().map(|n| n.to_string_lossy().into_owned()).ok_or("--model names no file")?;
    let mut files = Vec::new();
    let mut folders = vec![data.clone()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).map_err(|e| format!("{}: {e}", folder.display()))?.flatten() {
            let path = entry.path();
            let data_file = path
                .extension()
                .is_some_and(|e| ["csv", "jsonl", "json", "parquet"].iter().any(|x| e.eq_ignore_ascii_case(x)));
            if path.is_dir() {
                folders.push(path);
            } else if data_file {
                files.push(path.to_string_lossy().into_owned());
            }
        }
    }
    files.sort();
    let server = StaticServer::start_with_mounts(
        dist,
        vec![("model".into(), model.parent().unwrap_or(Path::new(".")).to_path_buf())],
    );
    let browser = Browser::start(&[]);
    let mut query = format!("index.html?model=model/{}&task={task}", common::url_encode(&name));
    if let Some(n) = args.limit {
        query += &format!("&limit={n}");
    }
    if let Some(n) = args.workers {
        query += &format!("&workers={n}");
    }
    browser.goto(&server.url(&query));
    browser.wait_for(
        "the worker",
        "return document.getElementById('backend-info').dataset.label || null;",
        Duration::from_secs(120),
    );
    browser.send_keys("#task-files", &files.join("\n"));
    println!("lingualens page run: {task} with {name}, {} data files from {}", files.len(), data.display());
    // The page's main thread: its long tasks (50 ms or more, layout included) are time taken from
    // the workers on a machine with as many workers as cores.
    browser.eval(
        "window.__longTasks = { n: 0, ms: 0 };
         new PerformanceObserver(l => { for (const e of l.getEntries()) { __longTasks.n++; __longTasks.ms += e.duration; } })
           .observe({ type: 'longtask', buffered: false });",
        json!([]),
    );
    let started = Instant::now();
    browser.click("#run-start");
    let state = "const s = document.getElementById('run-summary').dataset, r = document.getElementById('run').dataset,
                       e = document.getElementById('error');
                 return { done: +(s.done || 0), total: +(s.total || 0), accuracy: s.accuracy || null, phase: r.phase,
                          workers: +(r.workers || 1), backend: document.getElementById('backend-info').dataset.label,
                          error: e.dataset.visible === 'true' ? e.textContent : null };";
    let timeout = Duration::from_secs(args.timeout_minutes * 60);
    let (mut most_workers, mut first_row) = (1, None);
    // (seconds since the click, rows done): the pace along the run.
    let mut progress: Vec<(f64, u64)> = Vec::new();
    let mut last_print = Instant::now();
    let last = loop {
        let now = browser.eval(state, json!([]));
        most_workers = most_workers.max(now["workers"].as_u64().unwrap_or(1));
        if first_row.is_none() && now["done"].as_u64().unwrap_or(0) > 0 {
            first_row = Some(started.elapsed().as_secs_f64());
        }
        progress.push((started.elapsed().as_secs_f64(), now["done"].as_u64().unwrap_or(0)));
        if now["phase"] == json!("done") || !now["error"].is_null() {
            break now;
        }
        if last_print.elapsed() >= Duration::from_secs(30) {
            eprintln!(
                "  {:>7.0} s  {} of {} items, accuracy {}",
                started.elapsed().as_secs_f64(),
                now["done"],
                now["total"],
                now["accuracy"]
            );
            last_print = Instant::now();
        }
        if started.elapsed() > timeout {
            return Err(format!("not finished after {timeout:?} (--timeout-minutes): {now}"));
        }
        std::thread::sleep(Duration::from_millis(500));
    };
    let wall = started.elapsed().as_secs_f64();
    if let Some(error) = last["error"].as_str() {
        return Err(format!("the page shows an error after {wall:.0} s: {error}"));
    }
    let done = last["done"].as_u64().unwrap_or(0);
    println!(
        "  {done} of {} items in {wall:.0} s ({:.1} min; first row after {:.1} s): {:.2} items/s, {:.2} s an item; accuracy {}; backend {}, up to {most_workers} workers",
        last["total"],
        wall / 60.0,
        first_row.unwrap_or(f64::NAN),
        done as f64 / wall,
        wall / done.max(1) as f64,
        last["accuracy"].as_str().unwrap_or("-"),
        last["backend"].as_str().unwrap_or("?"),
    );
    progress.push((wall, done));
    println!("  pace by thousand rows: {}", pace_by_thousand(&progress));
    // Each row's `ms` cell is the worker's own time on the item: beside the wall time it tells how
    // much of the run the workers spent scoring and how much waiting for the page.
    let worker_ms = browser.eval(
        "return Array.from(document.querySelectorAll('#result-rows > tr')).map(r => +(r.querySelector('td.ms')?.textContent || 0));",
        json!([]),
    );
    let worker_ms: Vec<f64> =
        worker_ms.as_array().map_or_else(Vec::new, |a| a.iter().filter_map(|v| v.as_f64()).collect());
    println!("  the workers' own time on the items by thousand rows: {}", worker_time_by_thousand(&worker_ms));
    let scoring_s = worker_ms.iter().sum::<f64>() / 1e3;
    println!(
        "  the workers were scoring {:.1} % of the run's wall time ({scoring_s:.0} s of {most_workers} × {wall:.0} s)",
        100.0 * scoring_s / (most_workers as f64 * wall),
    );
    let long = browser.eval("return window.__longTasks || null;", json!([]));
    println!(
        "  the page's main thread: {} long tasks, {:.1} s in all ({:.1} % of the run)",
        long["n"],
        long["ms"].as_f64().unwrap_or(f64::NAN) / 1e3,
        long["ms"].as_f64().unwrap_or(f64::NAN) / 10.0 / wall,
    );
    Ok(())
}

/// The mean worker time on an item over each thousand rows, in ms: where the pace falls with it,
/// the items got harder (longer contexts), not the page slower.
fn worker_time_by_thousand(ms: &[f64]) -> String {
    ms.chunks(1000)
        .enumerate()
        .map(|(i, part)| {
            format!("{}–{}: {:.0} ms", i * 1000, i * 1000 + part.len(), part.iter().sum::<f64>() / part.len() as f64)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Items/s over each thousand rows of a run, from (seconds, rows done) samples: a pace that falls
/// as rows pile up is work the page does per row that grows with the rows already drawn.
fn pace_by_thousand(progress: &[(f64, u64)]) -> String {
    let done = progress.last().map_or(0, |p| p.1);
    let first_at = |rows: u64| progress.iter().find(|p| p.1 >= rows).copied();
    let mut parts = Vec::new();
    let mut from = 0;
    while from < done {
        let to = (from + 1000).min(done);
        if let (Some(a), Some(b)) = (first_at(from.max(1)), first_at(to)) {
            if b.0 > a.0 {
                parts.push(format!("{}–{}: {:.2}/s", from, to, (b.1 - a.1) as f64 / (b.0 - a.0)));
            }
        }
        from = to;
    }
    parts.join(", ")
}
