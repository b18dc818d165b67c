//! Results in lm-evaluation-harness 0.4.13's formats, so that its tooling (and anything built on its
//! files) reads ours: the aggregated results JSON, the per-sample JSONL, plus a per-item CSV, and
//! resuming from a samples file.
//!
//! **Files** (lm-eval `EvaluationTracker`, output path a folder): `OUT/<model_name_sanitized>/
//! results_<date_id>.json` and `OUT/<model_name_sanitized>/samples_<task>_<date_id>.jsonl`, where
//! `date_id` is `datetime.now().isoformat()` with `:` replaced by `-` ([`date_id`]) and the model name
//! is sanitized by [`sanitize_model_name`]. The library writes no files (it runs in the browser);
//! these functions return the names and the text.
//!
//! **Samples line** ([`SampleRecord::to_jsonl_line`]): `json.dumps(sample, ensure_ascii=False)` of
//! `{doc_id, doc, target, arguments, resps, filtered_resps, filter, metrics, doc_hash, prompt_hash,
//! target_hash, <metric>: value…}` in that order, where
//! * `target` is `str(doc_to_target(doc))` (the gold index as a string for multiple choice);
//! * `arguments` is `{"gen_args_<i>": {"arg_<j>": …}}` for request `i`'s argument `j`
//!   (loglikelihood: `arg_0` the context, `arg_1` the continuation);
//! * `resps` is one list per request of that request's responses, and `filtered_resps` one response
//!   per request, every leaf turned into a Python `str`: a log-likelihood response is
//!   `["-16.103809356689453", "False"]` ([`loglikelihood_resps`]);
//! * `metrics` lists the metric names; the values follow as top-level keys;
//! * `doc_hash` = sha256 hex of `json.dumps(doc, indent=2, ensure_ascii=False)`, `prompt_hash` = sha256
//!   of the first request's first argument (the context), `target_hash` = sha256 of the `target` string.
//!
//! **Results JSON** ([`ResultsFile::to_json`]): `json.dumps(results, indent=2, ensure_ascii=False)`
//! with lm-eval's keys in its order: `results` (per task: `name`, `alias`, `sample_len`, then `"<metric>,<filter>"` and
//! `"<metric>_stderr,<filter>"`, the stderr `"N/A"` when it has fewer than two values), `groups`
//! (only when there are groups), `group_subtasks`, `configs`, `versions`, `n-shot`,
//! `higher_is_better`, `n-samples` (`{original, effective}`), `config` (model and run settings),
//! `git_hash`, `date`, the environment keys, `task_hashes` (sha256 of the concatenated
//! `doc_hash + prompt_hash + target_hash` of a task's samples), and the `GeneralConfigTracker` fields
//! (`model_source`, `model_name`, `model_name_sanitized`, …, `total_evaluation_time_seconds` as a
//! string).

use std::collections::BTreeSet;

use sha2::{Digest, Sha256};

use super::loglikelihood::McScore;
use super::pyjson::{py_float_repr, PyJson};
use crate::error::Result;

/// lm-eval's `hash_string`: sha256 of the UTF-8 bytes, lowercase hex.
pub fn hash_string(s: &str) -> String {
    hex(&Sha256::digest(s.as_bytes()))
}

/// Bytes (a digest) as lowercase hex, the way every sha256 in lingualens is written.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// lm-eval's `sanitize_model_name`: runs of `"<>:/|\?*[]` become `__`.
pub fn sanitize_model_name(name: &str) -> String {
    let bad = |c: char| "\"<>:/|\\?*[]".contains(c);
    let mut out = String::new();
    let mut in_run = false;
    for c in name.chars() {
        if bad(c) {
            if !in_run {
                out.push_str("__");
            }
            in_run = true;
        } else {
            out.push(c);
            in_run = false;
        }
    }
    out
}

/// `datetime.isoformat().replace(":", "-")` for a time given as seconds since the Unix epoch, in UTC
/// (lm-eval uses local time): `2026-11-29T17-55-26.123456`, no fraction when it is whole.
pub fn date_id(unix_seconds: f64) -> String {
    let total_us = (unix_seconds * 1e6).round() as i64;
    let secs = total_us.div_euclid(1_000_000);
    let us = total_us.rem_euclid(1_000_000);
    let days = secs.div_euclid(86_400);
    let sod = secs.rem_euclid(86_400);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    let base = format!("{y:04}-{m:02}-{d:02}T{:02}-{:02}-{:02}", sod / 3600, sod / 60 % 60, sod % 60);
    if us == 0 {
        base
    } else {
        format!("{base}.{us:06}")
    }
}

