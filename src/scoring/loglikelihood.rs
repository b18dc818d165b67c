//! Per-item scores of multiple-choice items from the engine's per-choice log-likelihoods, as
//! lm-evaluation-harness 0.4.13 computes them (`ConfigurableTask.process_results`, output type
//! `multiple_choice`), and `exact_match` for generations.
//!
//! | here                   | lm-eval metric     | prediction                                        |
//! | ---------------------- | ------------------ | ------------------------------------------------- |
//! | `acc`                  | `acc`              | argmax of log-likelihood                          |
//! | `acc_norm`             | `acc_norm`         | argmax of ll / `len(choice)` (code points)        |
//! | `acc_bytes`            | `acc_bytes`        | argmax of ll / UTF-8 byte length of the choice    |
//! | `acc_per_token`        | (none)             | argmax of ll / number of continuation tokens      |
//! | `acc_mutual_info`      | `acc_mutual_info`  | argmax of ll(choice ∣ context) − ll(choice ∣ "")  |
//! | `exact_match`          | `exact_match`      | `is_greedy` of the gold choice                    |
//!
//! `choices` are the option texts as the task's `doc_to_choice` returns them, **without** the target
//! delimiter (the leading space lm-eval puts in front of the continuation is not counted in
//! `acc_norm`'s length). For PMI the caller runs the engine a second time per choice with an empty
//! context (lm-eval requests `("", continuation)`; the continuation keeps its delimiter) and passes
//! those log-likelihoods as `unconditional`.
//!
//! **Ties** are broken as `np.argmax` does: the first maximum wins, and a NaN counts as larger than
//! everything (the first NaN wins). Division by a zero length follows IEEE (−ll/0 = −∞, 0/0 = NaN),
//! as numpy's does.

use crate::error::Result;

/// What `acc_norm` compares: a choice's log-likelihood over the choice's length in Unicode code
/// points (Python's `len`), the choice without the target delimiter. The one divisor, for a live
/// run, the page's inspector and an imported samples file; an empty choice gives −∞ or NaN, as
/// numpy's division does.
pub fn per_character(loglikelihood: f64, choice: &str) -> f64 {
    loglikelihood / choice.chars().count() as f64
}

/// `np.argmax`: the index of the first maximum; the first NaN if there is one. `None` if empty.
pub fn np_argmax(xs: &[f64]) -> Option<usize> {
    if xs.is_empty() {
        return None;
    }
    let mut best = 0;
    for i in 1..xs.len() {
        if xs[best].is_nan() {
            break;
        }
        if xs[i].is_nan() || xs[i] > xs[best] {
            best = i;
        }
    }
    Some(best)
}

/// What the engine returned for one multiple-choice item, plus what the normalisations need.
#[derive(Debug, Clone, Copy)]
pub struct ChoiceScores<'a> {
    /// Option texts as `doc_to_choice` gives them (no target delimiter).
    pub choices: &'a [String],
    /// `loglikelihood(context, delimiter + choice)` for each choice.
    pub loglikelihoods: &'a [f64],
    /// Whether the greedy continuation equals the choice's tokens.
    pub is_greedy: &'a [bool],
    /// Tokens in each choice's continuation (for per-token normalisation), if known.
    pub token_counts: Option<&'a [usize]>,
    /// `loglikelihood("", delimiter + choice)` for each choice (for PMI), if computed.
    pub unconditional: Option<&'a [f64]>,
}

/// Predictions and 0/1 scores of one item.
#[derive(Debug, Clone, PartialEq)]
pub struct McScore {
    pub pred: usize,
    pub pred_norm: usize,
    pub pred_bytes: usize,
    pub pred_per_token: Option<usize>,
    pub pred_mutual_info: Option<usize>,
    pub acc: f64,
    pub acc_norm: f64,
    pub acc_bytes: f64,
    pub acc_per_token: Option<f64>,
    pub acc_mutual_info: Option<f64>,
    /// lm-eval's multiple-choice `exact_match`: `is_greedy` of the gold choice (any gold choice).
    pub exact_match: f64,
}

