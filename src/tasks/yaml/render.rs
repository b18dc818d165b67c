//! Documents → requests, as lm-evaluation-harness 0.4.13 builds them
//! (`ConfigurableTask.doc_to_text/doc_to_choice/doc_to_target`, `fewshot_context`,
//! `build_qa_turn`, `construct_requests` in `lm_eval/api/task.py`; samplers in
//! `lm_eval/api/samplers.py`).
//!
//! Plain-text context (no chat template, no system instruction):
//! `description`, then `text + target_delimiter + answer + fewshot_delimiter` for each few-shot
//! doc (`gen_prefix` before the answer), then the doc's `text` (and `gen_prefix`). The description
//! is prepended as is (lm-eval adds no delimiter).
//!
//! Multiple choice scores `context` against `target_delimiter + choice` for every choice (a
//! multiple-input task, whose `doc_to_text` is an index: each choice's context against
//! `target_delimiter + doc_to_target`); `loglikelihood` scores `context` against the target as is;
//! `generate_until` generates from `context` until one of `until`.

use minijinja::value::{Value, ValueKind};
use minijinja::Environment;
use serde_json::{Map, Value as Json};

use super::{FewshotPool, Field, FilterPipeline, FilterStep, OutputType, SamplerKind, TaskSpec};
use crate::error::{Error, Result};
use crate::pyrandom::PyRandom;
use crate::scoring::is_py_space;
use crate::tasks::pylit;

/// What `doc_to_target` gave.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    Index(usize),
    Indices(Vec<usize>),
    Text(String),
    Texts(Vec<String>),
}

/// The request for one document.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// One log-likelihood per continuation (`target_delimiter + choice`). A multiple-input task
    /// (Winogrande: `doc_to_text` gives the gold index) has one context per choice instead and
    /// the same continuation after each.
    MultipleChoice {
        continuations: Vec<String>,
        multiple_input: Option<MultipleInput>,
    },
    Loglikelihood {
        continuation: String,
    },
    GenerateUntil {
        until: Vec<String>,
        max_gen_toks: usize,
    },
}

/// What a multiple-input document scores: a context per choice (the prompt ending in that
/// choice), and `doc_to_target`'s text, which each continuation is (after the target delimiter).
#[derive(Debug, Clone, PartialEq)]
pub struct MultipleInput {
    pub contexts: Vec<String>,
    pub target: String,
}

/// One rendered document.
#[derive(Debug, Clone, PartialEq)]
pub struct Rendered {
    /// The prompt; for a multiple-input task, the part its contexts share (what a reader sees
    /// before the choices).
    pub context: String,
    /// `doc_to_choice`, when the task has one.
    pub choices: Option<Vec<String>>,
    pub target: Target,
    pub request: Request,
}

impl Rendered {
    /// The gold choice index for multiple choice: the target index, or the position of a text
    /// target among the choices (lm-eval's `choices.index(gold)`).
    pub fn gold(&self) -> Option<usize> {
        match (&self.target, &self.choices) {
            (Target::Index(i), _) => Some(*i),
            (Target::Indices(v), _) => v.first().copied(),
            (Target::Text(t), Some(c)) => c.iter().position(|x| x == t),
            _ => None,
        }
    }

    /// [`Self::gold`], or why the target names no choice.
    pub fn gold_index(&self) -> Result<usize> {
        if let Some(g) = self.gold() {
            return Ok(g);
        }
        let choices = self.choices.as_deref().unwrap_or_default();
        Err(Error::new(match &self.target {
            Target::Text(t) if t.trim().parse::<i64>().is_ok() => format!(
                "the target {t:?} is text, not an index, and no choice is that text (choices {choices:?}); a field an override adds is text unless its template is one expression, such as `{{{{ label | int }}}}`"
            ),
            Target::Text(t) => format!("the target {t:?} is not one of the choices {choices:?}"),
            Target::Index(i) => format!("the target index {i} is past the {} choices", choices.len()),
            other => format!("the target {other:?} does not name one of the choices {choices:?}"),
        }))
    }
}

/// What `doc_to_text` gave: the question, or (a multiple-input task) the index of the choice
/// that is the gold context.
#[derive(Debug, Clone, PartialEq)]
enum Question {
    Text(String),
    Choice(usize),
}

