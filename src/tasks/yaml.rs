//! Tasks as data: a subset of lm-evaluation-harness's task YAML, rendered with minijinja.
//!
//! [`load_task`] reads one task file (following `include:`, relative to the including file; the
//! includer's keys win, one level deep, as lm-eval's `load_yaml_config` merges them) into a
//! [`TaskSpec`]. [`TaskSpec::renderer`] then turns documents (JSON objects: a data row, or an
//! [`Item`] seen through [`item_doc`]) into the requests lm-eval would build: see [`render`].
//!
//! Python in task files (`!function utils.x`) cannot run here (the browser has no Python). A
//! `!function` in `doc_to_text`, `doc_to_choice` or `doc_to_target` whose module (`utils.py`
//! beside the YAML) is given is read as the template it fills in, where it does only that
//! ([`super::pyprompt`]). Otherwise a `!function` in those fields or `process_docs` makes loading
//! fail with a message naming the file, the field and the function, unless a replacement is given:
//! [`LoadOptions::overrides`] (the CLI's `--override FIELD=TEMPLATE`), or a sidecar file
//! `<name>.override.yaml` next to the task file, or one the caller names
//! ([`LoadOptions::sidecar`]). A sidecar is a YAML map whose keys replace the task's fields;
//! everything else in the task file is used as published. Precedence: `overrides` > sidecar >
//! task file > included files.
//!
//! Files are read through a caller-supplied resolver, so this runs in the browser too;
//! [`load_task_file`] is the native helper over the file system.
//!
//! Data: `dataset_path: json|csv|parquet` with `dataset_kwargs.data_files` (a file, a list, or a
//! map split → file(s)); an entry `"{{data}}"` is a placeholder for a file the user supplies at
//! run time. `dataset_path: lingualens` with `dataset_name: dzen|kyrgyz_mmlu|…` means documents
//! are lingualens items from that loader, seen through [`item_doc`]. Any other `dataset_path` is a
//! Hugging Face Hub id, which cannot be fetched here: the user supplies the split's file.
//!
//! Why one long file: it is the parser of one schema, lm-eval's task file, key by key (about
//! 1,350 lines before its tests), and a key's checks sit beside the key; rendering is `yaml/render.rs`.

pub mod jinja;
pub mod render;

use std::collections::BTreeMap;

use serde_json::{Map, Value as Json};
use serde_yaml_ng::Value as Yaml;

use crate::error::{Error, Result};
use crate::tasks::item::{Item, ItemBody};

pub use render::{FewshotSampler, Rendered, Renderer, Request, Target};

/// A `doc_to_text`/`doc_to_choice`/`doc_to_target` value as lm-eval accepts it.
#[derive(Debug, Clone, PartialEq)]
pub enum Field {
    /// A Jinja template, or a column name when the document has a field of exactly that name.
    Template(String),
    /// A constant (an index, for `doc_to_target`).
    Int(i64),
    /// A constant list (`doc_to_choice: ["yes", "no"]`; a map's values, as lm-eval takes them).
    List(Vec<Json>),
    /// `!function module.name`: Python; only present in a spec when it was not needed.
    Function(String),
}

/// What a task whose `dataset_path` is a Hugging Face Hub dataset reads: the CLI and the worker
/// find these splits' files on the Hub (`hub`) when no data is given.
#[derive(Debug, Clone, PartialEq)]
pub struct HubSplits {
    pub dataset: String,
    pub config: Option<String>,
    pub revision: String,
    /// The evaluated split (`None`: the task names none, an error when it is read).
    pub evaluated: Option<String>,
    /// The few-shot split, where it is another (read where it is there).
    pub fewshot: Option<String>,
}

/// Where a task's documents come from.
#[derive(Debug, Clone, PartialEq)]
pub enum DataSource {
    /// `dataset_path: json|csv|parquet`: split → files (`{{data}}` = given at run time).
    Files { format: String, data_files: BTreeMap<String, Vec<String>> },
    /// `dataset_path: lingualens`: items from the named lingualens loader (`dataset_name`: `dzen`,
    /// `kyrgyz-mmlu`, …), seen through [`item_doc`]; `dataset_kwargs.language` keeps one language.
    /// An item's split is its `split` metadata, else `test` (DZEN exemplars: `few_shot`).
    /// `dataset_kwargs.metadata` (a map) keeps the items whose metadata has those values
    /// (TruthfulQA-kg: `subtask: mc1`).
    Items { loader: String, language: Option<String>, metadata: BTreeMap<String, String> },
    /// A Hugging Face Hub dataset; the user must supply the data for the split.
    Hub { path: String, name: Option<String> },
}

