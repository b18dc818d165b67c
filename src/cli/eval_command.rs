//! `lingualens eval`: a task (a YAML file, or a built-in task by name) over its data, scored by a
//! model; lm-eval's results JSON and samples JSONL and a per-sample CSV in `--out`; a progress
//! line on stderr and a summary table on stdout. A rerun with the same `--out` resumes: samples
//! already in the samples file are not scored again, and the report covers them too.
//!
//! Only the plumbing is here (files, flags, printing); rendering, scoring, aggregates and the report
//! are library calls the browser worker makes too.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::Value as Json;

use crate::catalog::SourceRecord;
use crate::cli::benchmark_data;
use crate::engine::LanguageModel;
use crate::error::{Error, Result};
use crate::eval::generation;
use crate::eval::{self, ChoiceOrder, RunOptions, ScoreOptions};
use crate::scoring::fertility::fertility_by_language;
use crate::scoring::outputs::{ResultsFile, RunDescription};
use crate::scoring::report::{self, Report};
use crate::scoring::session::{complete_lines, Session};
use crate::tasks::item::Item;
use crate::tasks::yaml::{self, DataSource, FewshotPool, HubSplits, LoadOptions, OutputType, TaskSpec};

pub struct EvalArgs {
    pub model: PathBuf,
    /// A task file, or a built-in task's name.
    pub task: String,
    pub data: Vec<PathBuf>,
    /// `--fewshot-data`: the few-shot pool's files, instead of the task's few-shot split.
    pub fewshot_data: Vec<PathBuf>,
    /// `--gen_kwargs`, parsed: merged into a generation task's `generation_kwargs`.
    pub gen_kwargs: Vec<(String, Json)>,
    pub overrides: Vec<String>,
    pub override_file: Option<PathBuf>,
    pub options: RunOptions,
    /// Document fields to break results down by (default: an item's language and metadata).
    pub by: Vec<String>,
    pub out: PathBuf,
    /// `--offline`: a built-in task's catalogue data only from what is kept, never downloaded.
    pub offline: bool,
}

fn io(p: &Path, e: std::io::Error) -> Error {
    Error::new(format!("{}: {e}", p.display()))
}

/// A task file as read: its path, its spec, a published task's downloads (`None` for any other
/// task), and the code its prompt was read from (KyrgyzLLM-Bench's, where fetched).
type LoadedSpec = (PathBuf, TaskSpec, Option<Vec<SourceRecord>>, Vec<SourceRecord>);

/// The task file (a path, a task the catalogue runs from its authors' published YAML, or a
/// built-in task's name) read with `--override`s and a sidecar; for a published task, the
/// downloads it came from too. With `--data` (`data_given`) a name is a built-in task's, as
/// before the catalogue: nothing is fetched for a run whose data the user gives.
fn load_spec(
    task: &str,
    overrides: &[String],
    override_file: Option<&Path>,
    offline: bool,
    data_given: bool,
) -> Result<LoadedSpec> {
    let published =
        if Path::new(task).is_file() || data_given { None } else { benchmark_data::published_task(task, offline)? };
    let task_path = match &published {
        Some(p) => p.yaml.clone(),
        None => crate::tasks::registry::resolve(task, &crate::tasks::registry::builtin_dir())?,
    };
    // A task's Python prompt functions read `os.getenv` from this process's environment, as
    // lm-eval's would (ProverbEval's prompt variants: T_PROMPT); a published task's catalogue
    // entry may set it.
    let mut env: BTreeMap<String, String> = std::env::vars().collect();
    if let Some(p) = &published {
        env.extend(p.env.clone());
    }
    // A published task's Hub dataset is read from the files the catalogue maps to its splits.
    let hub_data_files = published
        .iter()
        .flat_map(|p| p.data.iter().map(|(split, f)| (split.clone(), vec![f.display().to_string()])))
        .collect();
    let mut load = LoadOptions {
        sidecar: override_file.map(|p| p.display().to_string()),
        env,
        hub_data_files,
        ..Default::default()
    };
    // A built-in task whose prompt is its authors' code (KyrgyzLLM-Bench's), in a checkout where
    // the include was not generated from the shared PROMPTS.md: read from that code, fetched or
    // kept, with or without --data.
    let mut prompt_sources = Vec::new();
    if !Path::new(task).is_file() && published.is_none() && include_missing(&task_path) {
        let (includes, sources) = benchmark_data::prompt_includes(task, offline)?;
        load.include_files = includes;
        prompt_sources = sources;
    }
    for o in overrides {
        let (field, template) =
            o.split_once('=').ok_or_else(|| Error::new(format!("--override {o:?}: expected FIELD=TEMPLATE")))?;
        load.overrides.insert(field.to_string(), template.to_string());
    }
    let spec = yaml::load_task_file(&task_path, &load)?;
    let Some(published) = published else {
        // A Hub `dataset_path` given no --data: its splits, as lm-eval's `datasets` reads them.
        if let (Some(hub), false) = (spec.hub_splits(), data_given) {
            let (files, sources) = hub_splits(&spec, &hub, offline)?;
            load.hub_data_files = files;
            let spec = yaml::load_task_file(&task_path, &load)?;
            return Ok((task_path, spec, Some(sources), prompt_sources));
        }
        return Ok((task_path, spec, None, prompt_sources));
    };
    eprintln!("{}: the authors' published task, its data from {}", spec.task, published.kept.dir.display());
    Ok((task_path, spec, Some(published.kept.sources), prompt_sources))
}

