//! The Jinja environment lm-evaluation-harness renders task templates with, rebuilt on minijinja.
//!
//! lm-eval (`lm_eval/utils.py`, `env`/`apply_template`) renders every `doc_to_*` string with
//! `jinja2.Environment(undefined=StrictUndefined, keep_trailing_newline=True)` plus one filter,
//! `regex_replace(string, pattern, repl, count=0)` = `re.sub`. The template sees the document's
//! fields as variables. This module configures minijinja the same way and adds what Jinja2 gets
//! from Python for free and task files rely on:
//!
//! - values print the way Python's `str()` prints them (`None`, `True`, `['a', 'b']`,
//!   `{'k': 1}`), because lm-eval feeds rendered `doc_to_choice`/`doc_to_target` text to
//!   `ast.literal_eval` (`{{['A', 'B'].index(Answer_Letter)}}`, `{{choices}}`);
//! - a few Python methods templates call on values: `list.index`, `list.count`, `str.strip`,
//!   `lstrip`, `rstrip`, `lower`, `upper`, `title`, `capitalize`, `split`, `replace`,
//!   `startswith`, `endswith`, `join`, `format` is not provided; `dict.keys/values/items/get`.

use minijinja::value::{Value, ValueKind};
use minijinja::{Environment, Error, ErrorKind, Output, State, UndefinedBehavior};

/// The work one render may do, in minijinja's fuel: one per instruction, and one per 64 bytes of
/// data made or written. lm-eval's templates, few-shot prompts included, need a few thousand; a
/// template from a hostile task file that loops or multiplies strings stops here (about 0.1 s of
/// work, or 128 MB of text) with an error, instead of running for minutes.
pub const FUEL: u64 = 2_000_000;

/// A fresh environment with lm-eval's settings. Templates are added by the caller.
pub fn environment<'s>() -> Environment<'s> {
    let mut env = Environment::new();
    env.set_fuel(Some(FUEL));
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    env.set_syntax(
        minijinja::syntax::SyntaxConfig::builder()
            .keep_trailing_newline(true)
            .build()
            .expect("default delimiters are valid"),
    );
    env.set_formatter(python_formatter);
    env.set_unknown_method_callback(python_method);
    env.add_filter("regex_replace", regex_replace);
    env
}

fn python_formatter(out: &mut Output, _state: &mut State, value: &Value) -> Result<(), Error> {
    // An undefined that got this far is Jinja2's plain `Undefined` (the missing else of `{{ x if
    // c }}`), which prints nothing; a missing variable errors before (strict lookups).
    if value.is_undefined() {
        return Ok(());
    }
    let mut s = String::new();
    python_str(value, &mut s);
    out.write_str(&s).map_err(|e| Error::new(ErrorKind::WriteFailure, e.to_string()))
}

/// Python's `str(value)`: strings as they are, everything else as `repr`.
pub fn python_str(v: &Value, out: &mut String) {
    match v.kind() {
        ValueKind::String => out.push_str(v.as_str().unwrap_or_default()),
        _ => python_repr(v, out),
    }
}

/// Python's `repr(value)` for the kinds documents hold.
pub fn python_repr(v: &Value, out: &mut String) {
    match v.kind() {
        ValueKind::Undefined | ValueKind::None => out.push_str("None"),
        ValueKind::Bool => out.push_str(if v.is_true() { "True" } else { "False" }),
        ValueKind::String => repr_str(v.as_str().unwrap_or_default(), out),
        ValueKind::Number => {
            if let Some(i) = v.as_i64().filter(|_| v.is_integer()) {
                out.push_str(&i.to_string());
            } else {
                let f = f64::try_from(v.clone()).unwrap_or(f64::NAN);
                out.push_str(&python_float(f));
            }
        }
        ValueKind::Seq | ValueKind::Iterable => {
            out.push('[');
            if let Ok(iter) = v.try_iter() {
                for (i, x) in iter.enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    python_repr(&x, out);
                }
            }
            out.push(']');
        }
        ValueKind::Map => {
            out.push('{');
            if let Ok(iter) = v.try_iter() {
                for (i, k) in iter.enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    python_repr(&k, out);
                    out.push_str(": ");
                    python_repr(&v.get_item(&k).unwrap_or_default(), out);
                }
            }
            out.push('}');
        }
        _ => out.push_str(&v.to_string()),
    }
}

