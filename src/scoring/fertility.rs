//! Tokenizer fertility by language: tokens per word, per character, per byte and per syllable,
//! from `(text, language, token count)` triples (the token count is the caller's: the model's
//! tokenizer on that text, without special tokens unless the caller wants them counted).
//!
//! * **words**: Python's `str.split()` (runs of Unicode whitespace). Dzongkha and Tibetan do not put
//!   spaces between words (a space mostly follows the shad ། ending a clause), so for them "words"
//!   are really phrases and tokens-per-word is inflated; use syllables there.
//! * **syllables**: words further split on the Tibetan-script syllable delimiters tsheg ་ (U+0F0B)
//!   and non-breaking tsheg ༌ (U+0F0C), and the shad family ། ༎ (U+0F0D–U+0F12) and ༔ (U+0F14);
//!   empty pieces and pieces made only of those marks are dropped. For languages without tsheg the
//!   syllable count is simply the word count.
//! * **characters**: Unicode code points (Python `len`); **bytes**: UTF-8.
//!
//! Ratios are of totals (Σ tokens / Σ words), not means of per-text ratios.

use std::collections::BTreeMap;

use super::py_split;

/// Totals and ratios for one language.
#[derive(Debug, Clone, PartialEq)]
pub struct Fertility {
    pub texts: usize,
    pub tokens: usize,
    pub words: usize,
    pub syllables: usize,
    pub chars: usize,
    pub bytes: usize,
    /// `None` where the denominator is 0.
    pub tokens_per_word: Option<f64>,
    pub tokens_per_syllable: Option<f64>,
    pub tokens_per_char: Option<f64>,
    pub tokens_per_byte: Option<f64>,
}

fn is_syllable_break(c: char) -> bool {
    matches!(c, '\u{0F0B}' | '\u{0F0C}' | '\u{0F0D}'..='\u{0F12}' | '\u{0F14}')
}

/// Syllables in `text`: whitespace-separated words split further on tsheg and shad.
pub fn count_syllables(text: &str) -> usize {
    py_split(text).map(|w| w.split(is_syllable_break).filter(|s| !s.is_empty()).count()).sum()
}

/// Words in `text`: Python `str.split()`.
pub fn count_words(text: &str) -> usize {
    py_split(text).count()
}

/// Fertility per language over `(text, language, token count)`.
pub fn fertility_by_language<T: AsRef<str>, L: AsRef<str>>(samples: &[(T, L, usize)]) -> BTreeMap<String, Fertility> {
    let mut out: BTreeMap<String, Fertility> = BTreeMap::new();
    for (text, lang, tokens) in samples {
        let text = text.as_ref();
        let f = out.entry(lang.as_ref().to_string()).or_insert(Fertility {
            texts: 0,
            tokens: 0,
            words: 0,
            syllables: 0,
            chars: 0,
            bytes: 0,
            tokens_per_word: None,
            tokens_per_syllable: None,
            tokens_per_char: None,
            tokens_per_byte: None,
        });
        f.texts += 1;
        f.tokens += tokens;
        f.words += count_words(text);
        f.syllables += count_syllables(text);
        f.chars += text.chars().count();
        f.bytes += text.len();
    }
    let ratio = |a: usize, b: usize| (b > 0).then(|| a as f64 / b as f64);
    for f in out.values_mut() {
        f.tokens_per_word = ratio(f.tokens, f.words);
        f.tokens_per_syllable = ratio(f.tokens, f.syllables);
        f.tokens_per_char = ratio(f.tokens, f.chars);
        f.tokens_per_byte = ratio(f.tokens, f.bytes);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dzongkha_syllables() {
        // "འབྲུག་ཡུལ་ གྱི་ རྒྱལ་ཁབ།" : 2 + 1 + 2 syllables... count by hand below.
        let dz = "འབྲུག་ཡུལ་ནི་ རྒྱལ་ཁབ་ཨིན།";
        assert_eq!(count_words(dz), 2);
        // འབྲུག ཡུལ ནི | རྒྱལ ཁབ ཨིན
        assert_eq!(count_syllables(dz), 6);
        assert_eq!(count_syllables("hello big world"), 3);
        assert_eq!(count_syllables("།"), 0);
    }

    #[test]
    fn per_language_totals() {
        let r = fertility_by_language(&[("a b", "en", 3), ("cd", "en", 1), ("ཀ་ཁ", "dz", 4)]);
        let en = &r["en"];
        assert_eq!((en.texts, en.tokens, en.words, en.chars), (2, 4, 3, 5));
        assert_eq!(en.tokens_per_word, Some(4.0 / 3.0));
        let dz = &r["dz"];
        assert_eq!((dz.words, dz.syllables, dz.chars, dz.bytes), (1, 2, 3, 9));
        assert_eq!(dz.tokens_per_syllable, Some(2.0));
    }
}
