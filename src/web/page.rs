//! The page: starts the worker, turns the user's choices into requests, and draws what comes back.
//! It never touches the device, so the UI stays responsive whatever the worker is doing.
//!
//! A run is driven from here one item at a time: the page asks the worker to score the first item
//! that has no row, draws the row when it arrives, checkpoints it to IndexedDB, and asks for the
//! next. Pausing is not asking; a reload finds the checkpoint and asks only for what is missing.
//!
//! URL parameters (so a link can carry a whole run): `model=demo|<catalog id>|<URL>`,
//! `task=demo|dzen_en|dzen_dz|dzen_dz_en|dzen_en_cloze|dzen_dz_cloze|dzen_dz_en_cloze` (the DZEN tasks read the CSVs the user gives), `limit=N`, `shots=K`, `seed=S`, `order=given|shuffle:N|gold-first|gold-last|rotations`, `pace=MS` (a pause between items, for watching),
//! `filter=FIELD:VALUE` (repeatable: only the documents with that metadata), `sample=N` (a seeded random sample),
//! `run=1` (start at once), `backend=auto|wgpu|cpu|cpu-int8`, `workers=N` (the CPU pool's size, see
//! `pool`), `simd=baseline` (start the SIMD128 build of the worker even where relaxed SIMD is there),
//! `budget_mib=N` (check models against N MiB instead of the backend's memory, to see or test a refusal),
//! `lang=en|dz|am|ti|om|ky|ru` (the interface's language, see `text`), `mode=classroom` (classroom mode,
//! see `classroom`; the run starts by itself). With no parameters the demo runs. The older
//! `model=URL&context=TEXT&choice=…` scores choices once (the score panel under "Device").

mod classroom;
mod pool;
mod text;

use std::cell::RefCell;
use std::rc::Rc;

use gloo::events::EventListener;
use serde::Deserialize;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::{Element, MessageEvent, Worker};

use super::checkpoint::Checkpoint;
use super::dom;
use super::protocol::{Facet, FertilityRow, FromWorker, ItemRow, ItemView, ModelCheck, ModelSource, RunSettings, Stage, ToWorker, RELAXED_SIMD_PROBE, RELAXED_WORKER_SCRIPT, WORKER_SCRIPT};
use super::run::{is_gguf, is_task_file, probabilities, run_key, sort_dropped, top_level_files, CollapsedPosition, Run};
use crate::backend::{BackendInfo, BackendPreference};
use crate::selftest::SelfTestReport;
use crate::tasks::bundle::{NamedFile, TaskFiles};
use crate::web::i18n::{Arg, NumberStyle};
use text::{key, key_with, t, t_with, Said};

const DEMO_MODEL: &str = "models/demo/lingualens-demo-Q8_0.gguf";
const DEMO_TASK: [&str; 2] = ["datasets/tasks/demo/demo.yaml", "datasets/tasks/demo/demo.jsonl"];
/// Built-in tasks served with the app whose data the user gives (`dataset_path: lingualens`: DZEN's
/// CSVs are read from the user's files, never served): the task's value in `#task-select` and
/// its files, the task YAML first.
const DATA_TASKS: [(&str, &[&str]); 6] = [
    ("dzen_en_cloze", &[DZEN_EN_CLOZE, DZEN_CLOZE_COMMON, DZEN_COMMON]),
    ("dzen_dz_cloze", &[DZEN_DZ_CLOZE, DZEN_CLOZE_COMMON, DZEN_COMMON]),
    ("dzen_dz_en_cloze", &[DZEN_DZ_EN_CLOZE, DZEN_CLOZE_COMMON, DZEN_COMMON]),
    ("dzen_en", &["datasets/tasks/dzen/dzen_en.yaml", DZEN_COMMON]),
    ("dzen_dz", &["datasets/tasks/dzen/dzen_dz.yaml", DZEN_COMMON]),
    ("dzen_dz_en", &["datasets/tasks/dzen/dzen_dz_en.yaml", DZEN_COMMON]),
];
const DZEN_COMMON: &str = "datasets/tasks/dzen/dzen_common_yaml";
const DZEN_CLOZE_COMMON: &str = "datasets/tasks/dzen/dzen_cloze_common_yaml";
const DZEN_EN_CLOZE: &str = "datasets/tasks/dzen/dzen_en_cloze.yaml";
const DZEN_DZ_CLOZE: &str = "datasets/tasks/dzen/dzen_dz_cloze.yaml";
const DZEN_DZ_EN_CLOZE: &str = "datasets/tasks/dzen/dzen_dz_en_cloze.yaml";
const CATALOG: &str = "models/catalog.json";
/// The worker's model cache (`web::download`), listed and emptied from here.
const MODEL_CACHE: &str = "lingualens-models-v1";

/// A model a user can pick from the list (`models/catalog.json`).
#[derive(Debug, Clone, Deserialize)]
struct CatalogEntry {
    id: String,
    name: String,
    url: String,
    #[serde(default)]
    size_bytes: Option<u64>,
    #[serde(default)]
    quantization: Option<String>,
    #[serde(default)]
    licence: Option<String>,
    #[serde(default)]
    sha256: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Catalog {
    models: Vec<CatalogEntry>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Phase {
    Idle,
    Preparing,
    Running,
    Paused,
    Done,
}

struct App {
    worker: Worker,
    /// The worker build this page starts (`worker_script`), for replacements and the pool too.
    worker_script: &'static str,
    preference: BackendPreference,
    backend: String,
    checkpoint: Option<Rc<Checkpoint>>,
    catalog: Vec<CatalogEntry>,
    /// The model the worker holds (or is loading), by identity; `loaded` once it answered.
    model_id: Option<String>,
    model_loaded: bool,
    /// The task request being prepared (its ticket) and the model and settings it is for; an
    /// answer with another ticket is a late reply to a request the user has since replaced.
    pending: Option<(u32, String, RunSettings)>,
    tickets: u32,
    run: Option<Run>,
    /// Whether `run` is the task the worker has prepared (not an imported one).
    run_prepared: bool,
    /// Saved runs opened to compare with `run`, with their file names: the first is run B of the
    /// item-by-item comparison; all of them join the same-question table (English, Dzongkha, and
    /// Dzongkha with the translation appended are three runs).
    comparisons: Vec<(String, Run)>,
    phase: Phase,
    in_flight: bool,
    pace_ms: u32,
    started_unix: f64,
    selected: Option<usize>,
    /// A run starts by itself once the worker is ready and the checkpoint store and the
    /// catalog are open (so `model=<catalog id>` resolves and a reload finds its rows).
    autostart: bool,
    worker_ready: bool,
    setup_done: bool,
    /// When the current download started (ms), for its rate and ETA.
    download_started: f64,
    /// The pending fit check: its answer once it came (`ModelFit`, or the worker's model
    /// error), and the function that wakes `ask_fit`.
    fit_answer: Option<Result<FromWorker, String>>,
    fit_wake: Option<js_sys::Function>,
    analysis: Analysis,
    /// Bumped each time the worker is replaced; a replaced worker's late events are ignored.
    generation: u32,
    /// The last model request and its files, to load the model again into a replacement worker
    /// (a catalog model comes from Cache Storage then, a picked file from the same `File`).
    load_request: Option<(ToWorker, Vec<web_sys::File>)>,
    /// The last task's files, to prepare the task again in a replacement worker.
    task_files: Option<TaskFiles>,
    /// The item whose `ScoreItem` was sent and not answered yet.
    scoring: Option<usize>,
    /// While a replacement worker is brought back to where the crashed one was: the phase the run
    /// goes back to once its task is prepared again.
    recovering: Option<Phase>,
    /// Worker crashes since the last answered item: past `MAX_CRASHES_IN_A_ROW` the page stops
    /// bringing the run back (a model whose every item crashes the worker).
    crashes_in_a_row: u32,
    /// `?crash_item=N` / `?hang_item=N`: crash the worker (or make it stop answering) before
    /// item N, once, so tests can drive the recovery.
    crash_item: Option<usize>,
    hang_item: Option<usize>,
    /// `?crash_helper=1`: crash the first helper worker on the first item it is asked for, once.
    crash_helper: bool,
    /// Bumped for each `ScoreItem` sent: the watchdog of an earlier request does not fire.
    requests: u64,
    /// The slowest answer of this page so far, in ms: the watchdog waits 20 times that.
    slowest_ms: f64,
    /// The watchdog's floor in seconds (`?watchdog_s=`, for tests; `WATCHDOG_FLOOR_S` otherwise).
    watchdog_floor_s: u32,
    /// The run's rows whose IndexedDB transaction has committed (restored ones included): only
    /// these survive a reload.
    saved: usize,
    /// The loaded model's sha256 when it is a picked file or folder (`ModelLoaded`).
    model_hash: Option<String>,
    /// What one copy of the model needs in memory (the fit check's total), for the pool's size.
    model_bytes: Option<u64>,
    /// The CPU pool's helper workers (`pool`), and the last id given to one.
    helpers: Vec<pool::Helper>,
    helper_ids: u32,
    /// Classroom mode's state while it is shown (`classroom`).
    classroom: Option<super::classroom::Classroom>,
}

const MAX_CRASHES_IN_A_ROW: u32 = 3;

/// A `ScoreItem` unanswered after this many seconds, and after 20 times the slowest answer so
/// far, means the worker has stopped (a loop that does not end): it is treated as a crash. The
/// floor leaves room for a first item that also compiles the GPU's shaders on a slow laptop.
const WATCHDOG_FLOOR_S: u32 = 300;

/// The analysis views, each a box in index.html that is drawn from the run as a whole.
const VIEWS: [&str; 4] = ["view-breakdown", "view-bias", "view-parallel", "compare"];

/// At least this long between two redraws of the analysis views while rows arrive, and at least
/// four times as long as the last redraw took: however long the run, drawing them takes at most
/// about a fifth of the page's time, instead of a redraw of every table for every row.
const ANALYSIS_INTERVAL_MS: f64 = 250.0;

/// Which analysis views are out of date and which are on screen (`IntersectionObserver`); a view
/// off screen is drawn when it scrolls into view, or when the run stops (`flush_analysis`).
struct Analysis {
    dirty: [bool; VIEWS.len()],
    visible: [bool; VIEWS.len()],
    scheduled: bool,
    /// Not before this time (ms, `Date.now()`).
    next_at: f64,
}

type Shared = Rc<RefCell<App>>;

pub fn start() {
    console_error_panic_hook::set_once();
    record_policy_violations();
    if let Err(message) = init() {
        show_error(&message);
    }
}

/// Anything the Content-Security-Policy (www/index.html) blocks is listed on
/// `<body data-csp-violations>` and in the console: the browser tests require the list empty.
fn record_policy_violations() {
    EventListener::new(&gloo::utils::document(), "securitypolicyviolation", |event| {
        let field = |name: &str| js_sys::Reflect::get(event, &name.into()).ok().and_then(|v| v.as_string()).unwrap_or_default();
        let what = format!("{} {}", field("effectiveDirective"), field("blockedURI"));
        web_sys::console::error_1(&format!("Content-Security-Policy blocked: {what}").into());
        if let Some(body) = gloo::utils::document().body() {
            let mut list = body.get_attribute("data-csp-violations").unwrap_or_default();
            list.push_str(&what);
            list.push(';');
            let _ = body.set_attribute("data-csp-violations", &list);
        }
    })
    .forget();
}

fn init() -> Result<(), String> {
    let preference = match dom::query_param("backend") {
        Some(value) => value.parse::<BackendPreference>()?,
        None => BackendPreference::Auto,
    };
    text::init()?;
    say(key("status-starting"));
    let script = worker_script();
    let worker = Worker::new(script).map_err(|e| format!("cannot start the worker: {e:?}"))?;
    if let Ok(run) = dom::by_id("run") {
        dom::set_data(&run, "worker-script", script);
    }
    let app: Shared = Rc::new(RefCell::new(App {
        worker: worker.clone(),
        worker_script: script,
        preference,
        backend: String::new(),
        checkpoint: None,
        catalog: Vec::new(),
        model_id: None,
        model_loaded: false,
        pending: None,
        tickets: 0,
        run: None,
        run_prepared: false,
        comparisons: Vec::new(),
        phase: Phase::Idle,
        in_flight: false,
        pace_ms: 0,
        started_unix: 0.0,
        selected: None,
        autostart: dom::query_param("context").is_none()
            && (!dom::query_params_present() || dom::query_param("run").as_deref() == Some("1")),
        worker_ready: false,
        setup_done: false,
        download_started: 0.0,
        fit_answer: None,
        fit_wake: None,
        analysis: Analysis { dirty: [false; VIEWS.len()], visible: [true; VIEWS.len()], scheduled: false, next_at: 0.0 },
        generation: 0,
        load_request: None,
        task_files: None,
        scoring: None,
        recovering: None,
        crashes_in_a_row: 0,
        crash_item: dom::query_param("crash_item").and_then(|n| n.trim().parse().ok()),
        hang_item: dom::query_param("hang_item").and_then(|n| n.trim().parse().ok()),
        crash_helper: dom::query_param("crash_helper").as_deref() == Some("1"),
        requests: 0,
        slowest_ms: 0.0,
        watchdog_floor_s: dom::query_param("watchdog_s").and_then(|n| n.trim().parse().ok()).filter(|&s| s > 0).unwrap_or(WATCHDOG_FLOOR_S),
        saved: 0,
        model_hash: None,
        model_bytes: None,
        helpers: Vec::new(),
        helper_ids: 0,
        classroom: None,
    }));
    listen(&app, &worker, 0);

    apply_url_parameters();
    wire_controls(&app)?;
    classroom::wire(&app)?;
    if dom::query_param("mode").as_deref() == Some("classroom") {
        // The run starts by itself once the worker is ready, and its questions come up here.
        if dom::query_param("context").is_none() {
            app.borrow_mut().autostart = true;
        }
        classroom::open(&app, false);
    }
    observe_views(&app);
    // The service worker (www/sw.js) makes later visits work offline; without one (a non-secure
    // origin, a private window) the app works as before, online.
    let _ = gloo::utils::window().navigator().service_worker().register("sw.js");
    let setup = app.clone();
    spawn_local(async move {
        match Checkpoint::open().await {
            Ok(c) => setup.borrow_mut().checkpoint = Some(Rc::new(c)),
            Err(e) => web_sys::console::warn_1(&e.into()),
        }
        load_catalog(&setup).await;
        show_cached_models().await;
        setup.borrow_mut().setup_done = true;
        maybe_autostart(&setup);
    });
    Ok(())
}

/// The worker build to start: the one with the int8 matmul's relaxed-SIMD kernel where the
/// browser validates a relaxed-SIMD instruction (`?simd=baseline` asks for the other), the SIMD128
/// one elsewhere. Both are in the bundle; a browser downloads one.
fn worker_script() -> &'static str {
    if dom::query_param("simd").as_deref() == Some("baseline") {
        return WORKER_SCRIPT;
    }
    let probe = js_sys::Uint8Array::from(&RELAXED_SIMD_PROBE[..]);
    match js_sys::WebAssembly::validate(&probe) {
        Ok(true) => RELAXED_WORKER_SCRIPT,
        _ => WORKER_SCRIPT,
    }
}

/// Routes a worker's messages and errors to the app. `generation` tells a replaced worker's late
/// events apart: they are ignored.
fn listen(app: &Shared, worker: &Worker, generation: u32) {
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
        // Before `Ready` the script itself failed: a new worker would fail the same way.
        if ready {
            worker_crashed(&on_error, &detail);
        } else {
            show_error(&format!("worker error: {detail}"));
        }
    })
    .forget();
}

