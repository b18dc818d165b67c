//! A run as the page holds it: the prepared items, the rows scored so far, and everything the
//! page shows or exports from them. Plain data and arithmetic, no DOM, so it is tested natively.
//!
//! A row is recorded at most once per item index, so a row that arrives twice (a checkpoint
//! restored after a reload, then the same item scored again) cannot be counted twice.
//!
//! What the page computes across items or runs lives beside this file, one concern each:
//! [`parallel`] (the same questions across languages), [`compare`] (two runs item by item),
//! [`fertility`] (tokens per word by language) and [`pool_size`] (how many workers score a run).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

mod compare;
mod fertility;
mod parallel;
mod pool_size;

pub use compare::{Comparison, ItemDiff};
pub use fertility::{fertility_rows, fertility_texts};
pub use parallel::{
    appended_translation, parallel_key, parallel_table, variant, ParallelCell, ParallelGroup, ParallelTable,
    VariantAccuracy,
};
pub use pool_size::{pool_size, Device, PoolSize, ASSUMED_DEVICE_MEMORY, IOS_TAB_LIMIT, MAX_WORKERS};

use super::protocol::{Facet, ItemRow, ItemView, RunSettings};
use crate::error::{Error, Result};
use crate::pyrandom::PyRandom;
use crate::scoring::aggregate::wilson_interval;
use crate::scoring::bias::{PositionStats, PositionTally};
use crate::scoring::loglikelihood::{np_argmax, per_character};
use crate::scoring::outputs::{hash_string, MetricResult, ResultsFile, RunDescription};
use crate::scoring::report::csv;
use crate::scoring::session::{doc_metadata, Session};

/// A metadata field is broken down, or offered as a filter, only when it has between 2 and this
/// many values (an `id` field, one value per item, is neither).
const MAX_BREAKDOWN_VALUES: usize = 24;

/// The metadata fields of `docs` with 2 to 24 values, each value with its number of documents.
pub fn facets(docs: &[Json]) -> Vec<Facet> {
    let mut by_field: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    for doc in docs {
        for (field, value) in doc_metadata(doc, None) {
            *by_field.entry(field).or_default().entry(value).or_default() += 1;
        }
    }
    by_field
        .into_iter()
        .filter(|(_, values)| (2..=MAX_BREAKDOWN_VALUES).contains(&values.len()))
        .map(|(field, values)| Facet { field, values: values.into_iter().collect() })
        .collect()
}

