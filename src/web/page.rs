//! The page: starts the worker, forwards the user's choices to it, and shows what comes back.
//! It never touches the device, so the UI stays responsive whatever the worker is doing.
//!
//! URL parameters: `backend=auto|wgpu|cpu` (default auto); `model=URL` (a GGUF file) with
//! `context=TEXT` and repeated `choice=TEXT` scores the choices in the worker and shows the result.

use gloo::events::EventListener;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{MessageEvent, Worker};

use super::dom;
use super::protocol::{FromWorker, ToWorker, WORKER_SCRIPT};
use crate::backend::{BackendInfo, BackendPreference};
use crate::selftest::SelfTestReport;

pub fn start() {
    console_error_panic_hook::set_once();
    if let Err(message) = run() {
        show_error(&message);
    }
}

fn run() -> Result<(), String> {
    let preference = match dom::query_param("backend") {
        Some(value) => value.parse::<BackendPreference>()?,
        None => BackendPreference::Auto,
    };
    set_status("Starting the worker…")?;

    let worker = Worker::new(WORKER_SCRIPT).map_err(|e| format!("cannot start the worker: {e:?}"))?;
    let sender = worker.clone();
    EventListener::new(&worker, "message", move |event| {
        let Some(event) = event.dyn_ref::<MessageEvent>() else { return };
        let outcome = match serde_wasm_bindgen::from_value::<FromWorker>(event.data()) {
            Ok(message) => on_message(&sender, message, preference),
            Err(e) => Err(format!("unreadable message from the worker: {e}")),
        };
        if let Err(message) = outcome {
            show_error(&message);
        }
    })
    .forget();
    EventListener::new(&worker, "error", |event| {
        let detail = event
            .dyn_ref::<web_sys::ErrorEvent>()
            .map(|e| e.message())
            .unwrap_or_else(|| "the worker script failed to load".into());
        show_error(&format!("worker error: {detail}"));
    })
    .forget();
    Ok(())
}

fn on_message(worker: &Worker, message: FromWorker, preference: BackendPreference) -> Result<(), String> {
    match message {
        FromWorker::Ready => {
            set_status("Initialising the device…")?;
            post(worker, &ToWorker::SelfTest { backend: preference })?;
            // The worker answers in order: self-test, then the model, then the scores.
            if let Some(url) = dom::query_param("model") {
                dom::by_id("score")?.remove_attribute("hidden").map_err(|_| "cannot show the score panel")?;
                post(worker, &ToWorker::LoadModel { url, backend: preference })?;
                let context = dom::query_param("context").unwrap_or_default();
                post(worker, &ToWorker::Score { context, choices: dom::query_params("choice") })?;
            }
            Ok(())
        }
        FromWorker::ModelLoaded { name, architecture, layers, vocab_size } => {
            set_status(&format!("Loaded {name}: {architecture}, {layers} layers, {vocab_size} tokens."))
        }
        FromWorker::Scores { backend, choices } => show_scores(&backend, &choices),
        FromWorker::Backend { info } => show_backend(&info),
        FromWorker::SelfTest { report } => show_selftest(&report),
        FromWorker::Error { message } => {
            show_error(&message);
            Ok(())
        }
    }
}

fn post(worker: &Worker, message: &ToWorker) -> Result<(), String> {
    let value = serde_wasm_bindgen::to_value(message).map_err(|e| e.to_string())?;
    worker.post_message(&value).map_err(|e: JsValue| format!("cannot message the worker: {e:?}"))
}

fn set_status(text: &str) -> Result<(), String> {
    dom::by_id("status")?.set_text_content(Some(text));
    Ok(())
}

fn show_error(message: &str) {
    web_sys::console::error_1(&message.into());
    if let Ok(el) = dom::by_id("error") {
        el.set_text_content(Some(message));
        dom::set_data(&el, "visible", "true");
    }
    for id in ["selftest", "score"] {
        if let Ok(el) = dom::by_id(id) {
            if el.get_attribute("data-status").as_deref() == Some("pending") {
                dom::set_data(&el, "status", "error");
            }
        }
    }
}