/// `results_<date_id>.json`.
pub fn results_file_name(date_id: &str) -> String {
    format!("results_{date_id}.json")
}

/// `samples_<task>_<date_id>.jsonl`.
pub fn samples_file_name(task: &str, date_id: &str) -> String {
    format!("samples_{task}_{date_id}.jsonl")
}

/// Python's `str(bool)`.
fn py_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

/// `resps` and `filtered_resps` of a multiple-choice item: per choice `[[ll, greedy]]` and
/// `[ll, greedy]`, stringified as lm-eval's `sanitize_list` does (`str(float)`, `str(bool)`).
pub fn loglikelihood_resps(lls: &[f64], is_greedy: &[bool]) -> (Vec<PyJson>, Vec<PyJson>) {
    let one = |ll: f64, g: bool| PyJson::List(vec![PyJson::str(py_float_repr(ll)), PyJson::str(py_bool(g))]);
    let resps = lls.iter().zip(is_greedy).map(|(&l, &g)| PyJson::List(vec![one(l, g)])).collect();
    let filtered = lls.iter().zip(is_greedy).map(|(&l, &g)| one(l, g)).collect();
    (resps, filtered)
}

/// One line of a samples JSONL file.
#[derive(Debug, Clone)]
pub struct SampleRecord {
    pub doc_id: u64,
    /// The document as the task sees it (its fields in dataset column order).
    pub doc: PyJson,
    /// `str(doc_to_target(doc))`.
    pub target: String,
    /// Per request, its arguments: `(context, continuation)` for log-likelihood requests.
    pub arguments: Vec<Vec<PyJson>>,
    /// Per request, the list of its responses (already stringified, see [`loglikelihood_resps`]).
    pub resps: Vec<PyJson>,
    /// Per request, the filtered response.
    pub filtered_resps: Vec<PyJson>,
    /// The filter name: `none` when the task has no filters.
    pub filter: String,
    /// The item's metrics in order (`acc`, `acc_norm`, …).
    pub metrics: Vec<(String, PyJson)>,
    /// Keys lingualens adds after lm-eval's (a choice-order variant's `variant` and
    /// `permutation`); empty for a plain run, so the line is lm-eval's.
    pub extra: Vec<(String, PyJson)>,
}

/// What a multiple-choice sample line is made of, besides its scores.
#[derive(Debug, Clone)]
pub struct McSample<'a> {
    pub doc_id: u64,
    /// The document as the task sees it (its fields in dataset column order).
    pub doc: PyJson,
    /// `str(doc_to_target(doc))`: the gold index as a string, e.g. `"2"`.
    pub target: String,
    /// The prompt (`arg_0` of every conditional request).
    pub context: &'a str,
    /// A multiple-input task's context per choice, used instead of `context`.
    pub contexts: Option<&'a [String]>,
    /// `target_delimiter + choice` for each choice (`arg_1`).
    pub continuations: &'a [String],
    pub loglikelihoods: &'a [f64],
    pub is_greedy: &'a [bool],
    /// With `acc_mutual_info`: the `("", continuation)` requests' log-likelihoods and is_greedy
    /// flags, which lm-eval logs after the conditional ones.
    pub unconditional: Option<(&'a [f64], &'a [bool])>,
}

