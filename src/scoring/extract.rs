//! Answer extraction for generation tasks.
//!
//! * [`RegexFilter`] and [`take_first`]: lm-evaluation-harness's `regex` and `take_first` filters
//!   (lm_eval/filters/extraction.py, selection.py).
//! * [`extract_choice`]: which option a free-text answer names, for multiple-choice items answered by
//!   generation: Latin letters, the benchmarks' native letters (Ethiopic, Tibetan, Cyrillic), option
//!   numbers, and DZEN's chain-of-thought answer objects.

use regex::Regex;

use super::py_strip;
use crate::error::{Error, Result};

/// lm-eval's default fallback when the pattern does not match.
pub const INVALID: &str = "[invalid]";

/// lm-eval's `regex` filter: `findall(pattern)`, the `group_select`-th match (negative counts from the
/// end, as Python indexing), its first non-empty group when the pattern has several, stripped of
/// whitespace; `fallback` when nothing matches.
///
/// The pattern is compiled by the `regex` crate, whose syntax is Python's for everything lm-eval task
/// files use, with these differences: no look-around or back-references (compiling fails with an
/// error), `$` matches only at the very end (Python's also matches before a final `\n`), `\Z` is
/// spelled `\z`, `\w` also matches combining marks (Tibetan vowel signs, for example), which
/// Python's does not, and for patterns that can match the empty string, an empty match right after a
/// non-empty one is not reported (Python's `findall('x*', 'xa')` has one more `''`).
#[derive(Debug, Clone)]
pub struct RegexFilter {
    regex: Regex,
    group_select: isize,
    fallback: String,
}

impl RegexFilter {
    pub fn new(pattern: &str, group_select: isize, fallback: &str) -> Result<Self> {
        let regex = Regex::new(pattern).map_err(|e| Error::new(format!("regex filter pattern {pattern:?}: {e}")))?;
        Ok(RegexFilter { regex, group_select, fallback: fallback.to_string() })
    }

    /// lm-eval's defaults: `#### (\-?[0-9\.\,]+)`, group_select 0, fallback `[invalid]` (GSM8K).
    pub fn lm_eval_default() -> Self {
        RegexFilter::new(r"#### (\-?[0-9\.\,]+)", 0, INVALID).expect("the default pattern compiles")
    }

    /// The filtered form of one response (`RegexFilter.apply`'s `filter_set`, for one element).
    ///
    /// A `group_select` beyond the number of matches gives the fallback (lm-eval raises `IndexError`).
    pub fn apply(&self, response: &str) -> String {
        let matches = self.find_all(response);
        if matches.is_empty() {
            return self.fallback.clone();
        }
        let n = matches.len() as isize;
        let index = if self.group_select < 0 { n + self.group_select } else { self.group_select };
        let Some(selected) = usize::try_from(index).ok().and_then(|i| matches.get(i)) else {
            return self.fallback.clone();
        };
        match selected {
            Found::Text(text) => py_strip(text).to_string(),
            // A tuple: its first non-empty group, or the fallback (also stripped, as in lm-eval).
            Found::Groups(groups) => match groups.iter().find(|g| !g.is_empty()) {
                Some(group) => py_strip(group).to_string(),
                None => py_strip(&self.fallback).to_string(),
            },
        }
    }

    /// `apply` on each response of one document.
    pub fn apply_all<S: AsRef<str>>(&self, responses: &[S]) -> Vec<String> {
        responses.iter().map(|r| self.apply(r.as_ref())).collect()
    }

    /// Python's `re.findall`: the whole match when the pattern has no group, the group's text when it
    /// has one, all groups' texts when it has several; a group that did not take part gives "".
    fn find_all<'t>(&self, text: &'t str) -> Vec<Found<'t>> {
        let groups = self.regex.captures_len() - 1;
        self.regex
            .captures_iter(text)
            .map(|caps| {
                let group = |i: usize| caps.get(i).map_or("", |m| m.as_str());
                match groups {
                    0 => Found::Text(group(0)),
                    1 => Found::Text(group(1)),
                    _ => Found::Groups((1..=groups).map(group).collect()),
                }
            })
            .collect()
    }
}