impl McScore {
    /// The metrics present, in lm-eval's order, as `(name, value)`.
    pub fn metrics(&self) -> Vec<(&'static str, f64)> {
        let mut m = vec![("acc", self.acc), ("acc_norm", self.acc_norm), ("acc_bytes", self.acc_bytes)];
        m.push(("exact_match", self.exact_match));
        if let Some(v) = self.acc_mutual_info {
            m.push(("acc_mutual_info", v));
        }
        if let Some(v) = self.acc_per_token {
            m.push(("acc_per_token", v));
        }
        m
    }
}

impl ChoiceScores<'_> {
    /// Scores the item against `gold`: one index, or several when more than one option is correct
    /// (lm-eval's `multiple_target`: a prediction is right if it is any of them). An out-of-range
    /// gold index is an error (lm-eval logs a warning and scores 0).
    pub fn score(&self, gold: &[usize]) -> Result<McScore> {
        let n = self.choices.len();
        if n == 0 {
            crate::bail!("no choices to score");
        }
        let check = |what: &str, len: usize| -> Result<()> {
            if len != n {
                crate::bail!("{n} choices but {len} {what}");
            }
            Ok(())
        };
        check("log-likelihoods", self.loglikelihoods.len())?;
        check("is_greedy flags", self.is_greedy.len())?;
        if let Some(t) = self.token_counts {
            check("token counts", t.len())?;
        }
        if let Some(u) = self.unconditional {
            check("unconditional log-likelihoods", u.len())?;
        }
        if gold.is_empty() {
            crate::bail!("no gold index");
        }
        if let Some(g) = gold.iter().find(|&&g| g >= n) {
            crate::bail!("gold index {g} but only {n} choices");
        }
        let lls = self.loglikelihoods;
        let divided = |len: &dyn Fn(usize) -> f64| -> Vec<f64> { (0..n).map(|i| lls[i] / len(i)).collect() };
        let pred = np_argmax(lls).unwrap();
        let pred_norm =
            np_argmax(&(0..n).map(|i| per_character(lls[i], &self.choices[i])).collect::<Vec<_>>()).unwrap();
        let pred_bytes = np_argmax(&divided(&|i| self.choices[i].len() as f64)).unwrap();
        let pred_per_token = self.token_counts.map(|t| np_argmax(&divided(&|i| t[i] as f64)).unwrap());
        let pred_mutual_info =
            self.unconditional.map(|u| np_argmax(&(0..n).map(|i| lls[i] - u[i]).collect::<Vec<_>>()).unwrap());
        let hit = |p: usize| if gold.contains(&p) { 1.0 } else { 0.0 };
        Ok(McScore {
            pred,
            pred_norm,
            pred_bytes,
            pred_per_token,
            pred_mutual_info,
            acc: hit(pred),
            acc_norm: hit(pred_norm),
            acc_bytes: hit(pred_bytes),
            acc_per_token: pred_per_token.map(hit),
            acc_mutual_info: pred_mutual_info.map(hit),
            exact_match: if gold.iter().any(|&g| self.is_greedy[g]) { 1.0 } else { 0.0 },
        })
    }
}

/// Options of lm-eval's `exact_match` for generations (HF `evaluate`'s `exact_match`), applied to
/// prediction and reference in this order: remove every match of each regex, lowercase, remove
/// ASCII punctuation (`string.punctuation`), remove ASCII digits.
#[derive(Debug, Clone, Default)]
pub struct ExactMatch {
    pub regexes_to_ignore: Vec<String>,
    pub ignore_case: bool,
    pub ignore_punctuation: bool,
    pub ignore_numbers: bool,
}

