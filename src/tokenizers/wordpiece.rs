//! WordPiece (BERT): greedy longest-prefix match within each word, the whole word becoming
//! `[UNK]` if any part fails (HF `models/wordpiece`, llama.cpp `llm_tokenizer_wpm_session`).
//! Also BERT's normalizer and pre-tokenizer, with HF's character classes
//! (`normalizers/bert.rs`, `pre_tokenizers/bert.rs`).
//!
//! llama.cpp's GGUF vocab spells WordPiece differently: the converter turns `##piece` into
//! `piece` and `word` into `▁word` (`convert_hf_to_gguf.py`, `BertModel.set_vocab`), so there a
//! word's first piece carries the `▁` and continuations carry nothing.

use std::sync::OnceLock;

use fancy_regex::Regex;
use unicode_normalization::UnicodeNormalization;

use super::Vocab;

pub(crate) struct WordPiece {
    pub unk: Option<u32>,
    /// Put before a word's first piece: `▁` in GGUF vocabs, nothing in HF ones.
    pub word_prefix: String,
    /// Put before every later piece: nothing in GGUF vocabs, `##` in HF ones.
    pub continuing_prefix: String,
    /// Longer words are `[UNK]` outright (HF's `max_input_chars_per_word`, 100).
    pub max_input_chars_per_word: usize,
}

impl WordPiece {
    pub fn tokenize(&self, vocab: &Vocab, word: &str, out: &mut Vec<u32>) {
        if word.is_empty() {
            return;
        }
        let first = out.len();
        let unknown = |out: &mut Vec<u32>| {
            out.truncate(first);
            out.extend(self.unk);
        };
        if word.chars().count() > self.max_input_chars_per_word {
            return unknown(out);
        }
        let mut candidate = String::with_capacity(word.len() + 4);
        let mut start = 0;
        while start < word.len() {
            let prefix = if start == 0 { &self.word_prefix } else { &self.continuing_prefix };
            // Only candidates no longer than the vocabulary's longest token can match: trying
            // longer ones first made a long word cost its length cubed.
            let longest_piece = vocab.longest.saturating_sub(prefix.len());
            let mut end = word.floor_char_boundary(start.saturating_add(longest_piece).min(word.len()));
            if end == start {
                return unknown(out);
            }
            let found = loop {
                candidate.clear();
                candidate.push_str(prefix);
                candidate.push_str(&word[start..end]);
                if let Some(id) = vocab.get(&candidate) {
                    break Some(id);
                }
                // One char shorter.
                match word[start..end].char_indices().next_back() {
                    Some((i, _)) if i > 0 => end = start + i,
                    _ => break None,
                }
            };
            match found {
                Some(id) => out.push(id),
                None => return unknown(out),
            }
            start = end;
        }
    }
}

fn class(cell: &'static OnceLock<Regex>, pattern: &str, c: char) -> bool {
    let re = cell.get_or_init(|| Regex::new(pattern).expect("a Unicode class compiles"));
    let mut buf = [0u8; 4];
    re.is_match(c.encode_utf8(&mut buf)).unwrap_or(false)
}

/// Unicode punctuation (`P*`) or ASCII punctuation (which adds `$+<=>^`|~`).
pub(crate) fn is_punctuation(c: char) -> bool {
    static P: OnceLock<Regex> = OnceLock::new();
    c.is_ascii_punctuation() || (!c.is_ascii() && class(&P, r"^\p{P}$", c))
}

/// HF `is_control`: general category `C*`, except tab, newline and carriage return.
fn is_control(c: char) -> bool {
    static C: OnceLock<Regex> = OnceLock::new();
    !matches!(c, '\t' | '\n' | '\r') && class(&C, r"^\p{C}$", c)
}

pub(crate) fn is_nonspacing_mark(c: char) -> bool {
    static MN: OnceLock<Regex> = OnceLock::new();
    !c.is_ascii() && class(&MN, r"^\p{Mn}$", c)
}

/// The CJK blocks BERT puts spaces around (HF `is_chinese_char`, the range 0x2B920 included
/// as HF has it).
fn is_chinese_char(c: char) -> bool {
    matches!(c as u32,
        0x4E00..=0x9FFF | 0x3400..=0x4DBF | 0x20000..=0x2A6DF | 0x2A700..=0x2B73F | 0x2B740..=0x2B81F
        | 0x2B920..=0x2CEAF | 0xF900..=0xFAFF | 0x2F800..=0x2FA1F)
}

/// HF `BertNormalizer`.
pub(crate) fn bert_normalize(
    text: &str,
    clean_text: bool,
    handle_chinese_chars: bool,
    strip_accents: bool,
    lowercase: bool,
) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        if clean_text {
            if c == '\0' || c == '\u{fffd}' || is_control(c) {
                continue;
            }
            if matches!(c, '\t' | '\n' | '\r') || c.is_whitespace() {
                s.push(' ');
                continue;
            }
        }
        if handle_chinese_chars && is_chinese_char(c) {
            s.push(' ');
            s.push(c);
            s.push(' ');
        } else {
            s.push(c);
        }
    }
    if strip_accents {
        s = s.nfd().filter(|&c| !is_nonspacing_mark(c)).collect();
    }
    if lowercase {
        s = s.to_lowercase();
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenizers::FxHashMap;

    fn vocab(tokens: &[&str]) -> Vocab {
        let tokens: Vec<String> = tokens.iter().map(|t| t.to_string()).collect();
        let lookup: FxHashMap<String, u32> = tokens.iter().enumerate().map(|(i, t)| (t.clone(), i as u32)).collect();
        Vocab::new(tokens, lookup)
    }

    #[test]
    fn greedy_longest_prefix_with_phantom_space() {
        let v = vocab(&["[UNK]", "▁un", "▁unaff", "able", "aff", "▁x"]);
        let wp = WordPiece {
            unk: Some(0),
            word_prefix: "▁".into(),
            continuing_prefix: String::new(),
            max_input_chars_per_word: 100,
        };
        let mut out = Vec::new();
        wp.tokenize(&v, "unaffable", &mut out);
        assert_eq!(out, [2, 3]);
        out.clear();
        wp.tokenize(&v, "xq", &mut out); // "q" is nowhere: the whole word is [UNK]
        assert_eq!(out, [0]);
    }

    #[test]
    fn hash_prefix_form() {
        let v = vocab(&["[UNK]", "un", "##aff", "##able"]);
        let wp = WordPiece {
            unk: Some(0),
            word_prefix: String::new(),
            continuing_prefix: "##".into(),
            max_input_chars_per_word: 100,
        };
        let mut out = Vec::new();
        wp.tokenize(&v, "unaffable", &mut out);
        assert_eq!(out, [1, 2, 3]);
    }

    #[test]
    fn bert_normalizer() {
        assert_eq!(bert_normalize("Héllo\tWORLD\u{200b}中文", true, true, true, true), "hello world 中  文 ");
        assert!(is_punctuation('$') && is_punctuation('。') && !is_punctuation('a'));
    }
}
