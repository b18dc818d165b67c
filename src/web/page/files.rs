//! Where a run's model and task come from: the file and folder inputs, files and folders dropped
//! on the setup panel, the model controls, and the task's files (built-in ones fetched).

use super::*;

/// A drop: a `.gguf` becomes the model file and data or YAML files the benchmark's, exactly as if
/// they had been picked in those inputs (the run reads them from there). A dropped folder is read
/// through its directory entries (`webkitGetAsEntry`, then `readEntries` until it returns nothing):
/// a model folder gives its own files, a data folder (DZEN's) every data file under it
/// (`web::dropped::sort_dropped`). The entries must be taken while the event is dispatched (its
/// `DataTransfer` is emptied after); the folders are read after it, asynchronously.
pub(super) fn accept_drop(event: &web_sys::Event) -> Result<(), String> {
    let transfer =
        event.dyn_ref::<web_sys::DragEvent>().and_then(|e| e.data_transfer()).ok_or("the drop carried no files")?;
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
pub(super) async fn read_folders(
    folders: Vec<web_sys::FileSystemDirectoryEntry>,
) -> Result<Vec<(String, web_sys::File)>, String> {
    let mut files = Vec::new();
    let mut pending: Vec<(String, web_sys::FileSystemDirectoryEntry)> =
        folders.into_iter().map(|f| (f.name(), f)).collect();
    while let Some((path, folder)) = pending.pop() {
        let reader = folder.create_reader();
        // readEntries gives a folder's entries in batches (Chromium: 100 at a time) and an empty
        // batch at the end.
        loop {
            let batch = callback_promise(|ok, fail| {
                reader.read_entries_with_callback_and_callback(ok, fail).map_err(|e| js_error(&e))
            })
            .await
            .map_err(|e| format!("the dropped folder {path} cannot be read: {e}"))?;
            let batch: js_sys::Array = batch
                .dyn_into()
                .map_err(|_| format!("the dropped folder {path} cannot be read: not a list of entries"))?;
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
                    let file: web_sys::File =
                        file.dyn_into().map_err(|_| format!("{child}: cannot be read: not a file"))?;
                    files.push((child, file));
                    if files.len() > crate::web::dropped::MAX_DROPPED_FILES {
                        return Err(format!(
                            "the dropped folder holds more than {} files: drop the model or data folder itself",
                            crate::web::dropped::MAX_DROPPED_FILES
                        ));
                    }
                }
            }
        }
    }
    files.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(files)
}