/// lm-eval's `requires_delimiter`: neither side has whitespace where they join.
fn requires_delimiter(prefix: &str, suffix: &str) -> bool {
    match (prefix.chars().last(), suffix.chars().next()) {
        (None, _) => false,
        (Some(p), Some(s)) => !(is_py_space(p) || is_py_space(s)),
        (Some(p), None) => !is_py_space(p),
    }
}

/// lm-eval's `maybe_delimit(prefix, suffix, " ")`.
fn maybe_delimit(prefix: Option<&str>, suffix: &str) -> String {
    match prefix {
        None | Some("") => suffix.to_string(),
        Some(p) if suffix.is_empty() => p.to_string(),
        Some(p) if requires_delimiter(p, suffix) => format!("{p} {suffix}"),
        Some(p) => format!("{p}{suffix}"),
    }
}

/// lm-eval's `build_qa_turn` as plain text: the question; then, after the target delimiter, the
/// answer (`gen_prefix` before it) and the few-shot delimiter, or `gen_prefix` alone (the prompt's
/// own turn). The delimiter goes after the question when there is an answer and no `gen_prefix`,
/// or when `gen_prefix` needs one (neither side has whitespace where they join).
fn qa_turn(
    q: &str,
    answer: Option<&str>,
    gen_prefix: Option<&str>,
    target_delimiter: &str,
    fewshot_delimiter: &str,
) -> String {
    let gen_prefix = gen_prefix.filter(|g| !g.is_empty());
    let mut s = q.to_string();
    let delimited = match gen_prefix {
        None => answer.is_some(),
        Some(g) => requires_delimiter(q, g),
    };
    if delimited {
        s.push_str(target_delimiter);
    }
    match (answer, gen_prefix) {
        (Some(a), g) => {
            s.push_str(&maybe_delimit(g, a));
            s.push_str(fewshot_delimiter);
        }
        (None, Some(g)) => s.push_str(g),
        (None, None) => {}
    }
    s
}

/// The longest common prefix of `texts`, cut at a character boundary.
fn common_prefix(texts: &[String]) -> String {
    let Some(first) = texts.first() else { return String::new() };
    let mut end = first.len();
    for t in &texts[1..] {
        end = first.bytes().zip(t.bytes()).take(end).take_while(|(a, b)| a == b).count();
    }
    while !first.is_char_boundary(end) {
        end -= 1;
    }
    first[..end].to_string()
}

/// What a `doc_to_*` field evaluated to.
#[derive(Debug, Clone, PartialEq)]
enum Out {
    Text(String),
    Int(i64),
    List(Vec<Json>),
}

/// lm-eval's few-shot samplers. `Random` is `random.Random(seed).sample`, reproduced bit for bit
/// ([`PyRandom`]); like lm-eval, one sampler serves a whole run, so exemplars depend on the
/// order documents are rendered in.
pub struct FewshotSampler {
    kind: SamplerKind,
    rng: PyRandom,
}

impl FewshotSampler {
    /// lm-eval seeds with `fewshot_random_seed`, 1234 unless the run says otherwise.
    pub fn new(kind: SamplerKind, seed: u64) -> Self {
        FewshotSampler { kind, rng: PyRandom::new(seed) }
    }

    /// Indices into `pool` of `n` exemplars; `eval_doc` (when the few-shot split is the evaluated
    /// split) is never among them.
    pub fn sample(&mut self, pool: &[Json], n: usize, eval_doc: Option<&Json>) -> Result<Vec<usize>> {
        if n == 0 {
            return Ok(vec![]);
        }
        match self.kind {
            SamplerKind::FirstN => {
                let idx: Vec<usize> = (0..pool.len()).filter(|&i| eval_doc != Some(&pool[i])).collect();
                if n > idx.len() {
                    return Err(Error::new(format!("{n} few-shot examples requested, {} available", idx.len())));
                }
                Ok(idx[..n].to_vec())
            }
            SamplerKind::Random => {
                let Some(doc) = eval_doc else {
                    if n > pool.len() {
                        return Err(Error::new(format!("{n} few-shot examples requested, {} available", pool.len())));
                    }
                    return Ok(self.rng.sample(pool.len(), n));
                };
                if n + 1 > pool.len() {
                    return Err(Error::new(format!(
                        "{n} few-shot examples requested from the evaluated split, which has {}",
                        pool.len()
                    )));
                }
                let mut res: Vec<usize> =
                    self.rng.sample(pool.len(), n + 1).into_iter().filter(|&i| &pool[i] != doc).collect();
                res.truncate(n);
                if res.len() < n {
                    let rest: Vec<usize> = (0..pool.len()).filter(|&i| &pool[i] != doc).collect();
                    if n > rest.len() {
                        return Err(Error::new(format!("{n} few-shot examples requested, {} available", rest.len())));
                    }
                    res = self.rng.sample(rest.len(), n).into_iter().map(|i| rest[i]).collect();
                }
                Ok(res)
            }
        }
    }
}

