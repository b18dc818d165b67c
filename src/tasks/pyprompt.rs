//! Python prompt functions (`doc_to_text: !function utils.doc_to_text_amh`) read as Jinja templates.
//!
//! lm-eval tasks often give their prompt as a function in a `utils.py` beside the YAML. The browser
//! has no Python, but most such functions only fill a constant string with document fields:
//! `return PROMPT.format(language='Amharic', proverb=doc["Proverb"])`, or list fields
//! (`[doc['A'], doc['B']]`). This module reads that much Python, runs none of it, and writes the
//! function's result as the Jinja template that gives the same text, so the rest of the task is
//! rendered as if its YAML had held the template (ProverbEval's 14 `utils.py` files are all of
//! this kind).
//!
//! What is read:
//! - module level: `import`/`from … import` (skipped), `NAME = <expr>`, `print(…)`, and `def`s;
//!   other statements are skipped and named if a function needs a name they might have set;
//! - in a function: `NAME = <expr>`, `NAME += <expr>`, `if`/`elif`/`else` on constants, `return`;
//! - expressions: string literals (every prefix but bytes; adjacent ones joined), f-strings with
//!   plain `{expr}` fields, numbers, `None`/`True`/`False`, lists, tuples and dicts of these,
//!   names, `doc["field"]`, subscripts of constants, `+`, `==`/`!=`/`is`/`is not`/`in`/`not`/
//!   `and`/`or` on constants, `str.format(…)`, a few string methods on constants, calls of the
//!   module's own functions, and `os.getenv(…)`/`os.environ.get(…)`/`os.environ[…]` (the values
//!   the caller gives, as lm-eval would read the process environment: ProverbEval's prompt
//!   variants are chosen by `T_PROMPT`).
//!
//! Anything else (a loop, a condition on the document, a method of a document field) is refused
//! with the file, the line and what was not understood: never guessed.

use std::collections::BTreeMap;

use crate::error::{Error, Result};

/// A value while the function is read: a constant, or text that depends on the document.
#[derive(Debug, Clone, PartialEq)]
enum Val {
    None,
    Bool(bool),
    Int(i64),
    Str(String),
    List(Vec<Val>),
    Dict(Vec<(Val, Val)>),
    /// `doc` itself.
    Doc,
    /// `doc["name"]`: a document field, of whatever type it has.
    Field(String),
    /// A string built from constants and document fields.
    Text(Vec<Piece>),
    /// A function of the module (a value only to be called).
    Function(String),
}

#[derive(Debug, Clone, PartialEq)]
enum Piece {
    Lit(String),
    Field(String),
}

/// What a prompt function gives, as the task field lm-eval would have had.
#[derive(Debug, Clone, PartialEq)]
pub enum Prompt {
    /// A Jinja template (or a column name: a function that returns `doc["name"]` as it is).
    Template(String),
    /// A constant index.
    Int(i64),
}

/// Reads `function` of the module `file` (its text `source`) as a template; `env` answers
/// `os.getenv`. The error names the file, the function and the line.
pub fn read_function(file: &str, source: &str, function: &str, env: &dyn Fn(&str) -> Option<String>) -> Result<Prompt> {
    let fail = |why: String| Error::new(format!("{file}: {function}: {why}"));
    let tokens = tokenize(source).map_err(|(line, why)| Error::new(format!("{file} line {line}: {why}")))?;
    let module = Parser { tokens, at: 0, depth: 0 }
        .module()
        .map_err(|(line, why)| Error::new(format!("{file} line {line}: {why}")))?;
    let mut reader =
        Reader { module: &module, env, globals: BTreeMap::new(), unread: Vec::new(), unset_env: Vec::new(), calls: 0 };
    reader.run_module().map_err(|(line, why)| Error::new(format!("{file} line {line}: {why}")))?;
    if !module.functions.contains_key(function) {
        return Err(fail(format!("no function of that name in {file}")));
    }
    let value = reader.call(function, vec![Val::Doc], 0).map_err(|(line, why)| {
        let mut why = format!("line {line}: {why}");
        if !reader.unset_env.is_empty() {
            why.push_str(&format!(" (the environment variable {} is not set)", reader.unset_env.join(", ")));
        }
        fail(why)
    })?;
    to_prompt(value).map_err(fail)
}

/// The value a prompt function returned, as a template.
fn to_prompt(value: Val) -> std::result::Result<Prompt, String> {
    Ok(match value {
        Val::Int(i) => Prompt::Int(i),
        Val::Field(name) => Prompt::Template(identifier(&name)?),
        Val::Str(s) => Prompt::Template(template_text(&[Piece::Lit(s)])?),
        Val::Text(pieces) => Prompt::Template(template_text(&pieces)?),
        Val::List(items) => {
            let items: Vec<String> = items.into_iter().map(expression).collect::<std::result::Result<_, _>>()?;
            Prompt::Template(format!("{{{{ [{}] }}}}", items.join(", ")))
        }
        Val::None => return Err("it returns None".into()),
        other => return Err(format!("it returns {}, which lingualens cannot give as a prompt", describe(&other))),
    })
}

/// Text as a Jinja template: literals as they are (inside `{% raw %}` where they hold anything
/// Jinja would read), fields printed.
fn template_text(pieces: &[Piece]) -> std::result::Result<String, String> {
    let mut out = String::new();
    for p in pieces {
        match p {
            Piece::Lit(s) if s.contains(['{', '}', '%', '#']) => {
                if s.contains("{% endraw %}") {
                    return Err("its text holds `{% endraw %}`".into());
                }
                out.push_str("{% raw %}");
                out.push_str(s);
                out.push_str("{% endraw %}");
            }
            Piece::Lit(s) => out.push_str(s),
            Piece::Field(name) => out.push_str(&format!("{{{{ {} }}}}", identifier(name)?)),
        }
    }
    Ok(out)
}

/// A value as a Jinja expression (an item of a returned list).
fn expression(value: Val) -> std::result::Result<String, String> {
    Ok(match value {
        Val::Field(name) => identifier(&name)?,
        Val::Str(s) => jinja_string(&s),
        Val::Int(i) => i.to_string(),
        Val::Text(pieces) => {
            let parts: Vec<String> = pieces
                .iter()
                .map(|p| match p {
                    Piece::Lit(s) => Ok(jinja_string(s)),
                    Piece::Field(f) => identifier(f).map(|f| format!("({f} | string)")),
                })
                .collect::<std::result::Result<_, String>>()?;
            format!("({})", parts.join(" ~ "))
        }
        other => {
            return Err(format!(
                "it returns a list holding {}, which lingualens cannot give as a choice",
                describe(&other)
            ))
        }
    })
}

/// A document field as a Jinja variable: lm-eval's templates see the fields as names, so a field
/// whose name is not an identifier cannot be reached from one.
fn identifier(name: &str) -> std::result::Result<String, String> {
    let ok = name.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_alphanumeric() || c == '_');
    if !ok || ["true", "false", "none", "True", "False", "None", "loop", "not", "and", "or", "in", "is"].contains(&name)
    {
        return Err(format!("it reads the field {name:?}, whose name a Jinja template cannot use"));
    }
    Ok(name.to_string())
}

