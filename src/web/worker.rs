//! The Web Worker: owns the compute device, the loaded model and the prepared task, and answers
//! the page's requests one at a time. A run is driven by the page one `ScoreItem` at a time, so
//! pausing is the page not asking for the next item, and nothing here needs to be interrupted.
//!
//! The device is initialised on the first request, asynchronously, because WebGPU's
//! `requestAdapter`/`requestDevice` are promises. wgpu is tried only where `navigator.gpu`
//! exists; without it, or without an adapter, the worker falls back to burn's CPU backend and
//! says why.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::events::EventListener;
use js_sys::Reflect;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

use serde_json::Value as Json;

use super::protocol::{FromWorker, ItemRow, ItemView, ModelSource, RemoteData, RunSettings, Stage, ToWorker};
use super::run;
use super::webgpu;
use crate::backend::{AdapterDescription, BackendKind, BackendPreference, ComputeDevice};
use crate::catalog::SourceRecord;
use crate::engine::{self, LanguageModel};
use crate::eval::{self, RunOptions};
use crate::formats::gguf::GgufFile;
use crate::formats::source::{BlobSource, ByteSource, UrlPrefixSource};
use crate::models::fit;
use crate::selftest;
use crate::tasks::bundle::{NamedFile, TaskFiles};
use crate::tasks::yaml::{LoadOptions, OutputType, Rendered, Request};

/// What the worker holds between requests.
#[derive(Default)]
struct State {
    /// The device in use.
    device: Option<ComputeDevice>,
    /// WebGPU, where the worker chooses by timing (`Auto` on a real adapter, or `?backend=measure`):
    /// each GGUF model is loaded here first and timed against the CPU (see [`keep_the_faster`]);
    /// kept while the CPU is in use, for the next model.
    timed_gpu: Option<ComputeDevice>,
    model: Option<Rc<LanguageModel>>,
    task: Option<Rc<Prepared>>,
}

/// A task's scoring jobs (a document in one choice order each) and how to score and log them.
struct Prepared {
    spec: crate::tasks::yaml::TaskSpec,
    jobs: Vec<eval::Job>,
    metrics: Vec<&'static str>,
    options: eval::ScoreOptions,
    /// Each document's question and options with its language, for `Fertility`.
    texts: Vec<(String, String)>,
}

pub fn start() {
    // A panic traps the wasm instance, so the worker cannot answer again: the page is told why
    // before it dies, replaces the worker and marks the item failed (see `web::page`).
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        // A helper thread of the threaded worker cannot reach the page: the thread waiting for its
        // part panics in turn, and says so from here.
        #[cfg(target_feature = "atomics")]
        if crate::parallel::on_helper_thread() {
            crate::parallel::helper_panicked(info.to_string());
            return;
        }
        post(&FromWorker::Error { stage: Stage::Crash, message: info.to_string(), ticket: None });
    }));
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let state: Rc<RefCell<State>> = Rc::new(RefCell::new(State::default()));
    // Requests are handled in arrival order: each waits for the previous one to finish.
    let queue: Rc<RefCell<Option<js_sys::Promise>>> = Rc::new(RefCell::new(None));

    EventListener::new(&scope, "message", move |event| {
        let Some(event) = event.dyn_ref::<MessageEvent>() else { return };
        let request = serde_wasm_bindgen::from_value::<ToWorker>(event.data());
        // A model file picked by the user travels beside the request, as a `File`.
        let file = Reflect::get(&event.data(), &"file".into()).ok().and_then(|f| f.dyn_into::<web_sys::Blob>().ok());
        // The files of a model folder travel beside the request as an array of `File`s.
        let files: Vec<web_sys::Blob> = Reflect::get(&event.data(), &"files".into())
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Array>().ok())
            .map(|a| a.iter().filter_map(|f| f.dyn_into::<web_sys::Blob>().ok()).collect())
            .unwrap_or_default();
        let state = state.clone();
        let previous = queue.borrow_mut().take();
        let task = wasm_bindgen_futures::future_to_promise(async move {
            if let Some(previous) = previous {
                let _ = JsFuture::from(previous).await;
            }
            match request {
                Ok(request) => handle(request, file, files, &state).await,
                Err(e) => post(&FromWorker::Error {
                    stage: Stage::Request,
                    message: format!("unreadable request: {e}"),
                    ticket: None,
                }),
            }
            Ok(JsValue::UNDEFINED)
        });
        *queue.borrow_mut() = Some(task);
    })
    .forget();
    post(&FromWorker::Ready);
}

