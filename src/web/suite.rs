//! An experiment (`tasks::experiment`) run in the page, one run after another on the loaded model:
//! which run is next and with which settings, each finished run's verdicts, and the comparison
//! drawn from them (`Experiment::results`, the CLI's `suite` table). The progress is plain data
//! that the page keeps in `localStorage` after every run, so that a reload goes on with the run
//! under way (whose rows the checkpoint keeps) and never repeats a finished one.
//!
//! Items are matched across runs by their position in the run, as the CLI's `doc_id`: the runs of
//! an experiment score the same documents, one variant each. Plain data: tested natively.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::i18n::{Arg, Catalogue, NumberStyle};
use super::protocol::RunSettings;
use super::run::Run;
use super::summary::{document, text, xml_escape};
use crate::error::{Error, Result};
use crate::scoring::aggregate::Summary;
use crate::scoring::paired::{PairedComparison, Swing};
use crate::tasks::experiment::{Experiment, ExperimentResults, RunSpec, SwingSpec, SWING_SEED};

/// A suite under way, or finished, as the page keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SuiteProgress {
    pub experiment: String,
    /// The model the suite runs on (the page's model id).
    pub model: String,
    /// The controls' limit and sample when the suite started: the same for every run.
    pub limit: Option<usize>,
    pub sample: Option<usize>,
    /// The seed the sample is drawn with, one for every run as the CLI's `suite --seed`.
    #[serde(default)]
    pub sample_seed: Option<u64>,
    /// The run under way (its index in the experiment); the number of runs once all are done.
    pub next: usize,
    /// Each finished run's verdict per item position.
    pub verdicts: BTreeMap<String, BTreeMap<u64, bool>>,
}

impl SuiteProgress {
    /// A suite of `experiment` on `model`; each run scores the first `limit` documents of the
    /// `sample` drawn with `sample_seed`.
    pub fn new(
        experiment: &Experiment,
        model: &str,
        limit: Option<usize>,
        sample: Option<(usize, u64)>,
    ) -> SuiteProgress {
        SuiteProgress {
            experiment: experiment.experiment.clone(),
            model: model.to_string(),
            limit,
            sample: sample.map(|s| s.0),
            sample_seed: sample.map(|s| s.1),
            next: 0,
            verdicts: BTreeMap::new(),
        }
    }

    pub fn done(&self, experiment: &Experiment) -> bool {
        self.next >= experiment.runs.len()
    }

    /// The run under way.
    pub fn current<'a>(&self, experiment: &'a Experiment) -> Option<&'a RunSpec> {
        experiment.runs.get(self.next)
    }

    /// The page's settings of run `spec`.
    pub fn settings(&self, spec: &RunSpec) -> RunSettings {
        RunSettings {
            limit: self.limit,
            shots: spec.shots,
            seed: spec.seed.unwrap_or(1234),
            order: spec.order.clone().unwrap_or_else(|| "given".into()),
            filters: BTreeMap::new(),
            sample: self.sample,
            sample_seed: self.sample.and(self.sample_seed),
        }
    }

    /// Takes the finished `run` as the run under way when it is that run (its task and settings)
    /// and has every item; then the next run is under way. Whether it was taken.
    pub fn finish(&mut self, experiment: &Experiment, run: &Run) -> bool {
        let Some(spec) = self.current(experiment) else { return false };
        let complete = run.rows.len() + run.failed.len() >= run.items.len() && !run.items.is_empty();
        if run.task != spec.task || run.settings != self.settings(spec) || !complete {
            return false;
        }
        self.verdicts.insert(spec.name.clone(), verdicts(run));
        self.next += 1;
        true
    }

    /// What the runs' documents were drawn with, as the suite's table says it (`suite_json`).
    pub fn sample_json(&self) -> Option<Value> {
        self.sample.map(|n| json!({"size": n, "seed": self.sample_seed.unwrap_or(1234)}))
    }

    /// The comparison over the runs finished so far.
    pub fn results(&self, experiment: &Experiment) -> Result<ExperimentResults> {
        experiment.results(&self.verdicts)
    }
}

