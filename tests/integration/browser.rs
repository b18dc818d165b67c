//! The page in a real headless Chromium: the worker starts, picks a backend, and the self-test
//! (matmul + softmax against f64 loops) passes on it.
//!   - with `--enable-unsafe-webgpu`, on WebGPU through Chromium's software adapter (SwiftShader);
//!   - without it, where Chromium offers no adapter, on the CPU fallback.
//!
//! Also: scores by the address (`?context=&choice=`) against the native engine, and the bench
//! page's lingualens side (one worker and the threaded one) against the native int8 engine.

use crate::common;

use std::time::Duration;

use crate::common::{browser_or_skip, screenshot_path, Browser, StaticServer, WEBGPU_FLAG};
use serde_json::{json, Value};

const SELFTEST_DONE: &str = "
    const el = document.getElementById('selftest');
    if (!el || el.dataset.status === 'pending') return null;
    return { status: el.dataset.status, report: el.dataset.report || null,
             page_error: document.getElementById('error').textContent };";

fn run_selftest(test: &str, flags: &[&str], query: &str) -> Option<Value> {
    let dist = browser_or_skip(test)?;
    let server = StaticServer::start(dist);
    let browser = Browser::start(flags);
    browser.goto(&server.url(&format!("index.html{query}")));
    let outcome = browser.wait_for("the self-test to finish", SELFTEST_DONE, Duration::from_secs(180));
    browser.screenshot(&screenshot_path(&format!("{test}.png")));
    assert_eq!(outcome["status"], json!("pass"), "self-test did not pass: {outcome:#}");
    let report: Value =
        serde_json::from_str(outcome["report"].as_str().expect("report attached")).expect("report JSON");
    eprintln!("{test}: {}", serde_json::to_string(&report).unwrap_or_default());
    Some(report)
}

#[test]
fn webgpu_selftest_passes_on_swiftshader() {
    // SwiftShader is a software adapter, which the page does not choose by itself: asked for.
    let Some(report) = run_selftest("webgpu_selftest_passes_on_swiftshader", &[WEBGPU_FLAG], "?backend=wgpu") else {
        return;
    };
    assert_eq!(report["backend"]["backend"], json!("wgpu"));
    assert_eq!(report["backend"]["adapter"]["api"], json!("BrowserWebGpu"));
    assert_eq!(report["backend"]["adapter"]["architecture"], json!("swiftshader"));
    let limits = &report["backend"]["limits"];
    assert!(limits["max_storage_buffer_binding_size"].as_u64().unwrap_or(0) >= 128 << 20, "{limits}");
    assert!(limits["max_buffer_size"].as_u64().unwrap_or(0) >= 256 << 20, "{limits}");
    for check in report["checks"].as_array().expect("checks") {
        assert_eq!(check["passed"], json!(true), "{check}");
    }
}

#[test]
fn cpu_fallback_selftest_passes_without_webgpu() {
    // No --enable-unsafe-webgpu: navigator.gpu exists but requestAdapter() finds nothing.
    let Some(report) = run_selftest("cpu_fallback_selftest_passes_without_webgpu", &[], "") else { return };
    assert_eq!(report["backend"]["backend"], json!("cpu"));
    // The CPU that the page falls back to multiplies quantized weights with 8-bit activations.
    assert_eq!(report["backend"]["activations"], json!("int8"), "{report:#}");
    let reason = report["backend"]["fallback_reason"].as_str().unwrap_or("");
    assert!(!reason.is_empty(), "a fallback must say why: {report:#}");
    let checks = report["checks"].as_array().expect("checks");
    assert_eq!(checks.len(), 3, "{report:#}");
    // This Chromium has relaxed SIMD: the page starts that build of the worker, and its int8
    // kernel equals the definition there.
    let int8 = &checks[2];
    assert!(int8["name"].as_str().unwrap_or("").contains("relaxed-simd kernel"), "{int8}");
    assert_eq!(int8["passed"], json!(true), "{int8}");
    assert_eq!(report["backend"]["int8_kernel"], json!("relaxed-simd"), "{report:#}");
}

