//! A run's results, the one pipeline from scored items to files for the CLI and the page alike.
//!
//! A run is its samples: every scored item's line of lm-evaluation-harness's samples JSONL, as
//! `eval` writes it (the CLI appends it to its samples file; the worker sends it to the page with
//! the row). A [`Session`] holds those lines, read once by [`Sample::read`], keyed by
//! (doc_id, choice-order variant, filter), so an item recorded twice counts once. Everything else
//! is computed from them, here and nowhere else: the results file's metrics and standard errors
//! (aggregated as `scoring::metrics` says), the report's rows, the per-sample CSV, resuming, and
//! a run imported from a samples file. No number in a results file is the page's own: it reads
//! this.
//!
//! In `scoring`, not `eval`, because the page's wasm is built without the engine (`eval`'s home).

use std::collections::BTreeMap;

use serde_json::Value as Json;

use super::aggregate::{bootstrap_stderr, perplexity, Summary, DEFAULT_BOOTSTRAP_ITERS};
use super::loglikelihood::np_argmax;
use super::metrics::{self, Aggregation};
use super::outputs::MetricResult;
use super::report::{CorpusInput, Row};
use crate::error::{Error, Result};

/// A metric's value as one sample logs it.
#[derive(Debug, Clone, PartialEq)]
pub enum Logged {
    Value(f64),
    /// A corpus metric's `[target, response]`: aggregated over the whole run.
    Pair {
        references: Vec<String>,
        response: String,
    },
}

/// One line of a samples file, read.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    pub doc_id: u64,
    /// The choice-order variant (0 for the given order).
    pub variant: usize,
    /// The filter pipeline (`none` without filters).
    pub filter: String,
    pub doc: Json,
    /// The line as written, newline included.
    pub line: String,
    /// The metrics the line logs, in its order.
    pub metrics: Vec<(String, Logged)>,
    /// Per log-likelihood request: its context and continuation, log-likelihood and is_greedy.
    /// A multiple-choice item's unconditional requests (PMI) come after its conditional ones.
    pub requests: Vec<Request>,
    /// A generation's filtered response.
    pub response: Option<String>,
    /// A multiple-choice item's gold index (`target`, or `gold` where the target is text).
    pub gold: Option<usize>,
    /// `target` as logged: `str(doc_to_target(doc))` (a generation's reference).
    pub target: String,
    /// `permutation[i]`: the original index of the option shown at position i.
    pub permutation: Option<Vec<usize>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    pub context: String,
    pub continuation: String,
    pub loglikelihood: f64,
    pub is_greedy: bool,
}

