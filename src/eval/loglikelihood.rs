//! `output_type: loglikelihood` tasks (LAMBADA-style): one continuation per document, scored after
//! the context; `perplexity` (lm-eval: `exp(-mean(ll))`, bootstrap stderr) and `acc` (the
//! continuation is the greedy decode).

use serde_json::Value as Json;

use crate::engine::LanguageModel;
use crate::error::{Error, Result};
use crate::scoring::outputs::{loglikelihood_resps, SampleRecord};
use crate::scoring::pyjson::PyJson;
use crate::tasks::yaml::{Rendered, Request, Target};

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

pub async fn score(lm: &LanguageModel, doc_id: u64, doc: Json, rendered: &Rendered) -> Result<LoglikelihoodResult> {
    let Request::Loglikelihood { continuation } = &rendered.request else {
        return Err(Error::new(format!("{}: not a loglikelihood request", crate::tasks::yaml::document_name(doc_id))));
    };
    let scores = lm
        .log_likelihoods(&rendered.context, std::slice::from_ref(continuation))
        .await
        .map_err(|e| e.context(crate::tasks::yaml::document_name(doc_id)))?;
    let s =
        scores.first().ok_or_else(|| Error::new(format!("{}: no score", crate::tasks::yaml::document_name(doc_id))))?;
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
}
