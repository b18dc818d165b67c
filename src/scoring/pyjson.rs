//! An ordered JSON value written byte for byte as Python's `json.dumps(…, ensure_ascii=False)` writes
//! it, with or without `indent`. lm-eval hashes `json.dumps(doc, indent=2, ensure_ascii=False)` for
//! `doc_hash`, so key order, float formatting (`repr`) and escaping must all be Python's.

use std::fmt::Write;

/// A JSON value whose objects keep their insertion order (Python dicts do).
#[derive(Debug, Clone, PartialEq)]
pub enum PyJson {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    List(Vec<PyJson>),
    Dict(Vec<(String, PyJson)>),
}

impl PyJson {
    pub fn str(s: impl Into<String>) -> Self {
        PyJson::Str(s.into())
    }

    pub fn dict<K: Into<String>>(entries: impl IntoIterator<Item = (K, PyJson)>) -> Self {
        PyJson::Dict(entries.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }

    /// The value under `key` of a dict.
    pub fn get(&self, key: &str) -> Option<&PyJson> {
        match self {
            PyJson::Dict(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// From a `serde_json::Value` (its objects' key order is whatever serde_json kept).
    pub fn from_serde(v: &serde_json::Value) -> Self {
        use serde_json::Value as V;
        match v {
            V::Null => PyJson::Null,
            V::Bool(b) => PyJson::Bool(*b),
            V::Number(n) => match n.as_i64() {
                Some(i) => PyJson::Int(i),
                None => PyJson::Float(n.as_f64().unwrap_or(f64::NAN)),
            },
            V::String(s) => PyJson::Str(s.clone()),
            V::Array(a) => PyJson::List(a.iter().map(PyJson::from_serde).collect()),
            V::Object(o) => PyJson::Dict(o.iter().map(|(k, v)| (k.clone(), PyJson::from_serde(v))).collect()),
        }
    }

    /// [`from_serde`](Self::from_serde) with an object's keys in `order` (keys not in it after, in
    /// their own order): a document's fields in its dataset's column order, as lm-eval logs them.
    pub fn from_serde_ordered(v: &serde_json::Value, order: &[String]) -> Self {
        let serde_json::Value::Object(o) = v else { return Self::from_serde(v) };
        let mut entries: Vec<(String, PyJson)> =
            order.iter().filter_map(|k| o.get(k).map(|x| (k.clone(), PyJson::from_serde(x)))).collect();
        entries.extend(o.iter().filter(|(k, _)| !order.contains(k)).map(|(k, x)| (k.clone(), PyJson::from_serde(x))));
        PyJson::Dict(entries)
    }

    /// `json.dumps(value, ensure_ascii=False)` (separators `", "` and `": "`).
    pub fn dumps(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, None, 0);
        out
    }

    /// `json.dumps(value, indent=indent, ensure_ascii=False)` (separators `","` and `": "`).
    pub fn dumps_indent(&self, indent: usize) -> String {
        let mut out = String::new();
        self.write(&mut out, Some(indent), 0);
        out
    }

    fn write(&self, out: &mut String, indent: Option<usize>, level: usize) {
        match self {
            PyJson::Null => out.push_str("null"),
            PyJson::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            PyJson::Int(i) => {
                let _ = write!(out, "{i}");
            }
            PyJson::Float(f) => out.push_str(&json_float(*f)),
            PyJson::Str(s) => write_str(out, s),
            PyJson::List(items) => {
                if items.is_empty() {
                    out.push_str("[]");
                    return;
                }
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    separator(out, indent, level + 1, i == 0);
                    item.write(out, indent, level + 1);
                }
                close(out, indent, level);
                out.push(']');
            }
            PyJson::Dict(entries) => {
                if entries.is_empty() {
                    out.push_str("{}");
                    return;
                }
                out.push('{');
                for (i, (k, v)) in entries.iter().enumerate() {
                    separator(out, indent, level + 1, i == 0);
                    write_str(out, k);
                    out.push_str(": ");
                    v.write(out, indent, level + 1);
                }
                close(out, indent, level);
                out.push('}');
            }
        }
    }
}

fn separator(out: &mut String, indent: Option<usize>, level: usize, first: bool) {
    match indent {
        Some(n) => {
            if !first {
                out.push(',');
            }
            out.push('\n');
            out.extend(std::iter::repeat_n(' ', n * level));
        }
        None => {
            if !first {
                out.push_str(", ");
            }
        }
    }
}

fn close(out: &mut String, indent: Option<usize>, level: usize) {
    if let Some(n) = indent {
        out.push('\n');
        out.extend(std::iter::repeat_n(' ', n * level));
    }
}

/// Python's `json` string encoder with `ensure_ascii=False`: only `"`, `\` and C0 controls escaped.
fn write_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// How `json.dumps` writes a float: `NaN`, `Infinity`, `-Infinity`, else `repr`.
pub fn json_float(x: f64) -> String {
    if x.is_nan() {
        "NaN".into()
    } else if x.is_infinite() {
        if x > 0.0 {
            "Infinity".into()
        } else {
            "-Infinity".into()
        }
    } else {
        py_float_repr(x)
    }
}

/// Python's `repr(float)` (also `str(float)`): shortest round-trip digits; scientific notation when
/// the decimal exponent is below −4 or at least 16 (`1e-05`, `1e+16`), else positional with at
/// least one digit after the point (`1.0`, `0.0001`).
pub fn py_float_repr(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    // Rust's `{:e}` gives the shortest round-trip digits: "-1.6103809356689453e1".
    let sci = format!("{x:e}");
    let (mantissa, exp) = sci.split_once('e').expect("{:e} has an exponent");
    let exp: i32 = exp.parse().expect("integer exponent");
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let decpt = exp + 1; // position of the decimal point relative to the digits
    if !(-4 < decpt && decpt <= 16) {
        let rest = &digits[1..];
        let frac = if rest.is_empty() { String::new() } else { format!(".{rest}") };
        let esign = if exp < 0 { '-' } else { '+' };
        return format!("{sign}{}{frac}e{esign}{:02}", &digits[..1], exp.abs());
    }
    let nd = digits.len() as i32;
    if decpt <= 0 {
        format!("{sign}0.{}{digits}", "0".repeat((-decpt) as usize))
    } else if decpt >= nd {
        format!("{sign}{digits}{}.0", "0".repeat((decpt - nd) as usize))
    } else {
        let (a, b) = digits.split_at(decpt as usize);
        format!("{sign}{a}.{b}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_repr_like_python() {
        for (x, s) in [
            (-16.103809356689453, "-16.103809356689453"),
            (1.0, "1.0"),
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (100.0, "100.0"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (1.5e-7, "1.5e-07"),
            (1e16, "1e+16"),
            (1e15, "1000000000000000.0"),
            (1.2345e20, "1.2345e+20"),
            (0.1, "0.1"),
            (123.456, "123.456"),
            (5e-324, "5e-324"),
        ] {
            assert_eq!(py_float_repr(x), s, "{x}");
        }
        assert_eq!(json_float(f64::NAN), "NaN");
    }

    #[test]
    fn dumps_like_python() {
        let v = PyJson::dict([
            ("a", PyJson::Int(1)),
            ("b", PyJson::List(vec![PyJson::Float(0.5), PyJson::str("ཀ\"\n\u{1}")])),
            ("c", PyJson::Dict(vec![])),
            ("d", PyJson::List(vec![])),
            ("e", PyJson::Null),
        ]);
        // json.dumps(v, ensure_ascii=False)
        assert_eq!(v.dumps(), r#"{"a": 1, "b": [0.5, "ཀ\"\n\u0001"], "c": {}, "d": [], "e": null}"#);
        // json.dumps(v, indent=2, ensure_ascii=False)
        assert_eq!(
            v.dumps_indent(2),
            "{\n  \"a\": 1,\n  \"b\": [\n    0.5,\n    \"ཀ\\\"\\n\\u0001\"\n  ],\n  \"c\": {},\n  \"d\": [],\n  \"e\": null\n}"
        );
    }
}