impl Sample {
    /// Reads one line of a samples file of a task of `output_type` (`multiple_choice`,
    /// `loglikelihood`, `generate_until`); the error says what the line lacks.
    pub fn read(line: &str, output_type: &str) -> std::result::Result<Sample, String> {
        let v: Json = serde_json::from_str(line).map_err(|e| format!("not JSON ({e})"))?;
        let doc_id = v.get("doc_id").and_then(Json::as_u64).ok_or("no doc_id")?;
        let names: Vec<String> = match v.get("metrics").and_then(Json::as_array) {
            Some(names) => names.iter().filter_map(|n| n.as_str().map(String::from)).collect(),
            // A line without the list (not lm-eval's): the metrics it carries that the registry knows.
            None => metrics::METRICS.iter().filter(|m| v.get(m.name).is_some()).map(|m| m.name.to_string()).collect(),
        };
        let mut logged = Vec::with_capacity(names.len());
        for name in names {
            // A metric the registry does not know (lm-eval's f1, mcc, brier_score, …) is not
            // aggregated here, so its value, whatever its shape, is not read.
            if metrics::find(&name).is_none() {
                continue;
            }
            let value = match v.get(&name) {
                Some(Json::Number(n)) => Logged::Value(n.as_f64().ok_or_else(|| format!("{name} is not a number"))?),
                Some(Json::Bool(b)) => Logged::Value(if *b { 1.0 } else { 0.0 }),
                Some(Json::Array(pair)) if pair.len() == 2 => Logged::Pair {
                    references: match &pair[0] {
                        Json::String(s) => vec![s.clone()],
                        Json::Array(refs) => refs
                            .iter()
                            .map(|r| r.as_str().map(String::from))
                            .collect::<Option<_>>()
                            .ok_or_else(|| format!("{name}: a reference is not text"))?,
                        _ => return Err(format!("{name}: the reference is not text")),
                    },
                    response: pair[1].as_str().ok_or_else(|| format!("{name}: the response is not text"))?.to_string(),
                },
                Some(_) => return Err(format!("{name} is neither a number nor a [target, response] pair")),
                None => return Err(format!("the line lists metric {name} but has no value for it")),
            };
            logged.push((name, value));
        }
        let mut sample = Sample {
            doc_id,
            variant: v.get("variant").and_then(Json::as_u64).unwrap_or(0) as usize,
            filter: v.get("filter").and_then(Json::as_str).unwrap_or("none").to_string(),
            doc: v.get("doc").cloned().unwrap_or(Json::Null),
            line: if line.ends_with('\n') { line.to_string() } else { format!("{line}\n") },
            metrics: logged,
            requests: Vec::new(),
            response: None,
            gold: None,
            target: match v.get("target") {
                Some(Json::String(t)) => t.clone(),
                Some(other) => other.to_string(),
                None => String::new(),
            },
            permutation: v
                .get("permutation")
                .and_then(Json::as_array)
                .map(|p| p.iter().filter_map(|i| i.as_u64().map(|i| i as usize)).collect()),
        };
        let resps = v.get("filtered_resps").and_then(Json::as_array).ok_or("no filtered_resps")?;
        if output_type == "generate_until" {
            sample.response =
                Some(resps.first().and_then(Json::as_str).ok_or("the filtered response is not text")?.to_string());
            return Ok(sample);
        }
        let args = v.get("arguments").and_then(Json::as_object).ok_or("no arguments")?;
        let mut args: Vec<(usize, &Json)> =
            args.iter().filter_map(|(k, a)| Some((k.strip_prefix("gen_args_")?.parse().ok()?, a))).collect();
        args.sort_by_key(|(i, _)| *i);
        if args.len() != resps.len() {
            return Err(format!("{} requests but {} responses", args.len(), resps.len()));
        }
        for ((_, a), r) in args.iter().zip(resps) {
            let text = |k: &str| {
                a.get(k).and_then(Json::as_str).map(String::from).ok_or_else(|| format!("a request's {k} is not text"))
            };
            // lm-eval logs the log-likelihood as a string; lingualens once wrote numbers.
            let loglikelihood = r
                .get(0)
                .and_then(|x| x.as_str().and_then(|s| s.parse().ok()).or_else(|| x.as_f64()))
                .ok_or("a response is not a log-likelihood")?;
            let is_greedy = r.get(1).is_some_and(|g| g.as_str() == Some("True") || g.as_bool() == Some(true));
            sample.requests.push(Request {
                context: text("arg_0")?,
                continuation: text("arg_1")?,
                loglikelihood,
                is_greedy,
            });
        }
        if sample.requests.is_empty() {
            return Err("no requests".into());
        }
        if output_type == "multiple_choice" {
            // A multiple-input sample's target is text, and its gold index is logged as `gold`.
            let gold = v
                .get("gold")
                .and_then(Json::as_u64)
                .or_else(|| {
                    v.get("target").and_then(|t| t.as_u64().or_else(|| t.as_str().and_then(|s| s.parse().ok())))
                })
                .ok_or("target is not a choice index")? as usize;
            if gold >= sample.options() {
                return Err(format!("target {gold} is not one of the {} choices", sample.options()));
            }
            sample.gold = Some(gold);
        }
        Ok(sample)
    }

    /// A multiple-choice item's number of options: its requests, less the unconditional ones a
    /// PMI run adds after them.
    pub fn options(&self) -> usize {
        let pmi = self.metrics.iter().any(|(n, _)| n == "acc_mutual_info");
        if pmi {
            self.requests.len() / 2
        } else {
            self.requests.len()
        }
    }

    /// The options' (conditional) log-likelihoods.
    pub fn loglikelihoods(&self) -> Vec<f64> {
        self.requests[..self.options()].iter().map(|r| r.loglikelihood).collect()
    }

    /// The option with the highest log-likelihood (`acc`'s prediction; the first of equals).
    pub fn chosen(&self) -> Option<usize> {
        np_argmax(&self.loglikelihoods())
    }

    pub fn value(&self, metric: &str) -> Option<f64> {
        self.metrics.iter().find_map(|(n, v)| match v {
            Logged::Value(x) if n == metric => Some(*x),
            _ => None,
        })
    }

