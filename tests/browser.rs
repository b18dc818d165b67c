//! The page in a real headless Chromium: the worker starts, picks a backend, and the self-test
//! (matmul + softmax against f64 loops) passes on it.
//!   - with `--enable-unsafe-webgpu`, on WebGPU through Chromium's software adapter (SwiftShader);
//!   - without it, where Chromium offers no adapter, on the CPU fallback.

mod common;

use std::time::Duration;

use common::{browser_or_skip, screenshot_path, Browser, StaticServer, WEBGPU_FLAG};
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
    let report: Value = serde_json::from_str(outcome["report"].as_str().expect("report attached")).expect("report JSON");
    eprintln!("{test}: {}", serde_json::to_string(&report).unwrap_or_default());
    Some(report)
}

#[test]
fn webgpu_selftest_passes_on_swiftshader() {
    let Some(report) = run_selftest("webgpu_selftest_passes_on_swiftshader", &[WEBGPU_FLAG], "") else { return };
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
    let reason = report["backend"]["fallback_reason"].as_str().unwrap_or("");
    assert!(!reason.is_empty(), "a fallback must say why: {report:#}");
    assert_eq!(report["checks"].as_array().map(|c| c.len()), Some(2));
}

#[test]
fn cpu_backend_can_be_chosen_in_the_url_even_with_webgpu() {
    let Some(report) = run_selftest("cpu_backend_can_be_chosen_in_the_url", &[WEBGPU_FLAG], "?backend=cpu") else { return };
    assert_eq!(report["backend"]["backend"], json!("cpu"));
    assert_eq!(report["backend"]["fallback_reason"], Value::Null);
}
