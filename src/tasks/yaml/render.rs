//! Documents → requests, as lm-evaluation-harness 0.4.13 builds them
//! (`ConfigurableTask.doc_to_text/doc_to_choice/doc_to_target`, `fewshot_context`,
//! `build_qa_turn`, `construct_requests` in `lm_eval/api/task.py`; samplers in
//! `lm_eval/api/samplers.py`).
//!
//! Plain-text context (no chat template, no system instruction):
//! `description`, then `text + target_delimiter + answer + fewshot_delimiter` for each few-shot
//! doc, then the doc's `text`. The description is prepended as is (lm-eval adds no delimiter).
//!
//! Multiple choice scores `context` against `target_delimiter + choice` for every choice;
//! `loglikelihood` scores `context` against the target as is; `generate_until` generates from
//! `context` until one of `until`.

use minijinja::value::Value;
use minijinja::Environment;
use serde_json::{Map, Value as Json};

use crate::pyrandom::PyRandom;
use super::{Field, FilterPipeline, FilterStep, OutputType, SamplerKind, TaskSpec};
use crate::error::{Error, Result};
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
    /// One log-likelihood per continuation (`target_delimiter + choice`).
    MultipleChoice {
        continuations: Vec<String>,
    },
    Loglikelihood {
        continuation: String,
    },
    GenerateUntil {
        until: Vec<String>,
        max_gen_toks: usize,
    },
}

