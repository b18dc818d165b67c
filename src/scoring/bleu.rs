//! BLEU (Papineni et al. 2002), as sacrebleu 2.6.0's `BLEU()` (sacrebleu/metrics/bleu.py): the 13a
//! (mteval-v13a) tokenizer, word n-grams of orders 1–4 clipped by the maximum count over the references,
//! the closest reference length for the brevity penalty, and "exp" smoothing (NIST, mteval-v13a.pl):
//! the k-th order without a match gets precision 100 / (2^k · total).

use std::collections::HashMap;

use super::{ngram_counts, py_rstrip, py_split, segments, NumRefs, Score, SACREBLEU_VERSION};
use crate::error::Result;

/// Maximum n-gram order (`bleu.MAX_NGRAM_ORDER`).
pub const MAX_NGRAM_ORDER: usize = 4;

/// sacrebleu `BLEU()`: mixed case, 13a tokenizer, exp smoothing, no effective order.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Bleu;

/// BLEU's sufficient statistics, summed over sentences.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BleuStats {
    /// Hypothesis length in tokens.
    pub sys_len: u64,
    /// Length of the reference closest in length to each hypothesis.
    pub ref_len: u64,
    /// Clipped n-gram matches per order.
    pub correct: [u64; MAX_NGRAM_ORDER],
    /// Hypothesis n-grams per order.
    pub total: [u64; MAX_NGRAM_ORDER],
}

/// A BLEU score with its parts (`BLEUScore`).
#[derive(Debug, Clone, PartialEq)]
pub struct BleuBreakdown {
    pub score: f64,
    /// Smoothed n-gram precisions in percent.
    pub precisions: [f64; MAX_NGRAM_ORDER],
    pub brevity_penalty: f64,
}

impl Bleu {
    pub fn name(&self) -> String {
        "BLEU".to_string()
    }

    /// `BLEUSignature`: `nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0`.
    pub fn signature(&self, num_refs: NumRefs) -> String {
        format!("nrefs:{num_refs}|case:mixed|eff:no|tok:13a|smooth:exp|version:{SACREBLEU_VERSION}")
    }

    /// Corpus BLEU: statistics summed over sentences, then one score.
    pub fn corpus_score<H, S, R>(&self, hyps: &[H], refs: &[S]) -> Result<Score>
    where
        H: AsRef<str>,
        S: AsRef<[R]>,
        R: AsRef<str>,
    {
        let (stats, num_refs) = self.corpus_statistics(hyps, refs)?;
        Ok(Score { name: self.name(), score: compute_bleu(&stats).score, signature: self.signature(num_refs) })
    }

    /// Sentence BLEU with sacrebleu's defaults (no effective order, so a sentence shorter than four
    /// tokens scores 0): the corpus score of this one sentence.
    pub fn sentence_score<R: AsRef<str>>(&self, hyp: &str, refs: &[R]) -> Result<Score> {
        self.corpus_score(&[hyp], &[refs])
    }

    /// The summed statistics of a corpus, for [`compute_bleu`].
    pub fn corpus_statistics<H, S, R>(&self, hyps: &[H], refs: &[S]) -> Result<(BleuStats, NumRefs)>
    where
        H: AsRef<str>,
        S: AsRef<[R]>,
        R: AsRef<str>,
    {
        let (segments, num_refs) = segments(hyps, refs)?;
        let mut total = BleuStats::default();
        for segment in &segments {
            let s = segment_statistics(segment.hyp, &segment.refs);
            total.sys_len += s.sys_len;
            total.ref_len += s.ref_len;
            for n in 0..MAX_NGRAM_ORDER {
                total.correct[n] += s.correct[n];
                total.total[n] += s.total[n];
            }
        }
        Ok((total, num_refs))
    }
}

/// One sentence's statistics (`BLEU._extract_reference_info` + `BLEU._compute_segment_statistics`).
fn segment_statistics(hyp: &str, refs: &[&str]) -> BleuStats {
    let hyp_tokens = preprocess(hyp);
    let hyp_tokens: Vec<&str> = py_split(&hyp_tokens).collect();

    // Reference n-grams: for each n-gram the maximum count over the references.
    let ref_tokens: Vec<String> = refs.iter().map(|r| preprocess(r)).collect();
    let ref_tokens: Vec<Vec<&str>> = ref_tokens.iter().map(|r| py_split(r).collect()).collect();
    let mut ref_ngrams: HashMap<&[&str], u64> = HashMap::new();
    for tokens in &ref_tokens {
        for n in 1..=MAX_NGRAM_ORDER {
            for (ngram, count) in ngram_counts(tokens, n) {
                let max = ref_ngrams.entry(ngram).or_insert(0);
                *max = (*max).max(count);
            }
        }
    }
    let ref_lens: Vec<u64> = ref_tokens.iter().map(|t| t.len() as u64).collect();

    let mut stats = BleuStats {
        sys_len: hyp_tokens.len() as u64,
        ref_len: closest_ref_len(hyp_tokens.len() as u64, &ref_lens),
        ..BleuStats::default()
    };
    for n in 1..=MAX_NGRAM_ORDER {
        for (ngram, count) in ngram_counts(&hyp_tokens, n) {
            stats.total[n - 1] += count;
            if let Some(&ref_count) = ref_ngrams.get(ngram) {
                stats.correct[n - 1] += count.min(ref_count);
            }
        }
    }
    stats
}

