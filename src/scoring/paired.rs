//! Runs compared on the same items, as the papers' findings are comparisons: DZEN's gap between
//! English and Dzongkha, ProverbEval's swing when only the gold answer's position moves.
//!
//! * **paired difference** — two runs' verdicts on the same items, `b − a` per item (+1, 0 or −1):
//!   the difference in accuracy is their mean, its 95 % interval `mean ± 1.96 · stderr` with the
//!   sample standard error (n − 1), the convention of every other interval lingualens shows.
//! * **exact McNemar test** — only the items that flipped count: `only_a` right in A alone, `only_b`
//!   right in B alone. Under "no difference" each flip goes either way with probability ½, so the
//!   two-sided p-value is `min(1, 2 · P(X ≤ min(only_a, only_b)))` for `X ~ Binomial(only_a + only_b,
//!   ½)` (statsmodels' `mcnemar(table, exact=True)`, scipy's `binomtest`); 1 when nothing flipped.
//! * **swing** — over several runs of the same items (choice orders, prompt variants): the largest
//!   accuracy minus the smallest, with a 95 % percentile-bootstrap interval that resamples items
//!   (the same items in every run), drawn with Python's `random.Random(seed).choices`
//!   ([`PyRandom`]) so that a reference in Python draws the very same replicates.
//!
//! Checked against scipy on generated data (`tools/fixtures/paired.py`, `tests/integration/paired.rs`).

use crate::error::{Error, Result};
use crate::pyrandom::PyRandom;
use crate::scoring::aggregate::{mean, mean_stderr, Z95};

/// Two runs' verdicts compared item by item.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairedComparison {
    /// Items in both runs.
    pub n: usize,
    pub accuracy_a: f64,
    pub accuracy_b: f64,
    /// `accuracy_b − accuracy_a`.
    pub difference: f64,
    /// The 95 % interval of `difference`; `None` for fewer than two items.
    pub ci95: Option<(f64, f64)>,
    pub both_right: usize,
    pub both_wrong: usize,
    /// Right in A, wrong in B.
    pub only_a: usize,
    /// Right in B, wrong in A.
    pub only_b: usize,
    /// Exact two-sided McNemar p-value.
    pub mcnemar_p: f64,
}

/// `a[i]` and `b[i]` are the two runs' verdicts on the same item `i`.
pub fn paired_comparison(a: &[bool], b: &[bool]) -> Result<PairedComparison> {
    if a.len() != b.len() {
        return Err(Error::new(format!("paired comparison: {} items against {}", a.len(), b.len())));
    }
    if a.is_empty() {
        return Err(Error::new("paired comparison: no item in both runs"));
    }
    let (mut both_right, mut both_wrong, mut only_a, mut only_b) = (0, 0, 0, 0);
    for (&x, &y) in a.iter().zip(b) {
        match (x, y) {
            (true, true) => both_right += 1,
            (false, false) => both_wrong += 1,
            (true, false) => only_a += 1,
            (false, true) => only_b += 1,
        }
    }
    let per_item: Vec<f64> = a.iter().zip(b).map(|(&x, &y)| f64::from(u8::from(y)) - f64::from(u8::from(x))).collect();
    let difference = mean(&per_item).unwrap_or(0.0);
    let n = a.len();
    Ok(PairedComparison {
        n,
        accuracy_a: (both_right + only_a) as f64 / n as f64,
        accuracy_b: (both_right + only_b) as f64 / n as f64,
        difference,
        ci95: mean_stderr(&per_item).map(|s| (difference - Z95 * s, difference + Z95 * s)),
        both_right,
        both_wrong,
        only_a,
        only_b,
        mcnemar_p: mcnemar_exact(only_a, only_b),
    })
}

/// Exact two-sided McNemar p-value from the two discordant counts.
pub fn mcnemar_exact(only_a: usize, only_b: usize) -> f64 {
    let flips = only_a + only_b;
    if flips == 0 {
        return 1.0;
    }
    (2.0 * binomial_half_cdf(only_a.min(only_b), flips)).min(1.0)
}

/// `P(X ≤ k)` for `X ~ Binomial(n, ½)`, summed in log space (n can be thousands: 2⁻ⁿ underflows).
fn binomial_half_cdf(k: usize, n: usize) -> f64 {
    // ln C(n, i) built up term by term; the terms are summed relative to the largest (i = k, the
    // one nearest n/2 since k ≤ n/2) to keep them in range.
    let mut ln_choose = vec![0.0f64; k + 1];
    for i in 1..=k {
        ln_choose[i] = ln_choose[i - 1] + ((n - i + 1) as f64).ln() - (i as f64).ln();
    }
    let top = ln_choose[k];
    let sum: f64 = ln_choose.iter().map(|l| (l - top).exp()).sum();
    (top + sum.ln() - n as f64 * std::f64::consts::LN_2).exp()
}