/// The documents a run scores: those whose metadata matches every filter, then, with `sample`, a
/// seeded random sample of them (Python's `random.Random(sample_seed).sample(range(n), k)`, put back in
/// document order). The run's `limit` applies after this.
pub fn select_docs(docs: Vec<Json>, settings: &RunSettings) -> Vec<Json> {
    let matches = |doc: &Json| {
        let metadata = doc_metadata(doc, None);
        settings.filters.iter().all(|(field, value)| metadata.get(field) == Some(value))
    };
    let kept: Vec<Json> = docs.into_iter().filter(|d| matches(d)).collect();
    let Some(k) = settings.sample else { return kept };
    let picked = PyRandom::sorted_sample(settings.sample_seed(), kept.len(), k);
    let mut kept: Vec<Option<Json>> = kept.into_iter().map(Some).collect();
    picked.into_iter().filter_map(|i| kept[i].take()).collect()
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Run {
    /// The checkpoint key: the model, the task's rendered items and the settings.
    pub key: String,
    pub model: String,
    pub task: String,
    /// lm-eval's `output_type` of the task (`multiple_choice` for a run from an older checkpoint).
    #[serde(default = "multiple_choice")]
    pub output_type: String,
    pub settings: RunSettings,
    pub items: Vec<ItemView>,
    /// Add rows with [`Run::record`] only: it keeps `tally` up to date.
    pub rows: BTreeMap<usize, ItemRow>,
    /// Items whose scoring crashed the worker, with the message: skipped by `next_index`, counted
    /// in no metric, not checkpointed (a reloaded page tries them again).
    #[serde(default)]
    pub failed: BTreeMap<usize, String>,
    /// The downloads the task's data came from (a catalogue benchmark fetched by the worker), for
    /// the results file; empty for the user's files.
    #[serde(default)]
    pub data_sources: Vec<crate::catalog::SourceRecord>,
    /// The task YAML's warnings (what it asked for that lingualens does not do), for the results file.
    #[serde(default)]
    pub warnings: Vec<String>,
    /// The task's `metadata.cloze_variant`, offered when the model keeps picking one letter.
    #[serde(default)]
    pub cloze_variant: Option<String>,
    #[serde(skip)]
    tally: Tally,
}

/// The run's aggregates, updated row by row in [`Run::record`], so that the summary and the
/// analysis tables cost the same on the 5000th row as on the first (instead of a pass over every
/// row for every arriving row). Equal to the computations over all rows that they replace,
/// `scoring::aggregate::breakdown_by_metadata` and `scoring::bias::position_bias` (tested below).
#[derive(Debug, Clone, Default, PartialEq)]
struct Tally {
    rows: usize,
    correct: usize,
    /// field → value → (rows, correct).
    by_metadata: BTreeMap<String, BTreeMap<String, (usize, usize)>>,
    /// The position-bias counts (they refuse the report after a row whose gold or choice is not
    /// one of its options).
    positions: PositionTally,
    /// Every item before this one has a row (rows are only ever added, so it only moves on).
    first_missing: usize,
}

impl Tally {
    fn add(&mut self, item: &ItemView, row: &ItemRow) {
        self.rows += 1;
        self.correct += row.correct as usize;
        for (field, value) in &item.metadata {
            let cell = self.by_metadata.entry(field.clone()).or_default().entry(value.clone()).or_default();
            cell.0 += 1;
            cell.1 += row.correct as usize;
        }
        // An invalid row is remembered by the tally, whose report is then empty.
        let _ = self.positions.add(item.gold, row.chosen, item.choices.len());
    }
}

fn multiple_choice() -> String {
    "multiple_choice".into()
}

/// The key under which a run's rows are checkpointed: the same model, engine, task and settings
/// give the same key, so a reloaded page finds its rows; any change starts a new run. The engine
/// (`BackendInfo::label`: "cpu", "cpu-int8", "wgpu") is part of it because each rounds
/// differently: a run reopened under another `?backend=` must not show the first engine's rows.
pub fn run_key(model: &str, engine: &str, fingerprint: &str, settings: &RunSettings) -> String {
    let settings = serde_json::to_string(settings).unwrap_or_default();
    hash_string(&format!("{model}\n{engine}\n{fingerprint}\n{settings}"))[..16].to_string()
}

/// Softmax of the log-likelihoods: the share of probability mass each option gets when the model
/// must pick one of them (what the bars show).
pub fn probabilities(loglikelihoods: &[f64]) -> Vec<f64> {
    let max = loglikelihoods.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !max.is_finite() {
        return vec![0.0; loglikelihoods.len()];
    }
    let exp: Vec<f64> = loglikelihoods.iter().map(|l| (l - max).exp()).collect();
    let sum: f64 = exp.iter().sum();
    exp.iter().map(|e| e / sum).collect()
}

/// Accuracy so far with its Wilson 95 % interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Accuracy {
    pub correct: usize,
    pub n: usize,
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

/// One metadata value's accuracy.
#[derive(Debug, Clone, PartialEq)]
pub struct Breakdown {
    pub field: String,
    pub value: String,
    pub n: usize,
    pub accuracy: f64,
}

/// [`Run::collapsed_position`]: one position takes at least this share of the choices …
pub const COLLAPSED_SHARE: f64 = 0.8;
/// … once this many items are answered.
pub const COLLAPSED_AFTER: usize = 10;

#[derive(Debug, Clone, PartialEq)]
pub struct CollapsedPosition {
    /// 0-based option position.
    pub position: usize,
    pub share: f64,
    /// The task that scores each option's text instead of its letter (the task's
    /// `metadata.cloze_variant`).
    pub cloze: Option<String>,
}

impl Run {
    pub fn new(model: &str, task: &str, fingerprint: &str, settings: RunSettings, items: Vec<ItemView>) -> Run {
        Run {
            // The page keys it again with the engine it runs on (`page::worker_link`).
            key: run_key(model, "", fingerprint, &settings),
            model: model.into(),
            task: task.into(),
            output_type: multiple_choice(),
            settings,
            items,
            rows: BTreeMap::new(),
            failed: BTreeMap::new(),
            data_sources: Vec::new(),
            warnings: Vec::new(),
            cloze_variant: None,
            tally: Tally::default(),
        }
    }

    /// Adds a row; `false` (and nothing changes) when its item already has one or does not exist.
    pub fn record(&mut self, row: ItemRow) -> bool {
        if row.index >= self.items.len() || self.rows.contains_key(&row.index) {
            return false;
        }
        self.tally.add(&self.items[row.index], &row);
        self.failed.remove(&row.index);
        self.rows.insert(row.index, row);
        self.skip_settled();
        true
    }

    /// Marks item `index` failed (its scoring crashed the worker) so that the run goes on past it;
    /// `false` when it has a row already or does not exist.
    pub fn record_failure(&mut self, index: usize, message: &str) -> bool {
        if index >= self.items.len() || self.rows.contains_key(&index) {
            return false;
        }
        self.failed.insert(index, message.to_string());
        self.skip_settled();
        true
    }

    fn skip_settled(&mut self) {
        let first = &mut self.tally.first_missing;
        while self.rows.contains_key(first) || self.failed.contains_key(first) {
            *first += 1;
        }
    }

    /// The first item without a row (or a failure): `None` once the run is complete.
    pub fn next_index(&self) -> Option<usize> {
        (self.tally.first_missing < self.items.len()).then_some(self.tally.first_missing)
    }

    /// The first item without a row or a failure that is not in `busy` (asked of one of the
    /// pool's workers and not answered yet): what the next idle worker is asked for. Each item is
    /// asked of one worker at a time, and a row is kept once whichever worker sends it.
    pub fn next_index_besides(&self, busy: &[usize]) -> Option<usize> {
        (self.tally.first_missing..self.items.len())
            .find(|i| !self.rows.contains_key(i) && !self.failed.contains_key(i) && !busy.contains(i))
    }

    pub fn done(&self) -> usize {
        self.rows.len()
    }

    pub fn total(&self) -> usize {
        self.items.len()
    }

    pub fn accuracy(&self) -> Option<Accuracy> {
        let (n, correct) = (self.tally.rows, self.tally.correct);
        let (low, high) = wilson_interval(correct as f64, n, 1.96)?;
        Some(Accuracy { correct, n, value: correct as f64 / n as f64, low, high })
    }

    /// Accuracy by every metadata field with a handful of values, in field then value order.
    pub fn breakdown(&self) -> Vec<Breakdown> {
        self.tally
            .by_metadata
            .iter()
            .filter(|(_, by_value)| (2..=MAX_BREAKDOWN_VALUES).contains(&by_value.len()))
            .flat_map(|(field, by_value)| {
                by_value.iter().map(move |(value, &(n, correct))| Breakdown {
                    field: field.clone(),
                    value: value.clone(),
                    n,
                    accuracy: correct as f64 / n as f64,
                })
            })
            .collect()
    }

    /// Accuracy by gold position and how often each position is chosen (empty without rows, or
    /// when a row's gold or choice is not one of its options).
    pub fn position_bias(&self) -> Vec<PositionStats> {
        self.tally.positions.stats().unwrap_or_default()
    }

    /// The position the model chose for at least [`COLLAPSED_SHARE`] of the answered items (from
    /// [`COLLAPSED_AFTER`] items on): then accuracy mostly measures how often the gold sits there,
    /// not what the model knows. With the task's cloze form, where it has one.
    pub fn collapsed_position(&self) -> Option<CollapsedPosition> {
        if self.done() < COLLAPSED_AFTER {
            return None;
        }
        let p = self.position_bias().into_iter().find(|p| p.chosen_share >= COLLAPSED_SHARE)?;
        Some(CollapsedPosition { position: p.position, share: p.chosen_share, cloze: self.cloze_variant.clone() })
    }

    /// lm-evaluation-harness's samples JSONL, in item order.
    pub fn samples_jsonl(&self) -> String {
        self.rows.values().map(|r| r.sample.as_str()).collect()
    }

    /// The run as its samples ([`Session`]): what the results file and the CSV are computed
    /// from, as the CLI computes them from its samples file.
    fn session(&self) -> Result<Session> {
        let mut session = Session::new(&self.output_type);
        for row in self.rows.values() {
            // A generation's row holds a line per filter pipeline.
            for line in row.sample.lines().filter(|l| !l.trim().is_empty()) {
                session.record(line).map_err(|e| Error::new(format!("{}: item {}: {e}", self.task, row.index)))?;
            }
        }
        Ok(session)
    }

    /// Every metric of the rows so far with its standard error, as the results file has them.
    pub fn metrics(&self) -> Result<Vec<MetricResult>> {
        self.session()?.metrics()
    }

    /// The per-sample CSV, the CLI's (`scoring::report::csv`), metadata by the page's rule.
    pub fn csv(&self) -> Result<String> {
        Ok(csv(&self.session()?.rows(None)))
    }

    /// lm-evaluation-harness's results JSON for the rows so far: every metric the samples log,
    /// with its standard error, as the CLI writes it.
    pub fn results_json(&self, backend: &str, start_unix: f64, end_unix: f64) -> Result<String> {
        let mut results = ResultsFile::for_run(RunDescription {
            task: &self.task,
            output_type: &self.output_type,
            metrics: self.metrics()?,
            num_fewshot: self.settings.shots.unwrap_or(0),
            n_original: self.items.len(),
            n_effective: self.rows.len(),
            model: &self.model,
            backend,
            limit: self.settings.limit,
            seed: self.settings.seed,
            choice_order: &self.settings.order,
            start_unix,
            end_unix,
        });
        if let Some(size) = self.settings.sample {
            results.add_sample(size, self.settings.sample_seed());
        }
        results.add_data_sources(&self.data_sources);
        results.add_warnings(&self.warnings);
        Ok(results.to_json())
    }

    /// A run rebuilt from a samples JSONL file this app (or lm-eval, for multiple-choice tasks)
    /// wrote: each line's document, prompt, continuations and log-likelihoods, read by
    /// [`Sample::read`], its metrics as the line logs them.
    pub fn from_samples_jsonl(name: &str, text: &str) -> Result<Run> {
        let session = Session::from_jsonl(name, "multiple_choice", text)?;
        let mut run = Run::new(
            name,
            name.trim_end_matches(".jsonl").trim_start_matches("samples_"),
            name,
            RunSettings::default(),
            Vec::new(),
        );
        for sample in session.samples() {
            // Both are there: `Sample::read` checks the gold index against the options.
            let (Some(gold), Some(chosen)) = (sample.gold, sample.chosen()) else { continue };
            let n = sample.options();
            let requests = &sample.requests[..n];
            let context = requests[0].context.as_str();
            let lls = sample.loglikelihoods();
            let continuations: Vec<&str> = requests.iter().map(|r| r.continuation.as_str()).collect();
            let doc = &sample.doc;
            let text = |k: &str| doc.get(k).and_then(Json::as_str).map(str::to_string);
            let choices: Vec<String> = match doc.get("choices") {
                Some(Json::Array(c)) if c.len() == n => {
                    c.iter().map(|x| x.as_str().unwrap_or_default().to_string()).collect()
                }
                _ => continuations.iter().map(|c| c.trim_start().to_string()).collect(),
            };
            // The choice by log-likelihood per character, shown in the row: lm-eval divides by
            // the choice's length without the target delimiter the continuation starts with (" "
            // unless the task sets another), as `scoring::loglikelihood` does for a live run.
            // Where the line's logged acc_norm disagrees and the whole continuation agrees, the
            // delimiter was not a space.
            let by = |strip: bool| -> usize {
                let norm: Vec<f64> = lls
                    .iter()
                    .zip(&continuations)
                    .map(|(&l, c)| per_character(l, if strip { c.strip_prefix(' ').unwrap_or(c) } else { c }))
                    .collect();
                np_argmax(&norm).unwrap_or(0)
            };
            let logged_norm = sample.value("acc_norm").map(|a| a > 0.5);
            let chosen_norm = match (by(true), logged_norm) {
                (c, Some(right)) if (c == gold) != right && (by(false) == gold) == right => by(false),
                (c, _) => c,
            };
            let mut metadata = doc_metadata(doc, None);
            if let Some(t) = appended_translation(doc, context) {
                metadata.insert("translation".into(), t);
            }
            let index = run.items.len();
            run.items.push(ItemView {
                index,
                id: text("id").unwrap_or_else(|| sample.doc_id.to_string()),
                question: text("question").unwrap_or_else(|| context.to_string()),
                language: text("language").unwrap_or_default(),
                choices,
                gold,
                reference: None,
                context: context.to_string(),
                metadata,
            });
            run.record(ItemRow {
                index,
                token_counts: Vec::new(),
                chosen,
                chosen_norm,
                correct: sample.value("acc").map_or(chosen == gold, |a| a > 0.5),
                correct_norm: logged_norm.unwrap_or(chosen_norm == gold),
                is_greedy: requests.iter().map(|r| r.is_greedy).collect(),
                loglikelihoods: lls,
                elapsed_ms: 0.0,
                response: None,
                sample: sample.line.clone(),
            });
        }
        if run.items.is_empty() {
            crate::bail!("{name}: no samples in the file");
        }
        Ok(run)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A three-choice item (also for `web::classroom`'s tests).
    pub(crate) fn item(index: usize, language: &str, gold: usize) -> ItemView {
        ItemView {
            index,
            id: format!("q{index}"),
            question: format!("question {index}"),
            language: language.into(),
            choices: vec!["a".into(), "b".into(), "c".into()],
            gold,
            reference: None,
            context: format!("Question: question {index}\nAnswer:"),
            metadata: [("language".to_string(), language.to_string())].into(),
        }
    }

    /// The row of a model with these log-likelihoods (also for `web::classroom`'s tests).
    pub(crate) fn row(index: usize, lls: [f64; 3], gold: usize) -> ItemRow {
        let chosen = (0..3).fold(0, |b, i| if lls[i] > lls[b] { i } else { b });
        ItemRow {
            index,
            loglikelihoods: lls.to_vec(),
            is_greedy: vec![false; 3],
            token_counts: vec![1; 3],
            chosen,
            chosen_norm: chosen,
            correct: chosen == gold,
            correct_norm: chosen == gold,
            elapsed_ms: 1.0,
            response: None,
            sample: format!(
                "{{\"doc_id\": {index}, \"doc\": {{\"language\": \"en\"}}, \"target\": \"{gold}\", \"arguments\": {{\"gen_args_0\": {{\"arg_0\": \"Q{index}\", \"arg_1\": \" a\"}}, \"gen_args_1\": {{\"arg_0\": \"Q{index}\", \"arg_1\": \" b\"}}, \"gen_args_2\": {{\"arg_0\": \"Q{index}\", \"arg_1\": \" c\"}}}}, \"filtered_resps\": [[\"{}\", \"False\"], [\"{}\", \"False\"], [\"{}\", \"False\"]]}}\n",
                lls[0], lls[1], lls[2]
            ),
        }
    }

    #[test]
    fn the_results_file_names_the_downloads_the_data_came_from_and_nothing_for_given_files() {
        let mut run = Run::new("m", "t", "f", RunSettings::default(), (0..1).map(|i| item(i, "en", 0)).collect());
        run.record(row(0, [-1.0, -2.0, -3.0], 0));
        let given: serde_json::Value = serde_json::from_str(&run.results_json("cpu", 0.0, 1.0).unwrap()).unwrap();
        assert!(given["config"].get("data_sources").is_none(), "{given}");
        run.data_sources = vec![crate::catalog::SourceRecord {
            url: "https://h/r.zip".into(),
            sha256: Some("ab".repeat(32)),
            size_bytes: Some(9),
        }];
        let fetched: serde_json::Value = serde_json::from_str(&run.results_json("cpu", 0.0, 1.0).unwrap()).unwrap();
        assert_eq!(
            fetched["config"]["data_sources"],
            serde_json::json!([{ "url": "https://h/r.zip", "sha256": "ab".repeat(32), "size_bytes": 9 }])
        );
        assert!(fetched["config"].get("warnings").is_none(), "no warning, no key: {fetched}");
        run.warnings = vec!["t.yaml: metric `f1` is not one lingualens computes".into()];
        let warned: serde_json::Value = serde_json::from_str(&run.results_json("cpu", 0.0, 1.0).unwrap()).unwrap();
        assert_eq!(
            warned["config"]["warnings"],
            serde_json::json!(["t.yaml: metric `f1` is not one lingualens computes"])
        );
    }

    #[test]
    fn a_failed_item_is_skipped_counted_in_no_metric_and_a_later_row_replaces_it() {
        let mut run = Run::new("m", "t", "f", RunSettings::default(), (0..3).map(|i| item(i, "en", 0)).collect());
        assert!(run.record(row(0, [-1.0, -2.0, -3.0], 0)));
        assert!(run.record_failure(1, "the worker crashed"));
        assert_eq!(run.next_index(), Some(2), "the run goes on past the failed item");
        assert!(!run.record_failure(0, "x"), "an answered item cannot fail");
        assert!(!run.record_failure(3, "x"), "no item 3");
        run.record(row(2, [-3.0, -1.0, -2.0], 0));
        assert_eq!(run.next_index(), None);
        let acc = run.accuracy().unwrap();
        assert_eq!((acc.correct, acc.n, run.done()), (1, 2, 2), "the failed item is in no metric");
        assert_eq!(run.failed.get(&1).map(String::as_str), Some("the worker crashed"));
        assert!(run.record(row(1, [-1.0, -2.0, -3.0], 0)), "a retried item's row is taken");
        assert!(run.failed.is_empty());
        assert_eq!(run.accuracy().unwrap().n, 3);
    }

    #[test]
    fn a_pool_of_workers_asks_for_every_item_once_and_keeps_each_row_once() {
        // Three workers answering in an order of their own (one is slow, one crashes on an item),
        // a pause, and a second copy of a row (a replaced worker's late answer): every item is
        // asked of exactly one worker at a time, each once unless its worker died, and the rows
        // are those of the items in order.
        let mut run = Run::new("m", "t", "f", RunSettings::default(), (0..10).map(|i| item(i, "en", i % 3)).collect());
        let mut busy: [Option<usize>; 3] = [None; 3];
        let mut asked = vec![0; 10];
        let mut step = 0;
        let mut crashed = false;
        while run.next_index().is_some() {
            step += 1;
            let paused = step % 7 == 0;
            for w in 0..3 {
                if busy[w].is_none() && !paused {
                    let taken: Vec<usize> = busy.iter().flatten().copied().collect();
                    if let Some(i) = run.next_index_besides(&taken) {
                        assert!(!taken.contains(&i));
                        busy[w] = Some(i);
                        asked[i] += 1;
                    }
                }
            }
            // Worker 0 answers every step, 1 every other, 2 every third; 2 dies on item 5 once.
            for (w, slot) in busy.iter_mut().enumerate() {
                if step % (w + 1) != 0 {
                    continue;
                }
                let Some(i) = slot.take() else { continue };
                if w == 2 && i == 5 && !crashed {
                    crashed = true;
                    continue; // its item goes back to the pool
                }
                assert!(run.record(row(i, [-1.0, -2.0, -3.0], i % 3)));
                assert!(!run.record(row(i, [-9.0, -2.0, -3.0], i % 3)), "a late second answer is not kept");
            }
            assert!(step < 100, "the run does not finish");
        }
        assert_eq!(run.rows.keys().copied().collect::<Vec<_>>(), (0..10).collect::<Vec<_>>());
        let expected: Vec<usize> = (0..10).map(|i| if i == 5 && crashed { 2 } else { 1 }).collect();
        assert_eq!(asked, expected, "each item asked once (item 5 again after its worker died)");
        assert_eq!(run.accuracy().unwrap().correct, 4, "items 0, 3, 6, 9 have gold 0");
    }

    #[test]
    fn a_row_counts_once_and_the_next_item_is_the_first_unanswered() {
        let mut run = Run::new("m", "t", "f", RunSettings::default(), (0..3).map(|i| item(i, "en", 0)).collect());
        assert!(run.record(row(1, [-1.0, -2.0, -3.0], 0)));
        assert!(!run.record(row(1, [-9.0, -2.0, -3.0], 0)), "a second row for item 1 is refused");
        assert!(!run.record(row(7, [-1.0, -2.0, -3.0], 0)), "no item 7");
        assert_eq!((run.done(), run.next_index()), (1, Some(0)));
        assert_eq!(run.rows[&1].loglikelihoods[0], -1.0);
        run.record(row(0, [-3.0, -1.0, -2.0], 0));
        run.record(row(2, [-3.0, -1.0, -2.0], 0));
        assert_eq!(run.next_index(), None);
        let acc = run.accuracy().unwrap();
        assert_eq!((acc.correct, acc.n), (1, 3));
        assert!(acc.low < 1.0 / 3.0 && acc.high > 1.0 / 3.0 && acc.low >= 0.0);
    }

    #[test]
    fn keys_change_with_the_model_the_engine_the_items_or_the_settings() {
        let s = RunSettings::default();
        let k = run_key("m", "cpu-int8", "f", &s);
        assert_eq!(k, run_key("m", "cpu-int8", "f", &s));
        assert_ne!(k, run_key("m2", "cpu-int8", "f", &s));
        assert_ne!(k, run_key("m", "cpu", "f", &s));
        assert_ne!(k, run_key("m", "cpu-int8", "f2", &s));
        assert_ne!(k, run_key("m", "cpu-int8", "f", &RunSettings { limit: Some(3), ..s.clone() }));
        assert_ne!(k, run_key("m", "cpu-int8", "f", &RunSettings { order: "rotations".into(), ..s.clone() }));
        assert_ne!(k, run_key("m", "cpu-int8", "f", &RunSettings { sample: Some(5), ..s.clone() }));
        let filtered = RunSettings { filters: [("language".to_string(), "dz".to_string())].into(), ..s.clone() };
        assert_ne!(k, run_key("m", "cpu-int8", "f", &filtered));
        // Unfiltered settings serialise as before the filters existed, so their checkpoints are found.
        assert_eq!(serde_json::to_string(&s).unwrap(), r#"{"limit":null,"shots":null,"seed":0,"order":""}"#);
    }

    #[test]
    fn probabilities_are_a_softmax() {
        let p = probabilities(&[0.0, 2f64.ln()]);
        assert!((p[0] - 1.0 / 3.0).abs() < 1e-12 && (p[1] - 2.0 / 3.0).abs() < 1e-12);
        let p = probabilities(&[-1000.0, -1001.0]);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12 && p[0] > p[1]);
    }

    #[test]
    fn breakdown_and_position_bias_follow_the_rows() {
        let items = vec![item(0, "en", 0), item(1, "dz", 1), item(2, "dz", 2)];
        let mut run = Run::new("m", "t", "f", RunSettings::default(), items);
        run.record(row(0, [-1.0, -2.0, -3.0], 0)); // en, correct
        run.record(row(1, [-1.0, -2.0, -3.0], 1)); // dz, wrong
        run.record(row(2, [-3.0, -2.0, -1.0], 2)); // dz, correct
        let b = run.breakdown();
        let dz = b.iter().find(|b| b.field == "language" && b.value == "dz").unwrap();
        assert_eq!((dz.n, dz.accuracy), (2, 0.5));
        let bias = run.position_bias();
        assert_eq!(bias[0].chosen_count, 2);
        assert_eq!(bias[2].chosen_count, 1);
    }

    #[test]
    fn a_model_that_always_picks_one_position_is_flagged_after_ten_items() {
        let items: Vec<ItemView> = (0..12).map(|i| item(i, "en", i % 3)).collect();
        let mut run = Run::new("m", "dzen_en", "f", RunSettings::default(), items);
        run.cloze_variant = Some("dzen_en_cloze".into());
        for i in 0..9 {
            run.record(row(i, [-1.0, -2.0, -3.0], i % 3)); // always position 0
        }
        assert_eq!(run.collapsed_position(), None, "not before 10 items");
        run.record(row(9, [-1.0, -2.0, -3.0], 0));
        assert_eq!(
            run.collapsed_position(),
            Some(CollapsedPosition { position: 0, share: 1.0, cloze: Some("dzen_en_cloze".into()) })
        );
        // 8 of 10 is the threshold; 8 of 11 is below it.
        let items: Vec<ItemView> = (0..11).map(|i| item(i, "en", 0)).collect();
        let mut run = Run::new("m", "my_task", "f", RunSettings::default(), items);
        for i in 0..10 {
            let lls = if i < 8 { [-1.0, -2.0, -3.0] } else { [-3.0, -1.0, -2.0] };
            run.record(row(i, lls, 0));
        }
        assert_eq!(run.collapsed_position().map(|c| (c.position, c.cloze)), Some((0, None)));
        run.record(row(10, [-3.0, -2.0, -1.0], 0));
        assert_eq!(run.collapsed_position(), None);
    }

    /// The aggregates kept row by row equal the computations over all rows, whatever order the
    /// rows arrive in (a reload restores some, the rest follow).
    #[test]
    fn aggregates_kept_row_by_row_equal_the_ones_over_all_rows() {
        use crate::scoring::aggregate::breakdown_by_metadata;
        use crate::scoring::bias::position_bias;
        let mut rng = PyRandom::new(7);
        let mut below = |k: usize| ((rng.random() * k as f64) as usize).min(k - 1);
        let n = 300;
        let items: Vec<ItemView> = (0..n)
            .map(|i| {
                let width = 2 + below(4);
                let mut it = item(i, ["en", "dz", "am"][below(3)], below(width));
                it.choices = (0..width).map(|c| format!("c{c}")).collect();
                it.metadata.insert("subject".into(), format!("s{}", below(5)));
                it.metadata.insert("id_like".into(), format!("{i}"));
                it
            })
            .collect();
        let mut run = Run::new("m", "t", "f", RunSettings::default(), items.clone());
        let order = PyRandom::new(8).sample(n, n);
        for (k, &i) in order.iter().enumerate() {
            let width = items[i].choices.len();
            let chosen = below(width);
            let mut r = row(i, [-1.0, -2.0, -3.0], items[i].gold);
            r.chosen = chosen;
            r.correct = chosen == items[i].gold;
            assert!(run.record(r.clone()));
            assert!(!run.record(r), "a second row for an item changes nothing");
            if k % 37 != 0 && k != n - 1 {
                continue;
            }
            // From scratch, over the rows in item order.
            let rows: Vec<&ItemRow> = run.rows.values().collect();
            let correct = rows.iter().filter(|r| r.correct).count();
            let acc = run.accuracy().unwrap();
            assert_eq!((acc.n, acc.correct), (rows.len(), correct));
            let values: Vec<f64> = rows.iter().map(|r| if r.correct { 1.0 } else { 0.0 }).collect();
            let metadata: Vec<&BTreeMap<String, String>> = rows.iter().map(|r| &run.items[r.index].metadata).collect();
            let expected: Vec<Breakdown> = breakdown_by_metadata(&values, &metadata)
                .unwrap()
                .into_iter()
                .filter(|(_, by_value)| (2..=MAX_BREAKDOWN_VALUES).contains(&by_value.len()))
                .flat_map(|(field, by_value)| {
                    by_value.into_iter().map(move |(value, s)| Breakdown {
                        field: field.clone(),
                        value,
                        n: s.n,
                        accuracy: s.mean,
                    })
                })
                .collect();
            assert_eq!(run.breakdown(), expected, "after {} rows", rows.len());
            let triples: Vec<(usize, usize, usize)> =
                rows.iter().map(|r| (run.items[r.index].gold, r.chosen, run.items[r.index].choices.len())).collect();
            let expected = position_bias(&triples).unwrap();
            let ours = run.position_bias();
            assert_eq!(ours.len(), expected.len());
            for (a, b) in ours.iter().zip(&expected) {
                assert_eq!(
                    (a.position, a.items_with_position, a.gold_count, a.correct_when_gold, a.chosen_count),
                    (b.position, b.items_with_position, b.gold_count, b.correct_when_gold, b.chosen_count)
                );
                assert_eq!(
                    (a.accuracy_when_gold, a.chosen_share, a.gold_share),
                    (b.accuracy_when_gold, b.chosen_share, b.gold_share)
                );
                // Summed in another order: equal to rounding.
                assert!(
                    (a.uniform_share - b.uniform_share).abs() < 1e-12,
                    "{} vs {}",
                    a.uniform_share,
                    b.uniform_share
                );
            }
        }
        // A row whose choice is not one of its options: no position table, as position_bias says.
        let mut bad = Run::new("m", "t", "f", RunSettings::default(), vec![item(0, "en", 0)]);
        let mut r = row(0, [-1.0, -2.0, -3.0], 0);
        r.chosen = 7;
        bad.record(r);
        assert!(bad.position_bias().is_empty());
        assert!(Run::new("m", "t", "f", RunSettings::default(), Vec::new()).position_bias().is_empty());
    }

    #[test]
    fn exported_samples_import_to_the_same_rows() {
        let mut run = Run::new("m", "t", "f", RunSettings::default(), (0..2).map(|i| item(i, "en", i)).collect());
        run.record(row(0, [-1.5, -2.25, -3.0], 0));
        run.record(row(1, [-0.5, -0.25, -3.0], 1));
        let back = Run::from_samples_jsonl("samples_t.jsonl", &run.samples_jsonl()).unwrap();
        assert_eq!(back.done(), 2);
        for (a, b) in run.rows.values().zip(back.rows.values()) {
            assert_eq!((&a.loglikelihoods, a.chosen, a.correct), (&b.loglikelihoods, b.chosen, b.correct));
        }
        assert_eq!(back.items[1].gold, 1);
        assert_eq!(back.accuracy().unwrap().correct, 2);

        let bad = Run::from_samples_jsonl("x.jsonl", "{\"doc_id\": 0}\n").unwrap_err().to_string();
        assert!(bad.contains("x.jsonl: line 1"), "{bad}");
        assert!(Run::from_samples_jsonl("x.jsonl", "not json").is_err());
    }

    fn doc(id: usize, language: &str, subject: &str) -> Json {
        serde_json::json!({ "id": format!("d{id}"), "language": language, "subject": subject, "grade": 7, "question": "q", "answer": 0 })
    }

    #[test]
    fn facets_list_the_fields_with_a_handful_of_values() {
        let docs = vec![doc(0, "en", "math"), doc(1, "dz", "math"), doc(2, "dz", "science")];
        let f = facets(&docs);
        let fields: Vec<&str> = f.iter().map(|f| f.field.as_str()).collect();
        // `grade` has one value and `id` is not metadata; `question` and `answer` are left out too.
        assert_eq!(fields, ["language", "subject"]);
        assert_eq!(f[0].values, vec![("dz".to_string(), 2), ("en".to_string(), 1)]);
    }

    #[test]
    fn documents_are_filtered_then_sampled_with_the_seed_in_document_order() {
        let docs: Vec<Json> = (0..40)
            .map(|i| doc(i, if i % 4 == 0 { "dz" } else { "en" }, if i % 3 == 0 { "math" } else { "art" }))
            .collect();
        let ids = |docs: &[Json]| docs.iter().map(|d| d["id"].as_str().unwrap().to_string()).collect::<Vec<_>>();
        let mut settings = RunSettings { seed: 1234, ..Default::default() };
        assert_eq!(select_docs(docs.clone(), &settings).len(), 40);

        settings.filters.insert("language".into(), "dz".into());
        assert_eq!(
            ids(&select_docs(docs.clone(), &settings)),
            ["d0", "d4", "d8", "d12", "d16", "d20", "d24", "d28", "d32", "d36"]
        );
        settings.filters.insert("subject".into(), "math".into());
        assert_eq!(ids(&select_docs(docs.clone(), &settings)), ["d0", "d12", "d24", "d36"]);
        settings.filters.insert("grade".into(), "8".into());
        assert!(select_docs(docs.clone(), &settings).is_empty(), "no document has grade 8");

        settings.filters.clear();
        settings.sample = Some(5);
        let sample = select_docs(docs.clone(), &settings);
        // random.Random(1234).sample(range(40), 5), sorted.
        let mut expected = PyRandom::new(1234).sample(40, 5);
        expected.sort_unstable();
        assert_eq!(ids(&sample), expected.iter().map(|i| format!("d{i}")).collect::<Vec<_>>());
        assert_eq!(ids(&sample), ids(&select_docs(docs.clone(), &settings)), "the same seed, the same sample");
        assert_ne!(ids(&sample), ids(&select_docs(docs.clone(), &RunSettings { seed: 1, ..settings.clone() })));
        // The sample's own seed, where given, draws it: the run's seed is then for its shuffles.
        let own = RunSettings { seed: 1, sample_seed: Some(1234), ..settings.clone() };
        assert_eq!(ids(&sample), ids(&select_docs(docs.clone(), &own)));
        settings.sample = Some(400);
        assert_eq!(select_docs(docs, &settings).len(), 40, "a sample larger than the documents is all of them");
    }

    #[test]
    fn an_imported_sample_normalises_by_the_choice_without_its_delimiter_as_lm_eval() {
        // " ab" at -2.0 and " abcd" at -3.9: by the choices' lengths (2, 4) the second is better
        // (-0.975 > -1.0); counting the leading space (3, 5) would pick the first.
        let line = |acc_norm: Option<f64>, delimiter: &str| {
            let mut v = serde_json::json!({
                "doc_id": 0, "doc": { "question": "q" }, "target": 1,
                "arguments": {
                    "gen_args_0": { "arg_0": "Q:", "arg_1": format!("{delimiter}ab") },
                    "gen_args_1": { "arg_0": "Q:", "arg_1": format!("{delimiter}abcd") } },
                "filtered_resps": [["-2.0", "False"], ["-3.9", "False"]],
            });
            if let Some(a) = acc_norm {
                v["acc_norm"] = serde_json::json!(a);
            }
            v.to_string()
        };
        let norm_of = |text: String| {
            let run = Run::from_samples_jsonl("s.jsonl", &text).unwrap();
            let row = &run.rows[&0];
            (row.chosen, row.chosen_norm, row.correct_norm)
        };
        assert_eq!(norm_of(line(None, " ")), (0, 1, true));
        assert_eq!(norm_of(line(Some(1.0), " ")), (0, 1, true));
        // A task whose delimiter is "" and whose choices begin with a space: lm-eval counted the
        // space, and its logged acc_norm says so.
        assert_eq!(norm_of(line(Some(0.0), " ")), (0, 0, false));
    }
}
