//! Fertility: how many of the model's tokens each language's words, syllables and characters cost.

use crate::scoring::fertility::fertility_by_language;
use crate::web::protocol::{FertilityRow, ItemView};

/// Tokens per word, per syllable and per character of one language's texts (`scoring::fertility`).
pub fn fertility_rows(samples: &[(String, String, usize)]) -> Vec<FertilityRow> {
    fertility_by_language(samples)
        .into_iter()
        .map(|(language, f)| FertilityRow {
            language,
            texts: f.texts,
            tokens: f.tokens,
            words: f.words,
            syllables: f.syllables,
            chars: f.chars,
            tokens_per_word: f.tokens_per_word,
            tokens_per_syllable: f.tokens_per_syllable,
            tokens_per_char: f.tokens_per_char,
        })
        .collect()
}

/// The texts whose tokens fertility counts: each document's question and each of its options, once
/// per document (choice-order variants repeat a document), by the document's language.
pub fn fertility_texts(items: &[(u64, &ItemView)]) -> Vec<(String, String)> {
    let mut seen = std::collections::BTreeSet::new();
    let mut texts = Vec::new();
    for (doc_id, item) in items {
        if !seen.insert(*doc_id) {
            continue;
        }
        let language = if item.language.is_empty() { "und" } else { item.language.as_str() };
        for text in std::iter::once(&item.question).chain(&item.choices) {
            texts.push((text.clone(), language.to_string()));
        }
    }
    texts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::run::tests::item;

    #[test]
    fn fertility_counts_each_document_once_by_language() {
        let (en, dz) = (item(0, "en", 0), item(1, "dz", 0));
        let texts = fertility_texts(&[(0, &en), (0, &en), (1, &dz)]);
        assert_eq!(texts.len(), 8, "question and three options of two documents");
        assert_eq!(texts[4], ("question 1".to_string(), "dz".to_string()));
        let samples: Vec<(String, String, usize)> = texts
            .into_iter()
            .map(|(t, l)| {
                let n = t.len();
                (t, l, n)
            })
            .collect();
        let rows = fertility_rows(&samples);
        assert_eq!(rows.iter().map(|r| r.language.as_str()).collect::<Vec<_>>(), ["dz", "en"]);
        // One token per byte: "question 1" + "a" + "b" + "c" is 13 tokens, 5 words, 13 characters.
        assert_eq!(
            (rows[1].tokens, rows[1].words, rows[1].chars, rows[1].tokens_per_word),
            (13, 5, 13, Some(13.0 / 5.0))
        );
    }
}
