//! Experiments as data (`datasets/experiments/*.yaml`): a paper's finding is a comparison, so an
//! experiment names several runs over the same documents (tasks, shots, choice orders, seeds) and
//! what to compare: pairs of runs (the paired difference and exact McNemar test of
//! `scoring::paired`) and sets of runs whose spread is the finding (the swing).
//!
//! ```yaml
//! experiment: dzen_language_gap
//! description: The same DZEN questions in English, in Dzongkha, and in Dzongkha with the English appended.
//! runs:
//!   - {name: en, task: dzen_en_cloze}
//!   - {name: dz, task: dzen_dz_cloze}
//! compare:
//!   - [en, dz]            # B − A: dz − en
//! swing:
//!   - {name: languages, runs: [en, dz]}
//! ```
//!
//! A run is one `lingualens eval`: `task` (a built-in task's name or a file), and optionally
//! `shots`, `order` (`given`, `gold-first`, `gold-last`, `shuffle:1`, … one order per item, so that
//! runs compare item by item), `seed`, and `metric` (the per-item 0/1 metric compared; default
//! `acc`). Every key is checked: an unknown key, a repeated or unsafe run name, a comparison naming
//! no run, or an order with several variants per item is refused by name.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::error::{Error, Result};
use crate::scoring::aggregate::Summary;
use crate::scoring::paired::{paired_comparison, swing, PairedComparison, Swing};

/// Bootstrap replicates and seed of a swing's interval (Python's `random.Random(1234)`).
pub const SWING_REPLICATES: usize = 2000;
pub const SWING_SEED: u64 = 1234;

/// The shipped experiments (`datasets/experiments/*.yaml`) as `build.rs` wrote them: JSON, so that
/// the page, which offers them, links no YAML parser.
const BUILTIN_JSON: &str = include_str!(concat!(env!("OUT_DIR"), "/experiments.json"));

/// The shipped experiments, each read and checked as `Experiment::parse` checks a file.
pub fn builtin_all() -> Result<Vec<Experiment>> {
    let experiments: Vec<Experiment> = serde_json::from_str(BUILTIN_JSON)
        .map_err(|e| Error::new(format!("datasets/experiments: not an experiment: {e}")))?;
    for e in &experiments {
        e.check().map_err(|err| err.context(format!("datasets/experiments/{}.yaml", e.experiment)))?;
    }
    Ok(experiments)
}

/// A shipped experiment by name.
pub fn builtin(name: &str) -> Option<Result<Experiment>> {
    match builtin_all() {
        Ok(all) => all.into_iter().find(|e| e.experiment == name).map(Ok),
        Err(e) => Some(Err(e)),
    }
}

