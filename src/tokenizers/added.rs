//! Step 1: cutting special and added tokens out of the input before anything else sees it.
//!
//! The two references pick among overlapping candidates differently, and both are copied:
//! - HF `tokenizers` (`tokenizer/added_vocabulary.rs`, `find_matches`): one leftmost-longest
//!   Aho-Corasick pass. Tokens flagged `normalized` are matched in a second pass, on the
//!   normalized text; with `encode_special_tokens` (our `parse_special = false`) matches of
//!   special tokens are found and then skipped.
//! - llama.cpp (`tokenizer_st_partition`): for each token, longest text first, every remaining
//!   text fragment is split at each occurrence. With `parse_special = false` control and
//!   unknown tokens are left out, user-defined ones still split.

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};

use super::normalize::Normalizer;
use super::{Flavor, FxHashMap};
use crate::error::{Error, Result};

/// One added/special token and the flags that govern how it is matched.
#[derive(Clone, Debug)]
pub(crate) struct AddedToken {
    pub id: u32,
    pub content: String,
    /// Matched only when `parse_special` is set (HF `special`; llama.cpp control/unknown).
    pub special: bool,
    /// Swallow whitespace on the left / right of the match.
    pub lstrip: bool,
    pub rstrip: bool,
    /// HF: match only where the token is not inside a word.
    pub single_word: bool,
    /// HF: match on the normalized text instead of the raw input.
    pub normalized: bool,
}

/// A stretch of input: an added token's id, or text still to tokenize.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Piece<'a> {
    Token(u32),
    /// `at_start`: the text begins at offset 0 of the input (HF Metaspace `prepend_scheme:
    /// first` prefixes only that one).
    Text {
        text: &'a str,
        at_start: bool,
    },
}

struct Matcher {
    automaton: AhoCorasick,
    /// Pattern id → index into `AddedTokens::tokens`.
    token: Vec<usize>,
}

pub(crate) struct AddedTokens {
    tokens: Vec<AddedToken>,
    /// Tokens matched on the raw input: all of them (llama.cpp) or those not `normalized` (HF).
    raw: Option<Matcher>,
    /// HF only: `normalized` tokens, matched on the normalized text by their normalized form.
    normalized: Option<Matcher>,
    by_content: FxHashMap<String, u32>,
}

impl AddedTokens {
    pub fn new(tokens: Vec<AddedToken>, flavor: Flavor, normalizer: Option<&Normalizer>) -> Result<AddedTokens> {
        // llama.cpp needs every occurrence of every token to find which tokens occur at all
        // (overlapping search, only in the Standard match kind); HF wants leftmost-longest.
        let kind = match flavor {
            Flavor::LlamaCpp => MatchKind::Standard,
            Flavor::HuggingFace => MatchKind::LeftmostLongest,
        };
        let build = |select: &dyn Fn(&AddedToken) -> bool, normalize: bool| -> Result<Option<Matcher>> {
            let mut patterns = Vec::new();
            let mut token = Vec::new();
            for (i, t) in tokens.iter().enumerate() {
                if t.content.is_empty() || !select(t) {
                    continue;
                }
                patterns.push(match (normalize, normalizer) {
                    (true, Some(n)) => n.normalize(&t.content),
                    _ => t.content.clone(),
                });
                token.push(i);
            }
            if patterns.is_empty() {
                return Ok(None);
            }
            let automaton = AhoCorasickBuilder::new()
                .match_kind(kind)
                .build(&patterns)
                .map_err(|e| Error::new(format!("added tokens: cannot build the matcher: {e}")))?;
            Ok(Some(Matcher { automaton, token }))
        };
        let (raw, normalized) = match flavor {
            Flavor::LlamaCpp => (build(&|_| true, false)?, None),
            Flavor::HuggingFace => (build(&|t| !t.normalized, false)?, build(&|t| t.normalized, true)?),
        };
        let by_content = tokens.iter().map(|t| (t.content.clone(), t.id)).collect();
        Ok(AddedTokens { tokens, raw, normalized, by_content })
    }

    pub fn id_of(&self, content: &str) -> Option<u32> {
        self.by_content.get(content).copied()
    }