/// Whether the task file's `include:` names a file that is not beside it.
fn include_missing(task_path: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(task_path) else { return false };
    let Ok(serde_yaml_ng::Value::Mapping(map)) = serde_yaml_ng::from_str::<serde_yaml_ng::Value>(&text) else {
        return false;
    };
    match map.get("include").and_then(|i| i.as_str()) {
        Some(include) => !task_path.parent().unwrap_or(Path::new(".")).join(include).is_file(),
        None => false,
    }
}

/// Split → the local files that hold it.
type SplitFiles = BTreeMap<String, Vec<String>>;

/// The evaluated split's files (and the few-shot split's, where the task reads one) of the task's
/// Hub dataset, fetched or taken from the cache (`cli::hub_data`): split → local files, and the
/// downloads.
fn hub_splits(spec: &TaskSpec, hub: &HubSplits, offline: bool) -> Result<(SplitFiles, Vec<SourceRecord>)> {
    let (path, name, revision) = (&hub.dataset, hub.config.as_deref(), &hub.revision);
    let eval = hub
        .evaluated
        .as_deref()
        .ok_or_else(|| Error::new(format!("{}: names no test_split or validation_split to evaluate", spec.file)))?;
    let mut files = BTreeMap::new();
    let mut sources = Vec::new();
    for (split, needed) in [(Some(eval), true), (hub.fewshot.as_deref(), false)] {
        let Some(split) = split else { continue };
        let found = match crate::cli::hub_data::split_files(path, revision, name, split, offline) {
            Ok(found) => found,
            // A few-shot split that is not there is said when (and if) shots are asked for.
            Err(_) if !needed => continue,
            Err(e) => return Err(e.context(format!("{}: dataset_path {path}", spec.file))),
        };
        eprintln!("{}: split {split} from the Hub's {path}: {} file(s)", spec.task, found.len());
        let mut local = Vec::new();
        for f in &found {
            local.push(crate::cli::hub_data::download(f)?.display().to_string());
            sources.push(f.record());
        }
        files.insert(split.to_string(), local);
    }
    Ok((files, sources))
}

/// `lingualens export-task`: the task and its documents as a folder stock lm-eval runs
/// (`tasks::export`).
pub struct ExportArgs {
    /// A task (a file or a built-in name), or with `experiment` none.
    pub task: Option<String>,
    /// An experiment (a file or a built-in name) to export as an lm-eval group.
    pub experiment: Option<String>,
    pub data: Vec<PathBuf>,
    pub overrides: Vec<String>,
    pub override_file: Option<PathBuf>,
    pub out: PathBuf,
    /// The folder `data_files` point into; `out`, made absolute, by default.
    pub data_root: Option<String>,
    pub offline: bool,
}

pub fn export(args: &ExportArgs) -> Result<()> {
    if let Some(name) = &args.experiment {
        return export_experiment(args, name);
    }
    let Some(task) = &args.task else { return Err(Error::new("export-task: give a task or --experiment")) };
    let (name, n) = export_one(args, task)?;
    println!(
        "{n} documents; run them with: lm-eval run --tasks {name} --include_path {} --model hf --model_args pretrained=…",
        args.out.display()
    );
    Ok(())
}