fn show_backend(info: &BackendInfo) -> Result<(), String> {
    let table = dom::by_id("backend-info")?;
    dom::clear(&table);
    let a = &info.adapter;
    let mut rows = vec![
        ("Backend", format!("{} ({})", info.backend.name(), a.api)),
        ("Adapter", [a.vendor.as_str(), a.architecture.as_str(), a.name.as_str()]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(" · ")),
        ("Device type", a.device_type.clone()),
    ];
    if let Some(fallback) = a.is_fallback_adapter {
        rows.push(("Software fallback adapter", if fallback { "yes" } else { "no" }.into()));
    }
    if let Some(limits) = info.limits {
        rows.push(("maxStorageBufferBindingSize", format_bytes(limits.max_storage_buffer_binding_size)));
        rows.push(("maxBufferSize", format_bytes(limits.max_buffer_size)));
    }
    if let Some(reason) = &info.fallback_reason {
        rows.push(("Why not WebGPU", reason.clone()));
    }
    for (key, value) in rows {
        dom::append(&table, &dom::key_value_row(key, &value)?)?;
    }
    dom::set_data(&table, "backend", info.backend.name());
    dom::set_data(&table, "architecture", &a.architecture);
    set_status(&format!("Running on {}.", info.backend.name()))
}

fn show_selftest(report: &SelfTestReport) -> Result<(), String> {
    show_backend(&report.backend)?;
    let body = dom::by_id("selftest-rows")?;
    dom::clear(&body);
    for check in &report.checks {
        let row = dom::element("tr", if check.passed { "pass" } else { "fail" }, "")?;
        let cells = [
            check.name.clone(),
            check.shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("×"),
            format!("{:.2e}", check.max_abs_error),
            format!("{:.0e}", check.tolerance),
            head(&check.device_head),
            head(&check.reference_head),
            if check.passed { "✓ matches".into() } else { "✗ differs".into() },
        ];
        for cell in cells {
            dom::append(&row, &dom::element("td", "", &cell)?)?;
        }
        dom::append(&body, &row)?;
    }
    let el = dom::by_id("selftest")?;
    dom::set_data(&el, "backend", report.backend.backend.name());
    dom::set_data(&el, "architecture", &report.backend.adapter.architecture);
    dom::set_data(&el, "report", &serde_json::to_string(report).unwrap_or_default());
    dom::set_data(&el, "status", if report.passed { "pass" } else { "fail" });
    set_status(&format!(
        "Self-test {} on {} in {:.0} ms.",
        if report.passed { "passed" } else { "FAILED" },
        report.backend.backend.name(),
        report.elapsed_ms
    ))
}

fn show_scores(backend: &str, choices: &[crate::engine::ContinuationScore]) -> Result<(), String> {
    let body = dom::by_id("score-rows")?;
    dom::clear(&body);
    for c in choices {
        let row = dom::element("tr", "", "")?;
        for cell in [format!("{:?}", c.continuation), format!("{:.6}", c.loglikelihood), c.is_greedy.to_string(), c.continuation_tokens.len().to_string()] {
            dom::append(&row, &dom::element("td", "", &cell)?)?;
        }
        dom::append(&body, &row)?;
    }
    let el = dom::by_id("score")?;
    dom::set_data(&el, "backend", backend);
    dom::set_data(&el, "result", &serde_json::to_string(choices).unwrap_or_default());
    dom::set_data(&el, "status", "done");
    set_status(&format!("Scored {} choices on {backend}.", choices.len()))
}

fn head(values: &[f32]) -> String {
    values.iter().map(|v| format!("{v:.5}")).collect::<Vec<_>>().join(", ")
}

fn format_bytes(bytes: u64) -> String {
    const MIB: f64 = 1024.0 * 1024.0;
    format!("{bytes} B ({:.0} MiB)", bytes as f64 / MIB)
}