impl SampleRecord {
    /// A multiple-choice sample; `metrics` picks which of the score's metrics to log, in order (lm-eval
    /// logs those of the task's `metric_list`, in the order `acc`, `acc_norm`, `acc_bytes`,
    /// `exact_match`, then `acc_mutual_info`). `exact_match` is logged as an integer, the rest as floats.
    pub fn multiple_choice(sample: McSample, score: &McScore, metrics: &[&str]) -> Result<Self> {
        let McSample {
            doc_id,
            doc,
            target,
            context,
            contexts,
            continuations,
            loglikelihoods,
            is_greedy,
            unconditional,
        } = sample;
        let n = continuations.len();
        if contexts.is_some_and(|c| c.len() != n) {
            crate::bail!("{n} continuations, {} contexts", contexts.map_or(0, <[String]>::len));
        }
        if loglikelihoods.len() != n || is_greedy.len() != n {
            crate::bail!(
                "{n} continuations, {} log-likelihoods, {} is_greedy flags",
                loglikelihoods.len(),
                is_greedy.len()
            );
        }
        if let Some((u, g)) = unconditional {
            if u.len() != n || g.len() != n {
                crate::bail!("{n} continuations, {} unconditional log-likelihoods, {} flags", u.len(), g.len());
            }
        }
        let all = score.metrics();
        let mut chosen = Vec::new();
        for m in metrics {
            let Some((_, v)) = all.iter().find(|(name, _)| name == m) else {
                crate::bail!("metric {m} was not computed for this item");
            };
            let value = if *m == "exact_match" { PyJson::Int(*v as i64) } else { PyJson::Float(*v) };
            chosen.push((m.to_string(), value));
        }
        let (mut resps, mut filtered_resps) = loglikelihood_resps(loglikelihoods, is_greedy);
        let mut arguments: Vec<Vec<PyJson>> = continuations
            .iter()
            .enumerate()
            .map(|(i, c)| vec![PyJson::str(contexts.map_or(context, |x| x[i].as_str())), PyJson::str(c.as_str())])
            .collect();
        if let Some((u, g)) = unconditional {
            let (r, f) = loglikelihood_resps(u, g);
            resps.extend(r);
            filtered_resps.extend(f);
            arguments.extend(continuations.iter().map(|c| vec![PyJson::str(""), PyJson::str(c.as_str())]));
        }
        Ok(SampleRecord {
            doc_id,
            doc,
            target,
            arguments,
            resps,
            filtered_resps,
            filter: "none".into(),
            metrics: chosen,
            extra: Vec::new(),
        })
    }

    pub fn doc_hash(&self) -> String {
        hash_string(&self.doc.dumps_indent(2))
    }

    /// sha256 of the first request's first argument (a string; otherwise its `str`… here its JSON).
    pub fn prompt_hash(&self) -> String {
        match self.arguments.first().and_then(|a| a.first()) {
            Some(PyJson::Str(s)) => hash_string(s),
            Some(other) => hash_string(&other.dumps()),
            None => hash_string(""),
        }
    }

    pub fn target_hash(&self) -> String {
        hash_string(&self.target)
    }

    /// The line lm-eval's `save_results_samples` writes, newline included.
    pub fn to_jsonl_line(&self) -> String {
        let arguments = PyJson::Dict(
            self.arguments
                .iter()
                .enumerate()
                .map(|(i, args)| {
                    let inner =
                        args.iter().enumerate().map(|(j, a)| (format!("arg_{j}"), a.clone())).collect::<Vec<_>>();
                    (format!("gen_args_{i}"), PyJson::Dict(inner))
                })
                .collect(),
        );
        let mut entries = vec![
            ("doc_id".to_string(), PyJson::Int(self.doc_id as i64)),
            ("doc".to_string(), self.doc.clone()),
            ("target".to_string(), PyJson::str(self.target.as_str())),
            ("arguments".to_string(), arguments),
            ("resps".to_string(), PyJson::List(self.resps.clone())),
            ("filtered_resps".to_string(), PyJson::List(self.filtered_resps.clone())),
            ("filter".to_string(), PyJson::str(self.filter.as_str())),
            ("metrics".to_string(), PyJson::List(self.metrics.iter().map(|(k, _)| PyJson::str(k.as_str())).collect())),
            ("doc_hash".to_string(), PyJson::str(self.doc_hash())),
            ("prompt_hash".to_string(), PyJson::str(self.prompt_hash())),
            ("target_hash".to_string(), PyJson::str(self.target_hash())),
        ];
        for (k, v) in &self.metrics {
            match entries.iter_mut().find(|(name, _)| name == k) {
                Some(e) => e.1 = v.clone(), // dict.update keeps the first position
                None => entries.push((k.clone(), v.clone())),
            }
        }
        entries.extend(self.extra.iter().cloned());
        let mut line = PyJson::Dict(entries).dumps();
        line.push('\n');
        line
    }
}