fn python_float(f: f64) -> String {
    if f.is_nan() {
        "nan".into()
    } else if f.is_infinite() {
        if f > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        }
    } else if f == f.trunc() && f.abs() < 1e16 {
        format!("{f:.1}")
    } else {
        // Rust's shortest round-trip form is Python's repr for ordinary magnitudes.
        format!("{f}")
    }
}

/// `repr(str)`: single quotes unless the text has `'` and no `"`; backslash escapes for `\\`,
/// the quote, `\n`, `\r`, `\t` and other control characters.
pub fn repr_str(s: &str, out: &mut String) {
    let q = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
    out.push(q);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == q => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push(q);
}

/// `re.sub(pattern, repl, string, count)`. Python's `\1`/`\g<name>` group references in `repl`
/// are translated to the `regex` crate's `${1}`/`${name}`.
fn regex_replace(string: String, pattern: String, repl: String, count: Option<usize>) -> Result<String, Error> {
    let re = regex::Regex::new(&pattern)
        .map_err(|e| Error::new(ErrorKind::InvalidOperation, format!("regex_replace: bad pattern {pattern:?}: {e}")))?;
    let repl = python_repl(&repl);
    Ok(re.replacen(&string, count.unwrap_or(0), repl.as_str()).into_owned())
}

fn python_repl(repl: &str) -> String {
    let mut out = String::new();
    let mut it = repl.chars().peekable();
    while let Some(c) = it.next() {
        match c {
            '$' => out.push_str("$$"),
            '\\' => match it.peek().copied() {
                Some(d) if d.is_ascii_digit() => {
                    let mut n = String::new();
                    while let Some(d) = it.peek().copied().filter(|d| d.is_ascii_digit()) {
                        n.push(d);
                        it.next();
                    }
                    out.push_str(&format!("${{{n}}}"));
                }
                Some('g') => {
                    it.next();
                    if it.peek() == Some(&'<') {
                        it.next();
                        let name: String = it.by_ref().take_while(|&c| c != '>').collect();
                        out.push_str(&format!("${{{name}}}"));
                    } else {
                        out.push_str("\\g");
                    }
                }
                Some('n') => {
                    it.next();
                    out.push('\n');
                }
                Some('t') => {
                    it.next();
                    out.push('\t');
                }
                Some('\\') => {
                    it.next();
                    out.push('\\');
                }
                _ => out.push('\\'),
            },
            c => out.push(c),
        }
    }
    out
}

fn arg_str(args: &[Value], i: usize) -> Option<&str> {
    args.get(i).and_then(|v| v.as_str())
}