    /// Splits the raw input around added tokens.
    pub fn split<'a>(&self, text: &'a str, parse_special: bool, flavor: Flavor) -> Vec<Piece<'a>> {
        if text.is_empty() {
            return Vec::new();
        }
        match (&self.raw, flavor) {
            (None, _) => vec![Piece::Text { text, at_start: true }],
            (Some(m), Flavor::HuggingFace) => self.split_leftmost_longest(m, text, true, parse_special),
            (Some(m), Flavor::LlamaCpp) => self.split_longest_first(m, text, parse_special),
        }
    }

    /// HF's second pass, over one normalized piece.
    pub fn split_normalized<'a>(&self, text: &'a str, at_start: bool, parse_special: bool) -> Vec<Piece<'a>> {
        match &self.normalized {
            _ if text.is_empty() => Vec::new(),
            None => vec![Piece::Text { text, at_start }],
            Some(m) => self.split_leftmost_longest(m, text, at_start, parse_special),
        }
    }

    /// HF `AddedVocabulary::find_matches`.
    fn split_leftmost_longest<'a>(
        &self,
        m: &Matcher,
        text: &'a str,
        at_start: bool,
        parse_special: bool,
    ) -> Vec<Piece<'a>> {
        let mut pieces = Vec::new();
        let mut done = 0; // end of the last piece emitted
        for found in m.automaton.find_iter(text) {
            let token = &self.tokens[m.token[found.pattern().as_usize()]];
            let (mut start, mut stop) = (found.start(), found.end());
            if token.special && !parse_special {
                continue;
            }
            if token.single_word {
                let word_before = text[..start].chars().next_back().is_some_and(is_word_char);
                let word_after = text[stop..].chars().next().is_some_and(is_word_char);
                if word_before || word_after {
                    continue;
                }
            }
            if token.lstrip {
                let trimmed = text[..start].trim_end_matches(char::is_whitespace).len();
                start = trimmed.max(done);
            }
            if token.rstrip {
                stop += text[stop..].len() - text[stop..].trim_start_matches(char::is_whitespace).len();
            }
            if start < done {
                // The previous token's rstrip already took this stretch.
                start = done;
            }
            if done < start {
                pieces.push(Piece::Text { text: &text[done..start], at_start: at_start && done == 0 });
            }
            pieces.push(Piece::Token(token.id));
            done = stop;
        }
        if done < text.len() {
            pieces.push(Piece::Text { text: &text[done..], at_start: at_start && done == 0 });
        }
        pieces
    }

    /// llama.cpp `tokenizer_st_partition`: for each token in order of decreasing length, split
    /// every text fragment at each of its occurrences. Only tokens that occur in the text are
    /// tried, which an overlapping Aho-Corasick scan finds in one pass.
    fn split_longest_first<'a>(&self, m: &Matcher, text: &'a str, parse_special: bool) -> Vec<Piece<'a>> {
        let mut present: Vec<usize> = Vec::new();
        for found in m.automaton.find_overlapping_iter(text) {
            let index = m.token[found.pattern().as_usize()];
            if (parse_special || !self.tokens[index].special) && !present.contains(&index) {
                present.push(index);
            }
        }
        // llama.cpp sorts by length only (std::sort, so ties fall as they may); ties by id here.
        present.sort_by_key(|&i| (std::cmp::Reverse(self.tokens[i].content.len()), self.tokens[i].id));

        // Fragments as byte ranges into `text`, or token ids.
        let mut fragments: Vec<Result<(usize, usize), u32>> = vec![Ok((0, text.len()))];
        for &index in &present {
            let token = &self.tokens[index];
            let needle = token.content.as_str();
            let mut next = Vec::with_capacity(fragments.len() + 2);
            for fragment in fragments {
                let Ok((mut start, end)) = fragment else {
                    next.push(fragment);
                    continue;
                };
                while let Some(at) = text[start..end].find(needle).map(|i| start + i) {
                    let mut left_end = at;
                    if token.lstrip {
                        // C isspace(): ASCII whitespace only.
                        left_end = start
                            + text[start..at].trim_end_matches(|c: char| c.is_ascii_whitespace() || c == '\x0b').len();
                    }
                    if left_end > start {
                        next.push(Ok((start, left_end)));
                    }
                    next.push(Err(token.id));
                    start = at + needle.len();
                    if token.rstrip {
                        start = end
                            - text[start..end]
                                .trim_start_matches(|c: char| c.is_ascii_whitespace() || c == '\x0b')
                                .len();
                    }
                }
                if start < end {
                    next.push(Ok((start, end)));
                }
            }
            fragments = next;
        }
        fragments
            .into_iter()
            .map(|f| match f {
                Ok((start, end)) => Piece::Text { text: &text[start..end], at_start: start == 0 },
                Err(id) => Piece::Token(id),
            })
            .collect()
    }
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(id: u32, content: &str, special: bool) -> AddedToken {
        AddedToken {
            id,
            content: content.into(),
            special,
            lstrip: false,
            rstrip: false,
            single_word: false,
            normalized: false,
        }
    }

    fn text(s: &str) -> Piece<'_> {
        Piece::Text { text: s, at_start: false }
    }

    fn strip_starts(pieces: Vec<Piece<'_>>) -> Vec<Piece<'_>> {
        pieces
            .into_iter()
            .map(|p| match p {
                Piece::Text { text, .. } => Piece::Text { text, at_start: false },
                t => t,
            })
            .collect()
    }

    #[test]
    fn special_tokens_split_the_text_and_can_be_ignored() {
        for flavor in [Flavor::HuggingFace, Flavor::LlamaCpp] {
            let added = AddedTokens::new(vec![token(1, "<s>", true), token(9, "<tool>", false)], flavor, None).unwrap();
            let pieces = strip_starts(added.split("a<s>b<tool>c", true, flavor));
            assert_eq!(pieces, vec![text("a"), Piece::Token(1), text("b"), Piece::Token(9), text("c")], "{flavor:?}");
            // parse_special = false: the special token is plain text, the non-special one still splits.
            let pieces = strip_starts(added.split("a<s>b<tool>c", false, flavor));
            assert_eq!(pieces, vec![text("a<s>b"), Piece::Token(9), text("c")], "{flavor:?}");
        }
    }

    #[test]
    fn leftmost_longest_versus_longest_first() {
        // "xab" contains "xa" (leftmost) and "ab" (longer): HF takes the leftmost match,
        // llama.cpp the longest token first.
        let tokens = vec![token(1, "xa", true), token(2, "abc", true)];
        let hf = AddedTokens::new(tokens.clone(), Flavor::HuggingFace, None).unwrap();
        assert_eq!(strip_starts(hf.split("xabc", true, Flavor::HuggingFace)), vec![Piece::Token(1), text("bc")]);
        let cpp = AddedTokens::new(tokens, Flavor::LlamaCpp, None).unwrap();
        assert_eq!(strip_starts(cpp.split("xabc", true, Flavor::LlamaCpp)), vec![text("x"), Piece::Token(2)]);
    }

    #[test]
    fn lstrip_and_rstrip_take_the_spaces() {
        let mut t = token(5, "<mask>", true);
        t.lstrip = true;
        t.rstrip = true;
        for flavor in [Flavor::HuggingFace, Flavor::LlamaCpp] {
            let added = AddedTokens::new(vec![t.clone()], flavor, None).unwrap();
            let pieces = strip_starts(added.split("a  <mask>  b", true, flavor));
            assert_eq!(pieces, vec![text("a"), Piece::Token(5), text("b")], "{flavor:?}");
        }
    }

    #[test]
    fn at_start_marks_only_text_at_offset_zero() {
        let added = AddedTokens::new(vec![token(1, "<s>", true)], Flavor::HuggingFace, None).unwrap();
        assert_eq!(
            added.split("a<s>b", true, Flavor::HuggingFace),
            vec![
                Piece::Text { text: "a", at_start: true },
                Piece::Token(1),
                Piece::Text { text: "b", at_start: false }
            ]
        );
        assert_eq!(added.split("<s>b", true, Flavor::HuggingFace)[1], Piece::Text { text: "b", at_start: false });
    }
}
