//! A sample of lm-evaluation-harness's own task catalogue (`tools/fixtures/lm_eval_catalogue.py`: the
//! first single-task YAML of every folder of lm-eval 0.4.13's `tasks/`, read as published, includes and
//! all), loaded by lingualens: each task either renders the made-up documents exactly as lm-eval does
//! (contexts with few-shot examples, requests, choices, target) or is refused with a message. None may
//! render something else. The counts are printed.
//!
//! Needs `LINGUALENS_FIXTURES`; without it the test says it was skipped (fails under
//! `LINGUALENS_REQUIRE_FIXTURES=1`).

use std::collections::BTreeMap;

use lingualens::tasks::yaml::{self, LoadOptions, Request, Target};
use serde_json::{json, Value as Json};

use crate::common;

fn target_json(t: &Target) -> Json {
    match t {
        Target::Index(i) => json!(i),
        Target::Indices(v) => json!(v),
        Target::Text(s) => json!(s),
        Target::Texts(v) => json!(v),
    }
}

/// Where lingualens's rendering of one case differs from lm-eval's, if it does.
fn difference(spec: &yaml::TaskSpec, out: &[yaml::Rendered], want: &[Json]) -> Option<String> {
    if out.len() != want.len() {
        return Some(format!("{} documents rendered, lm-eval {}", out.len(), want.len()));
    }
    for (i, (got, want)) in out.iter().zip(want).enumerate() {
        // A case lm-eval wrote without its requests is not a match: there is nothing to compare.
        let Some(args) = want["arguments"].as_array() else {
            return Some(format!("document {i}: lm-eval's case has no `arguments` to compare with"));
        };
        let mut ours: Vec<Json> = Vec::new();
        match &got.request {
            Request::MultipleChoice { continuations, multiple_input } => {
                for (j, c) in continuations.iter().enumerate() {
                    let context = multiple_input.as_ref().map_or(&got.context, |m| &m.contexts[j]);
                    ours.push(json!([context, c]));
                }
            }
            Request::Loglikelihood { continuation } => ours.push(json!([got.context, continuation])),
            Request::GenerateUntil { .. } => {
                let kwargs: serde_json::Map<String, Json> =
                    spec.generation.as_ref().map(|g| g.kwargs.iter().cloned().collect()).unwrap_or_default();
                ours.push(json!([got.context, kwargs]));
            }
        }
        // lm-eval's unconditional requests for acc_mutual_info come after the conditional ones.
        let theirs: Vec<Json> = args.iter().take(ours.len()).cloned().collect();
        if ours != theirs {
            return Some(format!("document {i}: requests\n  ours:   {ours:?}\n  lm-eval: {theirs:?}"));
        }
        if !want["choices"].is_null() && got.choices.as_ref().map(|c| json!(c)) != Some(want["choices"].clone()) {
            return Some(format!("document {i}: choices {:?} vs lm-eval {}", got.choices, want["choices"]));
        }
        let target = if want["multiple_input_gold"].is_null() { &want["target"] } else { &want["multiple_input_gold"] };
        let ours = target_json(&got.target);
        // A target lm-eval keeps as a number may be a whole float after JSON.
        let same = ours == *target || (ours.as_f64().is_some() && ours.as_f64() == target.as_f64());
        if !same {
            return Some(format!("document {i}: target {ours} vs lm-eval {target}"));
        }
    }
    None
}

#[test]
fn lm_eval_catalogue_sample_renders_as_lm_eval_or_is_refused() {
    let test = "lm_eval_catalogue_sample_renders_as_lm_eval_or_is_refused";
    let Some(file) = common::fixture(test, "lm_eval_catalogue/cases.json", "tools/fixtures/lm_eval_catalogue.py")
    else {
        return;
    };
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let fx: Json = serde_json::from_str(&text).unwrap();
    let (mut same, mut refused, mut not_compared) = (Vec::new(), Vec::new(), Vec::new());
    let mut differ = Vec::new();
    for case in fx["cases"].as_array().unwrap() {
        let path = case["path"].as_str().unwrap().to_string();
        let files: BTreeMap<String, String> = case["files"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
            .collect();
        let resolve = |p: &str| Ok(files.get(p).cloned());
        let spec = match yaml::load_task(&path, &resolve, &LoadOptions::default()) {
            Ok(spec) => spec,
            Err(e) => {
                let msg = e.to_string();
                assert!(msg.len() > path.len() + 8, "{path}: refused without saying why: {msg:?}");
                refused.push((path, msg));
                continue;
            }
        };
        let lm = &case["lm_eval"];
        if lm.is_null() {
            not_compared.push(path);
            continue;
        }
        let splits: BTreeMap<String, Vec<Json>> =
            lm["splits"].as_object().unwrap().iter().map(|(k, v)| (k.clone(), v.as_array().unwrap().clone())).collect();
        let rendered = (|| -> lingualens::Result<Vec<yaml::Rendered>> {
            let docs = splits.get(spec.eval_split().unwrap_or("test")).cloned().unwrap_or_default();
            let pool = spec.fewshot_pool(&docs, |s| Ok(splits.get(s).cloned()), "")?;
            let r = spec.renderer()?;
            let (docs, pool) = (r.prepare_docs(docs)?, r.prepare_pool(pool)?);
            r.render_all(&docs, &pool, None, 1234)
        })();
        match rendered {
            Err(e) => refused.push((path, e.to_string())),
            Ok(out) => match difference(&spec, &out, lm["renders"].as_array().unwrap()) {
                None => same.push(path),
                Some(d) => differ.push(format!("{path}: {d}")),
            },
        }
    }
    let total = fx["cases"].as_array().unwrap().len();
    println!(
        "lm-eval {} catalogue sample: {total} task files; {} render as lm-eval does, {} refused with a message, {} differ; {} loaded but not compared (lm-eval could not render made-up documents for them)",
        fx["lm_eval_version"],
        same.len(),
        refused.len(),
        differ.len(),
        not_compared.len()
    );
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    for (_, msg) in &refused {
        let short = msg.split(": ").skip(1).collect::<Vec<_>>().join(": ");
        let key: String = short.chars().take(90).collect();
        *reasons.entry(key).or_default() += 1;
    }
    for (r, n) in &reasons {
        println!("  refused ×{n}: {r}");
    }
    assert!(differ.is_empty(), "{} tasks render differently from lm-eval:\n{}", differ.len(), differ.join("\n"));
    assert!(same.len() >= 40, "only {} tasks compared equal", same.len());
}
