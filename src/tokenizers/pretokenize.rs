//! Step 3: pre-tokenizers, which cut normalized text into the words the model sees (HF
//! `tokenizers/src/pre_tokenizers/`), the GPT-2 byte-to-unicode map, and llama.cpp's table of
//! split regexes per `tokenizer.ggml.pre` (`llm_tokenizer_bpe` in `llama-vocab.cpp`).
//!
//! llama.cpp's regex list is a chain of HF `Split(…, Isolated)` steps: each regex splits every
//! fragment the previous one left, keeping both the matches and the text between them
//! (`unicode_regex_split`). Each fragment is matched on its own, so a lookahead such as
//! `\s+(?!\S)` never sees past the end of its fragment; that holds here too.

use fancy_regex::Regex;

use super::wordpiece;
use crate::error::{Error, Result};

/// A word for the model. `at_start`: it begins at offset 0 of the input (see `added::Piece`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Word {
    pub text: String,
    pub at_start: bool,
}

/// What HF `Split` does with the delimiters it finds (`SplitDelimiterBehavior`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SplitBehavior {
    Removed,
    Isolated,
    MergedWithPrevious,
    MergedWithNext,
    Contiguous,
}

pub(crate) enum SplitPattern {
    Regex(Regex),
    Literal(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PrependScheme {
    Always,
    First,
    Never,
}

pub(crate) enum PreTokenizer {
    Split {
        pattern: SplitPattern,
        behavior: SplitBehavior,
        invert: bool,
    },
    /// GPT-2's byte-level step: optionally a prefix space and the GPT-2 regex, then every byte
    /// becomes one printable char (`byte_level_char`).
    ByteLevel {
        add_prefix_space: bool,
        use_regex: bool,
    },
    /// SentencePiece-style: `' '` → `▁`, a `▁` in front, optionally a split before each `▁`.
    Metaspace {
        replacement: char,
        prepend: PrependScheme,
        split: bool,
    },
    /// Digits apart from the rest, one by one or in runs.
    Digits {
        individual: bool,
    },
    /// `\w+|[^\w\s]+`.
    Whitespace,
    WhitespaceSplit,
    Punctuation(SplitBehavior),
    /// Whitespace removed, punctuation isolated (HF `BertPreTokenizer`).
    Bert,
    Sequence(Vec<PreTokenizer>),
}

/// GPT-2's pre-tokenizer regex (HF `ByteLevel` with `use_regex`).
pub(crate) const GPT2_PATTERN: &str = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+";

impl PreTokenizer {
    pub fn pre_tokenize(&self, text: &str, at_start: bool) -> Vec<Word> {
        self.apply(vec![Word { text: text.to_string(), at_start }])
    }

    fn apply(&self, words: Vec<Word>) -> Vec<Word> {
        match self {
            PreTokenizer::Sequence(steps) => steps.iter().fold(words, |words, step| step.apply(words)),
            _ => {
                let mut out = Vec::with_capacity(words.len() * 2);
                for word in words {
                    self.split_word(word, &mut out);
                }
                out
            }
        }
    }

    fn split_word(&self, word: Word, out: &mut Vec<Word>) {
        match self {
            PreTokenizer::Split { pattern, behavior, invert } => {
                let matches = match pattern {
                    SplitPattern::Regex(re) => regex_matches(re, &word.text),
                    SplitPattern::Literal(s) => literal_matches(s, &word.text),
                };
                emit(&word, matches, *behavior, *invert, out);
            }
            PreTokenizer::ByteLevel { add_prefix_space, use_regex } => {
                let mut text = word.text;
                if *add_prefix_space && !text.starts_with(' ') {
                    text.insert(0, ' ');
                }
                let word = Word { text, at_start: word.at_start };
                let mut pieces = Vec::new();
                if *use_regex {
                    let matches = regex_matches(gpt2_regex(), &word.text);
                    emit(&word, matches, SplitBehavior::Isolated, false, &mut pieces);
                } else {
                    pieces.push(word);
                }
                out.extend(pieces.into_iter().map(|w| Word { text: byte_level_encode(&w.text), at_start: w.at_start }));
            }
            PreTokenizer::Metaspace { replacement, prepend, split } => {
                let mut text = word.text.replace(' ', &replacement.to_string());
                let add = match prepend {
                    PrependScheme::Always => true,
                    PrependScheme::First => word.at_start,
                    PrependScheme::Never => false,
                };
                if add && !text.starts_with(*replacement) {
                    text.insert(0, *replacement);
                }
                let word = Word { text, at_start: word.at_start };
                if *split {
                    let matches = char_matches(&word.text, |c| c == *replacement);
                    emit(&word, matches, SplitBehavior::MergedWithNext, false, out);
                } else {
                    out.push(word);
                }
            }
            PreTokenizer::Digits { individual } => {
                let matches = char_matches(&word.text, char::is_numeric);
                let behavior = if *individual { SplitBehavior::Isolated } else { SplitBehavior::Contiguous };
                emit(&word, matches, behavior, false, out);
            }
            PreTokenizer::Whitespace => {
                let matches = regex_matches(whitespace_regex(), &word.text);
                emit(&word, matches, SplitBehavior::Removed, true, out);
            }
            PreTokenizer::WhitespaceSplit => {
                let matches = char_matches(&word.text, char::is_whitespace);
                emit(&word, matches, SplitBehavior::Removed, false, out);
            }
            PreTokenizer::Punctuation(behavior) => {
                let matches = char_matches(&word.text, wordpiece::is_punctuation);
                emit(&word, matches, *behavior, false, out);
            }
            PreTokenizer::Bert => {
                let mut words = Vec::new();
                emit(&word, char_matches(&word.text, char::is_whitespace), SplitBehavior::Removed, false, &mut words);
                for w in words {
                    let matches = char_matches(&w.text, wordpiece::is_punctuation);
                    emit(&w, matches, SplitBehavior::Isolated, false, out);
                }
            }
            PreTokenizer::Sequence(_) => out.extend(self.apply(vec![word])),
        }
    }
}

fn gpt2_regex() -> &'static Regex {
    static RE: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| Regex::new(GPT2_PATTERN).expect("the GPT-2 pattern compiles"))
}