fn jinja_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn describe(v: &Val) -> String {
    match v {
        Val::None => "None".into(),
        Val::Bool(_) => "a boolean".into(),
        Val::Int(_) => "a number".into(),
        Val::Str(_) | Val::Text(_) => "a string".into(),
        Val::List(_) => "a list".into(),
        Val::Dict(_) => "a dict".into(),
        Val::Doc => "the document".into(),
        Val::Field(f) => format!("doc[{f:?}]"),
        Val::Function(f) => format!("the function {f}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Tokens

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Name(String),
    Str { value: String, fstring: bool },
    Int(i64),
    Op(&'static str),
    Newline,
    Indent,
    Dedent,
    End,
}

type Fail = (usize, String);

/// Tokens with their 1-based lines, as Python's tokenizer gives them (indentation as
/// `Indent`/`Dedent`, no newlines inside brackets or after `\`).
fn tokenize(src: &str) -> std::result::Result<Vec<(Tok, usize)>, Fail> {
    const OPS: [&str; 23] = [
        "==", "!=", "+=", "->", "**", "<=", ">=", "(", ")", "[", "]", "{", "}", ",", ":", ".", "=", "+", "-", "*", "%",
        "<", ">",
    ];
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut indents = vec![0usize];
    let mut i = 0;
    let mut line = 1;
    let mut brackets = 0usize;
    let mut line_start = true;
    while i < chars.len() {
        if line_start && brackets > 0 {
            // Inside brackets a new line is not a new statement.
            line_start = false;
        } else if line_start {
            // Measure indentation; blank and comment-only lines do not count.
            let mut width = 0;
            let mut j = i;
            while j < chars.len() && (chars[j] == ' ' || chars[j] == '\t') {
                width += if chars[j] == '\t' { 8 - width % 8 } else { 1 };
                j += 1;
            }
            if j >= chars.len() || chars[j] == '\n' || chars[j] == '#' || chars[j] == '\r' {
                while j < chars.len() && chars[j] != '\n' {
                    j += 1;
                }
                i = j + 1;
                line += 1;
                continue;
            }
            let top = *indents.last().unwrap_or(&0);
            if width > top {
                if indents.len() > 100 {
                    return Err((line, "nested more than 100 blocks deep".into()));
                }
                indents.push(width);
                out.push((Tok::Indent, line));
            } else {
                while width < *indents.last().unwrap_or(&0) {
                    indents.pop();
                    out.push((Tok::Dedent, line));
                }
                if width != *indents.last().unwrap_or(&0) {
                    return Err((line, "the indentation does not match any outer block".into()));
                }
            }
            i = j;
            line_start = false;
        }
        let c = chars[i];
        match c {
            '\n' => {
                if brackets == 0 && !matches!(out.last(), Some((Tok::Newline, _)) | None) {
                    out.push((Tok::Newline, line));
                }
                line += 1;
                i += 1;
                line_start = true;
            }
            ' ' | '\t' | '\r' | '\x0c' => i += 1,
            '#' => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '\\' if chars.get(i + 1) == Some(&'\n') => {
                i += 2;
                line += 1;
            }
            '\\' if chars.get(i + 1) == Some(&'\r') && chars.get(i + 2) == Some(&'\n') => {
                i += 3;
                line += 1;
            }
            c if c.is_alphabetic() || c == '_' => {
                let start = i;
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                let quote = chars.get(i).copied();
                let prefix = word.to_ascii_lowercase();
                if matches!(quote, Some('"' | '\''))
                    && ["r", "u", "f", "rf", "fr", "b", "br", "rb"].contains(&prefix.as_str())
                {
                    if prefix.contains('b') {
                        return Err((line, "a bytes literal".into()));
                    }
                    let (value, next, lines) =
                        string_literal(&chars, i, prefix.contains('r')).map_err(|why| (line, why))?;
                    out.push((Tok::Str { value, fstring: prefix.contains('f') }, line));
                    line += lines;
                    i = next;
                } else {
                    out.push((Tok::Name(word), line));
                }
            }
            '"' | '\'' => {
                let (value, next, lines) = string_literal(&chars, i, false).map_err(|why| (line, why))?;
                out.push((Tok::Str { value, fstring: false }, line));
                line += lines;
                i = next;
            }
            c if c.is_ascii_digit() => {
                let start = i;
                while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '_') {
                    i += 1;
                }
                if matches!(chars.get(i), Some('.' | 'e' | 'E' | 'x' | 'X' | 'j'))
                    && chars.get(i + 1).is_some_and(|c| c.is_ascii_alphanumeric())
                    || chars.get(i) == Some(&'.')
                {
                    return Err((line, "a number other than a whole decimal number".into()));
                }
                let digits: String = chars[start..i].iter().filter(|c| **c != '_').collect();
                let n = digits.parse().map_err(|_| (line, format!("the number {digits} is too large")))?;
                out.push((Tok::Int(n), line));
            }
            _ => {
                let rest: String = chars[i..chars.len().min(i + 2)].iter().collect();
                let Some(op) = OPS.iter().find(|op| rest.starts_with(**op)) else {
                    return Err((line, format!("the character {c:?} is not understood here")));
                };
                match *op {
                    "(" | "[" | "{" => brackets += 1,
                    ")" | "]" | "}" => brackets = brackets.saturating_sub(1),
                    _ => {}
                }
                out.push((Tok::Op(op), line));
                i += op.chars().count();
            }
        }
    }
    if !matches!(out.last(), Some((Tok::Newline, _)) | None) {
        out.push((Tok::Newline, line));
    }
    while indents.len() > 1 {
        indents.pop();
        out.push((Tok::Dedent, line));
    }
    out.push((Tok::End, line));
    Ok(out)
}

/// A string literal starting at `chars[start]` (the quote): its value, the index after it, and
/// the newlines inside it.
fn string_literal(chars: &[char], start: usize, raw: bool) -> std::result::Result<(String, usize, usize), String> {
    let q = chars[start];
    let triple = chars.get(start + 1) == Some(&q) && chars.get(start + 2) == Some(&q);
    let mut i = start + if triple { 3 } else { 1 };
    let mut out = String::new();
    let mut lines = 0;
    loop {
        let Some(&c) = chars.get(i) else { return Err("a string is not closed".into()) };
        if c == q && (!triple || (chars.get(i + 1) == Some(&q) && chars.get(i + 2) == Some(&q))) {
            return Ok((out, i + if triple { 3 } else { 1 }, lines));
        }
        if c == '\n' {
            if !triple {
                return Err("a string is not closed on its line".into());
            }
            lines += 1;
        }
        if c == '\\' {
            let Some(&e) = chars.get(i + 1) else { return Err("a string is not closed".into()) };
            if raw {
                out.push('\\');
                out.push(e);
                if e == '\n' {
                    lines += 1;
                }
                i += 2;
                continue;
            }
            i += 2;
            match e {
                '\n' => lines += 1,
                '\\' => out.push('\\'),
                '\'' => out.push('\''),
                '"' => out.push('"'),
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => out.push('\r'),
                'a' => out.push('\x07'),
                'b' => out.push('\x08'),
                'f' => out.push('\x0c'),
                'v' => out.push('\x0b'),
                '0'..='7' => {
                    let mut v = e.to_digit(8).unwrap_or(0);
                    for _ in 0..2 {
                        match chars.get(i).and_then(|c| c.to_digit(8)) {
                            Some(d) => {
                                v = v * 8 + d;
                                i += 1;
                            }
                            None => break,
                        }
                    }
                    out.push(char::from_u32(v).ok_or("a bad octal escape")?);
                }
                'x' | 'u' | 'U' => {
                    let n = match e {
                        'x' => 2,
                        'u' => 4,
                        _ => 8,
                    };
                    let hex: String = chars.get(i..i + n).ok_or("a short escape")?.iter().collect();
                    let v = u32::from_str_radix(&hex, 16).map_err(|_| format!("a bad escape \\{e}{hex}"))?;
                    out.push(char::from_u32(v).ok_or(format!("a bad escape \\{e}{hex}"))?);
                    i += n;
                }
                'N' => return Err("a \\N{…} escape".into()),
                other => {
                    // Python keeps an unknown escape as it is.
                    out.push('\\');
                    out.push(other);
                }
            }
            continue;
        }
        out.push(c);
        i += 1;
    }
}

/// A string literal of a Python file: the line it starts on, whether it is an f-string, and its
/// value (escapes decoded).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PyString {
    pub line: usize,
    pub fstring: bool,
    pub value: String,
}

/// Every string literal of `src`, in order (comments and bytes literals skipped), decoded as
/// [`tokenize`] decodes them, with no other syntax checked: for reading the texts out of code
/// that [`read_function`] would refuse (classes, loops; `tasks::kyrgyzllm`).
pub(crate) fn string_literals(src: &str) -> std::result::Result<Vec<PyString>, Fail> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c == '#' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let prefix = chars[start..i].iter().collect::<String>().to_ascii_lowercase();
            if matches!(chars.get(i), Some('"' | '\''))
                && ["r", "u", "f", "rf", "fr", "b", "br", "rb"].contains(&prefix.as_str())
            {
                let (value, next, lines) =
                    string_literal(&chars, i, prefix.contains('r')).map_err(|why| (line, why))?;
                if !prefix.contains('b') {
                    out.push(PyString { line, fstring: prefix.contains('f'), value });
                }
                line += lines;
                i = next;
            }
        } else if c == '"' || c == '\'' {
            let (value, next, lines) = string_literal(&chars, i, false).map_err(|why| (line, why))?;
            out.push(PyString { line, fstring: false, value });
            line += lines;
            i = next;
        } else {
            i += 1;
        }
    }
    Ok(out)
}

