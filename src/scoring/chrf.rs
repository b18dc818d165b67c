//! chrF (Popović 2015) and chrF++ (Popović 2017), as sacrebleu 2.6.0's `CHRF()` and
//! `CHRF(word_order=2)` (sacrebleu/metrics/chrf.py).
//!
//! Character n-grams of orders 1–6 are taken from the sentence with all whitespace removed; chrF++
//! adds word unigrams and bigrams, after splitting one punctuation mark off each word's end (or start).
//! Each order gets a precision and a recall; their averages over the orders that occur in both the
//! hypothesis and the reference ("effective order") give the F-score with β = 2.

use std::collections::HashMap;

use super::{ngram_counts, py_split, segments, NumRefs, Score, SACREBLEU_VERSION};
use crate::error::Result;

/// Maximum character n-gram order (`CHRF.CHAR_ORDER`).
pub const CHAR_ORDER: usize = 6;
/// Recall is β times as important as precision (`CHRF.BETA`).
pub const BETA: f64 = 2.0;

/// chrF with `word_order` word n-gram orders: 0 for chrF, 2 for chrF++.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chrf {
    pub word_order: usize,
}

/// Per order, `[hypothesis n-grams, reference n-grams, matches]`, flattened: 3 × (6 + word_order) counts.
type Stats = Vec<u64>;

impl Chrf {
    /// sacrebleu `CHRF()`.
    pub const CHRF: Chrf = Chrf { word_order: 0 };
    /// sacrebleu `CHRF(word_order=2)`.
    pub const CHRF_PP: Chrf = Chrf { word_order: 2 };

    /// `chrF2`, `chrF2++` (`CHRFScore.__init__`).
    pub fn name(&self) -> String {
        format!("chrF{}{}", BETA as u32, "+".repeat(self.word_order))
    }

    /// `CHRFSignature`: `nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0`.
    pub fn signature(&self, num_refs: NumRefs) -> String {
        format!(
            "nrefs:{num_refs}|case:mixed|eff:yes|nc:{CHAR_ORDER}|nw:{}|space:no|version:{SACREBLEU_VERSION}",
            self.word_order
        )
    }

    /// Corpus chrF: the n-gram statistics of all sentences are summed, then one F-score is computed.
    pub fn corpus_score<H, S, R>(&self, hyps: &[H], refs: &[S]) -> Result<Score>
    where
        H: AsRef<str>,
        S: AsRef<[R]>,
        R: AsRef<str>,
    {
        let (segments, num_refs) = segments(hyps, refs)?;
        let mut total: Stats = vec![0; 3 * self.order()];
        for segment in &segments {
            let stats = self.segment_statistics(segment.hyp, &segment.refs);
            for (t, s) in total.iter_mut().zip(stats) {
                *t += s;
            }
        }
        Ok(Score { name: self.name(), score: self.f_score(&total), signature: self.signature(num_refs) })
    }

    /// Sentence chrF (`Metric.sentence_score`): the corpus score of this one sentence.
    pub fn sentence_score<R: AsRef<str>>(&self, hyp: &str, refs: &[R]) -> Result<Score> {
        self.corpus_score(&[hyp], &[refs])
    }

    fn order(&self) -> usize {
        CHAR_ORDER + self.word_order
    }

    /// The statistics against the reference with the best F-score; the first wins a tie
    /// (`CHRF._compute_segment_statistics`).
    fn segment_statistics(&self, hyp: &str, refs: &[&str]) -> Stats {
        let hyp_chars = chars_without_whitespace(hyp);
        let hyp_words = split_punctuation(hyp);
        let hyp_ngrams = self.all_ngrams(&hyp_chars, &hyp_words);

        let mut best_stats = Stats::new();
        let mut best_f = -1.0;
        for reference in refs {
            let ref_chars = chars_without_whitespace(reference);
            let ref_words = split_punctuation(reference);
            let ref_ngrams = self.all_ngrams(&ref_chars, &ref_words);

            let mut stats = Stats::with_capacity(3 * self.order());
            for (h, r) in hyp_ngrams.iter().zip(&ref_ngrams) {
                stats.extend(match_statistics(h, r));
            }
            let f = self.f_score(&stats);
            if f > best_f {
                best_f = f;
                best_stats = stats;
            }
        }
        best_stats
    }

    /// N-gram counts per order: characters 1..=6, then words 1..=word_order. Keys are the n-grams'
    /// characters, words joined by a space (words never contain one), so both kinds share a type.
    fn all_ngrams(&self, chars: &[char], words: &[&str]) -> Vec<HashMap<String, u64>> {
        let mut orders = Vec::with_capacity(self.order());
        for n in 1..=CHAR_ORDER {
            orders.push(ngram_counts(chars, n).into_iter().map(|(g, c)| (g.iter().collect(), c)).collect());
        }
        for n in 1..=self.word_order {
            orders.push(ngram_counts(words, n).into_iter().map(|(g, c)| (g.join(" "), c)).collect());
        }
        orders
    }

