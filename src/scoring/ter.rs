//! TER, translation edit rate (Snover et al. 2006), as sacrebleu 2.6.0's `TER()`
//! (sacrebleu/metrics/ter.py, lib_ter.py, tokenizers/tokenizer_ter.py).
//!
//! Defaults: lowercase, no normalisation, punctuation kept, no Asian-script handling, so a sentence is
//! just lowercased and split on whitespace. The number of edits is the word-level Levenshtein distance
//! (computed in a beam around the diagonal) plus the number of block shifts, found greedily: while some
//! shift of a block of hypothesis words lowers the edit distance, the best one is applied. TER is edits
//! divided by the average reference length, in percent; the corpus score divides summed edits by summed
//! average lengths.
//!
//! sacrebleu caches edit-distance matrix rows across shift candidates; that cache only saves time (every
//! candidate has the same length, so its rows are identical), so it is left out here.

use super::{py_rstrip, py_split, segments, NumRefs, Score, SACREBLEU_VERSION};
use crate::error::Result;

/// Longest block that may be shifted (`lib_ter._MAX_SHIFT_SIZE`).
const MAX_SHIFT_SIZE: usize = 10;
/// Furthest a block's hypothesis and reference positions may be apart (`_MAX_SHIFT_DIST`).
const MAX_SHIFT_DIST: usize = 50;
/// Half-width of the edit-distance beam (`_BEAM_WIDTH`).
const BEAM_WIDTH: i64 = 25;
/// Shift candidates evaluated per sentence pair before giving up (`_MAX_SHIFT_CANDIDATES`).
const MAX_SHIFT_CANDIDATES: usize = 1000;
/// A cell outside the beam (`_INT_INFINITY`).
const INFINITY: i64 = 10_000_000_000_000_000;

/// sacrebleu `TER()`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Ter;

impl Ter {
    pub fn name(&self) -> String {
        "TER".to_string()
    }

    /// `TERSignature`: `nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0`.
    pub fn signature(&self, num_refs: NumRefs) -> String {
        format!("nrefs:{num_refs}|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:{SACREBLEU_VERSION}")
    }

    /// Corpus TER: total edits / total average reference length (`TER._compute_score_from_stats`).
    pub fn corpus_score<H, S, R>(&self, hyps: &[H], refs: &[S]) -> Result<Score>
    where
        H: AsRef<str>,
        S: AsRef<[R]>,
        R: AsRef<str>,
    {
        let (segments, num_refs) = segments(hyps, refs)?;
        let mut total_edits = 0.0;
        let mut total_ref_length = 0.0;
        for segment in &segments {
            let (edits, ref_length) = segment_statistics(segment.hyp, &segment.refs);
            total_edits += edits as f64;
            total_ref_length += ref_length;
        }
        let rate = if total_ref_length > 0.0 {
            total_edits / total_ref_length
        } else if total_edits > 0.0 {
            1.0 // empty references, non-empty hypotheses
        } else {
            0.0 // everything empty
        };
        Ok(Score { name: self.name(), score: 100.0 * rate, signature: self.signature(num_refs) })
    }

    /// Sentence TER: the corpus score of this one sentence.
    pub fn sentence_score<R: AsRef<str>>(&self, hyp: &str, refs: &[R]) -> Result<Score> {
        self.corpus_score(&[hyp], &[refs])
    }
}

/// (fewest edits over the references, average reference length) (`TER._compute_segment_statistics`).
fn segment_statistics(hyp: &str, refs: &[&str]) -> (u64, f64) {
    let hyp_words = tokenize(hyp);
    let mut best_edits = u64::MAX;
    let mut ref_lengths = 0u64;
    for reference in refs {
        let ref_words = tokenize(reference);
        let (hyp_ids, ref_ids) = word_ids(&hyp_words, &ref_words);
        let (edits, ref_len) = translation_edit_rate(&hyp_ids, &ref_ids);
        ref_lengths += ref_len as u64;
        best_edits = best_edits.min(edits as u64);
    }
    (best_edits, ref_lengths as f64 / refs.len() as f64)
}

/// `TercomTokenizer` with the defaults, after `TER._preprocess_segment`'s `rstrip()`: lowercase and
/// split on whitespace.
fn tokenize(sentence: &str) -> Vec<String> {
    let lowered = py_rstrip(sentence).to_lowercase();
    py_split(&lowered).map(str::to_string).collect()
}

