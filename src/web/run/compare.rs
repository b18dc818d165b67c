//! Comparisons: a run's own questions across languages, and two runs of the same items item by item.

use std::collections::BTreeMap;

use super::Run;
use crate::web::run::parallel::{parallel_table, ParallelTable};

/// Comparisons between runs and within one.
impl Run {
    /// The same questions across languages within this run (see [`ParallelTable`]).
    pub fn parallel_table(&self) -> ParallelTable {
        parallel_table(&[(self.task.as_str(), self)])
    }

    /// Item by item against another run of the same items (matched by id; see [`Comparison`]).
    pub fn compare(&self, other: &Run) -> Comparison {
        let verdicts = |run: &Run| -> BTreeMap<String, bool> {
            let mut out = BTreeMap::new();
            for row in run.rows.values() {
                out.entry(run.items[row.index].id.clone()).or_insert(row.correct);
            }
            out
        };
        let (a, b) = (verdicts(self), verdicts(other));
        let mut c = Comparison::default();
        let mut seen = std::collections::BTreeSet::new();
        for row in self.rows.values() {
            let item = &self.items[row.index];
            let Some(&in_b) = b.get(&item.id) else { continue };
            if !seen.insert(item.id.as_str()) {
                continue;
            }
            match (row.correct, in_b) {
                (true, true) => c.both_right += 1,
                (false, false) => c.both_wrong += 1,
                (true, false) => c.only_a += 1,
                (false, true) => c.only_b += 1,
            }
            if row.correct != in_b {
                c.differences.push(ItemDiff { index: row.index, id: item.id.clone(), a: row.correct, b: in_b });
            }
        }
        c.unmatched_a = a.keys().filter(|id| !b.contains_key(*id)).count();
        c.unmatched_b = b.keys().filter(|id| !a.contains_key(*id)).count();
        c
    }
}

/// Two runs' verdicts on the items both answered, matched by item id (the first row of an id).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Comparison {
    pub both_right: usize,
    pub both_wrong: usize,
    /// Right in this run (A) only, and in the other (B) only.
    pub only_a: usize,
    pub only_b: usize,
    /// Answered items whose id the other run lacks.
    pub unmatched_a: usize,
    pub unmatched_b: usize,
    /// The items the runs disagree on, in run A's order.
    pub differences: Vec<ItemDiff>,
}

impl Comparison {
    /// The paired statistics of these counts (`scoring::paired`): B − A with its 95 % interval and
    /// the exact McNemar p-value. `None` when no item was answered by both runs.
    pub fn paired(&self) -> Option<crate::scoring::paired::PairedComparison> {
        let pairs = [
            (self.both_right, true, true),
            (self.only_a, true, false),
            (self.only_b, false, true),
            (self.both_wrong, false, false),
        ];
        let (a, b): (Vec<bool>, Vec<bool>) = pairs.iter().flat_map(|&(n, x, y)| std::iter::repeat_n((x, y), n)).unzip();
        crate::scoring::paired::paired_comparison(&a, &b).ok()
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct ItemDiff {
    /// The item's index in run A.
    pub index: usize,
    pub id: String,
    pub a: bool,
    pub b: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::protocol::RunSettings;
    use crate::web::run::tests::{item, row};

    #[test]
    fn two_runs_compare_item_by_item_by_id() {
        let items = || (0..5).map(|i| item(i, "en", 0)).collect::<Vec<_>>();
        let mut a = Run::new("m", "t", "f", RunSettings::default(), items());
        let mut b = Run::new("m2", "t", "f", RunSettings::default(), items());
        let (right, wrong) = ([-1.0, -2.0, -3.0], [-3.0, -1.0, -2.0]);
        for (i, (x, y)) in
            [(right, right), (wrong, wrong), (right, wrong), (wrong, right), (right, right)].into_iter().enumerate()
        {
            a.record(row(i, x, 0));
            if i < 4 {
                b.record(row(i, y, 0));
            }
        }
        b.items[3].id = "q3".into();
        let c = a.compare(&b);
        assert_eq!((c.both_right, c.both_wrong, c.only_a, c.only_b), (1, 1, 1, 1));
        assert_eq!((c.unmatched_a, c.unmatched_b), (1, 0), "q4 is answered in A only");
        let diffs: Vec<(&str, bool, bool)> = c.differences.iter().map(|d| (d.id.as_str(), d.a, d.b)).collect();
        assert_eq!(diffs, [("q2", true, false), ("q3", false, true)]);
        let back = b.compare(&a);
        assert_eq!((back.only_a, back.only_b, back.unmatched_b), (1, 1, 1));
        // One flip each way: no difference, p = 1; nothing in common: no statistics.
        let paired = c.paired().unwrap();
        assert_eq!((paired.n, paired.difference, paired.mcnemar_p), (4, 0.0, 1.0));
        assert_eq!(Comparison::default().paired(), None);
    }
}
