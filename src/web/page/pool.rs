//! Every core on the CPU path: helper workers beside the main one, each holding its own copy of
//! the model and the prepared task and scoring its share of the run's items.
//!
//! Where the page is cross-origin isolated it runs the threaded worker instead (one copy of the
//! model on every core: `src/bin/worker_threads.rs`) and starts no helper; separate workers need
//! neither shared memory nor isolation. A helper is started when a run begins on the CPU
//! (`web::run::pool_size` decides how many: one per core within the memory), is sent the main
//! worker's model request (from Cache Storage or the same `File`s, so nothing is downloaded twice)
//! and the run's task, and joins once the items it prepared equal the run's. From then on `pump`
//! asks every idle worker for the next item no other worker holds (`Run::next_index_besides`);
//! a row is kept once, by index, whichever worker sends it, so rows, the checkpoint, pause and
//! reload are as with one worker. A helper that crashes or stops answering marks its item failed,
//! as the main worker's crash does, and leaves the pool; the run goes on with the others.

use super::*;

/// One helper worker.
pub(super) struct Helper {
    id: u32,
    worker: Worker,
    /// Its task is prepared and equal to the run's: it can be asked for items.
    ready: bool,
    /// The item asked of it and not answered yet, and that request's number (for its watchdog).
    scoring: Option<(usize, u64)>,
}

/// The items the helpers are scoring now.
pub(super) fn busy(a: &App) -> Vec<usize> {
    a.helpers.iter().filter_map(|h| h.scoring.map(|(i, _)| i)).collect()
}

/// Starts helpers for the run that just began, up to the pool size, when the run is on the CPU
/// path and not paced (a paced run is watched item by item; more workers would not show it)
/// unless `?workers=N` asks for them.
pub(super) fn start(app: &Shared) {
    stop(app);
    let wanted = {
        let a = app.borrow();
        let on_cpu = a.backend.starts_with("cpu");
        let asked = dom::query_param("workers").and_then(|n| n.trim().parse().ok());
        if !on_cpu
            || (a.driver.pace_ms() > 0 && asked.is_none())
            || a.load_request.is_none()
            || a.task_files.is_none()
            || a.run.is_none()
        {
            return;
        }
        let threads = [THREADS_WORKER_SCRIPT, THREADS_RELAXED_WORKER_SCRIPT].contains(&a.worker_script);
        let device = crate::web::run::Device { threads, ..device() };
        let size = crate::web::run::pool_size(asked, device, a.model_bytes);
        show_plan(&size);
        size.workers
    };
    for _ in 1..wanted {
        if let Err(e) = add(app) {
            web_sys::console::warn_1(&format!("a helper worker could not start: {e}").into());
            break;
        }
    }
    show_size(app);
}

/// Ends every helper (the run finished, was cancelled or replaced); an item one of them held is
/// asked again by `pump` if the run goes on.
pub(super) fn stop(app: &Shared) {
    let helpers = std::mem::take(&mut app.borrow_mut().helpers);
    for h in &helpers {
        h.worker.terminate();
    }
    if !helpers.is_empty() {
        show_size(app);
    }
}

/// Asks every ready, idle helper for the next item that no worker holds (after the run's pace).
pub(super) fn dispatch(app: &Shared) {
    loop {
        let (worker, index, request, limit_ms, id, pace, fault) = {
            let mut a = app.borrow_mut();
            if a.driver.phase() != Phase::Running {
                return;
            }
            let Some(slot) = a.helpers.iter().position(|h| h.ready && h.scoring.is_none()) else { return };
            let mut taken = busy(&a);
            taken.extend(a.driver.scoring());
            let Some(index) = a.run.as_ref().and_then(|r| r.next_index_besides(&taken)) else { return };
            let crash_helper = std::mem::take(&mut a.crash_helper);
            let (request, limit_ms, fault) = a.driver.ask_helper(index, crash_helper);
            let fault = fault.map(Fault::request);
            let pace = a.driver.pace_ms();
            let h = &mut a.helpers[slot];
            h.scoring = Some((index, request));
            (h.worker.clone(), index, request, limit_ms, h.id, pace, fault)
        };
        let asked = app.clone();
        let ask = move || {
            if let Some(fault) = fault {
                let _ = send(&worker, &fault);
            }
            if let Err(e) = send(&worker, &ToWorker::ScoreItem { index }) {
                failed(&asked, id, &e);
                return;
            }
            watch(&asked, id, request, limit_ms);
        };
        if pace > 0 {
            gloo::timers::callback::Timeout::new(pace, ask).forget();
        } else {
            ask();
        }
    }
}