impl DataSource {
    /// Whether the data must be given at run time (placeholder or Hub dataset).
    pub fn needs_user_data(&self) -> bool {
        match self {
            DataSource::Files { data_files, .. } => {
                data_files.is_empty() || data_files.values().flatten().any(|f| f.contains("{{"))
            }
            DataSource::Items { .. } => true,
            DataSource::Hub { .. } => true,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputType {
    MultipleChoice,
    Loglikelihood,
    GenerateUntil,
}

impl OutputType {
    /// lm-eval's name, as in a task file's `output_type`.
    pub fn name(self) -> &'static str {
        match self {
            OutputType::MultipleChoice => "multiple_choice",
            OutputType::Loglikelihood => "loglikelihood",
            OutputType::GenerateUntil => "generate_until",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SamplerKind {
    /// lm-eval's `default`: `random.Random(seed).sample(fewshot_docs, n)`, reproduced exactly.
    Random,
    /// `first_n`: the first n documents of the few-shot split, in order.
    FirstN,
}

/// `fewshot_config`, with lm-eval's inheritance from the task applied.
#[derive(Debug, Clone, PartialEq)]
pub struct FewshotConfig {
    pub sampler: SamplerKind,
    pub split: Option<String>,
    pub doc_to_text: Option<Field>,
    pub doc_to_choice: Option<Field>,
    pub doc_to_target: Option<Field>,
    pub target_delimiter: String,
    pub fewshot_delimiter: String,
    /// `fewshot_config.samples`: examples written into the task file (used, as in lm-eval, only
    /// when no few-shot split is named; `process_docs` does not apply to them).
    pub samples: Option<Vec<Json>>,
    /// `gen_prefix` of the few-shot answers (the task's unless `fewshot_config` has its own).
    pub gen_prefix: Option<String>,
}

/// How every message names a document: counted from 1, with lm-eval's `doc_id` (counted from 0,
/// as the samples file has it).
pub fn document_name(doc_id: u64) -> String {
    format!("document {} (doc_id {doc_id})", doc_id + 1)
}

/// Where lm-eval takes a task's few-shot examples from (`ConfigurableTask.fewshot_docs`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FewshotSource<'a> {
    /// A split of the task's data, and the key that named it.
    Split(&'a str, &'static str),
    /// `fewshot_config.samples`.
    Samples(&'a [Json]),
    /// No split and no samples: the evaluated documents (lm-eval's last resort).
    Evaluated,
}

/// The documents few-shot examples are drawn from, or why there are none.
#[derive(Debug, Clone, PartialEq)]
pub enum FewshotPool {
    /// Documents of a split (the evaluated one included): `process_docs` applies to them.
    Split(Vec<Json>),
    /// `fewshot_config.samples`, used as written.
    Samples(Vec<Json>),
    /// The split lm-eval would draw from was not given: a run that asks for examples is refused
    /// with this message rather than drawing them from somewhere else.
    Missing(String),
}

impl FewshotPool {
    /// The documents (none when missing).
    pub fn docs(&self) -> &[Json] {
        match self {
            FewshotPool::Split(d) | FewshotPool::Samples(d) => d,
            FewshotPool::Missing(_) => &[],
        }
    }
}

/// lm-eval's `generation_kwargs` dict: the task's keys in their order, `until` appended (as
/// `[fewshot_delimiter]`) when absent, `--gen_kwargs` merged in as Python's `dict.update`; without
/// the key in the task, lm-eval's default dict. A sample logs it as it is.
#[derive(Debug, Clone, PartialEq)]
pub struct GenerationKwargs {
    pub kwargs: Vec<(String, Json)>,
}

impl GenerationKwargs {
    /// lm-eval's `default_gen_kwargs(until)`.
    pub fn lm_eval_default(until: &str) -> Self {
        GenerationKwargs {
            kwargs: vec![
                ("temperature".into(), Json::from(0.0)),
                ("do_sample".into(), Json::Bool(false)),
                ("max_gen_toks".into(), Json::from(DEFAULT_MAX_GEN_TOKS)),
                ("until".into(), Json::Array(vec![Json::from(until)])),
            ],
        }
    }

    pub fn get(&self, key: &str) -> Option<&Json> {
        self.kwargs.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// `dict[key] = value`: an existing key keeps its place.
    pub fn set(&mut self, key: &str, value: Json) {
        match self.kwargs.iter_mut().find(|(k, _)| k == key) {
            Some((_, v)) => *v = value,
            None => self.kwargs.push((key.to_string(), value)),
        }
    }

    /// The stop strings (`until`: a string or a list of them).
    pub fn until(&self) -> Result<Vec<String>> {
        match self.get("until") {
            None | Some(Json::Null) => Ok(Vec::new()),
            Some(Json::String(s)) => Ok(vec![s.clone()]),
            Some(Json::Array(a)) => a
                .iter()
                .map(|v| {
                    v.as_str()
                        .map(String::from)
                        .ok_or_else(|| Error::new(format!("generation_kwargs.until: {v} is not text")))
                })
                .collect(),
            Some(other) => {
                Err(Error::new(format!("generation_kwargs.until: expected text or a list of texts, found {other}")))
            }
        }
    }

    /// The most tokens to generate, by lm-eval's `normalize_gen_kwargs` (`max_gen_toks`, else
    /// `max_new_tokens`, `max_tokens`, `max_completion_tokens`; 256 without any).
    pub fn max_gen_toks(&self) -> Result<usize> {
        for key in ["max_gen_toks", "max_new_tokens", "max_tokens", "max_completion_tokens"] {
            if let Some(v) = self.get(key) {
                return v
                    .as_u64()
                    .map(|n| n as usize)
                    .ok_or_else(|| Error::new(format!("generation_kwargs.{key}: expected a count, found {v}")));
            }
        }
        Ok(DEFAULT_MAX_GEN_TOKS)
    }

    /// Whether a key asks for sampling, which lingualens does not do (it decodes greedily).
    pub fn sampling(&self) -> bool {
        self.get("do_sample") == Some(&Json::Bool(true))
    }
}

/// lm-eval's `DEFAULT_MAX_GEN_TOKS`.
pub const DEFAULT_MAX_GEN_TOKS: usize = 256;

/// `--gen_kwargs` as lm-eval reads it: one `key=value,key2=value2` argument or several, or a
/// JSON object; values as lm-eval's `handle_cli_value_string` takes them (true/false, integers,
/// floats, then Python literals such as `['\n\n']` or `'text'`, else the text as it is).
pub fn parse_gen_kwargs(args: &[String]) -> Result<Vec<(String, Json)>> {
    // A later key replaces an earlier one in its place, as the task's dict is updated.
    let mut out = GenerationKwargs { kwargs: Vec::new() };
    if let [one] = args {
        if let Ok(Json::Object(m)) = serde_json::from_str::<Json>(one) {
            for (k, v) in m {
                out.set(&k, v);
            }
            return Ok(out.kwargs);
        }
    }
    for arg in args {
        for item in split_top_level(arg) {
            let (k, v) = item
                .split_once('=')
                .ok_or_else(|| Error::new(format!("--gen_kwargs: expected `key=value`, got {item:?}")))?;
            out.set(k, cli_value(v));
        }
    }
    Ok(out.kwargs)
}

/// lm-eval's `split_top_level`: commas outside brackets and quotes.
fn split_top_level(s: &str) -> Vec<String> {
    let (mut parts, mut buf, mut depth, mut quote) = (Vec::new(), String::new(), 0usize, None::<char>);
    for c in s.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None if "[({".contains(c) => depth += 1,
            None if "])}".contains(c) => depth = depth.saturating_sub(1),
            None if c == ',' && depth == 0 => {
                parts.push(std::mem::take(&mut buf));
                continue;
            }
            None => {}
        }
        buf.push(c);
    }
    parts.push(buf);
    parts.into_iter().filter(|p| !p.is_empty()).collect()
}

/// lm-eval's `handle_cli_value_string`.
fn cli_value(v: &str) -> Json {
    if v.eq_ignore_ascii_case("true") {
        return Json::Bool(true);
    }
    if v.eq_ignore_ascii_case("false") {
        return Json::Bool(false);
    }
    if !v.is_empty() && v.chars().all(|c| c.is_ascii_digit()) {
        if let Ok(n) = v.parse::<u64>() {
            return Json::from(n);
        }
    }
    if let Some(f) = v.trim().parse::<f64>().ok().filter(|f| f.is_finite()) {
        return Json::from(f);
    }
    crate::tasks::pylit::parse(v).unwrap_or_else(|_| Json::String(v.to_string()))
}

/// One step of a `filter_list` pipeline.
#[derive(Debug, Clone, PartialEq)]
pub enum FilterStep {
    Regex {
        pattern: String,
        group_select: i64,
        fallback: String,
    },
    TakeFirst,
    /// `take_first_k` with `k` ≤ 1 (one response per document: more would need `repeats`).
    TakeFirstK(usize),
    /// The most frequent response (the first of the most frequent on a tie).
    MajorityVote,
    /// `remove_whitespace`: Python's `str.strip()`.
    RemoveWhitespace,
    Lowercase,
    Uppercase,
    /// `map`: a response found in `mapping` becomes its value, any other `default`.
    Map {
        mapping: Vec<(String, String)>,
        default: String,
    },
}

/// The filters lingualens applies (lm-eval's built-in ones that need no Python or document).
pub const SUPPORTED_FILTERS: &str =
    "regex, take_first, take_first_k, majority_vote, remove_whitespace, lowercase, uppercase, map";

#[derive(Debug, Clone, PartialEq)]
pub struct FilterPipeline {
    pub name: String,
    pub steps: Vec<FilterStep>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct MetricSpec {
    pub metric: String,
    pub aggregation: Option<String>,
    pub higher_is_better: Option<bool>,
    /// The rest (`ignore_case`, `regexes_to_ignore`, …).
    pub options: Map<String, Json>,
}

/// A parsed task.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskSpec {
    /// The task file as the caller named it, for messages.
    pub file: String,
    pub task: String,
    /// `tag` and `group` entries (not used for running).
    pub tags: Vec<String>,
    pub source: DataSource,
    pub test_split: Option<String>,
    pub validation_split: Option<String>,
    pub training_split: Option<String>,
    pub fewshot_split: Option<String>,
    pub output_type: OutputType,
    pub doc_to_text: Option<Field>,
    pub doc_to_choice: Option<Field>,
    pub doc_to_target: Option<Field>,
    /// `process_docs` replaced by a map field → template: each document gains (or has replaced)
    /// these fields, rendered against the original document. `None`: documents as they are.
    pub process_docs: Option<BTreeMap<String, String>>,
    pub description: Option<String>,
    /// `gen_prefix`: text that starts the answer (lm-eval: after the prompt, delimited by a space
    /// where neither side has one; the continuations or generation follow it).
    pub gen_prefix: Option<String>,
    pub target_delimiter: String,
    pub fewshot_delimiter: String,
    pub num_fewshot: Option<usize>,
    pub fewshot: FewshotConfig,
    pub generation: Option<GenerationKwargs>,
    pub filters: Vec<FilterPipeline>,
    pub metrics: Vec<MetricSpec>,
    pub repeats: usize,
    /// Fields whose value came from an override or sidecar.
    pub overridden: Vec<String>,
    /// The task file as read: includes merged, the sidecar and overrides applied (what
    /// `tasks::export` writes out for lm-eval).
    pub raw: serde_yaml_ng::Mapping,
    pub warnings: Vec<String>,
}

impl TaskSpec {
    /// `metadata.cloze_variant`: the task that asks the same questions scoring each option's own
    /// text instead of its letter (DZEN's `dzen_en` → `dzen_en_cloze`), which the page offers when
    /// the model picks one letter for most questions.
    pub fn cloze_variant(&self) -> Option<String> {
        let metadata = self.raw.get("metadata")?;
        metadata.get("cloze_variant")?.as_str().map(str::to_string)
    }

    /// For a task whose `dataset_path` is a Hub dataset: the dataset, its config (`dataset_name`),
    /// the revision (`dataset_kwargs.revision`, default `main`) and the splits it reads.
    pub fn hub_splits(&self) -> Option<HubSplits> {
        let DataSource::Hub { path, name } = &self.source else { return None };
        let revision = self.raw.get("dataset_kwargs").and_then(|kw| kw.get("revision")).and_then(|r| r.as_str());
        Some(HubSplits {
            dataset: path.clone(),
            config: name.clone(),
            revision: revision.unwrap_or("main").to_string(),
            evaluated: self.eval_split().map(str::to_string),
            fewshot: self.fewshot_split_to_read().map(str::to_string),
        })
    }

    /// The split evaluated: `test_split`, else `validation_split` (lm-eval's `eval_docs`).
    pub fn eval_split(&self) -> Option<&str> {
        self.test_split.as_deref().or(self.validation_split.as_deref())
    }

    /// Where few-shot examples come from, in lm-eval's order: the few-shot split
    /// (`fewshot_config.split`/`fewshot_split`), else `fewshot_config.samples`, else the training
    /// split, else the validation split, else the evaluated documents.
    pub fn fewshot_source(&self) -> FewshotSource<'_> {
        if let Some(s) = &self.fewshot.split {
            return FewshotSource::Split(s, "fewshot_split");
        }
        if let Some(samples) = &self.fewshot.samples {
            return FewshotSource::Samples(samples);
        }
        match (&self.training_split, &self.validation_split) {
            (Some(s), _) => FewshotSource::Split(s, "training_split"),
            (None, Some(s)) => FewshotSource::Split(s, "validation_split"),
            (None, None) => FewshotSource::Evaluated,
        }
    }

    /// The split whose documents are the few-shot pool, when it is not the evaluated one.
    pub fn fewshot_split_to_read(&self) -> Option<&str> {
        match self.fewshot_source() {
            FewshotSource::Split(s, _) if Some(s) != self.eval_split() => Some(s),
            _ => None,
        }
    }

    /// The few-shot pool: `docs` (the evaluated documents) where lm-eval draws from them, the
    /// samples, or what `read_split` gives for the few-shot split (`None`: not given, and the
    /// pool is [`FewshotPool::Missing`] with a message ending in `how_to_give`).
    pub fn fewshot_pool(
        &self,
        docs: &[Json],
        read_split: impl FnOnce(&str) -> Result<Option<Vec<Json>>>,
        how_to_give: &str,
    ) -> Result<FewshotPool> {
        Ok(match self.fewshot_source() {
            FewshotSource::Evaluated => FewshotPool::Split(docs.to_vec()),
            FewshotSource::Samples(s) => FewshotPool::Samples(s.to_vec()),
            FewshotSource::Split(s, _) if Some(s) == self.eval_split() => FewshotPool::Split(docs.to_vec()),
            FewshotSource::Split(s, key) => match read_split(s)? {
                Some(d) => FewshotPool::Split(d),
                None => FewshotPool::Missing(format!(
                    "{}: few-shot examples come from split `{s}` ({key}{}), which was not given: {how_to_give}",
                    self.file,
                    if key == "fewshot_split" {
                        ""
                    } else {
                        ", as lm-eval takes them when the task names no few-shot split"
                    },
                )),
            },
        })
    }
}

/// Replacements for fields, and where to find a sidecar.
#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    /// FIELD → value; a string is a template (the CLI's `--override FIELD=TEMPLATE`).
    pub overrides: BTreeMap<String, String>,
    /// A sidecar file to use instead of `<name>.override.yaml` next to the task file.
    pub sidecar: Option<String>,
    /// What `os.getenv` gives a task's Python prompt functions (the CLI: its own environment;
    /// the page: a catalogue task's `env`).
    pub env: BTreeMap<String, String>,
    /// For a task whose `dataset_path` is a Hub id: the files of each split, as the benchmark
    /// catalogue maps them from the dataset card (a published task's `data`); the task then
    /// reads them as `dataset_path: csv|json|parquet` would.
    pub hub_data_files: BTreeMap<String, Vec<String>>,
    /// Include files given as text, by file name, over any file of that name beside the task:
    /// KyrgyzLLM-Bench's prompts, read from the authors' code that came with the data
    /// (`tasks::kyrgyzllm`).
    pub include_files: BTreeMap<String, String>,
}

/// Reads a file by path (`/`-separated, as joined by this module); `Ok(None)` when it does not
/// exist.
pub type Resolver<'a> = dyn Fn(&str) -> Result<Option<String>> + 'a;

/// Fields where a `!function` must be replaced before the task can run.
const FUNCTION_FIELDS: [&str; 4] = ["doc_to_text", "doc_to_choice", "doc_to_target", "process_docs"];

const KNOWN_KEYS: &[&str] = &[
    "task",
    "tag",
    "group",
    "task_alias",
    "group_alias",
    "dataset_path",
    "dataset_name",
    "dataset_kwargs",
    "test_split",
    "validation_split",
    "training_split",
    "fewshot_split",
    "doc_to_text",
    "doc_to_choice",
    "doc_to_target",
    "target_delimiter",
    "fewshot_delimiter",
    "num_fewshot",
    "fewshot_config",
    "output_type",
    "generation_kwargs",
    "filter_list",
    "metric_list",
    "description",
    "gen_prefix",
    "process_docs",
    "include",
    "metadata",
    "repeats",
    "should_decontaminate",
    "doc_to_decontamination_query",
    // Only lets lm-eval run code a metric brings; lingualens runs none.
    "unsafe_code",
    // lm-eval's, refused below when set: lingualens cannot do what they ask.
    "use_prompt",
    "doc_to_image",
    "doc_to_audio",
    "custom_dataset",
    "process_results",
];

/// The directory part of a `/`-separated path ("" for a bare name).
fn parent(path: &str) -> &str {
    path.rfind('/').map_or("", |i| &path[..i])
}

/// `base/rel` with `.` and `..` segments folded; `rel` starting with `/` is absolute.
pub fn join_path(base: &str, rel: &str) -> String {
    let full = if rel.starts_with('/') || base.is_empty() { rel.to_string() } else { format!("{base}/{rel}") };
    let absolute = full.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for seg in full.split('/') {
        match seg {
            "" | "." => {}
            ".." if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    let joined = parts.join("/");
    if absolute {
        format!("/{joined}")
    } else {
        joined
    }
}

fn file_stem(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.strip_suffix(".yaml").or_else(|| name.strip_suffix(".yml")).unwrap_or(name)
}

/// The deepest `[`/`{` nesting a task file may have: serde_yaml_ng refuses 128 levels itself, but
/// only after libyaml's scanner has gone through them, which takes time quadratic in the depth (32 s
/// for 100,000 levels). Counted first, in one pass, a hostile file is refused at once.
const MAX_FLOW_DEPTH: usize = 128;

/// Refuses `text` when its flow collections nest deeper than [`MAX_FLOW_DEPTH`]. Quoted strings and
/// comments are skipped; brackets in a plain or block scalar count, so a file could be refused
/// early that the parser would take only if it held over a hundred unbalanced ones.
fn check_flow_depth(label: &str, text: &str) -> Result<()> {
    let (mut depth, mut quote, mut comment, mut previous) = (0usize, None::<char>, false, '\n');
    for (line, c) in text.lines().enumerate().flat_map(|(n, l)| l.chars().chain(['\n']).map(move |c| (n + 1, c))) {
        match (quote, c) {
            _ if comment => comment = c != '\n',
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '#') if previous.is_whitespace() => comment = true,
            (None, '"' | '\'') if previous.is_whitespace() || "[{,:".contains(previous) => quote = Some(c),
            (None, '[' | '{') => {
                depth += 1;
                if depth > MAX_FLOW_DEPTH {
                    return Err(Error::new(format!(
                        "{label}: line {line}: brackets nested more than {MAX_FLOW_DEPTH} deep; a task file needs a few"
                    )));
                }
            }
            (None, ']' | '}') => depth = depth.saturating_sub(1),
            _ => {}
        }
        previous = c;
    }
    Ok(())
}

fn parse_yaml_map(label: &str, text: &str) -> Result<serde_yaml_ng::Mapping> {
    check_flow_depth(label, text)?;
    let v: Yaml = serde_yaml_ng::from_str(text).map_err(|e| Error::new(format!("{label}: not valid YAML: {e}")))?;
    match v {
        Yaml::Mapping(m) => Ok(m),
        Yaml::Null => Ok(serde_yaml_ng::Mapping::new()),
        _ => Err(Error::new(format!("{label}: a task file must be a YAML map of fields"))),
    }
}

/// A merged task map, with the folder of the file each key came from (a `!function`'s module is
/// found beside the file that names it, as lm-eval's loader finds it).
type Merged = (serde_yaml_ng::Mapping, BTreeMap<String, String>);

/// Reads `path` and its includes into one map (includes first, the file's keys over them).
fn read_merged(path: &str, resolve: &Resolver, depth: usize) -> Result<Merged> {
    if depth > 16 {
        return Err(Error::new(format!("{path}: `include:` nested more than 16 deep (a cycle?)")));
    }
    let text = resolve(path)?.ok_or_else(|| Error::new(format!("{path}: file not found")))?;
    let map = parse_yaml_map(path, &text)?;
    let includes: Vec<String> = match map.get("include") {
        None => vec![],
        Some(Yaml::String(s)) => vec![s.clone()],
        Some(Yaml::Sequence(v)) => v.iter().filter_map(|x| x.as_str().map(String::from)).collect(),
        Some(_) => return Err(Error::new(format!("{path}: `include` must be a file name or a list of them"))),
    };
    let mut merged = serde_yaml_ng::Mapping::new();
    let mut folders = BTreeMap::new();
    for inc in includes {
        let inc_path = join_path(parent(path), &inc);
        let (m, f) =
            read_merged(&inc_path, resolve, depth + 1).map_err(|e| e.context(format!("{path}: include `{inc}`")))?;
        for (k, v) in m {
            merged.insert(k, v);
        }
        folders.extend(f);
    }
    for (k, v) in map {
        if k.as_str() != Some("include") {
            folders.insert(yaml_scalar(&k), parent(path).to_string());
            merged.insert(k, v);
        }
    }
    Ok((merged, folders))
}

/// Each `!function module.name` left in a field of [`FUNCTION_FIELDS`] whose module file
/// (`module.py` beside the YAML that names it) can be read: the function read as the template
/// it fills in (`pyprompt`), with a note for the run's warnings. A module that is not there
/// leaves the field as it is (refused below); one that cannot be read is refused with why.
fn read_prompt_functions(
    path: &str,
    map: &mut serde_yaml_ng::Mapping,
    folders: &BTreeMap<String, String>,
    resolve: &Resolver,
    options: &LoadOptions,
) -> Result<Vec<String>> {
    let mut notes = Vec::new();
    for key in FUNCTION_FIELDS.iter().filter(|k| **k != "process_docs") {
        let Some(Yaml::Tagged(t)) = map.get(*key) else { continue };
        if t.tag != "!function" {
            continue;
        }
        let dotted = yaml_scalar(&t.value);
        let Some((module, function)) = dotted.rsplit_once('.') else { continue };
        let file = join_path(folders.get(*key).map_or("", String::as_str), &format!("{}.py", module.replace('.', "/")));
        let Some(source) = resolve(&file)? else { continue };
        let env = |name: &str| options.env.get(name).cloned();
        let prompt = super::pyprompt::read_function(&file, &source, function, &env)
            .map_err(|e| Error::new(format!("{path}: {key} is !function {dotted} (Python), which lingualens reads only where it fills a string with document fields: {e}")))?;
        let value = match prompt {
            super::pyprompt::Prompt::Template(t) => Yaml::String(t),
            super::pyprompt::Prompt::Int(i) => Yaml::Number(i.into()),
        };
        notes.push(format!("{path}: {key} is !function {dotted}, read from {file} as the template it fills in (lingualens runs no Python)"));
        map.insert(Yaml::String(key.to_string()), value);
    }
    Ok(notes)
}

/// Loads the task file `path` through `resolve`, applying `options`.
pub fn load_task(path: &str, resolve: &Resolver, options: &LoadOptions) -> Result<TaskSpec> {
    let given = |p: &str| match options.include_files.get(p.rsplit('/').next().unwrap_or(p)) {
        Some(text) if p != path => Ok(Some(text.clone())),
        _ => resolve(p),
    };
    let resolve: &Resolver = &given;
    let (mut map, folders) = read_merged(path, resolve, 0)?;
    let mut overridden = Vec::new();

    // Sidecar: named by the caller (must exist), or `<stem>.override.yaml` beside the file.
    let default_sidecar = join_path(parent(path), &format!("{}.override.yaml", file_stem(path)));
    let sidecar = match &options.sidecar {
        Some(p) => Some((p.clone(), resolve(p)?.ok_or_else(|| Error::new(format!("{p}: sidecar file not found")))?)),
        None => resolve(&default_sidecar)?.map(|t| (default_sidecar.clone(), t)),
    };
    if let Some((label, text)) = sidecar {
        for (k, v) in parse_yaml_map(&label, &text)? {
            let key =
                k.as_str().map(String::from).ok_or_else(|| Error::new(format!("{label}: keys must be field names")))?;
            if let Yaml::Tagged(t) = &v {
                return Err(Error::new(format!(
                    "{label}: {key} is {} {}; an override must be Jinja, not Python",
                    t.tag,
                    yaml_scalar(&t.value)
                )));
            }
            overridden.push(key.clone());
            map.insert(Yaml::String(key), v);
        }
    }
    for (k, v) in &options.overrides {
        overridden.push(k.clone());
        map.insert(Yaml::String(k.clone()), Yaml::String(v.clone()));
    }
    overridden.sort();
    overridden.dedup();

    let python_notes = read_prompt_functions(path, &mut map, &folders, resolve, options)?;

    // Python functions left in fields that decide what is scored: refuse, naming each one.
    let mut python = Vec::new();
    for f in FUNCTION_FIELDS.iter().chain(["process_results", "class"].iter()) {
        if let Some(Yaml::Tagged(t)) = map.get(*f) {
            python.push((f.to_string(), format!("{} {}", t.tag, yaml_scalar(&t.value))));
        }
    }
    if !python.is_empty() {
        let what: Vec<String> = python.iter().map(|(f, func)| format!("{f} is {func} (Python)")).collect();
        let replaceable: Vec<&str> =
            python.iter().map(|(f, _)| f.as_str()).filter(|f| FUNCTION_FIELDS.contains(f)).collect();
        let mut msg = format!("{path}: {}, which lingualens cannot run", what.join(", "));
        if replaceable.len() == python.len() {
            let flags: Vec<String> = replaceable.iter().map(|f| format!("--override {f}='…'")).collect();
            msg.push_str(&format!(
                "; give a Jinja replacement with {} or a sidecar file {}.override.yaml",
                flags.join(" "),
                file_stem(path)
            ));
        } else {
            msg.push_str("; this task is defined by Python code and cannot be loaded from its YAML");
        }
        return Err(Error::new(msg));
    }

    let mut spec =
        build_spec(path, map, overridden).map_err(
            |e| {
                if e.message().starts_with(path) {
                    e
                } else {
                    e.context(path)
                }
            },
        )?;
    spec.warnings.extend(python_notes);
    if let (DataSource::Hub { .. }, false) = (&spec.source, options.hub_data_files.is_empty()) {
        let format = options
            .hub_data_files
            .values()
            .flatten()
            .next()
            .and_then(|f| f.rsplit_once('.'))
            .map(|(_, e)| e.to_ascii_lowercase())
            .unwrap_or_else(|| "csv".into());
        spec.source = DataSource::Files { format, data_files: options.hub_data_files.clone() };
    }
    Ok(spec)
}

/// [`load_task`] over the file system (native only).
#[cfg(not(target_arch = "wasm32"))]
pub fn load_task_file(path: &std::path::Path, options: &LoadOptions) -> Result<TaskSpec> {
    use crate::formats::source::{limits, read_optional_text_capped};
    let resolve = |p: &str| read_optional_text_capped(std::path::Path::new(p), limits::TEXT_FILE, "task file");
    load_task(&path.to_string_lossy().replace('\\', "/"), &resolve, options)
}

fn yaml_scalar(v: &Yaml) -> String {
    match v {
        Yaml::String(s) => s.clone(),
        Yaml::Number(n) => n.to_string(),
        Yaml::Bool(b) => b.to_string(),
        Yaml::Null => String::new(),
        other => format!("{other:?}"),
    }
}

/// YAML → JSON (tags dropped, non-string keys written out).
pub fn yaml_to_json(v: &Yaml) -> Json {
    match v {
        Yaml::Null => Json::Null,
        Yaml::Bool(b) => Json::Bool(*b),
        Yaml::Number(n) => {
            if let Some(i) = n.as_i64() {
                Json::from(i)
            } else if let Some(u) = n.as_u64() {
                Json::from(u)
            } else {
                serde_json::Number::from_f64(n.as_f64().unwrap_or(f64::NAN)).map_or(Json::Null, Json::Number)
            }
        }
        Yaml::String(s) => Json::String(s.clone()),
        Yaml::Sequence(s) => Json::Array(s.iter().map(yaml_to_json).collect()),
        Yaml::Mapping(m) => Json::Object(
            m.iter()
                .map(|(k, v)| (k.as_str().map(String::from).unwrap_or_else(|| yaml_scalar(k)), yaml_to_json(v)))
                .collect(),
        ),
        Yaml::Tagged(t) => yaml_to_json(&t.value),
    }
}

fn field(key: &str, v: &Yaml) -> Result<Field> {
    Ok(match v {
        Yaml::String(s) => Field::Template(s.clone()),
        Yaml::Number(n) if n.as_i64().is_some() => Field::Int(n.as_i64().unwrap_or_default()),
        Yaml::Sequence(s) => Field::List(s.iter().map(yaml_to_json).collect()),
        Yaml::Mapping(m) => Field::List(m.iter().map(|(_, v)| yaml_to_json(v)).collect()),
        Yaml::Tagged(t) => Field::Function(yaml_scalar(&t.value)),
        other => return Err(Error::new(format!("{key}: expected a template, an index or a list, found {other:?}"))),
    })
}

fn string(key: &str, v: &Yaml) -> Result<String> {
    match v {
        Yaml::String(s) => Ok(s.clone()),
        Yaml::Number(n) => Ok(n.to_string()),
        Yaml::Bool(b) => Ok(b.to_string()),
        other => Err(Error::new(format!("{key}: expected a string, found {other:?}"))),
    }
}

fn opt_string(map: &serde_yaml_ng::Mapping, key: &str) -> Result<Option<String>> {
    match map.get(key) {
        None | Some(Yaml::Null) => Ok(None),
        Some(v) => string(key, v).map(Some),
    }
}

fn string_list(key: &str, v: &Yaml) -> Result<Vec<String>> {
    match v {
        Yaml::Sequence(s) => s.iter().map(|x| string(key, x)).collect(),
        Yaml::Null => Ok(vec![]),
        other => Ok(vec![string(key, other)?]),
    }
}

/// A task file's keys, merged over its includes, as a [`TaskSpec`]: refusals first (keys neither lm-eval
/// nor lingualens knows, keys that would change what is asked), then one helper per TaskConfig block.
fn build_spec(path: &str, map: serde_yaml_ng::Mapping, overridden: Vec<String>) -> Result<TaskSpec> {
    let raw = map.clone();
    let mut warnings = Vec::new();
    // A key neither knows is a mistake lm-eval refuses too (its TaskConfig takes no other field):
    // refused by name rather than ignored.
    if let Some(key) = map.keys().map(yaml_scalar).find(|k| !KNOWN_KEYS.contains(&k.as_str())) {
        return Err(Error::new(format!(
            "{path}: unknown key `{key}` (not a field of lm-eval's task config; a misspelling?)"
        )));
    }
    // lm-eval keys that change what is asked or scored, which lingualens does not do: a refusal,
    // not a run that differs.
    for (key, what) in [
        ("use_prompt", "a promptsource template"),
        ("doc_to_image", "images"),
        ("doc_to_audio", "audio"),
        ("custom_dataset", "a Python dataset"),
        ("process_results", "a Python function computing the metrics"),
    ] {
        if !matches!(map.get(key), None | Some(Yaml::Null)) {
            return Err(Error::new(format!("{path}: {key} ({what}) is not supported")));
        }
    }
    if map.get("repeats").and_then(Yaml::as_u64).is_some_and(|r| r > 1) {
        return Err(Error::new(format!(
            "{path}: repeats > 1 asks for several generations per document; lingualens generates one (greedily)"
        )));
    }
    let get_field = |k: &str| -> Result<Option<Field>> {
        match map.get(k) {
            None | Some(Yaml::Null) => Ok(None),
            Some(v) => field(k, v).map(Some),
        }
    };

    let task = opt_string(&map, "task")?.unwrap_or_else(|| file_stem(path).to_string());
    let mut tags = Vec::new();
    for k in ["tag", "group"] {
        if let Some(v) = map.get(k) {
            tags.extend(string_list(k, v)?);
        }
    }

    let dataset_name = opt_string(&map, "dataset_name")?;
    let source = data_source(&map, dataset_name.clone())?;

    let output_type = match opt_string(&map, "output_type")?.as_deref() {
        Some("multiple_choice") => OutputType::MultipleChoice,
        Some("loglikelihood") => OutputType::Loglikelihood,
        Some("generate_until") | None => OutputType::GenerateUntil,
        Some(o) => {
            return Err(Error::new(format!(
                "output_type `{o}` is not supported (multiple_choice, loglikelihood, generate_until)"
            )))
        }
    };

    let target_delimiter = opt_string(&map, "target_delimiter")?.unwrap_or_else(|| " ".into());
    let fewshot_delimiter = opt_string(&map, "fewshot_delimiter")?.unwrap_or_else(|| "\n\n".into());
    let doc_to_text = get_field("doc_to_text")?;
    let doc_to_choice = get_field("doc_to_choice")?;
    let doc_to_target = get_field("doc_to_target")?;
    let fewshot_split = opt_string(&map, "fewshot_split")?;

    let num_fewshot = match map.get("num_fewshot") {
        None | Some(Yaml::Null) => None,
        Some(Yaml::Number(n)) if n.as_u64().is_some() => n.as_u64().map(|n| n as usize),
        Some(other) => return Err(Error::new(format!("num_fewshot: expected a count, found {other:?}"))),
    };

    let gen_prefix = opt_string(&map, "gen_prefix")?;
    let fewshot = fewshot_config(
        path,
        &map,
        FewshotConfig {
            sampler: SamplerKind::Random,
            split: fewshot_split.clone(),
            doc_to_text: doc_to_text.clone(),
            doc_to_choice: doc_to_choice.clone(),
            doc_to_target: doc_to_target.clone(),
            target_delimiter: target_delimiter.clone(),
            fewshot_delimiter: fewshot_delimiter.clone(),
            samples: None,
            gen_prefix: gen_prefix.clone(),
        },
    )?;

    let generation = generation_kwargs(path, &map, output_type, &fewshot_delimiter)?;

    let filters = filter_list(path, &map)?;

    let metrics = metric_list(path, &map, output_type, &mut warnings)?;

    let process_docs = match map.get("process_docs") {
        None | Some(Yaml::Null) => None,
        Some(Yaml::Mapping(m)) => Some(
            m.iter()
                .map(|(k, v)| Ok((yaml_scalar(k), string("process_docs", v)?)))
                .collect::<Result<BTreeMap<_, _>>>()?,
        ),
        Some(Yaml::String(s)) if s == "none" => None,
        Some(_) => return Err(Error::new("process_docs: give a map field → Jinja template (or `none`)")),
    };

    if output_type == OutputType::MultipleChoice && doc_to_choice.is_none() {
        return Err(Error::new("output_type multiple_choice needs doc_to_choice"));
    }

    Ok(TaskSpec {
        file: path.to_string(),
        task,
        tags,
        source,
        test_split: opt_string(&map, "test_split")?,
        validation_split: opt_string(&map, "validation_split")?,
        training_split: opt_string(&map, "training_split")?,
        fewshot_split,
        output_type,
        doc_to_text,
        doc_to_choice,
        doc_to_target,
        process_docs,
        description: opt_string(&map, "description")?,
        gen_prefix,
        target_delimiter,
        fewshot_delimiter,
        num_fewshot,
        fewshot,
        generation,
        filters,
        metrics,
        repeats: map.get("repeats").and_then(|v| v.as_u64()).unwrap_or(1) as usize,
        overridden,
        raw,
        warnings,
    })
}

/// Where the documents come from: `dataset_path` (`json`/`csv`/`parquet` files, a lingualens loader,
/// or a Hub dataset) with `dataset_name` and `dataset_kwargs`.
fn data_source(map: &serde_yaml_ng::Mapping, dataset_name: Option<String>) -> Result<DataSource> {
    let dataset_path = opt_string(map, "dataset_path")?;
    let mut data_files: BTreeMap<String, Vec<String>> = BTreeMap::new();
    if let Some(Yaml::Mapping(kw)) = map.get("dataset_kwargs") {
        match kw.get("data_files") {
            None | Some(Yaml::Null) => {}
            Some(Yaml::Mapping(m)) => {
                for (split, files) in m {
                    data_files.insert(yaml_scalar(split), string_list("data_files", files)?);
                }
            }
            // A bare file or list is the `train` split, as `datasets.load_dataset` names it.
            Some(v) => {
                data_files.insert("train".into(), string_list("data_files", v)?);
            }
        }
    }
    Ok(match dataset_path.as_deref() {
        Some(f @ ("json" | "csv" | "parquet")) => DataSource::Files { format: f.to_string(), data_files },
        Some("lingualens") => DataSource::Items {
            loader: dataset_name.clone().ok_or_else(|| {
                Error::new("dataset_path: lingualens needs dataset_name (the loader: dzen, kyrgyz-mmlu, …)")
            })?,
            language: match map.get("dataset_kwargs") {
                Some(Yaml::Mapping(kw)) => opt_string(kw, "language")?,
                _ => None,
            },
            metadata: match map.get("dataset_kwargs").and_then(|kw| kw.get("metadata")) {
                None | Some(Yaml::Null) => BTreeMap::new(),
                Some(Yaml::Mapping(m)) => m.iter().map(|(k, v)| (yaml_scalar(k), yaml_scalar(v))).collect(),
                Some(other) => {
                    return Err(Error::new(format!(
                        "dataset_kwargs.metadata must be a map of metadata field → value, found {other:?}"
                    )))
                }
            },
        },
        Some(p) => DataSource::Hub { path: p.to_string(), name: dataset_name.clone() },
        None => return Err(Error::new("no dataset_path")),
    })
}

/// `fewshot_config`: its keys override the task's (`task`, the task-level values), as lm-eval's
/// `FewshotConfig.from_dict` does; a key lingualens cannot honour is refused.
fn fewshot_config(path: &str, map: &serde_yaml_ng::Mapping, task: FewshotConfig) -> Result<FewshotConfig> {
    let empty = serde_yaml_ng::Mapping::new();
    let fc = match map.get("fewshot_config") {
        Some(Yaml::Mapping(m)) => m,
        _ => &empty,
    };
    let sampler = match fc.get("sampler").map(|v| string("fewshot_config.sampler", v)).transpose()?.as_deref() {
        None | Some("default") => SamplerKind::Random,
        Some("first_n") => SamplerKind::FirstN,
        Some(s) => return Err(Error::new(format!("fewshot_config.sampler `{s}` is not supported (default, first_n)"))),
    };
    for k in fc.keys() {
        let k = yaml_scalar(k);
        if ![
            "sampler",
            "split",
            "doc_to_text",
            "doc_to_choice",
            "doc_to_target",
            "target_delimiter",
            "fewshot_delimiter",
            "samples",
            "gen_prefix",
        ]
        .contains(&k.as_str())
        {
            // Ignoring it would change which examples a prompt shows (`fewshot_indices`,
            // `process_docs`): a refusal, not a run that differs from lm-eval's.
            return Err(Error::new(format!(
                "{path}: fewshot_config.{k} is not supported (sampler, split, samples, doc_to_text, doc_to_choice, doc_to_target, target_delimiter, fewshot_delimiter, gen_prefix)"
            )));
        }
    }
    let samples = match fc.get("samples") {
        None | Some(Yaml::Null) => None,
        Some(Yaml::Tagged(t)) => {
            return Err(Error::new(format!(
                "{path}: fewshot_config.samples is {} {} (Python), which lingualens cannot run: give the examples as a list",
                t.tag,
                yaml_scalar(&t.value)
            )))
        }
        Some(Yaml::Sequence(list)) => Some(
            list.iter()
                .enumerate()
                .map(|(i, v)| match yaml_to_json(v) {
                    doc @ Json::Object(_) => Ok(doc),
                    other => Err(Error::new(format!(
                        "{path}: fewshot_config.samples example {}: expected a map of fields, found {other}",
                        i + 1
                    ))),
                })
                .collect::<Result<Vec<_>>>()?,
        ),
        Some(other) => {
            return Err(Error::new(format!(
                "{path}: fewshot_config.samples: expected a list of examples, found {other:?}"
            )))
        }
    };
    let fc_field = |k: &str, dflt: &Option<Field>| -> Result<Option<Field>> {
        match fc.get(k) {
            Some(v) => {
                let f = field(k, v)?;
                if let Field::Function(func) = &f {
                    return Err(Error::new(format!(
                        "fewshot_config.{k} is !function {func} (Python), which lingualens cannot run"
                    )));
                }
                Ok(Some(f))
            }
            None => Ok(dflt.clone()),
        }
    };
    Ok(FewshotConfig {
        sampler,
        split: fc.get("split").map(|v| string("fewshot_config.split", v)).transpose()?.or(task.split),
        doc_to_text: fc_field("doc_to_text", &task.doc_to_text)?,
        doc_to_choice: fc_field("doc_to_choice", &task.doc_to_choice)?,
        doc_to_target: fc_field("doc_to_target", &task.doc_to_target)?,
        target_delimiter: fc
            .get("target_delimiter")
            .map(|v| string("target_delimiter", v))
            .transpose()?
            .unwrap_or(task.target_delimiter),
        fewshot_delimiter: fc
            .get("fewshot_delimiter")
            .map(|v| string("fewshot_delimiter", v))
            .transpose()?
            .unwrap_or(task.fewshot_delimiter),
        samples,
        gen_prefix: fc
            .get("gen_prefix")
            .map(|v| string("fewshot_config.gen_prefix", v))
            .transpose()?
            .or(task.gen_prefix),
    })
}

/// `generation_kwargs` as lm-eval logs them, with `until` = [fewshot_delimiter] where absent;
/// lm-eval's defaults for a generation task that gives none.
fn generation_kwargs(
    path: &str,
    map: &serde_yaml_ng::Mapping,
    output_type: OutputType,
    fewshot_delimiter: &str,
) -> Result<Option<GenerationKwargs>> {
    Ok(match map.get("generation_kwargs") {
        Some(Yaml::Mapping(g)) => {
            let mut kwargs = GenerationKwargs { kwargs: Vec::new() };
            for (k, v) in g {
                let (k, v) = (yaml_scalar(k), yaml_to_json(v));
                // lm-eval's TaskConfig makes a task file's temperature a float.
                let v = match (k.as_str(), v.as_f64()) {
                    ("temperature", Some(t)) => Json::from(t),
                    _ => v,
                };
                kwargs.set(&k, v);
            }
            if kwargs.get("until").is_none() {
                kwargs.set("until", Json::Array(vec![Json::from(fewshot_delimiter)]));
            }
            kwargs.until().map_err(|e| e.context(path))?;
            kwargs.max_gen_toks().map_err(|e| e.context(path))?;
            Some(kwargs)
        }
        _ if output_type == OutputType::GenerateUntil => Some(GenerationKwargs::lm_eval_default(fewshot_delimiter)),
        _ => None,
    })
}

/// `filter_list`: each pipeline's steps, every one lingualens applies as lm-eval does; any other
/// step (a Python function, an unknown filter) is refused by name rather than skipped.
fn filter_list(path: &str, map: &serde_yaml_ng::Mapping) -> Result<Vec<FilterPipeline>> {
    let mut filters = Vec::new();
    if let Some(Yaml::Sequence(list)) = map.get("filter_list") {
        for p in list {
            let name = p.get("name").map(yaml_scalar).unwrap_or_else(|| "none".into());
            let mut steps = Vec::new();
            if let Some(Yaml::Sequence(fs)) = p.get("filter") {
                for f in fs {
                    if let Some(Yaml::Tagged(t)) = f.get("function") {
                        return Err(Error::new(format!(
                            "{path}: a filter in `{name}` is {} {} (Python), which lingualens cannot run",
                            t.tag,
                            yaml_scalar(&t.value)
                        )));
                    }
                    let function = f.get("function").map(yaml_scalar).unwrap_or_default();
                    steps.push(match function.as_str() {
                        "regex" => FilterStep::Regex {
                            pattern: {
                                let pattern = f
                                    .get("regex_pattern")
                                    .map(yaml_scalar)
                                    .unwrap_or_else(|| r"#### (\-?[0-9\.\,]+)".into());
                                // Python's `re` has look-around and back-references, Rust's regex
                                // does not: such a pattern is refused here, not at the first answer.
                                regex::Regex::new(&pattern).map_err(|e| {
                                    Error::new(format!("{path}: filter regex in `{name}`: {pattern:?} cannot be run here: {e}"))
                                })?;
                                pattern
                            },
                            group_select: f
                                .get("group_select")
                                .and_then(|v| v.as_i64())
                                .unwrap_or(0),
                            fallback: f
                                .get("fallback")
                                .map(yaml_scalar)
                                .unwrap_or_else(|| "[invalid]".into()),
                        },
                        "take_first" => FilterStep::TakeFirst,
                        "take_first_k" => match f.get("k").and_then(Yaml::as_u64) {
                            Some(k) if k <= 1 => FilterStep::TakeFirstK(k as usize),
                            k => {
                                return Err(Error::new(format!(
                                    "{path}: filter take_first_k in `{name}`: k = {k:?} needs that many responses per document (lm-eval's `repeats`); lingualens generates one"
                                )))
                            }
                        },
                        "majority_vote" => FilterStep::MajorityVote,
                        "remove_whitespace" => FilterStep::RemoveWhitespace,
                        "lowercase" => FilterStep::Lowercase,
                        "uppercase" => FilterStep::Uppercase,
                        "map" => {
                            let text = |v: &Yaml, what: &str| -> Result<String> {
                                match v {
                                    Yaml::String(s) => Ok(s.clone()),
                                    other => Err(Error::new(format!(
                                        "{path}: filter map in `{name}`: {what} is {other:?}; lingualens maps responses to text only"
                                    ))),
                                }
                            };
                            let mapping = match f.get("mapping_dict") {
                                Some(Yaml::Mapping(m)) => m
                                    .iter()
                                    .map(|(k, v)| Ok((yaml_scalar(k), text(v, &format!("the value of {}", yaml_scalar(k)))?)))
                                    .collect::<Result<Vec<_>>>()?,
                                None | Some(Yaml::Null) => Vec::new(),
                                Some(other) => return Err(Error::new(format!("{path}: filter map in `{name}`: mapping_dict is {other:?}, not a map"))),
                            };
                            let default = match f.get("default_value") {
                                Some(v) => text(v, "default_value")?,
                                None => {
                                    return Err(Error::new(format!(
                                        "{path}: filter map in `{name}` has no default_value, so lm-eval gives None for an unmapped response; give a text default_value"
                                    )))
                                }
                            };
                            FilterStep::Map { mapping, default }
                        }
                        "" => return Err(Error::new(format!("{path}: a filter step in `{name}` has no function"))),
                        other => {
                            return Err(Error::new(format!(
                                "{path}: filter `{other}` in `{name}` is not supported (lingualens applies {SUPPORTED_FILTERS})"
                            )))
                        }
                    });
                }
            }
            filters.push(FilterPipeline { name, steps });
        }
    }
    Ok(filters)
}

/// `metric_list`: names and options kept; a metric lingualens cannot compute for this output type
/// is named in `warnings` (lm-eval accepts it), a Python metric refused.
fn metric_list(
    path: &str,
    map: &serde_yaml_ng::Mapping,
    output_type: OutputType,
    warnings: &mut Vec<String>,
) -> Result<Vec<MetricSpec>> {
    let mut metrics = Vec::new();
    if let Some(Yaml::Sequence(list)) = map.get("metric_list") {
        for m in list {
            let Json::Object(mut obj) = yaml_to_json(m) else {
                continue;
            };
            let metric = match m.get("metric") {
                Some(Yaml::Tagged(t)) => {
                    return Err(Error::new(format!(
                        "metric_list: metric is {} {} (Python), which lingualens cannot run",
                        t.tag,
                        yaml_scalar(&t.value)
                    )))
                }
                Some(v) => yaml_scalar(v),
                None => continue,
            };
            obj.remove("metric");
            let aggregation = obj.remove("aggregation").and_then(|v| v.as_str().map(String::from));
            let higher_is_better = obj.remove("higher_is_better").and_then(|v| v.as_bool());
            if let Some(why) = crate::scoring::metrics::unsupported(&metric, output_type.name()) {
                warnings.push(format!("{path}: {why}"));
            }
            metrics.push(MetricSpec { metric, aggregation, higher_is_better, options: obj });
        }
    }
    Ok(metrics)
}

/// An [`Item`] as an lm-eval document.
///
/// - multiple choice: `question`, `choices`, `answer` (gold index), `passage` and `rationale` (a
///   worked chain-of-thought answer: DZEN's exemplars) when present;
/// - cloze: `sentence`, `blank`, `options`, `answer`;
/// - generation: `input`, `references`, `answer` (first reference) and the item's named fields;
///
/// plus `id`, `language` and every metadata entry (e.g. `subject`, `grade`). Metadata never
/// replaces a body field.
pub fn item_doc(item: &Item) -> Json {
    let mut m = Map::new();
    for (k, v) in &item.metadata {
        m.insert(k.clone(), Json::String(v.clone()));
    }
    m.insert("id".into(), Json::String(item.id.clone()));
    m.insert("language".into(), Json::String(item.language.clone()));
    match &item.body {
        ItemBody::MultipleChoice(mc) => {
            m.insert("question".into(), Json::String(mc.question.clone()));
            m.insert("choices".into(), Json::from(mc.choices.clone()));
            m.insert("answer".into(), Json::from(mc.gold));
            if let Some(p) = &mc.passage {
                m.insert("passage".into(), Json::String(p.clone()));
            }
            if let Some(r) = &mc.rationale {
                m.insert("rationale".into(), Json::String(r.clone()));
            }
        }
        ItemBody::Cloze(c) => {
            m.insert("sentence".into(), Json::String(c.sentence.clone()));
            m.insert("blank".into(), Json::String(c.blank.clone()));
            m.insert("options".into(), Json::from(c.options.clone()));
            m.insert("answer".into(), Json::from(c.gold));
        }
        ItemBody::Generation(g) => {
            for (k, v) in &g.fields {
                m.insert(k.clone(), Json::String(v.clone()));
            }
            m.insert("input".into(), Json::String(g.input.clone()));
            m.insert("references".into(), Json::from(g.references.clone()));
            m.insert("answer".into(), Json::String(g.references.first().cloned().unwrap_or_default()));
        }
    }
    Json::Object(m)
}

/// [`item_doc`] for each item, with the fields of its `parallel` item (when in `items`) added
/// under `<field>_<language>`: a DZEN Dzongkha item gains `question_en`, `choices_en`.
pub fn items_docs(items: &[Item]) -> Vec<Json> {
    let by_id: BTreeMap<&str, &Item> = items.iter().map(|i| (i.id.as_str(), i)).collect();
    items
        .iter()
        .map(|item| {
            let mut doc = item_doc(item);
            if let Some(other) = item.parallel.as_deref().and_then(|p| by_id.get(p)) {
                let lang = other.language.clone();
                if let (Json::Object(m), Json::Object(o)) = (&mut doc, item_doc(other)) {
                    for k in ["question", "choices", "passage", "rationale", "sentence", "options", "input"] {
                        if let Some(v) = o.get(k) {
                            m.insert(format!("{k}_{lang}"), v.clone());
                        }
                    }
                }
            }
            doc
        })
        .collect()
}

/// The documents of `split` for a `dataset_path: lingualens` task, from the loader's items: those
/// of the task's language (and `dataset_kwargs.metadata` values) whose `split` metadata is `split` (no `split` metadata counts as
/// `test`), through [`items_docs`] (so parallel fields such as `question_en` are present).
pub fn item_split_docs(spec: &TaskSpec, items: &[Item], split: &str) -> Vec<Json> {
    let empty = BTreeMap::new();
    let (language, metadata) = match &spec.source {
        DataSource::Items { language, metadata, .. } => (language.as_deref(), metadata),
        _ => (None, &empty),
    };
    items_docs(items)
        .into_iter()
        .zip(items)
        .filter(|(_, item)| language.is_none_or(|l| item.language == l))
        .filter(|(_, item)| metadata.iter().all(|(k, v)| item.metadata.get(k) == Some(v)))
        .filter(|(_, item)| item.metadata.get("split").map_or("test", |s| s.as_str()) == split)
        .map(|(doc, _)| doc)
        .collect()
}

/// The documents of a data file (CSV, JSON, JSONL, Parquet), one JSON object per row, for a
/// `dataset_path: json|csv|parquet` task or a Hub task whose split file the user supplied.
/// Rows that could not be read are reported as errors.
pub fn docs_from_file(name: &str, bytes: &[u8]) -> Result<Vec<Json>> {
    Ok(docs_and_columns_from_file(name, bytes)?.0)
}

/// [`docs_from_file`], and the columns in file order (a JSON object's keys are sorted; lm-eval logs
/// a document's fields in the dataset's column order, see `PyJson::from_serde_ordered`).
pub fn docs_and_columns_from_file(name: &str, bytes: &[u8]) -> Result<(Vec<Json>, Vec<String>)> {
    let format = crate::tasks::table::Format::from_name(name)
        .ok_or_else(|| Error::new(format!("{name}: unknown data format (use .csv, .json, .jsonl or .parquet)")))?;
    let (tables, anomalies) = crate::tasks::table::read_table(name, bytes, format);
    if tables.is_empty() {
        let why: Vec<String> = anomalies.iter().map(|a| format!("{a:?}")).collect();
        return Err(Error::new(format!("{name}: could not be read: {}", why.join("; "))));
    }
    // JSON objects were parsed into sorted maps: take the key order from the text instead.
    let written = match format {
        crate::tasks::table::Format::Jsonl => std::str::from_utf8(bytes)
            .ok()
            .and_then(|t| t.lines().find(|l| !l.trim().is_empty()))
            .and_then(|l| serde_json::from_str::<KeyOrder>(l).ok())
            .map(|k| k.0),
        crate::tasks::table::Format::Json => {
            serde_json::from_slice::<Vec<KeyOrder>>(bytes).ok().and_then(|v| v.into_iter().next()).map(|k| k.0)
        }
        _ => None,
    };
    let mut columns: Vec<String> = Vec::new();
    for c in written.iter().flatten().chain(tables.iter().flat_map(|t| t.columns.iter())) {
        if !columns.contains(c) {
            columns.push(c.clone());
        }
    }
    let docs = tables.into_iter().flat_map(|t| t.records).map(|r| Json::Object(r.fields)).collect();
    Ok((docs, columns))
}

/// A JSON object's keys in the order they are written.
struct KeyOrder(Vec<String>);

impl<'de> serde::Deserialize<'de> for KeyOrder {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct Keys;
        impl<'de> serde::de::Visitor<'de> for Keys {
            type Value = KeyOrder;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> std::result::Result<KeyOrder, A::Error> {
                let mut keys = Vec::new();
                while let Some(k) = map.next_key::<String>()? {
                    map.next_value::<serde::de::IgnoredAny>()?;
                    keys.push(k);
                }
                Ok(KeyOrder(keys))
            }
        }
        d.deserialize_map(Keys)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deeply_nested_brackets_are_refused_before_the_parser_sees_them() {
        let deep = format!("task: t\nx: {}1{}\n", "[".repeat(100_000), "]".repeat(100_000));
        let e = parse_yaml_map("deep.yaml", &deep).unwrap_err().to_string();
        assert!(e.contains("deep.yaml: line 2: brackets nested more than 128 deep"), "{e}");
        // Within the cap, and brackets inside quotes and comments, are the parser's to read.
        let fine = format!(
            "x: {}1{}\ny: \"{}\" # {}\nz: '{{{{ a }}}}'\n",
            "[".repeat(20),
            "]".repeat(20),
            "[".repeat(500),
            "{".repeat(500)
        );
        let map = parse_yaml_map("fine.yaml", &fine).unwrap();
        assert_eq!(map.len(), 3);
    }

    #[test]
    fn columns_in_written_order() {
        let (docs, cols) =
            docs_and_columns_from_file("d.jsonl", b"{\"q\": \"x\", \"choices\": [1], \"a\": 0}\n").unwrap();
        assert_eq!(cols, ["q", "choices", "a"]);
        assert_eq!(docs.len(), 1);
        let (_, cols) = docs_and_columns_from_file("d.json", b"[{\"z\": 1, \"b\": 2}]").unwrap();
        assert_eq!(cols, ["z", "b"]);
        let (_, cols) = docs_and_columns_from_file("d.csv", b"z,b\n1,2\n").unwrap();
        assert_eq!(cols, ["z", "b"]);
    }

    fn files(list: &[(&str, &str)]) -> impl Fn(&str) -> Result<Option<String>> {
        let m: BTreeMap<String, String> = list.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
        move |p: &str| Ok(m.get(p).cloned())
    }

    #[test]
    fn paths() {
        assert_eq!(join_path("a/b", "../c/d.yaml"), "a/c/d.yaml");
        assert_eq!(join_path("", "x"), "x");
        assert_eq!(join_path("/r/a", "./x"), "/r/a/x");
        assert_eq!(file_stem("a/b/amh.yaml"), "amh");
    }

    #[test]
    fn an_unknown_key_is_refused_by_name_wherever_it_is() {
        let r = files(&[
            ("t/common", "dataset_path: json\noutput_type: multiple_choice\ntest_split: test\ndoc_to_choice: '{{choices}}'\ndoc_to_text: base\nfoo: 1\n"),
            ("t/a.yaml", "include: common\ntask: a\ndoc_to_target: answer\n"),
            ("t/b.yaml", "task: b\ndataset_path: json\ntest_split: test\ndoc_to_text: q\ndoc_to_target: a\nprocess_results: !function utils.score\n"),
        ]);
        let e = load_task("t/a.yaml", &r, &LoadOptions::default()).unwrap_err().to_string();
        assert!(e.contains("t/a.yaml: unknown key `foo`"), "{e}");
        let e = load_task("t/b.yaml", &r, &LoadOptions::default()).unwrap_err().to_string();
        assert!(e.contains("t/b.yaml") && e.contains("process_results"), "{e}");
    }

    #[test]
    fn include_and_override_order() {
        let r = files(&[
            ("t/common", "dataset_path: json\noutput_type: multiple_choice\ntest_split: test\ndoc_to_choice: '{{choices}}'\ndoc_to_text: base\n"),
            ("t/a.yaml", "include: common\ntask: a\ndoc_to_text: !function utils.f\ndoc_to_target: answer\n"),
            ("t/a.override.yaml", "doc_to_text: 'Q: {{question}}'\n"),
        ]);
        let t = load_task("t/a.yaml", &r, &LoadOptions::default()).unwrap();
        assert_eq!(t.doc_to_text, Some(Field::Template("Q: {{question}}".into())));
        assert_eq!(t.overridden, vec!["doc_to_text".to_string()]);
        assert_eq!(t.test_split.as_deref(), Some("test"));
        let mut o = LoadOptions::default();
        o.overrides.insert("doc_to_text".into(), "{{question}}?".into());
        let t = load_task("t/a.yaml", &r, &o).unwrap();
        assert_eq!(t.doc_to_text, Some(Field::Template("{{question}}?".into())));
    }

    #[test]
    fn function_message() {
        let r = files(&[("c/p/amh_eng_p1.yaml", "dataset_path: x/y\noutput_type: multiple_choice\ndoc_to_text: !function utils.doc_to_text_p1\ndoc_to_choice: ['a', 'b']\n")]);
        let e = load_task("c/p/amh_eng_p1.yaml", &r, &LoadOptions::default()).unwrap_err();
        assert_eq!(
            e.message(),
            "c/p/amh_eng_p1.yaml: doc_to_text is !function utils.doc_to_text_p1 (Python), which lingualens cannot run; \
             give a Jinja replacement with --override doc_to_text='…' or a sidecar file amh_eng_p1.override.yaml"
        );
    }

    #[test]
    fn process_docs_replacement_and_python_classes() {
        let r = files(&[
            ("p.yaml", "dataset_path: json\noutput_type: multiple_choice\nprocess_docs: !function utils.process\ndoc_to_text: '{{q}}'\ndoc_to_choice: opts\ndoc_to_target: gold\n"),
            ("p.override.yaml", "process_docs:\n  q: \"{{ question | upper }}\"\n  opts: \"{{ [a, b] }}\"\n"),
            ("k.yaml", "task: k\nclass: !function kyrgyz_tasks.KyrgyzMMLUHistory\noutput_type: loglikelihood\n"),
        ]);
        let t = load_task("p.yaml", &r, &LoadOptions::default()).unwrap();
        let docs = vec![serde_json::json!({"question": "why?", "a": "x", "b": "y", "gold": 1})];
        let ren = t.renderer().unwrap();
        let docs = ren.prepare_docs(docs).unwrap();
        assert_eq!(docs[0]["opts"], serde_json::json!(["x", "y"]));
        let out = ren.render(&docs[0], &[]).unwrap();
        assert_eq!(out.context, "WHY?");
        assert_eq!(
            out.request,
            Request::MultipleChoice { continuations: vec![" x".into(), " y".into()], multiple_input: None }
        );
        assert_eq!(out.gold(), Some(1));
        let e = load_task("k.yaml", &r, &LoadOptions::default()).unwrap_err();
        assert!(e.message().contains("class is !function kyrgyz_tasks.KyrgyzMMLUHistory (Python)"), "{e}");
        assert!(e.message().contains("defined by Python code"), "{e}");
    }
}