    /// The document's `id`, else its doc_id.
    pub fn item_id(&self) -> String {
        self.doc.get("id").and_then(Json::as_str).map(String::from).unwrap_or_else(|| self.doc_id.to_string())
    }
}

/// The metadata of a document that results are broken down by: the `fields` named (any text,
/// number or boolean), or without them, its short fields (strings up to 40 characters, numbers,
/// booleans) except its `question`, `answer` and `id`, as the page shows and filters by.
pub fn doc_metadata(doc: &Json, fields: Option<&[String]>) -> BTreeMap<String, String> {
    let mut metadata = BTreeMap::new();
    let Json::Object(map) = doc else { return metadata };
    for (key, value) in map {
        if fields.is_some_and(|f| !f.contains(key))
            || (fields.is_none() && matches!(key.as_str(), "question" | "answer" | "id"))
        {
            continue;
        }
        let value = match value {
            Json::String(s) if fields.is_some() || s.chars().count() <= 40 => s.clone(),
            Json::Number(n) => n.to_string(),
            Json::Bool(b) => b.to_string(),
            _ => continue,
        };
        metadata.insert(key.clone(), value);
    }
    metadata
}

/// The lines of a samples file that were written whole: those ending in a newline that are
/// JSON. A last line cut short by a crash (even inside a multibyte character) is left out, not
/// the whole file, so a run resumes after it.
pub fn complete_lines(bytes: &[u8]) -> Vec<String> {
    let complete = bytes.rsplitn(2, |&b| b == b'\n').nth(1).unwrap_or_default();
    complete
        .split(|&b| b == b'\n')
        .filter_map(|line| std::str::from_utf8(line).ok())
        .filter(|line| !line.trim().is_empty() && serde_json::from_str::<Json>(line).is_ok())
        .map(String::from)
        .collect()
}

/// A run's samples, read; see the module's comment.
#[derive(Debug, Clone, PartialEq)]
pub struct Session {
    output_type: String,
    /// By (doc_id, variant, the filter's index in `filters`).
    samples: BTreeMap<(u64, usize, usize), Sample>,
    /// The filter pipelines in the order their first sample came (the task's order).
    filters: Vec<String>,
}

impl Session {
    pub fn new(output_type: &str) -> Session {
        Session { output_type: output_type.to_string(), samples: BTreeMap::new(), filters: Vec::new() }
    }