/// JSON → minijinja value (objects keep serde_json's key order).
pub fn to_value(v: &Json) -> Value {
    match v {
        Json::Null => Value::from(()),
        Json::Bool(b) => Value::from(*b),
        Json::Number(n) => {
            if let Some(i) = n.as_i64() {
                Value::from(i)
            } else if let Some(u) = n.as_u64() {
                Value::from(u)
            } else {
                Value::from(n.as_f64().unwrap_or(f64::NAN))
            }
        }
        Json::String(s) => Value::from(s.as_str()),
        Json::Array(a) => Value::from(a.iter().map(to_value).collect::<Vec<_>>()),
        Json::Object(o) => Value::from(
            o.iter().map(|(k, v)| (k.clone(), to_value(v))).collect::<std::collections::BTreeMap<String, Value>>(),
        ),
    }
}

/// What a template sees: the document's fields as variables, and (unless the document has a field
/// of that name) the whole document as `doc`, so a column whose name is not an identifier can be
/// read as `{{ doc['Question text'] }}`.
fn context_value(doc: &Json) -> Value {
    match doc {
        Json::Object(o) if !o.contains_key("doc") => {
            let mut fields: std::collections::BTreeMap<String, Value> =
                o.iter().map(|(k, v)| (k.clone(), to_value(v))).collect();
            let whole = Value::from(fields.clone());
            fields.insert("doc".into(), whole);
            Value::from(fields)
        }
        other => to_value(other),
    }
}

/// minijinja value → JSON (`None` for what a document cannot hold: a function, a float that is
/// not finite, a map key that is not text).
fn from_value(v: &Value) -> Option<Json> {
    Some(match v.kind() {
        ValueKind::Undefined | ValueKind::None => Json::Null,
        ValueKind::Bool => Json::Bool(v.is_true()),
        ValueKind::Number => match i64::try_from(v.clone()) {
            Ok(i) => Json::from(i),
            Err(_) => Json::Number(serde_json::Number::from_f64(f64::try_from(v.clone()).ok()?)?),
        },
        ValueKind::String => Json::String(v.as_str()?.to_string()),
        ValueKind::Seq | ValueKind::Iterable => {
            Json::Array(v.try_iter().ok()?.map(|x| from_value(&x)).collect::<Option<_>>()?)
        }
        ValueKind::Map => {
            let mut m = Map::new();
            for k in v.try_iter().ok()? {
                let value = v.get_item(&k).ok()?;
                m.insert(k.as_str()?.to_string(), from_value(&value)?);
            }
            Json::Object(m)
        }
        _ => return None,
    })
}

/// The expression of a template that is one `{{ … }}` and nothing else (not even whitespace,
/// which would be part of the text it renders).
fn single_expression(template: &str) -> Option<&str> {
    let inner = template.strip_prefix("{{")?.strip_suffix("}}")?;
    let inner = inner.strip_prefix('-').unwrap_or(inner);
    let inner = inner.strip_suffix('-').unwrap_or(inner);
    (!inner.contains("{{") && !inner.contains("}}") && !inner.contains("{%") && !inner.contains("{#")).then_some(inner)
}

/// Python's `str()` of a JSON value (a choice or answer that is not a string).
fn py_str(v: &Json) -> String {
    let mut s = String::new();
    super::jinja::python_str(&to_value(v), &mut s);
    s
}

/// A task's templates, compiled once.
pub struct Renderer<'t> {
    spec: &'t TaskSpec,
    env: Environment<'t>,
}

