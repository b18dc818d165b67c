//! The page: starts the worker, turns the user's choices into requests, and draws what comes back.
//! It never touches the device, so the UI stays responsive whatever the worker is doing.
//!
//! A run is driven from here one item at a time: the page asks the worker to score the first item
//! that has no row, draws the row when it arrives, checkpoints it to IndexedDB, and asks for the
//! next. Pausing is not asking; a reload finds the checkpoint and asks only for what is missing.
//! Which item to ask for, pause, the end of a run and the watchdog are `web::driver`'s decisions
//! (plain data, tested natively); this module and its children carry them out.
//!
//! Here: the page's state (`App`), start-up, the controls' wiring, the URL parameters. The rest by
//! concern: `worker_link` (the worker's messages, its replacement after a crash), `control`
//! (starting, pausing and cancelling a run), `files` (where the model and the task come from),
//! `rows` (the run's table and summary), `analysis` (the views under it), `inspector`, `export`,
//! `device` (backend, downloads, cached models), `pool`, `classroom`, `text` (the catalogue).
//!
//! URL parameters (so a link can carry a whole run): `model=demo|<catalog id>|<URL>`,
//! `task=demo|dzen_en|dzen_dz|dzen_dz_en|dzen_en_cloze|dzen_dz_cloze|dzen_dz_en_cloze|dzen_cot_en|dzen_cot_dz` or a catalogue task (the DZEN tasks read the CSVs the user gives or DZEN's release; the catalogue's fetch their files), `limit=N`, `shots=K`, `seed=S`, `order=given|shuffle:N|gold-first|gold-last|rotations`, `pace=MS` (a pause between items, for watching),
//! `filter=FIELD:VALUE` (repeatable: only the documents with that metadata), `sample=N` (a seeded random sample),
//! `experiment=NAME` (with `run=1`: a built-in experiment's runs in turn, going on where a kept one was; `suite`),
//! `run=1` (start at once), `backend=auto|wgpu|cpu|cpu-int8`, `workers=N` (the CPU pool's size, see
//! `pool`), `simd=baseline` (start the SIMD128 build of the worker even where relaxed SIMD is there),
//! `budget_mib=N` (check models against N MiB instead of the backend's memory, to see or test a refusal),
//! `lang=en|dz|am|ti|om|ky|ru` (the interface's language, see `text`), `mode=classroom` (classroom mode,
//! see `classroom`; the run starts by itself). With no parameters the demo runs. The older
//! `model=URL&context=TEXT&choice=…` scores choices once (the score panel under "Device").

mod analysis;
mod classroom;
mod control;
mod device;
mod export;
mod files;
mod inspector;
mod pool;
mod rows;
mod suite;
mod text;
mod worker_link;

use std::cell::RefCell;
use std::rc::Rc;

use gloo::events::EventListener;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::{Element, MessageEvent, Worker};

use super::checkpoint::Checkpoint;
use super::dom;
use super::driver::{Driver, Effect, Event, Fault, Phase};
use super::dropped::{is_gguf, is_task_file, sort_dropped, top_level_files};
use super::protocol::{
    Facet, FertilityRow, FromWorker, ItemRow, ItemView, ModelCheck, ModelSource, RemoteData, RunSettings, Stage,
    ToWorker, RELAXED_SIMD_PROBE, RELAXED_WORKER_SCRIPT, THREADS_RELAXED_WORKER_SCRIPT, THREADS_WORKER_SCRIPT,
    WORKER_SCRIPT,
};
use super::run::{probabilities, run_key, CollapsedPosition, Run};
use crate::backend::{BackendInfo, BackendPreference};
use crate::selftest::SelfTestReport;
use crate::tasks::bundle::{NamedFile, TaskFiles};
use crate::web::i18n::{Arg, NumberStyle};
use analysis::*;
use control::*;
use device::*;
use export::*;
use files::*;
use inspector::*;
use rows::*;
use text::{key, key_with, t, t_with, Said};
use worker_link::*;