/// `task_hashes[task]`: sha256 of the concatenated `doc_hash + prompt_hash + target_hash`.
pub fn task_hash(samples: &[SampleRecord]) -> String {
    let mut s = String::new();
    for r in samples {
        s.push_str(&r.doc_hash());
        s.push_str(&r.prompt_hash());
        s.push_str(&r.target_hash());
    }
    hash_string(&s)
}

/// The whole samples file of a task.
pub fn samples_jsonl(samples: &[SampleRecord]) -> String {
    samples.iter().map(SampleRecord::to_jsonl_line).collect()
}

/// One metric of a task in the results JSON.
#[derive(Debug, Clone)]
pub struct MetricResult {
    pub name: String,
    /// `none` without filters.
    pub filter: String,
    pub value: f64,
    /// `None` is written as `"N/A"`.
    pub stderr: Option<f64>,
    pub higher_is_better: bool,
}

/// One task (or group) in the results JSON.
#[derive(Debug, Clone)]
pub struct TaskResult {
    pub name: String,
    /// `task_alias` or the name.
    pub alias: String,
    pub metrics: Vec<MetricResult>,
    /// `versions[task]`: the task config's `metadata.version` (lm-eval writes e.g. `1.0`).
    pub version: PyJson,
    pub num_fewshot: i64,
    /// `n-samples`: documents in the split and documents evaluated (after `--limit`).
    pub n_original: usize,
    pub n_effective: usize,
    /// `configs[task]`: the task config as lm-eval dumps it (`task`, `dataset_path`, …).
    pub config: PyJson,
}

/// A group of tasks: its aggregated metrics and its subtasks.
#[derive(Debug, Clone)]
pub struct GroupResult {
    pub name: String,
    pub alias: String,
    pub subtasks: Vec<String>,
    pub metrics: Vec<MetricResult>,
    pub version: PyJson,
}

/// Everything in a results JSON.
#[derive(Debug, Clone)]
pub struct ResultsFile {
    pub tasks: Vec<TaskResult>,
    pub groups: Vec<GroupResult>,
    /// `config.model` (lm-eval: the model type, e.g. `hf`) and `config.model_args`.
    pub model: String,
    pub model_args: String,
    /// The model's name (lm-eval takes `pretrained=` from the model args).
    pub model_name: String,
    /// Further `config` entries after `model`, `model_args` (`batch_size`, `device`, `limit`,
    /// `bootstrap_iters`, seeds, …) in order.
    pub config: Vec<(String, PyJson)>,
    /// Unix time the run started (`date`) and ended.
    pub start_unix: f64,
    pub end_unix: f64,
    /// Our name and version (`lm_eval_version` is set to this, e.g. `lingualens 0.1.0`).
    pub producer: String,
    /// Per task, the hash of its samples ([`task_hash`]); empty without samples.
    pub task_hashes: Vec<(String, String)>,
}

fn metric_entries(name: &str, alias: &str, sample_len: Option<usize>, metrics: &[MetricResult]) -> PyJson {
    let mut e = vec![("name".to_string(), PyJson::str(name)), ("alias".to_string(), PyJson::str(alias))];
    if let Some(n) = sample_len {
        e.push(("sample_len".to_string(), PyJson::Int(n as i64)));
    }
    for m in metrics {
        e.push((format!("{},{}", m.name, m.filter), PyJson::Float(m.value)));
        e.push((
            format!("{}_stderr,{}", m.name, m.filter),
            m.stderr.map(PyJson::Float).unwrap_or_else(|| PyJson::str("N/A")),
        ));
    }
    PyJson::Dict(e)
}

fn higher_is_better(metrics: &[MetricResult]) -> PyJson {
    PyJson::Dict(metrics.iter().map(|m| (m.name.clone(), PyJson::Bool(m.higher_is_better))).collect())
}

/// One lingualens run of one task: what the CLI writes and the page exports as a results file.
#[derive(Debug, Clone)]
pub struct RunDescription<'a> {
    pub task: &'a str,
    /// `multiple_choice`, `generate_until` or `loglikelihood`.
    pub output_type: &'a str,
    pub metrics: Vec<MetricResult>,
    pub num_fewshot: usize,
    pub n_original: usize,
    pub n_effective: usize,
    /// The model file or URL as the user named it, and the backend it ran on.
    pub model: &'a str,
    pub backend: &'a str,
    pub limit: Option<usize>,
    pub seed: u64,
    pub choice_order: &'a str,
    pub start_unix: f64,
    pub end_unix: f64,
}

