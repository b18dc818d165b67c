//! Every metric lingualens computes, in one table: its name as lm-evaluation-harness spells it in a
//! task's `metric_list`, the output types it applies to, how its per-sample values are aggregated
//! and whether higher is better. Task validation (a metric no entry names is warned about), the
//! metrics a run logs per sample, and the aggregation into the results file all read this table,
//! so they cannot disagree.

use super::aggregate::CorpusMetric;

/// How a metric's per-sample values become the run's value (lm-eval's `aggregation`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aggregation {
    /// The mean, with the standard error of the mean.
    Mean,
    /// `exp(-mean(log-likelihood))`, with a bootstrap standard error.
    Perplexity,
    /// A corpus score over every (response, references) pair, with lm-eval's bootstrap standard error.
    Corpus(CorpusMetric),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Metric {
    pub name: &'static str,
    /// lm-eval's `output_type`s the metric is computed for.
    pub output_types: &'static [&'static str],
    pub aggregation: Aggregation,
    pub higher_is_better: bool,
}

const MC: &str = "multiple_choice";
const LL: &str = "loglikelihood";
const GEN: &str = "generate_until";

/// In the order lm-eval logs a multiple-choice or loglikelihood sample's metrics (its
/// `process_results` dict order); a `generate_until` task logs its `metric_list` order instead.
pub const METRICS: &[Metric] = &[
    Metric { name: "perplexity", output_types: &[LL], aggregation: Aggregation::Perplexity, higher_is_better: false },
    Metric { name: "acc", output_types: &[MC, LL], aggregation: Aggregation::Mean, higher_is_better: true },
    Metric { name: "acc_norm", output_types: &[MC], aggregation: Aggregation::Mean, higher_is_better: true },
    Metric { name: "acc_bytes", output_types: &[MC], aggregation: Aggregation::Mean, higher_is_better: true },
    Metric { name: "exact_match", output_types: &[MC, GEN], aggregation: Aggregation::Mean, higher_is_better: true },
    Metric { name: "acc_mutual_info", output_types: &[MC], aggregation: Aggregation::Mean, higher_is_better: true },
    Metric {
        name: "bleu",
        output_types: &[GEN],
        aggregation: Aggregation::Corpus(CorpusMetric::Bleu),
        higher_is_better: true,
    },
    Metric {
        name: "chrf",
        output_types: &[GEN],
        aggregation: Aggregation::Corpus(CorpusMetric::Chrf),
        higher_is_better: true,
    },
    Metric {
        name: "ter",
        output_types: &[GEN],
        aggregation: Aggregation::Corpus(CorpusMetric::Ter),
        higher_is_better: false,
    },
];

/// lm-eval's metrics for a task without a `metric_list`.
pub fn defaults(output_type: &str) -> &'static [&'static str] {
    match output_type {
        MC => &["acc", "acc_norm"],
        LL => &["perplexity", "acc"],
        _ => &["exact_match"],
    }
}

pub fn find(name: &str) -> Option<&'static Metric> {
    METRICS.iter().find(|m| m.name == name)
}

/// Why `name` cannot be computed for a task of `output_type`, or `None` when it can.
pub fn unsupported(name: &str, output_type: &str) -> Option<String> {
    match find(name) {
        None => Some(format!("metric `{name}` is not one lingualens computes")),
        Some(m) if !m.output_types.contains(&output_type) => {
            Some(format!("metric `{name}` applies to {} tasks, not {output_type}", m.output_types.join(" and ")))
        }
        Some(_) => None,
    }
}

/// The metrics a task of `output_type` logs and reports, given the names in its `metric_list`
/// (empty: lm-eval's defaults): those this table computes for the type, in lm-eval's order.
pub fn for_task<'a>(output_type: &str, metric_list: impl IntoIterator<Item = &'a str>) -> Vec<&'static str> {
    let asked: Vec<&str> = metric_list.into_iter().collect();
    if asked.is_empty() {
        return defaults(output_type).to_vec();
    }
    let computed = |name: &str| find(name).filter(|m| m.output_types.contains(&output_type)).map(|m| m.name);
    if output_type == GEN {
        return asked.into_iter().filter_map(computed).collect();
    }
    METRICS
        .iter()
        .filter(|m| m.output_types.contains(&output_type) && asked.contains(&m.name))
        .map(|m| m.name)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_output_type_has_its_defaults_in_the_table() {
        for t in [MC, LL, GEN] {
            for name in defaults(t) {
                assert_eq!(unsupported(name, t), None, "{name} for {t}");
            }
        }
    }

    #[test]
    fn a_task_logs_what_it_asks_for_in_lm_evals_order() {
        assert_eq!(for_task(MC, ["acc_mutual_info", "acc"]), ["acc", "acc_mutual_info"]);
        assert_eq!(for_task(LL, ["acc", "perplexity"]), ["perplexity", "acc"]);
        assert_eq!(for_task(GEN, ["chrf", "exact_match", "perplexity"]), ["chrf", "exact_match"]);
        assert_eq!(for_task(LL, []), ["perplexity", "acc"]);
        assert!(unsupported("perplexity", LL).is_none());
        assert!(unsupported("perplexity", MC).unwrap().contains("loglikelihood"));
        assert!(unsupported("f1", GEN).unwrap().contains("not one lingualens computes"));
    }
}