#[test]
fn the_simd128_worker_build_passes_the_selftest_where_it_is_asked_for() {
    // ?simd=baseline: the worker build that browsers without relaxed SIMD get (SIMD128 only).
    let Some(report) = run_selftest("the_simd128_worker_build_passes_the_selftest", &[], "?simd=baseline") else {
        return;
    };
    let checks = report["checks"].as_array().expect("checks");
    let int8 =
        checks.iter().find(|c| c["name"].as_str().unwrap_or("").starts_with("int8 matmul")).expect("the int8 check");
    assert!(int8["name"].as_str().unwrap_or("").contains("simd128 kernel"), "{int8}");
    assert_eq!(int8["passed"], json!(true), "{int8}");
    assert_eq!(report["backend"]["int8_kernel"], json!("simd128"), "{report:#}");
}

#[test]
fn a_software_webgpu_adapter_is_not_chosen_over_the_cpu() {
    // --enable-unsafe-webgpu on a machine without a GPU: the adapter is SwiftShader.
    let Some(report) = run_selftest("a_software_webgpu_adapter_is_not_chosen_over_the_cpu", &[WEBGPU_FLAG], "") else {
        return;
    };
    assert_eq!(report["backend"]["backend"], json!("cpu"), "{report:#}");
    let reason = report["backend"]["fallback_reason"].as_str().unwrap_or("");
    assert!(
        reason.contains("software") && reason.contains("swiftshader"),
        "the reason names the software adapter: {report:#}"
    );
}

#[test]
fn cpu_backend_can_be_chosen_in_the_url_even_with_webgpu() {
    let Some(report) = run_selftest("cpu_backend_can_be_chosen_in_the_url", &[WEBGPU_FLAG], "?backend=cpu") else {
        return;
    };
    assert_eq!(report["backend"]["backend"], json!("cpu"));
    assert_eq!(report["backend"]["activations"], json!("f32"), "?backend=cpu is the exact path");
    assert_eq!(report["backend"]["fallback_reason"], Value::Null);
}

/// `lingualens score` through the worker: a Q4_0 GGUF fixture downloaded by the page, scored on
/// each backend, equal to the native engine's scores within 1e-3 (the exact CPU path for wgpu and
/// `cpu`, the int8 one for the CPU that `auto` falls back to and that `measure` keeps here).
/// Returns the backend panel's `data-*` (`label`, `calibration`).
fn score_in_browser(test: &str, flags: &[&str], backend: &str) -> Option<Value> {
    let dist = browser_or_skip(test)?;
    let models = common::fixture(test, "models", "tools/fixtures/models.py")?;
    let gguf = models.join("llama3_tied/gguf/llama3_tied-Q4_0.gguf");
    let context = "The year was 19";
    let choices = ["84", "99", " 42", "07 and more"];

    // The native engine on the CPU is the reference.
    let on_the_int8_cpu = matches!(backend, "auto" | "measure");
    let device = match on_the_int8_cpu {
        true => lingualens::backend::ComputeDevice::cpu_int8(),
        false => lingualens::backend::ComputeDevice::cpu(),
    };
    let lm = pollster::block_on(lingualens::engine::load(&gguf, &device)).unwrap();
    let owned: Vec<String> = choices.iter().map(|c| c.to_string()).collect();
    let native = pollster::block_on(lm.log_likelihoods(context, &owned)).unwrap();

    let server = StaticServer::start_with_mounts(dist, vec![("fixtures".into(), models)]);
    let browser = Browser::start(flags);
    let mut query = format!(
        "index.html?backend={backend}&model=fixtures/llama3_tied/gguf/llama3_tied-Q4_0.gguf&context={}",
        common::url_encode(context)
    );
    for c in choices {
        query += &format!("&choice={}", common::url_encode(c));
    }
    browser.goto(&server.url(&query));
    let done = "const el = document.getElementById('score');
        if (el.dataset.status === 'pending') return null;
        return { status: el.dataset.status, backend: el.dataset.backend || null, result: el.dataset.result || null,
                 page_error: document.getElementById('error').textContent };";
    let outcome = browser.wait_for("the scores", done, Duration::from_secs(180));
    browser.screenshot(&screenshot_path(&format!("{test}.png")));
    assert_eq!(outcome["status"], json!("done"), "{outcome:#}");
    assert_eq!(outcome["backend"], json!(if on_the_int8_cpu { "cpu-int8" } else { backend }));
    let scores: Value = serde_json::from_str(outcome["result"].as_str().unwrap()).unwrap();
    for (ours, theirs) in scores.as_array().unwrap().iter().zip(&native) {
        let ll = ours["loglikelihood"].as_f64().unwrap();
        assert!((ll - theirs.loglikelihood).abs() < 1e-3, "{test}: browser {ll} vs native {}", theirs.loglikelihood);
        assert_eq!(ours["is_greedy"], json!(theirs.is_greedy));
        assert_eq!(ours["continuation_tokens"], json!(theirs.continuation_tokens));
    }
    eprintln!("{test}: {}", scores);
    let panel = "const el = document.getElementById('backend-info');
        return { label: el.dataset.label || null, calibration: el.dataset.calibration || '' };";
    Some(browser.wait_for("the backend panel", panel, Duration::from_secs(10)))
}