impl TaskSpec {
    /// Compiles the task's templates; a syntax error names the field.
    pub fn renderer(&self) -> Result<Renderer<'_>> {
        let mut env = super::jinja::environment();
        let mut add = |name: String, src: &str| -> Result<()> {
            env.add_template_owned(name.clone(), src.to_string())
                .map_err(|e| Error::new(format!("{}: {name}: bad Jinja template: {e}", self.file)))
        };
        for (name, f) in [
            ("doc_to_text", &self.doc_to_text),
            ("doc_to_choice", &self.doc_to_choice),
            ("doc_to_target", &self.doc_to_target),
            ("fewshot_config.doc_to_text", &self.fewshot.doc_to_text),
            ("fewshot_config.doc_to_choice", &self.fewshot.doc_to_choice),
            ("fewshot_config.doc_to_target", &self.fewshot.doc_to_target),
        ] {
            match f {
                Some(Field::Template(s)) => add(name.to_string(), s)?,
                Some(Field::Function(func)) => {
                    return Err(Error::new(format!(
                        "{}: {name} is !function {func} (Python), which lingualens cannot run",
                        self.file
                    )))
                }
                _ => {}
            }
        }
        if let Some(d) = &self.description {
            add("description".into(), d)?;
        }
        if let Some(g) = &self.gen_prefix {
            add("gen_prefix".into(), g)?;
        }
        if let Some(g) = &self.fewshot.gen_prefix {
            add("fewshot_config.gen_prefix".into(), g)?;
        }
        for (k, src) in self.process_docs.iter().flatten() {
            add(format!("process_docs.{k}"), src)?;
        }
        Ok(Renderer { spec: self, env })
    }
}

impl<'t> Renderer<'t> {
    pub fn spec(&self) -> &TaskSpec {
        self.spec
    }

    fn render_template(&self, name: &str, doc: &Json) -> Result<String> {
        let t = self.env.get_template(name).map_err(|e| Error::new(e.to_string()))?;
        t.render(context_value(doc)).map_err(|e| {
            let mut msg = format!("{}: {name}: {e}", self.spec.file);
            if e.kind() == minijinja::ErrorKind::UndefinedError {
                if let Json::Object(m) = doc {
                    let keys: Vec<&str> = m.keys().map(|k| k.as_str()).collect();
                    msg.push_str(&format!(" (the document's fields: {})", keys.join(", ")));
                }
            }
            Error::new(msg)
        })
    }

    /// `gen_prefix` (or the few-shot one) for a document: a field's value where it names one,
    /// else the template rendered (lm-eval's `doc_to_prefix`/`resolve_field`).
    fn gen_prefix(&self, doc: &Json, fewshot: bool) -> Result<Option<String>> {
        let (name, field) = if fewshot {
            ("fewshot_config.gen_prefix", &self.spec.fewshot.gen_prefix)
        } else {
            ("gen_prefix", &self.spec.gen_prefix)
        };
        let Some(field) = field else { return Ok(None) };
        if let Some(v) = doc.get(field.as_str()) {
            return Ok(Some(v.as_str().map(String::from).unwrap_or_else(|| py_str(v))));
        }
        self.render_template(name, doc).map(Some)
    }

    /// [`Self::prepare_docs`] on a pool of split documents (`fewshot_config.samples` are used as
    /// written, as lm-eval uses them).
    pub fn prepare_pool(&self, pool: FewshotPool) -> Result<FewshotPool> {
        Ok(match pool {
            FewshotPool::Split(docs) => FewshotPool::Split(self.prepare_docs(docs)?),
            other => other,
        })
    }

    /// Applies the `process_docs` replacement (if any) to each document. A field whose template is
    /// one expression (`{{ label | int }}`, `{{ [A, B] }}`, `{{ answer }}`) keeps the value's type,
    /// as a Python `process_docs` returning it would; any other template gives text (a list's
    /// text, `[…]`, is read back as the list).
    pub fn prepare_docs(&self, docs: Vec<Json>) -> Result<Vec<Json>> {
        let Some(map) = &self.spec.process_docs else {
            return Ok(docs);
        };
        let expressions: Vec<(&String, Option<minijinja::Expression<'_, '_>>)> = map
            .iter()
            .map(|(k, src)| {
                let e = match single_expression(src) {
                    Some(e) => Some(self.env.compile_expression(e).map_err(|e| {
                        Error::new(format!("{}: process_docs.{k}: bad Jinja expression: {e}", self.spec.file))
                    })?),
                    None => None,
                };
                Ok((k, e))
            })
            .collect::<Result<_>>()?;
        docs.into_iter()
            .map(|doc| {
                let mut out: Map<String, Json> = doc.as_object().cloned().unwrap_or_default();
                for (k, expression) in &expressions {
                    let v = match expression {
                        Some(e) => {
                            let value = e
                                .eval(context_value(&doc))
                                .map_err(|e| Error::new(format!("{}: process_docs.{k}: {e}", self.spec.file)))?;
                            from_value(&value).ok_or_else(|| {
                                Error::new(format!(
                                    "{}: process_docs.{k}: {value} cannot be a document field",
                                    self.spec.file
                                ))
                            })?
                        }
                        None => {
                            let s = self.render_template(&format!("process_docs.{k}"), &doc)?;
                            if s.starts_with('[') && s.ends_with(']') {
                                pylit::parse(&s).unwrap_or(Json::String(s))
                            } else {
                                Json::String(s)
                            }
                        }
                    };
                    out.insert((*k).clone(), v);
                }
                Ok(Json::Object(out))
            })
            .collect()
    }