/// The worker died (a panic traps the wasm instance; an allocation failure aborts it): the item
/// it was scoring is marked failed with the message, a new worker is started, and once it is ready
/// the model is loaded again and the task prepared again (`recover_run`), and the run goes on.
fn worker_crashed(app: &Shared, message: &str) {
    let (failed_item, recover) = {
        let mut a = app.borrow_mut();
        a.crashes_in_a_row += 1;
        a.worker_ready = false;
        a.model_loaded = false;
        a.in_flight = false;
        a.pending = None;
        let failed_item = a.scoring.take();
        if let (Some(i), Some(run)) = (failed_item, a.run.as_mut()) {
            run.record_failure(i, message);
        }
        // A crash while a previous one was being recovered from keeps the phase from before it.
        let phase = a.recovering.take().unwrap_or(a.phase);
        let recover = a.run.is_some()
            && a.run_prepared
            && a.load_request.is_some()
            && a.task_files.is_some()
            && matches!(phase, Phase::Running | Phase::Paused)
            && a.crashes_in_a_row <= MAX_CRASHES_IN_A_ROW;
        if recover {
            a.recovering = Some(phase);
            a.phase = Phase::Preparing;
        } else {
            a.model_id = None;
            a.run_prepared = false;
            if matches!(phase, Phase::Running | Phase::Paused | Phase::Preparing) {
                a.phase = Phase::Idle;
            }
        }
        (failed_item, recover)
    };
    if let Some(index) = failed_item {
        let a = app.borrow();
        if let Some(run) = &a.run {
            if let Err(e) = draw_failure(run, index, message) {
                web_sys::console::warn_1(&e.into());
            }
        }
    }
    let what = match failed_item {
        Some(i) => t_with("status-crash-item", &[("number", (i + 1).into()), ("message", message.into())]),
        None => t_with("status-crash", &[("message", message.into())]),
    };
    let next = t(if recover { "status-crash-goes-on" } else { "status-crash-restart" });
    show_error(&format!("{what}. {next}"));
    if let Err(e) = replace_worker(app) {
        show_error(&e);
    }
    update_summary(app);
    let phase = app.borrow().phase;
    show_controls(app, phase);
}

