//! Position bias of a multiple-choice run: for each option position (0 = first option, "A"), how
//! often it is the gold answer, how accurate the model is on items whose gold is there, and how
//! often the model picks it, next to the share a position-blind model would be expected to pick.

use crate::error::Result;

/// One position's figures.
#[derive(Debug, Clone, PartialEq)]
pub struct PositionStats {
    /// 0-based option position.
    pub position: usize,
    /// Items that have an option at this position.
    pub items_with_position: usize,
    /// Items whose gold answer is at this position.
    pub gold_count: usize,
    /// Correct predictions among those (`accuracy_when_gold = correct_when_gold / gold_count`).
    pub correct_when_gold: usize,
    pub accuracy_when_gold: Option<f64>,
    /// How often the model chose this position.
    pub chosen_count: usize,
    /// `chosen_count / items`.
    pub chosen_share: f64,
    /// The share a model blind to position would pick here: Σ over items that have this
    /// position of 1 / (that item's number of options), divided by the number of items.
    pub uniform_share: f64,
    /// Share of items whose gold is here (`gold_count / items`).
    pub gold_share: f64,
}

/// Position-bias report over `(gold, predicted, number of options)` per item. Errors on an index
/// outside its item's options or an empty input.
pub fn position_bias(items: &[(usize, usize, usize)]) -> Result<Vec<PositionStats>> {
    let mut tally = PositionTally::default();
    for &(gold, pred, n) in items {
        tally.add(gold, pred, n)?;
    }
    tally.stats()
}

/// The counts behind [`position_bias`], taken item by item: the page keeps one up to date as its
/// rows arrive, so that its table costs the same on the 5000th row as on the first.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PositionTally {
    items: usize,
    /// Counts, and in `uniform_share` the sum of 1 / n over the items (divided in [`Self::stats`]).
    positions: Vec<PositionStats>,
    /// An item had an index outside its options: the report is refused from then on.
    invalid: bool,
}

impl PositionTally {
    /// One more item. Errors (and refuses every later report) when `gold` or `pred` is not one of
    /// its `n` options.
    pub fn add(&mut self, gold: usize, pred: usize, n: usize) -> Result<()> {
        if gold >= n || pred >= n {
            self.invalid = true;
            crate::bail!("position bias: item {} has gold {gold} / prediction {pred} but {n} options", self.items);
        }
        while self.positions.len() < n {
            let position = self.positions.len();
            self.positions.push(PositionStats {
                position,
                items_with_position: 0,
                gold_count: 0,
                correct_when_gold: 0,
                accuracy_when_gold: None,
                chosen_count: 0,
                chosen_share: 0.0,
                uniform_share: 0.0,
                gold_share: 0.0,
            });
        }
        for s in self.positions.iter_mut().take(n) {
            s.items_with_position += 1;
            s.uniform_share += 1.0 / n as f64;
        }
        self.positions[gold].gold_count += 1;
        self.positions[pred].chosen_count += 1;
        if gold == pred {
            self.positions[gold].correct_when_gold += 1;
        }
        self.items += 1;
        Ok(())
    }

    /// The report so far. Errors without items, or after an item that [`Self::add`] refused.
    pub fn stats(&self) -> Result<Vec<PositionStats>> {
        if self.invalid {
            crate::bail!("position bias: an item's gold or prediction is not one of its options");
        }
        if self.items == 0 {
            crate::bail!("position bias: no items");
        }
        let total = self.items as f64;
        Ok(self
            .positions
            .iter()
            .map(|s| PositionStats {
                accuracy_when_gold: (s.gold_count > 0).then(|| s.correct_when_gold as f64 / s.gold_count as f64),
                chosen_share: s.chosen_count as f64 / total,
                gold_share: s.gold_count as f64 / total,
                uniform_share: s.uniform_share / total,
                ..s.clone()
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn always_first() {
        // A model that always answers A on four 4-option items with gold A, B, C, A.
        let r = position_bias(&[(0, 0, 4), (1, 0, 4), (2, 0, 4), (0, 0, 4)]).unwrap();
        assert_eq!(r.len(), 4);
        assert_eq!(r[0].chosen_share, 1.0);
        assert_eq!(r[0].accuracy_when_gold, Some(1.0));
        assert_eq!(r[1].accuracy_when_gold, Some(0.0));
        assert_eq!(r[3].accuracy_when_gold, None);
        assert_eq!(r[0].uniform_share, 0.25);
        assert_eq!(r[2].gold_share, 0.25);
    }

    #[test]
    fn mixed_widths() {
        let r = position_bias(&[(0, 1, 2), (3, 3, 4)]).unwrap();
        assert_eq!(r[0].uniform_share, (0.5 + 0.25) / 2.0);
        assert_eq!(r[3].items_with_position, 1);
        assert!(position_bias(&[(2, 0, 2)]).is_err());
    }
}