/// Words replaced by small integers (equal words, equal ids), so the search compares integers.
fn word_ids(hyp: &[String], reference: &[String]) -> (Vec<u32>, Vec<u32>) {
    let mut vocabulary = std::collections::HashMap::new();
    let mut id = |w: &String| {
        let next = vocabulary.len() as u32;
        *vocabulary.entry(w.clone()).or_insert(next)
    };
    let hyp = hyp.iter().map(&mut id).collect();
    let reference = reference.iter().map(&mut id).collect();
    (hyp, reference)
}

/// (edits, reference length) for one hypothesis and one reference (`lib_ter.translation_edit_rate`).
fn translation_edit_rate(hyp: &[u32], reference: &[u32]) -> (usize, usize) {
    if reference.is_empty() {
        return (hyp.len(), 0); // every hypothesis word is an insertion
    }
    let ed = BeamEditDistance { reference };
    let mut words = hyp.to_vec();
    let mut shifts = 0;
    let mut checked_candidates = 0;
    // Shift until no shift lowers the edit distance, or the candidate budget is spent (in which case
    // the last shift found is not applied, as in sacrebleu).
    loop {
        let (delta, shifted) = best_shift(&words, reference, &ed, &mut checked_candidates);
        if checked_candidates >= MAX_SHIFT_CANDIDATES || delta <= 0 {
            break;
        }
        shifts += 1;
        words = shifted;
    }
    let (distance, _) = ed.distance(&words);
    (shifts + distance as usize, reference.len())
}

/// The shift that lowers the edit distance the most, as (reduction, shifted words); (0, unchanged)
/// when there is none (`lib_ter._shift`). Candidates are ranked like Tercom: biggest reduction, then
/// longest block, then earliest block, then earliest target position; the first of equals is kept.
fn best_shift(
    words_h: &[u32],
    words_r: &[u32],
    ed: &BeamEditDistance,
    checked_candidates: &mut usize,
) -> (i64, Vec<u32>) {
    let (pre_score, inv_trace) = ed.distance(words_h);
    // The trace rewrites the hypothesis into the reference; flipped, it aligns reference to hypothesis.
    let trace: Vec<Op> = inv_trace.iter().map(|op| op.flipped()).collect();
    let Alignment { align, ref_err, hyp_err } = trace_to_alignment(&trace);

    let mut best: Option<(ShiftRank, Vec<u32>)> = None;

    'pairs: for (start_h, start_r, length) in shifted_pairs(words_h, words_r) {
        // Only shift words that are wrong where they are, to a place where the reference is unmatched,
        // and not within the block itself.
        if hyp_err[start_h..start_h + length].iter().all(|&e| !e) {
            continue;
        }
        if ref_err[start_r..start_r + length].iter().all(|&e| !e) {
            continue;
        }
        let aligned = align[start_r];
        if start_h as i64 <= aligned && aligned < (start_h + length) as i64 {
            continue;
        }

        // Try inserting before each hypothesis position aligned to reference positions
        // start_r - 1 .. start_r + length - 1.
        let mut prev_target = -1i64;
        for offset in -1..length as i64 {
            let r = start_r as i64 + offset;
            let target = if r == -1 { 0 } else { align[r as usize] + 1 };
            if target == prev_target {
                continue;
            }
            prev_target = target;

            let shifted = perform_shift(words_h, start_h, length, target as usize);
            let key = (pre_score - ed.distance(&shifted).0, length, -(start_h as i64), -target);
            *checked_candidates += 1;
            if best.as_ref().is_none_or(|(best_key, _)| key > *best_key) {
                best = Some((key, shifted));
            }
        }
        if *checked_candidates >= MAX_SHIFT_CANDIDATES {
            break 'pairs;
        }
    }
    match best {
        Some(((reduction, ..), shifted)) => (reduction, shifted),
        None => (0, words_h.to_vec()),
    }
}

/// How a shift candidate ranks: (edit-distance reduction, block length, -block start, -target).
type ShiftRank = (i64, usize, i64, i64);

/// Every (start_h, start_r, length) with `words_h[start_h..][..length] == words_r[start_r..][..length]`,
/// length 1..=10, positions at most 50 apart, in sacrebleu's order (`lib_ter._find_shifted_pairs`).
fn shifted_pairs(words_h: &[u32], words_r: &[u32]) -> Vec<(usize, usize, usize)> {
    let mut pairs = Vec::new();
    for start_h in 0..words_h.len() {
        for start_r in 0..words_r.len() {
            if start_r.abs_diff(start_h) > MAX_SHIFT_DIST {
                continue;
            }
            let mut length = 0;
            while length < MAX_SHIFT_SIZE && words_h[start_h + length] == words_r[start_r + length] {
                length += 1;
                pairs.push((start_h, start_r, length));
                if start_h + length == words_h.len() || start_r + length == words_r.len() {
                    break;
                }
            }
        }
    }
    pairs
}