/// One model's results over an experiment's runs (the CLI's `suite` table, the page's).
#[derive(Debug, Clone, PartialEq)]
pub struct ExperimentResults {
    pub runs: BTreeMap<String, Summary>,
    /// `(A, B, comparison)` in the experiment's order.
    pub comparisons: Vec<(String, String, PairedComparison)>,
    pub swings: Vec<(String, Swing)>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Experiment {
    pub experiment: String,
    #[serde(default)]
    pub description: String,
    /// Where the experiment comes from (a paper and its table or section).
    #[serde(default)]
    pub source: Option<String>,
    pub runs: Vec<RunSpec>,
    /// Pairs of run names `[A, B]`: the difference is B − A.
    #[serde(default)]
    pub compare: Vec<[String; 2]>,
    #[serde(default)]
    pub swing: Vec<SwingSpec>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunSpec {
    /// The run's name: its folder under the suite's output, and how comparisons name it.
    pub name: String,
    pub task: String,
    #[serde(default)]
    pub shots: Option<usize>,
    /// One choice order per item (`given` when absent).
    #[serde(default)]
    pub order: Option<String>,
    /// The few-shot sampler's and the shuffle's seed (lm-eval's 1234 when absent).
    #[serde(default)]
    pub seed: Option<u64>,
    /// The per-item metric compared, 0 or 1 per sample.
    #[serde(default = "default_metric")]
    pub metric: String,
}

fn default_metric() -> String {
    "acc".to_string()
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SwingSpec {
    pub name: String,
    pub runs: Vec<String>,
}

impl RunSpec {
    /// "task, 5-shot, gold-last, seed 2": what the run is, as the CLI's progress and the page's table say.
    pub fn describe(&self) -> String {
        let mut parts = vec![self.task.clone()];
        if let Some(k) = self.shots {
            parts.push(format!("{k}-shot"));
        }
        if let Some(o) = &self.order {
            parts.push(o.clone());
        }
        if let Some(s) = self.seed {
            parts.push(format!("seed {s}"));
        }
        if self.metric != "acc" {
            parts.push(self.metric.clone());
        }
        parts.join(", ")
    }
}

impl Experiment {
    /// Reads and checks an experiment file's text; `file` names it in messages.
    pub fn parse(file: &str, text: &str) -> Result<Experiment> {
        let experiment: Experiment =
            serde_yaml_ng::from_str(text).map_err(|e| Error::new(format!("{file}: not an experiment: {e}")))?;
        experiment.check().map_err(|e| e.context(file))?;
        Ok(experiment)
    }

    /// Each run's accuracy, each comparison and each swing, from the runs' verdicts per item
    /// (`by_run[run][item]`). A comparison or swing is over the items every run in it has; one
    /// naming a run not in `by_run` (a suite still under way) is left out.
    pub fn results<K: Ord>(&self, by_run: &BTreeMap<String, BTreeMap<K, bool>>) -> Result<ExperimentResults> {
        let mut runs = BTreeMap::new();
        for spec in &self.runs {
            let Some(v) = by_run.get(&spec.name) else { continue };
            let values: Vec<f64> = v.values().map(|&ok| f64::from(u8::from(ok))).collect();
            if let Some(summary) = Summary::of(&values) {
                runs.insert(spec.name.clone(), summary);
            }
        }
        // The verdicts of `names` on the items all of them have, in key order; `None` if one is missing.
        let common = |names: &[&String]| -> Option<Vec<Vec<bool>>> {
            let maps: Vec<&BTreeMap<K, bool>> = names.iter().map(|n| by_run.get(*n)).collect::<Option<_>>()?;
            let keys: Vec<&K> = maps[0].keys().filter(|k| maps.iter().all(|m| m.contains_key(*k))).collect();
            Some(maps.iter().map(|m| keys.iter().map(|k| m[*k]).collect()).collect())
        };
        let mut comparisons = Vec::new();
        for [a, b] in &self.compare {
            let Some(v) = common(&[a, b]) else { continue };
            let c = paired_comparison(&v[0], &v[1]).map_err(|e| e.context(format!("compare [{a}, {b}]")))?;
            comparisons.push((a.clone(), b.clone(), c));
        }
        let mut swings = Vec::new();
        for s in &self.swing {
            let names: Vec<&String> = s.runs.iter().collect();
            let Some(v) = common(&names) else { continue };
            let result =
                swing(&v, SWING_REPLICATES, SWING_SEED).map_err(|e| e.context(format!("swing `{}`", s.name)))?;
            swings.push((s.name.clone(), result));
        }
        Ok(ExperimentResults { runs, comparisons, swings })
    }

    /// The run named `name`.
    pub fn run(&self, name: &str) -> Option<&RunSpec> {
        self.runs.iter().find(|r| r.name == name)
    }

    /// The checks `parse` makes: run names safe as folder names and unique, one order per item,
    /// comparisons and swings naming runs.
    pub fn check(&self) -> Result<()> {
        let safe = |name: &str| {
            !name.is_empty()
                && name.len() <= 64
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        };
        if !safe(&self.experiment) {
            return Err(Error::new(format!(
                "experiment {:?}: a name must be 1-64 letters, digits, `_` or `-` (it names the suite's files)",
                self.experiment
            )));
        }
        if self.runs.is_empty() {
            return Err(Error::new("an experiment needs at least one run"));
        }
        for (i, run) in self.runs.iter().enumerate() {
            if !safe(&run.name) {
                return Err(Error::new(format!(
                    "run {}: name {:?} must be 1-64 letters, digits, `_` or `-` (it names a folder)",
                    i + 1,
                    run.name
                )));
            }
            if self.runs[..i].iter().any(|r| r.name == run.name) {
                return Err(Error::new(format!("run name `{}` appears twice", run.name)));
            }
            if let Some(order) = &run.order {
                let one_per_item = matches!(order.as_str(), "given" | "gold-first" | "gold-last" | "shuffle:1");
                if !one_per_item {
                    return Err(Error::new(format!(
                        "run `{}`: order `{order}` gives several variants per item; a run compared item by item takes one (given, gold-first, gold-last, shuffle:1 with a seed)",
                        run.name
                    )));
                }
            }
        }
        let known = |name: &str, what: &str| -> Result<()> {
            match self.run(name) {
                Some(_) => Ok(()),
                None => Err(Error::new(format!("{what} names `{name}`, which is not one of the runs"))),
            }
        };
        for [a, b] in &self.compare {
            known(a, "compare")?;
            known(b, "compare")?;
        }
        for swing in &self.swing {
            if swing.runs.len() < 2 {
                return Err(Error::new(format!("swing `{}` needs two runs or more", swing.name)));
            }
            for r in &swing.runs {
                known(r, &format!("swing `{}`", swing.name))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "experiment: x\nruns:\n  - {name: a, task: t}\n  - {name: b, task: t, order: gold-first, shots: 5}\ncompare:\n  - [a, b]\nswing:\n  - {name: orders, runs: [a, b]}\n";

    #[test]
    fn a_good_experiment_reads_with_its_defaults() {
        let e = Experiment::parse("x.yaml", GOOD).unwrap();
        assert_eq!(e.runs.len(), 2);
        assert_eq!(e.runs[0].metric, "acc");
        assert_eq!(e.run("b").unwrap().shots, Some(5));
        assert_eq!(e.compare, vec![["a".to_string(), "b".to_string()]]);
    }

    #[test]
    fn every_mistake_is_refused_by_name() {
        for (text, says) in [
            (GOOD.replace("swing:", "swimg:"), "swimg"),
            (GOOD.replace("[a, b]\nswing", "[a, c]\nswing"), "`c`"),
            (GOOD.replace("{name: b,", "{name: a,"), "appears twice"),
            (GOOD.replace("{name: b,", "{name: ../b,"), "names a folder"),
            (GOOD.replace("gold-first", "rotations"), "several variants"),
            (GOOD.replace("runs: [a, b]}", "runs: [a]}"), "two runs or more"),
            ("experiment: x\nruns: []\n".to_string(), "at least one run"),
        ] {
            let error = Experiment::parse("x.yaml", &text).unwrap_err().to_string();
            assert!(error.contains("x.yaml") && error.contains(says), "{says}: {error}");
        }
    }

    #[test]
    fn results_cover_the_runs_at_hand_and_compare_on_common_items() {
        let e = Experiment::parse("x.yaml", GOOD).unwrap();
        let a: BTreeMap<u32, bool> = [(1, true), (2, false), (3, true)].into_iter().collect();
        let b: BTreeMap<u32, bool> = [(1, false), (2, false), (4, true)].into_iter().collect();
        let only_a = BTreeMap::from([("a".to_string(), a.clone())]);
        let partial = e.results(&only_a).unwrap();
        assert_eq!((partial.runs.len(), partial.comparisons.len(), partial.swings.len()), (1, 0, 0));
        let both = BTreeMap::from([("a".to_string(), a), ("b".to_string(), b)]);
        let r = e.results(&both).unwrap();
        let (_, _, c) = &r.comparisons[0];
        // Items 1 and 2 are in both: item 1 right in A only.
        assert_eq!((c.n, c.only_a, c.only_b, c.both_wrong), (2, 1, 0, 1));
        assert_eq!(r.runs["a"].n, 3);
        assert_eq!(r.swings[0].1.accuracies, vec![0.5, 0.0]);
    }

    #[test]
    fn the_built_in_list_reads() {
        let all = builtin_all().unwrap();
        assert!(all.len() >= 8, "{}", all.len());
        for e in &all {
            assert_eq!(builtin(&e.experiment).unwrap().unwrap(), *e);
        }
        assert!(builtin("nope").is_none());
    }
}
