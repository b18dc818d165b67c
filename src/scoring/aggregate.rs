//! Aggregates of per-item scores as lm-evaluation-harness 0.4.13 reports them: the mean, its standard
//! error, the bootstrap standard error of corpus-level metrics, breakdowns by metadata field, and
//! the pooled standard error of a group of tasks.
//!
//! * **mean** — `lm_eval.api.metrics.mean`: `sum(arr) / len(arr)`, summed left to right (Python ≤ 3.11
//!   `sum`; 3.12 switched to compensated summation, a difference of a few ulp).
//! * **standard error of a mean** — `mean_stderr`: sample standard deviation (n − 1) / √n. lm-eval
//!   writes `"N/A"` instead when a metric has a single value; [`Summary::stderr`] is `None` then.
//! * **bootstrap** — `bootstrap_stderr(f, xs, iters)`: `iters / min(1000, iters)` chunks; chunk `i`
//!   draws from a fresh `random.Random(i)` (Mersenne Twister, reproduced here bit for bit in
//!   [`PyRandom`]), each replicate is `f(rnd.choices(xs, k=len(xs)))`, and the result is the sample
//!   standard deviation of the replicates. lm-eval's evaluator uses `iters = min(bootstrap_iters,
//!   100)` for `bleu`, `chrf`, `chrf++` and `ter` (so 100 replicates from seed 0 at the default
//!   `bootstrap_iters = 100000`) and the full `bootstrap_iters` for `median`, `perplexity` and the
//!   other bootstrappable aggregations. Since the draws are identical, the numbers equal lm-eval's
//!   up to the floating-point error of the statistic itself.
//! * **95 % interval** (what the UI shows) — the normal approximation `mean ± 1.96 · stderr`, using
//!   the same standard error lm-eval reports, not clipped: it can leave [0, 1] for tiny
//!   samples. [`wilson_interval`] is provided for binary metrics where a bounded interval is wanted.
//! * **groups** — `pooled_sample_stderr` and `aggregate_subtask_metrics` (size-weighted mean).

use std::collections::BTreeMap;

use crate::error::Result;

/// z for a two-sided 95 % normal interval (the UI's interval).
pub const Z95: f64 = 1.959_963_984_540_054;

/// lm-eval's default `bootstrap_iters`.
pub const DEFAULT_BOOTSTRAP_ITERS: usize = 100_000;

/// `lm_eval.api.metrics.mean`. `None` for an empty slice (Python raises ZeroDivisionError).
pub fn mean(xs: &[f64]) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    Some(xs.iter().fold(0.0, |acc, x| acc + x) / xs.len() as f64)
}

/// `sample_stddev`: √(Σ(x − mean)² / (n − 1)). `None` for fewer than two values.
pub fn sample_stddev(xs: &[f64]) -> Option<f64> {
    if xs.len() < 2 {
        return None;
    }
    let mu = mean(xs)?;
    let ss = xs.iter().fold(0.0, |acc, x| acc + (x - mu) * (x - mu));
    Some((ss / (xs.len() - 1) as f64).sqrt())
}

/// `mean_stderr`: sample standard deviation / √n. `None` for fewer than two values (lm-eval: "N/A").
pub fn mean_stderr(xs: &[f64]) -> Option<f64> {
    Some(sample_stddev(xs)? / (xs.len() as f64).sqrt())
}

/// `median` aggregation: `sorted(arr)[len(arr) // 2]` (the upper median, no averaging).
pub fn median(xs: &[f64]) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    let mut v = xs.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    Some(v[v.len() / 2])
}

/// `perplexity` aggregation: `exp(-mean(items))` over log-likelihoods.
pub fn perplexity(xs: &[f64]) -> Option<f64> {
    Some((-mean(xs)?).exp())
}

pub use crate::pyrandom::PyRandom;

/// The `iters` replicates of lm-eval's bootstrap (`_bootstrap_internal`), each `f` of a resample of
/// `xs` of the same size. Chunks of `min(1000, iters)` replicates, chunk `i` seeded with `i`; like
/// lm-eval, `iters` that is not a multiple of the chunk size is rounded down.
pub fn bootstrap_replicates<T: Clone, F>(f: F, xs: &[T], iters: usize) -> Result<Vec<f64>>
where
    F: Fn(&[T]) -> Result<f64>,
{
    if xs.is_empty() || iters == 0 {
        return Ok(Vec::new());
    }
    let chunk = iters.min(1000);
    let mut out = Vec::with_capacity(iters / chunk * chunk);
    let mut sample: Vec<T> = Vec::with_capacity(xs.len());
    for i in 0..iters / chunk {
        let mut rnd = PyRandom::new(i as u64);
        for _ in 0..chunk {
            sample.clear();
            for idx in rnd.choices_indices(xs.len(), xs.len()) {
                sample.push(xs[idx].clone());
            }
            out.push(f(&sample)?);
        }
    }
    Ok(out)
}

