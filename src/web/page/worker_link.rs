//! The page's side of its worker: starting it (the relaxed-SIMD build where the browser has
//! it), its messages in and out (`post`, `on_message`: each reply applied to the page), and a
//! worker that crashed or stopped answering replaced, with the run brought back to where it was.

use super::*;
use crate::web::webgpu;

/// The worker build to start: the threaded one where the page is cross-origin isolated (shared
/// memory needs it) unless `?threads=off`, a WebGPU `?backend=` or, for `auto`, a hardware WebGPU
/// adapter asks for another; else the one with the int8 matmul's relaxed-SIMD kernel where the
/// browser validates a relaxed-SIMD instruction (`?simd=baseline` asks for the other), the SIMD128
/// one elsewhere. All are in the bundle; a browser downloads one.
pub(super) async fn worker_script() -> &'static str {
    // The threaded worker has no WebGPU: an address that asks for it gets the other worker.
    let backend = dom::query_param("backend");
    let gpu_asked = matches!(backend.as_deref(), Some("wgpu" | "webgpu" | "gpu" | "measure"));
    let mut threads = threads_possible() && dom::query_param("threads").as_deref() != Some("off") && !gpu_asked;
    if threads && matches!(backend.as_deref(), None | Some("auto")) {
        threads = !hardware_webgpu().await;
    }
    let relaxed = dom::query_param("simd").as_deref() != Some("baseline")
        && js_sys::WebAssembly::validate(&js_sys::Uint8Array::from(&RELAXED_SIMD_PROBE[..])).unwrap_or(false);
    match (threads, relaxed) {
        (true, true) => THREADS_RELAXED_WORKER_SCRIPT,
        (true, false) => THREADS_WORKER_SCRIPT,
        (false, true) => RELAXED_WORKER_SCRIPT,
        (false, false) => WORKER_SCRIPT,
    }
}

/// How long the page waits for the browser's WebGPU adapter before it starts the threaded worker
/// anyway.
const ADAPTER_WAIT_MS: i32 = 3_000;

/// Whether `auto` runs on WebGPU here, asked where the page would otherwise start the threaded
/// worker, which has no WebGPU: a hardware adapter (by `AdapterDescription::software_reason`, the
/// worker's own rule for `auto`) gets the worker with WebGPU. A software adapter (SwiftShader,
/// llvmpipe), none, or no answer within `ADAPTER_WAIT_MS` keeps the threads on the CPU.
async fn hardware_webgpu() -> bool {
    let Some(gpu) = webgpu::navigator_gpu() else { return false };
    let adapter = webgpu::describe_adapter(&gpu, Some(ADAPTER_WAIT_MS)).await;
    adapter.is_some_and(|a| a.software_reason().is_none())
}