    /// Every line of a samples file; `name` names the file in errors, with the line's number.
    pub fn from_jsonl(name: &str, output_type: &str, text: &str) -> Result<Session> {
        let mut session = Session::new(output_type);
        for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            session.record(line).map_err(|e| Error::new(format!("{name}: line {}: {e}", i + 1)))?;
        }
        Ok(session)
    }

    /// Adds a sample line; `Ok(false)` (and nothing changes) when its item and filter have one.
    pub fn record(&mut self, line: &str) -> std::result::Result<bool, String> {
        let sample = Sample::read(line, &self.output_type)?;
        Ok(self.insert(sample))
    }

    pub fn insert(&mut self, sample: Sample) -> bool {
        let filter = match self.filters.iter().position(|f| f == &sample.filter) {
            Some(i) => i,
            None => {
                self.filters.push(sample.filter.clone());
                self.filters.len() - 1
            }
        };
        let key = (sample.doc_id, sample.variant, filter);
        if self.samples.contains_key(&key) {
            return false;
        }
        self.samples.insert(key, sample);
        true
    }

    /// Keeps only the documents with a sample for each of `filters` (a generation interrupted
    /// between the lines of its filters is done again).
    pub fn retain_complete(&mut self, filters: usize) {
        let mut count: BTreeMap<(u64, usize), usize> = BTreeMap::new();
        for (doc, variant, _) in self.samples.keys() {
            *count.entry((*doc, *variant)).or_default() += 1;
        }
        self.samples.retain(|(doc, variant, _), _| count[&(*doc, *variant)] == filters);
    }

    /// Whether the item (doc_id, variant) has a sample.
    pub fn has(&self, doc_id: u64, variant: usize) -> bool {
        self.samples.range((doc_id, variant, 0)..).next().is_some_and(|((d, v, _), _)| (*d, *v) == (doc_id, variant))
    }

    /// The samples in (doc_id, variant, filter) order, filters in the task's order.
    pub fn samples(&self) -> impl Iterator<Item = &Sample> {
        self.samples.values()
    }

    pub fn len(&self) -> usize {
        self.samples.len()
    }

    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// The samples file: every line, in (doc_id, variant, filter) order.
    pub fn jsonl(&self) -> String {
        self.samples.values().map(|s| s.line.as_str()).collect()
    }

    /// Every metric the samples log, per filter, aggregated as lm-eval does (`scoring::metrics`):
    /// what the results file reports. Metrics the registry does not know are left out.
    pub fn metrics(&self) -> Result<Vec<MetricResult>> {
        let mut out = Vec::new();
        for filter in &self.filters {
            let samples: Vec<&Sample> = self.samples.values().filter(|s| &s.filter == filter).collect();
            let Some(first) = samples.first() else { continue };
            for (name, _) in &first.metrics {
                let Some(metric) = metrics::find(name) else { continue };
                let values = || samples.iter().filter_map(|s| s.value(name)).collect::<Vec<f64>>();
                let (value, stderr) = match metric.aggregation {
                    Aggregation::Mean => {
                        let Some(s) = Summary::of(&values()) else { continue };
                        (s.mean, s.stderr)
                    }
                    Aggregation::Perplexity => {
                        let lls = values();
                        let Some(value) = perplexity(&lls) else { continue };
                        let f = |xs: &[f64]| perplexity(xs).ok_or_else(|| Error::new("no items"));
                        (value, bootstrap_stderr(f, &lls, DEFAULT_BOOTSTRAP_ITERS)?)
                    }
                    Aggregation::Corpus(c) => {
                        let pairs = self.pairs(filter, name);
                        if pairs.is_empty() {
                            continue;
                        }
                        c.score_with_stderr(&pairs, DEFAULT_BOOTSTRAP_ITERS)?
                    }
                };
                out.push(MetricResult {
                    name: name.clone(),
                    filter: filter.clone(),
                    value,
                    stderr,
                    higher_is_better: metric.higher_is_better,
                });
            }
        }
        Ok(out)
    }

    /// A corpus metric's (response, references) per sample of `filter`, in sample order.
    fn pairs(&self, filter: &str, metric: &str) -> Vec<(String, Vec<String>)> {
        self.samples
            .values()
            .filter(|s| s.filter == filter)
            .filter_map(|s| {
                s.metrics.iter().find_map(|(n, v)| match v {
                    Logged::Pair { references, response } if n == metric => {
                        Some((response.clone(), references.clone()))
                    }
                    _ => None,
                })
            })
            .collect()
    }

    /// One report row per item (doc_id, variant), its metadata by [`doc_metadata`] with `fields`.
    /// Values are the per-sample metrics that are means, named `metric` (or `metric,filter` for a
    /// generation task); texts are the log-likelihoods, the permutation, or the reference and
    /// each filter's response.
    pub fn rows(&self, fields: Option<&[String]>) -> Vec<Row> {
        let generation = self.output_type == "generate_until";
        let mut rows: Vec<Row> = Vec::new();
        for s in self.samples.values() {
            let same = rows.last().is_some_and(|r| (r.doc_id, r.variant) == (s.doc_id, s.variant));
            if !same {
                rows.push(Row {
                    doc_id: s.doc_id,
                    variant: s.variant,
                    item_id: s.item_id(),
                    values: Vec::new(),
                    choice: None,
                    texts: Vec::new(),
                    metadata: doc_metadata(&s.doc, fields),
                });
            }
            let Some(row) = rows.last_mut() else { continue };
            for (name, logged) in &s.metrics {
                if let (Logged::Value(v), Some(Aggregation::Mean)) =
                    (logged, metrics::find(name).map(|m| m.aggregation))
                {
                    row.values.push((if generation { format!("{name},{}", s.filter) } else { name.clone() }, *v));
                }
            }
            if generation {
                if !same {
                    let reference = s.metrics.iter().find_map(|(_, v)| match v {
                        Logged::Pair { references, .. } => Some(references.join(" | ")),
                        _ => None,
                    });
                    // The references a corpus metric logged, else the logged target.
                    row.texts.push(("reference".into(), reference.unwrap_or_else(|| s.target.clone())));
                }
                row.texts.push((format!("response,{}", s.filter), s.response.clone().unwrap_or_default()));
            } else if let (Some(gold), Some(chosen)) = (s.gold, s.chosen()) {
                row.choice = Some((gold, chosen, s.options()));
                row.texts.push((
                    "loglikelihoods".into(),
                    s.loglikelihoods().iter().map(|l| l.to_string()).collect::<Vec<_>>().join(";"),
                ));
                if let Some(p) = &s.permutation {
                    row.texts
                        .push(("permutation".into(), p.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" ")));
                }
            } else if let Some(r) = s.requests.first() {
                row.texts.push(("loglikelihood".into(), r.loglikelihood.to_string()));
            }
        }
        rows
    }

    /// The mean so far of the first metric of the first filter that is a mean, with its name
    /// (`acc`; `exact_match,<filter>` for a generation): the CLI's progress line.
    pub fn running_mean(&self) -> Option<(String, f64)> {
        let filter = self.filters.first()?;
        let first = self.samples.values().find(|s| &s.filter == filter)?;
        let name = first
            .metrics
            .iter()
            .map(|(n, _)| n)
            .find(|n| metrics::find(n).is_some_and(|m| m.aggregation == Aggregation::Mean))?;
        let values: Vec<f64> =
            self.samples.values().filter(|s| &s.filter == filter).filter_map(|s| s.value(name)).collect();
        let label = if self.output_type == "generate_until" { format!("{name},{filter}") } else { name.clone() };
        Some((label, Summary::of(&values)?.mean))
    }

    /// Each corpus metric's (response, references) per row, for the report's breakdowns.
    pub fn corpus_inputs(&self) -> Vec<CorpusInput> {
        let mut out = Vec::new();
        for filter in &self.filters {
            let Some(first) = self.samples.values().find(|s| &s.filter == filter) else { continue };
            for (name, _) in &first.metrics {
                if let Some(Aggregation::Corpus(metric)) = metrics::find(name).map(|m| m.aggregation) {
                    out.push(CorpusInput {
                        label: format!("{name},{filter}"),
                        metric,
                        pairs: self.pairs(filter, name),
                    });
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mc_line(doc_id: u64, lls: [f64; 3], gold: usize, acc: f64, acc_norm: f64) -> String {
        let args: Vec<String> =
            (0..3).map(|i| format!("\"gen_args_{i}\": {{\"arg_0\": \"Q?\", \"arg_1\": \" o{i}\"}}")).collect();
        let resps: Vec<String> = lls.iter().map(|l| format!("[\"{l}\", \"False\"]")).collect();
        format!(
            "{{\"doc_id\": {doc_id}, \"doc\": {{\"id\": \"q{doc_id}\", \"language\": \"dz\"}}, \"target\": \"{gold}\", \"arguments\": {{{}}}, \"resps\": [], \"filtered_resps\": [{}], \"filter\": \"none\", \"metrics\": [\"acc\", \"acc_norm\"], \"acc\": {acc}, \"acc_norm\": {acc_norm}}}\n",
            args.join(", "),
            resps.join(", ")
        )
    }

    #[test]
    fn a_run_is_aggregated_from_what_its_lines_log() {
        let text = mc_line(0, [-1.0, -2.0, -3.0], 0, 1.0, 0.0)
            + &mc_line(1, [-3.0, -1.0, -2.0], 2, 0.0, 1.0)
            + &mc_line(1, [-3.0, -1.0, -2.0], 2, 0.0, 1.0);
        let s = Session::from_jsonl("s.jsonl", "multiple_choice", &text).unwrap();
        assert_eq!(s.len(), 2, "a repeated item counts once");
        let m = s.metrics().unwrap();
        assert_eq!(m.iter().map(|m| (m.name.as_str(), m.value)).collect::<Vec<_>>(), [("acc", 0.5), ("acc_norm", 0.5)]);
        assert!((m[0].stderr.unwrap() - 0.5).abs() < 1e-12, "the standard error of the mean of 1 and 0");
        let rows = s.rows(None);
        assert_eq!(rows[1].choice, Some((2, 1, 3)));
        assert_eq!(rows[1].metadata.get("language").map(String::as_str), Some("dz"));
        assert_eq!(
            s.jsonl(),
            mc_line(0, [-1.0, -2.0, -3.0], 0, 1.0, 0.0) + &mc_line(1, [-3.0, -1.0, -2.0], 2, 0.0, 1.0)
        );
        let bad =
            Session::from_jsonl("s.jsonl", "multiple_choice", &(text + "{\"doc_id\": 3}\n")).unwrap_err().to_string();
        assert!(bad.contains("s.jsonl: line 4: no filtered_resps"), "{bad}");
    }

    #[test]
    fn a_line_cut_short_is_left_out() {
        let text = "{\"doc_id\": 0}\nnot json\n\n{\"doc_id\": 3}\n{\"doc_id\": 4, \"q\": \"ཀ";
        let bytes = &text.as_bytes()[..text.len() - 1];
        assert_eq!(complete_lines(bytes), ["{\"doc_id\": 0}", "{\"doc_id\": 3}"]);
        assert!(complete_lines(b"{\"doc_id\": 0}").is_empty(), "no newline: not written whole");
    }

    #[test]
    fn perplexity_and_corpus_metrics_are_aggregated_by_the_registry() {
        let ll = |id: u64, l: f64| {
            format!("{{\"doc_id\": {id}, \"doc\": {{}}, \"target\": \"x\", \"arguments\": {{\"gen_args_0\": {{\"arg_0\": \"a\", \"arg_1\": \" b\"}}}}, \"filtered_resps\": [[\"{l}\", \"True\"]], \"filter\": \"none\", \"metrics\": [\"perplexity\", \"acc\"], \"perplexity\": {l}, \"acc\": 1}}\n")
        };
        let s = Session::from_jsonl("ll", "loglikelihood", &(ll(0, -1.0) + &ll(1, -3.0))).unwrap();
        let m = s.metrics().unwrap();
        assert_eq!(m[0].name, "perplexity");
        assert!((m[0].value - 2f64.exp()).abs() < 1e-12 && !m[0].higher_is_better);
        assert_eq!((m[1].name.as_str(), m[1].value), ("acc", 1.0));
        let gen = |id: u64, f: &str, r: &str| {
            format!("{{\"doc_id\": {id}, \"doc\": {{}}, \"target\": \"a b c\", \"filtered_resps\": [\"{r}\"], \"filter\": \"{f}\", \"metrics\": [\"chrf\", \"exact_match\"], \"chrf\": [\"a b c\", \"{r}\"], \"exact_match\": {}}}\n", if r == "a b c" { 1.0 } else { 0.0 })
        };
        let mut s = Session::from_jsonl(
            "g",
            "generate_until",
            &(gen(0, "strict", "a b c") + &gen(0, "loose", "a b") + &gen(1, "strict", "a b c")),
        )
        .unwrap();
        s.retain_complete(2);
        assert_eq!(s.len(), 2, "document 1 lacks its second filter's line");
        let m = s.metrics().unwrap();
        assert_eq!(
            m.iter().map(|m| format!("{},{}", m.name, m.filter)).collect::<Vec<_>>(),
            ["chrf,strict", "exact_match,strict", "chrf,loose", "exact_match,loose"]
        );
        assert!((m[0].value - 100.0).abs() < 1e-9);
        let rows = s.rows(None);
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].values, [("exact_match,strict".to_string(), 1.0), ("exact_match,loose".to_string(), 0.0)]);
        // A task that logs only exact_match still has its reference in the rows (from `target`).
        let em = "{\"doc_id\": 0, \"doc\": {}, \"target\": \"b\", \"filtered_resps\": [\"b\"], \"filter\": \"none\", \"metrics\": [\"exact_match\"], \"exact_match\": 1.0}\n";
        let rows = Session::from_jsonl("g", "generate_until", em).unwrap().rows(None);
        assert_eq!(rows[0].texts[0], ("reference".to_string(), "b".to_string()));
    }

    #[test]
    fn metrics_the_registry_does_not_know_are_left_unread() {
        // lm-eval logs f1 as [gold, pred] and brier_score as [gold, [probabilities]].
        let line = mc_line(0, [-1.0, -2.0, -3.0], 0, 1.0, 0.0)
            .replace("\"metrics\": [\"acc\", \"acc_norm\"]", "\"metrics\": [\"acc\", \"f1\", \"brier_score\", \"acc_norm\"], \"f1\": [0, 0], \"brier_score\": [0, [0.5, 0.3, 0.2]]");
        let s = Session::from_jsonl("s", "multiple_choice", &line).unwrap();
        assert_eq!(s.metrics().unwrap().iter().map(|m| m.name.as_str()).collect::<Vec<_>>(), ["acc", "acc_norm"]);
    }
}