/// A run's verdict (its `correct`: acc, or a generation's exact match) per item position.
pub fn verdicts(run: &Run) -> BTreeMap<u64, bool> {
    run.rows.values().map(|row| (row.index as u64, row.correct)).collect()
}

/// The suite's table as JSON (`suite_<NAME>.json`, the page's download alike): the runs, and per
/// model each run's accuracy, each comparison, each swing. `sample`: what the runs' documents were
/// drawn with, if they were.
pub fn suite_json(experiment: &Experiment, results: &[(&str, &ExperimentResults)], sample: Option<Value>) -> Value {
    let runs: Vec<Value> = experiment
        .runs
        .iter()
        .map(|r| json!({"name": r.name, "task": r.task, "shots": r.shots, "order": r.order.as_deref().unwrap_or("given"), "seed": r.seed.unwrap_or(1234), "metric": r.metric}))
        .collect();
    let models: Vec<Value> = results
        .iter()
        .map(|m| {
            let runs: serde_json::Map<String, Value> = m.1
                .runs
                .iter()
                .map(|(name, s)| (name.clone(), json!({"n": s.n, "accuracy": s.mean, "stderr": s.stderr, "ci95": s.ci95().map(|(a, b)| [a, b])})))
                .collect();
            let comparisons: Vec<Value> = m.1
                .comparisons
                .iter()
                .map(|(a, b, c)| {
                    json!({"a": a, "b": b, "items": c.n, "accuracy_a": c.accuracy_a, "accuracy_b": c.accuracy_b,
                           "difference": c.difference, "ci95": c.ci95.map(|(x, y)| [x, y]), "both_right": c.both_right,
                           "both_wrong": c.both_wrong, "only_a": c.only_a, "only_b": c.only_b, "mcnemar_p": c.mcnemar_p})
                })
                .collect();
            let swings: Vec<Value> = m.1
                .swings
                .iter()
                .map(|(name, s)| {
                    let runs = experiment.swing.iter().find(|x| &x.name == name).map(|x| x.runs.clone()).unwrap_or_default();
                    json!({"name": name, "runs": runs, "accuracies": s.accuracies, "swing": s.swing, "ci95": [s.ci95.0, s.ci95.1], "replicates": s.replicates, "seed": SWING_SEED})
                })
                .collect();
            json!({"model": m.0, "runs": runs, "comparisons": comparisons, "swings": swings})
        })
        .collect();
    json!({"experiment": experiment.experiment, "description": experiment.description, "source": experiment.source,
           "sample": sample, "runs": runs, "models": models})
}

fn percent(x: f64) -> String {
    format!("{:.1}", 100.0 * x)
}

/// Each run's accuracy per model as a bar with its 95 % interval as a whisker.
pub fn chart_svg(experiment: &Experiment, results: &[(&str, &ExperimentResults)]) -> String {
    let (width, height, body) = chart(experiment, results);
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" font-family=\"sans-serif\" font-size=\"11\">\n<title>{0}</title>\n<text x=\"48\" y=\"18\" font-size=\"13\">{0}</text>\n{body}</svg>\n",
        xml_escape(&experiment.experiment)
    )
}