fn whitespace_regex() -> &'static Regex {
    static RE: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| Regex::new(r"\w+|[^\w\s]+").expect("the whitespace pattern compiles"))
}

/// `(range, is_match)` covering `text` from start to end: HF `Pattern::find_matches` for a regex.
fn regex_matches(re: &Regex, text: &str) -> Vec<((usize, usize), bool)> {
    let mut out = Vec::new();
    let mut last = 0;
    for m in re.find_iter(text) {
        // fancy-regex gives up only past its backtracking limit, which these patterns do not
        // reach; the rest of the text then stays one piece.
        let Ok(m) = m else { break };
        if m.start() == m.end() {
            continue;
        }
        if last < m.start() {
            out.push(((last, m.start()), false));
        }
        out.push(((m.start(), m.end()), true));
        last = m.end();
    }
    if last < text.len() {
        out.push(((last, text.len()), false));
    }
    out
}

fn literal_matches(needle: &str, text: &str) -> Vec<((usize, usize), bool)> {
    if needle.is_empty() {
        return vec![((0, text.len()), false)];
    }
    let mut out = Vec::new();
    let mut last = 0;
    for (at, _) in text.match_indices(needle) {
        if last < at {
            out.push(((last, at), false));
        }
        out.push(((at, at + needle.len()), true));
        last = at + needle.len();
    }
    if last < text.len() {
        out.push(((last, text.len()), false));
    }
    out
}

/// Each char for which `is_match` holds is a match of its own (HF `Pattern` for `Fn(char)`).
fn char_matches(text: &str, is_match: impl Fn(char) -> bool) -> Vec<((usize, usize), bool)> {
    let mut out = Vec::new();
    let mut last = 0;
    for (i, c) in text.char_indices() {
        if is_match(c) {
            if last < i {
                out.push(((last, i), false));
            }
            out.push(((i, i + c.len_utf8()), true));
            last = i + c.len_utf8();
        }
    }
    if last < text.len() {
        out.push(((last, text.len()), false));
    }
    out
}