/// Moves `words[start..start + length]` to before position `target` (`lib_ter._perform_shift`,
/// including its third case and Python's clamping of slice bounds).
fn perform_shift(words: &[u32], start: usize, length: usize, target: usize) -> Vec<u32> {
    let n = words.len();
    let slice = |a: usize, b: usize| &words[a.min(n)..b.min(n).max(a.min(n))];
    let block = slice(start, start + length);
    let parts: [&[u32]; 4] = if target < start {
        [slice(0, target), block, slice(target, start), slice(start + length, n)]
    } else if target > start + length {
        [slice(0, start), slice(start + length, target), block, slice(target, n)]
    } else {
        [slice(0, start), slice(start + length, length + target), block, slice(length + target, n)]
    };
    parts.concat()
}

/// An edit operation, as seen when rewriting the hypothesis into the reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Nop,
    Sub,
    /// Consumes a reference word.
    Ins,
    /// Consumes a hypothesis word.
    Del,
    /// A cell the beam never reached.
    Undef,
}

impl Op {
    /// `lib_ter._flip_trace`: insertions and deletions swap.
    fn flipped(self) -> Op {
        match self {
            Op::Ins => Op::Del,
            Op::Del => Op::Ins,
            op => op,
        }
    }
}

struct Alignment {
    /// For each reference position, the hypothesis position it is aligned to (-1: before the first).
    align: Vec<i64>,
    ref_err: Vec<bool>,
    hyp_err: Vec<bool>,
}

/// `lib_ter.trace_to_alignment` on the flipped trace (rewriting the reference into the hypothesis).
fn trace_to_alignment(trace: &[Op]) -> Alignment {
    let (mut pos_hyp, mut pos_ref) = (-1i64, -1i64);
    let mut alignment = Alignment { align: Vec::new(), ref_err: Vec::new(), hyp_err: Vec::new() };
    for &op in trace {
        match op {
            Op::Nop | Op::Sub => {
                pos_hyp += 1;
                pos_ref += 1;
                alignment.align.push(pos_hyp);
                alignment.hyp_err.push(op == Op::Sub);
                alignment.ref_err.push(op == Op::Sub);
            }
            Op::Ins => {
                pos_hyp += 1;
                alignment.hyp_err.push(true);
            }
            Op::Del | Op::Undef => {
                pos_ref += 1;
                alignment.align.push(pos_hyp);
                alignment.ref_err.push(true);
            }
        }
    }
    debug_assert_eq!(alignment.align.len() as i64, pos_ref + 1);
    alignment
}

/// Word-level Levenshtein distance to a fixed reference, computed only in a band around the
/// (length-ratio) diagonal, with the trace of operations (`lib_ter.BeamEditDistance`).
struct BeamEditDistance<'a> {
    reference: &'a [u32],
}

