//! A reader for Python literals as `ast.literal_eval` accepts them, into `serde_json::Value`.
//!
//! Some Hugging Face tables store lists and dicts as the `str()` of a Python object:
//! TruthfulQA-kg's `mc1_targets_kg` is `"{'choices': ['…', '…'], 'labels': [1, 0]}"`, HellaSwag-kg's
//! `endings_kg` may be `"['…', '…']"`. lighteval parses them with `ast.literal_eval`; this does the
//! same for the subset that occurs in data: strings (single, double or triple quotes, `u`/`r`
//! prefixes, escapes), ints, floats, `True`/`False`/`None` (and JSON's `true`/`false`/`null`),
//! lists, tuples and dicts. JSON text is a subset, so it parses too.

use serde_json::{Map, Number, Value};

use crate::error::{Error, Result};

/// Parses one literal; trailing text other than whitespace is an error.
pub fn parse(text: &str) -> Result<Value> {
    let mut p = Parser { s: text.as_bytes(), text, i: 0, depth: 0 };
    p.ws();
    let v = p.value()?;
    p.ws();
    if p.i != p.s.len() {
        return Err(p.err("unexpected text after the literal"));
    }
    Ok(v)
}

struct Parser<'a> {
    s: &'a [u8],
    text: &'a str,
    i: usize,
    depth: usize,
}

const MAX_DEPTH: usize = 64;

