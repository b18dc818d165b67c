//! `generate_until` tasks, as lm-evaluation-harness 0.4.13 runs them with its HF backend: greedy
//! generation after the rendered context until one of `until` (plus the model's EOS) or
//! `max_gen_toks`; each `filter_list` pipeline turns the generation into one response (no
//! `filter_list`: lm-eval's `none` pipeline, `take_first`); each metric of `metric_list` scores that
//! response against the target.
//!
//! | metric        | per item (sample log)       | aggregate                                       |
//! | ------------- | --------------------------- | ----------------------------------------------- |
//! | `exact_match` | 0/1 (HF `evaluate` options) | mean, `mean_stderr`                             |
//! | `chrf`        | `[target, response]`        | `sacrebleu.corpus_chrf`, bootstrap stderr (100) |
//! | `bleu`        | `[target, response]`        | `sacrebleu.corpus_bleu`, bootstrap stderr (100) |
//! | `ter`         | `[target, response]`        | `sacrebleu.corpus_ter`, bootstrap stderr (100)  |
//!
//! Results are keyed `metric,filter` as lm-eval keys them, filter by filter in `filter_list` order.

use serde_json::Value as Json;

use super::metric_names;
use crate::engine::{Generation, LanguageModel};
use crate::error::{Error, Result};
use crate::scoring::loglikelihood::ExactMatch;
use crate::scoring::outputs::SampleRecord;
use crate::scoring::pyjson::PyJson;
use crate::tasks::yaml::render::{Rendered, Request, Target};
use crate::tasks::yaml::{FilterPipeline, FilterStep, TaskSpec};

/// One filter pipeline's response for an item.
#[derive(Debug, Clone, PartialEq)]
pub struct FilteredResponse {
    pub filter: String,
    pub response: String,
}

/// One generated item.
#[derive(Debug, Clone)]
pub struct GenerationResult {
    pub doc_id: u64,
    pub doc: Json,
    pub context: String,
    /// The task's `until` (lm-eval also stops at the EOS token, which it adds to the list).
    pub until: Vec<String>,
    pub max_gen_toks: usize,
    /// The target(s): one text, or several when `doc_to_target` gives a list.
    pub references: Vec<String>,
    pub multiple_target: bool,
    /// Per pipeline of [`pipelines`], in order.
    pub filtered: Vec<FilteredResponse>,
    pub generation: Generation,
}

/// The task's filter pipelines, or lm-eval's default `none` (take the first response).
pub fn pipelines(spec: &TaskSpec) -> Vec<FilterPipeline> {
    if spec.filters.is_empty() {
        vec![FilterPipeline { name: "none".into(), steps: vec![FilterStep::TakeFirst] }]
    } else {
        spec.filters.clone()
    }
}

/// `exact_match`'s options from the metric_list entry (`ignore_case`, `ignore_punctuation`,
/// `ignore_numbers`, `regexes_to_ignore`).
pub fn exact_match_options(spec: &TaskSpec) -> Result<ExactMatch> {
    let Some(m) = spec.metrics.iter().find(|m| m.metric == "exact_match") else { return Ok(ExactMatch::default()) };
    let flag = |k: &str| m.options.get(k).and_then(Json::as_bool).unwrap_or(false);
    let regexes = match m.options.get("regexes_to_ignore") {
        None | Some(Json::Null) => Vec::new(),
        Some(Json::Array(a)) => {
            a.iter().map(|v| v.as_str().map(String::from)).collect::<Option<Vec<_>>>().ok_or_else(|| {
                Error::new(format!("{}: exact_match.regexes_to_ignore must be a list of strings", spec.file))
            })?
        }
        Some(other) => {
            return Err(Error::new(format!(
                "{}: exact_match.regexes_to_ignore must be a list, found {other}",
                spec.file
            )))
        }
    };
    Ok(ExactMatch {
        regexes_to_ignore: regexes,
        ignore_case: flag("ignore_case"),
        ignore_punctuation: flag("ignore_punctuation"),
        ignore_numbers: flag("ignore_numbers"),
    })
}