/// The reference length closest to the hypothesis length; the shorter one on a tie
/// (`BLEU._get_closest_ref_len`).
fn closest_ref_len(hyp_len: u64, ref_lens: &[u64]) -> u64 {
    let mut closest: Option<(u64, u64)> = None; // (difference, length)
    for &ref_len in ref_lens {
        let diff = hyp_len.abs_diff(ref_len);
        closest = match closest {
            Some((d, l)) if diff > d || (diff == d && ref_len >= l) => Some((d, l)),
            _ => Some((diff, ref_len)),
        };
    }
    closest.map_or(0, |(_, len)| len)
}

/// `BLEU._preprocess_segment`: strip trailing whitespace, then tokenize (no lowercasing by default).
fn preprocess(sentence: &str) -> String {
    tokenize_13a(py_rstrip(sentence))
}

/// BLEU from summed statistics with exp smoothing, no effective order (`BLEU.compute_bleu`).
pub fn compute_bleu(stats: &BleuStats) -> BleuBreakdown {
    let (sys_len, ref_len) = (stats.sys_len as f64, stats.ref_len as f64);
    let brevity_penalty = brevity_penalty(stats.sys_len, stats.ref_len, sys_len, ref_len);
    let mut precisions = [0.0; MAX_NGRAM_ORDER];

    // No match of any order: 0 (sacrebleu #141).
    if stats.correct.iter().all(|&c| c == 0) {
        return BleuBreakdown { score: 0.0, precisions, brevity_penalty };
    }

    let mut smooth_mteval = 1.0;
    for (precision, (&correct, &total)) in precisions.iter_mut().zip(stats.correct.iter().zip(&stats.total)) {
        if total == 0 {
            break;
        }
        if correct == 0 {
            smooth_mteval *= 2.0;
            *precision = 100.0 / (smooth_mteval * total as f64);
        } else {
            *precision = 100.0 * correct as f64 / total as f64;
        }
    }

    // Geometric mean over all four orders; an order the hypothesis is too short for has precision 0,
    // whose log sacrebleu floors to -9999999999 (`utils.my_log`), making the score 0.
    let log_sum = precisions.iter().fold(0.0, |sum, &p| sum + my_log(p));
    let score = brevity_penalty * (log_sum / MAX_NGRAM_ORDER as f64).exp();
    BleuBreakdown { score, precisions, brevity_penalty }
}

/// exp(1 − r/c) when the hypotheses are shorter than the references, else 1; 0 for an empty hypothesis.
fn brevity_penalty(sys_len: u64, ref_len: u64, sys_len_f: f64, ref_len_f: f64) -> f64 {
    if sys_len < ref_len {
        if sys_len > 0 {
            (1.0 - ref_len_f / sys_len_f).exp()
        } else {
            0.0
        }
    } else {
        1.0
    }
}

/// `utils.my_log`: log, with log(0) floored to -9999999999.
fn my_log(x: f64) -> f64 {
    if x == 0.0 {
        -9999999999.0
    } else {
        x.ln()
    }
}

/// The 13a tokenizer (`Tokenizer13a.__call__` then `TokenizerRegexp.__call__`), tokens joined by one
/// space. The regexes only test ASCII characters, so they are written out as character tests here;
/// each pass reproduces one Python `re.sub`, scanning left to right without overlapping matches.
pub fn tokenize_13a(line: &str) -> String {
    // Language-independent part.
    let mut line = line.replace("<skipped>", "").replace("-\n", "").replace('\n', " ");
    if line.contains('&') {
        line = line.replace("&quot;", "\"").replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">");
    }
    let line: Vec<char> = format!(" {line} ").chars().collect();

    // ([\{-\~\[-\` -\&\(-\+\:-\@\/]) -> ' \1 ': space out symbols (not . , - ' which follow).
    let mut spaced = Vec::with_capacity(line.len() * 2);
    for &c in &line {
        if is_13a_symbol(c) {
            spaced.extend([' ', c, ' ']);
        } else {
            spaced.push(c);
        }
    }
    let is_digit = |c: char| c.is_ascii_digit();
    let is_period_comma = |c: char| c == '.' || c == ',';
    // ([^0-9])([\.,]) -> '\1 \2 ': period and comma unless preceded by a digit.
    let s = substitute_pairs(&spaced, |a| !is_digit(a), is_period_comma, |a, b| vec![a, ' ', b, ' ']);
    // ([\.,])([^0-9]) -> ' \1 \2': period and comma unless followed by a digit.
    let s = substitute_pairs(&s, is_period_comma, |b| !is_digit(b), |a, b| vec![' ', a, ' ', b]);
    // ([0-9])(-) -> '\1 \2 ': dash after a digit.
    let s = substitute_pairs(&s, is_digit, |b| b == '-', |a, b| vec![a, ' ', b, ' ']);

    let s: String = s.into_iter().collect();
    py_split(&s).collect::<Vec<_>>().join(" ")
}

