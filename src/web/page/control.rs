//! Starting, pausing and cancelling a run: the settings from the controls, loading the model
//! (after its fit check) and preparing the task, the first rows from the checkpoint, and
//! carrying out `web::driver`'s decisions (which item to ask for, the end of the run, the
//! watchdog).

use super::*;

pub(super) fn settings_from_controls() -> Result<RunSettings, String> {
    let number = |id: &str| -> Result<Option<u64>, String> {
        let v = dom::value(id);
        let v = v.trim();
        if v.is_empty() {
            return Ok(None);
        }
        v.parse::<u64>().map(Some).map_err(|_| format!("{id}: {v:?} is not a whole number"))
    };
    let sample = number("sample")?.map(|n| n as usize);
    if sample == Some(0) {
        return Err("sample: a sample needs at least 1 item".into());
    }
    Ok(RunSettings {
        sample,
        filters: filters_from_controls(),
        limit: number("limit")?.map(|n| n as usize),
        shots: number("shots")?.map(|n| n as usize),
        seed: number("seed")?.unwrap_or(1234),
        order: match dom::value("order").trim() {
            "" => "given".into(),
            other => other.to_string(),
        },
        sample_seed: None,
    })
}

pub(super) fn start_run(app: &Shared) {
    clear_error();
    pool::stop(app);
    let a = app.clone();
    spawn_local(async move {
        if let Err(e) = prepare(&a).await {
            show_error(&e);
            let effects = a.borrow_mut().driver.update(Event::PrepareFailed);
            apply(&a, effects);
        }
    });
}

pub(super) async fn prepare(app: &Shared) -> Result<(), String> {
    if matches!(app.borrow().driver.phase(), Phase::Preparing | Phase::Running) {
        return Ok(());
    }
    // The experiment's run under way takes its settings from the experiment, not the controls.
    let settings = match suite::settings(app) {
        Some((_, settings)) => settings,
        None => settings_from_controls()?,
    };
    let (model_id, load, files) = chosen_model(app)?;
    let pace: u32 = dom::value("pace").trim().parse().unwrap_or(0);
    let (worker, effects) = {
        let mut a = app.borrow_mut();
        let effects = a.driver.update(Event::Prepare { pace_ms: pace });
        (a.worker.clone(), effects)
    };
    apply(app, effects);
    dom::set_hidden("demo-note", model_id != "demo");
    if app.borrow().model_id.as_deref() != Some(&model_id) {
        if !model_fits(app, &worker, &load, &files).await? {
            let mut a = app.borrow_mut();
            a.model_id = None;
            let effects = a.driver.update(Event::PrepareFailed);
            drop(a);
            apply(app, effects);
            return Ok(());
        }
        say(key("status-loading-model"));
        let info = dom::by_id("model-info")?;
        text::show("model-info", key("model-loading"));
        dom::set_data(&info, "status", "loading");
        // A file not kept is said again if it is not kept this time either.
        dom::set_hidden("storage-note", true);
        trace(&format!(">{}", message_name(&load)));
        let message = serde_wasm_bindgen::to_value(&load).map_err(|e| e.to_string())?;
        attach(&message, &load, &files)?;
        worker.post_message(&message).map_err(|e| format!("cannot message the worker: {e:?}"))?;
        let mut a = app.borrow_mut();
        a.model_id = Some(model_id.clone());
        a.model_loaded = false;
        a.model_hash = None;
        a.load_request = Some((load.clone(), files.clone()));
    }
    let kit = app.borrow().kit.clone();
    let (files, fetch) = task_files(&kit).await?;
    if app.borrow().driver.phase() != Phase::Preparing {
        return Ok(()); // the model failed while the task's files were read
    }
    say(key("status-preparing"));
    let ticket = {
        let mut a = app.borrow_mut();
        a.tickets += 1;
        a.pending = Some((a.tickets, model_id, settings.clone()));
        a.task_files = Some((files.clone(), fetch.clone()));
        a.tickets
    };
    post(
        &worker,
        &ToWorker::PrepareTask { ticket, files: Box::new(files), settings, fetch, mirror: dom::query_param("mirror") },
    )
}