/// `bootstrap_stderr(f, xs, iters)`: the sample standard deviation of the replicates.
/// `None` when there are fewer than two replicates.
pub fn bootstrap_stderr<T: Clone, F>(f: F, xs: &[T], iters: usize) -> Result<Option<f64>>
where
    F: Fn(&[T]) -> Result<f64>,
{
    Ok(sample_stddev(&bootstrap_replicates(f, xs, iters)?))
}

/// The bootstrap iterations lm-eval's evaluator uses for a metric: `min(bootstrap_iters, 100)` for
/// the corpus-level translation metrics, `bootstrap_iters` otherwise.
pub fn bootstrap_iters_for(metric: &str, bootstrap_iters: usize) -> usize {
    if matches!(metric, "bleu" | "chrf" | "chrf++" | "ter") {
        bootstrap_iters.min(100)
    } else {
        bootstrap_iters
    }
}

/// A hypothesis and its references.
pub type Pair = (String, Vec<String>);

/// A corpus-level metric over (hypothesis, references) pairs, as lm-eval's `bleu`, `chrf`, `chrf++`
/// and `ter` aggregations compute it (sacrebleu defaults), 0–100.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CorpusMetric {
    Bleu,
    Chrf,
    ChrfPlusPlus,
    Ter,
}

impl CorpusMetric {
    /// lm-eval's metric name: `bleu`, `chrf`, `chrf++`, `ter`.
    pub fn name(self) -> &'static str {
        match self {
            CorpusMetric::Bleu => "bleu",
            CorpusMetric::Chrf => "chrf",
            CorpusMetric::ChrfPlusPlus => "chrf++",
            CorpusMetric::Ter => "ter",
        }
    }

    pub fn higher_is_better(self) -> bool {
        !matches!(self, CorpusMetric::Ter)
    }

    /// The corpus score of `pairs` (hypothesis, references).
    pub fn score(self, pairs: &[(String, Vec<String>)]) -> Result<f64> {
        let hyps: Vec<&str> = pairs.iter().map(|(h, _)| h.as_str()).collect();
        let refs: Vec<&[String]> = pairs.iter().map(|(_, r)| r.as_slice()).collect();
        let score = match self {
            CorpusMetric::Bleu => super::bleu::Bleu.corpus_score(&hyps, &refs)?,
            CorpusMetric::Chrf => super::chrf::Chrf::CHRF.corpus_score(&hyps, &refs)?,
            CorpusMetric::ChrfPlusPlus => super::chrf::Chrf::CHRF_PP.corpus_score(&hyps, &refs)?,
            CorpusMetric::Ter => super::ter::Ter.corpus_score(&hyps, &refs)?,
        };
        Ok(score.score)
    }

    /// The score and its bootstrap standard error exactly as lm-eval's evaluator reports them
    /// (`min(bootstrap_iters, 100)` replicates; `None` for a single pair or `bootstrap_iters = 0`).
    pub fn score_with_stderr(
        self,
        pairs: &[(String, Vec<String>)],
        bootstrap_iters: usize,
    ) -> Result<(f64, Option<f64>)> {
        let score = self.score(pairs)?;
        let stderr = if pairs.len() > 1 {
            bootstrap_stderr(|s| self.score(s), pairs, bootstrap_iters_for(self.name(), bootstrap_iters))?
        } else {
            None
        };
        Ok((score, stderr))
    }
}

/// Mean, standard error and the UI's 95 % interval of one metric over some items.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    pub n: usize,
    pub mean: f64,
    /// `mean_stderr`; `None` when `n < 2` (lm-eval: "N/A").
    pub stderr: Option<f64>,
}

impl Summary {
    /// `None` for no values.
    pub fn of(xs: &[f64]) -> Option<Summary> {
        Some(Summary { n: xs.len(), mean: mean(xs)?, stderr: mean_stderr(xs) })
    }

    /// Normal-approximation 95 % interval `mean ± 1.96·stderr`; `None` without a standard error.
    pub fn ci95(&self) -> Option<(f64, f64)> {
        self.stderr.map(|s| (self.mean - Z95 * s, self.mean + Z95 * s))
    }
}

/// Wilson score interval for `successes` out of `n` at normal quantile `z` (1.96 for 95 %): bounded
/// to [0, 1], sensible at 0 % and 100 %. `None` for `n = 0`.
pub fn wilson_interval(successes: f64, n: usize, z: f64) -> Option<(f64, f64)> {
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let p = successes / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n + z2 / (4.0 * n * n)).max(0.0)).sqrt() / denom;
    Some(((centre - half).max(0.0), (centre + half).min(1.0)))
}