async fn handle(request: ToWorker, file: Option<web_sys::Blob>, files: Vec<web_sys::Blob>, state: &Rc<RefCell<State>>) {
    let ticket = match &request {
        ToWorker::PrepareTask { ticket, .. } => Some(*ticket),
        _ => None,
    };
    let stage = request.stage();
    let outcome = match request {
        ToWorker::SelfTest { backend } => match ensure_device(state, backend).await {
            Ok(compute) => selftest::run(&compute)
                .await
                .map(|report| FromWorker::SelfTest { report })
                .map_err(|e| format!("self-test failed to run: {e}")),
            Err(message) => Err(message),
        },
        ToWorker::LoadModel { source: ModelSource::Url { url, check, from }, backend } => {
            let resumed = std::cell::Cell::new(0);
            let progress = |loaded, total, resumed_from| {
                resumed.set(resumed_from);
                post(&FromWorker::Download { loaded, total, from_cache: false, resumed_from })
            };
            match super::download::file_blob(&url, from.as_deref().unwrap_or(&url), &check, progress).await {
                Ok(super::download::Fetched { blob, from_cache, not_kept }) => {
                    if let Some(reason) = not_kept {
                        post(&FromWorker::NotKept { name: crate::catalog::file_name_of(&url), reason });
                    }
                    let size = blob.size() as u64;
                    post(&FromWorker::Download {
                        loaded: size,
                        total: Some(size),
                        from_cache,
                        resumed_from: resumed.get(),
                    });
                    load_model(state, BlobSource::new(url, blob), backend).await
                }
                Err(e) => Err(e),
            }
        }
        ToWorker::LoadModel { source: ModelSource::File { name }, backend } => match file {
            Some(blob) => {
                let hash = super::download::blob_sha256(&blob).await;
                with_hash(load_model(state, BlobSource::new(name, blob), backend).await, hash)
            }
            None => Err(format!("{name}: the file did not reach the worker")),
        },
        ToWorker::LoadModel { source: ModelSource::Folder { folder, names }, backend } => {
            let hash = folder_sha256(&names, &files).await;
            match folder_sources(&folder, names, files) {
                Ok(sources) => with_hash(load_model_folder(state, &folder, sources, backend).await, hash),
                Err(e) => Err(e),
            }
        }
        ToWorker::CheckModel { source: ModelSource::Url { url, check, from }, backend, budget_mib } => {
            let name = url.rsplit('/').next().unwrap_or(&url).to_string();
            match super::download::cached_blob(&url).await {
                Some(blob) => check_model(state, name, BlobSource::new(url, blob), backend, budget_mib).await,
                None => match UrlPrefixSource::open(from.as_deref().unwrap_or(&url), check.size).await {
                    Ok(source) => check_model(state, name, source, backend, budget_mib).await,
                    Err(e) => Ok(unchecked(name, format!("the header could not be read by ranges ({e})"))),
                },
            }
        }
        ToWorker::CheckModel { source: ModelSource::File { name }, backend, budget_mib } => match file {
            Some(blob) => check_model(state, name.clone(), BlobSource::new(name, blob), backend, budget_mib).await,
            None => Err(format!("{name}: the file did not reach the worker")),
        },
        ToWorker::CheckModel { source: ModelSource::Folder { folder, names }, backend, budget_mib } => {
            match folder_sources(&folder, names, files) {
                Ok(sources) => check_model_folder(state, folder, sources, backend, budget_mib).await,
                Err(e) => Err(e),
            }
        }
        ToWorker::PrepareTask { ticket, files, settings, fetch, mirror } => {
            let mut files = *files;
            let fetched = async {
                fetch_data(&fetch, &mut files).await?;
                files.unpack_archives().map_err(|e| e.to_string())?;
                let mut sources = fetch_catalogue_hub(&mut files, mirror.as_deref()).await?;
                sources.extend(fetch_hub_splits(&mut files, mirror.as_deref()).await?);
                Ok::<_, String>(sources)
            };
            match fetched.await {
                Ok(found) => prepare_task(state, ticket, &files, &settings).map(|mut ready| {
                    if let FromWorker::TaskReady { sources, .. } = &mut ready {
                        *sources = found;
                    }
                    ready
                }),
                Err(e) => Err(e),
            }
        }
        ToWorker::ScoreItem { index } => score_item(state, index).await,
        ToWorker::Tokenize { index } => tokenize(state, index),
        ToWorker::Fertility => fertility(state),
        ToWorker::Score { context, choices } => score(state, &context, &choices).await,
        ToWorker::Decode { prompt, steps } => decode(state, &prompt, steps).await,
        ToWorker::Crash => {
            const CRASH: &str = "a crash asked for by the page (?crash_item)";
            // In the threaded worker, on a helper thread: the harder case (see `helper_panicked`).
            #[cfg(target_feature = "atomics")]
            crate::parallel::panic_on_a_helper_thread(CRASH);
            panic!("{CRASH}")
        }
        ToWorker::Hang => loop {
            std::hint::spin_loop();
        },
    };
    post(&outcome.unwrap_or_else(|message| FromWorker::Error { stage, message, ticket }));
}

/// A built-in task's benchmark files downloaded (or taken from Cache Storage: `download::file_blob`
/// checks them against the catalogue's size and sha256 and keeps them beside the models), an
/// archive unpacked, and added to `files.data` by the names the task's loader reads.
async fn fetch_data(fetch: &[RemoteData], files: &mut TaskFiles) -> Result<(), String> {
    for (i, remote) in fetch.iter().enumerate() {
        let name = remote.path.clone().unwrap_or_else(|| crate::catalog::file_name_of(&remote.url));
        let progress = |loaded, total, _resumed_from| {
            post(&FromWorker::DataDownload {
                name: name.clone(),
                loaded,
                total,
                file: i + 1,
                files: fetch.len(),
                from_cache: false,
            })
        };
        let super::download::Fetched { blob, from_cache, not_kept } =
            super::download::file_blob(&remote.url, &remote.fetch_url, &remote.check, progress).await?;
        if let Some(reason) = not_kept {
            post(&FromWorker::NotKept { name: name.clone(), reason });
        }
        let size = blob.size() as u64;
        post(&FromWorker::DataDownload {
            name: name.clone(),
            loaded: size,
            total: Some(size),
            file: i + 1,
            files: fetch.len(),
            from_cache,
        });
        let buffer = wasm_bindgen_futures::JsFuture::from(blob.array_buffer())
            .await
            .map_err(|_| format!("{name}: cannot be read from the browser's storage"))?;
        let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
        for (path, bytes) in
            crate::formats::archive::unpacked(remote.unpack.as_deref(), &name, bytes).map_err(|e| e.to_string())?
        {
            files.data.push(NamedFile { name: path, bytes });
        }
    }
    // A published task's YAML came with its files.
    files.sort_fetched().map_err(|e| e.to_string())
}

