//! `output_type: loglikelihood` tasks (LAMBADA-style): one continuation per document, scored after
//! the context; `perplexity` (lm-eval: `exp(-mean(ll))`, bootstrap stderr) and `acc` (the
//! continuation is the greedy decode).

use serde_json::Value as Json;

use crate::engine::LanguageModel;
use crate::error::{Error, Result};
use crate::scoring::aggregate::{bootstrap_stderr, perplexity, Summary};
use crate::scoring::outputs::{loglikelihood_resps, MetricResult, SampleRecord};
use crate::scoring::pyjson::PyJson;
use crate::tasks::yaml::{Rendered, Request, Target, TaskSpec};

/// lm-eval's default `--bootstrap_iters`; perplexity's stderr is bootstrapped with all of them.
const BOOTSTRAP_ITERS: usize = 100_000;

#[derive(Debug, Clone)]
pub struct LoglikelihoodResult {
    pub doc_id: u64,
    pub doc: Json,
    pub context: String,
    pub continuation: String,
    /// `str(doc_to_target(doc))`.
    pub target: String,
    pub loglikelihood: f64,
    pub is_greedy: bool,
    /// Context tokens left out on the left to fit the model's `max_length`.
    pub truncated: usize,
}

/// The metrics the task asks for, in lm-eval's order (`perplexity`, `acc`); both by default.
pub fn metric_names(spec: &TaskSpec) -> Vec<&'static str> {
    if spec.metrics.is_empty() {
        return vec!["perplexity", "acc"];
    }
    ["perplexity", "acc"].into_iter().filter(|m| spec.metrics.iter().any(|s| s.metric == *m)).collect()
}

pub async fn score(lm: &LanguageModel, doc_id: u64, doc: Json, rendered: &Rendered) -> Result<LoglikelihoodResult> {
    let Request::Loglikelihood { continuation } = &rendered.request else {
        return Err(Error::new(format!("{}: not a loglikelihood request", crate::tasks::yaml::document_name(doc_id))));
    };
    let scores = lm.log_likelihoods(&rendered.context, std::slice::from_ref(continuation)).await.map_err(|e| e.context(crate::tasks::yaml::document_name(doc_id)))?;
    let s = scores.first().ok_or_else(|| Error::new(format!("{}: no score", crate::tasks::yaml::document_name(doc_id))))?;
    let target = match &rendered.target {
        Target::Text(t) => t.clone(),
        Target::Index(i) => i.to_string(),
        _ => continuation.clone(),
    };
    Ok(LoglikelihoodResult {
        doc_id,
        doc,
        context: rendered.context.clone(),
        continuation: continuation.clone(),
        target,
        loglikelihood: s.loglikelihood,
        is_greedy: s.is_greedy,
        truncated: s.truncated,
    })
}

impl LoglikelihoodResult {
    /// lm-eval's sample line: one request, `perplexity` as the log-likelihood, `acc` as 0/1.
    pub fn sample_record(&self, metrics: &[&str], columns: &[String]) -> SampleRecord {
        let (resps, filtered_resps) = loglikelihood_resps(&[self.loglikelihood], &[self.is_greedy]);
        let values = metrics
            .iter()
            .map(|m| match *m {
                "perplexity" => (m.to_string(), PyJson::Float(self.loglikelihood)),
                _ => (m.to_string(), PyJson::Int(self.is_greedy as i64)),
            })
            .collect();
        SampleRecord {
            doc_id: self.doc_id,
            doc: PyJson::from_serde_ordered(&self.doc, columns),
            target: self.target.clone(),
            arguments: vec![vec![PyJson::str(self.context.as_str()), PyJson::str(self.continuation.as_str())]],
            resps,
            filtered_resps,
            filter: "none".into(),
            metrics: values,
            extra: Vec::new(),
        }
    }

    /// A result back from its sample line (resuming a run); `None` if the line is not one.
    pub fn from_line(line: &str) -> Option<LoglikelihoodResult> {
        let v: Json = serde_json::from_str(line).ok()?;
        let r = v.pointer("/filtered_resps/0")?;
        Some(LoglikelihoodResult {
            doc_id: v.get("doc_id")?.as_u64()?,
            doc: v.get("doc").cloned().unwrap_or(Json::Null),
            context: v.pointer("/arguments/gen_args_0/arg_0")?.as_str()?.to_string(),
            continuation: v.pointer("/arguments/gen_args_0/arg_1")?.as_str()?.to_string(),
            target: v.get("target").and_then(Json::as_str).unwrap_or_default().to_string(),
            loglikelihood: r.get(0)?.as_str()?.parse().ok()?,
            is_greedy: r.get(1)?.as_str()? == "True",
            truncated: 0,
        })
    }
}

/// The task's metrics over the results, as lm-eval aggregates them.
pub fn summarize(results: &[LoglikelihoodResult], metrics: &[&str]) -> Result<Vec<MetricResult>> {
    let lls: Vec<f64> = results.iter().map(|r| r.loglikelihood).collect();
    let mut out = Vec::new();
    for m in metrics {
        let (value, stderr, higher_is_better) = match *m {
            "perplexity" => {
                let Some(value) = perplexity(&lls) else { continue };
                let stderr = bootstrap_stderr(|xs: &[f64]| perplexity(xs).ok_or_else(|| Error::new("no items")), &lls, BOOTSTRAP_ITERS)?;
                (value, stderr, false)
            }
            _ => {
                let xs: Vec<f64> = results.iter().map(|r| if r.is_greedy { 1.0 } else { 0.0 }).collect();
                let Some(s) = Summary::of(&xs) else { continue };
                (s.mean, s.stderr, true)
            }
        };
        out.push(MetricResult { name: m.to_string(), filter: "none".into(), value, stderr, higher_is_better });
    }
    Ok(out)
}