/// Exports one task into `args.out`: its name (as lm-eval will know it) and its document count.
fn export_one(args: &ExportArgs, task: &str) -> Result<(String, usize)> {
    let (task_path, spec, published, _) =
        load_spec(task, &args.overrides, args.override_file.as_deref(), args.offline, !args.data.is_empty())?;
    for warning in &spec.warnings {
        eprintln!("warning: {warning}");
    }
    let (given, _) = data_files(&spec, &args.data, args.offline, published)?;
    let data = load_data(&spec, &task_path, &given, &[], &[], 1)?;
    std::fs::create_dir_all(&args.out).map_err(|e| io(&args.out, e))?;
    let root = match &args.data_root {
        Some(r) => r.clone(),
        None => std::fs::canonicalize(&args.out).map_err(|e| io(&args.out, e))?.display().to_string(),
    };
    let n = data.docs.len();
    let exported = crate::tasks::export::export_task(&spec, data.docs, data.pool, &root)?;
    write_exported(&args.out, &exported)?;
    Ok((spec.task.clone(), n))
}

fn write_exported(out: &Path, exported: &crate::tasks::export::ExportedTask) -> Result<()> {
    for (name, text) in &exported.files {
        let path = out.join(name);
        std::fs::write(&path, text).map_err(|e| io(&path, e))?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

/// An experiment as an lm-eval group: every task its runs name, exported once, then the runs'
/// task files and the group file (`tasks::export::experiment_group`). Refused before anything is
/// written where a run has no lm-eval equivalent.
fn export_experiment(args: &ExportArgs, name: &str) -> Result<()> {
    let experiment = super::suite::load(name)?;
    if let Some(why) = crate::tasks::export::group_refusal(&experiment) {
        return Err(Error::new(format!("{why}; `lingualens suite {name}` runs it")));
    }
    let mut task_names = BTreeMap::new();
    for run in &experiment.runs {
        if !task_names.contains_key(&run.task) {
            let (exported, _) = export_one(args, &run.task).map_err(|e| e.context(format!("run `{}`", run.name)))?;
            task_names.insert(run.task.clone(), exported);
        }
    }
    write_exported(&args.out, &crate::tasks::export::experiment_group(&experiment, &task_names)?)?;
    println!(
        "{} runs as the group {}; run them with: lm-eval run --tasks {1} --include_path {} --model hf --model_args pretrained=… (the group's table has each run's metrics and their mean; `lingualens compare` on two runs' samples, with --log_samples, gives the paired test)",
        experiment.runs.len(),
        experiment.experiment,
        args.out.display()
    );
    Ok(())
}

pub fn run(args: &EvalArgs, device: &crate::backend::ComputeDevice) -> Result<()> {
    let (task_path, mut spec, published, prompt_sources) =
        load_spec(&args.task, &args.overrides, args.override_file.as_deref(), args.offline, !args.data.is_empty())?;
    // lm-eval merges --gen_kwargs into generate_until tasks only.
    if let (Some(g), OutputType::GenerateUntil) = (&mut spec.generation, spec.output_type) {
        for (k, v) in &args.gen_kwargs {
            g.set(k, v.clone());
        }
    } else if !args.gen_kwargs.is_empty() {
        eprintln!("warning: --gen_kwargs applies to generate_until tasks; {} is not one", spec.task);
    }
    for warning in &spec.warnings {
        eprintln!("warning: {warning}");
    }
    if spec.output_type != OutputType::MultipleChoice && args.options.order != ChoiceOrder::Given {
        return Err(Error::new(format!(
            "--order {}: choice orders apply to multiple-choice tasks, and {} is not one",
            args.options.order, spec.task
        )));
    }
    let shots = args.options.shots.or(spec.num_fewshot).unwrap_or(0);
    let (given, mut sources) = data_files(&spec, &args.data, args.offline, published)?;
    sources.extend(prompt_sources);
    let data = load_data(&spec, &task_path, &given, &args.fewshot_data, &args.by, shots)?;
    if data.docs.is_empty() {
        return Err(Error::new(format!(
            "{}: no documents to evaluate in the `{}` split of the data given",
            spec.file,
            spec.eval_split().unwrap_or("test")
        )));
    }
    std::fs::create_dir_all(&args.out).map_err(|e| io(&args.out, e))?;
    check_fingerprint(args, &spec, &task_path, &data, device)?;
    let started = web_time::Instant::now();
    let lm = pollster::block_on(crate::engine::load(&args.model, device))?;
    let run = Run {
        args,
        spec: &spec,
        data: &data,
        lm: &lm,
        started,
        drawn: std::cell::Cell::new(f64::NEG_INFINITY),
        truncated: std::cell::Cell::new(0),
    };
    let (session, n_effective) = match spec.output_type {
        OutputType::MultipleChoice => run.multiple_choice()?,
        OutputType::GenerateUntil => run.generate_until()?,
        OutputType::Loglikelihood => run.loglikelihood()?,
    };

    // The report, the results JSON and the CSV, all from the samples.
    let metrics = session.metrics()?;
    let rows = session.rows(Some(&data.fields));
    // Corpus metrics are broken down (a bootstrap per value) only where there is something to break down by.
    let corpus = if data.fields.is_empty() { Vec::new() } else { session.corpus_inputs() };
    let fertility = run.fertility();
    let report = Report::build(metrics.clone(), &rows, &corpus, fertility)?;
    print!("{}", report.text(&spec.task, rows.len()));
    if run.truncated.get() > 0 {
        println!(
            "{} items were longer than the model's max_length of {} tokens and were cut on the left, as lm-eval does",
            run.truncated.get(),
            lm.config.max_length()
        );
    }
    let now =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs_f64()).unwrap_or(0.0);
    let model = args.model.display().to_string();
    let order = args.options.order.to_string();
    let mut results = ResultsFile::for_run(RunDescription {
        task: &spec.task,
        output_type: spec.output_type.name(),
        metrics,
        num_fewshot: args.options.shots.or(spec.num_fewshot).unwrap_or(0),
        n_original: data.n_original,
        n_effective,
        model: &model,
        backend: device.info.backend.name(),
        limit: args.options.limit,
        seed: args.options.seed,
        choice_order: &order,
        start_unix: now - started.elapsed().as_secs_f64(),
        end_unix: now,
    });
    results.add_data_sources(&sources);
    if let Some(sample) = args.options.sample {
        results.add_sample(sample.size, sample.seed);
    }
    results.add_warnings(&spec.warnings);
    let results_path = args.out.join(format!("results_{}.json", spec.task));
    std::fs::write(&results_path, results.to_json()).map_err(|e| io(&results_path, e))?;
    let csv_path = args.out.join(format!("items_{}.csv", spec.task));
    std::fs::write(&csv_path, report::csv(&rows)).map_err(|e| io(&csv_path, e))?;
    eprintln!("wrote {}, {} and {}", results_path.display(), run.samples_path().display(), csv_path.display());
    Ok(())
}

/// What makes two invocations one run: a samples file in `--out` is resumed only by a run with the
/// same model (its bytes), task (its file, sidecar and overrides), documents, few-shot count,
/// seed, choice order and backend. `--limit` is not part of it: a longer run continues a shorter
/// one. Written next to the samples as `run_<task>.json`.
fn fingerprint(
    args: &EvalArgs,
    spec: &TaskSpec,
    task_path: &Path,
    data: &TaskData,
    device: &crate::backend::ComputeDevice,
) -> Result<BTreeMap<String, String>> {
    use sha2::{Digest, Sha256};
    let hex = |h: Sha256| crate::scoring::outputs::hex(&h.finalize());
    let mut model = Sha256::new();
    let mut files = if args.model.is_dir() {
        let mut names: Vec<PathBuf> = std::fs::read_dir(&args.model)
            .map_err(|e| io(&args.model, e))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file())
            .collect();
        names.sort();
        names
    } else {
        vec![args.model.clone()]
    };
    files.retain(|p| !p.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')));
    for path in &files {
        let mut file = std::fs::File::open(path).map_err(|e| io(path, e))?;
        model.update(path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default().as_bytes());
        std::io::copy(&mut file, &mut model).map_err(|e| io(path, e))?;
    }
    let mut task = Sha256::new();
    task.update(crate::formats::source::read_capped(
        task_path,
        crate::formats::source::limits::TEXT_FILE,
        "task file",
    )?);
    if let Some(sidecar) = &args.override_file {
        task.update(crate::formats::source::read_capped(
            sidecar,
            crate::formats::source::limits::TEXT_FILE,
            "override file",
        )?);
    }
    for o in &args.overrides {
        task.update(o.as_bytes());
        task.update([0]);
    }
    for (k, v) in &args.gen_kwargs {
        task.update(format!("gen_kwargs {k}={v}").as_bytes());
        task.update([0]);
    }
    let mut documents = Sha256::new();
    documents.update(serde_json::to_vec(&data.docs).unwrap_or_default());
    documents.update(serde_json::to_vec(data.pool.docs()).unwrap_or_default());
    let mut fingerprint = BTreeMap::from([
        ("task".to_string(), spec.task.clone()),
        ("model_sha256".to_string(), hex(model)),
        ("task_sha256".to_string(), hex(task)),
        ("documents_sha256".to_string(), hex(documents)),
        ("num_fewshot".to_string(), args.options.shots.or(spec.num_fewshot).unwrap_or(0).to_string()),
        ("seed".to_string(), args.options.seed.to_string()),
        ("choice_order".to_string(), args.options.order.to_string()),
        ("backend".to_string(), device.info.label().to_string()),
    ]);
    // Only where asked for, so that runs without a sample keep their earlier fingerprints.
    if let Some(sample) = args.options.sample {
        fingerprint.insert("sample".to_string(), format!("{} documents, seed {}", sample.size, sample.seed));
    }
    Ok(fingerprint)
}

/// Refuses to add to a samples file that another run (another fingerprint) wrote; writes this
/// run's fingerprint otherwise.
fn check_fingerprint(
    args: &EvalArgs,
    spec: &TaskSpec,
    task_path: &Path,
    data: &TaskData,
    device: &crate::backend::ComputeDevice,
) -> Result<()> {
    let ours = fingerprint(args, spec, task_path, data, device)?;
    let path = args.out.join(format!("run_{}.json", spec.task));
    let samples = args.out.join(format!("samples_{}.jsonl", spec.task));
    let has_samples = std::fs::metadata(&samples).is_ok_and(|m| m.len() > 0);
    if has_samples {
        match std::fs::read_to_string(&path) {
            Ok(text) => {
                let theirs: BTreeMap<String, String> = serde_json::from_str(&text).map_err(|e| {
                    Error::new(format!(
                        "{}: not a run fingerprint ({e}); delete it and the samples file to start over",
                        path.display()
                    ))
                })?;
                let differ: Vec<String> = ours
                    .iter()
                    .filter(|(k, v)| theirs.get(*k) != Some(v))
                    .map(|(k, v)| format!("{k} {} (this run: {v})", theirs.get(k).map_or("missing", String::as_str)))
                    .collect();
                if !differ.is_empty() {
                    return Err(Error::new(format!(
                        "{} holds samples of another run: {}. Resuming would mix two runs; give another --out, or delete {} to start over",
                        args.out.display(),
                        differ.join("; "),
                        samples.display()
                    )));
                }
                return Ok(());
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                eprintln!(
                    "warning: {} has no run fingerprint (an older lingualens wrote it); resuming as this run",
                    samples.display()
                );
            }
            Err(e) => return Err(io(&path, e)),
        }
    }
    let temporary = path.with_extension("json.partial");
    let text = serde_json::to_string_pretty(&ours).unwrap_or_default();
    std::fs::write(&temporary, text + "\n").map_err(|e| io(&temporary, e))?;
    std::fs::rename(&temporary, &path).map_err(|e| io(&path, e))
}

/// The evaluated documents, the few-shot pool, and what to break results down by.
struct TaskData {
    docs: Vec<Json>,
    pool: FewshotPool,
    /// Documents in the evaluated split, before `--limit`.
    n_original: usize,
    fields: Vec<String>,
    /// The data file's columns in order (documents are logged with their fields in this order).
    columns: Vec<String>,
}

/// `shots`: the number of few-shot examples the run asks for (a few-shot file is read only then,
/// or where it is at hand). `fewshot_data`: `--fewshot-data`, the pool instead of the task's split.
/// The files a run reads: `--data` where given; else, for a built-in task of the benchmark
/// catalogue, its data fetched or kept (`cli::benchmark_data`), with the downloads it came from.
/// A published task (`published`: its downloads) reads the files its spec now names.
fn data_files(
    spec: &TaskSpec,
    data: &[PathBuf],
    offline: bool,
    published: Option<Vec<SourceRecord>>,
) -> Result<(Vec<PathBuf>, Vec<SourceRecord>)> {
    if !data.is_empty() {
        return Ok((data.to_vec(), Vec::new()));
    }
    if let Some(sources) = published {
        return Ok((Vec::new(), sources));
    }
    match benchmark_data::data_for_task(&spec.task, offline)? {
        Some(kept) => {
            eprintln!("{}: data of {} from {}", spec.task, kept.benchmark, kept.dir.display());
            Ok((vec![kept.dir], kept.sources))
        }
        None => Ok((Vec::new(), Vec::new())),
    }
}

fn load_data(
    spec: &TaskSpec,
    task_path: &Path,
    data: &[PathBuf],
    fewshot_data: &[PathBuf],
    by: &[String],
    shots: usize,
) -> Result<TaskData> {
    match &spec.source {
        DataSource::Items { loader, .. } => {
            if !fewshot_data.is_empty() {
                return Err(Error::new(format!(
                    "{}: --fewshot-data: the task reads lingualens `{loader}` items, whose few-shot split comes from the files given with --data",
                    spec.file
                )));
            }
            if data.is_empty() {
                return Err(Error::new(format!(
                    "{}: the task reads lingualens `{loader}` items; give their files with --data (DZEN: the folder holding DZEN/ and DZEN-Few_Shots/)",
                    spec.file
                )));
            }
            let items = load_items(loader, data)?;
            let (docs, pool) = crate::tasks::bundle::item_task_docs(
                spec,
                &items,
                "add the files that hold it to --data (DZEN: the folder holding DZEN/ and DZEN-Few_Shots/)",
            )?;
            let mut fields: BTreeSet<String> = items.iter().flat_map(|i| i.metadata.keys().cloned()).collect();
            fields.remove("split");
            fields.insert("language".into());
            let fields = if by.is_empty() { fields.into_iter().collect() } else { by.to_vec() };
            Ok(TaskData { n_original: docs.len(), docs, pool, fields, columns: Vec::new() })
        }
        source => {
            let base = task_path.parent().unwrap_or(Path::new(""));
            // A file that `data_files` names is taken from `--data` when one has that file name
            // (as the page finds a task's files by name), else beside the task file.
            let file_name = |p: &Path| p.file_name().map(|n| n.to_os_string());
            let given = |name: &str| data.iter().find(|p| file_name(p) == file_name(Path::new(name)));
            let named = |split: Option<&str>| -> Option<Vec<String>> {
                let DataSource::Files { data_files, .. } = source else { return None };
                let files = data_files.get(split?)?;
                (!files.iter().any(|f| f.contains("{{"))).then(|| files.clone())
            };
            let files_of = |split: Option<&str>| -> Option<Vec<PathBuf>> {
                Some(named(split)?.iter().map(|f| given(f).cloned().unwrap_or_else(|| base.join(f))).collect())
            };
            let fewshot_split = spec.fewshot_split_to_read();
            let fewshot_names = named(fewshot_split).unwrap_or_default();
            let eval_files = if data.is_empty() {
                files_of(spec.eval_split()).ok_or_else(|| {
                    Error::new(format!("{}: give the data of the evaluated split with --data", spec.file))
                })?
            } else {
                // `--data` files named as the few-shot split's are not evaluated.
                data.iter()
                    .filter(|p| !fewshot_names.iter().any(|n| file_name(p) == file_name(Path::new(n))))
                    .cloned()
                    .collect()
            };
            let (docs, columns) = read_docs(&eval_files)?;
            // The few-shot split's file when the task names one (and it is there, or shots are
            // asked for); else the evaluated documents.
            let pool = if !fewshot_data.is_empty() {
                FewshotPool::Split(read_docs(fewshot_data)?.0)
            } else {
                let read_split = |split: &str| -> Result<Option<Vec<Json>>> {
                    match files_of(Some(split)) {
                        Some(f) if f.iter().all(|p| p.is_file()) || (shots > 0 && !f.is_empty()) => {
                            read_docs(&f).map(|d| Some(d.0)).map_err(|e| {
                                e.context(format!(
                                    "{}: the few-shot split {split} (give its file with --fewshot-data)",
                                    spec.file
                                ))
                            })
                        }
                        _ => Ok(None),
                    }
                };
                spec.fewshot_pool(&docs, read_split, "give its file with --fewshot-data")?
            };
            let fields = if !by.is_empty() {
                by.to_vec()
            } else if docs.iter().all(|d| d.get("language").is_some_and(Json::is_string)) && !docs.is_empty() {
                vec!["language".into()]
            } else {
                Vec::new()
            };
            Ok(TaskData { n_original: docs.len(), docs, pool, fields, columns })
        }
    }
}

fn read_docs(files: &[PathBuf]) -> Result<(Vec<Json>, Vec<String>)> {
    let (mut docs, mut columns) = (Vec::new(), Vec::new());
    for f in files {
        let bytes = crate::formats::source::read_capped(f, crate::formats::source::limits::DATA_FILE, "data file")?;
        let (d, c) = yaml::docs_and_columns_from_file(&f.display().to_string(), &bytes)?;
        docs.extend(d);
        columns.extend(c.into_iter().filter(|c| !columns.contains(c)).collect::<Vec<_>>());
    }
    Ok((docs, columns))
}

/// Items of a lingualens loader from files or folders (`dzen`: a DZEN folder or its CSVs; the others:
/// table files), read by the library as the page reads them (`tasks::bundle::loader_items`).
fn load_items(loader: &str, paths: &[PathBuf]) -> Result<Vec<Item>> {
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for p in paths {
        if loader == "dzen" && p.is_dir() {
            files.extend(crate::tasks::dzen::dzen_dir_files(p)?);
        } else if p.is_dir() {
            // A folder (a kept benchmark, a Hub repository's download): its data files, by path.
            for f in table_files_in(p)? {
                let bytes =
                    crate::formats::source::read_capped(&f, crate::formats::source::limits::DATA_FILE, "data file")?;
                files.push((f.display().to_string(), bytes));
            }
        } else {
            files.push((
                p.display().to_string(),
                crate::formats::source::read_capped(p, crate::formats::source::limits::DATA_FILE, "data file")?,
            ));
        }
    }
    let refs: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (n.as_str(), b.as_slice())).collect();
    let loaded = crate::tasks::bundle::loader_items(loader, &refs)?;
    eprintln!("{}", loaded.summary());
    Ok(loaded.items)
}