/// HF `NormalizedString::split`: turns `(range, is_match)` into words per `behavior`.
fn emit(
    word: &Word,
    mut matches: Vec<((usize, usize), bool)>,
    behavior: SplitBehavior,
    invert: bool,
    out: &mut Vec<Word>,
) {
    if invert {
        for m in &mut matches {
            m.1 = !m.1;
        }
    }
    let mut pieces: Vec<((usize, usize), bool)> = Vec::with_capacity(matches.len());
    match behavior {
        SplitBehavior::Isolated => pieces.extend(matches.into_iter().map(|(r, _)| (r, false))),
        SplitBehavior::Removed => pieces = matches,
        SplitBehavior::Contiguous => {
            let mut previous = false;
            for (r, is_match) in matches {
                match pieces.last_mut() {
                    Some((last, _)) if is_match == previous => last.1 = r.1,
                    _ => pieces.push((r, false)),
                }
                previous = is_match;
            }
        }
        SplitBehavior::MergedWithPrevious => {
            let mut previous = false;
            for (r, is_match) in matches {
                match pieces.last_mut() {
                    Some((last, _)) if is_match && !previous => last.1 = r.1,
                    _ => pieces.push((r, false)),
                }
                previous = is_match;
            }
        }
        SplitBehavior::MergedWithNext => {
            let mut previous = false;
            for (r, is_match) in matches.into_iter().rev() {
                match pieces.last_mut() {
                    Some((last, _)) if is_match && !previous => last.0 = r.0,
                    _ => pieces.push((r, false)),
                }
                previous = is_match;
            }
            pieces.reverse();
        }
    }
    for ((start, end), removed) in pieces {
        if !removed && start < end {
            out.push(Word { text: word.text[start..end].to_string(), at_start: word.at_start && start == 0 });
        }
    }
}

/// GPT-2's `bytes_to_unicode`: printable bytes stand for themselves, the other 68 are moved to
/// U+0100 and up, in order, so every byte is one printable char (the space becomes `Ġ`).
const fn byte_level_table() -> [char; 256] {
    let mut table = ['\0'; 256];
    let mut moved = 0u32;
    let mut b = 0usize;
    while b < 256 {
        table[b] = if is_printable_byte(b as u32) {
            b as u8 as char
        } else {
            moved += 1;
            match char::from_u32(0xFF + moved) {
                Some(c) => c,
                None => '\0',
            }
        };
        b += 1;
    }
    table
}

const fn is_printable_byte(b: u32) -> bool {
    (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF)
}

/// The inverse for the moved bytes: char U+0100 + n → byte.
const fn byte_level_moved() -> [u8; 68] {
    let mut moved = [0u8; 68];
    let mut n = 0;
    let mut b = 0u32;
    while b < 256 {
        if !is_printable_byte(b) {
            moved[n] = b as u8;
            n += 1;
        }
        b += 1;
    }
    moved
}

const BYTE_LEVEL: [char; 256] = byte_level_table();
const BYTE_LEVEL_MOVED: [u8; 68] = byte_level_moved();

pub(crate) fn byte_level_char(byte: u8) -> char {
    BYTE_LEVEL[byte as usize]
}

/// The byte a byte-level char stands for.
fn byte_level_byte(c: char) -> Option<u8> {
    let code = c as u32;
    if code < 0x100 {
        is_printable_byte(code).then_some(code as u8)
    } else {
        BYTE_LEVEL_MOVED.get((code - 0x100) as usize).copied()
    }
}

pub(crate) fn byte_level_encode(text: &str) -> String {
    text.bytes().map(byte_level_char).collect()
}

/// Bytes of a byte-level token. As HF's ByteLevel decoder does, a token with any char outside
/// the 256-char alphabet (an added token such as `<|im_start|>` is inside it; one with a plain
/// space is not) is taken as its UTF-8 text.
pub(crate) fn byte_level_decode(token: &str) -> Vec<u8> {
    token.chars().map(byte_level_byte).collect::<Option<Vec<u8>>>().unwrap_or_else(|| token.as_bytes().to_vec())
}

/// llama.cpp's split regexes for `tokenizer.ggml.pre` (from `llm_tokenizer_bpe::llm_tokenizer_bpe`),
/// with the flags `llama_vocab::impl::load` sets for the same name: `ignore_merges` and the
/// default for `add_bos`. `None`: a name llama.cpp does not know either.
pub(crate) struct LlamaCppPre {
    pub regexes: &'static [&'static str],
    pub ignore_merges: bool,
    pub add_bos: bool,
}

const LLAMA3: &str = r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";
const QWEN2: &str = r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";
/// llama.cpp's GPT-2 regex lacks HF's final `|\s+`; its hand-written splitter
/// (`unicode_regex_split_custom_gpt2`) and the split semantics (unmatched text is kept as a
/// fragment) make the two equivalent.
const GPT2: &str = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)";
const PORO: &str = r" ?[^(\s|.,!?…。，、।۔،)]+";