/// The reference text(s) of a rendered generation item (with `doc_to_choice`, the target index
/// names a choice, as lm-eval's `choices[gold]`).
pub fn references(rendered: &Rendered) -> Result<(Vec<String>, bool)> {
    Ok(match (&rendered.target, &rendered.choices) {
        (Target::Text(t), _) => (vec![t.clone()], false),
        (Target::Texts(v), _) if !v.is_empty() => (v.clone(), true),
        (Target::Index(i), Some(c)) => {
            (vec![c.get(*i).cloned().ok_or_else(|| Error::new(format!("target {i} but {} choices", c.len())))?], false)
        }
        (target, _) => return Err(Error::new(format!("a generation target must be text, found {target:?}"))),
    })
}

/// Generates one rendered `generate_until` document and applies the task's filters.
pub async fn generate_item(
    lm: &LanguageModel,
    spec: &TaskSpec,
    doc_id: u64,
    doc: Json,
    rendered: &Rendered,
) -> Result<GenerationResult> {
    generate_item_streaming(lm, spec, doc_id, doc, rendered, &mut |_| {}).await
}

/// [`generate_item`], telling `on_text` the text generated so far after every token.
pub async fn generate_item_streaming(
    lm: &LanguageModel,
    spec: &TaskSpec,
    doc_id: u64,
    doc: Json,
    rendered: &Rendered,
    on_text: &mut dyn FnMut(&str),
) -> Result<GenerationResult> {
    let Request::GenerateUntil { until, max_gen_toks } = &rendered.request else {
        return Err(Error::new(format!("{}: not a generate_until request", crate::tasks::yaml::document_name(doc_id))));
    };
    let (references, multiple_target) =
        references(rendered).map_err(|e| e.context(crate::tasks::yaml::document_name(doc_id)))?;
    let generation = lm
        .generate_streaming(&rendered.context, until, *max_gen_toks, on_text)
        .await
        .map_err(|e| e.context(crate::tasks::yaml::document_name(doc_id)))?;
    let filtered = pipelines(spec)
        .iter()
        .map(|p| {
            let out = p.apply(vec![generation.text.clone()])?;
            Ok(FilteredResponse { filter: p.name.clone(), response: out.into_iter().next().unwrap_or_default() })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(GenerationResult {
        doc_id,
        doc,
        context: rendered.context.clone(),
        until: until.clone(),
        max_gen_toks: *max_gen_toks,
        references,
        multiple_target,
        filtered,
        generation,
    })
}

impl GenerationResult {
    /// The target as lm-eval logs it: the text, or the list of texts.
    fn target_json(&self) -> PyJson {
        if self.multiple_target {
            PyJson::List(self.references.iter().map(|r| PyJson::str(r.as_str())).collect())
        } else {
            PyJson::str(self.references[0].as_str())
        }
    }

    /// The item's value of `metric` for the response of pipeline `filter_index`, as lm-eval logs it.
    pub fn metric_value(&self, metric: &str, filter_index: usize, exact: &ExactMatch) -> Result<PyJson> {
        let response = &self.filtered[filter_index].response;
        Ok(match metric {
            "exact_match" => PyJson::Float(exact.score(response, &self.references)?),
            _ => PyJson::List(vec![self.target_json(), PyJson::str(response.as_str())]),
        })
    }
}

/// The sample-log line of one item for pipeline `filter_index` (lm-eval writes one per filter);
/// the document's fields in the order of `columns` (its dataset's columns; may be empty).
pub fn sample_record(
    spec: &TaskSpec,
    result: &GenerationResult,
    filter_index: usize,
    columns: &[String],
) -> Result<SampleRecord> {
    let exact = exact_match_options(spec)?;
    // The task's generation_kwargs as lm-eval logs them (its dict, in order).
    let gen_args = match &spec.generation {
        Some(g) => g.kwargs.iter().map(|(k, v)| (k.clone(), PyJson::from_serde(v))).collect(),
        None => {
            vec![("until".to_string(), PyJson::List(result.until.iter().map(|u| PyJson::str(u.as_str())).collect()))]
        }
    };
    let metrics = metric_names(spec)
        .iter()
        .map(|m| Ok((m.to_string(), result.metric_value(m, filter_index, &exact)?)))
        .collect::<Result<Vec<_>>>()?;
    let target = if result.multiple_target { result.target_json().dumps() } else { result.references[0].clone() };
    Ok(SampleRecord {
        doc_id: result.doc_id,
        doc: PyJson::from_serde_ordered(&result.doc, columns),
        target,
        arguments: vec![vec![PyJson::str(result.context.as_str()), PyJson::Dict(gen_args)]],
        resps: vec![PyJson::List(vec![PyJson::str(result.generation.text.as_str())])],
        filtered_resps: vec![PyJson::str(result.filtered[filter_index].response.as_str())],
        filter: result.filtered[filter_index].filter.clone(),
        metrics,
        extra: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoring::session::Session;
    use crate::tasks::yaml::{load_task, LoadOptions};

    fn spec(extra: &str) -> TaskSpec {
        let text = format!("task: g\ndataset_path: json\noutput_type: generate_until\ndoc_to_text: '{{{{p}}}}'\ndoc_to_target: '{{{{a}}}}'\n{extra}");
        let files = move |p: &str| Ok((p == "g.yaml").then(|| text.clone()));
        load_task("g.yaml", &files, &LoadOptions::default()).unwrap()
    }

    #[test]
    fn default_pipeline_and_metric() {
        let s = spec("");
        assert_eq!(pipelines(&s), vec![FilterPipeline { name: "none".into(), steps: vec![FilterStep::TakeFirst] }]);
        assert_eq!(metric_names(&s), ["exact_match"]);
        let s = spec("metric_list:\n  - metric: chrf\n  - metric: exact_match\n    ignore_case: true\n    regexes_to_ignore: [',']\n");
        assert_eq!(metric_names(&s), ["chrf", "exact_match"]);
        let em = exact_match_options(&s).unwrap();
        assert!(em.ignore_case && !em.ignore_punctuation);
        assert_eq!(em.regexes_to_ignore, [","]);
    }

    #[test]
    fn references_from_targets() {
        let r = |target, choices| Rendered {
            context: String::new(),
            choices,
            target,
            request: Request::GenerateUntil { until: vec![], max_gen_toks: 1 },
        };
        assert_eq!(references(&r(Target::Text("x".into()), None)).unwrap(), (vec!["x".to_string()], false));
        assert_eq!(references(&r(Target::Index(1), Some(vec!["a".into(), "b".into()]))).unwrap().0, ["b"]);
        assert!(references(&r(Target::Index(2), Some(vec!["a".into()]))).is_err());
        assert!(references(&r(Target::Index(0), None)).is_err());
        assert!(references(&r(Target::Texts(vec!["a".into(), "b".into()]), None)).unwrap().1);
    }

    #[test]
    fn aggregates_per_filter() {
        let s = spec("filter_list:\n  - name: whole\n    filter:\n      - function: take_first\n  - name: word\n    filter:\n      - function: regex\n        regex_pattern: '([a-z]+)'\n      - function: take_first\nmetric_list:\n  - metric: exact_match\n  - metric: chrf\n  - metric: ter\n");
        let item = |id: u64, text: &str, reference: &str| {
            let filtered = pipelines(&s)
                .iter()
                .map(|p| FilteredResponse {
                    filter: p.name.clone(),
                    response: p.apply(vec![text.to_string()]).unwrap()[0].clone(),
                })
                .collect();
            GenerationResult {
                doc_id: id,
                doc: serde_json::json!({}),
                context: String::new(),
                until: vec![],
                max_gen_toks: 4,
                references: vec![reference.into()],
                multiple_target: false,
                filtered,
                generation: Generation {
                    text: text.into(),
                    prompt_tokens: vec![1],
                    tokens: vec![],
                    stop: crate::engine::StopReason::MaxTokens,
                    truncated: 0,
                },
            }
        };
        let results = [item(0, "cat!", "cat"), item(1, "a dog", "dog")];
        let lines: String = results
            .iter()
            .flat_map(|r| (0..2).map(|f| sample_record(&s, r, f, &[]).unwrap().to_jsonl_line()))
            .collect();
        let m = Session::from_jsonl("g", "generate_until", &lines).unwrap().metrics().unwrap();
        let names: Vec<String> = m.iter().map(|m| format!("{},{}", m.name, m.filter)).collect();
        assert_eq!(
            names,
            ["exact_match,whole", "chrf,whole", "ter,whole", "exact_match,word", "chrf,word", "ter,word"]
        );
        assert_eq!(m[0].value, 0.0);
        assert_eq!(m[3].value, 0.5, "the regex keeps `cat` and `a`");
        assert!(!m[2].higher_is_better);
        let line = sample_record(&s, &results[1], 1, &[]).unwrap().to_jsonl_line();
        assert!(line.contains(r#""filtered_resps": ["a"], "filter": "word""#), "{line}");
        assert!(line.contains(r#""chrf": ["dog", "a"]"#), "{line}");
    }
}