    /// The F-score from summed statistics with effective-order averaging, i.e. `eps_smoothing=False`
    /// (`CHRF._compute_f_score`). The float operations follow sacrebleu's order.
    fn f_score(&self, stats: &[u64]) -> f64 {
        let factor = BETA * BETA;
        let mut avg_prec = 0.0;
        let mut avg_rec = 0.0;
        let mut effective_order = 0usize;
        for order in stats.chunks_exact(3).take(self.order()) {
            let (n_hyp, n_ref, n_match) = (order[0], order[1], order[2]);
            if n_hyp > 0 && n_ref > 0 {
                avg_prec += n_match as f64 / n_hyp as f64;
                avg_rec += n_match as f64 / n_ref as f64;
                effective_order += 1;
            }
        }
        if effective_order == 0 {
            avg_prec = 0.0;
            avg_rec = 0.0;
        } else {
            avg_prec /= effective_order as f64;
            avg_rec /= effective_order as f64;
        }
        if avg_prec + avg_rec != 0.0 {
            let mut score = (1.0 + factor) * avg_prec * avg_rec;
            score /= (factor * avg_prec) + avg_rec;
            100.0 * score
        } else {
            0.0
        }
    }
}

/// `[hypothesis n-grams, reference n-grams, clipped matches]` for one order; the hypothesis count is
/// 0 when the reference has no n-gram of this order (`CHRF._get_match_statistics`).
fn match_statistics(hyp: &HashMap<String, u64>, reference: &HashMap<String, u64>) -> [u64; 3] {
    let mut matches = 0;
    let mut hyp_count = 0;
    for (ngram, &count) in hyp {
        hyp_count += count;
        if let Some(&ref_count) = reference.get(ngram) {
            matches += count.min(ref_count);
        }
    }
    let ref_count = reference.values().sum();
    [if reference.is_empty() { 0 } else { hyp_count }, ref_count, matches]
}

/// The sentence's characters with all whitespace removed: `''.join(line.split())`
/// (`helpers.extract_all_char_ngrams`, `include_whitespace=False`).
fn chars_without_whitespace(sentence: &str) -> Vec<char> {
    py_split(sentence).flat_map(str::chars).collect()
}

/// Words with one ASCII punctuation mark split off the end, or else off the start: `'(hi)'` gives
/// `'(hi'` and `')'` (`CHRF._remove_punctuation`, sacrebleu issue #124). One-character words stay.
fn split_punctuation(sentence: &str) -> Vec<&str> {
    let is_punct = |c: char| c.is_ascii_punctuation();
    let mut words = Vec::new();
    for word in py_split(sentence) {
        let first = word.chars().next().unwrap_or(' ');
        let last = word.chars().next_back().unwrap_or(' ');
        if word.chars().count() == 1 {
            words.push(word);
        } else if is_punct(last) {
            words.push(&word[..word.len() - last.len_utf8()]);
            words.push(&word[word.len() - last.len_utf8()..]);
        } else if is_punct(first) {
            words.push(&word[..first.len_utf8()]);
            words.push(&word[first.len_utf8()..]);
        } else {
            words.push(word);
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chrf(hyp: &str, reference: &str) -> f64 {
        Chrf::CHRF.sentence_score(hyp, &[reference]).unwrap().score
    }

    #[test]
    fn identical_is_100_disjoint_is_0() {
        assert_eq!(chrf("the cat sat", "the cat sat"), 100.0);
        assert_eq!(Chrf::CHRF_PP.sentence_score("ድመቷ ተቀመጠች።", &["ድመቷ ተቀመጠች።"]).unwrap().score, 100.0);
        assert_eq!(chrf("abc", "xyz"), 0.0);
        assert_eq!(chrf("", "xyz"), 0.0);
        assert_eq!(chrf("", ""), 0.0);
    }

    #[test]
    fn whitespace_is_ignored() {
        assert_eq!(chrf("thecat", "the cat"), 100.0);
    }

    #[test]
    fn hand_computed_unigrams_only() {
        // "ab" vs "ac": order 1: P = R = 1/2; order 2: 1 n-gram each, no match: P = R = 0.
        // Orders 3–6 occur in neither, so the effective order is 2: P = R = 1/4, F = 1/4.
        assert!((chrf("ab", "ac") - 25.0).abs() < 1e-12);
        // "ab" vs "abc": order 1: P = 1, R = 2/3; order 2: P = 1, R = 1/2. Averages P = 1, R = 7/12;
        // F2 = 5·P·R / (4·P + R).
        let (p, r) = (1.0, 7.0 / 12.0);
        assert!((chrf("ab", "abc") - 100.0 * 5.0 * p * r / (4.0 * p + r)).abs() < 1e-12);
    }

    #[test]
    fn best_reference_wins() {
        let one = Chrf::CHRF.sentence_score("the cat", &["a dog"]).unwrap().score;
        let two = Chrf::CHRF.sentence_score("the cat", &["a dog", "the cat"]).unwrap().score;
        assert!(one < 100.0);
        assert_eq!(two, 100.0);
    }

    #[test]
    fn names_and_signatures() {
        let s = Chrf::CHRF_PP.sentence_score("a", &["a", "b"]).unwrap();
        assert_eq!(s.name, "chrF2++");
        assert_eq!(s.signature, "nrefs:2|case:mixed|eff:yes|nc:6|nw:2|space:no|version:2.6.0");
        assert_eq!(Chrf::CHRF.name(), "chrF2");
        assert_eq!(
            Chrf::CHRF.signature(NumRefs::Variable),
            "nrefs:var|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0"
        );
    }

    #[test]
    fn punctuation_split_like_sacrebleu() {
        assert_eq!(split_punctuation("(hi) there, x ."), ["(hi", ")", "there", ",", "x", "."]);
        assert_eq!(split_punctuation("\"quoted ba'aa"), ["\"", "quoted", "ba'aa"]);
        // Non-ASCII punctuation (Ethiopic full stop, Tibetan shad) is not split off.
        assert_eq!(split_punctuation("ነው። ཡིན།"), ["ነው።", "ཡིན།"]);
    }
}