impl Parser<'_> {
    fn err(&self, what: &str) -> Error {
        Error::new(format!("Python literal, at byte {}: {what}", self.i))
    }

    fn ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn value(&mut self) -> Result<Value> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err("nested too deeply"));
        }
        let v = match self.peek() {
            None => Err(self.err("unexpected end")),
            Some(b'[') => self.seq(b']').map(Value::Array),
            Some(b'(') => self.seq(b')').map(Value::Array),
            Some(b'{') => self.dict(),
            Some(b'\'' | b'"') => self.string().map(Value::String),
            Some(b'-' | b'+' | b'0'..=b'9' | b'.') => self.number(),
            Some(c) if c.is_ascii_alphabetic() => self.word(),
            Some(_) => Err(self.err("unexpected character")),
        };
        self.depth -= 1;
        v
    }

    fn seq(&mut self, close: u8) -> Result<Vec<Value>> {
        self.i += 1;
        let mut out = Vec::new();
        loop {
            self.ws();
            if self.peek() == Some(close) {
                self.i += 1;
                return Ok(out);
            }
            out.push(self.value()?);
            self.ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(c) if c == close => {}
                _ => return Err(self.err("expected `,` or the closing bracket")),
            }
        }
    }

    fn dict(&mut self) -> Result<Value> {
        self.i += 1;
        let mut out = Map::new();
        loop {
            self.ws();
            if self.peek() == Some(b'}') {
                self.i += 1;
                return Ok(Value::Object(out));
            }
            let key = match self.value()? {
                Value::String(s) => s,
                other => other.to_string(),
            };
            self.ws();
            if self.peek() != Some(b':') {
                return Err(self.err("expected `:` in a dict"));
            }
            self.i += 1;
            self.ws();
            let v = self.value()?;
            out.insert(key, v);
            self.ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b'}') => {}
                _ => return Err(self.err("expected `,` or `}`")),
            }
        }
    }

    fn word(&mut self) -> Result<Value> {
        let start = self.i;
        while self.i < self.s.len() && (self.s[self.i].is_ascii_alphanumeric() || self.s[self.i] == b'_') {
            self.i += 1;
        }
        let w = &self.text[start..self.i];
        match w {
            "True" | "true" => Ok(Value::Bool(true)),
            "False" | "false" => Ok(Value::Bool(false)),
            "None" | "null" => Ok(Value::Null),
            _ if matches!(self.peek(), Some(b'\'' | b'"'))
                && w.len() <= 2
                && w.chars().all(|c| "uUrRbB".contains(c)) =>
            {
                let raw = w.contains(['r', 'R']);
                self.string_body(raw).map(Value::String)
            }
            _ => {
                self.i = start;
                Err(self.err(&format!("unknown name `{w}`")))
            }
        }
    }

    fn number(&mut self) -> Result<Value> {
        let start = self.i;
        while self.i < self.s.len() && matches!(self.s[self.i], b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E' | b'_') {
            self.i += 1;
        }
        let t: String = self.text[start..self.i].chars().filter(|&c| c != '_').collect();
        if let Ok(n) = t.parse::<i64>() {
            return Ok(Value::Number(n.into()));
        }
        match t.parse::<f64>().ok().and_then(Number::from_f64) {
            Some(n) => Ok(Value::Number(n)),
            None => {
                self.i = start;
                Err(self.err(&format!("bad number `{t}`")))
            }
        }
    }

    fn string(&mut self) -> Result<String> {
        self.string_body(false)
    }

    /// At a quote: reads a '…', "…", '''…''' or """…""" string.
    fn string_body(&mut self, raw: bool) -> Result<String> {
        let q = self.s[self.i];
        let triple = self.s[self.i..].starts_with(&[q, q, q]);
        self.i += if triple { 3 } else { 1 };
        let mut out = String::new();
        loop {
            let Some(c) = self.peek() else {
                return Err(self.err("unterminated string"));
            };
            if c == q && (!triple || self.s[self.i..].starts_with(&[q, q, q])) {
                self.i += if triple { 3 } else { 1 };
                return Ok(out);
            }
            if c == b'\\' && !raw {
                self.i += 1;
                let Some(e) = self.peek() else {
                    return Err(self.err("unterminated string"));
                };
                self.i += 1;
                match e {
                    b'n' => out.push('\n'),
                    b't' => out.push('\t'),
                    b'r' => out.push('\r'),
                    b'0' => out.push('\0'),
                    b'\\' => out.push('\\'),
                    b'\'' => out.push('\''),
                    b'"' => out.push('"'),
                    b'\n' => {}
                    b'x' => out.push(self.hex(2)?),
                    b'u' => out.push(self.hex(4)?),
                    b'U' => out.push(self.hex(8)?),
                    _ => {
                        // Python keeps unknown escapes as written.
                        out.push('\\');
                        self.i -= 1;
                    }
                }
                continue;
            }
            if c == b'\\' && raw {
                // In a raw string a backslash still protects the quote from ending the string.
                out.push('\\');
                self.i += 1;
                if let Some(n) = self.peek() {
                    if n == q || n == b'\\' {
                        out.push(n as char);
                        self.i += 1;
                    }
                }
                continue;
            }
            if !triple && c == b'\n' {
                return Err(self.err("newline inside a string"));
            }
            // Copy one UTF-8 character.
            let ch = self.text[self.i..].chars().next().ok_or_else(|| self.err("bad UTF-8"))?;
            out.push(ch);
            self.i += ch.len_utf8();
        }
    }

    fn hex(&mut self, n: usize) -> Result<char> {
        let digits = self.text.get(self.i..self.i + n).ok_or_else(|| self.err("short escape"))?;
        let code = u32::from_str_radix(digits, 16).map_err(|_| self.err("bad hex escape"))?;
        self.i += n;
        char::from_u32(code).ok_or_else(|| self.err("escape is not a character"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn truthfulqa_style_dict() {
        let v = parse(r#"{'choices': ['Ооба, бул "чын".', "It's not"], 'labels': [1, 0]}"#).unwrap();
        assert_eq!(v, json!({"choices": ["Ооба, бул \"чын\".", "It's not"], "labels": [1, 0]}));
    }

    #[test]
    fn scalars_tuples_escapes_and_json() {
        assert_eq!(parse("(1, -2.5, True, None)").unwrap(), json!([1, -2.5, true, null]));
        assert_eq!(parse(r"'a\nb\x41\u0416'").unwrap(), json!("a\nbAЖ"));
        assert_eq!(parse(r#"["x", {"k": false}]"#).unwrap(), json!(["x", {"k": false}]));
        assert_eq!(parse("'''three\nlines'''").unwrap(), json!("three\nlines"));
        assert_eq!(parse(r"u'ü' ").unwrap(), json!("ü"));
        assert_eq!(parse(r"r'\d'").unwrap(), json!("\\d"));
        assert_eq!(parse("[]").unwrap(), json!([]));
    }

    #[test]
    fn errors_do_not_panic() {
        for bad in ["", "[1, 2", "{'a' 1}", "'open", "array([1, 2])", "[1] x", "{'a': }", "'\\x4'", "-", "(((((((((("] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        let deep = "[".repeat(1000);
        assert!(parse(&deep).unwrap_err().message().contains("deeply"));
    }
}
