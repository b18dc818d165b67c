//! Byte-pair encoding by merge rank. HF `tokenizers` (`models/bpe/word.rs`, `merge_all`) and
//! llama.cpp (`llm_tokenizer_bpe_session::tokenize`) apply the same rule to a word: start from
//! its characters, then repeatedly merge the adjacent pair whose merge rule comes first, the
//! leftmost such pair on a tie, until no rule applies. A heap of candidate pairs keeps a word of
//! n chars at O(n log n), which matters for Gemma, whose whole line is one word.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::{FxHashMap, Vocab};
use crate::error::{Error, Result};

pub(crate) struct Bpe {
    /// (left id, right id) → (rank, merged id).
    merges: FxHashMap<(u32, u32), (u32, u32)>,
    /// HF `byte_fallback`: a char missing from the vocab becomes its `<0xXX>` byte tokens.
    byte_fallback: Option<[Option<u32>; 256]>,
    unk: Option<u32>,
    fuse_unk: bool,
    /// A word that is itself in the vocab is taken whole (Llama 3).
    ignore_merges: bool,
    continuing_subword_prefix: Option<String>,
    end_of_word_suffix: Option<String>,
}

pub(crate) struct BpeOptions {
    pub byte_fallback: Option<[Option<u32>; 256]>,
    pub unk: Option<u32>,
    pub fuse_unk: bool,
    pub ignore_merges: bool,
    pub continuing_subword_prefix: Option<String>,
    pub end_of_word_suffix: Option<String>,
}

#[derive(Clone, Copy)]
struct Symbol {
    id: u32,
    prev: usize,
    next: usize,
    /// Bytes of the word this symbol covers; 0 once merged into its left neighbour.
    len: usize,
}

const NONE: usize = usize::MAX;