const DEMO_MODEL: &str = "models/demo/lingualens-demo-Q8_0.gguf";
const DEMO_TASK: [&str; 2] = ["datasets/tasks/demo/demo.yaml", "datasets/tasks/demo/demo.jsonl"];
/// Built-in tasks served with the app whose data the user gives (`dataset_path: lingualens`: DZEN's
/// CSVs are read from the user's files, never served): the task's value in `#task-select` and
/// its files, the task YAML first.
const DATA_TASKS: [(&str, &[&str]); 15] = [
    ("dzen_en_cloze", &[DZEN_EN_CLOZE, DZEN_CLOZE_COMMON, DZEN_COMMON]),
    ("dzen_dz_cloze", &[DZEN_DZ_CLOZE, DZEN_CLOZE_COMMON, DZEN_COMMON]),
    ("dzen_dz_en_cloze", &[DZEN_DZ_EN_CLOZE, DZEN_CLOZE_COMMON, DZEN_COMMON]),
    ("dzen_en", &["datasets/tasks/dzen/dzen_en.yaml", DZEN_COMMON]),
    ("dzen_dz", &["datasets/tasks/dzen/dzen_dz.yaml", DZEN_COMMON]),
    ("dzen_dz_en", &["datasets/tasks/dzen/dzen_dz_en.yaml", DZEN_COMMON]),
    ("dzen_cot_en", &["datasets/tasks/dzen/dzen_cot_en.yaml", DZEN_COT_COMMON]),
    ("dzen_cot_dz", &["datasets/tasks/dzen/dzen_cot_dz.yaml", DZEN_COT_COMMON]),
    // KyrgyzLLM-Bench: the prompt's include file is read from the authors' code, fetched with the data.
    ("kyrgyz_mmlu", &["datasets/tasks/kyrgyzllm/kyrgyz_mmlu.yaml"]),
    ("kyrgyz_rc", &["datasets/tasks/kyrgyzllm/kyrgyz_rc.yaml"]),
    ("hellaswag_kg", &["datasets/tasks/kyrgyzllm/hellaswag_kg.yaml"]),
    ("winogrande_kg", &["datasets/tasks/kyrgyzllm/winogrande_kg.yaml"]),
    ("winogrande_kg_partial", &["datasets/tasks/kyrgyzllm/winogrande_kg_partial.yaml"]),
    ("truthfulqa_mc1_kg", &["datasets/tasks/kyrgyzllm/truthfulqa_mc1_kg.yaml"]),
    ("boolq_kg", &["datasets/tasks/kyrgyzllm/boolq_kg.yaml"]),
];
const DZEN_COMMON: &str = "datasets/tasks/dzen/dzen_common_yaml";
const DZEN_CLOZE_COMMON: &str = "datasets/tasks/dzen/dzen_cloze_common_yaml";
const DZEN_COT_COMMON: &str = "datasets/tasks/dzen/dzen_cot_common_yaml";
const DZEN_EN_CLOZE: &str = "datasets/tasks/dzen/dzen_en_cloze.yaml";
const DZEN_DZ_CLOZE: &str = "datasets/tasks/dzen/dzen_dz_cloze.yaml";
const DZEN_DZ_EN_CLOZE: &str = "datasets/tasks/dzen/dzen_dz_en_cloze.yaml";
const CATALOG: &str = "models/catalog.json";
/// The worker's model cache (`web::download`), listed and emptied from here.
const MODEL_CACHE: &str = "lingualens-models-v1";

/// A model a user can pick from the list: `models/catalog.json`, and a kit's models (`kit.json`,
/// whose ids the page writes `kit:<id>` and whose URLs are paths inside the site).
type CatalogEntry = crate::catalog::ModelEntry;
/// The prefix of a kit model's id in the model list.
const KIT_MODEL: &str = "kit:";