impl ResultsFile {
    /// The results file of one lingualens run of one task.
    pub fn for_run(r: RunDescription) -> ResultsFile {
        ResultsFile {
            tasks: vec![TaskResult {
                name: r.task.to_string(),
                alias: r.task.to_string(),
                metrics: r.metrics,
                version: PyJson::Float(1.0),
                num_fewshot: r.num_fewshot as i64,
                n_original: r.n_original,
                n_effective: r.n_effective,
                config: PyJson::dict([("task", PyJson::str(r.task)), ("output_type", PyJson::str(r.output_type))]),
            }],
            groups: Vec::new(),
            model: "lingualens".into(),
            model_args: format!("pretrained={},backend={}", r.model, r.backend),
            model_name: r.model.to_string(),
            config: vec![
                ("limit".into(), r.limit.map(|l| PyJson::Int(l as i64)).unwrap_or(PyJson::Null)),
                ("seed".into(), PyJson::Int(r.seed as i64)),
                ("choice_order".into(), PyJson::str(r.choice_order)),
            ],
            start_unix: r.start_unix,
            end_unix: r.end_unix,
            producer: format!("lingualens {}", env!("CARGO_PKG_VERSION")),
            task_hashes: Vec::new(),
        }
    }

    /// The run scored a seeded random sample of the split (`config.sample`: its size and seed).
    pub fn add_sample(&mut self, size: usize, seed: u64) {
        self.config.push((
            "sample".into(),
            PyJson::dict([("size", PyJson::Int(size as i64)), ("seed", PyJson::Int(seed as i64))]),
        ));
    }

    /// Where the run's data came from (`config.data_sources`: each download's URL, sha256 and
    /// size), so that a result names the exact files it was measured on; nothing for files the
    /// user gave.
    pub fn add_data_sources(&mut self, sources: &[crate::catalog::SourceRecord]) {
        if sources.is_empty() {
            return;
        }
        let list = sources
            .iter()
            .map(|s| {
                PyJson::dict([
                    ("url", PyJson::str(&s.url)),
                    ("sha256", s.sha256.as_deref().map(PyJson::str).unwrap_or(PyJson::Null)),
                    ("size_bytes", s.size_bytes.map(|b| PyJson::Int(b as i64)).unwrap_or(PyJson::Null)),
                ])
            })
            .collect();
        self.config.push(("data_sources".into(), PyJson::List(list)));
    }

    /// What the task's YAML asked for that lingualens does not do, where lm-eval itself accepts it
    /// (`config.warnings`: a metric it cannot compute, …), so that a result says what it left out
    /// and not only the terminal that printed it; nothing where there was none.
    pub fn add_warnings(&mut self, warnings: &[String]) {
        if warnings.is_empty() {
            return;
        }
        self.config.push(("warnings".into(), PyJson::List(warnings.iter().map(PyJson::str).collect())));
    }

    /// The results as lm-eval's `EvaluationTracker.save_results_aggregated` writes them.
    pub fn to_json(&self) -> String {
        self.to_pyjson().dumps_indent(2)
    }

