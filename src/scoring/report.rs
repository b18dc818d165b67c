//! The end-of-run report: every metric with its standard error, the same broken down by every
//! metadata field (language, subject, grade, …), the position bias of a multiple-choice run, the
//! share of documents answered right in every choice order of a variant run, and the tokenizer's
//! fertility by language. Built from one [`Row`] per sample, so a resumed run reports on the samples
//! already logged too; [`Report::text`] is the table the CLI prints.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use crate::error::Result;
use crate::scoring::aggregate::{
    breakdown_by_metadata, corpus_breakdown_by_metadata, CorpusMetric, CorpusSummary, Pair, Summary,
};
use crate::scoring::bias::{position_bias, PositionStats};
use crate::scoring::fertility::Fertility;
use crate::scoring::outputs::MetricResult;

/// One sample as the report sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub doc_id: u64,
    pub variant: usize,
    /// The item's id (`dzen/10th-Biology/28/en`), else the document id.
    pub item_id: String,
    /// Per-item values of the metrics that are means (`acc`, `exact_match,none`, …).
    pub values: Vec<(String, f64)>,
    /// Multiple choice: `(gold, predicted, number of options)` by log-likelihood (`acc`'s prediction).
    pub choice: Option<(usize, usize, usize)>,
    /// Text columns for the per-sample CSV (`response,none`, `loglikelihoods`, `permutation`, …).
    pub texts: Vec<(String, String)>,
    /// The fields to break results down by, e.g. `language`, `subject`, `grade`.
    pub metadata: BTreeMap<String, String>,
}

/// A corpus metric's (hypothesis, references) per row, for its breakdown.
#[derive(Debug, Clone)]
pub struct CorpusInput {
    /// The name in the table (`chrf,none`).
    pub label: String,
    pub metric: CorpusMetric,
    /// One per row, in row order.
    pub pairs: Vec<Pair>,
}

#[derive(Debug, Clone)]
pub struct Report {
    /// The run's metrics as written to the results JSON.
    pub metrics: Vec<MetricResult>,
    /// field → value → metric → summary.
    pub breakdown: BTreeMap<String, BTreeMap<String, Vec<(String, Summary)>>>,
    /// field → value → corpus metric → score.
    pub corpus_breakdown: BTreeMap<String, BTreeMap<String, Vec<(String, CorpusSummary)>>>,
    pub bias: Option<Vec<PositionStats>>,
    /// With several choice orders per document: (documents right in every order, documents).
    pub consistency: Option<(usize, usize)>,
    pub fertility: BTreeMap<String, Fertility>,
}

impl Report {
    pub fn build(
        metrics: Vec<MetricResult>,
        rows: &[Row],
        corpus: &[CorpusInput],
        fertility: BTreeMap<String, Fertility>,
    ) -> Result<Report> {
        let metadata: Vec<&BTreeMap<String, String>> = rows.iter().map(|r| &r.metadata).collect();
        let mut breakdown: BTreeMap<String, BTreeMap<String, Vec<(String, Summary)>>> = BTreeMap::new();
        let names: Vec<String> =
            rows.first().map(|r| r.values.iter().map(|(n, _)| n.clone()).collect()).unwrap_or_default();
        for name in &names {
            let values: Vec<f64> =
                rows.iter().map(|r| r.values.iter().find(|(n, _)| n == name).map_or(f64::NAN, |(_, v)| *v)).collect();
            for (field, by_value) in breakdown_by_metadata(&values, &metadata)? {
                for (value, s) in by_value {
                    breakdown.entry(field.clone()).or_default().entry(value).or_default().push((name.clone(), s));
                }
            }
        }
        let mut corpus_breakdown: BTreeMap<String, BTreeMap<String, Vec<(String, CorpusSummary)>>> = BTreeMap::new();
        for c in corpus {
            for (field, by_value) in corpus_breakdown_by_metadata(
                c.metric,
                &c.pairs,
                &metadata,
                crate::scoring::aggregate::DEFAULT_BOOTSTRAP_ITERS,
            )? {
                for (value, s) in by_value {
                    corpus_breakdown
                        .entry(field.clone())
                        .or_default()
                        .entry(value)
                        .or_default()
                        .push((c.label.clone(), s));
                }
            }
        }
        let choices: Vec<(usize, usize, usize)> = rows.iter().filter_map(|r| r.choice).collect();
        let bias = if choices.is_empty() { None } else { Some(position_bias(&choices)?) };
        let consistency = if rows.iter().any(|r| r.variant > 0) {
            let mut by_doc: BTreeMap<u64, bool> = BTreeMap::new();
            for r in rows {
                let right = r.choice.is_some_and(|(g, p, _)| g == p);
                *by_doc.entry(r.doc_id).or_insert(true) &= right;
            }
            Some((by_doc.values().filter(|&&b| b).count(), by_doc.len()))
        } else {
            None
        };
        Ok(Report { metrics, breakdown, corpus_breakdown, bias, consistency, fertility })
    }

