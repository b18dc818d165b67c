//! Step 2: normalizers, applied to each stretch of text between added tokens (HF
//! `tokenizers/src/normalizers/`). llama.cpp's SentencePiece path is expressed with the same
//! pieces: `Prepend(" ")` for `add_space_prefix`, then `Replace(" ", "▁")`.

use unicode_normalization::UnicodeNormalization;

use super::wordpiece;

pub(crate) enum Normalizer {
    Nfc,
    Nfd,
    Nfkc,
    Nfkd,
    Lowercase,
    /// Remove whitespace at the ends (HF `Strip`).
    Strip {
        left: bool,
        right: bool,
    },
    /// HF `StripAccents`: drop nonspacing marks (meant to follow NFD).
    StripAccents,
    /// Every occurrence of a literal string or a regex.
    Replace {
        pattern: Pattern,
        content: String,
    },
    /// Put a string in front of non-empty text (HF `Prepend`).
    Prepend(String),
    /// HF `BertNormalizer`.
    Bert {
        clean_text: bool,
        handle_chinese_chars: bool,
        strip_accents: bool,
        lowercase: bool,
    },
    Sequence(Vec<Normalizer>),
}

pub(crate) enum Pattern {
    Literal(String),
    Regex(fancy_regex::Regex),
}

impl Normalizer {
    pub fn normalize(&self, text: &str) -> String {
        match self {
            Normalizer::Nfc => text.nfc().collect(),
            Normalizer::Nfd => text.nfd().collect(),
            Normalizer::Nfkc => text.nfkc().collect(),
            Normalizer::Nfkd => text.nfkd().collect(),
            Normalizer::Lowercase => text.to_lowercase(),
            Normalizer::Strip { left, right } => {
                let mut s = text;
                if *left {
                    s = s.trim_start();
                }
                if *right {
                    s = s.trim_end();
                }
                s.to_string()
            }
            Normalizer::StripAccents => text.chars().filter(|&c| !wordpiece::is_nonspacing_mark(c)).collect(),
            Normalizer::Replace { pattern, content } => match pattern {
                Pattern::Literal(p) if p.is_empty() => text.to_string(),
                Pattern::Literal(p) => text.replace(p.as_str(), content),
                Pattern::Regex(re) => {
                    let mut out = String::with_capacity(text.len());
                    let mut last = 0;
                    for m in re.find_iter(text) {
                        let Ok(m) = m else { break };
                        out.push_str(&text[last..m.start()]);
                        out.push_str(content);
                        last = m.end();
                    }
                    out.push_str(&text[last..]);
                    out
                }
            },
            Normalizer::Prepend(prefix) => {
                if text.is_empty() {
                    String::new()
                } else {
                    format!("{prefix}{text}")
                }
            }
            Normalizer::Bert { clean_text, handle_chinese_chars, strip_accents, lowercase } => {
                wordpiece::bert_normalize(text, *clean_text, *handle_chinese_chars, *strip_accents, *lowercase)
            }
            Normalizer::Sequence(steps) => {
                let mut s = text.to_string();
                for step in steps {
                    s = step.normalize(&s);
                }
                s
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentencepiece_space_handling() {
        let n = Normalizer::Sequence(vec![
            Normalizer::Prepend(" ".into()),
            Normalizer::Replace { pattern: Pattern::Literal(" ".into()), content: "▁".into() },
        ]);
        assert_eq!(n.normalize("Hello  world"), "▁Hello▁▁world");
        assert_eq!(n.normalize(""), "");
    }

    #[test]
    fn nfc_composes() {
        assert_eq!(Normalizer::Nfc.normalize("e\u{301}"), "é");
        assert_eq!(Normalizer::Nfd.normalize("é"), "e\u{301}");
    }

    #[test]
    fn regex_replace() {
        let n = Normalizer::Replace {
            pattern: Pattern::Regex(fancy_regex::Regex::new(r" {2,}").unwrap()),
            content: " ".into(),
        };
        assert_eq!(n.normalize("a   b  c d"), "a b c d");
    }
}
