//! SentencePiece BPE as llama.cpp runs it for `tokenizer.ggml.model = llama` (Llama 1/2,
//! Mistral, Phi-3, Gemma): `llm_tokenizer_spm_session` in `llama-vocab.cpp`, a port of
//! SentencePiece's `bpe_model.cc`. Start from the word's chars; repeatedly merge the adjacent
//! pair whose concatenation is a token with the highest score (leftmost on a tie); at the end,
//! a piece that is not a token becomes its bytes as `<0xXX>` tokens.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::Vocab;

pub(crate) struct Spm {
    /// `tokenizer.ggml.scores`, by id.
    pub scores: Vec<f32>,
    pub byte_ids: [Option<u32>; 256],
    pub unk: Option<u32>,
}

#[derive(Clone, Copy)]
struct Symbol {
    start: usize,
    len: usize,
    prev: usize,
    next: usize,
}

const NONE: usize = usize::MAX;

struct Bigram {
    score: f32,
    left: usize,
    right: usize,
    size: usize,
}

// llama.cpp's `llm_bigram_spm::comparator`: the highest score on top, then the smallest `left`.
impl Ord for Bigram {
    fn cmp(&self, other: &Self) -> Ordering {
        self.score.partial_cmp(&other.score).unwrap_or(Ordering::Equal).then_with(|| other.left.cmp(&self.left))
    }
}
impl PartialOrd for Bigram {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl PartialEq for Bigram {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Bigram {}

impl Spm {
    /// `text` has had its spaces turned into `▁` already.
    pub fn tokenize(&self, vocab: &Vocab, text: &str, out: &mut Vec<u32>) {
        let mut symbols: Vec<Symbol> = Vec::with_capacity(text.len());
        for (i, c) in text.char_indices() {
            let index = symbols.len();
            symbols.push(Symbol { start: i, len: c.len_utf8(), prev: index.wrapping_sub(1), next: index + 1 });
        }
        let Some(last) = symbols.last_mut() else { return };
        last.next = NONE;

        let mut queue = BinaryHeap::with_capacity(symbols.len());
        for i in 1..symbols.len() {
            self.try_add_bigram(vocab, text, &symbols, i - 1, i, &mut queue);
        }
        while let Some(bigram) = queue.pop() {
            let (left, right) = (symbols[bigram.left], symbols[bigram.right]);
            // Stale: either side has changed since the pair was queued.
            if left.len == 0 || right.len == 0 || left.len + right.len != bigram.size {
                continue;
            }
            symbols[bigram.left].len += right.len;
            symbols[bigram.right].len = 0;
            symbols[bigram.left].next = right.next;
            if right.next != NONE {
                symbols[right.next].prev = bigram.left;
            }
            let left = symbols[bigram.left];
            if left.prev != NONE {
                self.try_add_bigram(vocab, text, &symbols, left.prev, bigram.left, &mut queue);
            }
            if left.next != NONE {
                self.try_add_bigram(vocab, text, &symbols, bigram.left, left.next, &mut queue);
            }
        }

        let mut i = 0;
        while i != NONE {
            let s = symbols[i];
            let piece = &text[s.start..s.start + s.len];
            match vocab.get(piece) {
                Some(id) => out.push(id),
                // llama.cpp's `byte_to_token`: `<0xXX>`, else the byte as a one-char token.
                None => out.extend(piece.bytes().filter_map(|b| {
                    self.byte_ids[b as usize]
                        .or_else(|| if b < 0x80 { vocab.get(&(b as char).to_string()) } else { None })
                        .or(self.unk)
                })),
            }
            i = s.next;
        }
    }

    fn try_add_bigram(
        &self,
        vocab: &Vocab,
        text: &str,
        symbols: &[Symbol],
        left: usize,
        right: usize,
        queue: &mut BinaryHeap<Bigram>,
    ) {
        let start = symbols[left].start;
        let size = symbols[left].len + symbols[right].len;
        if let Some(id) = vocab.get(&text[start..start + size]) {
            let score = self.scores.get(id as usize).copied().unwrap_or(0.0);
            queue.push(Bigram { score, left, right, size });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenizers::{byte_fallback_ids, FxHashMap};

    fn spm(tokens: &[(&str, f32)]) -> (Spm, Vocab) {
        let mut all: Vec<(String, f32)> = tokens.iter().map(|(t, s)| (t.to_string(), *s)).collect();
        all.extend((0..=255u8).map(|b| (format!("<0x{b:02X}>"), 0.0)));
        let lookup: FxHashMap<String, u32> = all.iter().enumerate().map(|(i, (t, _))| (t.clone(), i as u32)).collect();
        let vocab = Vocab::new(all.iter().map(|(t, _)| t.clone()).collect(), lookup);
        let spm = Spm { scores: all.iter().map(|(_, s)| *s).collect(), byte_ids: byte_fallback_ids(&vocab), unk: None };
        (spm, vocab)
    }

    fn encode(spm: &Spm, v: &Vocab, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        spm.tokenize(v, text, &mut out);
        out.into_iter().map(|id| v.tokens[id as usize].clone()).collect()
    }

    #[test]
    fn merges_by_score_not_by_order() {
        let (s, v) = spm(&[("▁", -1.0), ("a", -1.0), ("b", -1.0), ("▁a", -5.0), ("ab", -2.0), ("▁ab", -3.0)]);
        // "ab" (-2) beats "▁a" (-5); then "▁" + "ab" = "▁ab" exists.
        assert_eq!(encode(&s, &v, "▁ab"), ["▁ab"]);
        let (s, v) = spm(&[("▁", -1.0), ("a", -1.0), ("b", -1.0), ("▁a", -2.0), ("ab", -5.0)]);
        assert_eq!(encode(&s, &v, "▁ab"), ["▁a", "b"]);
    }

    #[test]
    fn unknown_chars_fall_back_to_bytes() {
        let (s, v) = spm(&[("▁", -1.0), ("a", -1.0)]);
        assert_eq!(encode(&s, &v, "▁é"), ["▁", "<0xC3>", "<0xA9>"]);
    }

    #[test]
    fn ties_merge_leftmost_first() {
        let (s, v) = spm(&[("a", -1.0), ("aa", -1.0)]);
        assert_eq!(encode(&s, &v, "aaa"), ["aa", "a"]);
    }
}