/// A part of an f-string: literal text, or a field by what it reads (`name`, `x['key']` as
/// `key`, `x[i]` as `x[i]`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum FText {
    Lit(String),
    Field(String),
}

/// An f-string's value (as [`string_literals`] gives it) as literal text and fields.
pub(crate) fn fstring_texts(value: &str) -> std::result::Result<Vec<FText>, String> {
    let field = |e: &Expr| match e {
        Expr::Name(n) => Some(n.clone()),
        Expr::Subscript(base, key) => match (base.as_ref(), key.as_ref()) {
            (_, Expr::Const(Val::Str(k))) => Some(k.clone()),
            (Expr::Name(b), Expr::Name(i)) => Some(format!("{b}[{i}]")),
            _ => None,
        },
        _ => None,
    };
    fstring_parts(value)?
        .into_iter()
        .map(|p| match p {
            FPart::Lit(s) => Ok(FText::Lit(s)),
            FPart::Expr(e) => field(&e)
                .map(FText::Field)
                .ok_or_else(|| "an f-string field other than a name, x['key'] or x[i]".into()),
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Syntax

#[derive(Debug, Clone)]
enum Expr {
    Const(Val),
    Name(String),
    FString(Vec<FPart>),
    List(Vec<Expr>),
    Dict(Vec<(Expr, Expr)>),
    Subscript(Box<Expr>, Box<Expr>),
    Attr(Box<Expr>, String),
    Call(Box<Expr>, Vec<Expr>, Vec<(String, Expr)>),
    Binary(&'static str, Box<Expr>, Box<Expr>),
    Not(Box<Expr>),
}

#[derive(Debug, Clone)]
enum FPart {
    Lit(String),
    Expr(Expr),
}

#[derive(Debug, Clone)]
enum Stmt {
    Assign(String, Expr, usize),
    AddAssign(String, Expr, usize),
    If(Vec<(Expr, Vec<Stmt>)>, Vec<Stmt>, usize),
    Return(Option<Expr>, usize),
    Expr(Expr, usize),
    Pass,
}

struct Function {
    params: Vec<String>,
    /// The body, or why it could not be read (said only if the function is called).
    body: std::result::Result<Vec<Stmt>, Fail>,
}

struct Module {
    /// Top-level statements in order (`def`s stand for themselves, by name).
    statements: Vec<TopLevel>,
    functions: BTreeMap<String, Function>,
}

enum TopLevel {
    Stmt(Stmt),
    /// A statement this reader skipped: its line and first word.
    Skipped(usize, String),
}

struct Parser {
    tokens: Vec<(Tok, usize)>,
    at: usize,
    depth: usize,
}

impl Parser {
    fn peek(&self) -> &Tok {
        &self.tokens[self.at.min(self.tokens.len() - 1)].0
    }
    fn line(&self) -> usize {
        self.tokens[self.at.min(self.tokens.len() - 1)].1
    }
    fn next(&mut self) -> Tok {
        let t = self.peek().clone();
        self.at += 1;
        t
    }
    fn is_op(&self, op: &str) -> bool {
        matches!(self.peek(), Tok::Op(o) if *o == op)
    }
    fn is_name(&self, name: &str) -> bool {
        matches!(self.peek(), Tok::Name(n) if n == name)
    }
    fn expect_op(&mut self, op: &str) -> std::result::Result<(), Fail> {
        if self.is_op(op) {
            self.at += 1;
            Ok(())
        } else {
            Err((self.line(), format!("expected `{op}`, found {}", self.shown())))
        }
    }
    fn shown(&self) -> String {
        match self.peek() {
            Tok::Name(n) => format!("`{n}`"),
            Tok::Str { .. } => "a string".into(),
            Tok::Int(i) => format!("`{i}`"),
            Tok::Op(o) => format!("`{o}`"),
            Tok::Newline => "the end of the line".into(),
            Tok::Indent => "an indented block".into(),
            Tok::Dedent => "the end of a block".into(),
            Tok::End => "the end of the file".into(),
        }
    }
    fn name(&mut self) -> std::result::Result<String, Fail> {
        match self.next() {
            Tok::Name(n) => Ok(n),
            _ => {
                self.at -= 1;
                Err((self.line(), format!("expected a name, found {}", self.shown())))
            }
        }
    }

    fn module(mut self) -> std::result::Result<Module, Fail> {
        let mut statements = Vec::new();
        let mut functions = BTreeMap::new();
        while !matches!(self.peek(), Tok::End) {
            let start = self.at;
            let line = self.line();
            self.depth = 0;
            if self.is_name("def") {
                self.at += 1;
                let name = self.name()?;
                let (params, body) = match self.function_rest() {
                    Ok((params, body)) => (params, Ok(body)),
                    Err(e) => {
                        self.at = start;
                        self.skip_statement();
                        (Vec::new(), Err(e))
                    }
                };
                functions.insert(name, Function { params, body });
                continue;
            }
            if self.is_name("import") || self.is_name("from") {
                self.skip_statement();
                continue;
            }
            match self.statement() {
                Ok(s) => statements.push(TopLevel::Stmt(s)),
                Err((_, why)) => {
                    self.at = start;
                    let word = self.shown();
                    self.skip_statement();
                    statements.push(TopLevel::Skipped(line, format!("{word}, {why}")));
                }
            }
        }
        Ok(Module { statements, functions })
    }

    /// Past one statement (a compound one with its block), from where it starts.
    fn skip_statement(&mut self) {
        let mut depth = 0i32;
        loop {
            match self.next() {
                Tok::End => {
                    self.at -= 1;
                    return;
                }
                Tok::Indent => depth += 1,
                Tok::Dedent => {
                    depth -= 1;
                    if depth <= 0 {
                        return;
                    }
                }
                Tok::Newline if depth == 0 && !matches!(self.peek(), Tok::Indent) => return,
                _ => {}
            }
        }
    }

    /// `(params) [-> ann]: block` of a `def`.
    fn function_rest(&mut self) -> std::result::Result<(Vec<String>, Vec<Stmt>), Fail> {
        self.expect_op("(")?;
        let mut params = Vec::new();
        while !self.is_op(")") {
            params.push(self.name()?);
            if self.is_op(":") || self.is_op("=") {
                return Err((self.line(), "a parameter with an annotation or a default".into()));
            }
            if !self.is_op(")") {
                self.expect_op(",")?;
            }
        }
        self.expect_op(")")?;
        if self.is_op("->") {
            self.at += 1;
            self.expr()?;
        }
        self.expect_op(":")?;
        Ok((params, self.block()?))
    }

    fn block(&mut self) -> std::result::Result<Vec<Stmt>, Fail> {
        if !matches!(self.peek(), Tok::Newline) {
            // `if x: return y` on one line.
            return Ok(vec![self.statement()?]);
        }
        self.at += 1;
        if !matches!(self.next(), Tok::Indent) {
            return Err((self.line(), "expected an indented block".into()));
        }
        self.depth += 1;
        if self.depth > 100 {
            return Err((self.line(), "blocks nested more than 100 deep".into()));
        }
        let mut body = Vec::new();
        while !matches!(self.peek(), Tok::Dedent | Tok::End) {
            body.push(self.statement()?);
        }
        self.at += 1;
        self.depth -= 1;
        Ok(body)
    }

    fn end_of_statement(&mut self) -> std::result::Result<(), Fail> {
        match self.peek() {
            Tok::Newline => {
                self.at += 1;
                Ok(())
            }
            Tok::Dedent | Tok::End => Ok(()),
            _ => Err((self.line(), format!("{} is not understood here", self.shown()))),
        }
    }

    fn statement(&mut self) -> std::result::Result<Stmt, Fail> {
        let line = self.line();
        let stmt = match self.peek().clone() {
            Tok::Name(n) if n == "if" => {
                self.at += 1;
                let mut branches = vec![(self.expr()?, {
                    self.expect_op(":")?;
                    self.block()?
                })];
                let mut otherwise = Vec::new();
                loop {
                    if self.is_name("elif") {
                        self.at += 1;
                        let cond = self.expr()?;
                        self.expect_op(":")?;
                        branches.push((cond, self.block()?));
                    } else if self.is_name("else") {
                        self.at += 1;
                        self.expect_op(":")?;
                        otherwise = self.block()?;
                        break;
                    } else {
                        break;
                    }
                }
                return Ok(Stmt::If(branches, otherwise, line));
            }
            Tok::Name(n) if n == "return" => {
                self.at += 1;
                let value = if matches!(self.peek(), Tok::Newline | Tok::Dedent | Tok::End) {
                    None
                } else {
                    Some(self.expr()?)
                };
                Stmt::Return(value, line)
            }
            Tok::Name(n) if n == "pass" => {
                self.at += 1;
                Stmt::Pass
            }
            Tok::Name(n)
                if [
                    "for", "while", "try", "with", "class", "def", "global", "nonlocal", "lambda", "del", "raise",
                    "assert", "yield", "async", "match",
                ]
                .contains(&n.as_str()) =>
            {
                return Err((line, format!("`{n}` is beyond the Python lingualens reads")));
            }
            Tok::Op("@") => return Err((line, "a decorator".into())),
            Tok::Name(n) if matches!(self.tokens.get(self.at + 1), Some((Tok::Op("="), _))) => {
                self.at += 2;
                Stmt::Assign(n, self.expr()?, line)
            }
            Tok::Name(n) if matches!(self.tokens.get(self.at + 1), Some((Tok::Op("+="), _))) => {
                self.at += 2;
                Stmt::AddAssign(n, self.expr()?, line)
            }
            _ => Stmt::Expr(self.expr()?, line),
        };
        self.end_of_statement()?;
        Ok(stmt)
    }

    fn enter(&mut self) -> std::result::Result<(), Fail> {
        self.depth += 1;
        if self.depth > 100 {
            return Err((self.line(), "an expression nested more than 100 deep".into()));
        }
        Ok(())
    }

    fn expr(&mut self) -> std::result::Result<Expr, Fail> {
        self.enter()?;
        let e = self.or();
        self.depth -= 1;
        e
    }

    fn or(&mut self) -> std::result::Result<Expr, Fail> {
        let mut left = self.and()?;
        while self.is_name("or") {
            self.at += 1;
            left = Expr::Binary("or", Box::new(left), Box::new(self.and()?));
        }
        if self.is_name("if") {
            return Err((self.line(), "a conditional expression (`x if c else y`)".into()));
        }
        Ok(left)
    }

    fn and(&mut self) -> std::result::Result<Expr, Fail> {
        let mut left = self.not()?;
        while self.is_name("and") {
            self.at += 1;
            left = Expr::Binary("and", Box::new(left), Box::new(self.not()?));
        }
        Ok(left)
    }

    fn not(&mut self) -> std::result::Result<Expr, Fail> {
        if self.is_name("not") {
            self.at += 1;
            self.enter()?;
            let e = self.not();
            self.depth -= 1;
            return Ok(Expr::Not(Box::new(e?)));
        }
        self.comparison()
    }

    fn comparison(&mut self) -> std::result::Result<Expr, Fail> {
        let left = self.sum()?;
        let op = match self.peek() {
            Tok::Op("==") => "==",
            Tok::Op("!=") => "!=",
            Tok::Name(n) if n == "in" => "in",
            Tok::Name(n) if n == "is" => {
                if matches!(self.tokens.get(self.at + 1), Some((Tok::Name(m), _)) if m == "not") {
                    self.at += 1;
                    "is not"
                } else {
                    "is"
                }
            }
            Tok::Name(n)
                if n == "not" && matches!(self.tokens.get(self.at + 1), Some((Tok::Name(m), _)) if m == "in") =>
            {
                self.at += 1;
                "not in"
            }
            Tok::Op("<" | ">" | "<=" | ">=") => return Err((self.line(), "an ordering comparison".into())),
            _ => return Ok(left),
        };
        self.at += 1;
        let right = self.sum()?;
        Ok(Expr::Binary(op, Box::new(left), Box::new(right)))
    }

    fn sum(&mut self) -> std::result::Result<Expr, Fail> {
        let mut left = self.postfix()?;
        loop {
            if self.is_op("+") {
                self.at += 1;
                left = Expr::Binary("+", Box::new(left), Box::new(self.postfix()?));
            } else if self.is_op("-") || self.is_op("*") || self.is_op("%") || self.is_op("**") {
                return Err((self.line(), format!("the operator {}", self.shown())));
            } else {
                return Ok(left);
            }
        }
    }

    fn postfix(&mut self) -> std::result::Result<Expr, Fail> {
        let mut e = self.atom()?;
        loop {
            if self.is_op("[") {
                self.at += 1;
                let index = self.expr()?;
                if self.is_op(":") {
                    return Err((self.line(), "a slice".into()));
                }
                self.expect_op("]")?;
                e = Expr::Subscript(Box::new(e), Box::new(index));
            } else if self.is_op(".") {
                self.at += 1;
                e = Expr::Attr(Box::new(e), self.name()?);
            } else if self.is_op("(") {
                self.at += 1;
                let (mut args, mut kwargs) = (Vec::new(), Vec::new());
                while !self.is_op(")") {
                    if self.is_op("*") || self.is_op("**") {
                        return Err((self.line(), "a `*`/`**` argument".into()));
                    }
                    if let (Tok::Name(n), Some((Tok::Op("="), _))) = (self.peek().clone(), self.tokens.get(self.at + 1))
                    {
                        self.at += 2;
                        kwargs.push((n, self.expr()?));
                    } else {
                        args.push(self.expr()?);
                    }
                    if !self.is_op(")") {
                        self.expect_op(",")?;
                    }
                }
                self.at += 1;
                e = Expr::Call(Box::new(e), args, kwargs);
            } else {
                return Ok(e);
            }
        }
    }

    fn atom(&mut self) -> std::result::Result<Expr, Fail> {
        let line = self.line();
        match self.next() {
            Tok::Str { value, fstring } => {
                // Adjacent literals are one string.
                let mut parts = vec![(value, fstring)];
                while let Tok::Str { value, fstring } = self.peek().clone() {
                    self.at += 1;
                    parts.push((value, fstring));
                }
                if parts.iter().all(|(_, f)| !f) {
                    return Ok(Expr::Const(Val::Str(parts.into_iter().map(|(v, _)| v).collect())));
                }
                let mut out = Vec::new();
                for (value, fstring) in parts {
                    if fstring {
                        out.extend(fstring_parts(&value).map_err(|why| (line, why))?);
                    } else {
                        out.push(FPart::Lit(value));
                    }
                }
                Ok(Expr::FString(out))
            }
            Tok::Int(i) => Ok(Expr::Const(Val::Int(i))),
            Tok::Op("-") if matches!(self.peek(), Tok::Int(_)) => match self.next() {
                Tok::Int(i) => Ok(Expr::Const(Val::Int(-i))),
                _ => Err((line, "a number".into())),
            },
            Tok::Name(n) => Ok(match n.as_str() {
                "None" => Expr::Const(Val::None),
                "True" => Expr::Const(Val::Bool(true)),
                "False" => Expr::Const(Val::Bool(false)),
                "lambda" | "yield" | "await" => {
                    return Err((line, format!("`{n}` is beyond the Python lingualens reads")))
                }
                _ => Expr::Name(n),
            }),
            Tok::Op("(") => {
                let mut items = Vec::new();
                let mut tuple = false;
                while !self.is_op(")") {
                    items.push(self.expr()?);
                    if self.is_name("for") {
                        return Err((self.line(), "a generator expression".into()));
                    }
                    if !self.is_op(")") {
                        self.expect_op(",")?;
                        tuple = true;
                    }
                }
                self.at += 1;
                if items.len() == 1 && !tuple {
                    Ok(items.pop().unwrap_or(Expr::Const(Val::None)))
                } else {
                    Ok(Expr::List(items))
                }
            }
            Tok::Op("[") => {
                let mut items = Vec::new();
                while !self.is_op("]") {
                    items.push(self.expr()?);
                    if self.is_name("for") {
                        return Err((self.line(), "a list comprehension".into()));
                    }
                    if !self.is_op("]") {
                        self.expect_op(",")?;
                    }
                }
                self.at += 1;
                Ok(Expr::List(items))
            }
            Tok::Op("{") => {
                let mut items = Vec::new();
                while !self.is_op("}") {
                    let k = self.expr()?;
                    if !self.is_op(":") {
                        return Err((self.line(), "a set, or a dict comprehension".into()));
                    }
                    self.at += 1;
                    let v = self.expr()?;
                    if self.is_name("for") {
                        return Err((self.line(), "a dict comprehension".into()));
                    }
                    items.push((k, v));
                    if !self.is_op("}") {
                        self.expect_op(",")?;
                    }
                }
                self.at += 1;
                Ok(Expr::Dict(items))
            }
            _ => {
                self.at -= 1;
                Err((line, format!("{} is not understood here", self.shown())))
            }
        }
    }
}

/// An f-string's text as literal parts and `{expr}` fields (no conversion or format spec).
fn fstring_parts(s: &str) -> std::result::Result<Vec<FPart>, String> {
    let chars: Vec<char> = s.chars().collect();
    let mut parts = Vec::new();
    let mut lit = String::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '{' if chars.get(i + 1) == Some(&'{') => {
                lit.push('{');
                i += 2;
            }
            '}' if chars.get(i + 1) == Some(&'}') => {
                lit.push('}');
                i += 2;
            }
            '}' => return Err("a single `}` in an f-string".into()),
            '{' => {
                let start = i + 1;
                let mut j = start;
                let mut quote: Option<char> = None;
                while j < chars.len() {
                    match (quote, chars[j]) {
                        (None, '\'' | '"') => quote = Some(chars[j]),
                        (Some(q), c) if c == q => quote = None,
                        (None, '}') => break,
                        (None, '{' | '!' | ':' | '=')
                            if !(matches!(chars[j], '=' | '!') && chars.get(j + 1) == Some(&'=')) =>
                        {
                            return Err("an f-string field with a conversion, a format spec or nested braces".into());
                        }
                        _ => {}
                    }
                    j += 1;
                }
                if j >= chars.len() {
                    return Err("an f-string field is not closed".into());
                }
                let inner: String = chars[start..j].iter().collect();
                let tokens = tokenize(inner.trim()).map_err(|(_, why)| why)?;
                let mut p = Parser { tokens, at: 0, depth: 0 };
                let e = p.expr().map_err(|(_, why)| why)?;
                if !matches!(p.peek(), Tok::Newline | Tok::End) {
                    return Err("an f-string field is not one expression".into());
                }
                if !lit.is_empty() {
                    parts.push(FPart::Lit(std::mem::take(&mut lit)));
                }
                parts.push(FPart::Expr(e));
                i = j + 1;
            }
            c => {
                lit.push(c);
                i += 1;
            }
        }
    }
    if !lit.is_empty() {
        parts.push(FPart::Lit(lit));
    }
    Ok(parts)
}

// ---------------------------------------------------------------------------------------------
// Reading (partial evaluation: constants computed, the document kept symbolic)

struct Reader<'m, 'e> {
    module: &'m Module,
    env: &'e dyn Fn(&str) -> Option<String>,
    globals: BTreeMap<String, Val>,
    /// Top-level statements skipped (line, first word), named when a global is missing.
    unread: Vec<(usize, String)>,
    unset_env: Vec<String>,
    calls: usize,
}

enum Flow {
    Next,
    Return(Val),
}

impl Reader<'_, '_> {
    fn run_module(&mut self) -> std::result::Result<(), Fail> {
        for name in self.module.functions.keys() {
            self.globals.insert(name.clone(), Val::Function(name.clone()));
        }
        let mut module_locals = BTreeMap::new();
        for s in &self.module.statements {
            match s {
                TopLevel::Skipped(line, word) => self.unread.push((*line, word.clone())),
                TopLevel::Stmt(stmt) => {
                    // Module level: a statement that cannot be read leaves its name unset, and
                    // says so only if a function reads it.
                    module_locals.clone_from(&self.globals);
                    match self.exec(std::slice::from_ref(stmt), &mut module_locals, 0) {
                        Ok(_) => self.globals.clone_from(&module_locals),
                        Err((line, why)) => self.unread.push((line, why)),
                    }
                }
            }
        }
        Ok(())
    }

    fn call(&mut self, name: &str, args: Vec<Val>, depth: usize) -> std::result::Result<Val, Fail> {
        self.calls += 1;
        if depth > 32 || self.calls > 10_000 {
            return Err((0, format!("{name}: calls nested too deep")));
        }
        let function = self.module.functions.get(name).ok_or((0, format!("no function {name}")))?;
        let body = function.body.as_ref().map_err(|(line, why)| (*line, format!("{name} cannot be read: {why}")))?;
        if function.params.len() != args.len() {
            return Err((0, format!("{name} takes {} arguments, called with {}", function.params.len(), args.len())));
        }
        let mut locals: BTreeMap<String, Val> = function.params.iter().cloned().zip(args).collect();
        match self.exec(body, &mut locals, depth)? {
            Flow::Return(v) => Ok(v),
            Flow::Next => Ok(Val::None),
        }
    }

    fn exec(
        &mut self,
        body: &[Stmt],
        locals: &mut BTreeMap<String, Val>,
        depth: usize,
    ) -> std::result::Result<Flow, Fail> {
        for stmt in body {
            // Expressions carry no line: an error inside one is the statement's.
            let at = match stmt {
                Stmt::Assign(_, _, l)
                | Stmt::AddAssign(_, _, l)
                | Stmt::If(_, _, l)
                | Stmt::Return(_, l)
                | Stmt::Expr(_, l) => *l,
                Stmt::Pass => 0,
            };
            let on_line = |(line, why): Fail| (if line == 0 { at } else { line }, why);
            if let Flow::Return(v) = self.exec_one(stmt, locals, depth).map_err(on_line)? {
                return Ok(Flow::Return(v));
            }
        }
        Ok(Flow::Next)
    }

    fn exec_one(
        &mut self,
        stmt: &Stmt,
        locals: &mut BTreeMap<String, Val>,
        depth: usize,
    ) -> std::result::Result<Flow, Fail> {
        {
            match stmt {
                Stmt::Pass => {}
                Stmt::Assign(name, e, _) => {
                    let v = self.eval(e, locals, depth)?;
                    locals.insert(name.clone(), v);
                }
                Stmt::AddAssign(name, e, line) => {
                    let left = self.lookup(name, locals, *line)?;
                    let right = self.eval(e, locals, depth)?;
                    locals.insert(name.clone(), add(left, right).map_err(|why| (*line, why))?);
                }
                Stmt::If(branches, otherwise, line) => {
                    let mut taken = None;
                    for (cond, block) in branches {
                        if truth(&self.eval(cond, locals, depth)?).map_err(|why| (*line, why))? {
                            taken = Some(block);
                            break;
                        }
                    }
                    if let Flow::Return(v) = self.exec(taken.unwrap_or(otherwise), locals, depth)? {
                        return Ok(Flow::Return(v));
                    }
                }
                Stmt::Return(e, _) => {
                    let v = match e {
                        Some(e) => self.eval(e, locals, depth)?,
                        None => Val::None,
                    };
                    return Ok(Flow::Return(v));
                }
                Stmt::Expr(e, line) => {
                    // A bare call: print(…) is skipped; anything else would be run for its effect.
                    match e {
                        Expr::Call(f, _, _) if matches!(&**f, Expr::Name(n) if n == "print") => {}
                        _ => return Err((*line, "a statement run for its effect".into())),
                    }
                }
            }
        }
        Ok(Flow::Next)
    }

    fn lookup(&self, name: &str, locals: &BTreeMap<String, Val>, line: usize) -> std::result::Result<Val, Fail> {
        if let Some(v) = locals.get(name).or_else(|| self.globals.get(name)) {
            return Ok(v.clone());
        }
        let mut why = format!("`{name}` has no value here");
        if !self.unread.is_empty() {
            let skipped: Vec<String> = self.unread.iter().take(3).map(|(l, w)| format!("line {l}: {w}")).collect();
            why.push_str(&format!(" (statements lingualens could not read, which may set it: {})", skipped.join("; ")));
        }
        Err((line, why))
    }

    fn eval(&mut self, e: &Expr, locals: &BTreeMap<String, Val>, depth: usize) -> std::result::Result<Val, Fail> {
        let line = 0;
        Ok(match e {
            Expr::Const(v) => v.clone(),
            Expr::Name(n) => self.lookup(n, locals, line)?,
            Expr::List(items) => {
                Val::List(items.iter().map(|x| self.eval(x, locals, depth)).collect::<std::result::Result<_, _>>()?)
            }
            Expr::Dict(items) => {
                let mut out = Vec::new();
                for (k, v) in items {
                    out.push((self.eval(k, locals, depth)?, self.eval(v, locals, depth)?));
                }
                Val::Dict(out)
            }
            Expr::FString(parts) => {
                let mut text = Val::Str(String::new());
                for p in parts {
                    let v = match p {
                        FPart::Lit(s) => Val::Str(s.clone()),
                        FPart::Expr(e) => as_text(self.eval(e, locals, depth)?).map_err(|why| (line, why))?,
                    };
                    text = add(text, v).map_err(|why| (line, why))?;
                }
                text
            }
            Expr::Subscript(target, index) if dotted_name(target).as_deref() == Some("os.environ") => {
                let Val::Str(var) = self.eval(index, locals, depth)? else {
                    return Err((line, "os.environ[…] without a variable name".into()));
                };
                match (self.env)(&var) {
                    Some(v) => Val::Str(v),
                    None => {
                        self.unset_env.push(var.clone());
                        return Err((line, format!("os.environ[{var:?}] is not set (KeyError)")));
                    }
                }
            }
            Expr::Subscript(target, index) => {
                let target = self.eval(target, locals, depth)?;
                let index = self.eval(index, locals, depth)?;
                subscript(target, index).map_err(|why| (line, why))?
            }
            Expr::Attr(target, name) => {
                return Err((
                    line,
                    format!("the attribute `.{name}` of {}", self.describe_expr(target, locals, depth)),
                ));
            }
            Expr::Binary(op, a, b) => {
                let a = self.eval(a, locals, depth)?;
                match *op {
                    "and" => {
                        return if truth(&a).map_err(|why| (line, why))? { self.eval(b, locals, depth) } else { Ok(a) };
                    }
                    "or" => {
                        return if truth(&a).map_err(|why| (line, why))? { Ok(a) } else { self.eval(b, locals, depth) };
                    }
                    _ => {}
                }
                let b = self.eval(b, locals, depth)?;
                match *op {
                    "+" => add(a, b).map_err(|why| (line, why))?,
                    "==" | "!=" | "is" | "is not" => {
                        if !is_constant(&a) || !is_constant(&b) {
                            return Err((line, "a condition on the document".into()));
                        }
                        let same = a == b && (!op.starts_with("is") || matches!(a, Val::None | Val::Bool(_)));
                        Val::Bool(same == (*op == "==" || *op == "is"))
                    }
                    "in" | "not in" => {
                        let found = match (&a, &b) {
                            (Val::Str(x), Val::Str(y)) => y.contains(x.as_str()),
                            (x, Val::List(items)) if is_constant(x) => items.contains(x),
                            (x, Val::Dict(items)) if is_constant(x) => items.iter().any(|(k, _)| k == x),
                            _ => return Err((line, "a condition on the document".into())),
                        };
                        Val::Bool(found == (*op == "in"))
                    }
                    other => return Err((line, format!("the operator {other}"))),
                }
            }
            Expr::Not(x) => Val::Bool(!truth(&self.eval(x, locals, depth)?).map_err(|why| (line, why))?),
            Expr::Call(f, args, kwargs) => self.eval_call(f, args, kwargs, locals, depth)?,
        })
    }

    fn describe_expr(&mut self, e: &Expr, locals: &BTreeMap<String, Val>, depth: usize) -> String {
        match e {
            Expr::Name(n) => format!("`{n}`"),
            other => self.eval(other, locals, depth).map(|v| describe(&v)).unwrap_or_else(|_| "a value".into()),
        }
    }

    fn eval_call(
        &mut self,
        f: &Expr,
        args: &[Expr],
        kwargs: &[(String, Expr)],
        locals: &BTreeMap<String, Val>,
        depth: usize,
    ) -> std::result::Result<Val, Fail> {
        let line = 0;
        let mut values = Vec::new();
        for a in args {
            values.push(self.eval(a, locals, depth)?);
        }
        let mut named = Vec::new();
        for (k, a) in kwargs {
            named.push((k.clone(), self.eval(a, locals, depth)?));
        }
        // os.getenv(NAME[, default]), os.environ.get(NAME[, default])
        let dotted = dotted_name(f);
        if matches!(dotted.as_deref(), Some("os.getenv" | "os.environ.get")) {
            let Some(Val::Str(var)) = values.first() else {
                return Err((line, "os.getenv without a variable name".into()));
            };
            return Ok(match (self.env)(var) {
                Some(v) => Val::Str(v),
                None => {
                    self.unset_env.push(var.clone());
                    values.get(1).cloned().unwrap_or(Val::None)
                }
            });
        }
        match f {
            Expr::Name(n) if n == "print" => Ok(Val::None),
            Expr::Name(n) if n == "str" && values.len() == 1 => as_text(values.remove(0)).map_err(|why| (line, why)),
            Expr::Name(n) => match self.lookup(n, locals, line)? {
                Val::Function(name) if named.is_empty() => self.call(&name, values, depth + 1),
                other => Err((line, format!("a call of `{n}` ({})", describe(&other)))),
            },
            Expr::Attr(target, method) => {
                let receiver = self.eval(target, locals, depth)?;
                string_method(receiver, method, values, named).map_err(|why| (line, why))
            }
            _ => Err((line, "a call of something other than a name or a method".into())),
        }
    }
}

/// `os.environ` and `os.environ[…]` are read here too.
fn dotted_name(e: &Expr) -> Option<String> {
    match e {
        Expr::Name(n) => Some(n.clone()),
        Expr::Attr(t, a) => dotted_name(t).map(|t| format!("{t}.{a}")),
        _ => None,
    }
}

fn is_constant(v: &Val) -> bool {
    match v {
        Val::None | Val::Bool(_) | Val::Int(_) | Val::Str(_) => true,
        Val::List(items) => items.iter().all(is_constant),
        Val::Dict(items) => items.iter().all(|(k, v)| is_constant(k) && is_constant(v)),
        _ => false,
    }
}

fn truth(v: &Val) -> std::result::Result<bool, String> {
    Ok(match v {
        Val::None => false,
        Val::Bool(b) => *b,
        Val::Int(i) => *i != 0,
        Val::Str(s) => !s.is_empty(),
        Val::List(l) => !l.is_empty(),
        Val::Dict(d) => !d.is_empty(),
        Val::Function(_) => true,
        _ => return Err("a condition on the document".into()),
    })
}

/// A value as it prints in a string (`str(v)`, or a field).
fn as_text(v: Val) -> std::result::Result<Val, String> {
    Ok(match v {
        Val::Str(_) | Val::Text(_) => v,
        Val::Field(f) => Val::Text(vec![Piece::Field(f)]),
        Val::Int(i) => Val::Str(i.to_string()),
        Val::None => Val::Str("None".into()),
        Val::Bool(b) => Val::Str(if b { "True" } else { "False" }.into()),
        other => return Err(format!("{} put into a string", describe(&other))),
    })
}

fn pieces(v: Val) -> std::result::Result<Vec<Piece>, String> {
    Ok(match v {
        Val::Str(s) => vec![Piece::Lit(s)],
        Val::Text(p) => p,
        Val::Field(f) => vec![Piece::Field(f)],
        other => return Err(format!("{} added to a string", describe(&other))),
    })
}

fn add(a: Val, b: Val) -> std::result::Result<Val, String> {
    Ok(match (a, b) {
        (Val::Int(x), Val::Int(y)) => Val::Int(x.checked_add(y).ok_or("a number too large")?),
        (Val::Str(x), Val::Str(y)) => Val::Str(x + &y),
        (Val::List(mut x), Val::List(y)) => {
            x.extend(y);
            Val::List(x)
        }
        (a @ (Val::Str(_) | Val::Text(_) | Val::Field(_)), b @ (Val::Str(_) | Val::Text(_) | Val::Field(_))) => {
            let mut out: Vec<Piece> = Vec::new();
            for p in pieces(a)?.into_iter().chain(pieces(b)?) {
                match (out.last_mut(), p) {
                    (Some(Piece::Lit(last)), Piece::Lit(s)) => last.push_str(&s),
                    (_, p) => out.push(p),
                }
            }
            Val::Text(out)
        }
        (a, b) => return Err(format!("{} + {}", describe(&a), describe(&b))),
    })
}

fn subscript(target: Val, index: Val) -> std::result::Result<Val, String> {
    match (target, index) {
        (Val::Doc, Val::Str(field)) => Ok(Val::Field(field)),
        (Val::Doc, other) => Err(format!("doc[{}]: a document field is named by a string", describe(&other))),
        (Val::List(items), Val::Int(i)) => {
            let n = items.len() as i64;
            let at = if i < 0 { i + n } else { i };
            usize::try_from(at)
                .ok()
                .and_then(|at| items.get(at).cloned())
                .ok_or(format!("index {i} is out of range (IndexError)"))
        }
        (Val::Str(s), Val::Int(i)) => {
            let chars: Vec<char> = s.chars().collect();
            let at = if i < 0 { i + chars.len() as i64 } else { i };
            usize::try_from(at)
                .ok()
                .and_then(|at| chars.get(at))
                .map(|c| Val::Str(c.to_string()))
                .ok_or(format!("index {i} is out of range (IndexError)"))
        }
        (Val::Dict(items), key) if is_constant(&key) => items
            .into_iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v)
            .ok_or(format!("the key {key:?} is not in the dict (KeyError)")),
        (Val::Field(f), _) => Err(format!("a subscript of the field doc[{f:?}]")),
        (t, i) => Err(format!("{}[{}]", describe(&t), describe(&i))),
    }
}

/// A string method on a constant string (`.format` also fills document fields in).
fn string_method(
    receiver: Val,
    method: &str,
    args: Vec<Val>,
    kwargs: Vec<(String, Val)>,
) -> std::result::Result<Val, String> {
    let Val::Str(s) = receiver else {
        return Err(format!("the method `.{method}` of {}", describe(&receiver)));
    };
    let no_args =
        |v: Val| if args.is_empty() && kwargs.is_empty() { Ok(v) } else { Err(format!("`.{method}` with arguments")) };
    match method {
        "format" => format(&s, args, kwargs),
        "strip" => no_args(Val::Str(s.trim_matches(py_space).to_string())),
        "lstrip" => no_args(Val::Str(s.trim_start_matches(py_space).to_string())),
        "rstrip" => no_args(Val::Str(s.trim_end_matches(py_space).to_string())),
        "lower" => no_args(Val::Str(s.to_lowercase())),
        "upper" => no_args(Val::Str(s.to_uppercase())),
        other => Err(format!("the string method `.{other}`")),
    }
}

fn py_space(c: char) -> bool {
    c.is_whitespace() || ('\x1c'..='\x1f').contains(&c)
}

/// Python's `str.format`: `{name}`, `{0}`, `{}`, `{{`/`}}`; a field with a conversion or a
/// format spec is refused.
fn format(template: &str, args: Vec<Val>, kwargs: Vec<(String, Val)>) -> std::result::Result<Val, String> {
    let chars: Vec<char> = template.chars().collect();
    let mut out = Val::Str(String::new());
    let mut lit = String::new();
    let mut auto = 0usize;
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '{' if chars.get(i + 1) == Some(&'{') => {
                lit.push('{');
                i += 2;
            }
            '}' if chars.get(i + 1) == Some(&'}') => {
                lit.push('}');
                i += 2;
            }
            '}' => return Err("str.format: a single `}` in the template (ValueError)".into()),
            '{' => {
                let end = chars[i..]
                    .iter()
                    .position(|c| *c == '}')
                    .map(|p| i + p)
                    .ok_or("str.format: a `{` is not closed (ValueError)")?;
                let key: String = chars[i + 1..end].iter().collect();
                if key.contains(['!', ':', '[', '.', '{']) {
                    return Err(format!("str.format: the field {{{key}}} has a conversion, a format spec or an index"));
                }
                let value = if key.is_empty() {
                    auto += 1;
                    args.get(auto - 1).cloned().ok_or(format!("str.format: no argument {} (IndexError)", auto - 1))?
                } else if let Ok(n) = key.parse::<usize>() {
                    args.get(n).cloned().ok_or(format!("str.format: no argument {n} (IndexError)"))?
                } else {
                    kwargs
                        .iter()
                        .find(|(k, _)| *k == key)
                        .map(|(_, v)| v.clone())
                        .ok_or(format!("str.format: no value for {{{key}}} (KeyError)"))?
                };
                let text = as_text(value)?;
                out = add(add(out, Val::Str(std::mem::take(&mut lit)))?, text)?;
                i = end + 1;
            }
            c => {
                lit.push(c);
                i += 1;
            }
        }
    }
    add(out, Val::Str(lit))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(src: &str, f: &str) -> Result<Prompt> {
        read_function("utils.py", src, f, &|_| None)
    }
    fn template(src: &str, f: &str) -> String {
        match read(src, f).unwrap() {
            Prompt::Template(t) => t,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_format_over_a_module_prompt_becomes_a_template() {
        let src = "from lm_eval.utils import weighted_f1_score\nimport os\n\nprompt = \"\"\"\n    Say {lang}:\n    {Description}\n    {{literal}}\"\"\"\n\ndef doc_to_text_amh(doc):\n    output = prompt\n    return output.format(lang='Amharic', Description=doc[\"Description\"])\n";
        assert_eq!(
            template(src, "doc_to_text_amh"),
            "\n    Say Amharic:\n    {{ Description }}{% raw %}\n    {literal}{% endraw %}"
        );
    }

    #[test]
    fn a_list_of_fields_becomes_a_list_template_and_a_field_its_name() {
        let src = "def doc_to_choice(doc):\n    choices = [doc['A'],doc['B'], 'none of them']\n    return choices\n\ndef target(doc):\n    return doc['label']\n";
        assert_eq!(template(src, "doc_to_choice"), "{{ [A, B, \"none of them\"] }}");
        assert_eq!(template(src, "target"), "label");
    }

    #[test]
    fn the_environment_picks_a_branch_and_an_unset_variable_is_named() {
        let src = "import os\nT=os.getenv('T_PROMPT')\nprint(T)\noutput = [\"\"\"one {Proverb}\"\"\", '''two {Proverb}''']\n\ndef f(doc):\n    if T == '1':\n        result = output[0].format(Proverb=doc[\"Proverb\"])\n    if T == '2':\n        result = output[1].format(Proverb=doc[\"Proverb\"])\n    return result\n";
        let with =
            |v: &'static str| read_function("u.py", src, "f", &move |k| (k == "T_PROMPT").then(|| v.to_string()));
        assert_eq!(with("2").unwrap(), Prompt::Template("two {{ Proverb }}".into()));
        let e = read(src, "f").unwrap_err().to_string();
        assert!(
            e.contains("utils.py: f:") && e.contains("`result` has no value") && e.contains("T_PROMPT is not set"),
            "{e}"
        );
    }

    #[test]
    fn dicts_fstrings_escapes_and_helpers_are_read() {
        let src = "P = {'amh': ['a\\tb {x}\\n', 'c'], 'eng': 'e'}\ndef helper(d, lang):\n    return f\"[{lang}] {d['q']} \" + P[lang][0].format(x=d[\"x\"])\ndef f(doc):\n    return helper(doc, 'amh')\n";
        assert_eq!(template(src, "f"), "[amh] {{ q }} a\tb {{ x }}\n");
    }

    #[test]
    fn what_cannot_be_read_is_refused_by_line_and_name() {
        let cases = [
            (
                "def f(doc):\n    if doc['x'] == 'y':\n        return 'a'\n    return 'b'\n",
                "a condition on the document",
            ),
            ("def f(doc):\n    return doc['x'].strip()\n", "the method `.strip` of doc[\"x\"]"),
            ("def f(doc):\n    for x in doc:\n        pass\n    return 'a'\n", "`for` is beyond"),
            ("def f(doc):\n    return '{a:>3}'.format(a=doc['a'])\n", "format spec"),
            ("def f(doc):\n    return doc['my field']\n", "whose name a Jinja template cannot use"),
            ("def g(doc):\n    return 'x'\n", "no function of that name"),
            ("import numpy as np\nX = np.zeros(3)\ndef f(doc):\n    return X\n", "`X` has no value here"),
        ];
        for (src, want) in cases {
            let e = read(src, "f").unwrap_err().to_string();
            assert!(e.contains(want), "{src}: {e}");
        }
    }

    #[test]
    fn hostile_input_is_refused_quickly() {
        let deep = format!("def f(doc):\n    return {}1{}\n", "(".repeat(100_000), ")".repeat(100_000));
        let e = read(&deep, "f").unwrap_err().to_string();
        assert!(e.contains("deep"), "{e}");
        let loops = "def f(doc):\n    return f(doc)\n";
        assert!(read(loops, "f").unwrap_err().to_string().contains("too deep"));
        assert!(read("x = '''never closed\n", "f").unwrap_err().to_string().contains("not closed"));
    }
}