    pub fn to_pyjson(&self) -> PyJson {
        let sorted = |mut v: Vec<(String, PyJson)>| {
            v.sort_by(|a, b| a.0.cmp(&b.0));
            PyJson::Dict(v)
        };
        let mut results: Vec<(String, PyJson)> = Vec::new();
        for g in &self.groups {
            results.push((g.name.clone(), metric_entries(&g.name, &g.alias, None, &g.metrics)));
        }
        for t in &self.tasks {
            results.push((t.name.clone(), metric_entries(&t.name, &t.alias, Some(t.n_effective), &t.metrics)));
        }
        let mut top: Vec<(String, PyJson)> = vec![("results".into(), PyJson::Dict(results))];
        if !self.groups.is_empty() {
            top.push((
                "groups".into(),
                PyJson::Dict(
                    self.groups
                        .iter()
                        .map(|g| (g.name.clone(), metric_entries(&g.name, &g.alias, None, &g.metrics)))
                        .collect(),
                ),
            ));
        }
        top.push((
            "group_subtasks".into(),
            PyJson::Dict(
                self.groups
                    .iter()
                    .map(|g| {
                        (g.name.clone(), PyJson::List(g.subtasks.iter().map(|s| PyJson::str(s.as_str())).collect()))
                    })
                    .collect(),
            ),
        ));
        top.push(("configs".into(), sorted(self.tasks.iter().map(|t| (t.name.clone(), t.config.clone())).collect())));
        let mut versions: Vec<(String, PyJson)> =
            self.tasks.iter().map(|t| (t.name.clone(), t.version.clone())).collect();
        versions.extend(self.groups.iter().map(|g| (g.name.clone(), g.version.clone())));
        top.push(("versions".into(), sorted(versions)));
        let mut nshot: Vec<(String, PyJson)> =
            self.tasks.iter().map(|t| (t.name.clone(), PyJson::Int(t.num_fewshot))).collect();
        for g in &self.groups {
            // lm-eval propagates a group's n-shot from its subtasks (0 when they differ, as here if mixed).
            let shots: BTreeSet<i64> =
                self.tasks.iter().filter(|t| g.subtasks.contains(&t.name)).map(|t| t.num_fewshot).collect();
            nshot.push((g.name.clone(), PyJson::Int(if shots.len() == 1 { *shots.first().unwrap() } else { 0 })));
        }
        top.push(("n-shot".into(), sorted(nshot)));
        let mut hib: Vec<(String, PyJson)> =
            self.tasks.iter().map(|t| (t.name.clone(), higher_is_better(&t.metrics))).collect();
        hib.extend(self.groups.iter().map(|g| (g.name.clone(), higher_is_better(&g.metrics))));
        top.push(("higher_is_better".into(), sorted(hib)));
        top.push((
            "n-samples".into(),
            PyJson::Dict(
                self.tasks
                    .iter()
                    .map(|t| {
                        (
                            t.name.clone(),
                            PyJson::dict([
                                ("original", PyJson::Int(t.n_original as i64)),
                                ("effective", PyJson::Int(t.n_effective as i64)),
                            ]),
                        )
                    })
                    .collect(),
            ),
        ));
        let mut config = vec![
            ("model".to_string(), PyJson::str(self.model.as_str())),
            ("model_args".to_string(), PyJson::str(self.model_args.as_str())),
        ];
        config.extend(self.config.iter().cloned());
        top.push(("config".into(), PyJson::Dict(config)));
        top.push(("git_hash".into(), PyJson::Null));
        top.push(("date".into(), PyJson::Float(self.start_unix)));
        top.push(("pretty_env_info".into(), PyJson::str(format!("N/A ({})", self.producer))));
        top.push(("transformers_version".into(), PyJson::str("N/A")));
        top.push(("lm_eval_version".into(), PyJson::str(self.producer.as_str())));
        top.push(("upper_git_hash".into(), PyJson::Null));
        top.push((
            "task_hashes".into(),
            PyJson::Dict(self.task_hashes.iter().map(|(k, v)| (k.clone(), PyJson::str(v.as_str()))).collect()),
        ));
        let sanitized = sanitize_model_name(&self.model_name);
        top.extend([
            ("model_source".to_string(), PyJson::str(self.model.as_str())),
            ("model_name".to_string(), PyJson::str(self.model_name.as_str())),
            ("model_name_sanitized".to_string(), PyJson::str(sanitized)),
            ("system_instruction".to_string(), PyJson::Null),
            ("system_instruction_sha".to_string(), PyJson::Null),
            ("fewshot_as_multiturn".to_string(), PyJson::Bool(false)),
            ("chat_template".to_string(), PyJson::Null),
            ("chat_template_sha".to_string(), PyJson::Null),
            ("total_evaluation_time_seconds".to_string(), PyJson::str(py_float_repr(self.end_unix - self.start_unix))),
        ]);
        PyJson::Dict(top)
    }
}