/// A metric broken down by every metadata field: field → value → summary. Items that lack a field
/// are left out of that field's breakdown (absent means "not known"). An item's language is not in
/// its metadata map (`Item::language`): add it as a `language` entry to get that breakdown too. `values[i]` belongs to the item
/// whose metadata is `metadata[i]`. NaN values are kept (they make that group's mean NaN, as in
/// lm-eval's `mean`).
pub fn breakdown_by_metadata<M>(values: &[f64], metadata: &[M]) -> Result<BTreeMap<String, BTreeMap<String, Summary>>>
where
    M: std::borrow::Borrow<BTreeMap<String, String>>,
{
    if values.len() != metadata.len() {
        crate::bail!("{} values but {} metadata maps", values.len(), metadata.len());
    }
    let mut groups: BTreeMap<&str, BTreeMap<&str, Vec<f64>>> = BTreeMap::new();
    for (v, m) in values.iter().zip(metadata) {
        for (field, value) in m.borrow() {
            groups.entry(field).or_default().entry(value).or_default().push(*v);
        }
    }
    Ok(groups
        .into_iter()
        .map(|(field, by_value)| {
            let summaries = by_value
                .into_iter()
                .filter_map(|(value, xs)| Summary::of(&xs).map(|s| (value.to_string(), s)))
                .collect();
            (field.to_string(), summaries)
        })
        .collect())
}

/// A corpus metric's score and bootstrap stderr over the items of one metadata value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CorpusSummary {
    pub n: usize,
    pub score: f64,
    /// lm-eval's bootstrap stderr (`min(bootstrap_iters, 100)` replicates); `None` for one item.
    pub stderr: Option<f64>,
}

/// A corpus-level metric (chrF, BLEU, …) broken down by every metadata field, each group scored as
/// its own corpus, with lm-eval's bootstrap stderr. Same grouping rules as [`breakdown_by_metadata`].
pub fn corpus_breakdown_by_metadata<M>(
    metric: CorpusMetric,
    pairs: &[(String, Vec<String>)],
    metadata: &[M],
    bootstrap_iters: usize,
) -> Result<BTreeMap<String, BTreeMap<String, CorpusSummary>>>
where
    M: std::borrow::Borrow<BTreeMap<String, String>>,
{
    if pairs.len() != metadata.len() {
        crate::bail!("{} pairs but {} metadata maps", pairs.len(), metadata.len());
    }
    let mut groups: BTreeMap<&str, BTreeMap<&str, Vec<Pair>>> = BTreeMap::new();
    for (p, m) in pairs.iter().zip(metadata) {
        for (field, value) in m.borrow() {
            groups.entry(field).or_default().entry(value).or_default().push(p.clone());
        }
    }
    let mut out = BTreeMap::new();
    for (field, by_value) in groups {
        let mut summaries = BTreeMap::new();
        for (value, group) in by_value {
            let (score, stderr) = metric.score_with_stderr(&group, bootstrap_iters)?;
            summaries.insert(value.to_string(), CorpusSummary { n: group.len(), score, stderr });
        }
        out.insert(field.to_string(), summaries);
    }
    Ok(out)
}

/// `pooled_sample_stderr(stderrs, sizes)`: lm-eval's standard error of a size-weighted group mean.
pub fn pooled_sample_stderr(stderrs: &[f64], sizes: &[usize]) -> Result<f64> {
    if stderrs.len() != sizes.len() || stderrs.is_empty() {
        crate::bail!("{} stderrs for {} sizes", stderrs.len(), sizes.len());
    }
    let total: usize = sizes.iter().sum();
    if total <= sizes.len() {
        crate::bail!("pooled stderr needs more items ({total}) than subtasks ({})", sizes.len());
    }
    let num = sizes.iter().zip(stderrs).fold(0.0, |acc, (&n, &s)| acc + (n as f64 - 1.0) * s * s * n as f64);
    let var = num / (total - sizes.len()) as f64;
    Ok((var / total as f64).sqrt())
}