struct App {
    worker: Worker,
    /// The worker build this page starts (`worker_script`), for replacements and the pool too.
    worker_script: &'static str,
    preference: BackendPreference,
    backend: String,
    checkpoint: Option<Rc<Checkpoint>>,
    catalog: Vec<CatalogEntry>,
    /// What the site carries for offline use (`kit.json`; empty where it has none).
    kit: crate::catalog::KitManifest,
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
    /// The run's course: phase, the item the main worker holds, the watchdog (`web::driver`).
    driver: Driver,
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
    /// The task's files and the benchmark files the worker fetches for it (`RemoteData`).
    task_files: Option<(TaskFiles, Vec<RemoteData>)>,
    /// `?crash_helper=1`: crash the first helper worker on the first item it is asked for, once.
    crash_helper: bool,
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
    /// The experiment under way or finished (`suite`), and whether the current run is its run.
    suite: Option<super::suite::SuiteProgress>,
    suite_driving: bool,
    /// A suite table opened from a file (its name and table), shown instead of `suite` until forgotten.
    suite_saved: Option<(String, super::suite::SavedSuite)>,
}

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
    // The worker build depends on the browser's WebGPU adapter where the page is cross-origin
    // isolated, which is asked asynchronously (`worker_link::worker_script`; at once elsewhere).
    spawn_local(async {
        if let Err(message) = init(worker_script().await) {
            show_error(&message);
        }
    });
}