impl Bpe {
    /// `merges` in rank order. `what` names the source for errors ("tokenizer.json: model.merges").
    /// `strict`: a merge naming a token that is not in the vocab is an error (HF refuses to
    /// load such a file); otherwise it is skipped (llama.cpp keeps it, but it can never fire
    /// on ids, and the files checked here have none).
    pub fn new<'a>(
        vocab: &Vocab,
        merges: impl Iterator<Item = (&'a str, &'a str)>,
        options: BpeOptions,
        what: &str,
        strict: bool,
    ) -> Result<Bpe> {
        let prefix_len = options.continuing_subword_prefix.as_deref().map_or(0, str::len);
        let mut map = FxHashMap::default();
        let mut merged = String::new();
        for (rank, (left, right)) in merges.enumerate() {
            merged.clear();
            merged.push_str(left);
            merged.push_str(right.get(prefix_len..).unwrap_or(""));
            match (vocab.get(left), vocab.get(right), vocab.get(&merged)) {
                (Some(l), Some(r), Some(m)) => {
                    // Like HF's HashMap collect, a repeated pair keeps its last rank.
                    map.insert((l, r), (rank as u32, m));
                }
                _ if !strict => {}
                (None, _, _) => return Err(Error::new(format!("{what}[{rank}]: {left:?} is not in the vocab"))),
                (_, None, _) => return Err(Error::new(format!("{what}[{rank}]: {right:?} is not in the vocab"))),
                (_, _, None) => {
                    return Err(Error::new(format!("{what}[{rank}]: the merge {merged:?} is not in the vocab")))
                }
            }
        }
        Ok(Bpe {
            merges: map,
            byte_fallback: options.byte_fallback,
            unk: options.unk,
            fuse_unk: options.fuse_unk,
            ignore_merges: options.ignore_merges,
            continuing_subword_prefix: options.continuing_subword_prefix,
            end_of_word_suffix: options.end_of_word_suffix,
        })
    }

    pub fn tokenize(&self, vocab: &Vocab, word: &str, out: &mut Vec<u32>) {
        if word.is_empty() {
            return;
        }
        if self.ignore_merges {
            if let Some(id) = vocab.get(word) {
                out.push(id);
                return;
            }
        }
        let mut symbols = self.initial_symbols(vocab, word);
        self.merge(&mut symbols);
        out.extend(symbols.iter().filter(|s| s.len > 0).map(|s| s.id));
    }

    /// One symbol per char (HF `merge_word`); unknown chars become byte tokens, `[UNK]`, or
    /// nothing, in that order of preference.
    fn initial_symbols(&self, vocab: &Vocab, word: &str) -> Vec<Symbol> {
        let mut symbols: Vec<Symbol> = Vec::with_capacity(word.len());
        let push = |symbols: &mut Vec<Symbol>, id: u32, len: usize| {
            let index = symbols.len();
            if let Some(last) = symbols.last_mut() {
                last.next = index;
            }
            symbols.push(Symbol { id, prev: if index == 0 { NONE } else { index - 1 }, next: NONE, len });
        };
        let mut pending_unk: Option<(u32, usize)> = None;
        let mut buf = String::new();
        let mut chars = word.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            let end = chars.peek().map_or(word.len(), |&(j, _)| j);
            let char_str = &word[i..end];
            let affixed = i > 0 && self.continuing_subword_prefix.is_some()
                || chars.peek().is_none() && self.end_of_word_suffix.is_some();
            let text = if affixed {
                buf.clear();
                if i > 0 {
                    buf.push_str(self.continuing_subword_prefix.as_deref().unwrap_or(""));
                }
                buf.push_str(char_str);
                if chars.peek().is_none() {
                    buf.push_str(self.end_of_word_suffix.as_deref().unwrap_or(""));
                }
                buf.as_str()
            } else {
                char_str
            };
            if let Some(id) = vocab.get(text) {
                if let Some((unk, len)) = pending_unk.take() {
                    push(&mut symbols, unk, len);
                }
                push(&mut symbols, id, c.len_utf8());
                continue;
            }
            if let Some(bytes) = &self.byte_fallback {
                let ids: Option<Vec<u32>> = text.bytes().map(|b| bytes[b as usize]).collect();
                if let Some(ids) = ids {
                    // HF does not flush a pending [UNK] here; neither do we.
                    for id in ids {
                        push(&mut symbols, id, 1);
                    }
                    continue;
                }
            }
            if let Some(unk) = self.unk {
                pending_unk = match pending_unk {
                    Some((u, len)) if self.fuse_unk => Some((u, len + c.len_utf8())),
                    Some((u, len)) => {
                        push(&mut symbols, u, len);
                        Some((unk, c.len_utf8()))
                    }
                    None => Some((unk, c.len_utf8())),
                };
            }
        }
        if let Some((unk, len)) = pending_unk {
            push(&mut symbols, unk, len);
        }
        symbols
    }

    fn merge(&self, symbols: &mut [Symbol]) {
        // Min-heap on (rank, position); the merged id rides along to spot stale entries.
        let mut queue: BinaryHeap<Reverse<(u32, usize, u32)>> = BinaryHeap::with_capacity(symbols.len());
        for i in 1..symbols.len() {
            if let Some(&(rank, merged)) = self.merges.get(&(symbols[i - 1].id, symbols[i].id)) {
                queue.push(Reverse((rank, i - 1, merged)));
            }
        }
        while let Some(Reverse((_, pos, merged))) = queue.pop() {
            let left = symbols[pos];
            if left.len == 0 || left.next == NONE {
                continue;
            }
            let right = symbols[left.next];
            // Stale: one side has merged since this pair was queued.
            if self.merges.get(&(left.id, right.id)).map(|&(_, m)| m) != Some(merged) {
                continue;
            }
            symbols[pos] = Symbol { id: merged, prev: left.prev, next: right.next, len: left.len + right.len };
            symbols[left.next].len = 0;
            if right.next != NONE {
                symbols[right.next].prev = pos;
            }
            if left.prev != NONE {
                if let Some(&(rank, m)) = self.merges.get(&(symbols[left.prev].id, merged)) {
                    queue.push(Reverse((rank, left.prev, m)));
                }
            }
            if right.next != NONE {
                if let Some(&(rank, m)) = self.merges.get(&(merged, symbols[right.next].id)) {
                    queue.push(Reverse((rank, pos, m)));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vocab(tokens: &[&str]) -> Vocab {
        let tokens: Vec<String> = tokens.iter().map(|t| t.to_string()).collect();
        let lookup = tokens.iter().enumerate().map(|(i, t)| (t.clone(), i as u32)).collect();
        Vocab::new(tokens, lookup)
    }

    fn options() -> BpeOptions {
        BpeOptions {
            byte_fallback: None,
            unk: None,
            fuse_unk: false,
            ignore_merges: false,
            continuing_subword_prefix: None,
            end_of_word_suffix: None,
        }
    }

    fn encode(bpe: &Bpe, v: &Vocab, word: &str) -> Vec<u32> {
        let mut out = Vec::new();
        bpe.tokenize(v, word, &mut out);
        out
    }

    #[test]
    fn lowest_rank_first_then_leftmost() {
        let v = vocab(&["a", "b", "c", "ab", "bc", "abc"]);
        // "b c" outranks "a b": a + bc, and "a bc" is no rule.
        let bpe = Bpe::new(&v, [("b", "c"), ("a", "b"), ("ab", "c")].into_iter(), options(), "m", true).unwrap();
        assert_eq!(encode(&bpe, &v, "abc"), [0, 4]);
        let bpe = Bpe::new(&v, [("a", "b"), ("b", "c"), ("ab", "c")].into_iter(), options(), "m", true).unwrap();
        assert_eq!(encode(&bpe, &v, "abc"), [5]);
        // Equal ranks cannot happen between different pairs, but the same pair twice merges left first.
        let v = vocab(&["a", "aa"]);
        let bpe = Bpe::new(&v, [("a", "a")].into_iter(), options(), "m", true).unwrap();
        assert_eq!(encode(&bpe, &v, "aaa"), [1, 0]);
    }

    #[test]
    fn byte_fallback_for_unknown_chars() {
        let mut tokens = vec!["▁", "h", "i", "<unk>"];
        let hex: Vec<String> = (0..=255u8).map(|b| format!("<0x{b:02X}>")).collect();
        tokens.extend(hex.iter().map(String::as_str));
        let v = vocab(&tokens);
        let mut o = options();
        o.byte_fallback = Some(crate::tokenizers::byte_fallback_ids(&v));
        o.unk = Some(3);
        let bpe = Bpe::new(&v, std::iter::empty(), o, "m", true).unwrap();
        // "é" is not in the vocab: its two UTF-8 bytes.
        assert_eq!(encode(&bpe, &v, "hé"), [1, 4 + 0xC3, 4 + 0xA9]);
    }

    #[test]
    fn unknown_chars_fuse_into_one_unk() {
        let v = vocab(&["<unk>", "a"]);
        let mut o = options();
        o.unk = Some(0);
        o.fuse_unk = true;
        let bpe = Bpe::new(&v, std::iter::empty(), o, "m", true).unwrap();
        assert_eq!(encode(&bpe, &v, "xya"), [0, 1]);
    }

    #[test]
    fn ignore_merges_takes_whole_words() {
        let v = vocab(&["a", "b", "ab", "ba", "aba"]);
        let mut o = options();
        o.ignore_merges = true;
        // With merges alone "aba" would be "ab" + "a".
        let bpe = Bpe::new(&v, [("a", "b")].into_iter(), o, "m", true).unwrap();
        assert_eq!(encode(&bpe, &v, "aba"), [4]);
    }

    #[test]
    fn missing_merge_targets_are_named() {
        let v = vocab(&["a", "b"]);
        let e = Bpe::new(&v, [("a", "b")].into_iter(), options(), "model.merges", true).err().unwrap();
        assert!(e.message().contains("model.merges[0]") && e.message().contains("\"ab\""), "{e}");
    }
}