/// `aggregate_subtask_metrics(metrics, sizes, weight_by_size)`: a group's score.
pub fn aggregate_subtask_metrics(metrics: &[f64], sizes: &[usize], weight_by_size: bool) -> Result<f64> {
    if metrics.len() != sizes.len() || metrics.is_empty() {
        crate::bail!("{} metrics for {} sizes", metrics.len(), sizes.len());
    }
    let w = |n: usize| if weight_by_size { n as f64 } else { 1.0 };
    let num = metrics.iter().zip(sizes).fold(0.0, |acc, (&m, &n)| acc + m * w(n));
    let den = sizes.iter().fold(0.0, |acc, &n| acc + w(n));
    Ok(num / den)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_random_first_values() {
        // python3 -c "import random; r=random.Random(0); print([r.random() for _ in range(3)])"
        let mut r = PyRandom::new(0);
        assert_eq!(r.random(), 0.8444218515250481);
        assert_eq!(r.random(), 0.7579544029403025);
        assert_eq!(r.random(), 0.420571580830845);
        // random.Random(42).random()
        assert_eq!(PyRandom::new(42).random(), 0.6394267984578837);
        // a seed wider than 32 bits: random.Random(2**40 + 5).random()
        assert_eq!(PyRandom::new((1 << 40) + 5).random(), 0.5043802970418443);
        // random.Random(0).choices(range(10), k=5)
        assert_eq!(PyRandom::new(0).choices_indices(10, 5), [8, 7, 4, 2, 5]);
    }

    #[test]
    fn mean_and_stderr() {
        let xs = [1.0, 0.0, 1.0, 1.0];
        assert_eq!(mean(&xs), Some(0.75));
        // sample var = (3·0.0625 + 0.5625) / 3 = 0.25; stderr = 0.5 / 2
        assert_eq!(sample_stddev(&xs), Some(0.5));
        assert_eq!(mean_stderr(&xs), Some(0.25));
        assert_eq!(mean_stderr(&[1.0]), None);
        assert_eq!(mean(&[]), None);
        let s = Summary::of(&xs).unwrap();
        let (lo, hi) = s.ci95().unwrap();
        assert!((lo - (0.75 - 0.49)).abs() < 1e-3 && (hi - (0.75 + 0.49)).abs() < 1e-3);
        assert_eq!(median(&[3.0, 1.0, 2.0, 4.0]), Some(3.0));
    }

    #[test]
    fn wilson() {
        let (lo, hi) = wilson_interval(0.0, 10, 1.96).unwrap();
        assert_eq!(lo, 0.0);
        assert!((hi - 0.2775).abs() < 1e-3);
        let (lo, hi) = wilson_interval(5.0, 10, 1.96).unwrap();
        assert!((lo - 0.2366).abs() < 1e-3 && (hi - 0.7634).abs() < 1e-3);
    }

    #[test]
    fn groups() {
        // Equal sizes: pooled stderr equals sqrt(mean of squared stderrs · (n-1)·n / (N-k) / N).
        let s = pooled_sample_stderr(&[0.1, 0.1], &[10, 10]).unwrap();
        let expect = ((9.0 * 0.01 * 10.0 * 2.0) / 18.0 / 20.0f64).sqrt();
        assert!((s - expect).abs() < 1e-15);
        assert_eq!(aggregate_subtask_metrics(&[0.5, 1.0], &[1, 3], true).unwrap(), 0.875);
        assert_eq!(aggregate_subtask_metrics(&[0.5, 1.0], &[1, 3], false).unwrap(), 0.75);
    }

    #[test]
    fn breakdown() {
        let m = |pairs: &[(&str, &str)]| -> BTreeMap<String, String> {
            pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
        };
        let metas = [m(&[("subject", "bio"), ("grade", "10")]), m(&[("subject", "bio")]), m(&[("subject", "chem")])];
        let b = breakdown_by_metadata(&[1.0, 0.0, 1.0], &metas).unwrap();
        assert_eq!(b["subject"]["bio"].n, 2);
        assert_eq!(b["subject"]["bio"].mean, 0.5);
        assert_eq!(b["subject"]["chem"].stderr, None);
        assert_eq!(b["grade"]["10"].n, 1);
    }

    #[test]
    fn corpus_breakdown() {
        let pair = |h: &str, r: &str| (h.to_string(), vec![r.to_string()]);
        let pairs = [pair("a b c", "a b c"), pair("x y z", "a b c"), pair("a b c d", "a b c d")];
        let m = |v: &str| BTreeMap::from([("language".to_string(), v.to_string())]);
        let b = corpus_breakdown_by_metadata(CorpusMetric::Chrf, &pairs, &[m("en"), m("dz"), m("en")], 100).unwrap();
        assert_eq!(b["language"]["en"].n, 2);
        assert!((b["language"]["en"].score - 100.0).abs() < 1e-9);
        assert_eq!(b["language"]["en"].stderr, Some(0.0));
        assert_eq!(b["language"]["dz"].stderr, None);
    }

    #[test]
    fn bootstrap_of_mean_is_close_to_mean_stderr() {
        let xs: Vec<f64> = (0..200).map(|i| (i % 3 == 0) as u8 as f64).collect();
        let b = bootstrap_stderr(|s| Ok(mean(s).unwrap()), &xs, 2000).unwrap().unwrap();
        let m = mean_stderr(&xs).unwrap();
        assert!((b - m).abs() / m < 0.1, "{b} vs {m}");
        assert_eq!(bootstrap_iters_for("chrf", 100_000), 100);
        assert_eq!(bootstrap_iters_for("median", 100_000), 100_000);
    }
}