impl ExactMatch {
    fn normalise(&self, s: &str, regexes: &[regex::Regex]) -> String {
        let mut s = s.to_string();
        for re in regexes {
            s = re.replace_all(&s, "").into_owned();
        }
        if self.ignore_case {
            s = s.to_lowercase();
        }
        if self.ignore_punctuation {
            s.retain(|c| !c.is_ascii_punctuation());
        }
        if self.ignore_numbers {
            s.retain(|c| !c.is_ascii_digit());
        }
        s
    }

    /// 1.0 if `prediction` equals any reference after normalisation (lm-eval scores a
    /// `multiple_target` item right when any target matches), else 0.0.
    pub fn score<R: AsRef<str>>(&self, prediction: &str, references: &[R]) -> Result<f64> {
        if references.is_empty() {
            crate::bail!("exact_match: no reference");
        }
        let regexes = self
            .regexes_to_ignore
            .iter()
            .map(|r| regex::Regex::new(r).map_err(|e| crate::error::Error::new(format!("regex {r:?}: {e}"))))
            .collect::<Result<Vec<_>>>()?;
        let p = self.normalise(prediction, &regexes);
        Ok(if references.iter().any(|r| self.normalise(r.as_ref(), &regexes) == p) { 1.0 } else { 0.0 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn argmax_like_numpy() {
        assert_eq!(np_argmax(&[1.0, 3.0, 3.0]), Some(1));
        assert_eq!(np_argmax(&[1.0, f64::NAN, 5.0, f64::NAN]), Some(1));
        assert_eq!(np_argmax(&[f64::NEG_INFINITY, f64::NEG_INFINITY]), Some(0));
        assert_eq!(np_argmax(&[]), None);
    }

    #[test]
    fn normalisations_differ() {
        // "ཀ་ཁ" is 3 code points but 9 bytes; "abcd" 4 and 4.
        let choices = s(&["ཀ་ཁ", "abcd", "x"]);
        let lls = [-6.0, -7.0, -3.5];
        let toks = [1, 4, 1];
        let uncond = [-1.0, -8.0, -1.0];
        let cs = ChoiceScores {
            choices: &choices,
            loglikelihoods: &lls,
            is_greedy: &[false, true, false],
            token_counts: Some(&toks),
            unconditional: Some(&uncond),
        };
        let r = cs.score(&[1]).unwrap();
        assert_eq!(r.pred, 2); // -3.5
        assert_eq!(r.pred_norm, 1); // -2, -1.75, -3.5
        assert_eq!(r.pred_bytes, 0); // -0.667, -1.75, -3.5
        assert_eq!(r.pred_per_token, Some(1)); // -6, -1.75, -3.5
        assert_eq!(r.pred_mutual_info, Some(1)); // -5, 1, -2.5
        assert_eq!((r.acc, r.acc_norm, r.acc_bytes, r.exact_match), (0.0, 1.0, 0.0, 1.0));
        assert_eq!(cs.score(&[0, 2]).unwrap().acc, 1.0);
        assert!(cs.score(&[3]).is_err());
    }

    #[test]
    fn empty_choice_is_ieee() {
        let choices = s(&["", "a"]);
        let r = ChoiceScores {
            choices: &choices,
            loglikelihoods: &[-1.0, -0.5],
            is_greedy: &[false, false],
            token_counts: None,
            unconditional: None,
        }
        .score(&[1])
        .unwrap();
        // -1/0 = -inf, so "a" wins acc_norm.
        assert_eq!(r.pred_norm, 1);
        assert_eq!(r.acc_mutual_info, None);
    }

    #[test]
    fn exact_match_options() {
        let plain = ExactMatch::default();
        assert_eq!(plain.score("Paris", &["paris"]).unwrap(), 0.0);
        let loose = ExactMatch { ignore_case: true, ignore_punctuation: true, ..Default::default() };
        assert_eq!(loose.score("Paris.", &["paris"]).unwrap(), 1.0);
        let re = ExactMatch { regexes_to_ignore: vec![r"^The answer is ".into()], ..Default::default() };
        assert_eq!(re.score("The answer is 42", &["41", "42"]).unwrap(), 1.0);
    }
}