/// The value an old-style callback API (`success`, `error`) gives, as a future.
pub(super) async fn callback_promise(
    call: impl FnOnce(&js_sys::Function, &js_sys::Function) -> Result<(), String>,
) -> Result<JsValue, String> {
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
pub(super) fn js_error(e: &JsValue) -> String {
    js_sys::Reflect::get(e, &"message".into())
        .ok()
        .and_then(|m| m.as_string())
        .filter(|m| !m.is_empty())
        .or_else(|| e.as_string())
        .unwrap_or_else(|| format!("{e:?}"))
}

/// Dropped files by their paths (a name, or a path in a dropped folder) into the inputs.
pub(super) fn use_dropped(files: Vec<(String, web_sys::File)>) -> Result<(), String> {
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
        show_picked_model();
        let model: Vec<&str> = dropped.model.iter().map(|&i| paths[i].as_str()).collect();
        said.push(match &dropped.model_folder {
            Some(folder) => {
                key_with("dropped-model-folder", vec![("folder", folder.as_str().into()), ("n", model.len().into())])
            }
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
            key_with(
                "dropped-benchmark-more",
                vec![("files", task[..5].join(", ").into()), ("n", (task.len() - 5).into())],
            )
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

/// Data files were chosen: the benchmark is the user's files, unless a built-in task that reads
/// the user's data (DZEN) is selected.
pub(super) fn data_chosen() {
    let task = dom::value("task-select");
    if !DATA_TASKS.iter().any(|(name, _)| *name == task) {
        dom::set_value("task-select", "files");
    }
}

/// What the model controls point at: (identity for the checkpoint, request that loads it, the
/// files that go with the request: one GGUF `File`, or a model folder's files).
pub(super) fn chosen_model(app: &Shared) -> Result<(String, ToWorker, Vec<web_sys::File>), String> {
    show_picked_model();
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
            return Ok((
                id,
                ToWorker::LoadModel { source: ModelSource::File { name: file.name() }, backend },
                vec![file.clone()],
            ));
        }
    }
    if !chosen.is_empty() {
        if let Some(gguf) = chosen.iter().find(|f| is_gguf(&f.name())) {
            return Err(format!("{}: choose one GGUF file, or a model folder's files without it", gguf.name()));
        }
        // Files dropped as a folder keep its name (`use_dropped`); picked ones have none.
        let folder = dom::by_id("model-file")
            .ok()
            .and_then(|i| i.get_attribute("data-folder"))
            .unwrap_or_else(|| "chosen files".into());
        return Ok(folder_request(&folder, chosen, backend));
    }
    let url = dom::value("model-url").trim().to_string();
    if !url.is_empty() {
        // A link may pin the file: `&sha256=…&size=…`.
        let check = ModelCheck {
            size: dom::query_param("size").and_then(|s| s.parse().ok()),
            sha256: dom::query_param("sha256"),
        };
        let from = mirror_of(&url);
        return Ok((
            url.clone(),
            ToWorker::LoadModel { source: ModelSource::Url { url, check, from }, backend },
            Vec::new(),
        ));
    }
    let choice = dom::value("model-select");
    if choice.is_empty() || choice == "demo" {
        return Ok((
            "demo".into(),
            ToWorker::LoadModel {
                source: ModelSource::Url { url: DEMO_MODEL.into(), check: ModelCheck::default(), from: None },
                backend,
            },
            Vec::new(),
        ));
    }
    let entry = a.catalog.iter().find(|m| m.id == choice).ok_or_else(|| format!("unknown model {choice}"))?;
    let check = ModelCheck { size: entry.size_bytes, sha256: entry.sha256.clone() };
    Ok((
        entry.id.clone(),
        ToWorker::LoadModel {
            source: ModelSource::Url { url: entry.url.clone(), check, from: mirror_of(&entry.url) },
            backend,
        },
        Vec::new(),
    ))
}

/// The model menu's entry for a model chosen beside it: a GGUF file, a model's files or folder, a URL.
pub(super) const PICKED_MODEL: &str = "picked";

/// The model menu names the model a run loads: while a file, a folder or a URL is chosen beside it
/// (they come before the menu, `chosen_model`), its `picked` entry names that one and is selected;
/// when none is, the entry goes and the demo is selected if it was.
pub(super) fn show_picked_model() {
    let Ok(select) = dom::typed::<web_sys::HtmlSelectElement>("model-select") else { return };
    let existing = select.query_selector(&format!("option[value='{PICKED_MODEL}']")).ok().flatten();
    match (picked_model_label(), existing) {
        (Some(label), Some(option)) => {
            option.set_text_content(Some(&label));
            select.set_value(PICKED_MODEL);
        }
        (Some(label), None) => {
            if let Ok(option) = dom::element("option", "", &label) {
                let _ = option.set_attribute("value", PICKED_MODEL);
                let _ = select.prepend_with_node_1(&option);
                select.set_value(PICKED_MODEL);
            }
        }
        (None, Some(option)) => {
            let was_selected = select.value() == PICKED_MODEL;
            option.remove();
            if was_selected {
                select.set_value("demo");
            }
        }
        (None, None) => {}
    }
}

/// What the `picked` entry says: the folder, the files or the URL, in `chosen_model`'s order.
fn picked_model_label() -> Option<String> {
    let paths: Vec<String> = dom::files("model-folder").iter().map(relative_path).collect();
    if let Some((folder, top)) = top_level_files(&paths) {
        return Some(t_with("dropped-model-folder", &[("folder", folder.as_str().into()), ("n", top.len().into())]));
    }
    let files = dom::files("model-file");
    if !files.is_empty() {
        let dropped_folder = dom::by_id("model-file").ok().and_then(|i| i.get_attribute("data-folder"));
        return Some(match dropped_folder {
            Some(folder) => {
                t_with("dropped-model-folder", &[("folder", folder.as_str().into()), ("n", files.len().into())])
            }
            None => {
                let names: Vec<String> = files.iter().map(|f| f.name()).collect();
                t_with("dropped-model", &[("files", names.join(", ").into())])
            }
        });
    }
    let url = dom::value("model-url").trim().to_string();
    (!url.is_empty()).then_some(url)
}

/// Where a model or a benchmark file at `url` is downloaded from under the page's `?mirror=URL`
/// (`URL/HOST/PATH`, as the CLI's `LINGUALENS_MIRROR`); `None` without one, or for a URL the mirror
/// does not take (a relative one: the site's own files).
fn mirror_of(url: &str) -> Option<String> {
    let mirror = dom::query_param("mirror")?;
    let from = crate::catalog::mirrored(url, Some(&mirror));
    (from != url).then_some(from)
}

/// A Hugging Face model folder's files as a load request; its identity is the folder's name with
/// its files' names and sizes.
pub(super) fn folder_request(
    folder: &str,
    files: Vec<web_sys::File>,
    backend: BackendPreference,
) -> (String, ToWorker, Vec<web_sys::File>) {
    let names: Vec<String> = files.iter().map(|f| f.name()).collect();
    let sizes: Vec<String> = files.iter().map(|f| format!("{}:{}:{}", f.name(), f.size(), f.last_modified())).collect();
    let id = format!("folder:{folder}:{}", sizes.join(","));
    (id, ToWorker::LoadModel { source: ModelSource::Folder { folder: folder.to_string(), names }, backend }, files)
}

/// A file's path inside the folder it was picked with (`webkitRelativePath`), else its name.
pub(super) fn relative_path(file: &web_sys::File) -> String {
    let path =
        js_sys::Reflect::get(file, &"webkitRelativePath".into()).ok().and_then(|p| p.as_string()).unwrap_or_default();
    if path.is_empty() {
        file.name()
    } else {
        path
    }
}

/// `message` with the files it carries: a GGUF as `file`, a folder's files as the array `files`.
pub(super) fn attach(message: &JsValue, request: &ToWorker, files: &[web_sys::File]) -> Result<(), String> {
    match (request, files) {
        (
            ToWorker::LoadModel { source: ModelSource::Folder { .. }, .. }
            | ToWorker::CheckModel { source: ModelSource::Folder { .. }, .. },
            files,
        ) => {
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

/// The built-in demo, a built-in task with the user's data, or the user's files; and, for a
/// built-in task given no files where the site has no kit of its benchmark, the benchmark's
/// files of `datasets/catalog.json` for the worker to fetch (through `?mirror=` where given).
pub(super) async fn task_files(kit: &crate::catalog::KitManifest) -> Result<(TaskFiles, Vec<RemoteData>), String> {
    let task = dom::value("task-select");
    if task == "demo" {
        let mut files = Vec::new();
        for path in DEMO_TASK {
            files.push(NamedFile {
                name: path.rsplit('/').next().unwrap_or(path).into(),
                bytes: fetch_bytes(path).await?,
            });
        }
        return TaskFiles::from_files(files).map(|t| (t, Vec::new())).map_err(|e| e.to_string());
    }
    let builtin = DATA_TASKS.iter().find(|(name, _)| *name == task).map(|(_, paths)| paths);
    let chosen_any = !dom::files("task-files").is_empty() || !dom::files("task-folder").is_empty();
    let catalog = benchmark_catalog().await?;
    if let (None, false, Some(published)) = (builtin, chosen_any, published_data(&catalog, &task)) {
        return Ok(published);
    }
    // Picked files by name; a picked folder's files by their paths in it, the ones a benchmark
    // can use (its README or licence is not data).
    let mut chosen: Vec<(String, web_sys::File)> =
        dom::files("task-files").into_iter().map(|f| (f.name(), f)).collect();
    chosen.extend(
        dom::files("task-folder").into_iter().map(|f| (relative_path(&f), f)).filter(|(path, _)| is_task_file(path)),
    );
    let mut files = Vec::new();
    // The built-in task's file, unless the picked files hold a task file of their own (a
    // KyrgyzMMLU YAML with its prompt include): then that one is the task.
    let picked_yaml = chosen.iter().any(|(name, _)| {
        let lower = name.to_ascii_lowercase();
        lower.ends_with(".yaml") || lower.ends_with(".yml")
    });
    if let (Some(paths), false) = (builtin, picked_yaml) {
        for path in paths.iter() {
            files.push(NamedFile {
                name: path.rsplit('/').next().unwrap_or(path).into(),
                bytes: fetch_bytes(path).await?,
            });
        }
    }
    if chosen.is_empty() && builtin.is_some() {
        if let Some(benchmark) = kit.benchmark_for(&task) {
            for file in &benchmark.files {
                files.push(NamedFile { name: file.name.clone(), bytes: kit_file(file).await? });
            }
            return TaskFiles::from_files(files).map(|t| (t, Vec::new())).map_err(|e| e.to_string());
        }
    }
    if chosen.is_empty() && builtin.is_some() {
        if let Some(fetch) = catalogue_data(&catalog, &task) {
            let hub_sources = catalog.clone().benchmark_for(&task).map(|b| b.hub).unwrap_or_default();
            return TaskFiles::from_files(files)
                .map(|t| (TaskFiles { hub_sources, ..t }, fetch))
                .map_err(|e| e.to_string());
        }
    }
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
    TaskFiles::from_files(files).map(|t| (t, Vec::new())).map_err(|e| e.to_string())
}

/// The files of the catalogue benchmark that serves built-in task `task`, as the worker fetches
/// them: kept under their catalogue URL, fetched through the page's `?mirror=URL` where given;
/// the code its prompt is read from too (KyrgyzLLM-Bench's). Files known by Hub repository and
/// config are found by the worker (`TaskFiles::hub_sources`).
fn catalogue_data(catalog: &crate::catalog::BenchmarkCatalog, task: &str) -> Option<Vec<RemoteData>> {
    let entry = catalog.clone().benchmark_for(task)?;
    Some(entry.files.into_iter().chain(entry.prompt_code).map(remote).collect())
}

/// The files a benchmark's Hub listings name, as far as this device knows them: the ones the
/// worker chose on an earlier run (`HubData::chosen_key`), with their size, to tell whether each is
/// kept; `None` where there was no such run (what a first run downloads is not known before the
/// Hub is asked).
async fn kept_hub_files(cache: &web_sys::Cache, hubs: &[crate::catalog::HubData]) -> Option<Vec<RemoteData>> {
    let mut out = Vec::new();
    for h in hubs {
        let chosen: Vec<crate::catalog::SourceRecord> =
            serde_json::from_slice(&kept_bytes(cache, &h.chosen_key()).await?).ok()?;
        out.extend(chosen.into_iter().map(|f| RemoteData {
            url: f.url,
            fetch_url: String::new(),
            check: ModelCheck { size: f.size_bytes, sha256: f.sha256 },
            unpack: None,
            path: None,
        }));
    }
    Some(out)
}

/// The body kept under `url` in Cache Storage, if any.
async fn kept_bytes(cache: &web_sys::Cache, url: &str) -> Option<Vec<u8>> {
    let response = JsFuture::from(cache.match_with_str(url)).await.ok()?.dyn_into::<web_sys::Response>().ok()?;
    let buffer = JsFuture::from(response.array_buffer().ok()?).await.ok()?;
    Some(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// The benchmark catalogue: the one built in, or the site's own that `?benchmarks=PATH` names
/// (fetched from the page's origin, the only one its CSP lets it fetch from: a school's list,
/// or a test's).
async fn benchmark_catalog() -> Result<crate::catalog::BenchmarkCatalog, String> {
    match dom::query_param("benchmarks") {
        Some(path) => {
            let bytes = fetch_bytes(&path).await?;
            serde_json::from_slice(&bytes).map_err(|e| format!("{path}: not a benchmark catalogue: {e}"))
        }
        None => crate::catalog::benchmark_catalog().map_err(|e| e.to_string()),
    }
}

fn remote(f: crate::catalog::SourceFile) -> RemoteData {
    RemoteData {
        fetch_url: mirror_of(&f.url).unwrap_or_else(|| f.url.clone()),
        url: f.url,
        check: ModelCheck { size: f.size_bytes, sha256: f.sha256 },
        unpack: f.unpack,
        path: f.path,
    }
}

/// A task the catalogue runs from its authors' published files (ProverbEval's): no file of its
/// own, and for the worker to fetch its YAML, the include file and `utils.py` beside it, and its
/// split files, with which split each file is.
fn published_data(catalog: &crate::catalog::BenchmarkCatalog, task: &str) -> Option<(TaskFiles, Vec<RemoteData>)> {
    let entry = catalog.clone().benchmark_for(task)?;
    let published = entry.published_task(task).cloned()?;
    let folder = published.yaml.rsplit_once('/').map_or("", |(f, _)| f).to_string();
    let wanted = |path: &str| {
        path == published.yaml
            || published.data.values().any(|d| d == path)
            || (!path.ends_with(".yaml") && path.rsplit_once('/').map_or("", |(f, _)| f) == folder)
    };
    let fetch: Vec<RemoteData> = entry
        .files
        .into_iter()
        .filter(|f| wanted(&f.path.clone().unwrap_or_else(|| crate::catalog::file_name_of(&f.url))))
        .map(remote)
        .collect();
    let hub_data = published.data.into_iter().map(|(split, file)| (split, vec![file])).collect();
    let files = TaskFiles { hub_data, env: published.env, ..Default::default() };
    Some((files, fetch))
}

/// Under the Task menu, for a task whose data the catalogue fetches: whether its files are kept on
/// this device (with their size), so that it runs offline, or what picking it downloads. Hidden
/// for the demo and the user's own files. `data-kept` says which, for tests.
pub(super) async fn show_task_offline() {
    let task = dom::value("task-select");
    let catalog = benchmark_catalog().await.ok();
    let files = catalog
        .as_ref()
        .and_then(|catalog| published_data(catalog, &task).map(|(_, f)| f).or_else(|| catalogue_data(catalog, &task)));
    let hubs = catalog.and_then(|c| c.benchmark_for(&task)).map(|b| b.hub).unwrap_or_default();
    let Some(mut files) = files.filter(|f| !f.is_empty() || !hubs.is_empty()) else {
        dom::set_hidden("task-offline", true);
        return;
    };
    let cache = page_cache().await;
    // Files known by Hub repository: as the worker's note of its choice names them, else not known yet.
    let mut listed = true;
    if !hubs.is_empty() {
        match &cache {
            Some(cache) => match kept_hub_files(cache, &hubs).await {
                Some(found) => files.extend(found),
                None => listed = false,
            },
            None => listed = false,
        }
    }
    let mut kept = listed.then_some(0.0);
    match &cache {
        Some(cache) => {
            for f in &files {
                match kept_size(cache, &f.url).await {
                    Some(size) => kept = kept.map(|k| k + size.unwrap_or(0.0)),
                    None => {
                        kept = None;
                        break;
                    }
                }
            }
        }
        None => kept = None,
    }
    let count = Arg::Number(files.len() as f64, NumberStyle::Integer);
    let mb = |bytes: f64| Arg::Number(bytes / 1e6, NumberStyle::Decimal(1));
    let said = match kept {
        Some(bytes) => key_with("task-kept", vec![("files", count), ("mb", mb(bytes))]),
        None => match files.iter().map(|f| f.check.size).sum::<Option<u64>>().filter(|_| listed) {
            Some(bytes) => key_with("task-download-size", vec![("files", count), ("mb", mb(bytes as f64))]),
            None if listed => key_with("task-download-unknown", vec![("files", count)]),
            None => key("task-download-hub"),
        },
    };
    text::show("task-offline", said);
    if let Ok(p) = dom::by_id("task-offline") {
        dom::set_data(&p, "kept", if kept.is_some() { "true" } else { "false" });
    }
    dom::set_hidden("task-offline", false);
}

/// Whether `task` is one the Task menu offers from the benchmark catalogue's published tasks.
pub(super) fn is_published_task(task: &str) -> bool {
    crate::catalog::benchmark_catalog()
        .ok()
        .and_then(|c| c.benchmark_for(task))
        .is_some_and(|b| b.published_task(task).is_some())
}

/// A benchmark file of the site's kit, used only if it is the file the manifest names (its size
/// and sha256): an altered or damaged copy is refused by its path.
async fn kit_file(file: &crate::catalog::KitFile) -> Result<Vec<u8>, String> {
    use sha2::Digest;
    let bytes = fetch_bytes(&file.path).await?;
    let digest = crate::scoring::outputs::hex(&sha2::Sha256::digest(&bytes));
    if bytes.len() as u64 != file.size_bytes || !digest.eq_ignore_ascii_case(&file.sha256) {
        return Err(format!(
            "{}: {} bytes with sha256 {digest}, where this site's kit.json says {} bytes with sha256 {}: the file on the server was changed or damaged, so it is not used (build the kit again: scripts/build-site.sh)",
            file.path,
            bytes.len(),
            file.size_bytes,
            file.sha256
        ));
    }
    Ok(bytes)
}

pub(super) async fn fetch_bytes(url: &str) -> Result<Vec<u8>, String> {
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
