//! Small text checks shared by the loaders: scripts, spreadsheet error values, Python's
//! `str.capitalize`.

/// Tibetan block (Dzongkha is written in it).
pub fn has_tibetan(s: &str) -> bool {
    s.chars().any(|c| ('\u{0F00}'..='\u{0FFF}').contains(&c))
}

/// Bengali block.
pub fn has_bengali(s: &str) -> bool {
    s.chars().any(|c| ('\u{0980}'..='\u{09FF}').contains(&c))
}

/// A cell that holds a spreadsheet's error value instead of its text: `#NAME?`, `#ERROR!`,
/// `#VALUE!`, `#N/A`, … and the same values after a localised spreadsheet or a lossy encoding
/// changed them (`#འཛོལ༌བ!`, `#????`). The text the cell once held is lost. Rule: after trimming,
/// `#`, then at most 15 characters without whitespace, ending in `!` or `?`; or exactly `#N/A`.
pub fn is_spreadsheet_error(s: &str) -> bool {
    let t = s.trim();
    if t == "#N/A" {
        return true;
    }
    let Some(rest) = t.strip_prefix('#') else {
        return false;
    };
    let n = rest.chars().count();
    (2..=15).contains(&n) && (rest.ends_with('!') || rest.ends_with('?')) && !rest.chars().any(char::is_whitespace)
}

/// Python's `str.capitalize()`: first character upper-case, the rest lower-case
/// (lm-evaluation-harness and lighteval apply it to HellaSwag's `ctx_b`).
pub fn py_capitalize(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars.flat_map(char::to_lowercase)).collect(),
        None => String::new(),
    }
}

/// `s` cut to at most `n` characters, with `…` when cut (for messages).
pub fn preview(s: &str, n: usize) -> String {
    let s = s.trim();
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let cut: String = s.chars().take(n).collect();
        format!("{cut}…")
    }
}

/// Letters `a`, `b`, … for option positions (messages, metadata).
pub fn letter(i: usize) -> char {
    (b'a' + (i as u8).min(25)) as char
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spreadsheet_errors() {
        for e in ["#NAME?", "#ERROR!", " #VALUE! ", "#N/A", "#DIV/0!", "#????", "#??????!", "#འཛོལ༌བ!", "#མིང?"]
        {
            assert!(is_spreadsheet_error(e), "{e}");
        }
        for ok in ["#1", "# of moles?", "#", "#!", "C#", "What is #5?", "", "#hashtag"] {
            assert!(!is_spreadsheet_error(ok), "{ok}");
        }
    }

    #[test]
    fn scripts() {
        assert!(has_tibetan("ཀ་ཁ"));
        assert!(!has_tibetan("abc ???"));
        assert!(has_bengali("i ও ii"));
        assert!(!has_bengali("i and ii"));
    }

    #[test]
    fn capitalize_like_python() {
        assert_eq!(py_capitalize("hELLO World"), "Hello world");
        assert_eq!(py_capitalize("жАНА"), "Жана");
        assert_eq!(py_capitalize(""), "");
    }

    #[test]
    fn preview_cuts_on_characters() {
        assert_eq!(preview("  ཀཁགང  ", 2), "ཀཁ…");
        assert_eq!(preview("ab", 2), "ab");
    }
}