/// The data files under `dir` (CSV, JSON, JSONL, Parquet), sorted by path; hidden ones (a kept
/// folder's record) skipped. A folder with none is an error naming it.
fn table_files_in(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        for entry in std::fs::read_dir(&d).map_err(|e| io(&d, e))? {
            let path = entry.map_err(|e| io(&d, e))?.path();
            let name = path.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
            if name.starts_with('.') {
                continue;
            }
            if path.is_dir() {
                pending.push(path);
            } else if crate::tasks::table::Format::from_name(&name).is_some() {
                found.push(path);
            }
        }
    }
    found.sort();
    if found.is_empty() {
        return Err(Error::new(format!("{}: a folder with no data file (CSV, JSON, JSONL, Parquet)", dir.display())));
    }
    Ok(found)
}

/// One run's shared state.
struct Run<'a> {
    args: &'a EvalArgs,
    spec: &'a TaskSpec,
    data: &'a TaskData,
    lm: &'a LanguageModel,
    started: web_time::Instant,
    /// Seconds since `started` when the progress line was last drawn.
    drawn: std::cell::Cell<f64>,
    /// Items scored in this run whose input was cut on the left to the model's `max_length`.
    truncated: std::cell::Cell<usize>,
}

impl Run<'_> {
    fn count_truncated(&self, tokens: usize) {
        if tokens > 0 {
            self.truncated.set(self.truncated.get() + 1);
        }
    }

    fn samples_path(&self) -> PathBuf {
        self.args.out.join(format!("samples_{}.jsonl", self.spec.task))
    }

    /// The complete lines of an earlier run's samples file (none if there is no file; see
    /// `session::complete_lines`).
    fn previous_lines(&self) -> Result<Vec<String>> {
        let path = self.samples_path();
        match std::fs::read(&path) {
            Ok(bytes) => Ok(complete_lines(&bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
            Err(e) => Err(io(&path, e)),
        }
    }

    fn append(&self, file: &mut std::fs::File, line: &str) -> Result<()> {
        file.write_all(line.as_bytes()).map_err(|e| io(&self.samples_path(), e))
    }

    /// The samples file holding exactly `kept` (the lines of the items that are done), then open
    /// for appending. Written to a temporary file and renamed over the old one, so a crash
    /// leaves either the old file or the new one, never half of either.
    fn open_samples(&self, kept: &str) -> Result<std::fs::File> {
        let path = self.samples_path();
        let temporary = path.with_extension("jsonl.partial");
        std::fs::write(&temporary, kept).map_err(|e| io(&temporary, e))?;
        std::fs::rename(&temporary, &path).map_err(|e| io(&path, e))?;
        std::fs::OpenOptions::new().append(true).open(&path).map_err(|e| io(&path, e))
    }

    /// The progress line, redrawn at most five times a second (and for the last item).
    fn progress(&self, n: usize, total: usize, what: impl FnOnce() -> String) {
        let now = self.started.elapsed().as_secs_f64();
        if n < total && now - self.drawn.get() < 0.2 {
            return;
        }
        self.drawn.set(now);
        let rate = n as f64 / now.max(1e-9);
        let eta = (total - n) as f64 / rate.max(1e-9);
        eprint!("\r{n}/{total} items  {rate:.2} items/s  ETA {eta:.0} s  {}   ", what());
    }

    /// The run's samples: those already in the samples file, then those of every item of `keys`
    /// ((doc_id, variant), in order) that has none, `score(i)` giving item i's lines (one per
    /// filter pipeline, `filters` of them), each appended to the file as it comes. An item
    /// written twice (by an older version) counts once; a generation with lines for only some of
    /// its filters is done again, its lines dropped, so a rerun never adds a second copy of a line.
    fn samples(
        &self,
        keys: &[(u64, usize)],
        filters: usize,
        mut score: impl FnMut(usize) -> Result<Vec<String>>,
    ) -> Result<Session> {
        let mut session = Session::new(self.spec.output_type.name());
        for (i, line) in self.previous_lines()?.iter().enumerate() {
            session.record(line).map_err(|e| {
                Error::new(format!(
                    "{}: line {}: {e}: not a {} sample of {}",
                    self.samples_path().display(),
                    i + 1,
                    self.spec.output_type.name(),
                    self.spec.task
                ))
            })?;
        }
        session.retain_complete(filters);
        let todo: Vec<usize> = (0..keys.len()).filter(|&i| !session.has(keys[i].0, keys[i].1)).collect();
        if !session.is_empty() {
            eprintln!(
                "resuming: {} of {} items are already in {}",
                keys.len() - todo.len(),
                keys.len(),
                self.samples_path().display()
            );
        }
        let mut file = self.open_samples(&session.jsonl())?;
        for (n, &i) in todo.iter().enumerate() {
            for line in score(i)? {
                self.append(&mut file, &line)?;
                session
                    .record(&line)
                    .map_err(|e| Error::new(format!("a sample line lingualens wrote could not be read back: {e}")))?;
            }
            self.progress(n + 1, todo.len(), || {
                session.running_mean().map_or(String::new(), |(name, v)| format!("{name} {v:.3}"))
            });
        }
        if !todo.is_empty() {
            eprintln!();
        }
        Ok(session)
    }

    fn multiple_choice(&self) -> Result<(Session, usize)> {
        let jobs = eval::plan(self.spec, self.data.docs.clone(), self.data.pool.clone(), &self.args.options)?;
        if eval::order_leaves_prompt_options(&jobs) {
            eprintln!(
                "warning: --order {}: the prompt lists the options and the documents are not lingualens items, so only the scored options move, not the listed ones",
                self.args.options.order
            );
        }
        let names = eval::metric_names(self.spec);
        let score_options = ScoreOptions::for_task(self.spec);
        let keys: Vec<(u64, usize)> = jobs.iter().map(|j| (j.doc_id, j.variant)).collect();
        let session = self.samples(&keys, 1, |i| {
            let item = pollster::block_on(eval::score_job(self.lm, &jobs[i], score_options))?;
            self.count_truncated(item.truncated);
            Ok(vec![item.sample_record(&names, &self.data.columns)?.to_jsonl_line()])
        })?;
        Ok((session, jobs.len()))
    }

    fn generate_until(&self) -> Result<(Session, usize)> {
        let (docs, rendered) =
            eval::render(self.spec, self.data.docs.clone(), self.data.pool.clone(), &self.args.options)?;
        let filters = generation::pipelines(self.spec).len();
        let keys: Vec<(u64, usize)> = (0..rendered.len()).map(|i| (i as u64, 0)).collect();
        let session = self.samples(&keys, filters, |i| {
            let r = pollster::block_on(generation::generate_item(
                self.lm,
                self.spec,
                i as u64,
                docs[i].clone(),
                &rendered[i],
            ))?;
            self.count_truncated(r.generation.truncated);
            (0..filters)
                .map(|f| Ok(generation::sample_record(self.spec, &r, f, &self.data.columns)?.to_jsonl_line()))
                .collect()
        })?;
        Ok((session, rendered.len()))
    }

    fn loglikelihood(&self) -> Result<(Session, usize)> {
        let (docs, rendered) =
            eval::render(self.spec, self.data.docs.clone(), self.data.pool.clone(), &self.args.options)?;
        let names = eval::metric_names(self.spec);
        let keys: Vec<(u64, usize)> = (0..rendered.len()).map(|i| (i as u64, 0)).collect();
        let session = self.samples(&keys, 1, |i| {
            let r = pollster::block_on(crate::eval::loglikelihood::score(
                self.lm,
                i as u64,
                docs[i].clone(),
                &rendered[i],
            ))?;
            self.count_truncated(r.truncated);
            Ok(vec![r.sample_record(&names, &self.data.columns).to_jsonl_line()])
        })?;
        Ok((session, rendered.len()))
    }

    /// Tokens per word/character/syllable of the model's tokenizer on the items' texts, by language
    /// (documents with a `language` field; the question, else the input text).
    fn fertility(&self) -> BTreeMap<String, crate::scoring::fertility::Fertility> {
        let docs = eval::select_docs(self.data.docs.iter().collect(), &self.args.options);
        let samples: Vec<(String, String, usize)> = docs
            .into_iter()
            .filter_map(|d| {
                let lang = d.get("language")?.as_str()?;
                let text = d.get("question").or_else(|| d.get("input"))?.as_str()?;
                Some((text.to_string(), lang.to_string(), self.lm.tokenizer.encode(text, false, true).len()))
            })
            .collect();
        fertility_by_language(&samples)
    }
}