    /// The summary table, as plain text.
    pub fn text(&self, task: &str, n_samples: usize) -> String {
        let mut out = String::new();
        let se = |s: Option<f64>| s.map_or("N/A".to_string(), |s| format!("{s:.4}"));
        let _ = writeln!(out, "{task}: {n_samples} samples");
        let _ = writeln!(out, "  {:<24} {:>10}   {:>8}", "metric,filter", "value", "± stderr");
        for m in &self.metrics {
            let _ =
                writeln!(out, "  {:<24} {:>10.4} ± {:>8}", format!("{},{}", m.name, m.filter), m.value, se(m.stderr));
        }
        for (field, by_value) in &self.breakdown {
            let _ = writeln!(out, "\nby {field}:");
            for (value, metrics) in by_value {
                let cells: Vec<String> =
                    metrics.iter().map(|(n, s)| format!("{n} {:.4} ± {}", s.mean, se(s.stderr))).collect();
                let n = metrics.first().map_or(0, |(_, s)| s.n);
                let _ = writeln!(out, "  {value:<20} n={n:<5} {}", cells.join("   "));
            }
        }
        for (field, by_value) in &self.corpus_breakdown {
            let _ = writeln!(out, "\nby {field} (corpus scores):");
            for (value, metrics) in by_value {
                let cells: Vec<String> =
                    metrics.iter().map(|(n, s)| format!("{n} {:.2} ± {}", s.score, se(s.stderr))).collect();
                let n = metrics.first().map_or(0, |(_, s)| s.n);
                let _ = writeln!(out, "  {value:<20} n={n:<5} {}", cells.join("   "));
            }
        }
        if let Some(bias) = &self.bias {
            let _ = writeln!(out, "\nposition bias (option A = position 0):");
            let _ = writeln!(
                out,
                "  {:<9} {:>6} {:>12} {:>8} {:>8}",
                "position", "gold", "acc if gold", "chosen", "uniform"
            );
            for p in bias {
                let acc = p.accuracy_when_gold.map_or("-".to_string(), |a| format!("{a:.3}"));
                let _ = writeln!(
                    out,
                    "  {:<9} {:>6} {:>12} {:>7.1}% {:>7.1}%",
                    p.position,
                    p.gold_count,
                    acc,
                    100.0 * p.chosen_share,
                    100.0 * p.uniform_share
                );
            }
        }
        if let Some((right, docs)) = self.consistency {
            let _ = writeln!(
                out,
                "\nright in every choice order: {right} of {docs} documents ({:.1}%)",
                100.0 * right as f64 / docs.max(1) as f64
            );
        }
        if !self.fertility.is_empty() {
            let _ = writeln!(out, "\ntokenizer fertility (item texts):");
            for (lang, f) in &self.fertility {
                let r = |x: Option<f64>| x.map_or("-".to_string(), |x| format!("{x:.2}"));
                let _ = writeln!(
                    out,
                    "  {lang:<6} texts={:<5} tokens/word={:<6} tokens/char={:<6} tokens/syllable={}",
                    f.texts,
                    r(f.tokens_per_word),
                    r(f.tokens_per_char),
                    r(f.tokens_per_syllable)
                );
            }
        }
        out
    }
}