/// Asks the worker whether the model `load` would load fits (`CheckModel`, which reads only the
/// header; of a Hugging Face folder: its config.json and safetensors headers) and
/// shows the answer in the model panel. `false` when it does not fit or could not be read: the
/// reason is on the page, nothing is downloaded, and the page stays usable.
pub(super) async fn model_fits(
    app: &Shared,
    worker: &Worker,
    load: &ToWorker,
    files: &[web_sys::File],
) -> Result<bool, String> {
    let budget_mib = dom::query_param("budget_mib").and_then(|b| b.trim().parse::<u64>().ok());
    let check = match load {
        ToWorker::LoadModel { source, backend } => {
            ToWorker::CheckModel { source: source.clone(), backend: *backend, budget_mib }
        }
        _ => return Ok(true),
    };
    say(key("status-checking-fit"));
    let info = dom::by_id("model-info")?;
    text::show("model-info", key("model-reading-header"));
    dom::set_data(&info, "status", "checking");
    let fit = dom::by_id("model-fit")?;
    dom::set_data(&fit, "fit", "checking");
    text::show("model-fit", Said::Raw(String::new()));
    dom::set_hidden("model-fit", true);

    app.borrow_mut().fit_answer = None;
    let answered = js_sys::Promise::new(&mut |wake, _| app.borrow_mut().fit_wake = Some(wake));
    trace(&format!(">{}", message_name(&check)));
    let message = serde_wasm_bindgen::to_value(&check).map_err(|e| e.to_string())?;
    attach(&message, &check, files)?;
    worker.post_message(&message).map_err(|e| format!("cannot message the worker: {e:?}"))?;
    let _ = JsFuture::from(answered).await;
    let answer = app.borrow_mut().fit_answer.take();
    let Some(Ok(FromWorker::ModelFit { name, needs, summary, refused, unchecked, .. })) = answer else {
        // The worker's error is already shown, in the panel and the error box.
        dom::set_data(&fit, "fit", "error");
        return Ok(false);
    };
    if let Some(needs) = &needs {
        dom::set_data(&fit, "needs", &needs.total.to_string());
    }
    app.borrow_mut().model_bytes = needs.as_ref().map(|n| n.total);
    dom::set_hidden("model-fit", false);
    if let Some(reason) = refused {
        dom::set_data(&fit, "fit", "refused");
        text::show("model-fit", Said::Raw(reason));
        let refused = if matches!(check, ToWorker::CheckModel { source: ModelSource::Folder { .. }, .. }) {
            "model-refused-folder"
        } else {
            "model-refused-header"
        };
        text::show("model-info", key_with(refused, vec![("name", name.into())]));
        dom::set_data(&info, "status", "refused");
        say(key("status-not-fit"));
        return Ok(false);
    }
    match unchecked {
        Some(why) => {
            dom::set_data(&fit, "fit", "unchecked");
            text::show("model-fit", key_with("model-fit-unchecked", vec![("name", name.into()), ("why", why.into())]));
        }
        None => {
            dom::set_data(&fit, "fit", "fits");
            text::show("model-fit", Said::Raw(format!("{name} {summary}.")));
        }
    }
    Ok(true)
}

/// A prepared run starts: its checkpointed rows are drawn, then the first missing item is asked for.
pub(super) fn begin(app: &Shared, run: Run, notes: usize) {
    clear_rows();
    let a = app.clone();
    spawn_local(async move {
        let mut run = run;
        let checkpoint = a.borrow().checkpoint.clone();
        let mut restored = 0;
        if let Some(c) = checkpoint {
            match c.rows(&run.key).await {
                Ok(rows) => {
                    for row in rows {
                        if run.record(row) {
                            restored += 1;
                        }
                    }
                }
                Err(e) => web_sys::console::warn_1(&e.into()),
            }
        }
        draw_all_rows(&run);
        let effects = {
            let mut s = a.borrow_mut();
            s.started_unix = js_sys::Date::now() / 1e3;
            s.selected = None;
            s.run = Some(run);
            s.run_prepared = true;
            s.saved = restored;
            s.driver.update(Event::Started)
        };
        show_saved(&a);
        dom::set_hidden("inspector", true);
        if let Ok(summary) = dom::by_id("run-summary") {
            dom::set_data(&summary, "resumed", &restored.to_string());
        }
        let mut said = vec![key("status-running")];
        if restored > 0 {
            said.push(key_with("status-resumed", vec![("n", restored.into())]));
        }
        if notes > 0 {
            said.push(key_with("status-notes", vec![("n", notes.into())]));
        }
        say(Said::Joined(said, " "));
        update_summary(&a);
        apply(&a, effects);
        if classroom::is_open(&a) {
            classroom::restore(&a);
            classroom::draw(&a);
        }
        pool::start(&a);
        pump(&a);
    });
}