    /// One `doc_to_*` field: a column name, a constant, or a template (lm-eval's rules).
    fn eval(&self, name: &str, field: &Field, doc: &Json, has_choices: bool) -> Result<Out> {
        match field {
            Field::Int(i) => Ok(Out::Int(*i)),
            Field::List(l) => Ok(Out::List(l.clone())),
            Field::Function(f) => Err(Error::new(format!("{}: {name} is !function {f} (Python)", self.spec.file))),
            Field::Template(s) => {
                if let Some(v) = doc.get(s.as_str()) {
                    return Ok(match v {
                        Json::Array(a) => Out::List(a.clone()),
                        Json::Number(n) if n.as_i64().is_some() => Out::Int(n.as_i64().unwrap_or_default()),
                        Json::String(s) => Out::Text(s.clone()),
                        other => Out::Text(py_str(other)),
                    });
                }
                let text = self.render_template(name, doc)?;
                let is_choice = name.ends_with("doc_to_choice");
                if is_choice {
                    return match pylit::parse(&text) {
                        Ok(Json::Array(a)) => Ok(Out::List(a)),
                        _ => Err(Error::new(format!("{}: {name} must give a list, gave {text:?}", self.spec.file))),
                    };
                }
                if has_choices && !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
                    return Ok(Out::Int(text.parse().map_err(|_| Error::new(format!("{name}: {text} is too large")))?));
                }
                if name.ends_with("doc_to_target") && text.len() >= 2 && text.starts_with('[') && text.ends_with(']') {
                    if let Ok(Json::Array(a)) = pylit::parse(&text) {
                        return Ok(Out::List(a));
                    }
                }
                Ok(Out::Text(text))
            }
        }
    }

    fn choices(&self, name: &str, field: &Field, doc: &Json) -> Result<Vec<String>> {
        match self.eval(name, field, doc, true)? {
            Out::List(l) => Ok(l.iter().map(|v| v.as_str().map(String::from).unwrap_or_else(|| py_str(v))).collect()),
            other => Err(Error::new(format!("{}: {name} must give a list, gave {other:?}", self.spec.file))),
        }
    }

    /// `(text, choices, target)` for a document, with the task's or the few-shot fields.
    fn qa(&self, doc: &Json, fewshot: bool) -> Result<(Question, Option<Vec<String>>, Target)> {
        let (p, text_f, choice_f, target_f) = if fewshot {
            let f = &self.spec.fewshot;
            ("fewshot_config.", &f.doc_to_text, &f.doc_to_choice, &f.doc_to_target)
        } else {
            ("", &self.spec.doc_to_text, &self.spec.doc_to_choice, &self.spec.doc_to_target)
        };
        // lm-eval's isdigit rule looks at the task's doc_to_choice, not the few-shot one.
        let has_choices = self.spec.doc_to_choice.is_some();
        let text = match text_f {
            Some(f) => match self.eval(&format!("{p}doc_to_text"), f, doc, has_choices)? {
                Out::Text(t) => Question::Text(t),
                Out::Int(i) => Question::Choice(usize::try_from(i).map_err(|_| {
                    Error::new(format!("{}: {p}doc_to_text gave the choice index {i}", self.spec.file))
                })?),
                Out::List(l) => return Err(Error::new(format!("{}: doc_to_text gave a list {l:?}", self.spec.file))),
            },
            None => Question::Text(String::new()),
        };
        let choices = match choice_f {
            Some(f) => Some(self.choices(&format!("{p}doc_to_choice"), f, doc)?),
            None => None,
        };
        let target = match target_f {
            None => Target::Text(String::new()),
            Some(f) => match self.eval(&format!("{p}doc_to_target"), f, doc, has_choices)? {
                Out::Text(t) => Target::Text(t),
                Out::Int(i) => Target::Index(
                    usize::try_from(i)
                        .map_err(|_| Error::new(format!("{}: doc_to_target gave {i}", self.spec.file)))?,
                ),
                Out::List(l) => {
                    if l.iter().all(|v| v.as_u64().is_some()) {
                        Target::Indices(l.iter().filter_map(|v| v.as_u64().map(|u| u as usize)).collect())
                    } else {
                        Target::Texts(
                            l.iter().map(|v| v.as_str().map(String::from).unwrap_or_else(|| py_str(v))).collect(),
                        )
                    }
                }
            },
        };
        Ok((text, choices, target))
    }

    /// The answer text a few-shot example shows (`build_qa_turn`): `c[a]` for an index, the first
    /// of a list, or the text. `None` when there is no answer (`a` empty).
    fn answer_text(&self, choices: &Option<Vec<String>>, target: &Target) -> Result<Option<String>> {
        Ok(match target {
            Target::Text(t) if t.is_empty() => None,
            Target::Text(t) => Some(t.clone()),
            Target::Texts(v) => v.first().cloned(),
            Target::Index(i) => match choices {
                Some(c) => Some(c.get(*i).cloned().ok_or_else(|| {
                    Error::new(format!(
                        "{}: few-shot target {i} is out of range of {} choices",
                        self.spec.file,
                        c.len()
                    ))
                })?),
                None => {
                    return Err(Error::new(format!(
                        "{}: few-shot answer is an index ({i}) but there is no doc_to_choice",
                        self.spec.file
                    )))
                }
            },
            Target::Indices(_) => {
                return Err(Error::new(format!(
                    "{}: a few-shot answer that is a list of indices is not a string",
                    self.spec.file
                )))
            }
        })
    }

    /// Renders `doc` with the given few-shot documents (already sampled).
    pub fn render(&self, doc: &Json, shots: &[&Json]) -> Result<Rendered> {
        let spec = self.spec;
        let mut context = match &spec.description {
            Some(d) => match doc.get(d.as_str()) {
                Some(v) => v.as_str().map(String::from).unwrap_or_else(|| py_str(v)),
                None => self.render_template("description", doc)?,
            },
            None => String::new(),
        };
        for shot in shots {
            let (q, c, a) = self.qa(shot, true)?;
            // A multiple-input example shows the context of its gold choice, then its target.
            let (q, c) = match q {
                Question::Text(q) => (q, c),
                Question::Choice(i) => match c.as_ref().and_then(|c| c.get(i)) {
                    Some(q) => (q.clone(), None),
                    None => {
                        return Err(Error::new(format!(
                            "{}: few-shot doc_to_text gave the choice index {i}, which is not one of the example's {} choices",
                            spec.file,
                            c.map_or(0, |c| c.len())
                        )))
                    }
                },
            };
            let answer = self.answer_text(&c, &a)?;
            let gen_prefix = self.gen_prefix(shot, true)?;
            context.push_str(&qa_turn(
                &q,
                answer.as_deref(),
                gen_prefix.as_deref(),
                &spec.fewshot.target_delimiter,
                &spec.fewshot.fewshot_delimiter,
            ));
        }
        let (q, choices, target) = self.qa(doc, false)?;
        let gen_prefix = self.gen_prefix(doc, false)?;
        let q = match q {
            Question::Text(q) => q,
            Question::Choice(gold) => return self.render_multiple_input(context, gold, choices, target, gen_prefix),
        };
        context.push_str(&qa_turn(&q, None, gen_prefix.as_deref(), &spec.target_delimiter, ""));
        let request = match spec.output_type {
            OutputType::MultipleChoice => {
                let c = choices.as_ref().ok_or_else(|| {
                    Error::new(format!(
                        "{}: multiple_choice needs doc_to_choice",
                        spec.file
                    ))
                })?;
                Request::MultipleChoice {
                    continuations: c
                        .iter()
                        .map(|x| format!("{}{x}", spec.target_delimiter))
                        .collect(),
                    multiple_input: None,
                }
            }
            OutputType::Loglikelihood => match &target {
                Target::Text(t) => Request::Loglikelihood {
                    continuation: t.clone(),
                },
                Target::Index(i) => match &choices {
                    Some(c) if *i < c.len() => Request::Loglikelihood {
                        continuation: c[*i].clone(),
                    },
                    _ => {
                        return Err(Error::new(format!(
                            "{}: loglikelihood target must be text",
                            spec.file
                        )))
                    }
                },
                _ => {
                    return Err(Error::new(format!(
                        "{}: loglikelihood target must be text",
                        spec.file
                    )))
                }
            },
            OutputType::GenerateUntil => match &spec.generation {
                Some(g) if g.sampling() => {
                    return Err(Error::new(format!(
                        "{}: generation_kwargs has do_sample: true, and lingualens decodes greedily only (--gen_kwargs do_sample=false runs it greedily)",
                        spec.file
                    )))
                }
                Some(g) => Request::GenerateUntil {
                    until: g.until().map_err(|e| e.context(&spec.file))?,
                    max_gen_toks: g.max_gen_toks().map_err(|e| e.context(&spec.file))?,
                },
                None => Request::GenerateUntil {
                    until: vec![spec.fewshot_delimiter.clone()],
                    max_gen_toks: super::DEFAULT_MAX_GEN_TOKS,
                },
            },
        };
        if let (OutputType::MultipleChoice, Target::Index(i), Some(c)) = (spec.output_type, &target, &choices) {
            if *i >= c.len() {
                return Err(Error::new(format!(
                    "{}: doc_to_target gave {i}, but there are {} choices",
                    spec.file,
                    c.len()
                )));
            }
        }
        Ok(Rendered { context, choices, target, request })
    }

    /// A multiple-input document (lm-eval's `multiple_input_context`): one context per choice, the
    /// few-shot prompt followed by the choice (and `gen_prefix`, undelimited), all scored against
    /// `target_delimiter + doc_to_target`; the gold is the index `doc_to_text` gave.
    fn render_multiple_input(
        &self,
        prefix: String,
        gold: usize,
        choices: Option<Vec<String>>,
        target: Target,
        gen_prefix: Option<String>,
    ) -> Result<Rendered> {
        let spec = self.spec;
        if spec.output_type != OutputType::MultipleChoice {
            return Err(Error::new(format!(
                "{}: doc_to_text gave a choice index, which only a multiple_choice task can use (multiple input, like Winogrande)",
                spec.file
            )));
        }
        let choices =
            choices.ok_or_else(|| Error::new(format!("{}: a multiple-input task needs doc_to_choice", spec.file)))?;
        if gold >= choices.len() {
            return Err(Error::new(format!(
                "{}: doc_to_text gave {gold}, but there are {} choices",
                spec.file,
                choices.len()
            )));
        }
        let continuation = match &target {
            Target::Text(t) => t.clone(),
            Target::Texts(t) if !t.is_empty() => t[0].clone(),
            other => {
                return Err(Error::new(format!(
                    "{}: in a multiple-input task doc_to_target is the text after each context, but it gave {other:?}",
                    spec.file
                )))
            }
        };
        let contexts: Vec<String> =
            choices.iter().map(|c| format!("{prefix}{}", qa_turn(c, None, gen_prefix.as_deref(), "", ""))).collect();
        Ok(Rendered {
            context: common_prefix(&contexts),
            request: Request::MultipleChoice {
                continuations: vec![format!("{}{continuation}", spec.target_delimiter); choices.len()],
                multiple_input: Some(MultipleInput { contexts, target: continuation }),
            },
            choices: Some(choices),
            target: Target::Index(gold),
        })
    }

    /// Renders every document in order, drawing few-shot examples from `pool` with one sampler
    /// seeded with `seed`, as lm-eval does for a run. `num_fewshot` overrides the task's. A pool
    /// that is [`FewshotPool::Missing`] is refused when examples are asked for.
    pub fn render_all(
        &self,
        docs: &[Json],
        pool: &FewshotPool,
        num_fewshot: Option<usize>,
        seed: u64,
    ) -> Result<Vec<Rendered>> {
        let n = num_fewshot.or(self.spec.num_fewshot).unwrap_or(0);
        if let (FewshotPool::Missing(why), true) = (pool, n > 0) {
            return Err(Error::new(why.clone()));
        }
        let pool = pool.docs();
        let mut sampler = FewshotSampler::new(self.spec.fewshot.sampler.clone(), seed);
        let same_split = self.spec.fewshot.split.as_deref() == self.spec.test_split.as_deref();
        docs.iter()
            .enumerate()
            .map(|(i, doc)| {
                let idx = sampler.sample(pool, n, same_split.then_some(doc)).map_err(|e| {
                    e.context(format!("{}: few-shot for {}", self.spec.file, super::document_name(i as u64)))
                })?;
                let shots: Vec<&Json> = idx.iter().map(|&j| &pool[j]).collect();
                self.render(doc, &shots).map_err(|e| e.context(super::document_name(i as u64)))
            })
            .collect()
    }
}