/// The chart's width, height and elements (its title line left free), for `chart_svg` and the
/// one-page summary.
fn chart(experiment: &Experiment, results: &[(&str, &ExperimentResults)]) -> (f64, f64, String) {
    let (bar, gap, left, top, height) = (18.0, 14.0, 48.0, 40.0, 220.0);
    // Wide enough for the run's name, written at 30° under its bars, not to run into the next one's.
    let group = (bar * results.len() as f64 + gap).max(64.0);
    let width = left + group * experiment.runs.len() as f64 + 20.0;
    let y = |v: f64| top + height * (1.0 - v.clamp(0.0, 1.0));
    let colours = ["#3b6ea5", "#d08c2c", "#4c9a5b", "#a8473f", "#7a5aa6", "#5f6b73"];
    let mut s = String::new();
    for tick in [0.0, 0.25, 0.5, 0.75, 1.0] {
        let _ = writeln!(
            s,
            "<line x1=\"{left}\" x2=\"{:.1}\" y1=\"{1:.1}\" y2=\"{1:.1}\" stroke=\"#ddd\"/><text x=\"{2:.1}\" y=\"{3:.1}\" text-anchor=\"end\">{4:.0} %</text>",
            width - 10.0,
            y(tick),
            left - 4.0,
            y(tick) + 4.0,
            tick * 100.0
        );
    }
    for (i, run) in experiment.runs.iter().enumerate() {
        let x0 = left + gap / 2.0 + group * i as f64;
        for (j, m) in results.iter().enumerate() {
            let Some(summary) = m.1.runs.get(&run.name) else { continue };
            let x = x0 + bar * j as f64;
            let colour = colours[j % colours.len()];
            let _ = writeln!(
                s,
                "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{colour}\"><title>{} · {}: {} %</title></rect>",
                y(summary.mean),
                bar - 2.0,
                y(0.0) - y(summary.mean),
                xml_escape(m.0),
                xml_escape(&run.name),
                percent(summary.mean)
            );
            if let Some((lo, hi)) = summary.ci95() {
                let cx = x + (bar - 2.0) / 2.0;
                let _ = writeln!(
                    s,
                    "<line x1=\"{cx:.1}\" x2=\"{cx:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"#222\"/>",
                    y(lo),
                    y(hi)
                );
            }
        }
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" transform=\"rotate(30 {0:.1} {1:.1})\">{}</text>",
            x0,
            y(0.0) + 14.0,
            xml_escape(&run.name)
        );
    }
    for (j, m) in results.iter().enumerate() {
        let _ = writeln!(
            s,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"10\" height=\"10\" fill=\"{}\"/><text x=\"{:.1}\" y=\"{:.1}\">{}</text>",
            left,
            top + height + 70.0 + 14.0 * j as f64,
            colours[j % colours.len()],
            left + 14.0,
            top + height + 79.0 + 14.0 * j as f64,
            xml_escape(m.0)
        );
    }
    (width, top + height + 84.0 + 14.0 * results.len() as f64, s)
}

/// The largest suite table the page reads back (a table of 100 models × 100 runs is ~2 MB).
pub const SAVED_SUITE_MAX_BYTES: u64 = 16 << 20;
/// At most this many runs and models in a table read back: what a page can draw at once.
const MAX_SAVED_RUNS: usize = 500;
const MAX_SAVED_MODELS: usize = 100;

/// A suite's table read back from `suite_<NAME>.json` (the CLI's or the page's): the experiment
/// as the file describes it and each model's results, to show, chart and print again.
#[derive(Debug, Clone, PartialEq)]
pub struct SavedSuite {
    pub experiment: Experiment,
    pub sample: Option<Value>,
    pub models: Vec<(String, ExperimentResults)>,
}

/// A JSON value with its path in the file, for messages that name the field.
struct Field<'a> {
    file: &'a str,
    path: String,
    value: &'a Value,
}

impl<'a> Field<'a> {
    fn error(&self, what: &str) -> Error {
        Error::new(format!("{}: `{}` {what}", self.file, self.path))
    }
    fn get(&self, key: &str) -> Result<Field<'a>> {
        match self.value.get(key) {
            Some(value) => Ok(Field { file: self.file, path: format!("{}.{key}", self.path), value }),
            None => Err(self.error(&format!("has no `{key}`"))),
        }
    }
    fn optional(&self, key: &str) -> Option<Field<'a>> {
        self.get(key).ok().filter(|f| !f.value.is_null())
    }
    fn text(&self) -> Result<String> {
        self.value.as_str().map(str::to_string).ok_or_else(|| self.error("is not text"))
    }
    fn count(&self) -> Result<usize> {
        self.value.as_u64().and_then(|n| usize::try_from(n).ok()).ok_or_else(|| self.error("is not a count"))
    }
    fn number(&self) -> Result<f64> {
        self.value.as_f64().filter(|x| x.is_finite()).ok_or_else(|| self.error("is not a number"))
    }
    fn items(&self) -> Result<Vec<Field<'a>>> {
        let list = self.value.as_array().ok_or_else(|| self.error("is not a list"))?;
        Ok(list
            .iter()
            .enumerate()
            .map(|(i, value)| Field { file: self.file, path: format!("{}[{i}]", self.path), value })
            .collect())
    }
    fn pair(&self) -> Result<(f64, f64)> {
        match self.items()?.as_slice() {
            [a, b] => Ok((a.number()?, b.number()?)),
            _ => Err(self.error("is not a pair of numbers")),
        }
    }
}