/// Anything the Content-Security-Policy (www/index.html) blocks is listed on
/// `<body data-csp-violations>` and in the console: the browser tests require the list empty.
fn record_policy_violations() {
    EventListener::new(&gloo::utils::document(), "securitypolicyviolation", |event| {
        let field =
            |name: &str| js_sys::Reflect::get(event, &name.into()).ok().and_then(|v| v.as_string()).unwrap_or_default();
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

fn init(script: &'static str) -> Result<(), String> {
    let preference = match dom::query_param("backend") {
        Some(value) => value.parse::<BackendPreference>()?,
        None => BackendPreference::Auto,
    };
    text::init()?;
    say(key("status-starting"));
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
        kit: Default::default(),
        model_id: None,
        model_loaded: false,
        pending: None,
        tickets: 0,
        run: None,
        run_prepared: false,
        comparisons: Vec::new(),
        driver: Driver::new(
            // The watchdog's floor (`?watchdog_s=`, for tests), and `?crash_item=N` / `?hang_item=N`:
            // crash the worker (or make it stop answering) before item N, once.
            dom::query_param("watchdog_s")
                .and_then(|n| n.trim().parse().ok())
                .filter(|&s| s > 0)
                .unwrap_or(WATCHDOG_FLOOR_S),
            dom::query_param("crash_item").and_then(|n| n.trim().parse().ok()),
            dom::query_param("hang_item").and_then(|n| n.trim().parse().ok()),
        ),
        started_unix: 0.0,
        selected: None,
        autostart: dom::query_param("context").is_none()
            && (!dom::query_params_present() || dom::query_param("run").as_deref() == Some("1")),
        worker_ready: false,
        setup_done: false,
        download_started: 0.0,
        fit_answer: None,
        fit_wake: None,
        analysis: Analysis {
            dirty: [false; VIEWS.len()],
            visible: [true; VIEWS.len()],
            scheduled: false,
            next_at: 0.0,
        },
        generation: 0,
        load_request: None,
        task_files: None,
        crash_helper: dom::query_param("crash_helper").as_deref() == Some("1"),
        saved: 0,
        model_hash: None,
        model_bytes: None,
        helpers: Vec::new(),
        helper_ids: 0,
        classroom: None,
        suite: None,
        suite_driving: false,
        suite_saved: None,
    }));
    listen(&app, &worker, 0);

    apply_url_parameters();
    suite::fill_menu()?;
    suite::restore(&app);
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
    // The service worker (www/sw.js) makes later visits work offline and cross-origin isolated
    // (so they run the threaded worker) on any static host; without one (a non-secure origin, a
    // private window) the app works as before, online, on the pool of workers.
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

/// Copies `limit`, `shots`, `seed`, `pace` and `task` from the address into the controls.
fn apply_url_parameters() {
    for key in ["limit", "shots", "seed", "pace", "order", "sample"] {
        if let Some(v) = dom::query_param(key) {
            dom::set_value(key, &v);
        }
    }
    if let Some(task) = dom::query_param("task") {
        dom::set_value("task-select", if is_menu_task(&task) { &task } else { "files" });
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

/// Whether the Task menu offers `task` (the demo, a DZEN task, a catalogue task).
fn is_menu_task(task: &str) -> bool {
    task == "demo" || DATA_TASKS.iter().any(|(name, _)| *name == task) || files::is_published_task(task)
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
        let select: web_sys::HtmlSelectElement =
            dom::element("select", "", "")?.dyn_into().map_err(|_| "cannot make a select")?;
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
    let Ok(selects) =
        dom::by_id("filters").and_then(|b| b.query_selector_all("select[data-field]").map_err(|_| String::new()))
    else {
        return filters;
    };
    for i in 0..selects.length() {
        let Some(select) = selects.get(i).and_then(|n| n.dyn_into::<web_sys::HtmlSelectElement>().ok()) else {
            continue;
        };
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
    // A kit's models first ("on this server"), then the demo, then the catalogue's downloads.
    let kit = load_kit().await;
    let mut entries: Vec<CatalogEntry> = kit
        .models
        .iter()
        .map(|m| CatalogEntry {
            id: format!("{KIT_MODEL}{}", m.id),
            name: m.name.clone(),
            url: m.path.clone(),
            size_bytes: Some(m.size_bytes),
            sha256: Some(m.sha256.clone()),
            quantization: m.quantization.clone(),
            licence: m.licence.clone(),
        })
        .collect();
    for m in &entries {
        add(&m.id, &model_label(Some(m)));
    }
    add("demo", &model_label(None));
    match fetch_bytes(CATALOG)
        .await
        .and_then(|b| serde_json::from_slice::<crate::catalog::ModelCatalog>(&b).map_err(|e| format!("{CATALOG}: {e}")))
    {
        Ok(catalog) => {
            for m in &catalog.models {
                add(&m.id, &model_label(Some(m)));
            }
            entries.extend(catalog.models);
        }
        Err(e) => web_sys::console::warn_1(&format!("model catalog unavailable: {e}").into()),
    }
    show_kit_note(&kit);
    app.borrow_mut().catalog = entries;
    app.borrow_mut().kit = kit;
    let wanted = dom::query_param("model").unwrap_or_else(|| "demo".into());
    if app.borrow().catalog.iter().any(|m| m.id == wanted) || wanted == "demo" {
        select.set_value(&wanted);
    } else {
        dom::set_value("model-url", &wanted);
        show_picked_model();
    }
}

/// The site's kit manifest (`kit.json`, written by `scripts/build-site.sh`). A site without one
/// answers 404 (or, offline, nothing the service worker kept): no kit, said nowhere. A manifest
/// that does not read is shown as an error, and the page goes on without it.
async fn load_kit() -> crate::catalog::KitManifest {
    use crate::catalog::{KitManifest, KIT_MANIFEST};
    let Ok(response) = JsFuture::from(gloo::utils::window().fetch_with_str(KIT_MANIFEST)).await else {
        return KitManifest::default();
    };
    let Ok(response) = response.dyn_into::<web_sys::Response>() else { return KitManifest::default() };
    if !response.ok() {
        return KitManifest::default();
    }
    let bytes = match response.array_buffer() {
        Ok(promise) => match JsFuture::from(promise).await {
            Ok(buffer) => js_sys::Uint8Array::new(&buffer).to_vec(),
            Err(_) => return KitManifest::default(),
        },
        Err(_) => return KitManifest::default(),
    };
    KitManifest::parse(&bytes).unwrap_or_else(|e| {
        show_error(&e.to_string());
        KitManifest::default()
    })
}

/// Under the task menu: the benchmarks the kit holds, whose tasks then need no files.
fn show_kit_note(kit: &crate::catalog::KitManifest) {
    let names: Vec<&str> = kit.benchmarks.iter().map(|b| b.name.as_str()).collect();
    dom::set_hidden("kit-note", names.is_empty());
    if !names.is_empty() {
        text::show("kit-note", key_with("kit-note", vec![("benchmarks", names.join("; ").into())]));
    }
}

fn wire_controls(app: &Shared) -> Result<(), String> {
    let a = app.clone();
    dom::on("run-start", "click", move |_| {
        // A run started by hand is not the experiment's (which the resume button goes on with).
        a.borrow_mut().suite_driving = false;
        suite::draw(&a);
        start_run(&a)
    })?;
    let a = app.clone();
    dom::on("experiment-start", "click", move |_| {
        let name = dom::value("experiment-select");
        if !name.is_empty() {
            suite::start(&a, &name);
        }
    })?;
    let a = app.clone();
    dom::on("suite-resume", "click", move |_| suite::resume(&a))?;
    let a = app.clone();
    dom::on("suite-forget", "click", move |_| suite::forget(&a))?;
    let a = app.clone();
    dom::on("suite-json", "click", move |_| suite::download(&a, suite::Download::Table))?;
    let a = app.clone();
    dom::on("suite-svg", "click", move |_| suite::download(&a, suite::Download::Chart))?;
    let a = app.clone();
    dom::on("suite-summary", "click", move |_| suite::download(&a, suite::Download::Summary))?;
    let a = app.clone();
    dom::on("suite-print", "click", move |_| suite::print(&a))?;
    let a = app.clone();
    dom::on("suite-file", "change", move |_| {
        let a = a.clone();
        spawn_local(async move { suite::open_saved(&a).await });
    })?;
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
    // Choosing a file or a folder, or typing a URL, means "use this", and the model menu says so;
    // choosing in the menu again means the menu's model.
    dom::on("model-file", "change", |_| {
        dom::set_value("model-url", "");
        dom::set_value("model-folder", "");
        if let Ok(input) = dom::by_id("model-file") {
            let _ = input.remove_attribute("data-folder");
        }
        show_picked_model();
    })?;
    dom::on("model-folder", "change", |_| {
        dom::set_value("model-url", "");
        dom::set_value("model-file", "");
        show_picked_model();
    })?;
    dom::on("model-url", "input", |_| {
        dom::set_value("model-file", "");
        dom::set_value("model-folder", "");
        show_picked_model();
    })?;
    dom::on("model-select", "change", |_| {
        if dom::value("model-select") != PICKED_MODEL {
            if let Ok(input) = dom::by_id("model-file") {
                let _ = input.remove_attribute("data-folder");
            }
            dom::set_value("model-file", "");
            dom::set_value("model-folder", "");
            dom::set_value("model-url", "");
            show_picked_model();
        }
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
        spawn_local(show_task_offline());
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

/// The model list's label for a catalog entry, or for the built-in demo (`None`).
fn model_label(entry: Option<&CatalogEntry>) -> String {
    let Some(m) = entry else { return t("model-demo") };
    let size = m
        .size_bytes
        .map(|b| format!(", {} MB", text::number(b as f64 / 1e6, NumberStyle::Integer)))
        .unwrap_or_default();
    let licence = m.licence.as_deref().map(|l| format!(", {l}")).unwrap_or_default();
    let details = format!("{}{size}{licence}", m.quantization.as_deref().unwrap_or("GGUF"));
    let message = if m.id.starts_with(KIT_MODEL) { "model-on-server" } else { "model-catalog-entry" };
    t_with(message, &[("name", m.name.as_str().into()), ("details", details.into())])
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
            let Some(option) = options.item(i).and_then(|o| o.dyn_into::<web_sys::HtmlOptionElement>().ok()) else {
                continue;
            };
            let value = option.value();
            if value == PICKED_MODEL {
                continue;
            }
            if value == "demo" {
                option.set_text(&model_label(None));
            } else if let Some(m) = a.catalog.iter().find(|m| m.id == value) {
                option.set_text(&model_label(Some(m)));
            }
        }
    }
    show_picked_model();
    if let Some(run) = &app.borrow().run {
        draw_all_rows(run);
    }
    let phase = app.borrow().driver.phase();
    show_controls(app, phase);
    update_summary(app);
    flush_analysis(app);
    classroom::draw(app);
    suite::draw(app);
}

fn row_index_of(event: &web_sys::Event) -> Option<usize> {
    let target: Element = event.target()?.dyn_into().ok()?;
    target.closest("tr[data-index]").ok()??.get_attribute("data-index")?.parse().ok()
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

fn format_bytes(bytes: u64) -> String {
    const MIB: f64 = 1024.0 * 1024.0;
    format!("{bytes} B ({:.0} MiB)", bytes as f64 / MIB)
}