impl FilterPipeline {
    /// Applies the pipeline to one document's responses, each step as lm-eval's filter of that
    /// name does.
    pub fn apply(&self, mut responses: Vec<String>) -> Result<Vec<String>> {
        for step in &self.steps {
            match step {
                FilterStep::TakeFirst => responses.truncate(1),
                FilterStep::TakeFirstK(k) => responses.truncate(*k),
                FilterStep::MajorityVote => {
                    // Counter.most_common(1): the highest count, the first seen among equals.
                    let mut best: Option<(&String, usize)> = None;
                    for r in &responses {
                        let n = responses.iter().filter(|x| *x == r).count();
                        if best.is_none_or(|(_, b)| n > b) {
                            best = Some((r, n));
                        }
                    }
                    responses = best.map(|(r, _)| vec![r.clone()]).unwrap_or_default();
                }
                FilterStep::RemoveWhitespace => {
                    for r in &mut responses {
                        *r = r.trim_matches(is_py_space).to_string();
                    }
                }
                FilterStep::Lowercase => {
                    for r in &mut responses {
                        *r = r.to_lowercase();
                    }
                }
                FilterStep::Uppercase => {
                    for r in &mut responses {
                        *r = r.to_uppercase();
                    }
                }
                FilterStep::Map { mapping, default } => {
                    for r in &mut responses {
                        *r = mapping.iter().find(|(k, _)| k == r).map_or(default, |(_, v)| v).clone();
                    }
                }
                FilterStep::Regex { pattern, group_select, fallback } => {
                    let re = regex::Regex::new(pattern)
                        .map_err(|e| Error::new(format!("filter {}: bad regex {pattern:?}: {e}", self.name)))?;
                    responses = responses.iter().map(|r| regex_filter(&re, *group_select, fallback, r)).collect();
                }
            }
        }
        Ok(responses)
    }
}