impl SavedSuite {
    /// Reads a suite table; `file` names it in messages, which name the field that is wrong.
    pub fn read(file: &str, text: &str) -> Result<SavedSuite> {
        let root: Value = serde_json::from_str(text)
            .map_err(|e| Error::new(format!("{file}: not a suite table (suite_<NAME>.json): {e}")))?;
        let root = Field { file, path: "$".into(), value: &root };
        let mut runs = Vec::new();
        for run in root.get("runs")?.items()? {
            let order = run.get("order")?.text()?;
            let seed = run.get("seed")?.value.as_u64().ok_or_else(|| run.error("has a seed that is not a count"))?;
            runs.push(RunSpec {
                name: run.get("name")?.text()?,
                task: run.get("task")?.text()?,
                shots: run.optional("shots").map(|f| f.count()).transpose()?,
                // The defaults are written out in the file; read back, they are the defaults again.
                order: (order != "given").then_some(order),
                seed: (seed != 1234).then_some(seed),
                metric: run.get("metric")?.text()?,
            });
        }
        let mut experiment = Experiment {
            experiment: root.get("experiment")?.text()?,
            description: root.optional("description").map(|f| f.text()).transpose()?.unwrap_or_default(),
            source: root.optional("source").map(|f| f.text()).transpose()?,
            runs,
            compare: Vec::new(),
            swing: Vec::new(),
        };
        // Its names are checked as an experiment file's are (they name folders and rows): the runs
        // now, the comparisons and swings once read.
        experiment.check().map_err(|e| e.context(file))?;
        if experiment.runs.len() > MAX_SAVED_RUNS {
            return Err(root.get("runs")?.error(&format!("has more than {MAX_SAVED_RUNS} runs")));
        }
        let mut models = Vec::new();
        let listed = root.get("models")?.items()?;
        if listed.len() > MAX_SAVED_MODELS {
            return Err(root.get("models")?.error(&format!("has more than {MAX_SAVED_MODELS} models")));
        }
        for model in listed {
            let name = model.get("model")?.text()?;
            let mut results = ExperimentResults { runs: BTreeMap::new(), comparisons: Vec::new(), swings: Vec::new() };
            let by_run = model.get("runs")?;
            let by_run_map = by_run.value.as_object().ok_or_else(|| by_run.error("is not a table of runs"))?;
            for run_name in by_run_map.keys() {
                let run = by_run.get(run_name)?;
                if experiment.run(run_name).is_none() {
                    return Err(run.error("is not one of the runs"));
                }
                let summary = Summary {
                    n: run.get("n")?.count()?,
                    mean: run.get("accuracy")?.number()?,
                    stderr: run.optional("stderr").map(|f| f.number()).transpose()?,
                };
                results.runs.insert(run_name.clone(), summary);
            }
            for c in model.get("comparisons")?.items()? {
                let (a, b) = (c.get("a")?.text()?, c.get("b")?.text()?);
                let comparison = PairedComparison {
                    n: c.get("items")?.count()?,
                    accuracy_a: c.get("accuracy_a")?.number()?,
                    accuracy_b: c.get("accuracy_b")?.number()?,
                    difference: c.get("difference")?.number()?,
                    ci95: c.optional("ci95").map(|f| f.pair()).transpose()?,
                    both_right: c.get("both_right")?.count()?,
                    both_wrong: c.get("both_wrong")?.count()?,
                    only_a: c.get("only_a")?.count()?,
                    only_b: c.get("only_b")?.count()?,
                    mcnemar_p: c.get("mcnemar_p")?.number()?,
                };
                let pair = [a.clone(), b.clone()];
                if !experiment.compare.contains(&pair) {
                    experiment.compare.push(pair);
                }
                results.comparisons.push((a, b, comparison));
            }
            for w in model.get("swings")?.items()? {
                let swing_name = w.get("name")?.text()?;
                let runs = w.get("runs")?.items()?.iter().map(Field::text).collect::<Result<Vec<_>>>()?;
                let accuracies = w.get("accuracies")?.items()?.iter().map(Field::number).collect::<Result<Vec<_>>>()?;
                let swing = Swing {
                    accuracies,
                    swing: w.get("swing")?.number()?,
                    ci95: w.get("ci95")?.pair()?,
                    replicates: w.get("replicates")?.count()?,
                };
                if !experiment.swing.iter().any(|x| x.name == swing_name) {
                    experiment.swing.push(SwingSpec { name: swing_name.clone(), runs });
                }
                results.swings.push((swing_name, swing));
            }
            models.push((name, results));
        }
        experiment.check().map_err(|e| e.context(file))?;
        let sample = root.optional("sample").map(|f| f.value.clone());
        Ok(SavedSuite { experiment, sample, models })
    }