/// One element of `re.findall`'s result.
enum Found<'t> {
    Text(&'t str),
    Groups(Vec<&'t str>),
}

/// lm-eval's `take_first` filter: the first of a document's responses (`None` when there is none;
/// lm-eval raises).
pub fn take_first<T>(responses: &[T]) -> Option<&T> {
    responses.first()
}

/// A set of option labels; the position of a label in its set is the option index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Labels {
    /// `A B C D E`, or `a b c d e`.
    Latin,
    /// `ሀ ለ ሐ መ` (ProverbEval's native-letter prompts).
    Ethiopic,
    /// `ཀ ཁ ག ང` (DZEN's Dzongkha answers: ཀ/ཁ/ག/ང = a/b/c/d).
    Tibetan,
    /// `А Б В Г Д`, or `а б в г д` (KyrgyzMMLU and KyrgyzRC option letters).
    Cyrillic,
    /// `0 1 2 …`: the option's number is its index (KyrgyzLLM-Bench's lighteval prompts number the
    /// options `0.`, `1.`, …).
    Digits,
}

impl Labels {
    /// The option index that `c` names in this set.
    pub fn index(self, c: char) -> Option<usize> {
        let position = |set: &[char]| set.iter().position(|&l| l == c);
        match self {
            Labels::Latin => position(&['A', 'B', 'C', 'D', 'E']).or_else(|| position(&['a', 'b', 'c', 'd', 'e'])),
            Labels::Ethiopic => position(&['ሀ', 'ለ', 'ሐ', 'መ']),
            Labels::Tibetan => position(&['ཀ', 'ཁ', 'ག', 'ང']),
            Labels::Cyrillic => position(&['А', 'Б', 'В', 'Г', 'Д']).or_else(|| position(&['а', 'б', 'в', 'г', 'д'])),
            Labels::Digits => c.to_digit(10).map(|d| d as usize),
        }
    }
}

/// Words that introduce the answer: English, Dzongkha (ལན), Kyrgyz (жооп, жообу), Russian (ответ),
/// Amharic (መልስ, መልሱ), Tigrinya (መልሲ), Afaan Oromo (deebii, deebiin). Matched case-insensitively as
/// whole words, so DZEN's `{"Answer": "c"}`, `{{"Answer'": "a"}}`, `{{"ལན": "c"}}` and `{"ལན'": "ཀ"}`
/// are all answer markers followed by a label.
const MARKERS: &[&str] = &["answer", "ལན", "жооп", "жообу", "ответ", "መልስ", "መልሱ", "መልሲ", "deebii", "deebiin"];

/// Words that may stand between a marker and the label: "answer is option B", "жооп: вариант Б".
const FILLERS: &[&str] =
    &["is", "would", "be", "the", "correct", "final", "option", "choice", "letter", "вариант", "номер"];

/// Words that mark a label anywhere: "option C".
const OPTION_WORDS: &[&str] = &["option", "choice", "вариант"];

/// Characters skipped between a marker and its label: spaces, quotes, colons (also Ethiopic and
/// Tibetan ones), markdown, opening brackets, the tsheg.
const SEPARATORS: &[char] = &[
    '\'', '"', '’', '‘', '“', '”', '«', '»', '`', ':', '：', '=', '-', '–', '—', '>', '*', '_', '#', '(', '[', '{',
    '（', ',', '་', '༔', '፡', '፥', '፦', '፣',
];
const OPENERS: &[char] = &['(', '[', '{', '（', '【'];
const CLOSERS: &[char] = &[')', ']', '}', '）', '】'];
const QUOTES: &[char] = &['\'', '"', '’', '‘', '“', '”', '«', '»', '`'];
/// Marks that may follow a label that starts a line: "B. …", "2: …", "ཀ། …", "ሀ። …".
const LINE_LABEL_ENDS: &[char] = &['.', ':', '：', '།', '።', '፡', '፦'];
/// Characters trimmed from both ends of a whole response before asking whether it is just a label.
const TRIM: &[char] = &[
    '\'', '"', '’', '‘', '“', '”', '«', '»', '`', '*', '_', '#', '(', ')', '[', ']', '{', '}', '（', '）', '.', ',',
    ':', '：', ';', '!', '?', '-', '།', '༎', '་', '።', '፡', '፣', '፦',
];