/// The helper with `id` sent a row. `#run[data-helper-rows]` counts the rows helpers sent.
fn answered(app: &Shared, id: u32, row: ItemRow) {
    if let Some(h) = app.borrow_mut().helpers.iter_mut().find(|h| h.id == id) {
        h.scoring = None;
    }
    if let Ok(run) = dom::by_id("run") {
        let sent = run.get_attribute("data-helper-rows").and_then(|n| n.parse::<u64>().ok()).unwrap_or(0);
        dom::set_data(&run, "helper-rows", &(sent + 1).to_string());
    }
    accept_row(app, row);
}

fn add(app: &Shared) -> Result<(), String> {
    let script = app.borrow().worker_script;
    let worker = Worker::new(script).map_err(|e| format!("{e:?}"))?;
    let id = {
        let mut a = app.borrow_mut();
        a.helper_ids += 1;
        let id = a.helper_ids;
        a.helpers.push(Helper { id, worker: worker.clone(), ready: false, scoring: None });
        id
    };
    let on_message = app.clone();
    EventListener::new(&worker, "message", move |event| {
        let Some(event) = event.dyn_ref::<MessageEvent>() else { return };
        match serde_wasm_bindgen::from_value::<FromWorker>(event.data()) {
            Ok(message) => on_helper_message(&on_message, id, message),
            Err(e) => failed(&on_message, id, &format!("unreadable message: {e}")),
        }
    })
    .forget();
    let on_error = app.clone();
    EventListener::new(&worker, "error", move |event| {
        let detail =
            event.dyn_ref::<web_sys::ErrorEvent>().map(|e| e.message()).unwrap_or_else(|| "the worker failed".into());
        failed(&on_error, id, &detail);
    })
    .forget();
    Ok(())
}

fn on_helper_message(app: &Shared, id: u32, message: FromWorker) {
    if !app.borrow().helpers.iter().any(|h| h.id == id) {
        return; // a helper that has left the pool
    }
    match message {
        FromWorker::Ready => {
            if let Err(e) = prepare(app, id) {
                failed(app, id, &e);
            }
        }
        FromWorker::TaskReady { items, .. } => {
            let same = app.borrow().run.as_ref().is_some_and(|r| r.items == items);
            if !same {
                failed(app, id, "it prepared other items than the run's");
                return;
            }
            if let Some(h) = app.borrow_mut().helpers.iter_mut().find(|h| h.id == id) {
                h.ready = true;
            }
            show_size(app);
            dispatch(app);
        }
        FromWorker::ItemScored { row } => answered(app, id, row),
        FromWorker::Error { stage, message, .. } => match stage {
            Stage::Item => {
                // As with the main worker: the error is shown and the run pauses.
                if let Some(h) = app.borrow_mut().helpers.iter_mut().find(|h| h.id == id) {
                    h.scoring = None;
                }
                show_error(&message);
                let effects = app.borrow_mut().driver.update(Event::ItemError { main: false });
                apply(app, effects);
            }
            _ => failed(app, id, &message),
        },
        FromWorker::Generating { index, text } => {
            let _ = super::show_generating(app, index, &text);
        }
        // Progress, the backend, the model's description: the main worker's are shown.
        _ => {}
    }
}

/// The model request and the run's task, sent to a helper that has just started.
fn prepare(app: &Shared, id: u32) -> Result<(), String> {
    let (worker, load, files, task, settings, fetch) = {
        let a = app.borrow();
        let h = a.helpers.iter().find(|h| h.id == id).ok_or("gone")?;
        let (Some((load, files)), Some((task, fetch)), Some(run)) =
            (a.load_request.clone(), a.task_files.clone(), a.run.as_ref())
        else {
            return Err("no model or task to give it".into());
        };
        // The CPU path the main worker is on, named: a helper must not decide differently.
        let backend = if a.backend == "cpu-int8" { BackendPreference::CpuInt8 } else { BackendPreference::Cpu };
        (h.worker.clone(), with_backend(load, backend), files, task, run.settings.clone(), fetch)
    };
    let message = serde_wasm_bindgen::to_value(&load).map_err(|e| e.to_string())?;
    attach(&message, &load, &files)?;
    worker.post_message(&message).map_err(|e| format!("cannot message it: {e:?}"))?;
    send(
        &worker,
        &ToWorker::PrepareTask {
            ticket: 0,
            files: Box::new(task),
            settings,
            fetch,
            mirror: dom::query_param("mirror"),
        },
    )
}

