//! The inspector's prompt cut at the model's token boundaries without cutting a character apart.
//!
//! A tokenizer's pieces need not end where a written character does: SmolLM2 cuts a Tibetan stack
//! after its base letter and starts the next token with the subjoined letter or the vowel sign.
//! Drawn as separate boxes, such a mark is shaped alone and the browser draws it on a dotted circle
//! (U+25CC). Here the pieces are regrouped into runs of whole grapheme clusters (Unicode's extended
//! clusters): a boundary inside a cluster joins the pieces on both sides into one run, marked
//! `split`, so the page draws the text exactly as the plain prompt and marks where a token boundary
//! fell inside a character instead of drawing it apart.

use unicode_segmentation::UnicodeSegmentation;

/// A run of whole grapheme clusters: one token's text, or several tokens' whose boundaries fall
/// inside clusters (`split`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Segment {
    pub text: String,
    /// How many of the worker's pieces it joins.
    pub pieces: usize,
    pub split: bool,
}

/// `pieces`: consecutive tokens' text, each whole code points (the worker joins tokens whose bytes
/// end inside a UTF-8 sequence). Empty pieces (a BOS token) are counted into the next run.
pub fn token_segments(pieces: &[String]) -> Vec<Segment> {
    let text: String = pieces.concat();
    let mut boundaries: Vec<usize> = text.grapheme_indices(true).map(|(i, _)| i).collect();
    boundaries.push(text.len());
    let mut segments = Vec::new();
    let mut current = Segment::default();
    let mut offset = 0;
    for piece in pieces {
        current.text.push_str(piece);
        current.pieces += 1;
        offset += piece.len();
        if piece.is_empty() {
            continue;
        }
        if boundaries.binary_search(&offset).is_ok() {
            segments.push(std::mem::take(&mut current));
        } else {
            current.split = true;
        }
    }
    if !current.text.is_empty() {
        segments.push(current);
    }
    segments
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(p: &[&str]) -> Vec<String> {
        p.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_boundary_between_clusters_stays_and_one_inside_a_tibetan_stack_joins_its_tokens() {
        // བསྐྱེད: བ + ས with subjoined ྐ, ྱ and the vowel sign ེ form one cluster, then ད.
        let segments = token_segments(&pieces(&["བ", "ས", "ྐྱ", "ེ", "ད"]));
        let texts: Vec<&str> = segments.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(texts, ["བ", "སྐྱེ", "ད"]);
        assert_eq!(
            segments.iter().map(|s| (s.pieces, s.split)).collect::<Vec<_>>(),
            [(1, false), (3, true), (1, false)]
        );
        assert_eq!(texts.concat(), "བསྐྱེད");
    }

    #[test]
    fn latin_and_ethiopic_tokens_at_character_boundaries_are_kept_as_they_are() {
        let segments = token_segments(&pieces(&["", "Hello", " wor", "ld", " ሰላም", "ታ"]));
        let texts: Vec<&str> = segments.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(texts, ["Hello", " wor", "ld", " ሰላም", "ታ"]);
        assert_eq!(segments[0].pieces, 2, "the empty BOS piece is counted into the first run");
        assert!(segments.iter().all(|s| !s.split));
        // A combining mark cut from its letter (e + U+0301) joins them.
        let segments = token_segments(&pieces(&["caf", "e", "\u{301}", "!"]));
        let texts: Vec<&str> = segments.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(texts, ["caf", "e\u{301}", "!"]);
        assert!(segments[1].split);
    }
}