/// The build without threads, at the same SIMD level, for a threaded worker that could not start
/// (a browser that refuses its shared memory, a host without its files); `None` for the others.
fn without_threads(script: &'static str) -> Option<&'static str> {
    match script {
        THREADS_RELAXED_WORKER_SCRIPT => Some(RELAXED_WORKER_SCRIPT),
        THREADS_WORKER_SCRIPT => Some(WORKER_SCRIPT),
        _ => None,
    }
}

/// `crossOriginIsolated`: the page may share memory with its workers (COOP and COEP headers, from
/// the server or from the page's service worker).
pub(super) fn threads_possible() -> bool {
    js_sys::Reflect::get(&js_sys::global(), &"crossOriginIsolated".into()).is_ok_and(|v| v.is_truthy())
}

/// Routes a worker's messages and errors to the app. `generation` tells a replaced worker's late
/// events apart: they are ignored.
pub(super) fn listen(app: &Shared, worker: &Worker, generation: u32) {
    let on_worker = app.clone();
    EventListener::new(worker, "message", move |event| {
        if on_worker.borrow().generation != generation {
            return;
        }
        let Some(event) = event.dyn_ref::<MessageEvent>() else { return };
        match serde_wasm_bindgen::from_value::<FromWorker>(event.data()) {
            Ok(message) => {
                if let Err(e) = on_message(&on_worker, message) {
                    show_error(&e);
                }
            }
            Err(e) => show_error(&format!("unreadable message from the worker: {e}")),
        }
    })
    .forget();
    let on_error = app.clone();
    EventListener::new(worker, "error", move |event| {
        let (current, ready) = {
            let a = on_error.borrow();
            (a.generation == generation, a.worker_ready)
        };
        if !current {
            return;
        }
        let detail = event
            .dyn_ref::<web_sys::ErrorEvent>()
            .map(|e| e.message())
            .unwrap_or_else(|| "the worker script failed to load".into());
        let script = on_error.borrow().worker_script;
        // Before `Ready` the script itself failed: a new worker of the same build would fail the
        // same way, but a threaded one has a build without threads to fall back on.
        if ready {
            worker_crashed(&on_error, &detail);
        } else if let Some(instead) = without_threads(script) {
            web_sys::console::warn_1(
                &format!("the threaded worker did not start ({detail}); one without threads instead").into(),
            );
            on_error.borrow_mut().worker_script = instead;
            if let Ok(run) = dom::by_id("run") {
                dom::set_data(&run, "worker-script", instead);
                dom::set_data(&run, "threads-failed", &detail);
            }
            if let Err(e) = replace_worker(&on_error) {
                show_error(&e);
            }
        } else {
            show_error(&format!("worker error: {detail}"));
        }
    })
    .forget();
}

/// The worker died (a panic traps the wasm instance; an allocation failure aborts it): the item
/// it was scoring is marked failed with the message, a new worker is started, and once it is ready
/// the model is loaded again and the task prepared again (`recover_run`), and the run goes on.
pub(super) fn worker_crashed(app: &Shared, message: &str) {
    let effects = {
        let mut a = app.borrow_mut();
        a.worker_ready = false;
        a.model_loaded = false;
        a.pending = None;
        let can_recover = a.run.is_some() && a.run_prepared && a.load_request.is_some() && a.task_files.is_some();
        a.driver.update(Event::Crashed { can_recover, message })
    };
    let failed_item = effects.iter().find_map(|e| match e {
        Effect::MarkFailed { index, .. } => Some(*index),
        _ => None,
    });
    let recover = effects.contains(&Effect::Recover);
    let what = match failed_item {
        Some(i) => t_with("status-crash-item", &[("number", (i + 1).into()), ("message", message.into())]),
        None => t_with("status-crash", &[("message", message.into())]),
    };
    let next = t(if recover { "status-crash-goes-on" } else { "status-crash-restart" });
    show_error(&format!("{what}. {next}"));
    if let Err(e) = replace_worker(app) {
        show_error(&e);
    }
    apply(app, effects);
    update_summary(app);
}

pub(super) fn replace_worker(app: &Shared) -> Result<(), String> {
    let script = app.borrow().worker_script;
    let worker = Worker::new(script).map_err(|e| format!("cannot start a new worker: {e:?}"))?;
    let generation = {
        let mut a = app.borrow_mut();
        a.worker.terminate();
        a.worker = worker.clone();
        a.generation += 1;
        a.generation
    };
    listen(app, &worker, generation);
    if let Ok(run) = dom::by_id("run") {
        dom::set_data(&run, "worker-restarts", &generation.to_string());
    }
    Ok(())
}

/// In a replacement worker: the crashed worker's model and task again, under a new ticket.
pub(super) fn recover_run(app: &Shared) -> Result<(), String> {
    let (worker, load, files, task, settings, ticket, fetch) = {
        let mut a = app.borrow_mut();
        let (Some((load, files)), Some((task, fetch)), Some(run)) =
            (a.load_request.clone(), a.task_files.clone(), a.run.as_ref())
        else {
            return Err("nothing to recover: no model or task was loaded".into());
        };
        let (model, settings) = (run.model.clone(), run.settings.clone());
        a.tickets += 1;
        a.pending = Some((a.tickets, model, settings.clone()));
        (a.worker.clone(), load, files, task, settings, a.tickets, fetch)
    };
    say(key("status-reloading-after-crash"));
    trace(&format!(">{}", message_name(&load)));
    let message = serde_wasm_bindgen::to_value(&load).map_err(|e| e.to_string())?;
    attach(&message, &load, &files)?;
    worker.post_message(&message).map_err(|e| format!("cannot message the worker: {e:?}"))?;
    post(
        &worker,
        &ToWorker::PrepareTask { ticket, files: Box::new(task), settings, fetch, mirror: dom::query_param("mirror") },
    )
}

/// The last requests and replies, kept on `<body data-trace>` for tests and bug reports.
pub(super) fn trace(what: &str) {
    if let Some(body) = gloo::utils::document().body() {
        let mut log = body.get_attribute("data-trace").unwrap_or_default();
        log.push_str(what);
        log.push(' ');
        let start = log.len().saturating_sub(600);
        let start = (start..log.len()).find(|&i| log.is_char_boundary(i)).unwrap_or(0);
        let _ = body.set_attribute("data-trace", &log[start..]);
    }
}

pub(super) fn message_name<T: serde::Serialize>(message: &T) -> String {
    serde_json::to_value(message).ok().and_then(|v| v["type"].as_str().map(str::to_string)).unwrap_or_default()
}

pub(super) fn post(worker: &Worker, message: &ToWorker) -> Result<(), String> {
    trace(&format!(">{}", message_name(message)));
    let value = serde_wasm_bindgen::to_value(message).map_err(|e| e.to_string())?;
    worker.post_message(&value).map_err(|e: JsValue| format!("cannot message the worker: {e:?}"))
}

/// What the page does with each message from the worker.
///
/// Long (about 215 lines): one arm per `FromWorker` message (web/protocol.rs), most of them a few
/// lines that hand over to a `show_*` function or the driver; the match the size of the protocol is
/// kept whole so that every message's handling is found in one place.
pub(super) fn on_message(app: &Shared, message: FromWorker) -> Result<(), String> {
    trace(&format!("<{}", message_name(&message)));
    match message {
        FromWorker::Ready => {
            let (worker, preference) = {
                let a = app.borrow();
                (a.worker.clone(), a.preference)
            };
            say(key("status-device"));
            post(&worker, &ToWorker::SelfTest { backend: preference })?;
            if dom::query_param("context").is_some() {
                return legacy_score(&worker, preference);
            }
            app.borrow_mut().worker_ready = true;
            if app.borrow().driver.recovering() {
                if let Err(e) = recover_run(app) {
                    let effects = app.borrow_mut().driver.update(Event::PrepareFailed);
                    apply(app, effects);
                    return Err(e);
                }
                return Ok(());
            }
            maybe_autostart(app);
            Ok(())
        }
        FromWorker::Backend { info } => {
            app.borrow_mut().backend = info.label().to_string();
            show_backend(&info)
        }
        FromWorker::SelfTest { report } => {
            show_selftest(&report)?;
            // Nothing started by itself (the address named a model or a task without `run=1`):
            // the status line, still on "Initialising the device…", says what to do instead.
            if text::shows_key("status", "status-device") {
                say(key("status-ready"));
            }
            Ok(())
        }
        FromWorker::Download { loaded, total, from_cache, resumed_from } => {
            show_download(app, loaded, total, from_cache, resumed_from);
            Ok(())
        }
        FromWorker::NotKept { name, reason } => {
            // Used for this run, not kept: said where the models kept are listed, with what to do.
            let note = dom::by_id("storage-note")?;
            dom::set_data(&note, "file", &name);
            text::show(
                "storage-note",
                key_with("storage-not-kept", vec![("file", name.into()), ("reason", reason.into())]),
            );
            dom::set_hidden("storage-note", false);
            Ok(())
        }
        FromWorker::DataDownload { name, loaded, total, file, files, from_cache } => {
            if total == Some(loaded) {
                // Kept now: listed with the models, with its Delete button.
                spawn_local(show_cached_models());
            }
            let kb = |b: u64| Arg::Number(b as f64 / 1e3, NumberStyle::Integer);
            let (file, files) =
                (Arg::Number(file as f64, NumberStyle::Integer), Arg::Number(files as f64, NumberStyle::Integer));
            say(if from_cache {
                key_with(
                    "data-download-cache",
                    vec![("name", name.into()), ("file", file), ("files", files), ("kb", kb(loaded))],
                )
            } else {
                key_with(
                    "data-download",
                    vec![
                        ("name", name.into()),
                        ("file", file),
                        ("files", files),
                        ("kb", kb(loaded)),
                        ("total", total.map(kb).unwrap_or_else(|| "?".into())),
                    ],
                )
            });
            Ok(())
        }
        FromWorker::ModelLoaded { name, architecture, layers, vocab_size, sha256 } => {
            {
                let mut a = app.borrow_mut();
                a.model_loaded = true;
                a.model_hash = sha256;
            }
            spawn_local(show_cached_models());
            let info = dom::by_id("model-info")?;
            let vocab = Arg::Number(vocab_size as f64, NumberStyle::Integer);
            text::show(
                "model-info",
                key_with(
                    "model-loaded",
                    vec![
                        ("name", name.into()),
                        ("architecture", architecture.into()),
                        ("layers", layers.into()),
                        ("vocab", vocab),
                    ],
                ),
            );
            dom::set_data(&info, "status", "loaded");
            Ok(())
        }
        fit @ FromWorker::ModelFit { .. } => {
            let mut a = app.borrow_mut();
            a.fit_answer = Some(Ok(fit));
            if let Some(wake) = a.fit_wake.take() {
                drop(a);
                let _ = wake.call0(&JsValue::NULL);
            }
            Ok(())
        }
        FromWorker::Scores { backend, choices, .. } => show_scores(&backend, &choices),
        // Only the bench page (tools/bench/browser/) asks for a decode.
        FromWorker::Decoded { .. } => Ok(()),
        FromWorker::TaskReady {
            ticket,
            task,
            output_type,
            fingerprint,
            items,
            notes,
            warnings,
            cloze_variant,
            documents,
            facets,
            sources,
        } => {
            let current = app.borrow().pending.as_ref().map(|p| p.0);
            if current != Some(ticket) {
                return Ok(());
            }
            show_notes(&notes);
            let Some((_, model, settings)) = app.borrow_mut().pending.take() else { return Ok(()) };
            if let Some(message) = super::suite::wrong_task(app, &task) {
                let effects = app.borrow_mut().driver.update(Event::PrepareFailed);
                apply(app, effects);
                super::suite::stop_driving(app);
                return Err(message);
            }
            let effects = app.borrow_mut().driver.update(Event::TaskReady);
            let recovered = effects.iter().any(|e| matches!(e, Effect::Recovered(_)));
            apply(app, effects);
            if recovered {
                pump(app);
                return Ok(());
            }
            show_filters(&facets, &settings.filters)?;
            if let Ok(summary) = dom::by_id("run-summary") {
                dom::set_data(&summary, "documents", &documents.to_string());
            }
            if app.borrow().model_id.is_none() {
                // The model failed to load meanwhile (its error is shown).
                let effects = app.borrow_mut().driver.update(Event::PrepareFailed);
                apply(app, effects);
                return Ok(());
            }
            let mut run = Run::new(&model, &task, &fingerprint, settings, items);
            run.output_type = output_type;
            run.warnings = warnings;
            run.cloze_variant = cloze_variant;
            if let Some((_, fetch)) = &app.borrow().task_files {
                // The catalogue's URL and the size and sha256 the download was checked against.
                run.data_sources = fetch
                    .iter()
                    .map(|r| crate::catalog::SourceRecord {
                        url: r.url.clone(),
                        sha256: r.check.sha256.clone(),
                        size_bytes: r.check.size,
                    })
                    .collect();
            }
            // And the files the worker found on the Hub.
            run.data_sources.extend(sources);
            // A picked file's answers are kept under its bytes' hash, not its name, and under the
            // engine they were computed on.
            let (identity, engine) = {
                let a = app.borrow();
                (
                    a.model_hash.as_ref().map_or_else(|| model.clone(), |hash| format!("sha256:{hash}")),
                    a.backend.clone(),
                )
            };
            run.key = run_key(&identity, &engine, &fingerprint, &run.settings);
            begin(app, run, notes.len());
            Ok(())
        }
        FromWorker::ItemScored { row } => {
            let effects = app.borrow_mut().driver.update(Event::Answered { elapsed_ms: row.elapsed_ms });
            apply(app, effects);
            accept_row(app, row);
            Ok(())
        }
        FromWorker::Generating { index, text } => show_generating(app, index, &text),
        FromWorker::Tokens { index, pieces, count } => show_tokens(app, index, &pieces, count),
        FromWorker::Fertility { rows } => show_fertility(&rows),
        FromWorker::Error { stage, message, ticket } => {
            let mut a = app.borrow_mut();
            if stage == Stage::Task && a.pending.as_ref().map(|p| p.0) != ticket {
                return Ok(()); // about a task request since replaced
            }
            if stage == Stage::Crash {
                drop(a);
                worker_crashed(app, &message);
                return Ok(());
            }
            show_error(&message);
            let effects = match stage {
                Stage::Model => {
                    a.model_id = None;
                    a.model_loaded = false;
                    if let Ok(info) = dom::by_id("model-info") {
                        text::show(
                            "model-info",
                            key_with("model-not-loaded", vec![("message", message.as_str().into())]),
                        );
                        dom::set_data(&info, "status", "error");
                    }
                    a.pending = None;
                    // The status line would otherwise still say what was being tried.
                    say(key("status-model-failed"));
                    a.driver.update(Event::ModelFailed)
                }
                Stage::Task => {
                    a.pending = None;
                    say(key("status-task-failed"));
                    a.driver.update(Event::PrepareFailed)
                }
                // The run pauses.
                Stage::Item => a.driver.update(Event::ItemError { main: true }),
                _ => Vec::new(),
            };
            let wake = if stage == Stage::Model { a.fit_wake.take() } else { None };
            if wake.is_some() {
                a.fit_answer = Some(Err(message));
            }
            drop(a);
            apply(app, effects);
            if let Some(wake) = wake {
                let _ = wake.call0(&JsValue::NULL);
            }
            Ok(())
        }
    }
}