/// The per-sample CSV: `doc_id,item_id,variant,gold,pred,n_options`, each value column, each text
/// column, then `meta.<field>` for every metadata field (RFC 4180 quoting). The one CSV of a run,
/// the CLI's and the page's.
pub fn csv(rows: &[Row]) -> String {
    let field = super::outputs::csv_field;
    let value_names: Vec<String> =
        rows.first().map(|r| r.values.iter().map(|v| v.0.clone()).collect()).unwrap_or_default();
    let text_names: BTreeSet<String> = rows.iter().flat_map(|r| r.texts.iter().map(|t| t.0.clone())).collect();
    let meta: BTreeSet<String> = rows.iter().flat_map(|r| r.metadata.keys().cloned()).collect();
    let mut header = vec!["doc_id", "item_id", "variant", "gold", "pred", "n_options"]
        .into_iter()
        .map(String::from)
        .collect::<Vec<_>>();
    header.extend(value_names.iter().cloned());
    header.extend(text_names.iter().cloned());
    header.extend(meta.iter().map(|m| format!("meta.{m}")));
    let mut out = header.iter().map(|h| field(h)).collect::<Vec<_>>().join(",") + "\n";
    for r in rows {
        let (g, p, n) = r.choice.map_or((String::new(), String::new(), String::new()), |(g, p, n)| {
            (g.to_string(), p.to_string(), n.to_string())
        });
        let mut cells = vec![r.doc_id.to_string(), field(&r.item_id), r.variant.to_string(), g, p, n];
        cells.extend(
            value_names.iter().map(|m| {
                r.values.iter().find(|v| &v.0 == m).map_or(String::new(), |v| super::pyjson::py_float_repr(v.1))
            }),
        );
        cells.extend(text_names.iter().map(|t| field(r.texts.iter().find(|x| &x.0 == t).map_or("", |x| x.1.as_str()))));
        cells.extend(meta.iter().map(|m| field(r.metadata.get(m).map_or("", String::as_str))));
        out += &(cells.join(",") + "\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(doc_id: u64, variant: usize, gold: usize, pred: usize, lang: &str) -> Row {
        Row {
            doc_id,
            variant,
            item_id: doc_id.to_string(),
            texts: Vec::new(),
            values: vec![("acc".into(), (gold == pred) as u8 as f64)],
            choice: Some((gold, pred, 4)),
            metadata: BTreeMap::from([("language".to_string(), lang.to_string())]),
        }
    }

    #[test]
    fn breakdown_bias_and_consistency() {
        // Document 0 right in both orders, document 1 right in one.
        let rows = [row(0, 0, 0, 0, "en"), row(0, 1, 1, 1, "en"), row(1, 0, 2, 0, "dz"), row(1, 1, 3, 3, "dz")];
        let r = Report::build(Vec::new(), &rows, &[], BTreeMap::new()).unwrap();
        assert_eq!(r.breakdown["language"]["en"][0].1.mean, 1.0);
        assert_eq!(r.breakdown["language"]["dz"][0].1.mean, 0.5);
        assert_eq!(r.consistency, Some((1, 2)));
        let bias = r.bias.as_ref().unwrap();
        assert_eq!(bias[0].chosen_count, 2);
        assert_eq!(bias[2].accuracy_when_gold, Some(0.0));
        let text = r.text("t", rows.len());
        assert!(
            text.contains("by language:") && text.contains("position bias") && text.contains("1 of 2 documents"),
            "{text}"
        );
        // One order only: no consistency line.
        let r = Report::build(Vec::new(), &rows[..1], &[], BTreeMap::new()).unwrap();
        assert_eq!(r.consistency, None);
    }
}