fn with_backend(load: ToWorker, backend: BackendPreference) -> ToWorker {
    match load {
        ToWorker::LoadModel { source, .. } => ToWorker::LoadModel { source, backend },
        other => other,
    }
}

/// Like `post`, without the page's trace (which follows the main worker).
fn send(worker: &Worker, message: &ToWorker) -> Result<(), String> {
    let value = serde_wasm_bindgen::to_value(message).map_err(|e| e.to_string())?;
    worker.post_message(&value).map_err(|e: JsValue| format!("cannot message it: {e:?}"))
}

/// A helper crashed, stopped answering, or could not take the model or the task: it leaves the
/// pool, and the item it held is marked failed (as the main worker's crash marks it).
fn failed(app: &Shared, id: u32, message: &str) {
    let helper = {
        let mut a = app.borrow_mut();
        let Some(slot) = a.helpers.iter().position(|h| h.id == id) else { return };
        a.helpers.remove(slot)
    };
    helper.worker.terminate();
    web_sys::console::warn_1(&format!("helper worker {id} left the pool: {message}").into());
    if let Some((index, _)) = helper.scoring {
        {
            let mut a = app.borrow_mut();
            if let Some(run) = a.run.as_mut() {
                run.record_failure(index, message);
            }
        }
        let a = app.borrow();
        if let Some(run) = &a.run {
            let _ = draw_failure(run, index, message);
        }
        drop(a);
        show_error(&format!("A helper worker failed while scoring item {}: {message}. The run goes on with the other workers (the item is marked failed).", index + 1));
        update_summary(app);
    }
    show_size(app);
    pump(app);
}

/// Treats the helper's request `request` as a crash if it is still unanswered after `limit_ms`.
fn watch(app: &Shared, id: u32, request: u64, limit_ms: f64) {
    let app = app.clone();
    gloo::timers::callback::Timeout::new(limit_ms.min(u32::MAX as f64) as u32, move || {
        let stuck = app.borrow().helpers.iter().any(|h| h.id == id && h.scoring.is_some_and(|(_, r)| r == request));
        if stuck {
            failed(&app, id, &format!("no answer after {:.0} s (the worker stopped responding)", limit_ms / 1000.0));
        }
    })
    .forget();
}

/// What the page knows of the device: `navigator`'s cores and memory (where the browser says),
/// and whether this is an iPhone or iPad (an iPad in desktop mode says "MacIntel" with touch).
fn device() -> crate::web::run::Device {
    let navigator = gloo::utils::window().navigator();
    let cores = Some(navigator.hardware_concurrency() as usize).filter(|&n| n > 0);
    let memory = js_sys::Reflect::get(&navigator, &"deviceMemory".into())
        .ok()
        .and_then(|m| m.as_f64())
        .filter(|g| g.is_finite() && *g > 0.0)
        .map(|g| (g * (1u64 << 30) as f64) as u64);
    let agent = navigator.user_agent().unwrap_or_default();
    let ios = ["iPhone", "iPad", "iPod"].iter().any(|d| agent.contains(d))
        || (navigator.platform().unwrap_or_default() == "MacIntel" && navigator.max_touch_points() > 1);
    crate::web::run::Device { cores, memory, ios, threads: false }
}

/// The pool's size and why, as a row of the device panel (`#device-workers`, replaced at each
/// run) with `data-workers` and `data-budget` (bytes; empty where `?workers=` decided).
fn show_plan(size: &crate::web::run::PoolSize) {
    let Ok(table) = dom::by_id("backend-info") else { return };
    if let Ok(old) = dom::by_id("device-workers") {
        old.remove();
    }
    if let Ok(row) = dom::key_value_row(&t("device-workers"), &size.why) {
        row.set_id("device-workers");
        dom::set_data(&row, "workers", &size.workers.to_string());
        dom::set_data(&row, "budget", &size.budget.map(|b| b.to_string()).unwrap_or_default());
        let _ = dom::append(&table, &row);
    }
}

/// `#run[data-workers]`: the workers scoring the run (the main one and the ready helpers), and
/// `data-helpers-starting`.
fn show_size(app: &Shared) {
    let a = app.borrow();
    let ready = a.helpers.iter().filter(|h| h.ready).count();
    if let Ok(run) = dom::by_id("run") {
        dom::set_data(&run, "workers", &(1 + ready).to_string());
        dom::set_data(&run, "helpers-starting", &(a.helpers.len() - ready).to_string());
    }
}