fn replace_worker(app: &Shared) -> Result<(), String> {
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
fn recover_run(app: &Shared) -> Result<(), String> {
    let (worker, load, files, task, settings, ticket) = {
        let mut a = app.borrow_mut();
        let (Some((load, files)), Some(task), Some(run)) = (a.load_request.clone(), a.task_files.clone(), a.run.as_ref()) else {
            return Err("nothing to recover: no model or task was loaded".into());
        };
        let (model, settings) = (run.model.clone(), run.settings.clone());
        a.tickets += 1;
        a.pending = Some((a.tickets, model, settings.clone()));
        (a.worker.clone(), load, files, task, settings, a.tickets)
    };
    say(key("status-reloading-after-crash"));
    trace(&format!(">{}", message_name(&load)));
    let message = serde_wasm_bindgen::to_value(&load).map_err(|e| e.to_string())?;
    attach(&message, &load, &files)?;
    worker.post_message(&message).map_err(|e| format!("cannot message the worker: {e:?}"))?;
    post(&worker, &ToWorker::PrepareTask { ticket, files: task, settings })
}

/// Copies `limit`, `shots`, `seed`, `pace` and `task` from the address into the controls.
fn apply_url_parameters() {
    for key in ["limit", "shots", "seed", "pace", "order", "sample"] {
        if let Some(v) = dom::query_param(key) {
            dom::set_value(key, &v);
        }
    }
    if let Some(task) = dom::query_param("task") {
        let builtin = task == "demo" || DATA_TASKS.iter().any(|(name, _)| *name == task);
        dom::set_value("task-select", if builtin { &task } else { "files" });
    }
    let filters: std::collections::BTreeMap<String, String> = dom::query_params("filter")
        .iter()
        .filter_map(|f| f.split_once(':'))
        .map(|(field, value)| (field.to_string(), value.to_string()))
        .collect();
    if !filters.is_empty() {
        let _ = show_filters(&[], &filters);
    }
}

/// One select per metadata field of the prepared task ("all" or one value, with its number of
/// documents), keeping what is selected; a selected field the task does not have stays, with its
/// value only, so that the run says plainly that nothing matched.
fn show_filters(facets: &[Facet], selected: &std::collections::BTreeMap<String, String>) -> Result<(), String> {
    let box_ = dom::by_id("filters")?;
    dom::clear(&box_);
    let mut fields: Vec<Facet> = facets.to_vec();
    for (field, value) in selected {
        if !fields.iter().any(|f| &f.field == field) {
            fields.push(Facet { field: field.clone(), values: vec![(value.clone(), 0)] });
        }
    }
    for facet in &fields {
        let label = dom::element("label", "", &format!("{} ", facet.field))?;
        let select: web_sys::HtmlSelectElement = dom::element("select", "", "")?.dyn_into().map_err(|_| "cannot make a select")?;
        dom::set_data(&select, "field", &facet.field);
        let all = dom::element("option", "", &t("placeholder-all"))?;
        let _ = all.set_attribute("value", "");
        let _ = all.set_attribute("data-i18n", "placeholder-all");
        dom::append(&select, &all)?;
        for (value, n) in &facet.values {
            let text = if *n > 0 { format!("{value} ({n})") } else { value.clone() };
            let option = dom::element("option", "", &text)?;
            let _ = option.set_attribute("value", value);
            dom::append(&select, &option)?;
        }
        select.set_value(selected.get(&facet.field).map(String::as_str).unwrap_or(""));
        dom::append(&label, &select)?;
        dom::append(&box_, &label)?;
    }
    dom::set_hidden("filters-box", fields.is_empty());
    Ok(())
}

/// The filter selects' chosen values, by field.
fn filters_from_controls() -> std::collections::BTreeMap<String, String> {
    let mut filters = std::collections::BTreeMap::new();
    let Ok(selects) = dom::by_id("filters").and_then(|b| b.query_selector_all("select[data-field]").map_err(|_| String::new())) else {
        return filters;
    };
    for i in 0..selects.length() {
        let Some(select) = selects.get(i).and_then(|n| n.dyn_into::<web_sys::HtmlSelectElement>().ok()) else { continue };
        let (Some(field), value) = (select.get_attribute("data-field"), select.value()) else { continue };
        if !value.is_empty() {
            filters.insert(field, value);
        }
    }
    filters
}

async fn load_catalog(app: &Shared) {
    let select: web_sys::HtmlSelectElement = match dom::typed("model-select") {
        Ok(s) => s,
        Err(e) => return show_error(&e),
    };
    let add = |value: &str, label: &str| {
        if let Ok(option) = dom::element("option", "", label) {
            let _ = option.set_attribute("value", value);
            let _ = select.append_child(&option);
        }
    };
    add("demo", &model_label(None));
    match fetch_bytes(CATALOG).await.and_then(|b| serde_json::from_slice::<Catalog>(&b).map_err(|e| format!("{CATALOG}: {e}"))) {
        Ok(catalog) => {
            for m in &catalog.models {
                add(&m.id, &model_label(Some(m)));
            }
            app.borrow_mut().catalog = catalog.models;
        }
        Err(e) => web_sys::console::warn_1(&format!("model catalog unavailable: {e}").into()),
    }
    let wanted = dom::query_param("model").unwrap_or_else(|| "demo".into());
    if app.borrow().catalog.iter().any(|m| m.id == wanted) || wanted == "demo" {
        select.set_value(&wanted);
    } else {
        dom::set_value("model-url", &wanted);
    }
}

fn wire_controls(app: &Shared) -> Result<(), String> {
    let a = app.clone();
    dom::on("run-start", "click", move |_| start_run(&a))?;
    let a = app.clone();
    dom::on("lang-select", "change", move |_| switch_language(&a, &dom::value("lang-select")))?;
    let a = app.clone();
    dom::on("run-pause", "click", move |_| toggle_pause(&a))?;
    let a = app.clone();
    dom::on("run-cancel", "click", move |_| cancel_run(&a))?;
    let a = app.clone();
    dom::on("summary-svg", "click", move |_| {
        let task = a.borrow().run.as_ref().map(|r| r.task.clone()).unwrap_or_default();
        if let Some(svg) = summary_svg(&a) {
            if let Err(e) = dom::download(&format!("summary_{task}.svg"), "image/svg+xml", &svg) {
                show_error(&e);
            }
        }
    })?;
    let a = app.clone();
    dom::on("summary-print", "click", move |_| {
        draw_print_summary(&a);
        let _ = gloo::utils::window().print();
    })?;
    for (id, kind) in [("export-jsonl", "jsonl"), ("export-json", "json"), ("export-csv", "csv")] {
        let a = app.clone();
        dom::on(id, "click", move |_| {
            if let Err(e) = export(&a, kind) {
                show_error(&e);
            }
        })?;
    }
    let a = app.clone();
    dom::on("fertility-run", "click", move |_| {
        let worker = a.borrow().worker.clone();
        dom::set_text("fertility-rows", "");
        if let Err(e) = post(&worker, &ToWorker::Fertility) {
            show_error(&e);
        }
    })?;
    let a = app.clone();
    dom::on("compare-file", "change", move |_| {
        let a = a.clone();
        spawn_local(async move { open_comparison(&a).await });
    })?;
    let a = app.clone();
    dom::on("import-file", "change", move |_| {
        let a = a.clone();
        spawn_local(async move { import(&a).await });
    })?;
    // Choosing a file or a folder, or typing a URL, means "use this".
    dom::on("model-file", "change", |_| {
        dom::set_value("model-url", "");
        dom::set_value("model-folder", "");
        if let Ok(input) = dom::by_id("model-file") {
            let _ = input.remove_attribute("data-folder");
        }
    })?;
    dom::on("model-folder", "change", |_| {
        dom::set_value("model-url", "");
        dom::set_value("model-file", "");
    })?;
    // Another benchmark: the filters of the last one may not apply. Data for a built-in task
    // that reads the user's files (DZEN) keeps that task; otherwise it is "my files".
    for id in ["task-files", "task-folder"] {
        dom::on(id, "change", |_| {
            data_chosen();
            let _ = show_filters(&[], &Default::default());
        })?;
    }
    dom::on("task-select", "change", |_| {
        let _ = show_filters(&[], &Default::default());
    })?;
    // Files dropped anywhere on the setup section; elsewhere a drop does nothing (instead of the
    // browser leaving the app to show the file).
    dom::on_cancelable("setup", "dragover", |event| {
        event.prevent_default();
        if let Ok(setup) = dom::by_id("setup") {
            dom::set_data(&setup, "dropping", "true");
        }
    })?;
    dom::on("setup", "dragleave", |_| {
        if let Ok(setup) = dom::by_id("setup") {
            dom::set_data(&setup, "dropping", "false");
        }
    })?;
    dom::on_cancelable("setup", "drop", |event| {
        event.prevent_default();
        event.stop_propagation();
        if let Ok(setup) = dom::by_id("setup") {
            dom::set_data(&setup, "dropping", "false");
        }
        match accept_drop(event) {
            Ok(()) => clear_error(),
            Err(e) => show_error(&e),
        }
    })?;
    let document: web_sys::EventTarget = dom::document().into();
    for kind in ["dragover", "drop"] {
        let options = gloo::events::EventListenerOptions::enable_prevent_default();
        EventListener::new_with_options(&document, kind, options, |event| event.prevent_default()).forget();
    }
    let a = app.clone();
    dom::on("result-rows", "click", move |event| {
        if let Some(index) = row_index_of(event) {
            select_row(&a, index);
        }
    })?;
    let a = app.clone();
    dom::on_cancelable("result-rows", "keydown", move |event| {
        let enter = event.dyn_ref::<web_sys::KeyboardEvent>().is_some_and(|k| k.key() == "Enter" || k.key() == " ");
        if let (true, Some(index)) = (enter, row_index_of(event)) {
            event.prevent_default();
            select_row(&a, index);
        }
    })?;
    Ok(())
}

/// A drop: a `.gguf` becomes the model file and data or YAML files the benchmark's, exactly as if
/// they had been picked in those inputs (the run reads them from there). A dropped folder is read
/// through its directory entries (`webkitGetAsEntry`, then `readEntries` until it returns nothing):
/// a model folder gives its own files, a data folder (DZEN's) every data file under it
/// (`web::run::sort_dropped`). The entries must be taken while the event is dispatched (its
/// `DataTransfer` is emptied after); the folders are read after it, asynchronously.
fn accept_drop(event: &web_sys::Event) -> Result<(), String> {
    let transfer = event.dyn_ref::<web_sys::DragEvent>().and_then(|e| e.data_transfer()).ok_or("the drop carried no files")?;
    let items = transfer.items();
    let mut loose: Vec<(String, web_sys::File)> = Vec::new();
    let mut folders: Vec<web_sys::FileSystemDirectoryEntry> = Vec::new();
    for i in 0..items.length() {
        let Some(item) = items.get(i) else { continue };
        if item.kind() != "file" {
            continue;
        }
        match item.webkit_get_as_entry().ok().flatten() {
            Some(entry) if entry.is_directory() => folders.push(entry.unchecked_into()),
            _ => {
                if let Ok(Some(file)) = item.get_as_file() {
                    loose.push((file.name(), file));
                }
            }
        }
    }
    if items.length() == 0 {
        // A browser without DataTransfer items: the plain file list.
        if let Some(list) = transfer.files() {
            loose.extend((0..list.length()).filter_map(|i| list.get(i)).map(|f| (f.name(), f)));
        }
    }
    if folders.is_empty() {
        return use_dropped(loose);
    }
    let names: Vec<String> = folders.iter().map(|f| f.name()).collect();
    say(key_with("status-drop-reading", vec![("names", names.join(", ").into())]));
    spawn_local(async move {
        let mut files = loose;
        let result = match read_folders(folders).await {
            Ok(found) => {
                files.extend(found);
                use_dropped(files)
            }
            Err(e) => Err(e),
        };
        match result {
            Ok(()) => clear_error(),
            Err(e) => {
                say(key("status-drop-unused"));
                show_error(&e)
            }
        }
    });
    Ok(())
}

/// Every file under the dropped folders, by its path from the drop (`qwen3/config.json`).
async fn read_folders(folders: Vec<web_sys::FileSystemDirectoryEntry>) -> Result<Vec<(String, web_sys::File)>, String> {
    let mut files = Vec::new();
    let mut pending: Vec<(String, web_sys::FileSystemDirectoryEntry)> = folders.into_iter().map(|f| (f.name(), f)).collect();
    while let Some((path, folder)) = pending.pop() {
        let reader = folder.create_reader();
        // readEntries gives a folder's entries in batches (Chromium: 100 at a time) and an empty
        // batch at the end.
        loop {
            let batch = callback_promise(|ok, fail| reader.read_entries_with_callback_and_callback(ok, fail).map_err(|e| js_error(&e)))
                .await
                .map_err(|e| format!("the dropped folder {path} cannot be read: {e}"))?;
            let batch: js_sys::Array = batch.dyn_into().map_err(|_| format!("the dropped folder {path} cannot be read: not a list of entries"))?;
            if batch.length() == 0 {
                break;
            }
            for entry in batch.iter() {
                let entry: web_sys::FileSystemEntry = entry.unchecked_into();
                let child = format!("{path}/{}", entry.name());
                if entry.is_directory() {
                    pending.push((child, entry.unchecked_into()));
                } else if entry.is_file() {
                    let entry: web_sys::FileSystemFileEntry = entry.unchecked_into();
                    let file = callback_promise(|ok, fail| {
                        entry.file_with_callback_and_callback(ok, fail);
                        Ok(())
                    })
                    .await
                    .map_err(|e| format!("{child}: cannot be read: {e}"))?;
                    let file: web_sys::File = file.dyn_into().map_err(|_| format!("{child}: cannot be read: not a file"))?;
                    files.push((child, file));
                    if files.len() > super::run::MAX_DROPPED_FILES {
                        return Err(format!("the dropped folder holds more than {} files: drop the model or data folder itself", super::run::MAX_DROPPED_FILES));
                    }
                }
            }
        }
    }
    files.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(files)
}

/// The value an old-style callback API (`success`, `error`) gives, as a future.
async fn callback_promise(call: impl FnOnce(&js_sys::Function, &js_sys::Function) -> Result<(), String>) -> Result<JsValue, String> {
    let mut call = Some(call);
    let mut failed = None;
    let promise = js_sys::Promise::new(&mut |ok, fail| {
        if let Some(call) = call.take() {
            if let Err(e) = call(&ok, &fail) {
                failed = Some(e);
            }
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    JsFuture::from(promise).await.map_err(|e| js_error(&e))
}

/// A JavaScript error (a `DOMException`, an `Error`, a string) in words.
fn js_error(e: &JsValue) -> String {
    js_sys::Reflect::get(e, &"message".into())
        .ok()
        .and_then(|m| m.as_string())
        .filter(|m| !m.is_empty())
        .or_else(|| e.as_string())
        .unwrap_or_else(|| format!("{e:?}"))
}

/// Dropped files by their paths (a name, or a path in a dropped folder) into the inputs.
fn use_dropped(files: Vec<(String, web_sys::File)>) -> Result<(), String> {
    let paths: Vec<String> = files.iter().map(|(p, _)| p.clone()).collect();
    let dropped = sort_dropped(&paths)?;
    let pick = |indices: &[usize]| indices.iter().filter_map(|&i| files.get(i).map(|(_, f)| f)).collect::<Vec<_>>();
    let mut said = Vec::new();
    if !dropped.model.is_empty() {
        dom::set_files("model-file", &pick(&dropped.model))?;
        // The folder's name names the model (a `File` made from a folder entry keeps only its own name).
        if let Ok(input) = dom::by_id("model-file") {
            match &dropped.model_folder {
                Some(folder) => dom::set_data(&input, "folder", folder),
                None => {
                    let _ = input.remove_attribute("data-folder");
                }
            }
        }
        dom::set_value("model-url", "");
        dom::set_value("model-folder", "");
        let model: Vec<&str> = dropped.model.iter().map(|&i| paths[i].as_str()).collect();
        said.push(match &dropped.model_folder {
            Some(folder) => key_with("dropped-model-folder", vec![("folder", folder.as_str().into()), ("n", model.len().into())]),
            None => key_with("dropped-model", vec![("files", model.join(", ").into())]),
        });
    }
    if !dropped.task.is_empty() {
        dom::set_files("task-files", &pick(&dropped.task))?;
        dom::set_value("task-folder", "");
        data_chosen();
        show_filters(&[], &Default::default())?;
        let task: Vec<&str> = dropped.task.iter().map(|&i| paths[i].as_str()).collect();
        said.push(if task.len() > 6 {
            key_with("dropped-benchmark-more", vec![("files", task[..5].join(", ").into()), ("n", (task.len() - 5).into())])
        } else {
            key_with("dropped-benchmark", vec![("files", task.join(", ").into())])
        });
    }
    if !dropped.ignored.is_empty() {
        let shown = dropped.ignored.iter().take(6).cloned().collect::<Vec<_>>().join(", ");
        said.push(if dropped.ignored.len() > 6 {
            key_with("dropped-not-used-more", vec![("files", shown.into()), ("n", (dropped.ignored.len() - 6).into())])
        } else {
            key_with("dropped-not-used", vec![("files", shown.into())])
        });
    }
    say(key_with("status-dropped", vec![]).with_part("what", Said::Joined(said, "; ")));
    Ok(())
}

/// The model list's label for a catalog entry, or for the built-in demo (`None`).
fn model_label(entry: Option<&CatalogEntry>) -> String {
    let Some(m) = entry else { return t("model-demo") };
    let size = m.size_bytes.map(|b| format!(", {} MB", text::number(b as f64 / 1e6, NumberStyle::Integer))).unwrap_or_default();
    let licence = m.licence.as_deref().map(|l| format!(", {l}")).unwrap_or_default();
    let details = format!("{}{size}{licence}", m.quantization.as_deref().unwrap_or("GGUF"));
    t_with("model-catalog-entry", &[("name", m.name.as_str().into()), ("details", details.into())])
}

/// The page in another language, at once: the static text, every message it wrote, the rows, the
/// analysis views and classroom mode; the choice is remembered.
fn switch_language(app: &Shared, code: &str) {
    if let Err(e) = text::set_language(code) {
        show_error(&e);
        return;
    }
    text::remember(code);
    text::refresh();
    if let Ok(select) = dom::typed::<web_sys::HtmlSelectElement>("model-select") {
        let options = select.options();
        let a = app.borrow();
        for i in 0..options.length() {
            let Some(option) = options.item(i).and_then(|o| o.dyn_into::<web_sys::HtmlOptionElement>().ok()) else { continue };
            let value = option.value();
            if value == "demo" {
                option.set_text(&model_label(None));
            } else if let Some(m) = a.catalog.iter().find(|m| m.id == value) {
                option.set_text(&model_label(Some(m)));
            }
        }
    }
    if let Some(run) = &app.borrow().run {
        draw_all_rows(run);
    }
    let phase = app.borrow().phase;
    show_controls(app, phase);
    update_summary(app);
    flush_analysis(app);
    classroom::draw(app);
}

/// Data files were chosen: the benchmark is the user's files, unless a built-in task that reads
/// the user's data (DZEN) is selected.
fn data_chosen() {
    let task = dom::value("task-select");
    if !DATA_TASKS.iter().any(|(name, _)| *name == task) {
        dom::set_value("task-select", "files");
    }
}

fn row_index_of(event: &web_sys::Event) -> Option<usize> {
    let target: Element = event.target()?.dyn_into().ok()?;
    target.closest("tr[data-index]").ok()??.get_attribute("data-index")?.parse().ok()
}

/// The last requests and replies, kept on `<body data-trace>` for tests and bug reports.
fn trace(what: &str) {
    if let Some(body) = gloo::utils::document().body() {
        let mut log = body.get_attribute("data-trace").unwrap_or_default();
        log.push_str(what);
        log.push(' ');
        let start = log.len().saturating_sub(600);
        let start = (start..log.len()).find(|&i| log.is_char_boundary(i)).unwrap_or(0);
        let _ = body.set_attribute("data-trace", &log[start..]);
    }
}

fn message_name<T: serde::Serialize>(message: &T) -> String {
    serde_json::to_value(message).ok().and_then(|v| v["type"].as_str().map(str::to_string)).unwrap_or_default()
}

fn post(worker: &Worker, message: &ToWorker) -> Result<(), String> {
    trace(&format!(">{}", message_name(message)));
    let value = serde_wasm_bindgen::to_value(message).map_err(|e| e.to_string())?;
    worker.post_message(&value).map_err(|e: JsValue| format!("cannot message the worker: {e:?}"))
}

fn on_message(app: &Shared, message: FromWorker) -> Result<(), String> {
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
            if app.borrow().recovering.is_some() {
                if let Err(e) = recover_run(app) {
                    let mut a = app.borrow_mut();
                    a.recovering = None;
                    a.phase = Phase::Idle;
                    drop(a);
                    show_controls(app, Phase::Idle);
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
        FromWorker::SelfTest { report } => show_selftest(&report),
        FromWorker::Download { loaded, total, from_cache, resumed_from } => {
            show_download(app, loaded, total, from_cache, resumed_from);
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
            text::show("model-info", key_with("model-loaded", vec![("name", name.into()), ("architecture", architecture.into()), ("layers", layers.into()), ("vocab", vocab)]));
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
        FromWorker::Scores { backend, choices } => show_scores(&backend, &choices),
        FromWorker::TaskReady { ticket, task, output_type, fingerprint, items, notes, documents, facets } => {
            let current = app.borrow().pending.as_ref().map(|p| p.0);
            if current != Some(ticket) {
                return Ok(());
            }
            show_notes(&notes);
            let Some((_, model, settings)) = app.borrow_mut().pending.take() else { return Ok(()) };
            let recovered = app.borrow_mut().recovering.take();
            if let Some(phase) = recovered {
                {
                    let mut a = app.borrow_mut();
                    a.phase = phase;
                    a.run_prepared = true;
                }
                say(key(if phase == Phase::Paused { "status-recovered-paused" } else { "status-recovered-running" }));
                show_controls(app, phase);
                pump(app);
                return Ok(());
            }
            show_filters(&facets, &settings.filters)?;
            if let Ok(summary) = dom::by_id("run-summary") {
                dom::set_data(&summary, "documents", &documents.to_string());
            }
            if app.borrow().model_id.is_none() {
                // The model failed to load meanwhile (its error is shown).
                app.borrow_mut().phase = Phase::Idle;
                show_controls(app, Phase::Idle);
                return Ok(());
            }
            let mut run = Run::new(&model, &task, &fingerprint, settings, items);
            run.output_type = output_type;
            // A picked file's answers are kept under its bytes' hash, not its name.
            if let Some(hash) = app.borrow().model_hash.clone() {
                run.key = run_key(&format!("sha256:{hash}"), &fingerprint, &run.settings);
            }
            begin(app, run, notes.len());
            Ok(())
        }
        FromWorker::ItemScored { row } => {
            {
                let mut a = app.borrow_mut();
                a.in_flight = false;
                a.scoring = None;
            }
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
            match stage {
                Stage::Model => {
                    a.recovering = None;
                    a.model_id = None;
                    a.model_loaded = false;
                    if let Ok(info) = dom::by_id("model-info") {
                        text::show("model-info", key_with("model-not-loaded", vec![("message", message.as_str().into())]));
                        dom::set_data(&info, "status", "error");
                    }
                    a.pending = None;
                    if a.phase == Phase::Preparing {
                        a.phase = Phase::Idle;
                    }
                }
                Stage::Task => {
                    a.recovering = None;
                    a.pending = None;
                    a.phase = Phase::Idle;
                }
                Stage::Item => {
                    a.in_flight = false;
                    a.scoring = None;
                    if a.phase == Phase::Running {
                        a.phase = Phase::Paused;
                    }
                }
                _ => {}
            }
            let phase = a.phase;
            let wake = if stage == Stage::Model { a.fit_wake.take() } else { None };
            if wake.is_some() {
                a.fit_answer = Some(Err(message));
            }
            drop(a);
            show_controls(app, phase);
            if let Some(wake) = wake {
                let _ = wake.call0(&JsValue::NULL);
            }
            Ok(())
        }
    }
}

/// "Downloading 120 of 676 MB · 12.3 MB/s · 45 s left", or where the model came from.
fn show_download(app: &Shared, loaded: u64, total: Option<u64>, from_cache: bool, resumed_from: u64) {
    let Ok(info) = dom::by_id("model-info") else { return };
    dom::set_data(&info, "loaded", &loaded.to_string());
    dom::set_data(&info, "resumed-from", &resumed_from.to_string());
    if let Some(t) = total {
        dom::set_data(&info, "total", &t.to_string());
    }
    let now = js_sys::Date::now();
    let started = {
        let mut a = app.borrow_mut();
        if a.download_started == 0.0 || loaded == 0 {
            a.download_started = now;
        }
        a.download_started
    };
    let mb = |b: u64, digits: usize| Arg::Number(b as f64 / 1e6, NumberStyle::Decimal(digits));
    let said = if from_cache {
        dom::set_data(&info, "source", "cache");
        key_with("download-cache", vec![("mb", mb(loaded, 1))])
    } else if total == Some(loaded) {
        dom::set_data(&info, "source", "network");
        key_with("download-done", vec![("mb", mb(loaded, 1))])
    } else {
        let secs = ((now - started) / 1e3).max(1e-3);
        // The rate of this page's download, not counting what an earlier page saved.
        let rate = loaded.saturating_sub(resumed_from) as f64 / 1e6 / secs;
        let progress = match total {
            Some(t) if rate > 0.0 => {
                let seconds = (t.saturating_sub(loaded) as f64 / 1e6 / rate).round();
                key_with("download-progress-total", vec![
                    ("mb", mb(loaded, 1)),
                    ("total", mb(t, 0)),
                    ("rate", Arg::Number(rate, NumberStyle::Decimal(1))),
                    ("seconds", Arg::Number(seconds, NumberStyle::Integer)),
                ])
            }
            _ => key_with("download-progress-rate", vec![("mb", mb(loaded, 1)), ("rate", Arg::Number(rate, NumberStyle::Decimal(1)))]),
        };
        if resumed_from > 0 {
            Said::Joined(vec![progress, key_with("download-resumed", vec![("mb", mb(resumed_from, 1))])], " ")
        } else {
            progress
        }
    };
    text::show("model-info", said);
}

/// The models kept in Cache Storage, each with its size and a button that deletes it.
async fn show_cached_models() {
    let Ok(list) = dom::by_id("cached-models") else { return };
    let Some(cache) = page_cache().await else { return };
    let Ok(keys) = JsFuture::from(cache.keys()).await else { return };
    dom::clear(&list);
    let keys = js_sys::Array::from(&keys);
    for request in keys.iter() {
        let Ok(request) = request.dyn_into::<web_sys::Request>() else { continue };
        let url = request.url();
        let size = match JsFuture::from(cache.match_with_str(&url)).await.ok().and_then(|r| r.dyn_into::<web_sys::Response>().ok()) {
            Some(r) => r.headers().get("content-length").ok().flatten().and_then(|l| l.parse::<f64>().ok()),
            None => None,
        };
        let Ok(li) = dom::element("li", "", &format!("{} ({}) ", url.rsplit('/').next().unwrap_or(&url), size.map(|s| format!("{} MB", text::number(s / 1e6, NumberStyle::Decimal(1)))).unwrap_or_else(|| t("size-unknown")))) else { continue };
        if let Ok(button) = dom::element("button", "small", "Delete") {
            let _ = button.set_attribute("type", "button");
            let _ = button.set_attribute("aria-label", &t_with("cache-delete", &[("file", url.as_str().into())]));
            let c = cache.clone();
            EventListener::new(&button, "click", move |_| {
                let (c, url) = (c.clone(), url.clone());
                spawn_local(async move {
                    let _ = JsFuture::from(c.delete_with_str(&url)).await;
                    show_cached_models().await;
                });
            })
            .forget();
            let _ = dom::append(&li, &button);
        }
        let _ = dom::append(&list, &li);
    }
    dom::set_hidden("cached-models-box", keys.length() == 0);
}

async fn page_cache() -> Option<web_sys::Cache> {
    let caches = gloo::utils::window().caches().ok()?;
    JsFuture::from(caches.open(MODEL_CACHE)).await.ok()?.dyn_into().ok()
}

fn maybe_autostart(app: &Shared) {
    let go = {
        let mut a = app.borrow_mut();
        let go = a.autostart && a.worker_ready && a.setup_done;
        if go {
            a.autostart = false;
        }
        go
    };
    if go {
        start_run(app);
    }
}

fn legacy_score(worker: &Worker, preference: BackendPreference) -> Result<(), String> {
    if let Some(url) = dom::query_param("model") {
        dom::set_hidden("score", false);
        if let Ok(details) = dom::by_id("device-details") {
            let _ = details.set_attribute("open", "");
        }
        post(worker, &ToWorker::LoadModel { source: ModelSource::Url { url, check: ModelCheck::default() }, backend: preference })?;
        let context = dom::query_param("context").unwrap_or_default();
        post(worker, &ToWorker::Score { context, choices: dom::query_params("choice") })?;
    }
    Ok(())
}

/// What the model controls point at: (identity for the checkpoint, request that loads it, the
/// files that go with the request: one GGUF `File`, or a model folder's files).
fn chosen_model(app: &Shared) -> Result<(String, ToWorker, Vec<web_sys::File>), String> {
    let a = app.borrow();
    let backend = a.preference;
    // A folder picked whole: its own files, by their paths in it.
    let picked = dom::files("model-folder");
    let paths: Vec<String> = picked.iter().map(relative_path).collect();
    if let Some((folder, top)) = top_level_files(&paths) {
        let files: Vec<web_sys::File> = top.iter().filter_map(|&i| picked.get(i).cloned()).collect();
        return Ok(folder_request(&folder, files, backend));
    }
    let chosen = dom::files("model-file");
    if let [file] = chosen.as_slice() {
        if is_gguf(&file.name()) {
            // Which file is loaded (the run's checkpoint is keyed by its hash, `ModelLoaded`).
            let id = format!("file:{}:{}:{}", file.name(), file.size(), file.last_modified());
            return Ok((id, ToWorker::LoadModel { source: ModelSource::File { name: file.name() }, backend }, vec![file.clone()]));
        }
    }
    if !chosen.is_empty() {
        if let Some(gguf) = chosen.iter().find(|f| is_gguf(&f.name())) {
            return Err(format!("{}: choose one GGUF file, or a model folder's files without it", gguf.name()));
        }
        // Files dropped as a folder keep its name (`use_dropped`); picked ones have none.
        let folder = dom::by_id("model-file").ok().and_then(|i| i.get_attribute("data-folder")).unwrap_or_else(|| "chosen files".into());
        return Ok(folder_request(&folder, chosen, backend));
    }
    let url = dom::value("model-url").trim().to_string();
    if !url.is_empty() {
        // A link may pin the file: `&sha256=…&size=…`.
        let check = ModelCheck { size: dom::query_param("size").and_then(|s| s.parse().ok()), sha256: dom::query_param("sha256") };
        return Ok((url.clone(), ToWorker::LoadModel { source: ModelSource::Url { url, check }, backend }, Vec::new()));
    }
    let choice = dom::value("model-select");
    if choice.is_empty() || choice == "demo" {
        return Ok(("demo".into(), ToWorker::LoadModel { source: ModelSource::Url { url: DEMO_MODEL.into(), check: ModelCheck::default() }, backend }, Vec::new()));
    }
    let entry = a.catalog.iter().find(|m| m.id == choice).ok_or_else(|| format!("unknown model {choice}"))?;
    let check = ModelCheck { size: entry.size_bytes, sha256: entry.sha256.clone() };
    Ok((entry.id.clone(), ToWorker::LoadModel { source: ModelSource::Url { url: entry.url.clone(), check }, backend }, Vec::new()))
}

/// A Hugging Face model folder's files as a load request; its identity is the folder's name with
/// its files' names and sizes.
fn folder_request(folder: &str, files: Vec<web_sys::File>, backend: BackendPreference) -> (String, ToWorker, Vec<web_sys::File>) {
    let names: Vec<String> = files.iter().map(|f| f.name()).collect();
    let sizes: Vec<String> = files.iter().map(|f| format!("{}:{}:{}", f.name(), f.size(), f.last_modified())).collect();
    let id = format!("folder:{folder}:{}", sizes.join(","));
    (id, ToWorker::LoadModel { source: ModelSource::Folder { folder: folder.to_string(), names }, backend }, files)
}

/// A file's path inside the folder it was picked with (`webkitRelativePath`), else its name.
fn relative_path(file: &web_sys::File) -> String {
    let path = js_sys::Reflect::get(file, &"webkitRelativePath".into()).ok().and_then(|p| p.as_string()).unwrap_or_default();
    if path.is_empty() {
        file.name()
    } else {
        path
    }
}

/// `message` with the files it carries: a GGUF as `file`, a folder's files as the array `files`.
fn attach(message: &JsValue, request: &ToWorker, files: &[web_sys::File]) -> Result<(), String> {
    match (request, files) {
        (ToWorker::LoadModel { source: ModelSource::Folder { .. }, .. } | ToWorker::CheckModel { source: ModelSource::Folder { .. }, .. }, files) => {
            let array: js_sys::Array = files.iter().collect();
            js_sys::Reflect::set(message, &"files".into(), &array).map_err(|_| "cannot attach the files")?;
        }
        (_, [file]) => {
            js_sys::Reflect::set(message, &"file".into(), file).map_err(|_| "cannot attach the file")?;
        }
        _ => {}
    }
    Ok(())
}

fn settings_from_controls() -> Result<RunSettings, String> {
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
    })
}

fn start_run(app: &Shared) {
    clear_error();
    pool::stop(app);
    let a = app.clone();
    spawn_local(async move {
        if let Err(e) = prepare(&a).await {
            show_error(&e);
            a.borrow_mut().phase = Phase::Idle;
            show_controls(&a, Phase::Idle);
        }
    });
}

async fn prepare(app: &Shared) -> Result<(), String> {
    if matches!(app.borrow().phase, Phase::Preparing | Phase::Running) {
        return Ok(());
    }
    let settings = settings_from_controls()?;
    let (model_id, load, files) = chosen_model(app)?;
    let pace: u32 = dom::value("pace").trim().parse().unwrap_or(0);
    let worker = {
        let mut a = app.borrow_mut();
        a.phase = Phase::Preparing;
        a.pace_ms = pace;
        a.worker.clone()
    };
    show_controls(app, Phase::Preparing);
    dom::set_hidden("demo-note", model_id != "demo");
    if app.borrow().model_id.as_deref() != Some(&model_id) {
        if !model_fits(app, &worker, &load, &files).await? {
            let mut a = app.borrow_mut();
            a.model_id = None;
            a.phase = Phase::Idle;
            drop(a);
            show_controls(app, Phase::Idle);
            return Ok(());
        }
        say(key("status-loading-model"));
        let info = dom::by_id("model-info")?;
        text::show("model-info", key("model-loading"));
        dom::set_data(&info, "status", "loading");
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
    let files = task_files().await?;
    if app.borrow().phase != Phase::Preparing {
        return Ok(()); // the model failed while the task's files were read
    }
    say(key("status-preparing"));
    let ticket = {
        let mut a = app.borrow_mut();
        a.tickets += 1;
        a.pending = Some((a.tickets, model_id, settings.clone()));
        a.task_files = Some(files.clone());
        a.crashes_in_a_row = 0;
        a.tickets
    };
    post(&worker, &ToWorker::PrepareTask { ticket, files, settings })
}

/// Asks the worker whether the model `load` would load fits (`CheckModel`, which reads only the
/// header; of a Hugging Face folder: its config.json and safetensors headers) and
/// shows the answer in the model panel. `false` when it does not fit or could not be read: the
/// reason is on the page, nothing is downloaded, and the page stays usable.
async fn model_fits(app: &Shared, worker: &Worker, load: &ToWorker, files: &[web_sys::File]) -> Result<bool, String> {
    let budget_mib = dom::query_param("budget_mib").and_then(|b| b.trim().parse::<u64>().ok());
    let check = match load {
        ToWorker::LoadModel { source, backend } => ToWorker::CheckModel { source: source.clone(), backend: *backend, budget_mib },
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
        let refused = if matches!(check, ToWorker::CheckModel { source: ModelSource::Folder { .. }, .. }) { "model-refused-folder" } else { "model-refused-header" };
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

/// The built-in demo, a built-in task with the user's data, or the user's files.
async fn task_files() -> Result<TaskFiles, String> {
    let task = dom::value("task-select");
    if task == "demo" {
        let mut files = Vec::new();
        for path in DEMO_TASK {
            files.push(NamedFile { name: path.rsplit('/').next().unwrap_or(path).into(), bytes: fetch_bytes(path).await? });
        }
        return TaskFiles::from_files(files).map_err(|e| e.to_string());
    }
    let builtin = DATA_TASKS.iter().find(|(name, _)| *name == task).map(|(_, paths)| paths);
    let mut files = Vec::new();
    if let Some(paths) = builtin {
        for path in paths.iter() {
            files.push(NamedFile { name: path.rsplit('/').next().unwrap_or(path).into(), bytes: fetch_bytes(path).await? });
        }
    }
    // Picked files by name; a picked folder's files by their paths in it, the ones a benchmark
    // can use (its README or licence is not data).
    let mut chosen: Vec<(String, web_sys::File)> = dom::files("task-files").into_iter().map(|f| (f.name(), f)).collect();
    chosen.extend(dom::files("task-folder").into_iter().map(|f| (relative_path(&f), f)).filter(|(path, _)| is_task_file(path)));
    if chosen.is_empty() {
        return Err(match builtin {
            Some(_) => format!("{task} reads your copy of its data: choose the DZEN CSV files, or the folder holding DZEN/ and DZEN-Few_Shots/, first"),
            None => "choose a data file (and, if you have one, its task YAML) first".into(),
        });
    }
    for (name, file) in chosen {
        let buffer = JsFuture::from(file.array_buffer()).await.map_err(|_| format!("{name}: cannot be read"))?;
        files.push(NamedFile { name, bytes: js_sys::Uint8Array::new(&buffer).to_vec() });
    }
    TaskFiles::from_files(files).map_err(|e| e.to_string())
}

async fn fetch_bytes(url: &str) -> Result<Vec<u8>, String> {
    let response: web_sys::Response = JsFuture::from(gloo::utils::window().fetch_with_str(url))
        .await
        .map_err(|_| format!("{url}: cannot be fetched"))?
        .dyn_into()
        .map_err(|_| format!("{url}: no response"))?;
    if !response.ok() {
        return Err(format!("{url}: HTTP {}", response.status()));
    }
    let buffer = JsFuture::from(response.array_buffer().map_err(|_| format!("{url}: no body"))?)
        .await
        .map_err(|_| format!("{url}: the download failed"))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// A prepared run starts: its checkpointed rows are drawn, then the first missing item is asked for.
fn begin(app: &Shared, run: Run, notes: usize) {
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
        {
            let mut s = a.borrow_mut();
            s.started_unix = js_sys::Date::now() / 1e3;
            s.phase = Phase::Running;
            s.selected = None;
            s.run = Some(run);
            s.run_prepared = true;
            s.saved = restored;
        }
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
        show_controls(&a, Phase::Running);
        if classroom::is_open(&a) {
            classroom::restore(&a);
            classroom::draw(&a);
        }
        pool::start(&a);
        pump(&a);
    });
}

/// Asks the main worker for the next item when the run is going and it holds none, then every
/// idle helper of the pool (`pool::dispatch`); finishes the run once every item is settled.
fn pump(app: &Shared) {
    let (worker, next, pace, fault, watchdog) = {
        let mut a = app.borrow_mut();
        if a.phase != Phase::Running {
            return;
        }
        let Some(run) = &a.run else { return };
        if run.next_index().is_none() {
            a.phase = Phase::Done;
            drop(a);
            pool::stop(app);
            flush_analysis(app);
            let kept = dom::by_id("run-summary").ok().and_then(|s| s.get_attribute("data-resumed")).unwrap_or_default();
            let failed = app.borrow().run.as_ref().map_or(0, |r| r.failed.len());
            let mut status = vec![match kept.parse::<usize>().unwrap_or(0) {
                0 => key("status-finished"),
                n => key_with("status-finished-kept", vec![("n", n.into())]),
            }];
            if failed > 0 {
                status.push(key_with("status-failed-items", vec![("n", failed.into())]));
            }
            say(Said::Joined(status, " "));
            show_controls(app, Phase::Done);
            return;
        }
        let main_idle = !a.in_flight && (a.model_loaded || a.model_id.is_some());
        let next = if main_idle { run.next_index_besides(&pool::busy(&a)) } else { None };
        let Some(i) = next else {
            drop(a);
            pool::dispatch(app);
            return;
        };
        a.in_flight = true;
        a.scoring = Some(i);
        a.requests += 1;
        let fault = if a.crash_item == Some(i) {
            a.crash_item = None;
            Some(ToWorker::Crash)
        } else if a.hang_item == Some(i) {
            a.hang_item = None;
            Some(ToWorker::Hang)
        } else {
            None
        };
        let limit_ms = (20.0 * a.slowest_ms).max(1000.0 * a.watchdog_floor_s as f64);
        (a.worker.clone(), i, a.pace_ms, fault, (a.requests, limit_ms))
    };
    let watched = app.clone();
    let send = move || {
        if let Some(fault) = fault {
            let _ = post(&worker, &fault);
        }
        if let Err(e) = post(&worker, &ToWorker::ScoreItem { index: next }) {
            show_error(&e);
        }
        start_watchdog(&watched, watchdog.0, watchdog.1);
    };
    if pace > 0 {
        gloo::timers::callback::Timeout::new(pace, send).forget();
    } else {
        send();
    }
    pool::dispatch(app);
}

/// Treats request `request` as a crash if it is still unanswered after `limit_ms` (a worker
/// in a loop that does not end neither answers nor fails: only a timer can tell).
fn start_watchdog(app: &Shared, request: u64, limit_ms: f64) {
    let app = app.clone();
    gloo::timers::callback::Timeout::new(limit_ms.min(u32::MAX as f64) as u32, move || {
        let stuck = {
            let a = app.borrow();
            a.requests == request && a.scoring.is_some() && a.in_flight
        };
        if stuck {
            worker_crashed(&app, &format!("no answer after {:.0} s (the worker stopped responding)", limit_ms / 1000.0));
        }
    })
    .forget();
}

/// A row from any worker of the pool: kept once (by index), drawn, checkpointed.
fn accept_row(app: &Shared, row: ItemRow) {
    let (key, checkpoint) = {
        let mut a = app.borrow_mut();
        a.crashes_in_a_row = 0;
        a.slowest_ms = a.slowest_ms.max(row.elapsed_ms);
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
fn show_notes(notes: &[String]) {
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

fn toggle_pause(app: &Shared) {
    let phase = {
        let mut a = app.borrow_mut();
        a.phase = match a.phase {
            Phase::Running => Phase::Paused,
            Phase::Paused => Phase::Running,
            other => other,
        };
        a.phase
    };
    say(key(if phase == Phase::Paused { "status-paused" } else { "status-running" }));
    if phase == Phase::Paused {
        flush_analysis(app);
    }
    show_controls(app, phase);
    pump(app);
}

fn cancel_run(app: &Shared) {
    pool::stop(app);
    let (run, checkpoint) = {
        let mut a = app.borrow_mut();
        a.phase = Phase::Idle;
        a.pending = None;
        (a.run.take(), a.checkpoint.clone())
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
    show_controls(app, Phase::Idle);
}

fn show_controls(app: &Shared, phase: Phase) {
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
        dom::set_data(&run, "phase", &format!("{phase:?}").to_lowercase());
    }
}

/// The run's one-page summary (`web::summary`) in the page's language, or None before any row.
fn summary_svg(app: &Shared) -> Option<String> {
    let a = app.borrow();
    let run = a.run.as_ref()?;
    let acc = run.accuracy()?;
    let percent = |x: f64| Arg::Number(x, NumberStyle::Percent(1));
    let date = js_sys::Date::new_0().to_iso_string().as_string().unwrap_or_default().chars().take(10).collect::<String>();
    let backend = if a.backend.is_empty() { "?".to_string() } else { a.backend.clone() };
    let words = super::summary::SummaryText {
        title: t_with("summary-title", &[("task", run.task.as_str().into())]),
        headline: t_with(
            "summary-headline",
            &[("accuracy", percent(acc.value)), ("low", percent(acc.low)), ("high", percent(acc.high)), ("done", run.done().into()), ("total", run.total().into())],
        ),
        model: t_with("summary-model", &[("model", run.model.as_str().into()), ("backend", backend.into()), ("date", date.into())]),
        by: t("summary-by"),
        positions: t("summary-positions"),
        chosen: t("summary-chosen"),
        gold_here: t("summary-gold-here"),
        more: Box::new(|n| t_with("summary-more", &[("n", n.into())])),
    };
    Some(super::summary::summary_svg(run, &words, &|x| text::number(x, NumberStyle::Percent(0))))
}

/// The summary, parsed as SVG (our own markup, its text escaped) into `#print-summary`, which
/// only printing shows: the page's fonts draw every script in it.
fn draw_print_summary(app: &Shared) {
    let Some(svg) = summary_svg(app) else { return };
    let Ok(target) = dom::by_id("print-summary") else { return };
    let Ok(parser) = web_sys::DomParser::new() else { return };
    let Ok(parsed) = parser.parse_from_string(&svg, web_sys::SupportedType::ImageSvgXml) else { return };
    let Some(root) = parsed.document_element() else { return };
    dom::clear(&target);
    if let Ok(node) = dom::document().import_node_with_deep(&root, true) {
        let _ = target.append_child(&node);
        dom::set_data(&target, "ready", "true");
    }
}

fn clear_rows() {
    for id in ["result-rows", "breakdown-rows", "bias-rows", "parallel-head", "parallel-rows", "parallel-foot", "fertility-rows", "compare-rows"] {
        if let Ok(el) = dom::by_id(id) {
            dom::clear(&el);
        }
    }
}

/// The run's rows and failed items drawn again from scratch, in order.
fn draw_all_rows(run: &Run) {
    if let Ok(body) = dom::by_id("result-rows") {
        dom::clear(&body);
    }
    for row in run.rows.values() {
        let _ = draw_row(run, row);
    }
    for (index, message) in &run.failed {
        let _ = draw_failure(run, *index, message);
    }
}

/// One result row. Every text goes in as text (`dom::element`), never as markup.
fn draw_row(run: &Run, row: &ItemRow) -> Result<(), String> {
    let item = run.items.get(row.index).ok_or("a row for an item that does not exist")?;
    let tr = dom::element("tr", "", "")?;
    let _ = tr.set_attribute("tabindex", "0");
    dom::set_data(&tr, "index", &row.index.to_string());
    dom::set_data(&tr, "item-id", &item.id);
    dom::set_data(&tr, "chosen", &row.chosen.to_string());
    dom::set_data(&tr, "gold", &item.gold.to_string());
    dom::set_data(&tr, "correct", if row.correct { "true" } else { "false" });
    dom::set_data(&tr, "ll", &serde_json::to_string(&row.loglikelihoods).map_err(|e| e.to_string())?);

    dom::append(&tr, &dom::element("td", "num", &(row.index + 1).to_string())?)?;
    let question = dom::element("td", "question", &item.question)?;
    if !item.language.is_empty() {
        let _ = question.set_attribute("lang", &item.language);
    }
    dom::append(&tr, &question)?;

    if item.choices.is_empty() {
        return draw_text_row(run, item, row, tr);
    }
    let options = dom::element("td", "options", "")?;
    let probs = probabilities(&row.loglikelihoods);
    for (i, choice) in item.choices.iter().enumerate() {
        let mut class = String::from("option");
        if i == row.chosen {
            class += " chosen";
        }
        if i == item.gold {
            class += " gold";
        }
        let line = dom::element("div", &class, "")?;
        dom::append(&line, &dom::element("span", "mark", "")?)?;
        let label = dom::element("span", "label", choice)?;
        if !item.language.is_empty() {
            let _ = label.set_attribute("lang", &item.language);
        }
        dom::append(&line, &label)?;
        let bar = dom::element("span", "bar", "")?;
        let fill = dom::element("span", "", "")?;
        let p = probs.get(i).copied().unwrap_or(0.0);
        // Through the CSSOM, which the page's Content-Security-Policy allows (a `style` attribute it refuses).
        if let Some(fill) = fill.dyn_ref::<web_sys::HtmlElement>() {
            let _ = fill.style().set_property("width", &format!("{:.1}%", 100.0 * p));
        }
        dom::append(&bar, &fill)?;
        dom::append(&line, &bar)?;
        dom::append(&line, &dom::element("span", "pct", &text::number(p, NumberStyle::Percent(0)))?)?;
        dom::append(&options, &line)?;
    }
    dom::append(&tr, &options)?;

    let letter = |i: usize| char::from(b'A' + (i.min(25) as u8)).to_string();
    let verdict = if row.correct {
        t("row-correct")
    } else {
        t_with("row-wrong", &[("chosen", letter(row.chosen).into()), ("gold", letter(item.gold).into())])
    };
    dom::append(&tr, &dom::element("td", if row.correct { "result correct" } else { "result wrong" }, &verdict)?)?;
    dom::append(&tr, &dom::element("td", "ms", &format!("{:.0}", row.elapsed_ms))?)?;

    insert_in_order(run, row.index, &tr)
}

/// The row of a generation (the response, the reference below it) or of a loglikelihood item
/// (the continuation and its log-likelihood): `correct` is the exact match under the task's
/// first filter, or the continuation being the greedy one.
fn draw_text_row(run: &Run, item: &ItemView, row: &ItemRow, tr: web_sys::Element) -> Result<(), String> {
    let cell = dom::element("td", "options", "")?;
    let line = |class: &str, text: &str| -> Result<(), String> {
        let div = dom::element("div", class, text)?;
        if !item.language.is_empty() {
            let _ = div.set_attribute("lang", &item.language);
        }
        dom::append(&cell, &div)
    };
    match &row.response {
        Some(response) => {
            dom::set_data(&tr, "response", response);
            line("response", response)?;
            line("reference", item.reference.as_deref().unwrap_or_default())?;
        }
        None => {
            line("reference", item.reference.as_deref().unwrap_or_default())?;
            let ll = row.loglikelihoods.first().copied().unwrap_or(f64::NAN);
            line("ll", &text::number(ll, NumberStyle::Decimal(3)))?;
        }
    }
    dom::append(&tr, &cell)?;
    let verdict = t(if row.correct { "row-correct" } else { "row-differs" });
    dom::append(&tr, &dom::element("td", if row.correct { "result correct" } else { "result wrong" }, &verdict)?)?;
    dom::append(&tr, &dom::element("td", "ms", &format!("{:.0}", row.elapsed_ms))?)?;
    insert_in_order(run, row.index, &tr)
}

/// A generation's text so far, in a provisional row (`data-status=generating`) that its
/// finished row replaces.
fn show_generating(app: &Shared, index: usize, text: &str) -> Result<(), String> {
    let a = app.borrow();
    let Some(run) = &a.run else { return Ok(()) };
    let Some(item) = run.items.get(index) else { return Ok(()) };
    if run.rows.contains_key(&index) {
        return Ok(());
    }
    let tr = dom::element("tr", "generating", "")?;
    dom::set_data(&tr, "index", &index.to_string());
    dom::set_data(&tr, "item-id", &item.id);
    dom::set_data(&tr, "status", "generating");
    dom::set_data(&tr, "ll", "[]");
    dom::append(&tr, &dom::element("td", "num", &(index + 1).to_string())?)?;
    let question = dom::element("td", "question", &item.question)?;
    let response = dom::element("td", "options", "")?;
    let _ = response.set_attribute("colspan", "2");
    let text = dom::element("div", "response", text)?;
    if !item.language.is_empty() {
        let _ = question.set_attribute("lang", &item.language);
        let _ = text.set_attribute("lang", &item.language);
    }
    dom::append(&tr, &question)?;
    dom::append(&response, &text)?;
    dom::append(&tr, &response)?;
    dom::append(&tr, &dom::element("td", "result", "…")?)?;
    insert_in_order(run, index, &tr)
}

/// `#run-metrics`: every metric of the run with its standard error, as its results file has
/// them (`scoring::session`, from the rows' sample lines; `data-metrics`: `{"name,filter": value}`).
fn draw_metrics(run: &Run) {
    let Ok(p) = dom::by_id("run-metrics") else { return };
    let metrics = run.metrics().unwrap_or_default();
    let mut shown = Vec::new();
    let mut data = serde_json::Map::new();
    for m in &metrics {
        let digits = if m.value.abs() >= 10.0 { 2 } else { 4 };
        let value = text::number(m.value, NumberStyle::Decimal(digits));
        let stderr = m.stderr.map(|s| format!(" ± {}", text::number(s, NumberStyle::Decimal(digits)))).unwrap_or_default();
        shown.push(format!("{},{} {value}{stderr}", m.name, m.filter));
        data.insert(format!("{},{}", m.name, m.filter), serde_json::json!(m.value));
    }
    p.set_text_content(Some(&shown.join(" · ")));
    dom::set_data(&p, "metrics", &serde_json::Value::Object(data).to_string());
    dom::set_hidden("run-metrics", metrics.is_empty());
}

/// Rows stay in item order whatever order they arrive in (restored ones first); a row replaces
/// the item's provisional one.
fn insert_in_order(run: &Run, index: usize, tr: &web_sys::Element) -> Result<(), String> {
    let body = dom::by_id("result-rows")?;
    if let Ok(Some(old)) = body.query_selector(&format!("tr[data-index=\"{index}\"]")) {
        old.remove();
    }
    let next_row = run.rows.range(index + 1..).next().map(|(i, _)| *i);
    let next_failed = run.failed.range(index + 1..).next().map(|(i, _)| *i);
    let later = [next_row, next_failed]
        .into_iter()
        .flatten()
        .min()
        .and_then(|i| body.query_selector(&format!("tr[data-index=\"{i}\"]")).ok().flatten());
    match later {
        Some(next) => body.insert_before(tr, Some(&next)).map(|_| ()).map_err(|_| "cannot insert a row".to_string()),
        None => dom::append(&body, tr),
    }
}

/// The row of an item whose scoring crashed the worker: its question and the message.
fn draw_failure(run: &Run, index: usize, message: &str) -> Result<(), String> {
    let item = run.items.get(index).ok_or("a failure for an item that does not exist")?;
    let tr = dom::element("tr", "failed", "")?;
    dom::set_data(&tr, "index", &index.to_string());
    dom::set_data(&tr, "item-id", &item.id);
    dom::set_data(&tr, "status", "failed");
    dom::set_data(&tr, "ll", "[]");
    dom::append(&tr, &dom::element("td", "num", &(index + 1).to_string())?)?;
    let question = dom::element("td", "question", &item.question)?;
    if !item.language.is_empty() {
        let _ = question.set_attribute("lang", &item.language);
    }
    dom::append(&tr, &question)?;
    let cell = dom::element("td", "options", &t_with("row-not-scored", &[("message", message.into())]))?;
    let _ = cell.set_attribute("colspan", "2");
    dom::append(&tr, &cell)?;
    dom::append(&tr, &dom::element("td", "result failed", &t("row-failed"))?)?;
    insert_in_order(run, index, &tr)
}

/// How many of the run's rows are committed to IndexedDB (`data-saved` on the summary).
fn show_saved(app: &Shared) {
    if let Ok(summary) = dom::by_id("run-summary") {
        dom::set_data(&summary, "saved", &app.borrow().saved.to_string());
    }
}

/// `#position-warning[data-position|data-share]`: shown while one option position takes most of
/// the model's choices (`Run::collapsed_position`), pointing at the cloze form and the bias view.
fn draw_position_warning(collapsed: Option<CollapsedPosition>) {
    let Ok(p) = dom::by_id("position-warning") else { return };
    let Some(c) = collapsed else {
        dom::set_data(&p, "position", "");
        dom::set_data(&p, "share", "");
        dom::set_hidden("position-warning", true);
        return;
    };
    let letter = char::from_u32('A' as u32 + c.position as u32).unwrap_or('?');
    let share = Arg::Number(c.share, NumberStyle::Percent(0));
    text::show("position-warning", match c.cloze {
        Some(task) => key_with("position-warning-cloze", vec![("letter", letter.to_string().into()), ("share", share), ("task", task.into())]),
        None => key_with("position-warning", vec![("letter", letter.to_string().into()), ("share", share)]),
    });
    dom::set_data(&p, "position", &c.position.to_string());
    dom::set_data(&p, "share", &format!("{:.3}", c.share));
    dom::set_hidden("position-warning", false);
}

fn update_summary(app: &Shared) {
    let a = app.borrow();
    let Ok(summary) = dom::by_id("run-summary") else { return };
    let Some(run) = &a.run else {
        summary.set_text_content(Some(&t("run-nothing")));
        dom::set_data(&summary, "done", "0");
        dom::set_data(&summary, "total", "0");
        dom::set_data(&summary, "accuracy", "");
        return;
    };
    dom::set_data(&summary, "done", &run.done().to_string());
    dom::set_data(&summary, "total", &run.total().to_string());
    dom::set_data(&summary, "task", &run.task);
    dom::set_data(&summary, "key", &run.key);
    let text = match run.accuracy() {
        Some(acc) => {
            dom::set_data(&summary, "accuracy", &acc.value.to_string());
            let percent = |x: f64| Arg::Number(x, NumberStyle::Percent(1));
            t_with(
                "run-summary",
                &[
                    ("done", run.done().into()),
                    ("total", run.total().into()),
                    ("accuracy", percent(acc.value)),
                    ("low", percent(acc.low)),
                    ("high", percent(acc.high)),
                    ("task", run.task.as_str().into()),
                    ("model", run.model.as_str().into()),
                ],
            )
        }
        None => {
            dom::set_data(&summary, "accuracy", "");
            t_with("run-summary-empty", &[("done", 0usize.into()), ("total", run.total().into()), ("task", run.task.as_str().into())])
        }
    };
    dom::set_data(&summary, "failed", &run.failed.len().to_string());
    let text = match run.failed.len() {
        0 => text,
        n => format!("{text} · {}", t_with("run-summary-failed", &[("n", n.into())])),
    };
    // Which documents the run is of: "language = dz · a sample of 20 (seed 1234)".
    let mut selection: Vec<String> = run.settings.filters.iter().map(|(f, v)| format!("{f} = {v}")).collect();
    if let Some(k) = run.settings.sample {
        selection.push(t_with("run-sample", &[("n", k.into()), ("seed", run.settings.seed.to_string().into())]));
    }
    let text = std::iter::once(text).chain(selection).collect::<Vec<_>>().join(" · ");
    summary.set_text_content(Some(&text));
    draw_position_warning(run.collapsed_position());
    drop(a);
    app.borrow_mut().analysis.dirty = [true; VIEWS.len()];
    schedule_analysis(app);
}

/// Watches which analysis views are on screen; one that comes into view out of date is drawn.
/// Without `IntersectionObserver` every view counts as visible.
fn observe_views(app: &Shared) {
    let a = app.clone();
    let callback = wasm_bindgen::closure::Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
        let mut due = false;
        for entry in entries.iter() {
            let entry: web_sys::IntersectionObserverEntry = entry.unchecked_into();
            let id = entry.target().id();
            let Some(i) = VIEWS.iter().position(|v| *v == id) else { continue };
            let mut s = a.borrow_mut();
            s.analysis.visible[i] = entry.is_intersecting();
            due |= s.analysis.visible[i] && s.analysis.dirty[i];
        }
        if due {
            schedule_analysis(&a);
        }
    });
    let Ok(observer) = web_sys::IntersectionObserver::new(callback.as_ref().unchecked_ref()) else { return };
    callback.forget();
    for id in VIEWS {
        if let Ok(el) = dom::by_id(id) {
            observer.observe(&el);
        }
    }
    // It lives as long as the page.
    std::mem::forget(observer);
}

/// Draws the out-of-date visible views at the next animation frame, and not before
/// `ANALYSIS_INTERVAL_MS` (or four times the last redraw) after the last one.
fn schedule_analysis(app: &Shared) {
    let wait = {
        let mut a = app.borrow_mut();
        if a.analysis.scheduled {
            return;
        }
        a.analysis.scheduled = true;
        (a.analysis.next_at - js_sys::Date::now()).max(0.0)
    };
    let app = app.clone();
    gloo::timers::callback::Timeout::new(wait as u32, move || {
        let draw = wasm_bindgen::closure::Closure::once_into_js(move || {
            let started = js_sys::Date::now();
            app.borrow_mut().analysis.scheduled = false;
            draw_views(&app, false);
            let cost = js_sys::Date::now() - started;
            app.borrow_mut().analysis.next_at = js_sys::Date::now() + (4.0 * cost).max(ANALYSIS_INTERVAL_MS);
        });
        if gloo::utils::window().request_animation_frame(draw.unchecked_ref()).is_err() {
            let _ = draw.unchecked_ref::<js_sys::Function>().call0(&JsValue::NULL);
        }
    })
    .forget();
}

/// Draws every out-of-date view now, on screen or not: when the run stops (done, paused), a saved
/// run is opened, or runs to compare are; so what a finished run shows is always complete.
fn flush_analysis(app: &Shared) {
    draw_views(app, true);
    if let Some(run) = &app.borrow().run {
        draw_metrics(run);
    }
}

/// Draws the out-of-date views (only the visible ones unless `all`).
fn draw_views(app: &Shared, all: bool) {
    let due: Vec<usize> = {
        let mut a = app.borrow_mut();
        let due: Vec<usize> = (0..VIEWS.len()).filter(|&i| a.analysis.dirty[i] && (all || a.analysis.visible[i])).collect();
        for &i in &due {
            a.analysis.dirty[i] = false;
        }
        due
    };
    let a = app.borrow();
    let Some(run) = &a.run else { return };
    for i in due {
        let drawn = match VIEWS[i] {
            "view-breakdown" => draw_breakdown(run),
            "view-bias" => draw_bias(run),
            "view-parallel" => draw_parallel(run, &a.comparisons),
            _ => draw_comparison(run, a.comparisons.first()),
        };
        if let Err(e) = drawn {
            web_sys::console::warn_1(&e.into());
        }
    }
}

/// Groups × languages with ✓/✗ per cell, then each language's accuracy on all its grouped items
/// and on the groups answered in every language.
fn draw_parallel(run: &Run, others: &[(String, Run)]) -> Result<(), String> {
    let this_run = t("parallel-this-run");
    let mut runs: Vec<(&str, &Run)> = vec![(this_run.as_str(), run)];
    runs.extend(others.iter().map(|(name, r)| (name.as_str(), r)));
    let table = super::run::parallel_table(&runs);
    let (head, body, foot) = (dom::by_id("parallel-head")?, dom::by_id("parallel-rows")?, dom::by_id("parallel-foot")?);
    for el in [&head, &body, &foot] {
        dom::clear(el);
    }
    let el = dom::by_id("parallel")?;
    dom::set_data(&el, "groups", &table.groups.len().to_string());
    dom::set_data(&el, "complete", &table.complete.to_string());
    dom::set_data(&el, "runs", &runs.len().to_string());
    if table.groups.is_empty() {
        return Ok(());
    }
    let tr = dom::element("tr", "", "")?;
    dom::append(&tr, &dom::element("th", "", &t("col-group"))?)?;
    for variant in &table.variants {
        dom::append(&tr, &dom::element("th", "", variant)?)?;
    }
    dom::append(&head, &tr)?;
    for group in &table.groups {
        let tr = dom::element("tr", "", "")?;
        dom::set_data(&tr, "group", &group.key);
        let name = group.key.split_once(':').map_or(group.key.as_str(), |(_, k)| k);
        dom::append(&tr, &dom::element("td", "", name)?)?;
        for (variant, cell) in table.variants.iter().zip(&group.cells) {
            let (text, class) = match cell {
                None => (String::new(), ""),
                Some(c) if c.answered == 0 => ("…".into(), ""),
                Some(c) if c.items.len() == 1 && c.correct == 1 => ("✓".into(), "result correct"),
                Some(c) if c.items.len() == 1 => ("✗".into(), "result wrong"),
                Some(c) => (format!("{}/{}", c.correct, c.answered), ""),
            };
            let td = dom::element("td", class, &text)?;
            // `data-language` is the column, a language or a variant such as `dz+en`.
            dom::set_data(&td, "language", variant);
            if let Some(c) = cell {
                dom::set_data(&td, "answered", &c.answered.to_string());
                dom::set_data(&td, "correct", &c.correct.to_string());
                dom::set_data(&td, "run", &c.run.to_string());
                let items = &runs[c.run].1.items;
                let ids: Vec<&str> = c.items.iter().filter_map(|&i| items.get(i)).map(|i| i.id.as_str()).collect();
                let _ = td.set_attribute("title", &format!("{}: {}", runs[c.run].0, ids.join(", ")));
            }
            dom::append(&tr, &td)?;
        }
        dom::append(&body, &tr)?;
    }
    let percent = |x: Option<f64>, n: usize| {
        x.map(|x| t_with("share-of", &[("share", Arg::Number(x, NumberStyle::Percent(0))), ("n", n.into())])).unwrap_or_else(|| "—".into())
    };
    let every = t("parallel-every-item");
    let common_label = t_with("parallel-common", &[("n", table.complete.into())]);
    for (label, common) in [(every.as_str(), false), (common_label.as_str(), true)] {
        let tr = dom::element("tr", "", "")?;
        dom::set_data(&tr, "common", if common { "true" } else { "false" });
        dom::append(&tr, &dom::element("th", "", label)?)?;
        for acc in &table.accuracy {
            let (x, n) = if common { (acc.common_accuracy, acc.common_answered) } else { (acc.accuracy, acc.answered) };
            let td = dom::element("td", "", &percent(x, n))?;
            dom::set_data(&td, "language", &acc.variant);
            dom::set_data(&td, "accuracy", &x.map(|x| x.to_string()).unwrap_or_default());
            dom::append(&tr, &td)?;
        }
        dom::append(&foot, &tr)?;
    }
    Ok(())
}

fn show_fertility(rows: &[FertilityRow]) -> Result<(), String> {
    let body = dom::by_id("fertility-rows")?;
    dom::clear(&body);
    let ratio = |x: Option<f64>| x.map(|x| text::number(x, NumberStyle::Decimal(2))).unwrap_or_else(|| "—".into());
    for r in rows {
        let tr = dom::element("tr", "", "")?;
        dom::set_data(&tr, "language", &r.language);
        dom::set_data(&tr, "tokens", &r.tokens.to_string());
        dom::set_data(&tr, "words", &r.words.to_string());
        dom::set_data(&tr, "chars", &r.chars.to_string());
        for cell in [r.language.clone(), text::number(r.texts as f64, NumberStyle::Integer), text::number(r.tokens as f64, NumberStyle::Integer), ratio(r.tokens_per_word), ratio(r.tokens_per_syllable), ratio(r.tokens_per_char)] {
            dom::append(&tr, &dom::element("td", "", &cell)?)?;
        }
        dom::append(&body, &tr)?;
    }
    Ok(())
}

/// The counts of the two runs' verdicts, and the items they disagree on.
fn draw_comparison(run: &Run, comparison: Option<&(String, Run)>) -> Result<(), String> {
    let body = dom::by_id("compare-rows")?;
    dom::clear(&body);
    let summary = dom::by_id("compare-summary")?;
    let Some((name, other)) = comparison else { return Ok(()) };
    let c = run.compare(other);
    for (key, n) in [("both-right", c.both_right), ("both-wrong", c.both_wrong), ("only-a", c.only_a), ("only-b", c.only_b)] {
        dom::set_data(&summary, key, &n.to_string());
    }
    let mut said = t_with(
        "compare-summary",
        &[
            ("name", name.as_str().into()),
            ("n", (c.both_right + c.both_wrong + c.only_a + c.only_b).into()),
            ("both_right", c.both_right.into()),
            ("both_wrong", c.both_wrong.into()),
            ("only_a", c.only_a.into()),
            ("only_b", c.only_b.into()),
        ],
    );
    if c.unmatched_a + c.unmatched_b > 0 {
        said = format!("{said} · {}", t_with("compare-unmatched", &[("a", c.unmatched_a.into()), ("b", c.unmatched_b.into())]));
    }
    summary.set_text_content(Some(&said));
    let (right, wrong) = (t("verdict-right"), t("verdict-wrong"));
    let verdict = |ok: bool| if ok { right.as_str() } else { wrong.as_str() };
    for d in &c.differences {
        let tr = dom::element("tr", "", "")?;
        dom::set_data(&tr, "item-id", &d.id);
        dom::set_data(&tr, "a", if d.a { "true" } else { "false" });
        dom::set_data(&tr, "b", if d.b { "true" } else { "false" });
        let item = run.items.get(d.index);
        dom::append(&tr, &dom::element("td", "num", &(d.index + 1).to_string())?)?;
        dom::append(&tr, &dom::element("td", "", &d.id)?)?;
        let question = dom::element("td", "question", item.map_or("", |i| i.question.as_str()))?;
        if let Some(language) = item.map(|i| i.language.as_str()).filter(|l| !l.is_empty()) {
            let _ = question.set_attribute("lang", language);
        }
        dom::append(&tr, &question)?;
        dom::append(&tr, &dom::element("td", if d.a { "result correct" } else { "result wrong" }, verdict(d.a))?)?;
        dom::append(&tr, &dom::element("td", if d.b { "result correct" } else { "result wrong" }, verdict(d.b))?)?;
        dom::append(&body, &tr)?;
    }
    Ok(())
}

/// Saved runs (samples JSONL) to compare the current run with: the first item by item, all of
/// them in the same-question table.
async fn open_comparison(app: &Shared) {
    let files = dom::files("compare-file");
    if files.is_empty() {
        return;
    }
    let mut opened = Vec::new();
    for file in files {
        let result = async {
            let text = JsFuture::from(file.text()).await.map_err(|_| format!("{}: cannot be read", file.name()))?;
            Run::from_samples_jsonl(&file.name(), &text.as_string().unwrap_or_default()).map_err(|e| e.to_string())
        }
        .await;
        match result {
            Ok(run) => opened.push((file.name(), run)),
            Err(e) => return show_error(&e),
        }
    }
    clear_error();
    app.borrow_mut().comparisons = opened;
    update_summary(app);
    flush_analysis(app);
}

fn draw_breakdown(run: &Run) -> Result<(), String> {
    let body = dom::by_id("breakdown-rows")?;
    dom::clear(&body);
    for b in run.breakdown() {
        let tr = dom::element("tr", "", "")?;
        for cell in [b.field.clone(), b.value.clone(), text::number(b.n as f64, NumberStyle::Integer), text::number(b.accuracy, NumberStyle::Percent(1))] {
            dom::append(&tr, &dom::element("td", "", &cell)?)?;
        }
        dom::append(&body, &tr)?;
    }
    Ok(())
}

fn draw_bias(run: &Run) -> Result<(), String> {
    let body = dom::by_id("bias-rows")?;
    dom::clear(&body);
    for p in run.position_bias() {
        let tr = dom::element("tr", "", "")?;
        let letter = char::from(b'A' + (p.position.min(25) as u8)).to_string();
let percent = |x: f64| text::number(x, NumberStyle::Percent(0));
        let acc = p.accuracy_when_gold.map(percent).unwrap_or_else(|| "—".into());
        for cell in [letter, text::number(p.gold_count as f64, NumberStyle::Integer), acc, percent(p.chosen_share), percent(p.uniform_share)] {
            dom::append(&tr, &dom::element("td", "", &cell)?)?;
        }
        dom::append(&body, &tr)?;
    }
    Ok(())
}

/// The inspector: the exact prompt, each option's scores, and the same question in other languages.
fn select_row(app: &Shared, index: usize) {
    let result = (|| -> Result<(), String> {
        let mut a = app.borrow_mut();
        a.selected = Some(index);
        let run = a.run.as_ref().ok_or("no run")?;
        let item = run.items.get(index).ok_or("no such item")?;
        let row = run.rows.get(&index);
        if let Ok(rows) = dom::by_id("result-rows")?.query_selector_all("tr[aria-selected]") {
            for i in 0..rows.length() {
                if let Some(el) = rows.get(i).and_then(|n| n.dyn_into::<Element>().ok()) {
                    let _ = el.remove_attribute("aria-selected");
                }
            }
        }
        if let Ok(Some(tr)) = dom::by_id("result-rows")?.query_selector(&format!("tr[data-index=\"{index}\"]")) {
            let _ = tr.set_attribute("aria-selected", "true");
        }
        dom::set_hidden("inspector", false);
        text::show("inspector-heading", key_with("inspector-item", vec![("number", (index + 1).into()), ("id", item.id.as_str().into())]));
        let prompt = dom::by_id("inspector-prompt")?;
        prompt.set_text_content(Some(&item.context));
        if !item.language.is_empty() {
            let _ = prompt.set_attribute("lang", &item.language);
        }
        text::show("inspector-tokens", Said::Raw(String::new()));
        let body = dom::by_id("inspector-options")?;
        dom::clear(&body);
        for (i, choice) in item.choices.iter().enumerate() {
            let tr = dom::element("tr", if i == item.gold { "gold" } else { "" }, "")?;
            let ll = row.and_then(|r| r.loglikelihoods.get(i)).copied();
            let cells = [
                format!("{}{}", if i == item.gold { "★ " } else { "" }, choice),
                ll.map(|l| format!("{l:.4}")).unwrap_or_default(),
                // acc_norm's divisor, lm-eval's: the choice's length in characters.
                ll.map(|l| format!("{:.4}", l / choice.chars().count().max(1) as f64)).unwrap_or_default(),
                row.and_then(|r| r.token_counts.get(i)).map(|t| t.to_string()).unwrap_or_default(),
                row.and_then(|r| r.is_greedy.get(i)).map(|g| t(if *g { "yes" } else { "no" })).unwrap_or_default(),
            ];
            for cell in cells {
                dom::append(&tr, &dom::element("td", "", &cell)?)?;
            }
            dom::append(&body, &tr)?;
        }
        // Parallel versions: items of the same `group` (the demo) or `parallel` link.
        let parallel = dom::by_id("inspector-parallel")?;
        dom::clear(&parallel);
        // Items of the same `group` (the demo) or joined by DZEN-style `parallel` ids.
        if let Some(group) = super::run::parallel_key(item) {
            let others: Vec<_> =
                run.items.iter().filter(|o| o.index != index && super::run::parallel_key(o).as_ref() == Some(&group)).collect();
            if !others.is_empty() {
                dom::append(&parallel, &dom::element("h3", "", &t("inspector-other-languages"))?)?;
                for o in others {
                    let verdict = match run.rows.get(&o.index) {
                        Some(r) if r.correct => "✓",
                        Some(_) => "✗",
                        None => "…",
                    };
                    let p = dom::element("p", "", &format!("{verdict} {}", o.question))?;
                    if !o.language.is_empty() {
                        let _ = p.set_attribute("lang", &o.language);
                    }
                    dom::append(&parallel, &p)?;
                }
            }
        }
        let worker = a.worker.clone();
        let can_tokenize = a.model_loaded && a.phase != Phase::Idle;
        drop(a);
        if can_tokenize {
            post(&worker, &ToWorker::Tokenize { index })?;
        }
        Ok(())
    })();
    if let Err(e) = result {
        show_error(&e);
    }
}

fn show_tokens(app: &Shared, index: usize, pieces: &[String], count: usize) -> Result<(), String> {
    if app.borrow().selected != Some(index) {
        return Ok(());
    }
    let prompt = dom::by_id("inspector-prompt")?;
    dom::clear(&prompt);
    // Runs of whole characters, so the text is shaped exactly as the plain prompt (see `segments`).
    let segments = super::segments::token_segments(pieces);
    let split = segments.iter().any(|s| s.split) || pieces.len() < count;
    for segment in &segments {
        let span = dom::element("span", if segment.split { "tok split" } else { "tok" }, &segment.text)?;
        if segment.pieces > 1 {
            dom::set_data(&span, "tokens", &segment.pieces.to_string());
        }
        dom::append(&prompt, &span)?;
    }
    dom::set_data(&prompt, "segments", &segments.len().to_string());
    let message = if split { "inspector-tokens-split" } else { "inspector-tokens" };
    text::show("inspector-tokens", key_with(message, vec![("n", count.into())]));
    Ok(())
}

fn export(app: &Shared, kind: &str) -> Result<(), String> {
    let a = app.borrow();
    let run = a.run.as_ref().ok_or("nothing to export yet")?;
    let backend = if a.backend.is_empty() { "unknown" } else { a.backend.as_str() };
    match kind {
        "jsonl" => dom::download(&format!("samples_{}.jsonl", run.task), "application/jsonl", &run.samples_jsonl()),
        "json" => dom::download(
            &format!("results_{}.json", run.task),
            "application/json",
            &run.results_json(backend, a.started_unix, js_sys::Date::now() / 1e3).map_err(|e| e.to_string())?,
        ),
        _ => dom::download(&format!("items_{}.csv", run.task), "text/csv", &run.csv().map_err(|e| e.to_string())?),
    }
}

async fn import(app: &Shared) {
    let Some(file) = dom::files("import-file").into_iter().next() else { return };
    let result = async {
        let text = JsFuture::from(file.text()).await.map_err(|_| format!("{}: cannot be read", file.name()))?;
        let text = text.as_string().unwrap_or_default();
        Run::from_samples_jsonl(&file.name(), &text).map_err(|e| e.to_string())
    }
    .await;
    match result {
        Ok(run) => {
            clear_error();
            clear_rows();
            draw_all_rows(&run);
            let name = file.name();
            {
                let mut a = app.borrow_mut();
                a.phase = Phase::Done;
                a.run = Some(run);
                a.run_prepared = false;
            }
            dom::set_hidden("inspector", true);
            say(key_with("status-saved-run", vec![("name", name.into())]));
            update_summary(app);
            flush_analysis(app);
            show_controls(app, Phase::Done);
        }
        Err(e) => show_error(&e),
    }
}

/// The status line: what the page is doing, in the page's language.
fn say(said: Said) {
    text::show("status", said);
}

fn clear_error() {
    if let Ok(el) = dom::by_id("error") {
        el.set_text_content(None);
        dom::set_data(&el, "visible", "false");
    }
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
        ("device-backend", format!("{} ({})", info.label(), a.api)),
        ("device-adapter", [a.vendor.as_str(), a.architecture.as_str(), a.name.as_str()]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(" · ")),
        ("device-type", a.device_type.clone()),
    ];
    if let (Some(kernel), true) = (&info.int8_kernel, info.activations == crate::backend::Activations::Int8) {
        rows.push(("device-kernel", kernel.clone()));
    }
    if let Some(fallback) = a.is_fallback_adapter {
        rows.push(("device-fallback", t(if fallback { "yes" } else { "no" })));
    }
    if let Some(limits) = info.limits {
        rows.push(("maxStorageBufferBindingSize", format_bytes(limits.max_storage_buffer_binding_size)));
        rows.push(("maxBufferSize", format_bytes(limits.max_buffer_size)));
    }
    if let Some(reason) = &info.fallback_reason {
        rows.push(("device-why-not-webgpu", reason.clone()));
    }
    for (key, value) in rows {
        // The two limits are WebGPU's own names; the rest are messages.
        let label = if key.starts_with("max") { key.to_string() } else { t(key) };
        dom::append(&table, &dom::key_value_row(&label, &value)?)?;
    }
    dom::set_data(&table, "backend", info.backend.name());
    dom::set_data(&table, "label", info.label());
    dom::set_data(&table, "int8-kernel", info.int8_kernel.as_deref().unwrap_or(""));
    dom::set_data(&table, "architecture", &a.architecture);
    Ok(())
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
            t(if check.passed { "selftest-matches" } else { "selftest-differs" }),
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
    let summary = key_with(
        if report.passed { "selftest-summary-passed" } else { "selftest-summary-failed" },
        vec![("device", report.backend.label().into()), ("ms", Arg::Number(report.elapsed_ms, NumberStyle::Integer))],
    );
    text::show("device-summary", key("device-summary-done").with_part("summary", summary));
    Ok(())
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
    say(key_with("status-scored", vec![("n", choices.len().into()), ("backend", backend.into())]));
    Ok(())
}

fn head(values: &[f32]) -> String {
    values.iter().map(|v| format!("{v:.5}")).collect::<Vec<_>>().join(", ")
}

fn format_bytes(bytes: u64) -> String {
    const MIB: f64 = 1024.0 * 1024.0;
    format!("{bytes} B ({:.0} MiB)", bytes as f64 / MIB)
}