#[test]
fn browser_scores_a_q4_0_model_on_webgpu_like_the_cli() {
    score_in_browser("browser_scores_a_q4_0_model_on_webgpu", &[WEBGPU_FLAG], "wgpu");
}

#[test]
fn browser_scores_a_q4_0_model_on_the_cpu_fallback_like_the_cli() {
    score_in_browser("browser_scores_a_q4_0_model_on_the_cpu_fallback", &[], "auto");
}

#[test]
fn browser_scores_a_q4_0_model_on_the_exact_cpu_path_like_the_cli() {
    score_in_browser("browser_scores_a_q4_0_model_on_the_exact_cpu_path", &[], "cpu");
}

#[test]
fn measure_times_webgpu_and_the_cpu_on_the_loaded_model_and_keeps_the_faster() {
    // ?backend=measure initialises WebGPU even on SwiftShader (which Auto never chooses) and times
    // both backends on the loaded model: the software adapter is the slower one, so the CPU is
    // kept, the scores are the int8 CPU path's, and the panel shows both speeds.
    let test = "measure_times_webgpu_and_the_cpu_on_the_loaded_model";
    let Some(panel) = score_in_browser(test, &[WEBGPU_FLAG], "measure") else { return };
    assert_eq!(panel["label"], json!("cpu-int8"), "{panel:#}");
    let calibration = panel["calibration"].as_str().unwrap_or("");
    let speeds: Vec<f64> =
        calibration.split(" tokens/s").filter_map(|part| part.rsplit(' ').next()?.parse().ok()).collect();
    assert!(calibration.contains("WebGPU") && calibration.contains("the CPU") && speeds.len() == 2, "{panel:#}");
    assert!(speeds[1] > speeds[0], "the CPU was kept, so it measured faster: {panel:#}");
    eprintln!("{test}: {calibration}");
}

