//! Scoring of generated text: the sacrebleu metrics (chrF, chrF++, BLEU, TER) and answer extraction.
//!
//! The metrics reproduce sacrebleu 2.6.0 with its default settings, the ones lm-evaluation-harness
//! uses for its `bleu`, `chrf` and `ter` metrics (`sacrebleu.corpus_bleu(preds, refs)` and so on):
//!
//! | here                     | sacrebleu                | score name |
//! | ------------------------ | ------------------------ | ---------- |
//! | [`chrf::Chrf::CHRF`]     | `CHRF()`                 | `chrF2`    |
//! | [`chrf::Chrf::CHRF_PP`]  | `CHRF(word_order=2)`     | `chrF2++`  |
//! | [`bleu::Bleu`]           | `BLEU()`                 | `BLEU`     |
//! | [`ter::Ter`]             | `TER()`                  | `TER`      |
//!
//! Every metric has `corpus_score(hyps, refs)` and `sentence_score(hyp, refs)`. `refs[i]` holds the
//! references of `hyps[i]`: one or several, and not necessarily the same number for every hypothesis
//! (sacrebleu then writes `nrefs:var` in the signature). As in sacrebleu, a sentence score is the corpus
//! score of a one-sentence corpus.
//!
//! Strings are handled as sacrebleu's Python handles them: sequences of code points, split on Python's
//! whitespace (`str.split()`), lowercased with full Unicode case mapping.

pub mod aggregate;
pub mod bias;
pub mod bleu;
pub mod chrf;
pub mod extract;
pub mod fertility;
pub mod loglikelihood;
pub mod metrics;
pub mod outputs;
pub mod paired;
pub mod pyjson;
pub mod report;
pub mod session;
pub mod ter;

use std::fmt;

use crate::error::Result;

/// The sacrebleu release whose behaviour these metrics reproduce; it ends every signature.
pub const SACREBLEU_VERSION: &str = "2.6.0";

/// A metric's score with the names sacrebleu gives it.
#[derive(Debug, Clone, PartialEq)]
pub struct Score {
    /// `BLEU`, `chrF2`, `chrF2++` or `TER`.
    pub name: String,
    /// 0–100 (TER can exceed 100).
    pub score: f64,
    /// sacrebleu's signature, e.g. `nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0`.
    pub signature: String,
}

impl fmt::Display for Score {
    /// sacrebleu's `Score.format(signature=…)` without the verbose part: `chrF2|nrefs:1|… = 57.31`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}|{} = {:.2}", self.name, self.signature, self.score)
    }
}

/// How many references each hypothesis has: the `nrefs` field of a signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumRefs {
    Fixed(usize),
    /// Not every hypothesis has the same number (sacrebleu writes `var`).
    Variable,
}

impl fmt::Display for NumRefs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NumRefs::Fixed(n) => write!(f, "{n}"),
            NumRefs::Variable => f.write_str("var"),
        }
    }
}

/// One hypothesis and its references, borrowed from the caller's slices.
pub(crate) struct Segment<'a> {
    pub hyp: &'a str,
    pub refs: Vec<&'a str>,
}

/// Checks the shape of a corpus and counts its references (sacrebleu `Metric._cache_references`).
/// Errors: no hypotheses, a different number of hypotheses and reference lists, a hypothesis without
/// a reference. (sacrebleu raises or silently truncates in those cases.)
pub(crate) fn segments<'a, H, S, R>(hyps: &'a [H], refs: &'a [S]) -> Result<(Vec<Segment<'a>>, NumRefs)>
where
    H: AsRef<str>,
    S: AsRef<[R]>,
    R: AsRef<str> + 'a,
{
    if hyps.is_empty() {
        crate::bail!("no hypotheses to score");
    }
    if hyps.len() != refs.len() {
        crate::bail!("{} hypotheses but {} reference lists", hyps.len(), refs.len());
    }
    let mut segments = Vec::with_capacity(hyps.len());
    for (i, (hyp, refs)) in hyps.iter().zip(refs).enumerate() {
        let refs: Vec<&str> = refs.as_ref().iter().map(|r| r.as_ref()).collect();
        if refs.is_empty() {
            crate::bail!("hypothesis {i} has no reference");
        }
        segments.push(Segment { hyp: hyp.as_ref(), refs });
    }
    let first = segments[0].refs.len();
    let num_refs =
        if segments.iter().all(|s| s.refs.len() == first) { NumRefs::Fixed(first) } else { NumRefs::Variable };
    Ok((segments, num_refs))
}

/// Python's `str.isspace()`: Rust's White_Space plus the four ASCII separators U+001C–U+001F.
pub(crate) fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Python's `s.split()`: runs of whitespace separate words; no empty words.
pub(crate) fn py_split(s: &str) -> impl Iterator<Item = &str> {
    s.split(is_py_space).filter(|w| !w.is_empty())
}

/// Python's `s.rstrip()`.
pub fn py_rstrip(s: &str) -> &str {
    s.trim_end_matches(is_py_space)
}

/// Python's `s.strip()`.
pub(crate) fn py_strip(s: &str) -> &str {
    s.trim_matches(is_py_space)
}

/// Counts every n-gram (contiguous slice of length `n`) of `items` (sacrebleu `helpers.extract_*_ngrams`).
pub(crate) fn ngram_counts<T: Eq + std::hash::Hash>(items: &[T], n: usize) -> std::collections::HashMap<&[T], u64> {
    let mut counts = std::collections::HashMap::new();
    if n > 0 && items.len() >= n {
        for ngram in items.windows(n) {
            *counts.entry(ngram).or_insert(0) += 1;
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_whitespace() {
        assert_eq!(py_split(" a\u{1c}b\u{a0}c\t ").collect::<Vec<_>>(), ["a", "b", "c"]);
        assert_eq!(py_rstrip("ab \n\u{1f}"), "ab");
        assert_eq!(py_split("").count(), 0);
        // U+200B (zero width space) is not whitespace in Python either.
        assert_eq!(py_split("a\u{200b}b").count(), 1);
    }

    #[test]
    fn shapes_and_nrefs() {
        let refs = [vec!["x"], vec!["y"]];
        let (segs, n) = segments(&["a", "b"], &refs).unwrap();
        assert_eq!((segs.len(), n), (2, NumRefs::Fixed(1)));
        let (_, n) = segments(&["a", "b"], &[vec!["x", "z"], vec!["y"]]).unwrap();
        assert_eq!(n.to_string(), "var");
        assert!(segments(&["a"], &[vec!["x"], vec!["y"]]).is_err());
        assert!(segments(&["a"], &[Vec::<&str>::new()]).is_err());
        assert!(segments::<&str, Vec<&str>, &str>(&[], &[]).is_err());
    }

    #[test]
    fn ngrams() {
        let c = ngram_counts(&['a', 'b', 'a', 'b'], 2);
        assert_eq!(c[&['a', 'b'][..]], 2);
        assert_eq!(c[&['b', 'a'][..]], 1);
        assert!(ngram_counts(&['a'], 2).is_empty());
    }
}