/// A task file whose `dataset_path` is a Hub dataset, given without its data: the splits it reads
/// found as lm-eval's `datasets` finds them (`hub::split_files`: the dataset card's configs and the
/// tree listing, both kept in Cache Storage so that a reload runs offline), each file downloaded
/// (checked against the sha256 the listing gives, kept) and added to `files` with its split.
async fn fetch_hub_splits(files: &mut TaskFiles, mirror: Option<&str>) -> Result<Vec<SourceRecord>, String> {
    use crate::hub;
    let Some(wanted) = files.hub_splits(&LoadOptions::default()).map_err(|e| e.to_string())? else {
        return Ok(Vec::new());
    };
    let task_file = files.yaml.as_ref().map_or("the task file", |f| f.name.as_str());
    hub::check_dataset_id(&wanted.dataset).map_err(|e| format!("{task_file}: dataset_path: {e}"))?;
    let (dataset, revision) = (wanted.dataset.as_str(), wanted.revision.as_str());
    let (card, listing) = hub_listing(dataset, revision, mirror).await?;
    let evaluated = wanted.evaluated.clone().unwrap_or_default();
    let mut sources = Vec::new();
    for (split, needed) in [(Some(evaluated), true), (wanted.fewshot.clone(), false)] {
        let Some(split) = split else { continue };
        let chosen = match hub::split_files(dataset, &card, &listing, wanted.config.as_deref(), &split) {
            Ok(chosen) => chosen,
            // A few-shot split that is not there is said when (and if) shots are asked for.
            Err(_) if !needed => continue,
            Err(e) => return Err(e.to_string()),
        };
        let mut names = Vec::new();
        for (i, f) in chosen.iter().enumerate() {
            let bytes = hub_download(dataset, revision, f, (i + 1, chosen.len()), mirror).await?;
            files.data.push(NamedFile { name: f.path.clone(), bytes });
            names.push(f.path.clone());
            sources.push(hub_record(dataset, revision, f));
        }
        files.hub_data.insert(split, names);
    }
    Ok(sources)
}

/// A Hub file as the results record it: its URL, and the size and sha256 it was checked against.
fn hub_record(dataset: &str, revision: &str, f: &crate::hub::ListedFile) -> SourceRecord {
    SourceRecord {
        url: crate::hub::resolve_url(dataset, revision, &f.path),
        sha256: f.sha256.clone(),
        size_bytes: f.size,
    }
}

/// A built-in task's files that the catalogue knows by Hub repository and config (KyrgyzLLM-Bench's):
/// each config's splits found as the `datasets` library finds them, downloaded as above, and added
/// to `files` under the names the task's loader reads (`catalog::HubData::local_path`).
async fn fetch_catalogue_hub(files: &mut TaskFiles, mirror: Option<&str>) -> Result<Vec<SourceRecord>, String> {
    let mut sources = Vec::new();
    for h in std::mem::take(&mut files.hub_sources) {
        let (card, listing) = hub_listing(&h.dataset, &h.revision, mirror).await?;
        let mut wanted = Vec::new();
        for config in &h.configs {
            for split in &h.splits {
                let chosen = crate::hub::split_files(&h.dataset, &card, &listing, Some(config), split)
                    .map_err(|e| e.to_string())?;
                let count = chosen.len();
                wanted.extend(
                    chosen.into_iter().enumerate().map(|(i, f)| (h.local_path(config, split, i, count, &f.path), f)),
                );
            }
        }
        let mut chosen = Vec::new();
        for (n, (name, f)) in wanted.iter().enumerate() {
            let bytes = hub_download(&h.dataset, &h.revision, f, (n + 1, wanted.len()), mirror).await?;
            files.data.push(NamedFile { name: name.clone(), bytes });
            chosen.push(hub_record(&h.dataset, &h.revision, f));
        }
        // For the page's Task menu: which files these are, to say whether all are kept.
        if let Ok(json) = serde_json::to_vec(&chosen) {
            super::download::keep_note(&h.chosen_key(), &json).await;
        }
        sources.extend(chosen);
    }
    Ok(sources)
}

/// A Hub dataset's card (empty where it has none) and its files, from the tree listing: fetched
/// through the mirror, or taken from Cache Storage where they were kept.
async fn hub_listing(
    dataset: &str,
    revision: &str,
    mirror: Option<&str>,
) -> Result<(String, Vec<crate::hub::ListedFile>), String> {
    use crate::hub;
    let unchecked = super::protocol::ModelCheck { size: None, sha256: None };
    let small = |url: String| {
        let unchecked = unchecked.clone();
        async move {
            let from = crate::catalog::mirrored(&url, mirror);
            let fetched = super::download::file_blob(&url, &from, &unchecked, |_, _, _| {}).await?;
            let buffer =
                JsFuture::from(fetched.blob.array_buffer()).await.map_err(|_| format!("{url}: cannot be read"))?;
            Ok::<Vec<u8>, String>(js_sys::Uint8Array::new(&buffer).to_vec())
        }
    };
    // A dataset without a card reads by the default patterns.
    let card = match small(hub::card_url(dataset, revision)).await {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) if e.contains("answered 404") => String::new(),
        Err(e) => return Err(e),
    };
    let tree = hub::tree_url(dataset, revision);
    let bytes = match super::download::cached_blob(&tree).await {
        Some(kept) => JsFuture::from(kept.array_buffer())
            .await
            .map(|buffer| js_sys::Uint8Array::new(&buffer).to_vec())
            .map_err(|_| format!("{tree}: the kept listing cannot be read"))?,
        None => {
            let listing = tree_pages(&tree, mirror).await.map_err(|e| {
                if e.contains("answered 404") {
                    format!("{tree}: not found: no dataset {dataset} at revision {revision} on the Hub")
                } else {
                    e
                }
            })?;
            super::download::keep_note(&tree, &listing).await;
            listing
        }
    };
    let listing = hub::parse_tree(&bytes, &tree).map_err(|e| e.to_string())?;
    Ok((card, listing))
}

/// Every page of a tree listing, one after another as each page's `Link` header names the next
/// (the Hub answers at most a thousand entries a page), as one JSON array.
async fn tree_pages(tree: &str, mirror: Option<&str>) -> Result<Vec<u8>, String> {
    use crate::hub;
    let mut entries: Vec<serde_json::Value> = Vec::new();
    let mut next = Some(tree.to_string());
    let mut pages = 0;
    while let Some(url) = next.take() {
        pages += 1;
        if pages > hub::MAX_TREE_PAGES {
            return Err(format!(
                "{tree}: the listing runs past {} pages; give the files under \"My files\"",
                hub::MAX_TREE_PAGES
            ));
        }
        let (bytes, link) = super::download::document(&url, &crate::catalog::mirrored(&url, mirror)).await?;
        // Each page is checked as a listing before it is added.
        hub::parse_tree(&bytes, &url).map_err(|e| e.to_string())?;
        let page: Vec<serde_json::Value> = serde_json::from_slice(&bytes).map_err(|e| format!("{url}: {e}"))?;
        entries.extend(page);
        next = link.as_deref().and_then(hub::next_page);
    }
    serde_json::to_vec(&entries).map_err(|e| format!("{tree}: {e}"))
}