/// The option index that a generated answer names, or `None`.
///
/// `labels` are the label sets the prompt may have taught (several at once is fine: DZEN's Dzongkha
/// chain-of-thought answers use Latin or Tibetan letters); a label counts only if its index is below
/// `n_choices`. A label is a single character standing alone: its neighbours are not letters, digits
/// or combining marks. Homoglyphs are not folded: Latin `B` is option 1, Cyrillic `В` option 2.
///
/// Rules, in order; the first that gives an answer decides:
/// 1. **Marked answer.** A label right after an answer word (answer, ལན, жооп/жообу, ответ,
///    መልስ/መልሱ, መልሲ, deebii/deebiin, any case; e.g. "Answer: (C)",
///    "The answer is B", `{"Answer": "c"}`, `{{"ལན": "c"}}`, "Жооп: 2"), skipping quotes, colons,
///    brackets, markdown and a few filler words ("is", "option", …). If there are several, the **last**
///    one wins: chain-of-thought answers end with the final answer, and a model that corrects itself
///    restates it. A bare `a` / `а` / `в` followed by a word ("the answer is a cell") is read as a
///    word, not a label.
/// 2. **The whole response is a label**, once brackets, quotes, markdown and end punctuation are
///    trimmed: "B", "c)", "**B**", "(ሐ)", "ག།", "2.".
/// 3. **Decorated labels anywhere**: "(C)", "\[C\]", `"C"`, "**C**", "C)" after a space or at the start,
///    "C." or "C:" at the start of a line, "option C". These are taken only if they **all name the same
///    option**; otherwise the text is ambiguous (the model listed several options) and the answer is
///    `None`.
///
/// Bare labels inside running text ("A or B", "ང་ …") never count.
pub fn extract_choice(text: &str, labels: &[Labels], n_choices: usize) -> Option<usize> {
    let scanner = Scanner { chars: text.chars().collect(), labels, n_choices };
    scanner.marked_answer().or_else(|| scanner.whole_response()).or_else(|| scanner.decorated_labels())
}

struct Scanner<'a> {
    chars: Vec<char>,
    labels: &'a [Labels],
    n_choices: usize,
}