impl BeamEditDistance<'_> {
    /// (distance, trace) (`BeamEditDistance._edit_distance`). Ties prefer a match or substitution,
    /// then a deletion, then an insertion (Tercom's preference, with insertion and deletion swapped
    /// because the trace is flipped afterwards).
    fn distance(&self, hyp: &[u32]) -> (i64, Vec<Op>) {
        let (n_h, n_r) = (hyp.len(), self.reference.len());
        let width = n_r + 1;
        let mut dist = vec![(INFINITY, Op::Undef); (n_h + 1) * width];
        // Row 0: j insertions.
        for (j, cell) in dist[..width].iter_mut().enumerate() {
            *cell = (j as i64, Op::Ins);
        }

        let length_ratio = if n_h > 0 { n_r as f64 / n_h as f64 } else { 1.0 };
        // Very different lengths: widen the beam so consecutive rows still overlap.
        let beam_width = if (BEAM_WIDTH as f64) < length_ratio / 2.0 {
            (length_ratio / 2.0 + BEAM_WIDTH as f64).ceil() as i64
        } else {
            BEAM_WIDTH
        };

        for i in 1..=n_h {
            let pseudo_diag = (i as f64 * length_ratio).floor() as i64;
            let min_j = (pseudo_diag - beam_width).max(0) as usize;
            let mut max_j = (pseudo_diag + beam_width).min(n_r as i64 + 1).max(0) as usize;
            if i == n_h {
                max_j = n_r + 1;
            }
            for j in min_j..max_j {
                let here = i * width + j;
                if j == 0 {
                    dist[here] = (dist[here - width].0 + 1, Op::Del);
                    continue;
                }
                let (cost_sub, op_sub) = if hyp[i - 1] == self.reference[j - 1] { (0, Op::Nop) } else { (1, Op::Sub) };
                let candidates = [
                    (dist[here - width - 1].0 + cost_sub, op_sub),
                    (dist[here - width].0 + 1, Op::Del),
                    (dist[here - 1].0 + 1, Op::Ins),
                ];
                for (cost, op) in candidates {
                    if dist[here].0 > cost {
                        dist[here] = (cost, op);
                    }
                }
            }
        }

        // Walk back from the last cell. An unreached cell can only be met if the distance itself is
        // "infinite", which the beam widening prevents; step diagonally there rather than fail.
        let mut trace = Vec::with_capacity(n_h + n_r);
        let (mut i, mut j) = (n_h, n_r);
        while i > 0 || j > 0 {
            let mut op = dist[i * width + j].1;
            if op == Op::Undef {
                op = if i > 0 && j > 0 {
                    Op::Sub
                } else if i > 0 {
                    Op::Del
                } else {
                    Op::Ins
                };
            }
            trace.push(op);
            match op {
                Op::Nop | Op::Sub => {
                    i -= 1;
                    j -= 1;
                }
                Op::Ins => j -= 1,
                Op::Del | Op::Undef => i -= 1,
            }
        }
        trace.reverse();
        (dist[n_h * width + n_r].0, trace)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ter(hyp: &str, reference: &str) -> f64 {
        Ter.sentence_score(hyp, &[reference]).unwrap().score
    }

    #[test]
    fn identical_is_0_and_case_is_ignored() {
        assert_eq!(ter("the cat sat", "the cat sat"), 0.0);
        assert_eq!(ter("The Cat SAT", "the cat sat"), 0.0);
        assert_eq!(ter("Бала үйгө барды.", "бала үйгө барды."), 0.0);
    }

    #[test]
    fn substitutions_insertions_deletions() {
        assert!((ter("a b c d", "e f g h") - 100.0).abs() < 1e-12); // 4 substitutions / 4
        assert!((ter("a b", "a b c d") - 50.0).abs() < 1e-12); // 2 insertions / 4
        assert!((ter("a b c d", "a b") - 100.0).abs() < 1e-12); // 2 deletions / 2
        assert!((ter("", "a b") - 100.0).abs() < 1e-12);
        assert_eq!(ter("", ""), 0.0);
        assert_eq!(ter("a b", ""), 100.0); // empty reference, non-empty hypothesis
    }

    #[test]
    fn a_block_shift_is_one_edit() {
        // Moving "on the mat" to the end costs 1 shift instead of 6 edits: 1/6.
        let t = ter("on the mat the cat sat", "the cat sat on the mat");
        assert!((t - 100.0 / 6.0).abs() < 1e-12, "{t}");
    }

    #[test]
    fn best_reference_and_average_length() {
        // Edits: min(0, 2) = 0 against references of lengths 2 and 4: 0 / 3.
        assert_eq!(Ter.sentence_score("a b", &["a b", "c d e f"]).unwrap().score, 0.0);
        // 1 edit (insert c) against ref "a b c" or 2 edits against "x y": 1 / 2.5.
        let t = Ter.sentence_score("a b", &["a b c", "x y"]).unwrap().score;
        assert!((t - 40.0).abs() < 1e-12);
    }

    #[test]
    fn perform_shift_matches_python_slices() {
        let w = [0, 1, 2, 3, 4];
        assert_eq!(perform_shift(&w, 3, 2, 0), [3, 4, 0, 1, 2]);
        assert_eq!(perform_shift(&w, 0, 2, 4), [2, 3, 0, 1, 4]);
        assert_eq!(perform_shift(&w, 1, 2, 2), [0, 3, 1, 2, 4]);
        assert_eq!(perform_shift(&w, 2, 3, 4), [0, 1, 2, 3, 4]);
    }

    #[test]
    fn signature() {
        assert_eq!(
            Ter.sentence_score("a", &["a"]).unwrap().signature,
            "nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0"
        );
    }
}