/// File `f` of a Hub dataset, downloaded with progress (file `n.0` of `n.1`) and checked against
/// the size and sha256 the listing gives, or taken from Cache Storage.
async fn hub_download(
    dataset: &str,
    revision: &str,
    f: &crate::hub::ListedFile,
    n: (usize, usize),
    mirror: Option<&str>,
) -> Result<Vec<u8>, String> {
    let url = crate::hub::resolve_url(dataset, revision, &f.path);
    let check = super::protocol::ModelCheck { size: f.size, sha256: f.sha256.clone() };
    let progress = |loaded, total, _| {
        post(&FromWorker::DataDownload {
            name: f.path.clone(),
            loaded,
            total,
            file: n.0,
            files: n.1,
            from_cache: false,
        })
    };
    let fetched = super::download::file_blob(&url, &crate::catalog::mirrored(&url, mirror), &check, progress).await?;
    if let Some(reason) = fetched.not_kept {
        post(&FromWorker::NotKept { name: f.path.clone(), reason });
    }
    let buffer =
        JsFuture::from(fetched.blob.array_buffer()).await.map_err(|_| format!("{}: cannot be read", f.path))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// Reads the model's header from `source` and checks what it needs on the worker's backend
/// against the budget (`models::fit`). A file that is not a GGUF model lingualens can load is an
/// error; a model that cannot fit is an answer, with the reason.
async fn check_model<S: ByteSource>(
    state: &Rc<RefCell<State>>,
    name: String,
    source: S,
    backend: BackendPreference,
    budget_mib: Option<u64>,
) -> Result<FromWorker, String> {
    let compute = ensure_device(state, backend).await?;
    let file = GgufFile::read(&source).await.map_err(|e| e.to_string())?;
    let needs = fit::ModelNeeds::from_gguf(&file, compute.info.backend, None).map_err(|e| e.to_string())?;
    Ok(fit_answer(name, with_threads(needs), compute.info.backend, budget_mib))
}

/// [`check_model`] for a Hugging Face folder: its config.json and its safetensors headers (only
/// the header bytes of each file are read). A missing or broken file is an error, named.
async fn check_model_folder(
    state: &Rc<RefCell<State>>,
    folder: String,
    files: Vec<(String, BlobSource)>,
    backend: BackendPreference,
    budget_mib: Option<u64>,
) -> Result<FromWorker, String> {
    let compute = ensure_device(state, backend).await?;
    let opened = engine::open_hf_files(&folder, files).await.map_err(|e| e.to_string())?;
    let needs = fit::ModelNeeds::from_safetensors(
        &folder,
        &opened.config,
        opened.weights.entries(),
        compute.info.backend,
        None,
    )
    .map_err(|e| e.to_string())?;
    Ok(fit_answer(folder, with_threads(needs), compute.info.backend, budget_mib))
}

/// `needs` with the threaded worker's helper threads counted (their stacks), on the CPU; as they
/// are in the other workers, which have none.
fn with_threads(needs: fit::ModelNeeds) -> fit::ModelNeeds {
    match needs.backend {
        BackendKind::Cpu => needs.on_threads(1 + HELPER_THREADS_STARTED.load(std::sync::atomic::Ordering::Relaxed)),
        BackendKind::Wgpu => needs,
    }
}

/// The answer to a fit check: `needs` against the browser's budget for `backend` (or the forced one).
fn fit_answer(name: String, needs: fit::ModelNeeds, backend: BackendKind, budget_mib: Option<u64>) -> FromWorker {
    let mut budget = fit::Budget::browser(backend, device_memory_gib());
    if let Some(mib) = budget_mib {
        budget = budget.forced(mib);
    }
    let refused = fit::check(&name, &needs, &budget).err();
    let summary = fit::summary(&needs, &budget);
    FromWorker::ModelFit { name, needs: Some(needs), budget: Some(budget), summary, refused, unchecked: None }
}

fn unchecked(name: String, why: String) -> FromWorker {
    FromWorker::ModelFit {
        name,
        needs: None,
        budget: None,
        summary: String::new(),
        refused: None,
        unchecked: Some(why),
    }
}

/// `navigator.deviceMemory` (GiB, rounded and capped by the browser), where the browser has it.
fn device_memory_gib() -> Option<f64> {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    Reflect::get(&scope.navigator(), &"deviceMemory".into()).ok()?.as_f64()
}

/// A local model is known by its bytes, not its name: the page keys the run's checkpoint by this,
/// so another file of the same name and size never resumes this one's answers.
fn with_hash(outcome: Result<FromWorker, String>, hash: Option<String>) -> Result<FromWorker, String> {
    outcome.map(|answer| match answer {
        FromWorker::ModelLoaded { name, architecture, layers, vocab_size, .. } => {
            FromWorker::ModelLoaded { name, architecture, layers, vocab_size, sha256: hash }
        }
        other => other,
    })
}

/// A folder's identity: the sha256 of its files' names and sha256s, in name order.
async fn folder_sha256(names: &[String], files: &[web_sys::Blob]) -> Option<String> {
    let mut each = Vec::new();
    for (name, blob) in names.iter().zip(files) {
        each.push(format!("{name}\0{}\n", super::download::blob_sha256(blob).await?));
    }
    each.sort();
    use sha2::Digest;
    Some(crate::scoring::outputs::hex(&sha2::Sha256::digest(each.concat().as_bytes())))
}

/// A folder's files as named sources, in the order of `names`; an error if some did not arrive.
fn folder_sources(
    folder: &str,
    names: Vec<String>,
    files: Vec<web_sys::Blob>,
) -> Result<Vec<(String, BlobSource)>, String> {
    if files.len() != names.len() {
        return Err(format!("{folder}: {} of its {} files reached the worker", files.len(), names.len()));
    }
    Ok(names.into_iter().zip(files).map(|(name, blob)| (name.clone(), BlobSource::new(name, blob))).collect())
}

async fn load_model(
    state: &Rc<RefCell<State>>,
    source: BlobSource,
    backend: BackendPreference,
) -> Result<FromWorker, String> {
    ensure_device(state, backend).await?;
    let compute = {
        let s = state.borrow();
        s.timed_gpu.clone().or_else(|| s.device.clone()).ok_or("no device")?
    };
    let name = source.name().to_string();
    // The previous model's memory is freed before the next one is read.
    state.borrow_mut().model = None;
    let lm = engine::load_gguf(source.clone(), &compute).await.map_err(|e| e.to_string())?;
    let lm = keep_the_faster(state, lm, source).await;
    Ok(install(state, name.rsplit('/').next().unwrap_or(&name).to_string(), lm))
}

/// Tokens in the pass that times a backend on a loaded model.
const TIMED_TOKENS: usize = 64;

/// Where the worker chooses by timing (`State::timed_gpu`): `lm`, loaded on WebGPU, and the same
/// file loaded on the CPU (int8) each run one pass of [`TIMED_TOKENS`] tokens after a warm-up
/// (WebGPU compiles its kernels on first use), and the faster is kept and becomes the worker's
/// device; the page is sent the choice with both speeds. A file the CPU cannot hold (the
/// browser's budget, checked from its header first) or cannot load stays on WebGPU, with the
/// reason.
async fn keep_the_faster(state: &Rc<RefCell<State>>, lm: LanguageModel, source: BlobSource) -> LanguageModel {
    let Some(gpu) = state.borrow().timed_gpu.clone() else { return lm };
    let gpu_speed = tokens_per_second(&lm).await;
    let mut cpu = ComputeDevice::cpu_int8();
    let cpu_lm = match cpu_fit(&source).await {
        Ok(()) => engine::load_gguf(source, &cpu).await.map_err(|e| e.to_string()),
        Err(why) => Err(why),
    };
    let cpu_speed = match &cpu_lm {
        Ok(cpu_lm) => tokens_per_second(cpu_lm).await,
        Err(why) => Err(why.clone()),
    };
    let figure = |speed: &Result<f64, String>| match speed {
        Ok(s) => format!("{s:.0} tokens/s"),
        Err(why) => format!("not measured ({why})"),
    };
    let words = format!(
        "on this model, a {TIMED_TOKENS}-token pass: WebGPU {}, the CPU {}",
        figure(&gpu_speed),
        figure(&cpu_speed)
    );
    let cpu_faster = match (&gpu_speed, &cpu_speed) {
        (Ok(gpu), Ok(cpu)) => cpu > gpu,
        (Err(_), Ok(_)) => true,
        (_, Err(_)) => false,
    };
    let (mut device, lm) = match cpu_lm {
        Ok(cpu_lm) if cpu_faster => {
            cpu.info.fallback_reason = Some("WebGPU was slower than the CPU on this model (timed, below)".into());
            (cpu, cpu_lm)
        }
        _ => (gpu, lm),
    };
    device.info.calibration = Some(words);
    post(&FromWorker::Backend { info: device.info.clone() });
    state.borrow_mut().device = Some(device);
    lm
}

/// Whether the CPU backend can hold the GGUF model in `source` within the browser's budget.
async fn cpu_fit(source: &BlobSource) -> Result<(), String> {
    let file = GgufFile::read(source).await.map_err(|e| e.to_string())?;
    let needs = fit::ModelNeeds::from_gguf(&file, BackendKind::Cpu, None).map_err(|e| e.to_string())?;
    fit::check(source.name(), &with_threads(needs), &fit::Budget::browser(BackendKind::Cpu, device_memory_gib()))
}

/// Tokens per second of one pass of [`TIMED_TOKENS`] token ids through `lm`, after one warm-up.
async fn tokens_per_second(lm: &LanguageModel) -> Result<f64, String> {
    let vocab = lm.config.vocab_size.max(1) as u32;
    let tokens: Vec<u32> = (0..TIMED_TOKENS as u32).map(|i| (3 + i * 7919) % vocab).collect();
    let pass = || async {
        lm.model.logits_cached(&tokens, &mut crate::models::KvCache::new(), 1).await.map_err(|e| e.to_string())
    };
    pass().await?;
    let start = web_time::Instant::now();
    pass().await?;
    Ok(TIMED_TOKENS as f64 / start.elapsed().as_secs_f64().max(1e-9))
}

/// `lm` becomes the worker's model; the answer says what was loaded.
fn install(state: &Rc<RefCell<State>>, name: String, lm: LanguageModel) -> FromWorker {
    let loaded = FromWorker::ModelLoaded {
        name,
        architecture: format!("{:?}", lm.config.architecture),
        layers: lm.config.num_layers,
        vocab_size: lm.config.vocab_size,
        sha256: None,
    };
    state.borrow_mut().model = Some(Rc::new(lm));
    loaded
}

/// A Hugging Face model folder from its files, each read by slices (the weights tensor by tensor).
async fn load_model_folder(
    state: &Rc<RefCell<State>>,
    folder: &str,
    files: Vec<(String, BlobSource)>,
    backend: BackendPreference,
) -> Result<FromWorker, String> {
    let compute = ensure_device(state, backend).await?;
    state.borrow_mut().model = None;
    let lm = engine::load_hf_files(folder, files, &compute).await.map_err(|e| e.to_string())?;
    Ok(install(state, folder.to_string(), lm))
}

fn prepare_task(
    state: &Rc<RefCell<State>>,
    ticket: u32,
    files: &TaskFiles,
    settings: &RunSettings,
) -> Result<FromWorker, String> {
    state.borrow_mut().task = None;
    let task = files.prepare(&LoadOptions::default()).map_err(|e| e.to_string())?;
    let order = settings.order.parse::<eval::ChoiceOrder>().map_err(|e| e.to_string())?;
    let options = RunOptions { sample: None, limit: settings.limit, shots: settings.shots, seed: settings.seed, order };
    // Filters and the sample pick documents before they are numbered, rendered and ordered.
    let documents = task.docs.len();
    let facets = run::facets(&task.docs);
    let docs = run::select_docs(task.docs, settings);
    if docs.is_empty() && documents > 0 {
        let filters: Vec<String> = settings.filters.iter().map(|(f, v)| format!("{f} = {v}")).collect();
        return Err(format!("{}: no document has {}", task.spec.task, filters.join(" and ")));
    }
    let multiple_choice = task.spec.output_type == OutputType::MultipleChoice;
    let jobs = if multiple_choice {
        eval::plan(&task.spec, docs, task.pool, &options).map_err(|e| e.to_string())?
    } else {
        if options.order != eval::ChoiceOrder::Given {
            return Err(format!(
                "the choice order applies to multiple-choice tasks, and {} is not one",
                task.spec.task
            ));
        }
        let (docs, rendered) = eval::render(&task.spec, docs, task.pool, &options).map_err(|e| e.to_string())?;
        docs.into_iter()
            .zip(rendered)
            .enumerate()
            .map(|(i, (doc, rendered))| eval::Job { doc_id: i as u64, doc, rendered, variant: 0, permutation: None })
            .collect()
    };
    let mut items = Vec::with_capacity(jobs.len());
    for (index, job) in jobs.iter().enumerate() {
        let named = |e: crate::error::Error| e.context(crate::tasks::yaml::document_name(job.doc_id)).to_string();
        let mut view = match &job.rendered.request {
            Request::MultipleChoice { .. } => {
                item_view(index, &job.doc, &job.rendered, job.rendered.gold_index().map_err(named)?)
            }
            Request::GenerateUntil { .. } => {
                let mut view = item_view(index, &job.doc, &job.rendered, 0);
                view.choices.clear();
                view.reference = Some(eval::generation::references(&job.rendered).map_err(named)?.0.join(" | "));
                view
            }
            Request::Loglikelihood { continuation } => {
                let mut view = item_view(index, &job.doc, &job.rendered, 0);
                view.choices.clear();
                view.reference = Some(continuation.clone());
                view
            }
        };
        if let Some(p) = &job.permutation {
            view.id = format!("{}#{}", view.id, job.variant);
            view.metadata.insert("order".into(), p.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(""));
        }
        items.push(view);
    }
    let metrics = eval::metric_names(&task.spec);
    let fingerprint = crate::scoring::outputs::hash_string(&serde_json::to_string(&items).unwrap_or_default());
    let options = eval::ScoreOptions::for_task(&task.spec);
    let texts = run::fertility_texts(&jobs.iter().map(|j| j.doc_id).zip(&items).collect::<Vec<_>>());
    let (name, output_type) = (task.spec.task.clone(), task.spec.output_type.name().to_string());
    let (warnings, cloze_variant) = (task.spec.warnings.clone(), task.spec.cloze_variant());
    state.borrow_mut().task = Some(Rc::new(Prepared { spec: task.spec, jobs, metrics, options, texts }));
    Ok(FromWorker::TaskReady {
        ticket,
        task: name,
        output_type,
        fingerprint,
        items,
        notes: task.notes,
        warnings,
        cloze_variant,
        documents,
        facets,
        sources: Vec::new(),
    })
}

/// What the page shows of an item: the question in its own words, its choices, its metadata.
fn item_view(index: usize, doc: &Json, rendered: &Rendered, gold: usize) -> ItemView {
    let text = |key: &str| doc.get(key).and_then(Json::as_str).map(str::to_string);
    let mut metadata = crate::scoring::session::doc_metadata(doc, None);
    if let Some(t) = run::appended_translation(doc, &rendered.context) {
        metadata.insert("translation".into(), t);
    }
    ItemView {
        index,
        id: text("id").unwrap_or_else(|| index.to_string()),
        question: text("question").unwrap_or_else(|| rendered.context.clone()),
        language: text("language").unwrap_or_default(),
        choices: rendered.choices.clone().unwrap_or_default(),
        gold,
        reference: None,
        context: rendered.context.clone(),
        metadata,
    }
}

fn handles(state: &Rc<RefCell<State>>) -> Result<(Rc<LanguageModel>, Rc<Prepared>), String> {
    let s = state.borrow();
    let model = s.model.clone().ok_or("no model is loaded")?;
    let task = s.task.clone().ok_or("no task is prepared")?;
    Ok((model, task))
}

/// Scores item `index` by its task's output type; every row carries the item's sample lines,
/// from which the page's results are computed (`scoring::session`), and its verdict for the
/// live view: the choice, a generation's exact match under the first filter, a continuation
/// being the greedy one.
async fn score_item(state: &Rc<RefCell<State>>, index: usize) -> Result<FromWorker, String> {
    let (model, task) = handles(state)?;
    let job = task.jobs.get(index).ok_or(format!("no item {index}"))?;
    let started = web_time::Instant::now();
    let elapsed_ms = || started.elapsed().as_secs_f64() * 1e3;
    let row = match job.rendered.request {
        Request::MultipleChoice { .. } => {
            let item = eval::score_job(&model, job, task.options).await.map_err(|e| e.to_string())?;
            let sample = item.sample_record(&task.metrics, &[]).map_err(|e| e.to_string())?.to_jsonl_line();
            ItemRow {
                index,
                chosen: item.score.pred,
                chosen_norm: item.score.pred_norm,
                correct: item.score.acc > 0.5,
                correct_norm: item.score.acc_norm > 0.5,
                loglikelihoods: item.loglikelihoods,
                is_greedy: item.is_greedy,
                token_counts: item.token_counts,
                elapsed_ms: elapsed_ms(),
                sample,
                response: None,
            }
        }
        Request::GenerateUntil { .. } => {
            // The text so far goes to the page after every token, at most every 100 ms.
            let mut shown = f64::NEG_INFINITY;
            let mut on_text = |text: &str| {
                let now = started.elapsed().as_secs_f64();
                if now - shown >= 0.1 {
                    shown = now;
                    post(&FromWorker::Generating { index, text: text.to_string() });
                }
            };
            let r = eval::generation::generate_item_streaming(
                &model,
                &task.spec,
                job.doc_id,
                job.doc.clone(),
                &job.rendered,
                &mut on_text,
            )
            .await
            .map_err(|e| e.to_string())?;
            let mut sample = String::new();
            for f in 0..r.filtered.len() {
                sample += &eval::generation::sample_record(&task.spec, &r, f, &[])
                    .map_err(|e| e.to_string())?
                    .to_jsonl_line();
            }
            let exact = eval::generation::exact_match_options(&task.spec).map_err(|e| e.to_string())?;
            let response = r.filtered.first().map(|f| f.response.clone()).unwrap_or_default();
            let correct = exact.score(&response, &r.references).map_err(|e| e.to_string())? > 0.5;
            ItemRow {
                index,
                chosen: 0,
                chosen_norm: 0,
                correct,
                correct_norm: correct,
                loglikelihoods: Vec::new(),
                is_greedy: Vec::new(),
                token_counts: vec![r.generation.tokens.len()],
                elapsed_ms: elapsed_ms(),
                sample,
                response: Some(response),
            }
        }
        Request::Loglikelihood { .. } => {
            let r = eval::loglikelihood::score(&model, job.doc_id, job.doc.clone(), &job.rendered)
                .await
                .map_err(|e| e.to_string())?;
            ItemRow {
                index,
                chosen: 0,
                chosen_norm: 0,
                correct: r.is_greedy,
                correct_norm: r.is_greedy,
                loglikelihoods: vec![r.loglikelihood],
                is_greedy: vec![r.is_greedy],
                token_counts: Vec::new(),
                elapsed_ms: elapsed_ms(),
                sample: r.sample_record(&task.metrics, &[]).to_jsonl_line(),
                response: None,
            }
        }
    };
    Ok(FromWorker::ItemScored { row })
}

/// The prompt cut at token boundaries. Tokens that carry only part of a character (byte-level
/// BPE splits Tibetan and Ethiopic letters) are joined with the next until the bytes are text,
/// so the pieces put together are the prompt; `count` is the number of tokens.
fn tokenize(state: &Rc<RefCell<State>>, index: usize) -> Result<FromWorker, String> {
    let (model, task) = handles(state)?;
    let job = task.jobs.get(index).ok_or(format!("no item {index}"))?;
    let ids = model.tokenizer.encode(&job.rendered.context, true, true);
    let mut pieces = Vec::new();
    let mut pending: Vec<u8> = Vec::new();
    for &id in &ids {
        pending.extend(model.tokenizer.token_bytes(id));
        if let Ok(text) = std::str::from_utf8(&pending) {
            pieces.push(text.to_string());
            pending.clear();
        }
    }
    if !pending.is_empty() {
        pieces.push(String::from_utf8_lossy(&pending).into_owned());
    }
    Ok(FromWorker::Tokens { index, pieces, count: ids.len() })
}

/// Tokens per word and per character by language: each document's question and options cut by
/// the model's tokenizer, without the BOS token (a prompt's fixed cost, not the language's).
fn fertility(state: &Rc<RefCell<State>>) -> Result<FromWorker, String> {
    let (model, task) = handles(state)?;
    let samples: Vec<(String, String, usize)> = task
        .texts
        .iter()
        .map(|(text, language)| (text.clone(), language.clone(), model.tokenizer.encode(text, false, false).len()))
        .collect();
    Ok(FromWorker::Fertility { rows: run::fertility_rows(&samples) })
}

async fn score(state: &Rc<RefCell<State>>, context: &str, choices: &[String]) -> Result<FromWorker, String> {
    // Take a handle and release the borrow before awaiting.
    let (model, backend) = {
        let s = state.borrow();
        let model = s.model.clone().ok_or("no model is loaded")?;
        let backend = s.device.as_ref().map(|d| d.info.label()).unwrap_or("cpu");
        (model, backend.to_string())
    };
    let choices = model.log_likelihoods(context, choices).await.map_err(|e| e.to_string())?;
    Ok(FromWorker::Scores { backend, choices, wasm_memory: wasm_memory() })
}

async fn decode(state: &Rc<RefCell<State>>, prompt: &[u32], steps: usize) -> Result<FromWorker, String> {
    let model = state.borrow().model.clone().ok_or("no model is loaded")?;
    let (tokens, tokens_per_s) = model.greedy_decode(prompt, steps).await.map_err(|e| e.to_string())?;
    Ok(FromWorker::Decoded { tokens, tokens_per_s, wasm_memory: wasm_memory() })
}

/// The worker's device, created on first use. burn's wgpu runtime can be initialised only once
/// per worker, so later requests reuse it whatever backend they ask for.
async fn ensure_device(state: &Rc<RefCell<State>>, preference: BackendPreference) -> Result<ComputeDevice, String> {
    if let Some(existing) = state.borrow().device.as_ref() {
        return Ok(existing.clone());
    }
    let gpu = webgpu::navigator_gpu();
    // The browser's own description of its adapter, read once and before any device is made: it
    // decides Auto (a software adapter is never initialised there) and names the adapter that wgpu
    // reports without a name.
    let browser = match (preference, &gpu) {
        (BackendPreference::Cpu | BackendPreference::CpuInt8, _) | (_, None) => None,
        (_, Some(gpu)) => webgpu::describe_adapter(gpu, None).await,
    };
    // The threaded worker is built without wgpu (see Cargo.toml's `gpu` feature); the page starts
    // it for Auto where WebGPU is missing or a software adapter (`page::worker_link`), and says so.
    // (In the build with wgpu, `no_gpu` is read only where `navigator.gpu` is missing.)
    const THREADED: &str =
        "this worker, the threaded one, runs on the CPU only (?threads=off starts the one with WebGPU)";
    let no_gpu = match (&gpu, &browser) {
        (None, _) => "navigator.gpu is missing: this browser does not expose WebGPU".to_string(),
        // No adapter at all: the worker with WebGPU would fall back to the CPU as well.
        (Some(_), None) => "WebGPU offers no adapter here (navigator.gpu.requestAdapter() gave none)".to_string(),
        (Some(_), Some(adapter)) => adapter.software_reason().unwrap_or_else(|| THREADED.to_string()),
    };
    let gpu = if cfg!(feature = "gpu") { gpu } else { None };
    // The CPU that Auto falls back to is the int8 path: about as far from transformers as
    // llama.cpp is (tests/integration/model_parity.rs), and with relaxed SIMD about twice as fast as f32
    // activations (SmolLM2-135M Q4_1: 151 against 77 prompt tok/s; with SIMD128 alone the two
    // were within run-to-run noise). `?backend=cpu` asks for the exact one.
    let fallback = |reason: String| {
        let mut cpu = ComputeDevice::cpu_int8();
        cpu.info.fallback_reason = Some(reason);
        cpu
    };
    let mut compute = match (preference, gpu.is_some()) {
        (BackendPreference::Cpu, _) => ComputeDevice::cpu(),
        (BackendPreference::CpuInt8, _) => ComputeDevice::cpu_int8(),
        (BackendPreference::Wgpu, false) => {
            let why = if cfg!(feature = "gpu") { no_gpu.as_str() } else { THREADED };
            return Err(format!("WebGPU was requested but {why}"));
        }
        (BackendPreference::Auto | BackendPreference::Measure, false) => fallback(no_gpu),
        (BackendPreference::Auto, true) => match browser.as_ref().and_then(AdapterDescription::software_reason) {
            Some(reason) => fallback(reason),
            None => match ComputeDevice::wgpu().await {
                Ok(device) => device,
                Err(reason) => fallback(reason),
            },
        },
        (BackendPreference::Measure, true) => match ComputeDevice::wgpu().await {
            Ok(device) => device,
            Err(reason) => fallback(reason),
        },
        (BackendPreference::Wgpu, true) => ComputeDevice::wgpu().await?,
    };
    if let (BackendKind::Wgpu, Some(b)) = (compute.info.backend, &browser) {
        let a = &mut compute.info.adapter;
        if !b.vendor.is_empty() {
            a.vendor = b.vendor.clone();
        }
        a.architecture = b.architecture.clone();
        if a.name.is_empty() {
            a.name = b.name.clone();
        }
        a.is_fallback_adapter = b.is_fallback_adapter;
    }
    if compute.info.backend == BackendKind::Cpu {
        compute.info.threads = Some(helper_threads().await);
    }
    post(&FromWorker::Backend { info: compute.info.clone() });
    let timed = matches!(preference, BackendPreference::Auto | BackendPreference::Measure)
        && compute.info.backend == BackendKind::Wgpu;
    let mut s = state.borrow_mut();
    s.timed_gpu = timed.then(|| compute.clone());
    s.device = Some(compute.clone());
    Ok(compute)
}

fn post(message: &FromWorker) {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    match serde_wasm_bindgen::to_value(message) {
        Ok(value) => {
            if let Err(e) = scope.post_message(&value) {
                web_sys::console::error_1(&e);
            }
        }
        Err(e) => web_sys::console::error_1(&format!("cannot encode a message for the page: {e}").into()),
    }
}

/// The threaded worker (`src/bin/worker_threads.rs`) starts a helper thread per extra core (at most
/// [`run::MAX_WORKERS`] threads in all): a Web Worker running `www/lingualens-thread.js`, handed
/// `glue` (this build's wasm-bindgen script), the compiled module and the shared memory. Each
/// joins `crate::parallel`'s pool once it runs; the device waits for them (`helper_threads`).
/// One that fails to start is left out, with a warning in the console.
#[cfg(target_feature = "atomics")]
pub fn start_threads(glue: &str) {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let cores = scope.navigator().hardware_concurrency() as usize;
    let message = js_sys::Array::of3(&glue.into(), &wasm_bindgen::module(), &wasm_bindgen::memory());
    for _ in 1..cores.clamp(1, run::MAX_WORKERS) {
        let started = web_sys::Worker::new(super::protocol::THREAD_SCRIPT)
            .and_then(|helper| helper.post_message(&message).map(|()| helper));
        match started {
            Ok(helper) => {
                HELPER_WORKERS.with(|workers| workers.borrow_mut().push(helper));
                HELPER_THREADS_STARTED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            Err(e) => {
                web_sys::console::warn_2(&"a helper thread could not start:".into(), &e);
                break;
            }
        }
    }
}

#[cfg(target_feature = "atomics")]
thread_local! {
    /// The helper threads' Web Workers, held for the worker's life so that none is collected.
    static HELPER_WORKERS: RefCell<Vec<web_sys::Worker>> = const { RefCell::new(Vec::new()) };
}

/// The helper threads `start_threads` started (0 in the other workers).
static HELPER_THREADS_STARTED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// The threads a forward pass runs on, once the helper threads started have joined the pool (each
/// loads a script and instantiates the module: a fraction of a second), or after
/// `HELPER_THREADS_WAIT_MS` with those that did.
async fn helper_threads() -> usize {
    const HELPER_THREADS_WAIT_MS: i32 = 10_000;
    let started = HELPER_THREADS_STARTED.load(std::sync::atomic::Ordering::Relaxed);
    let mut waited = 0;
    while crate::parallel::cores() < 1 + started && waited < HELPER_THREADS_WAIT_MS {
        sleep_ms(20).await;
        waited += 20;
    }
    crate::parallel::cores()
}

async fn sleep_ms(ms: i32) {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = scope.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = JsFuture::from(promise).await;
}

/// This worker's wasm memory in bytes (an `ArrayBuffer`, or a `SharedArrayBuffer` in the threaded
/// worker, whose threads all use it).
fn wasm_memory() -> Option<u64> {
    let buffer = Reflect::get(&wasm_bindgen::memory(), &"buffer".into()).ok()?;
    Reflect::get(&buffer, &"byteLength".into()).ok()?.as_f64().map(|n| n as u64)
}