fn python_method(state: &mut State, value: &Value, method: &str, args: &[Value]) -> Result<Value, Error> {
    let unknown = || Err(Error::from(ErrorKind::UnknownMethod));
    match value.kind() {
        ValueKind::Seq | ValueKind::Iterable => match method {
            "index" | "count" => {
                let needle = args.first().cloned().unwrap_or_default();
                let items: Vec<Value> = value.try_iter()?.collect();
                if method == "count" {
                    return Ok(Value::from(items.iter().filter(|x| **x == needle).count()));
                }
                match items.iter().position(|x| *x == needle) {
                    Some(i) => Ok(Value::from(i)),
                    None => {
                        let mut r = String::new();
                        python_repr(&needle, &mut r);
                        Err(Error::new(ErrorKind::InvalidOperation, format!("ValueError: {r} is not in list")))
                    }
                }
            }
            _ => unknown(),
        },
        ValueKind::String => {
            let s = value.as_str().unwrap_or_default();
            let chars = arg_str(args, 0);
            let strip_set = |c: char| chars.map_or(c.is_whitespace(), |set| set.contains(c));
            Ok(match method {
                "strip" => Value::from(s.trim_matches(strip_set)),
                "lstrip" => Value::from(s.trim_start_matches(strip_set)),
                "rstrip" => Value::from(s.trim_end_matches(strip_set)),
                "lower" => Value::from(s.to_lowercase()),
                "upper" => Value::from(s.to_uppercase()),
                "title" => state.apply_filter("title", std::slice::from_ref(value))?,
                "capitalize" => state.apply_filter("capitalize", std::slice::from_ref(value))?,
                "startswith" => Value::from(chars.is_some_and(|p| s.starts_with(p))),
                "endswith" => Value::from(chars.is_some_and(|p| s.ends_with(p))),
                "replace" => match (arg_str(args, 0), arg_str(args, 1)) {
                    (Some(a), Some(b)) => Value::from(s.replace(a, b)),
                    _ => return unknown(),
                },
                "split" => match chars {
                    Some(sep) if !sep.is_empty() => Value::from(s.split(sep).map(Value::from).collect::<Vec<_>>()),
                    _ => Value::from(s.split_whitespace().map(Value::from).collect::<Vec<_>>()),
                },
                "join" => {
                    let parts: Vec<String> = args
                        .first()
                        .map(|v| v.try_iter().map(|it| it.map(|x| x.to_string()).collect()))
                        .transpose()?
                        .unwrap_or_default();
                    Value::from(parts.join(s))
                }
                _ => return unknown(),
            })
        }
        ValueKind::Map => match method {
            "keys" => Ok(Value::from(value.try_iter()?.collect::<Vec<_>>())),
            "values" => {
                Ok(Value::from(value.try_iter()?.map(|k| value.get_item(&k).unwrap_or_default()).collect::<Vec<_>>()))
            }
            "items" => state.apply_filter("items", std::slice::from_ref(value)),
            "get" => {
                let k = args.first().cloned().unwrap_or_default();
                let v = value.get_item(&k).unwrap_or_default();
                Ok(if v.is_undefined() { args.get(1).cloned().unwrap_or(Value::from(())) } else { v })
            }
            _ => unknown(),
        },
        _ => unknown(),
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn an_if_without_else_prints_nothing_and_a_missing_variable_errors() {
        let env = environment();
        let ctx = minijinja::context! { a => "x" };
        assert_eq!(env.render_str("[{{ b if b is defined }}][{{ a if a is defined }}]", &ctx).unwrap(), "[][x]");
        assert!(env.render_str("{{ b }}", &ctx).is_err());
        assert!(env.render_str("{{ b.c }}", &ctx).is_err());
    }

    use super::*;

    fn render(src: &str, ctx: Value) -> Result<String, Error> {
        environment().render_str(src, ctx)
    }

    #[test]
    fn prints_like_python() {
        let ctx = Value::from(std::collections::BTreeMap::from([
            (
                "xs",
                Value::from(vec![
                    Value::from("a"),
                    Value::from("it's"),
                    Value::from(()),
                    Value::from(true),
                    Value::from(1.5),
                ]),
            ),
            ("n", Value::from(())),
        ]));
        // Jinja2: "['a', \"it's\", None, True, 1.5] None"
        assert_eq!(render("{{xs}} {{n}}", ctx).unwrap(), "['a', \"it's\", None, True, 1.5] None");
        assert_eq!(render("{{ ['A', 'B'].index('B') }}", Value::UNDEFINED).unwrap(), "1");
        assert!(render("{{ ['A'].index('Z') }}", Value::UNDEFINED).is_err());
        assert_eq!(render("{{ '  x '.strip() }}|{{ 'a,b'.split(',') }}", Value::UNDEFINED).unwrap(), "x|['a', 'b']");
    }

    #[test]
    fn strict_undefined_and_trailing_newline() {
        assert!(render("{{ missing }}", Value::UNDEFINED).is_err());
        assert_eq!(render("a\n", Value::UNDEFINED).unwrap(), "a\n");
    }

    #[test]
    fn regex_replace_is_re_sub() {
        let src = r#"{{ "a1b22c" | regex_replace("(\\d+)", "<\\1>") }}|{{ "x  y" | regex_replace("\\s+", " ", 1) }}|{{ "5" | regex_replace("5", "$") }}"#;
        assert_eq!(render(src, Value::UNDEFINED).unwrap(), "a<1>b<22>c|x y|$");
    }
}