pub(crate) fn llama_cpp_pre(name: &str) -> Option<LlamaCppPre> {
    let pre = |regexes: &'static [&'static str]| LlamaCppPre { regexes, ignore_merges: false, add_bos: false };
    Some(match name {
        "default" | "" => pre(&[r"[\p{P}\$\+<=>\^~\|]+", GPT2, r"\p{N}+", "[0-9][0-9][0-9]"]),
        "llama3" | "llama-v3" | "llama-bpe" | "falcon3" | "falcon-h1" | "pixtral" | "midm-2.0" | "lfm2" => {
            LlamaCppPre { regexes: &[LLAMA3], ignore_merges: true, add_bos: true }
        }
        "dbrx" | "smaug-bpe" | "glm4" | "chatglm-bpe" => pre(&[LLAMA3]),
        // Written with escapes: several of these letters (U+1F7D, U+212A, …) are changed by
        // NFC, which an editor may apply silently.
        "deepseek-llm" => pre(&[
            "[\r\n]",
            r"\s?[A-Za-z\u{B5}\u{C0}-\u{D6}\u{D8}-\u{F6}\u{F8}-\u{1BA}\u{1BC}-\u{1BF}\u{1C4}-\u{293}\u{295}-\u{2AF}\u{370}-\u{373}\u{376}\u{377}\u{37B}-\u{37D}\u{37F}\u{386}\u{388}-\u{38A}\u{38C}\u{38E}-\u{3A1}\u{3A3}-\u{3F5}\u{3F7}-\u{481}\u{48A}-\u{52F}\u{531}-\u{556}\u{10A0}-\u{10C5}\u{13A0}-\u{13F5}\u{13F8}-\u{13FD}\u{1C90}-\u{1CBA}\u{1CBD}-\u{1CBF}\u{1D00}-\u{1D2B}\u{1D6B}-\u{1D77}\u{1D79}-\u{1D9A}\u{1E00}-\u{1F15}\u{1F18}-\u{1F1D}\u{1F20}-\u{1F45}\u{1F48}-\u{1F4D}\u{1F50}-\u{1F57}\u{1F59}\u{1F5B}\u{1F5D}\u{1F5F}-\u{1F7D}\u{1F80}-\u{1FB4}\u{1FB6}-\u{1FBC}\u{1FBE}\u{1FC2}-\u{1FC4}\u{1FC6}-\u{1FCC}\u{1FD0}-\u{1FD3}\u{1FD6}-\u{1FDB}\u{1FE0}-\u{1FEC}\u{1FF2}-\u{1FF4}\u{1FF6}-\u{1FFC}\u{2102}\u{2107}\u{210A}-\u{2113}\u{2115}\u{2119}-\u{211D}\u{2124}\u{2126}\u{2128}\u{212A}-\u{212D}\u{212F}-\u{2134}\u{2139}\u{213C}-\u{213F}\u{2145}-\u{2149}\u{214E}\u{2183}\u{2184}\u{2C00}-\u{2C7B}\u{2C7E}-\u{2CE4}\u{2CEB}-\u{2CEE}\u{2CF2}\u{2CF3}\u{A640}-\u{A66D}\u{A680}-\u{A69B}\u{A722}-\u{A76F}\u{A771}-\u{A787}\u{A78B}-\u{A78E}\u{AB70}-\u{ABBF}\u{FB00}-\u{FB06}\u{FB13}-\u{FB17}\u{FF21}-\u{FF3A}\u{FF41}-\u{FF5A}\u{10400}-\u{1044F}\u{104B0}-\u{104D3}\u{104D8}-\u{104FB}\u{10C80}-\u{10CB2}\u{10CC0}-\u{10CF2}\u{118A0}-\u{118DF}\u{1E900}-\u{1E943}]+",
            r"\s?[!-/:-~！-／：-～‘-‟　-。]+",
            r"\s+$",
            "[一-龥ࠀ-一가-퟿]+",
            r"\p{N}+",
        ]),
        "deepseek-v3" => pre(&[
            r"\p{N}{1,3}",
            "[一-龥぀-ゟ゠-ヿ]+",
            r##"[!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+| ?[\p{P}\p{S}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"##,
        ]),
        "deepseek-coder" => pre(&["[\r\n]", r"\s?\p{L}+", r"\s?\p{P}+", "[一-龥ࠀ-一가-퟿]+", r"\p{N}"]),
        "falcon" => pre(&[r"[\p{P}\$\+<=>\^~\|`]+", GPT2, "[0-9][0-9][0-9]"]),
        "starcoder" | "refact" | "command-r" | "smollm" | "codeshell" | "exaone" | "minerva-7b" => {
            pre(&[r"\p{N}", GPT2])
        }
        "gpt-2" | "phi-2" | "jina-es" | "jina-de" | "gigachat" | "jina-v2-es" | "jina-v2-de" | "a.x-4.0" | "mellum"
        | "modern-bert" | "exaone4" | "jina-v1-en" | "jina-v2-code" | "roberta-bpe" | "mpt" | "olmo" | "jais"
        | "trillion" | "granite-docling" => pre(&[GPT2]),
        "stablelm2" | "qwen2" | "deepseek-r1-qwen" | "megrez" | "hunyuan" | "solar-open" => pre(&[QWEN2]),
        "qwen35" => pre(&[
            r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}| ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+",
        ]),
        "poro-chat" | "bloom" | "gpt3-finnish" => pre(&[PORO]),
        "viking" => pre(&[PORO, r"\p{N}"]),
        "tekken" => LlamaCppPre {
            regexes: &[
                r"[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))*((?=[\p{L}])([^A-Z]))+|[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))+((?=[\p{L}])([^A-Z]))*|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+",
            ],
            ignore_merges: true,
            add_bos: true,
        },
        "chameleon" => LlamaCppPre {
            regexes: &[
                "<sentinel:[0-9]+>",
                "(IMGIMG)((A|B|C|D|E|F|G|H|I){1,4})Z",
                "([\\t\\n]|    |  )",
                r"\p{N}",
                r"[\p{P}!-/:-@\[-`{-~]",
                GPT2,
            ],
            ignore_merges: false,
            add_bos: true,
        },
        "gpt-4o" | "llama4" => pre(&[
            r"[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))*((?=[\p{L}])([^A-Z]))+(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))+((?=[\p{L}])([^A-Z]))*(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+",
        ]),
        "seed-coder" => pre(&[
            r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1}| ?[^\s\p{L}\p{N}\r\n]+|\s*[\r\n]+|\s+(?!\S)|\s+",
        ]),
        "bailingmoe" | "bailingmoe2" | "llada-moe" => pre(&[
            r"'(?:[sSdDmMtT]|[lL][lL]|[vV][eE]|[rR][eE])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]|\s+(?!\S)|\s+",
        ]),
        "grok-2" => pre(&[QWEN2]),
        _ => return None,
    })
}