    /// The models and their results as `suite_json`, `chart_svg` and `summary_svg` take them.
    pub fn results(&self) -> Vec<(&str, &ExperimentResults)> {
        self.models.iter().map(|(m, r)| (m.as_str(), r)).collect()
    }
}

/// Cuts `text` to `max` characters, with "…" where it was cut (a picture's columns do not wrap).
fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        text.chars().take(max.saturating_sub(1)).chain(['…']).collect()
    }
}

/// Splits `text` into lines of at most `width` characters at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(cut(word, width)),
        }
    }
    lines
}

/// A suite on one page, as an SVG picture (the page's download and print, the CLI's
/// `suite_<NAME>_summary.svg`): the experiment, its models and sample, the chart, then each
/// run's accuracy, each comparison and each swing per model, in the catalogue's language.
pub fn summary_svg(
    experiment: &Experiment,
    results: &[(&str, &ExperimentResults)],
    sample: Option<&Value>,
    date: &str,
    words: &Catalogue,
) -> String {
    let points = |x: f64| words.number(100.0 * x, NumberStyle::Decimal(1));
    let interval = |(lo, hi): (f64, f64)| format!("{} – {}", points(lo), points(hi));
    let (chart_width, chart_height, chart_body) = chart(experiment, results);
    let several = results.len() > 1;
    // The model's column, when there are several, shifts the others right.
    let shift = if several { 126.0 } else { 0.0 };
    let width = chart_width.max(860.0 + shift);
    let row = 20.0;
    let mut body = String::new();
    let mut y = 34.0;
    body +=
        &text(24.0, y, "title", &words.text("suite-summary-title", &[("name", experiment.experiment.as_str().into())]));
    for line in wrap(&experiment.description, 100) {
        y += 20.0;
        body += &text(24.0, y, "muted", &line);
    }
    if let Some(source) = &experiment.source {
        for line in wrap(source, 100) {
            y += 18.0;
            body += &text(24.0, y, "muted", &line);
        }
    }
    let names: Vec<&str> = results.iter().map(|m| m.0).collect();
    y += 22.0;
    body += &text(
        24.0,
        y,
        "label",
        &words.text("suite-summary-models", &[("models", names.join(", ").into()), ("date", date.into())]),
    );
    if let Some(sample) = sample {
        let (n, seed) = (sample["size"].as_u64().unwrap_or(0), sample["seed"].as_u64().unwrap_or(0));
        y += 20.0;
        body += &text(
            24.0,
            y,
            "label",
            &words.text("suite-summary-sample", &[("n", Arg::Count(n)), ("seed", seed.to_string().into())]),
        );
    }
    y += 8.0;
    let _ = write!(body, "<g transform=\"translate(0 {y:.1})\" font-size=\"11\">\n{chart_body}</g>\n");
    y += chart_height;

    // A table as text at fixed columns: a heading, its column names, its rows.
    let mut table = |y: &mut f64, heading: &str, columns: &[(f64, String)], rows: Vec<Vec<String>>| {
        *y += 28.0;
        body += &text(24.0, *y, "heading", heading);
        *y += row;
        for (x, name) in columns {
            body += &text(*x, *y, "muted", name);
        }
        for cells in rows {
            *y += row;
            for ((x, _), cell) in columns.iter().zip(cells) {
                body += &text(*x, *y, "label", &cell);
            }
        }
    };
    let model_cell = |m: &str| if several { cut(m, 18) } else { String::new() };
    let (c0, c1, c2) = if several { (150.0, 250.0, 430.0) } else { (24.0, 130.0, 330.0) };
    let mut rows = Vec::new();
    for spec in &experiment.runs {
        for (model, r) in results {
            let Some(s) = r.runs.get(&spec.name) else { continue };
            let ci = s.ci95().map(|ci| format!(" ({})", interval(ci))).unwrap_or_default();
            rows.push(vec![
                model_cell(model),
                cut(&spec.name, 14),
                cut(&spec.describe(), 40),
                format!("{}{ci}", points(s.mean)),
                s.n.to_string(),
            ]);
        }
    }
    let model_column = if several { words.text("suite-col-model", &[]) } else { String::new() };
    table(
        &mut y,
        &words.text("suite-runs-heading", &[]),
        &[
            (24.0, model_column.clone()),
            (c0, words.text("suite-col-run", &[])),
            (c1, words.text("suite-col-task", &[])),
            (c2 + 150.0, words.text("suite-col-accuracy", &[])),
            (width - 60.0, words.text("suite-col-items", &[])),
        ],
        rows,
    );
    let mut rows = Vec::new();
    for (model, r) in results {
        for (a, b, c) in &r.comparisons {
            let ci = c.ci95.map(|ci| format!(" ({})", interval(ci))).unwrap_or_default();
            rows.push(vec![
                model_cell(model),
                cut(&format!("{b} − {a}"), 26),
                c.n.to_string(),
                format!("{}{ci}", points(c.difference)),
                format!("{} / {}", c.only_a, c.only_b),
                if c.mcnemar_p < 0.001 {
                    format!("< {}", words.number(0.001, NumberStyle::Decimal(3)))
                } else {
                    words.number(c.mcnemar_p, NumberStyle::Decimal(3))
                },
            ]);
        }
    }
    if !rows.is_empty() {
        table(
            &mut y,
            &words.text("suite-comparisons-heading", &[]),
            &[
                (24.0, model_column.clone()),
                (c0, words.text("suite-col-pair", &[])),
                (shift + 230.0, words.text("suite-col-items", &[])),
                (shift + 290.0, words.text("suite-col-difference", &[])),
                (shift + 530.0, words.text("suite-col-flips", &[])),
                (shift + 730.0, words.text("suite-col-p", &[])),
            ],
            rows,
        );
    }
    let mut rows = Vec::new();
    for (model, r) in results {
        for (name, s) in &r.swings {
            let runs = experiment.swing.iter().find(|x| &x.name == name).map(|x| x.runs.join(", ")).unwrap_or_default();
            rows.push(vec![
                model_cell(model),
                cut(name, 14),
                cut(&runs, 40),
                format!("{} ({})", points(s.swing), interval(s.ci95)),
            ]);
        }
    }
    if !rows.is_empty() {
        table(
            &mut y,
            &words.text("suite-swings-heading", &[]),
            &[
                (24.0, model_column),
                (c0, words.text("suite-col-swing-name", &[])),
                (c1, words.text("suite-col-swing-runs", &[])),
                (c2 + 150.0, words.text("suite-col-swing", &[])),
            ],
            rows,
        );
    }
    y += 30.0;
    body += &text(24.0, y, "muted", "lingualens");
    let name = xml_escape(&experiment.experiment);
    document(width, y + 16.0, &format!("data-experiment=\"{name}\""), &body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::run::tests::{item, row};

    const EXPERIMENT: &str = "experiment: x\nruns:\n  - {name: given, task: t}\n  - {name: last, task: t, order: gold-last, shots: 2}\ncompare:\n  - [given, last]\n";

    fn run_of(settings: RunSettings, lls: &[[f64; 3]]) -> Run {
        let items = (0..lls.len()).map(|i| item(i, "en", 0)).collect();
        let mut run = Run::new("m", "t", "f", settings, items);
        for (i, l) in lls.iter().enumerate() {
            run.record(row(i, *l, 0));
        }
        run
    }

    const ORDERS: &str = "experiment: orders\ndescription: The same items, the gold answer moved.\nruns:\n  - {name: given, task: t}\n  - {name: first, task: t, order: gold-first, seed: 9}\n  - {name: last, task: t, order: gold-last, shots: 2}\ncompare:\n  - [given, first]\n  - [given, last]\nswing:\n  - {name: orders, runs: [given, first, last]}\n";

    /// Two models' results on `ORDERS` over 20 items, their verdicts a fixed pattern.
    fn two_models(e: &Experiment) -> (ExperimentResults, ExperimentResults) {
        let of = |k: u64| -> BTreeMap<String, BTreeMap<u64, bool>> {
            e.runs
                .iter()
                .enumerate()
                .map(|(r, spec)| {
                    (spec.name.clone(), (0..20).map(|i| (i, !(i * (r as u64 + k)).is_multiple_of(3))).collect())
                })
                .collect()
        };
        (e.results(&of(1)).unwrap(), e.results(&of(2)).unwrap())
    }

    #[test]
    fn a_saved_table_reads_back_as_the_same_table_and_a_bad_field_is_named() {
        let e = Experiment::parse("orders.yaml", ORDERS).unwrap();
        let (r1, r2) = two_models(&e);
        let table = suite_json(&e, &[("m1", &r1), ("m2", &r2)], Some(json!({"size": 20, "seed": 7})));
        let text = serde_json::to_string_pretty(&table).unwrap();
        let saved = SavedSuite::read("suite_orders.json", &text).unwrap();
        assert_eq!(saved.models, vec![("m1".to_string(), r1), ("m2".to_string(), r2)]);
        assert_eq!(saved.experiment.swing, e.swing);
        assert_eq!(saved.experiment.compare, e.compare);
        assert_eq!(suite_json(&saved.experiment, &saved.results(), saved.sample.clone()), table);

        let broken = |path: &[&str], value: Value| {
            let mut t = table.clone();
            let mut at = &mut t;
            for key in &path[..path.len() - 1] {
                at = match key.parse::<usize>() {
                    Ok(i) => &mut at[i],
                    Err(_) => &mut at[*key],
                };
            }
            at[path[path.len() - 1]] = value;
            SavedSuite::read("suite_orders.json", &t.to_string()).unwrap_err().to_string()
        };
        let e1 = broken(&["models", "0", "runs", "given", "accuracy"], json!("high"));
        assert!(e1.contains("suite_orders.json: `$.models[0].runs.given.accuracy` is not a number"), "{e1}");
        let e2 = broken(&["models", "1", "comparisons", "0", "a"], json!("elsewhere"));
        assert!(e2.contains("suite_orders.json") && e2.contains("`elsewhere`, which is not one of the runs"), "{e2}");
        let e3 = broken(&["runs", "0", "name"], json!("../../x"));
        assert!(e3.contains("must be 1-64 letters"), "{e3}");
        let e4 = broken(&["experiment"], json!("<b>"));
        assert!(e4.contains("experiment \"<b>\""), "{e4}");
        let e5 = broken(&["models", "0", "swings", "0", "ci95"], json!([0.1]));
        assert!(e5.contains("`$.models[0].swings[0].ci95` is not a pair of numbers"), "{e5}");
        let mut t = table.clone();
        t.as_object_mut().unwrap().remove("models");
        let e6 = SavedSuite::read("f.json", &t.to_string()).unwrap_err().to_string();
        assert!(e6.contains("f.json: `$` has no `models`"), "{e6}");
        let e7 = SavedSuite::read("f.json", "{\"experiment\": ").unwrap_err().to_string();
        assert!(e7.contains("f.json: not a suite table"), "{e7}");
        let mut t = table.clone();
        t["models"] = Value::Array(vec![table["models"][0].clone(); MAX_SAVED_MODELS + 1]);
        let e8 = SavedSuite::read("f.json", &t.to_string()).unwrap_err().to_string();
        assert!(e8.contains("more than 100 models"), "{e8}");
    }

    #[test]
    fn the_summary_picture_holds_every_run_comparison_and_swing_of_every_model_escaped() {
        let e = Experiment::parse("orders.yaml", ORDERS).unwrap();
        let (r1, r2) = two_models(&e);
        let words = Catalogue::new("en").unwrap();
        let sample = json!({"size": 20, "seed": 7});
        let svg = summary_svg(&e, &[("m1", &r1), ("<m&2>", &r2)], Some(&sample), "2026-12-05", &words);
        assert!(svg.starts_with("<svg ") && svg.trim_end().ends_with("</svg>"), "{svg}");
        assert!(svg.contains("&lt;m&amp;2&gt;") && !svg.contains("<m&2>"), "a model's name is escaped");
        for needle in [
            "lingualens · experiment orders",
            "The same items, the gold answer moved.",
            "Every run scored the same 20 documents, drawn at random with seed 7.",
            "Runs",
            "Comparisons, item by item",
            "first − given",
            "last − given",
            "Swings: largest minus smallest accuracy",
            "given, first, last",
            "t, gold-first, seed 9",
        ] {
            assert!(svg.contains(&xml_escape(needle)), "{needle:?} in {svg}");
        }
        // Each model's accuracy of each run, as the table says it (one decimal of a percent).
        for r in [&r1, &r2] {
            for s in r.runs.values() {
                assert!(svg.contains(&format!(">{:.1}", 100.0 * s.mean)), "{} in the picture", s.mean);
            }
        }
        // One row per model and run, per model and comparison, per model and swing, plus the chart's bars.
        assert_eq!(svg.matches(">m1<").count(), 3 + 2 + 1 + 1, "{svg}");
        assert_eq!(svg.matches("<rect").count(), 1 + 6 + 2, "the page, a bar per model and run, the legend");
    }

    #[test]
    fn runs_are_taken_in_turn_only_when_they_are_the_run_under_way_and_whole() {
        let e = Experiment::parse("x.yaml", EXPERIMENT).unwrap();
        let mut p = SuiteProgress::new(&e, "demo", Some(3), None);
        // A sample: one seed for every run, whatever the runs' own seeds.
        let sampled = SuiteProgress::new(&e, "demo", None, Some((20, 7)));
        for spec in &e.runs {
            let s = sampled.settings(spec);
            assert_eq!((s.sample, s.sample_seed(), s.seed), (Some(20), 7, 1234));
        }
        assert_eq!(sampled.sample_json(), Some(json!({"size": 20, "seed": 7})));
        let given = p.settings(p.current(&e).unwrap());
        assert_eq!((given.order.as_str(), given.shots, given.limit, given.seed), ("given", None, Some(3), 1234));
        let (right, wrong) = ([-1.0, -2.0, -3.0], [-3.0, -1.0, -2.0]);
        // Half a run, or another run's settings, is not taken.
        let mut half = run_of(given.clone(), &[right]);
        half.items.push(item(1, "en", 0));
        assert!(!p.finish(&e, &half));
        let mut other = given.clone();
        other.seed = 9;
        assert!(!p.finish(&e, &run_of(other, &[right, wrong])));
        assert!(p.finish(&e, &run_of(given, &[right, wrong])));
        assert_eq!(p.next, 1);
        // The comparison waits for both runs.
        assert!(p.results(&e).unwrap().comparisons.is_empty());
        let last = p.settings(p.current(&e).unwrap());
        assert_eq!((last.order.as_str(), last.shots), ("gold-last", Some(2)));
        // Through the page's storage and back: nothing lost.
        let back: SuiteProgress = serde_json::from_str(&serde_json::to_string(&p).unwrap()).unwrap();
        assert_eq!(back, p);
        assert!(p.finish(&e, &run_of(last, &[wrong, wrong])));
        assert!(p.done(&e) && p.current(&e).is_none());
        let r = p.results(&e).unwrap();
        let (_, _, c) = &r.comparisons[0];
        assert_eq!((c.n, c.only_a, c.only_b, c.both_wrong), (2, 1, 0, 1));
        let svg = chart_svg(&e, &[("demo", &r)]);
        let table = suite_json(&e, &[("demo", &r)], None);
        assert_eq!(table["models"][0]["comparisons"][0]["only_a"], 1, "{table}");
        assert!(svg.starts_with("<svg") && svg.contains(">last<") && svg.contains("demo"), "{svg}");
    }
}