/// The bench page (`tools/bench/browser/`, driven by `scripts/bench-browser.sh`) on lingualens's
/// side, one worker and the threaded one: its prompt pass, its items and its decode (the worker's
/// `Decode` request) give the native int8 engine's log-likelihoods and greedy tokens. Keeps the
/// bench page working between bench runs, which the test command does not make.
fn bench_page_matches_native(test: &str, threads: bool) {
    let Some(dist) = browser_or_skip(test) else { return };
    let Some(models) = common::fixture(test, "models", "tools/fixtures/models.py") else { return };
    let gguf = models.join("llama3_tied/gguf/llama3_tied-Q4_0.gguf");
    let lm =
        pollster::block_on(lingualens::engine::load(&gguf, &lingualens::backend::ComputeDevice::cpu_int8())).unwrap();
    let (prompt, items) = lingualens::cli::bench::workload(&lm.tokenizer, lm.config.vocab_size, 24, 20, 2).unwrap();
    let pp_choice = [" the", " of", " a", " and", " answer"]
        .into_iter()
        .find(|c| {
            lingualens::engine::encode_pair(&lm.tokenizer, &items[0].context, c).is_ok_and(|(_, cont)| cont.len() == 1)
        })
        .unwrap();
    const STEPS: usize = 12;

    let page = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/bench/browser");
    let server = StaticServer::start_isolated(dist, vec![("bench".into(), page), ("fixtures".into(), models.clone())]);
    let browser = Browser::start(&[]);
    browser.goto(&server.url("bench/bench.html"));
    browser.wait_for("the bench page", "return window.benchInfo || null", Duration::from_secs(60));
    let job = json!({
        "engine": "lingualens", "backend": "cpu-int8", "threads": threads, "pp_choice": pp_choice,
        "model_url": "/fixtures/llama3_tied/gguf/llama3_tied-Q4_0.gguf", "items": items, "prompt": prompt,
        "decode_steps": STEPS, "runs": 1, "budget_s": 1,
    });
    browser.eval("return window.runEngine(arguments[0])", json!([job]));
    let outcome =
        browser.wait_for("the bench's figures", "return window.benchResult || null", Duration::from_secs(180));
    let figures = &outcome["ok"];
    assert!(figures.is_object(), "{test}: {outcome:#}");
    let threads_used = figures["detail"].as_str().unwrap_or("");
    // The threaded worker's pool is every core (at most 8), as the page's.
    let cores = if threads { std::thread::available_parallelism().map_or(1, |n| n.get()).min(8) } else { 1 };
    assert!(threads_used.starts_with(&format!("wasm, {cores} thread")), "{test}: {threads_used}");
    for key in ["pp_tokens_per_s", "mc_items_per_s", "decode_tokens_per_s"] {
        assert!(figures[key].as_f64().is_some_and(|x| x > 0.0), "{test}: {key} in {figures:#}");
    }

    for (item, lls) in items.iter().zip(figures["loglikelihoods"].as_array().unwrap()) {
        let native = pollster::block_on(lm.log_likelihoods(&item.context, &item.choices)).unwrap();
        for (ours, theirs) in lls.as_array().unwrap().iter().zip(&native) {
            let ll = ours.as_f64().unwrap();
            assert!(
                (ll - theirs.loglikelihood).abs() < 1e-3,
                "{test}: browser {ll} vs native {}",
                theirs.loglikelihood
            );
        }
    }
    // The greedy tokens, step by step natively: equal until a step whose best two logits are
    // within 1e-2 (where another CPU's kernel may round the other way), which ends the comparison.
    let decoded: Vec<u32> = serde_json::from_value(figures["decoded"].clone()).unwrap();
    assert_eq!(decoded.len(), STEPS, "{test}");
    let mut cache = lingualens::models::KvCache::new();
    let mut input = prompt.clone();
    for (step, &theirs) in decoded.iter().enumerate() {
        let logits = pollster::block_on(lm.model.logits_cached(&input, &mut cache, 1)).unwrap();
        let mut order: Vec<usize> = (0..logits.len()).collect();
        order.sort_by(|&a, &b| logits[b].total_cmp(&logits[a]));
        if logits[order[0]] - logits[order[1]] < 1e-2 {
            eprintln!("{test}: a near tie at step {step}; compared {step} tokens");
            break;
        }
        assert_eq!(theirs, order[0] as u32, "{test}: greedy token {step}");
        input = vec![theirs];
    }
}

#[test]
fn the_bench_page_decodes_and_scores_on_one_worker_like_the_native_engine() {
    bench_page_matches_native("bench_page_one_worker", false);
}

#[test]
fn the_bench_page_decodes_and_scores_on_the_threaded_worker_like_the_native_engine() {
    bench_page_matches_native("bench_page_threads", true);
}