/// One rendered document.
#[derive(Debug, Clone, PartialEq)]
pub struct Rendered {
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
        FewshotSampler {
            kind,
            rng: PyRandom::new(seed),
        }
    }

    /// Indices into `pool` of `n` exemplars; `eval_doc` (when the few-shot split is the evaluated
    /// split) is never among them.
    pub fn sample(
        &mut self,
        pool: &[Json],
        n: usize,
        eval_doc: Option<&Json>,
    ) -> Result<Vec<usize>> {
        if n == 0 {
            return Ok(vec![]);
        }
        match self.kind {
            SamplerKind::FirstN => {
                let idx: Vec<usize> = (0..pool.len())
                    .filter(|&i| eval_doc != Some(&pool[i]))
                    .collect();
                if n > idx.len() {
                    return Err(Error::new(format!(
                        "{n} few-shot examples requested, {} available",
                        idx.len()
                    )));
                }
                Ok(idx[..n].to_vec())
            }
            SamplerKind::Random => {
                let Some(doc) = eval_doc else {
                    if n > pool.len() {
                        return Err(Error::new(format!(
                            "{n} few-shot examples requested, {} available",
                            pool.len()
                        )));
                    }
                    return Ok(self.rng.sample(pool.len(), n));
                };
                if n + 1 > pool.len() {
                    return Err(Error::new(format!(
                        "{n} few-shot examples requested from the evaluated split, which has {}",
                        pool.len()
                    )));
                }
                let mut res: Vec<usize> = self
                    .rng
                    .sample(pool.len(), n + 1)
                    .into_iter()
                    .filter(|&i| &pool[i] != doc)
                    .collect();
                res.truncate(n);
                if res.len() < n {
                    let rest: Vec<usize> = (0..pool.len()).filter(|&i| &pool[i] != doc).collect();
                    if n > rest.len() {
                        return Err(Error::new(format!(
                            "{n} few-shot examples requested, {} available",
                            rest.len()
                        )));
                    }
                    res = self
                        .rng
                        .sample(rest.len(), n)
                        .into_iter()
                        .map(|i| rest[i])
                        .collect();
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
            o.iter()
                .map(|(k, v)| (k.clone(), to_value(v)))
                .collect::<std::collections::BTreeMap<String, Value>>(),
        ),
    }
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
        let t = self
            .env
            .get_template(name)
            .map_err(|e| Error::new(e.to_string()))?;
        t.render(to_value(doc)).map_err(|e| {
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

    /// Applies the `process_docs` replacement (if any) to each document.
    pub fn prepare_docs(&self, docs: Vec<Json>) -> Result<Vec<Json>> {
        let Some(map) = &self.spec.process_docs else {
            return Ok(docs);
        };
        docs.into_iter()
            .map(|doc| {
                let mut out: Map<String, Json> = doc.as_object().cloned().unwrap_or_default();
                for k in map.keys() {
                    let s = self.render_template(&format!("process_docs.{k}"), &doc)?;
                    let v = if s.starts_with('[') && s.ends_with(']') {
                        pylit::parse(&s).unwrap_or(Json::String(s))
                    } else {
                        Json::String(s)
                    };
                    out.insert(k.clone(), v);
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
            Field::Function(f) => Err(Error::new(format!(
                "{}: {name} is !function {f} (Python)",
                self.spec.file
            ))),
            Field::Template(s) => {
                if let Some(v) = doc.get(s.as_str()) {
                    return Ok(match v {
                        Json::Array(a) => Out::List(a.clone()),
                        Json::Number(n) if n.as_i64().is_some() => {
                            Out::Int(n.as_i64().unwrap_or_default())
                        }
                        Json::String(s) => Out::Text(s.clone()),
                        other => Out::Text(py_str(other)),
                    });
                }
                let text = self.render_template(name, doc)?;
                let is_choice = name.ends_with("doc_to_choice");
                if is_choice {
                    return match pylit::parse(&text) {
                        Ok(Json::Array(a)) => Ok(Out::List(a)),
                        _ => Err(Error::new(format!(
                            "{}: {name} must give a list, gave {text:?}",
                            self.spec.file
                        ))),
                    };
                }
                if has_choices && !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
                    return Ok(Out::Int(text.parse().map_err(|_| {
                        Error::new(format!("{name}: {text} is too large"))
                    })?));
                }
                if name.ends_with("doc_to_target")
                    && text.len() >= 2
                    && text.starts_with('[')
                    && text.ends_with(']')
                {
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
            Out::List(l) => Ok(l
                .iter()
                .map(|v| v.as_str().map(String::from).unwrap_or_else(|| py_str(v)))
                .collect()),
            other => Err(Error::new(format!(
                "{}: {name} must give a list, gave {other:?}",
                self.spec.file
            ))),
        }
    }

    /// `(text, choices, target)` for a document, with the task's or the few-shot fields.
    fn qa(&self, doc: &Json, fewshot: bool) -> Result<(String, Option<Vec<String>>, Target)> {
        let (p, text_f, choice_f, target_f) = if fewshot {
            let f = &self.spec.fewshot;
            (
                "fewshot_config.",
                &f.doc_to_text,
                &f.doc_to_choice,
                &f.doc_to_target,
            )
        } else {
            (
                "",
                &self.spec.doc_to_text,
                &self.spec.doc_to_choice,
                &self.spec.doc_to_target,
            )
        };
        // lm-eval's isdigit rule looks at the task's doc_to_choice, not the few-shot one.
        let has_choices = self.spec.doc_to_choice.is_some();
        let text = match text_f {
            Some(f) => match self.eval(&format!("{p}doc_to_text"), f, doc, has_choices)? {
                Out::Text(t) => t,
                Out::Int(_) => {
                    return Err(Error::new(format!(
                        "{}: doc_to_text gives an index (a multiple-input task, like Winogrande); not supported",
                        self.spec.file
                    )))
                }
                Out::List(l) => return Err(Error::new(format!("{}: doc_to_text gave a list {l:?}", self.spec.file))),
            },
            None => String::new(),
        };
        let choices = match choice_f {
            Some(f) => Some(self.choices(&format!("{p}doc_to_choice"), f, doc)?),
            None => None,
        };
        let target = match target_f {
            None => Target::Text(String::new()),
            Some(f) => match self.eval(&format!("{p}doc_to_target"), f, doc, has_choices)? {
                Out::Text(t) => Target::Text(t),
                Out::Int(i) => Target::Index(usize::try_from(i).map_err(|_| {
                    Error::new(format!("{}: doc_to_target gave {i}", self.spec.file))
                })?),
                Out::List(l) => {
                    if l.iter().all(|v| v.as_u64().is_some()) {
                        Target::Indices(
                            l.iter()
                                .filter_map(|v| v.as_u64().map(|u| u as usize))
                                .collect(),
                        )
                    } else {
                        Target::Texts(
                            l.iter()
                                .map(|v| v.as_str().map(String::from).unwrap_or_else(|| py_str(v)))
                                .collect(),
                        )
                    }
                }
            },
        };
        Ok((text, choices, target))
    }

    /// The answer text a few-shot example shows (`build_qa_turn`): `c[a]` for an index, the first
    /// of a list, or the text. `None` when there is no answer (`a` empty).
    fn answer_text(
        &self,
        choices: &Option<Vec<String>>,
        target: &Target,
    ) -> Result<Option<String>> {
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
            context.push_str(&q);
            if let Some(ans) = self.answer_text(&c, &a)? {
                context.push_str(&spec.fewshot.target_delimiter);
                context.push_str(&ans);
                context.push_str(&spec.fewshot.fewshot_delimiter);
            }
        }
        let (q, choices, target) = self.qa(doc, false)?;
        context.push_str(&q);
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
            OutputType::GenerateUntil => {
                let g = spec.generation.as_ref();
                Request::GenerateUntil {
                    until: g
                        .map(|g| g.until.clone())
                        .unwrap_or_else(|| vec![spec.fewshot_delimiter.clone()]),
                    max_gen_toks: g.map_or(256, |g| g.max_gen_toks),
                }
            }
        };
        if let (OutputType::MultipleChoice, Target::Index(i), Some(c)) =
            (spec.output_type, &target, &choices)
        {
            if *i >= c.len() {
                return Err(Error::new(format!(
                    "{}: doc_to_target gave {i}, but there are {} choices",
                    spec.file,
                    c.len()
                )));
            }
        }
        Ok(Rendered {
            context,
            choices,
            target,
            request,
        })
    }

    /// Renders every document in order, drawing few-shot examples from `pool` with one sampler
    /// seeded with `seed`, as lm-eval does for a run. `num_fewshot` overrides the task's.
    pub fn render_all(
        &self,
        docs: &[Json],
        pool: &[Json],
        num_fewshot: Option<usize>,
        seed: u64,
    ) -> Result<Vec<Rendered>> {
        let n = num_fewshot.or(self.spec.num_fewshot).unwrap_or(0);
        let mut sampler = FewshotSampler::new(self.spec.fewshot.sampler.clone(), seed);
        let same_split = self.spec.fewshot.split.as_deref() == self.spec.test_split.as_deref();
        docs.iter()
            .enumerate()
            .map(|(i, doc)| {
                let idx = sampler
                    .sample(pool, n, same_split.then_some(doc))
                    .map_err(|e| {
                        e.context(format!(
                            "{}: few-shot for document {}",
                            self.spec.file,
                            i + 1
                        ))
                    })?;
                let shots: Vec<&Json> = idx.iter().map(|&j| &pool[j]).collect();
                self.render(doc, &shots)
                    .map_err(|e| e.context(format!("document {}", i + 1)))
            })
            .collect()
    }
}

impl FilterPipeline {
    /// Applies the pipeline to one document's responses (lm-eval `RegexFilter`, `take_first`);
    /// steps lingualens does not implement leave the responses unchanged.
    pub fn apply(&self, mut responses: Vec<String>) -> Result<Vec<String>> {
        for step in &self.steps {
            match step {
                FilterStep::TakeFirst => responses.truncate(1),
                FilterStep::Regex {
                    pattern,
                    group_select,
                    fallback,
                } => {
                    let re = regex::Regex::new(pattern).map_err(|e| {
                        Error::new(format!("filter {}: bad regex {pattern:?}: {e}", self.name))
                    })?;
                    responses = responses
                        .iter()
                        .map(|r| regex_filter(&re, *group_select, fallback, r))
                        .collect();
                }
                FilterStep::Other { .. } => {}
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
                (1..=groups)
                    .map(|g| c.get(g).map_or("", |m| m.as_str()).to_string())
                    .collect()
            }
        })
        .collect();
    if found.is_empty() {
        return fallback.to_string();
    }
    let i = if group_select < 0 {
        found.len() as i64 + group_select
    } else {
        group_select
    };
    let Some(m) = usize::try_from(i).ok().and_then(|i| found.get(i)) else {
        return fallback.to_string();
    };
    let s = if groups <= 1 {
        m[0].clone()
    } else {
        m.iter()
            .find(|x| !x.is_empty())
            .cloned()
            .unwrap_or_else(|| fallback.to_string())
    };
    s.trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regex_filter_like_lm_eval() {
        let re = regex::Regex::new(r"#### (\-?[0-9\.\,]+)").unwrap();
        assert_eq!(
            regex_filter(&re, 0, "[invalid]", "so #### 42 and #### 7"),
            "42"
        );
        assert_eq!(
            regex_filter(&re, -1, "[invalid]", "so #### 42 and #### 7"),
            "7"
        );
        assert_eq!(regex_filter(&re, 0, "[invalid]", "nothing"), "[invalid]");
        let re = regex::Regex::new(r"(A)|(B)").unwrap();
        assert_eq!(regex_filter(&re, 0, "x", " B "), "B");
    }
}