/// Asks the main worker for the next item when the run is going and it holds none, then every
/// idle helper of the pool (`pool::dispatch`); finishes the run once every item is settled. What
/// to do is `web::driver`'s decision; this carries it out.
pub(super) fn pump(app: &Shared) {
    let effects = {
        let mut a = app.borrow_mut();
        let a = &mut *a;
        let Some(run) = &a.run else { return };
        let busy = pool::busy(a);
        let main_ready = a.model_loaded || a.model_id.is_some();
        a.driver.update(Event::Pump { run, main_ready, busy: &busy })
    };
    apply(app, effects);
}

/// Carries out what `web::driver` decided: every effect of every event goes through here.
pub(super) fn apply(app: &Shared, effects: Vec<Effect>) {
    for effect in effects {
        match effect {
            Effect::Ask { index, delay_ms, fault, request, watchdog_ms } => {
                let worker = app.borrow().worker.clone();
                let watched = app.clone();
                let send = move || {
                    if let Some(fault) = fault {
                        let _ = post(&worker, &fault.request());
                    }
                    if let Err(e) = post(&worker, &ToWorker::ScoreItem { index }) {
                        show_error(&e);
                    }
                    start_watchdog(&watched, request, watchdog_ms);
                };
                if delay_ms > 0 {
                    gloo::timers::callback::Timeout::new(delay_ms, send).forget();
                } else {
                    send();
                }
            }
            Effect::DispatchPool => pool::dispatch(app),
            Effect::Finished => {
                pool::stop(app);
                flush_analysis(app);
                let kept =
                    dom::by_id("run-summary").ok().and_then(|s| s.get_attribute("data-resumed")).unwrap_or_default();
                let failed = app.borrow().run.as_ref().map_or(0, |r| r.failed.len());
                let mut status = vec![match kept.parse::<usize>().unwrap_or(0) {
                    0 => key("status-finished"),
                    n => key_with("status-finished-kept", vec![("n", n.into())]),
                }];
                if failed > 0 {
                    status.push(key_with("status-failed-items", vec![("n", failed.into())]));
                }
                say(Said::Joined(status, " "));
                suite::run_finished(app);
            }
            Effect::Phase(phase) => show_controls(app, phase),
            Effect::Stuck { seconds, .. } => {
                worker_crashed(app, &format!("no answer after {seconds:.0} s (the worker stopped responding)"))
            }
            Effect::MarkFailed { index, message } => {
                let a = &mut *app.borrow_mut();
                if let Some(run) = a.run.as_mut() {
                    run.record_failure(index, &message);
                    if let Err(e) = draw_failure(run, index, &message) {
                        web_sys::console::warn_1(&e.into());
                    }
                }
            }
            // The replacement worker brings the run back once it is ready (`worker_link`'s
            // `Ready`, which sees `driver.recovering()`).
            Effect::Recover => {}
            Effect::GiveUp => {
                let mut a = app.borrow_mut();
                a.model_id = None;
                a.run_prepared = false;
            }
            Effect::Recovered(phase) => {
                app.borrow_mut().run_prepared = true;
                say(key(if phase == Phase::Paused { "status-recovered-paused" } else { "status-recovered-running" }));
            }
        }
    }
}

/// Tells the driver when request `request` has been unanswered for `limit_ms` (a worker in a
/// loop that does not end neither answers nor fails: only a timer can tell).
pub(super) fn start_watchdog(app: &Shared, request: u64, limit_ms: f64) {
    let app = app.clone();
    gloo::timers::callback::Timeout::new(limit_ms.min(u32::MAX as f64) as u32, move || {
        let effects = app.borrow_mut().driver.update(Event::Watchdog { request });
        apply(&app, effects);
    })
    .forget();
}