impl Scanner<'_> {
    fn char_at(&self, i: isize) -> Option<char> {
        usize::try_from(i).ok().and_then(|i| self.chars.get(i).copied())
    }

    fn is_word_at(&self, i: isize) -> bool {
        self.char_at(i).is_some_and(is_word_char)
    }

    /// The option index of a standalone label at `i`.
    fn label(&self, i: usize) -> Option<usize> {
        let c = *self.chars.get(i)?;
        let index = self.labels.iter().find_map(|set| set.index(c))?;
        let standalone = !self.is_word_at(i as isize - 1) && !self.is_word_at(i as isize + 1);
        (standalone && index < self.n_choices).then_some(index)
    }

    /// If one of `words` starts at `i` as a whole word (case-insensitive), the position after it.
    fn word_at(&self, i: usize, words: &[&str]) -> Option<usize> {
        if self.is_word_at(i as isize - 1) {
            return None;
        }
        words.iter().find_map(|word| {
            let mut end = i;
            for w in word.chars() {
                let c = *self.chars.get(end)?;
                if !c.to_lowercase().eq(w.to_lowercase()) {
                    return None;
                }
                end += 1;
            }
            (!self.is_word_at(end as isize)).then_some(end)
        })
    }

    /// Rule 1: the label after the last answer marker that is followed by one.
    fn marked_answer(&self) -> Option<usize> {
        let mut last = None;
        for i in 0..self.chars.len() {
            if let Some(end) = self.word_at(i, MARKERS) {
                if let Some(index) = self.label_after_marker(end) {
                    last = Some(index);
                }
            }
        }
        last
    }

    fn label_after_marker(&self, mut p: usize) -> Option<usize> {
        loop {
            while self.chars.get(p).is_some_and(|&c| c.is_whitespace() || SEPARATORS.contains(&c)) {
                p += 1;
            }
            match self.word_at(p, FILLERS) {
                Some(end) => p = end,
                None => break,
            }
        }
        let index = self.label(p)?;
        (!self.is_bare_function_word(p)).then_some(index)
    }

    /// A label letter that is also a one-letter word (English "a", Kyrgyz/Russian "а", Russian "в"),
    /// undecorated and followed by another word.
    fn is_bare_function_word(&self, p: usize) -> bool {
        let p = p as isize;
        if !matches!(self.char_at(p), Some('a' | 'а' | 'в')) {
            return false;
        }
        let decorated = self.char_at(p - 1).is_some_and(|c| OPENERS.contains(&c) || QUOTES.contains(&c) || c == '*');
        let mut q = p + 1;
        if !self.char_at(q).is_some_and(char::is_whitespace) {
            return false;
        }
        while self.char_at(q).is_some_and(char::is_whitespace) {
            q += 1;
        }
        !decorated && self.is_word_at(q)
    }

    /// Rule 2: the response, trimmed, is a single label.
    fn whole_response(&self) -> Option<usize> {
        let trimmable = |c: &char| c.is_whitespace() || TRIM.contains(c);
        let start = self.chars.iter().position(|c| !trimmable(c))?;
        let end = self.chars.iter().rposition(|c| !trimmable(c))?;
        if start != end {
            return None;
        }
        let c = self.chars[start];
        let index = self.labels.iter().find_map(|set| set.index(c))?;
        (index < self.n_choices).then_some(index)
    }

    /// Rule 3: the option that every decorated label names, if they agree.
    fn decorated_labels(&self) -> Option<usize> {
        let mut found = None;
        for i in 0..self.chars.len() {
            let Some(index) = self.label(i) else { continue };
            if !self.is_decorated(i) {
                continue;
            }
            match found {
                None => found = Some(index),
                Some(previous) if previous != index => return None,
                Some(_) => {}
            }
        }
        found
    }

    fn is_decorated(&self, i: usize) -> bool {
        let i = i as isize;
        let (prev, next) = (self.char_at(i - 1), self.char_at(i + 1));
        let is = |c: Option<char>, set: &[char]| c.is_some_and(|c| set.contains(&c));
        // "(C)", "[C]" — but not a function argument "f(a)".
        let enclosed = is(prev, OPENERS) && is(next, CLOSERS) && !self.is_word_at(i - 2);
        let quoted = is(prev, QUOTES) && is(next, QUOTES);
        let bold = prev == Some('*') && next == Some('*');
        // "C) …" at the start or after a space or markdown.
        let closed = is(next, CLOSERS) && prev.is_none_or(|c| c.is_whitespace() || c == '*' || c == '_');
        let line_start = is(next, LINE_LABEL_ENDS) && self.starts_line(i);
        closed || enclosed || quoted || bold || line_start || self.follows_option_word(i)
    }

    /// Only spaces and markdown (`*`, `#`, `-`, `>`, `_`) between the start of the line and `i`.
    fn starts_line(&self, i: isize) -> bool {
        let mut p = i - 1;
        while let Some(c) = self.char_at(p) {
            if c == '\n' {
                return true;
            }
            if !(c.is_whitespace() || matches!(c, '*' | '#' | '-' | '>' | '_')) {
                return false;
            }
            p -= 1;
        }
        true
    }

    /// "option C", "вариант Б".
    fn follows_option_word(&self, i: isize) -> bool {
        let mut p = i - 1;
        if !self.char_at(p).is_some_and(char::is_whitespace) {
            return false;
        }
        while self.char_at(p).is_some_and(char::is_whitespace) {
            p -= 1;
        }
        OPTION_WORDS.iter().any(|word| {
            let len = word.chars().count() as isize;
            let start = p - len + 1;
            start >= 0 && self.word_at(start as usize, &[*word]) == Some((p + 1) as usize)
        })
    }
}