/// `re.findall(pattern, resp)[group_select]`; a tuple (several groups) gives its first non-empty
/// member; stripped; `fallback` when nothing matched.
fn regex_filter(re: &regex::Regex, group_select: i64, fallback: &str, resp: &str) -> String {
    let groups = re.captures_len() - 1;
    let found: Vec<Vec<String>> = re
        .captures_iter(resp)
        .map(|c| {
            if groups == 0 {
                vec![c.get(0).map_or("", |m| m.as_str()).to_string()]
            } else {
                (1..=groups).map(|g| c.get(g).map_or("", |m| m.as_str()).to_string()).collect()
            }
        })
        .collect();
    if found.is_empty() {
        return fallback.to_string();
    }
    let i = if group_select < 0 { found.len() as i64 + group_select } else { group_select };
    let Some(m) = usize::try_from(i).ok().and_then(|i| found.get(i)) else {
        return fallback.to_string();
    };
    let s = if groups <= 1 {
        m[0].clone()
    } else {
        m.iter().find(|x| !x.is_empty()).cloned().unwrap_or_else(|| fallback.to_string())
    };
    s.trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regex_filter_like_lm_eval() {
        let re = regex::Regex::new(r"#### (\-?[0-9\.\,]+)").unwrap();
        assert_eq!(regex_filter(&re, 0, "[invalid]", "so #### 42 and #### 7"), "42");
        assert_eq!(regex_filter(&re, -1, "[invalid]", "so #### 42 and #### 7"), "7");
        assert_eq!(regex_filter(&re, 0, "[invalid]", "nothing"), "[invalid]");
        let re = regex::Regex::new(r"(A)|(B)").unwrap();
        assert_eq!(regex_filter(&re, 0, "x", " B "), "B");
    }
}