/// A chain of `Split(…, Isolated)` steps for a llama.cpp regex list, then the byte-level map.
pub(crate) fn llama_cpp_pre_tokenizer(regexes: &[&str]) -> Result<PreTokenizer> {
    let mut steps = Vec::with_capacity(regexes.len() + 1);
    for pattern in regexes {
        let regex = Regex::new(pattern).map_err(|e| Error::new(format!("pre-tokenizer regex {pattern:?}: {e}")))?;
        steps.push(PreTokenizer::Split {
            pattern: SplitPattern::Regex(regex),
            behavior: SplitBehavior::Isolated,
            invert: false,
        });
    }
    steps.push(PreTokenizer::ByteLevel { add_prefix_space: false, use_regex: false });
    Ok(PreTokenizer::Sequence(steps))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(p: &PreTokenizer, text: &str) -> Vec<String> {
        p.pre_tokenize(text, true).into_iter().map(|w| w.text).collect()
    }

    fn split(pattern: &str) -> PreTokenizer {
        PreTokenizer::Split {
            pattern: SplitPattern::Regex(Regex::new(pattern).unwrap()),
            behavior: SplitBehavior::Isolated,
            invert: false,
        }
    }

    #[test]
    fn byte_level_alphabet_round_trips() {
        assert_eq!(byte_level_char(b' '), 'Ġ');
        assert_eq!(byte_level_char(b'\n'), 'Ċ');
        assert_eq!(byte_level_char(b'a'), 'a');
        for b in 0..=255u8 {
            assert_eq!(byte_level_byte(byte_level_char(b)), Some(b));
        }
        assert_eq!(byte_level_decode("ĠHello"), b" Hello");
        assert_eq!(byte_level_decode("<|im_start|>"), b"<|im_start|>");
        assert_eq!(byte_level_decode("a b"), b"a b"); // a plain space is outside the alphabet
    }

    #[test]
    fn whitespace_lookahead_leaves_one_space_for_the_next_word() {
        // `\s+(?!\S)` stops one short of a word, which then takes the last space.
        let p = split(LLAMA3);
        assert_eq!(words(&p, "a   b"), ["a", "  ", " b"]);
        // At the end of the text every space goes to one piece.
        assert_eq!(words(&p, "a   "), ["a", "   "]);
        // Newlines gather the spaces in front of them.
        assert_eq!(words(&p, "a \n\n b"), ["a", " \n\n", " b"]);
    }

    #[test]
    fn digits_in_threes_or_one_by_one() {
        assert_eq!(words(&split(LLAMA3), "1234567"), ["123", "456", "7"]);
        assert_eq!(words(&split(QWEN2), "1234"), ["1", "2", "3", "4"]);
        assert_eq!(words(&PreTokenizer::Digits { individual: false }, "ab123c4"), ["ab", "123", "c", "4"]);
        assert_eq!(words(&PreTokenizer::Digits { individual: true }, "a12"), ["a", "1", "2"]);
    }

    #[test]
    fn contractions_and_letters() {
        assert_eq!(words(&split(LLAMA3), "I'VE seen it's"), ["I", "'VE", " seen", " it", "'s"]);
        // Dzongkha vowel signs are marks, not letters: they split off, as in both references.
        assert_eq!(words(&split(QWEN2), "ཀི"), ["ཀ", "ི"]);
    }

    #[test]
    fn byte_level_with_prefix_space_and_regex() {
        let p = PreTokenizer::ByteLevel { add_prefix_space: true, use_regex: true };
        assert_eq!(words(&p, "Hello world"), ["ĠHello", "Ġworld"]);
    }

    #[test]
    fn split_behaviours() {
        let word = Word { text: "a-b--c".into(), at_start: true };
        let run = |behavior, invert| {
            let mut out = Vec::new();
            emit(&word, literal_matches("-", &word.text), behavior, invert, &mut out);
            out.into_iter().map(|w| w.text).collect::<Vec<_>>()
        };
        assert_eq!(run(SplitBehavior::Removed, false), ["a", "b", "c"]);
        assert_eq!(run(SplitBehavior::Isolated, false), ["a", "-", "b", "-", "-", "c"]);
        assert_eq!(run(SplitBehavior::MergedWithPrevious, false), ["a-", "b-", "-", "c"]);
        assert_eq!(run(SplitBehavior::MergedWithNext, false), ["a", "-b", "-", "-c"]);
        assert_eq!(run(SplitBehavior::Contiguous, false), ["a", "-", "b", "--", "c"]);
        assert_eq!(run(SplitBehavior::Removed, true), ["-", "-", "-"]);
    }

    #[test]
    fn metaspace_prefixes_and_splits() {
        let p = PreTokenizer::Metaspace { replacement: '▁', prepend: PrependScheme::Always, split: true };
        assert_eq!(words(&p, "Hey friend"), ["▁Hey", "▁friend"]);
        let first = PreTokenizer::Metaspace { replacement: '▁', prepend: PrependScheme::First, split: false };
        assert_eq!(first.pre_tokenize("x y", false)[0].text, "x▁y");
        assert_eq!(first.pre_tokenize("x y", true)[0].text, "▁x▁y");
    }

    #[test]
    fn every_llama_cpp_regex_compiles() {
        for name in [
            "default",
            "llama-bpe",
            "dbrx",
            "deepseek-llm",
            "deepseek-v3",
            "deepseek-coder",
            "falcon",
            "starcoder",
            "gpt-2",
            "qwen2",
            "qwen35",
            "poro-chat",
            "viking",
            "tekken",
            "chameleon",
            "gpt-4o",
            "seed-coder",
            "bailingmoe",
            "grok-2",
        ] {
            let pre = llama_cpp_pre(name).unwrap();
            llama_cpp_pre_tokenizer(pre.regexes).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        assert!(llama_cpp_pre("no-such-thing").is_none());
    }
}