/// One CSV cell: quoted when it holds a comma, quote or line break (RFC 4180); and, since these
/// files are opened in spreadsheets, a text cell starting with `=`, `+`, `-`, `@`, a tab or a
/// carriage return gets a leading `'` so that it is shown as text and never run as a formula
/// (OWASP's CSV injection rule). Numbers (`-1.25`, `-inf`) are left as they are. The one cell
/// writer of every CSV lingualens makes.
pub fn csv_field(s: &str) -> String {
    let formula = s.starts_with(['=', '+', '-', '@', '\t', '\r']) && s.parse::<f64>().is_err();
    let s = if formula { format!("'{s}") } else { s.to_string() };
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_cells_never_run_as_formulas() {
        assert_eq!(csv_field("=HYPERLINK(\"http://x\")"), "\"'=HYPERLINK(\"\"http://x\"\")\"");
        assert_eq!(csv_field("+1 call me"), "'+1 call me");
        assert_eq!(csv_field("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(csv_field("-x"), "'-x");
        assert_eq!(csv_field("\tx"), "'\tx");
        // Numbers stay numbers, and ordinary text is untouched.
        assert_eq!(csv_field("-1.25"), "-1.25");
        assert_eq!(csv_field("-inf"), "-inf");
        assert_eq!(csv_field("a, b"), "\"a, b\"");
        assert_eq!(csv_field("ཀ་ཁ"), "ཀ་ཁ");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
    }

    #[test]
    fn hashes_and_names() {
        // hashlib.sha256("2".encode()).hexdigest()
        assert_eq!(hash_string("2"), "d4735e3a265e16eee03f59718b9b5d03019c07d8b6c51f90da3a666eec13ab35");
        assert_eq!(sanitize_model_name("org/model:v1"), "org__model__v1");
        assert_eq!(sanitize_model_name("a[]b"), "a__b");
        assert_eq!(date_id(0.0), "1970-01-01T00-00-00");
        assert_eq!(date_id(1_796_061_326.5), "2026-11-30T17-55-26.500000");
        assert_eq!(samples_file_name("dzen_dz", "X"), "samples_dzen_dz_X.jsonl");
    }

    #[test]
    fn resps_are_strings() {
        let (r, f) = loglikelihood_resps(&[-16.103809356689453], &[false]);
        assert_eq!(PyJson::List(r).dumps(), r#"[[["-16.103809356689453", "False"]]]"#);
        assert_eq!(PyJson::List(f).dumps(), r#"[["-16.103809356689453", "False"]]"#);
    }

    #[test]
    fn results_shape() {
        let metric = |name: &str, stderr| MetricResult {
            name: name.into(),
            filter: "none".into(),
            value: 0.5,
            stderr,
            higher_is_better: true,
        };
        let task = |name: &str, shots| TaskResult {
            name: name.into(),
            alias: name.into(),
            metrics: vec![metric("acc", None)],
            version: PyJson::Float(1.0),
            num_fewshot: shots,
            n_original: 1,
            n_effective: 1,
            config: PyJson::dict([("task", PyJson::str(name))]),
        };
        let r = ResultsFile {
            tasks: vec![task("b", 0), task("a", 0)],
            groups: vec![GroupResult {
                name: "g".into(),
                alias: "g".into(),
                subtasks: vec!["a".into(), "b".into()],
                metrics: vec![metric("acc", Some(0.1))],
                version: PyJson::Float(1.0),
            }],
            model: "lingualens".into(),
            model_args: "pretrained=org/m".into(),
            model_name: "org/m".into(),
            config: vec![],
            start_unix: 10.0,
            end_unix: 12.5,
            producer: "lingualens test".into(),
            task_hashes: vec![],
        }
        .to_pyjson();
        let a = r.get("results").unwrap().get("a").unwrap();
        assert_eq!(a.get("acc_stderr,none"), Some(&PyJson::str("N/A")));
        assert_eq!(a.get("sample_len"), Some(&PyJson::Int(1)));
        assert_eq!(r.get("groups").unwrap().get("g").unwrap().get("acc_stderr,none"), Some(&PyJson::Float(0.1)));
        assert_eq!(r.get("n-shot").unwrap().get("g"), Some(&PyJson::Int(0)));
        assert_eq!(r.get("model_name_sanitized"), Some(&PyJson::str("org__m")));
        assert_eq!(r.get("total_evaluation_time_seconds"), Some(&PyJson::str("2.5")));
        // configs are sorted by task name, as lm-eval sorts them.
        let PyJson::Dict(configs) = r.get("configs").unwrap() else { panic!() };
        assert_eq!(configs[0].0, "a");
    }

    #[test]
    fn csv_quotes() {
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("plain"), "plain");
    }
}