/// Part of a word: a letter, a digit, or a combining mark (so that the Tibetan ཀ in ཀི, or a letter
/// carrying an accent, is not a standalone label).
fn is_word_char(c: char) -> bool {
    c.is_alphanumeric()
        || matches!(c,
            '\u{0300}'..='\u{036F}' // combining diacritical marks
            | '\u{0483}'..='\u{0489}' // Cyrillic combining marks
            | '\u{0F18}'..='\u{0F19}' | '\u{0F35}' | '\u{0F37}' | '\u{0F39}' | '\u{0F3E}'..='\u{0F3F}'
            | '\u{0F71}'..='\u{0F84}' | '\u{0F86}'..='\u{0F87}' | '\u{0F8D}'..='\u{0FBC}' | '\u{0FC6}' // Tibetan
            | '\u{135D}'..='\u{135F}' // Ethiopic combining marks
            | '\u{200C}'..='\u{200D}') // zero-width (non-)joiner
}

#[cfg(test)]
mod tests {
    use super::*;
    use Labels::*;

    fn latin(text: &str) -> Option<usize> {
        extract_choice(text, &[Latin], 4)
    }

    #[test]
    fn latin_letters() {
        assert_eq!(latin("Answer: (C)"), Some(2));
        assert_eq!(latin("c)"), Some(2));
        assert_eq!(latin("**B**"), Some(1));
        assert_eq!(latin("B"), Some(1));
        assert_eq!(latin(" d."), Some(3));
        assert_eq!(latin("The answer is B because the cell wall is rigid."), Some(1));
        assert_eq!(latin("The correct answer is option D."), Some(3));
        assert_eq!(latin("**Answer:** A"), Some(0));
        assert_eq!(latin("B) Mitochondria"), Some(1));
        assert_eq!(latin("I think (c) is right."), Some(2));
        assert_eq!(latin("Mitochondria.\nB. Mitochondria"), Some(1));
        assert_eq!(latin("It is option C."), Some(2));
        // E is not an option of a four-option item.
        assert_eq!(latin("E"), None);
        assert_eq!(extract_choice("E", &[Latin], 5), Some(4));
    }