/// The largest accuracy minus the smallest over several runs of the same items.
#[derive(Debug, Clone, PartialEq)]
pub struct Swing {
    /// Each run's accuracy, in the order given.
    pub accuracies: Vec<f64>,
    /// `max − min` of `accuracies`.
    pub swing: f64,
    /// 95 % percentile-bootstrap interval of the swing (items resampled).
    pub ci95: (f64, f64),
    pub replicates: usize,
}

/// `runs[r][i]`: run `r`'s verdict on item `i` (every run over the same items). `replicates`
/// bootstrap draws from `random.Random(seed)`: each draws `n` item indices with
/// `choices(range(n), k=n)`, and its swing is computed over those items in every run.
pub fn swing(runs: &[Vec<bool>], replicates: usize, seed: u64) -> Result<Swing> {
    let n = runs.first().map_or(0, Vec::len);
    if runs.len() < 2 {
        return Err(Error::new("swing: needs two runs or more"));
    }
    if n == 0 || runs.iter().any(|r| r.len() != n) {
        return Err(Error::new("swing: every run needs the same items, at least one"));
    }
    if replicates == 0 {
        return Err(Error::new("swing: needs at least one bootstrap replicate"));
    }
    let spread = |accuracies: &[f64]| {
        let max = accuracies.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let min = accuracies.iter().copied().fold(f64::INFINITY, f64::min);
        max - min
    };
    let accuracy = |run: &[bool], items: &mut dyn Iterator<Item = usize>| {
        let right = items.filter(|&i| run[i]).count();
        right as f64 / n as f64
    };
    let accuracies: Vec<f64> = runs.iter().map(|r| accuracy(r, &mut (0..n))).collect();
    let mut rng = PyRandom::new(seed);
    let mut draws: Vec<f64> = (0..replicates)
        .map(|_| {
            let items = rng.choices_indices(n, n);
            let resampled: Vec<f64> = runs.iter().map(|r| accuracy(r, &mut items.iter().copied())).collect();
            spread(&resampled)
        })
        .collect();
    draws.sort_by(f64::total_cmp);
    Ok(Swing {
        swing: spread(&accuracies),
        accuracies,
        ci95: (percentile(&draws, 2.5), percentile(&draws, 97.5)),
        replicates,
    })
}

/// numpy's default (`linear`) percentile of sorted values.
fn percentile(sorted: &[f64], q: f64) -> f64 {
    let position = q / 100.0 * (sorted.len() - 1) as f64;
    let (lo, hi) = (position.floor() as usize, position.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (position - lo as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_difference_and_p_value_of_a_small_case() {
        // 10 items: 5 right in both, 1 right in A only, 3 right in B only, 1 wrong in both.
        let a = [true, true, true, true, true, true, false, false, false, false];
        let b = [true, true, true, true, true, false, true, true, true, false];
        let c = paired_comparison(&a, &b).unwrap();
        assert_eq!((c.both_right, c.only_a, c.only_b, c.both_wrong), (5, 1, 3, 1));
        assert!((c.difference - 0.2).abs() < 1e-12);
        // P(X ≤ 1), X ~ B(4, ½) = 5/16; two-sided 10/16.
        assert!((c.mcnemar_p - 0.625).abs() < 1e-12, "{}", c.mcnemar_p);
    }

    #[test]
    fn nothing_flipped_is_p_one_and_many_flips_do_not_underflow() {
        assert_eq!(mcnemar_exact(0, 0), 1.0);
        assert_eq!(mcnemar_exact(3, 3), 1.0);
        // 2 · P(X ≤ 0), X ~ B(3000, ½): 2⁻²⁹⁹⁹, below f64's range: 0, not NaN.
        let p = mcnemar_exact(0, 3000);
        assert!(p == 0.0 || (p > 0.0 && p < 1e-300), "{p}");
        // Near the middle of a large count the sum stays finite and below 1.
        let p = mcnemar_exact(1450, 1550);
        assert!(p.is_finite() && p > 0.0 && p < 0.1, "{p}");
    }

    #[test]
    fn mismatched_or_empty_runs_are_refused() {
        assert!(paired_comparison(&[true], &[true, false]).is_err());
        assert!(paired_comparison(&[], &[]).is_err());
        assert!(swing(&[vec![true]], 10, 1).is_err());
        assert!(swing(&[vec![true], vec![true, false]], 10, 1).is_err());
    }

    #[test]
    fn the_swing_of_identical_runs_is_zero_everywhere() {
        let run = vec![true, false, true, true];
        let s = swing(&[run.clone(), run], 200, 1234).unwrap();
        assert_eq!(s.swing, 0.0);
        assert_eq!(s.ci95, (0.0, 0.0));
    }
}