/// The character class of 13a's first regex: `{|}~ [\]^_` ` `space !"#$%&` `()*+` `:;<=>?@` `/`.
fn is_13a_symbol(c: char) -> bool {
    matches!(c, '{'..='~' | '['..='`' | ' '..='&' | '('..='+' | ':'..='@' | '/')
}

/// Python `re.sub` for a two-character pattern `(first)(second)`: scan left to right; where a pair
/// matches, emit the replacement and continue after the pair.
fn substitute_pairs(
    s: &[char],
    first: impl Fn(char) -> bool,
    second: impl Fn(char) -> bool,
    replace: impl Fn(char, char) -> Vec<char>,
) -> Vec<char> {
    let mut out = Vec::with_capacity(s.len() + s.len() / 2);
    let mut i = 0;
    while i < s.len() {
        if i + 1 < s.len() && first(s[i]) && second(s[i + 1]) {
            out.extend(replace(s[i], s[i + 1]));
            i += 2;
        } else {
            out.push(s[i]);
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bleu(hyp: &str, reference: &str) -> f64 {
        Bleu.sentence_score(hyp, &[reference]).unwrap().score
    }

    #[test]
    fn tokenizer_13a() {
        assert_eq!(tokenize_13a("Hello, world!"), "Hello , world !");
        assert_eq!(tokenize_13a("It costs $3.50, i.e. 1,000.5 birr."), "It costs $ 3.50 , i . e . 1,000.5 birr .");
        assert_eq!(tokenize_13a("pages 10-20 and well-known"), "pages 10 - 20 and well-known");
        assert_eq!(tokenize_13a("a &amp; b &lt;c&gt; &quot;d&quot;"), "a & b < c > \" d \"");
        assert_eq!(tokenize_13a("end-\nof line\nnext<skipped>"), "endof line next");
        assert_eq!(tokenize_13a("a.. b"), "a . . b");
        assert_eq!(tokenize_13a("ቤት። ཡིན།"), "ቤት። ཡིན།");
        assert_eq!(tokenize_13a(""), "");
    }

    #[test]
    fn identical_is_100_disjoint_is_0() {
        assert!((bleu("the cat sat on the mat", "the cat sat on the mat") - 100.0).abs() < 1e-9);
        assert_eq!(bleu("a b c d", "e f g h"), 0.0);
        assert_eq!(bleu("", "e f g h"), 0.0);
        // Fewer than four tokens: no 4-grams, so sacrebleu's default (no effective order) gives 0.
        assert_eq!(bleu("the cat", "the cat"), 0.0);
    }

    #[test]
    fn brevity_penalty_is_exp_1_minus_r_over_c() {
        // 4 of 8 reference tokens, all n-grams match: BLEU = BP = exp(1 - 8/4).
        let b = bleu("a b c d", "a b c d e f g h");
        assert!((b - 100.0 * (1.0f64 - 2.0).exp()).abs() < 1e-9, "{b}");
        // Longer than the reference: no penalty.
        let (stats, _) = Bleu.corpus_statistics(&["a b c d e"], &[["a b c d"]]).unwrap();
        assert_eq!(compute_bleu(&stats).brevity_penalty, 1.0);
    }

    #[test]
    fn exp_smoothing() {
        // 5 tokens vs reference: unigrams 4/5, bigrams 2/4, trigrams 0/3 -> 100/(2·3), 4-grams 0/2 -> 100/(4·2).
        let (stats, _) = Bleu.corpus_statistics(&["a b x c d"], &[["a b y c d"]]).unwrap();
        let b = compute_bleu(&stats);
        let expected = [80.0, 50.0, 100.0 / 6.0, 100.0 / 8.0];
        for (p, e) in b.precisions.iter().zip(expected) {
            assert!((p - e).abs() < 1e-12);
        }
        let geo = expected.iter().map(|p: &f64| p.ln()).sum::<f64>() / 4.0;
        assert!((b.score - geo.exp()).abs() < 1e-9);
    }

    #[test]
    fn closest_reference_length() {
        assert_eq!(closest_ref_len(5, &[3, 7]), 3); // tie: the shorter
        assert_eq!(closest_ref_len(5, &[7, 3]), 3);
        assert_eq!(closest_ref_len(5, &[9, 6, 4]), 4); // 6 and 4 tie
        assert_eq!(closest_ref_len(5, &[9, 6, 2]), 6);
    }

    #[test]
    fn signature() {
        let s = Bleu.corpus_score(&["a", "b"], &[vec!["a"], vec!["b", "c"]]).unwrap();
        assert_eq!(s.signature, "nrefs:var|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0");
        assert_eq!(s.name, "BLEU");
    }
}