/// A row from any worker of the pool: kept once (by index), drawn, checkpointed.
pub(super) fn accept_row(app: &Shared, row: ItemRow) {
    let effects = app.borrow_mut().driver.update(Event::RowKept { elapsed_ms: row.elapsed_ms });
    apply(app, effects);
    let (key, checkpoint) = {
        let mut a = app.borrow_mut();
        let Some(run) = a.run.as_mut() else { return };
        if !run.record(row.clone()) {
            return;
        }
        if let Err(e) = draw_row(run, &row) {
            show_error(&e);
        }
        (run.key.clone(), a.checkpoint.clone())
    };
    if let Some(c) = checkpoint {
        let app = app.clone();
        spawn_local(async move {
            match c.put(&key, &row).await {
                Ok(()) => {
                    let same_run = app.borrow().run.as_ref().is_some_and(|r| r.key == key);
                    if same_run {
                        app.borrow_mut().saved += 1;
                        show_saved(&app);
                    }
                }
                Err(e) => {
                    web_sys::console::warn_1(&e.clone().into());
                    say(key_with("status-not-saved", vec![("number", (row.index + 1).into()), ("message", e.into())]));
                }
            }
        });
    }
    update_summary(app);
    if classroom::is_open(app) {
        classroom::draw(app);
    }
    pump(app);
}

/// What the loaders and the task file reported (skipped rows by file:row, warnings), as text.
pub(super) fn show_notes(notes: &[String]) {
    const SHOWN: usize = 20;
    let Ok(list) = dom::by_id("notes") else { return };
    dom::clear(&list);
    for n in notes.iter().take(SHOWN) {
        if let Ok(li) = dom::element("li", "", n) {
            let _ = dom::append(&list, &li);
        }
    }
    if notes.len() > SHOWN {
        if let Ok(li) = dom::element("li", "", &t_with("notes-more", &[("n", (notes.len() - SHOWN).into())])) {
            let _ = dom::append(&list, &li);
        }
    }
    dom::set_hidden("notes", notes.is_empty());
}

pub(super) fn toggle_pause(app: &Shared) {
    let effects = app.borrow_mut().driver.update(Event::TogglePause);
    let phase = app.borrow().driver.phase();
    say(key(if phase == Phase::Paused { "status-paused" } else { "status-running" }));
    if phase == Phase::Paused {
        flush_analysis(app);
    }
    apply(app, effects);
    pump(app);
}

pub(super) fn cancel_run(app: &Shared) {
    pool::stop(app);
    app.borrow_mut().suite_driving = false;
    suite::draw(app);
    let (run, checkpoint, effects) = {
        let mut a = app.borrow_mut();
        let effects = a.driver.update(Event::Cancel);
        a.pending = None;
        (a.run.take(), a.checkpoint.clone(), effects)
    };
    if let (Some(run), Some(c)) = (run, checkpoint) {
        spawn_local(async move {
            let _ = c.clear(&run.key).await;
        });
    }
    clear_rows();
    dom::set_hidden("inspector", true);
    say(key("status-cancelled"));
    update_summary(app);
    apply(app, effects);
}

pub(super) fn show_controls(app: &Shared, phase: Phase) {
    let has_rows = app.borrow().run.as_ref().is_some_and(|r| r.done() > 0);
    dom::set_enabled("run-start", matches!(phase, Phase::Idle | Phase::Done));
    dom::set_enabled("run-pause", matches!(phase, Phase::Running | Phase::Paused));
    dom::set_text("run-pause", &t(if phase == Phase::Paused { "button-resume" } else { "button-pause" }));
    dom::set_enabled("run-cancel", matches!(phase, Phase::Running | Phase::Paused | Phase::Done));
    for id in ["export-jsonl", "export-json", "export-csv", "summary-svg", "summary-print"] {
        dom::set_enabled(id, has_rows);
    }
    if has_rows && matches!(phase, Phase::Done | Phase::Paused) {
        draw_print_summary(app);
    }
    let a = app.borrow();
    dom::set_enabled("fertility-run", a.run_prepared && a.model_loaded && a.run.is_some());
    if let Ok(run) = dom::by_id("run") {
        dom::set_data(&run, "phase", phase.name());
    }
}

pub(super) fn maybe_autostart(app: &Shared) {
    let go = {
        let mut a = app.borrow_mut();
        let go = a.autostart && a.worker_ready && a.setup_done;
        if go {
            a.autostart = false;
        }
        go
    };
    if go {
        match dom::query_param("experiment") {
            Some(name) => suite::autostart(app, &name),
            None => start_run(app),
        }
    }
}
