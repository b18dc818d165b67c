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

use super::protocol::RunSettings;
use super::run::Run;
use crate::tasks::experiment::{Experiment, ExperimentResults, RunSpec, SWING_SEED};

/// A suite under way, or finished, as the page keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SuiteProgress {
    pub experiment: String,
    /// The model the suite runs on (the page's model id).
    pub model: String,
    /// The controls' limit and sample when the suite started: the same for every run.
    pub limit: Option<usize>,
    pub sample: Option<usize>,
    /// The run under way (its index in the experiment); the number of runs once all are done.
    pub next: usize,
    /// Each finished run's verdict per item position.
    pub verdicts: BTreeMap<String, BTreeMap<u64, bool>>,
}

impl SuiteProgress {
    pub fn new(experiment: &Experiment, model: &str, limit: Option<usize>, sample: Option<usize>) -> SuiteProgress {
        SuiteProgress {
            experiment: experiment.experiment.clone(),
            model: model.to_string(),
            limit,
            sample,
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

    /// The comparison over the runs finished so far.
    pub fn results(&self, experiment: &Experiment) -> crate::error::Result<ExperimentResults> {
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
                .map(|(name, s)| json!({"name": name, "accuracies": s.accuracies, "swing": s.swing, "ci95": [s.ci95.0, s.ci95.1], "replicates": s.replicates, "seed": SWING_SEED}))
                .collect();
            json!({"model": m.0, "runs": runs, "comparisons": comparisons, "swings": swings})
        })
        .collect();
    json!({"experiment": experiment.experiment, "description": experiment.description, "source": experiment.source,
           "sample": sample, "runs": runs, "models": models})
}

fn xml(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

fn percent(x: f64) -> String {
    format!("{:.1}", 100.0 * x)
}

/// Each run's accuracy per model as a bar with its 95 % interval as a whisker.
pub fn chart_svg(experiment: &Experiment, results: &[(&str, &ExperimentResults)]) -> String {
    let (bar, gap, left, top, height) = (18.0, 14.0, 48.0, 40.0, 220.0);
    let group = bar * results.len() as f64 + gap;
    let width = left + group * experiment.runs.len() as f64 + 20.0;
    let y = |v: f64| top + height * (1.0 - v.clamp(0.0, 1.0));
    let colours = ["#3b6ea5", "#d08c2c", "#4c9a5b", "#a8473f", "#7a5aa6", "#5f6b73"];
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{:.0}\" font-family=\"sans-serif\" font-size=\"11\">\n<title>{}</title>\n<text x=\"{left}\" y=\"18\" font-size=\"13\">{}</text>\n",
        top + height + 50.0 + 14.0 * results.len() as f64,
        xml(&experiment.experiment),
        xml(&experiment.experiment)
    );
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
                xml(m.0),
                xml(&run.name),
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
            xml(&run.name)
        );
    }
    for (j, m) in results.iter().enumerate() {
        let _ = writeln!(
            s,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"10\" height=\"10\" fill=\"{}\"/><text x=\"{:.1}\" y=\"{:.1}\">{}</text>",
            width - 160.0,
            top + height + 36.0 + 14.0 * j as f64,
            colours[j % colours.len()],
            width - 146.0,
            top + height + 45.0 + 14.0 * j as f64,
            xml(m.0)
        );
    }
    s += "</svg>\n";
    s
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

    #[test]
    fn runs_are_taken_in_turn_only_when_they_are_the_run_under_way_and_whole() {
        let e = Experiment::parse("x.yaml", EXPERIMENT).unwrap();
        let mut p = SuiteProgress::new(&e, "demo", Some(3), None);
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