    #[test]
    fn dzen_answer_objects() {
        let dz = [Latin, Tibetan];
        assert_eq!(extract_choice(r#"… so the force doubles. {"Answer": "c"}"#, &dz, 4), Some(2));
        assert_eq!(extract_choice(r#"{{"Answer'": "a"}}"#, &dz, 4), Some(0));
        assert_eq!(extract_choice(r#"{{"ལན": "c"}}"#, &dz, 4), Some(2));
        assert_eq!(extract_choice(r#"{"ལན'": "ཀ"}"#, &dz, 4), Some(0));
        assert_eq!(extract_choice("འདི་ཡང་ ཤུགས་ཀྱིས་ཨིན། {{\"ལན'\": \"ང\"}}", &dz, 4), Some(3));
        // Tibetan letters alone are labels only when Tibetan labels are enabled.
        assert_eq!(extract_choice(r#"{"ལན": "ཁ"}"#, &[Latin], 4), None);
    }

    #[test]
    fn native_letters() {
        assert_eq!(extract_choice("ሐ", &[Ethiopic], 4), Some(2));
        assert_eq!(extract_choice("መልስ፦ ለ", &[Ethiopic], 4), Some(1));
        assert_eq!(extract_choice("(መ)", &[Ethiopic], 4), Some(3));
        assert_eq!(extract_choice("ག།", &[Tibetan], 4), Some(2));
        assert_eq!(extract_choice("ལན་: ཁ", &[Tibetan], 4), Some(1));
        assert_eq!(extract_choice("Д", &[Cyrillic], 5), Some(4));
        assert_eq!(extract_choice("Туура жооп: В", &[Cyrillic], 5), Some(2));
        assert_eq!(extract_choice("б)", &[Cyrillic], 5), Some(1));
        assert_eq!(extract_choice("Жообу: (г)", &[Cyrillic], 4), Some(3));
    }

    #[test]
    fn option_numbers() {
        assert_eq!(extract_choice("2", &[Digits], 4), Some(2));
        assert_eq!(extract_choice("0.", &[Digits], 4), Some(0));
        assert_eq!(extract_choice("1. Бишкек", &[Digits], 4), Some(1));
        assert_eq!(extract_choice("Жооп: 3", &[Digits], 4), Some(3));
        // Beyond the options, or part of a number.
        assert_eq!(extract_choice("7", &[Digits], 4), None);
        assert_eq!(extract_choice("Жооп: 12", &[Digits], 4), None);
    }

    #[test]
    fn ambiguous_or_absent() {
        assert_eq!(latin("A or B"), None);
        assert_eq!(latin("(A) is wrong, (B) is right"), None);
        assert_eq!(latin("A) Paris B) Rome C) Oslo"), None);
        assert_eq!(latin("I don't know."), None);
        assert_eq!(latin(""), None);
        // "a" as an article, "f(a)" as an argument, a letter inside a word.
        assert_eq!(latin("The answer is a mitochondrion."), None);
        assert_eq!(latin("f(a) = 2"), None);
        assert_eq!(latin("Bacteria"), None);
        // Tibetan: ང (also the pronoun "I") in running text, ཀ carrying a vowel sign.
        assert_eq!(extract_choice("ང་གིས་ མ་ཤེས།", &[Tibetan], 4), None);
        assert_eq!(extract_choice("(ཀི)", &[Tibetan], 4), None);
        // Cyrillic "в" as a Russian preposition after a marker.
        assert_eq!(extract_choice("Ответ в тексте", &[Cyrillic], 5), None);
    }

    #[test]
    fn last_marked_answer_wins() {
        assert_eq!(latin("Answer: A. Wait, that is wrong. Answer: C"), Some(2));
        // A marker beats decorated mentions of other options.
        assert_eq!(latin("(A) and (B) are wrong. Answer: D"), Some(3));
    }

    #[test]
    fn regex_filter_like_lm_eval() {
        let f = RegexFilter::lm_eval_default();
        assert_eq!(f.apply("so 3 + 4 = 7\n#### 7"), "7");
        assert_eq!(f.apply("#### -1,234.5 apples"), "-1,234.5");
        assert_eq!(f.apply("no number"), INVALID);

        // No group: the whole match. group_select -1: the last.
        let f = RegexFilter::new(r"\d+", -1, INVALID).unwrap();
        assert_eq!(f.apply("1 then 22 then 333"), "333");
        // Two groups: the first non-empty one of the selected match (lm-eval's flexible-extract).
        let f = RegexFilter::new(r"(-?[$0-9.,]{2,})|(-?[0-9]+)", -1, INVALID).unwrap();
        assert_eq!(f.apply("It is 5 or 42"), "42");
        assert_eq!(f.apply("It is 42 or 5"), "5");
        // Case-insensitive answer letter.
        let f = RegexFilter::new(r"(?i)answer is:? \(?([A-E])\)?", 0, INVALID).unwrap();
        assert_eq!(f.apply("The answer is (B)."), "B");
        assert_eq!(f.apply("Answer is: c"), "c");
        // Out-of-range group_select gives the fallback.
        assert_eq!(RegexFilter::new(r"\d", 5, "none").unwrap().apply("1 2"), "none");
        // Unsupported syntax is an error, not a panic.
        assert!(RegexFilter::new(r"(?<=a)b", 0, INVALID).is_err());
    }

    #[test]
    fn take_first_like_lm_eval() {
        assert_eq!(take_first(&["x", "y"]), Some(&"x"));
        assert_eq!(take_first::<String>(&[]), None);
    }
}
