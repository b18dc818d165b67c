//! A whole evaluation run: a task rendered over its documents, every request scored by the model,
//! every item's result handed to the caller as soon as it exists (the CLI prints progress and
//! appends to the samples log; the page will draw a row), and the aggregates at the end.
//!
//! Multiple-choice tasks only, for now; generation tasks come with `generate`.

use serde_json::Value as Json;

use crate::engine::LanguageModel;
use crate::error::{Error, Result};
use crate::scoring::aggregate::Summary;
use crate::scoring::loglikelihood::{ChoiceScores, McScore};
use crate::tasks::yaml::render::{Request, Rendered};
use crate::tasks::yaml::TaskSpec;

/// One scored item.
#[derive(Debug, Clone)]
pub struct ItemResult {
    pub doc_id: u64,
    pub doc: Json,
    pub context: String,
    pub choices: Vec<String>,
    pub continuations: Vec<String>,
    pub loglikelihoods: Vec<f64>,
    pub is_greedy: Vec<bool>,
    pub token_counts: Vec<usize>,
    pub gold: usize,
    pub score: McScore,
}

#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Score at most this many documents (in order).
    pub limit: Option<usize>,
    /// Few-shot examples per prompt; the task's `num_fewshot` when `None`.
    pub shots: Option<usize>,
    /// Seed of the few-shot sampler (lm-eval's default is 1234).
    pub seed: u64,
}

/// The documents of a task, rendered: `docs` are the evaluated split, `pool` the few-shot source.
pub fn render(spec: &TaskSpec, docs: Vec<Json>, pool: Vec<Json>, options: &RunOptions) -> Result<(Vec<Json>, Vec<Rendered>)> {
    let renderer = spec.renderer()?;
    let docs = renderer.prepare_docs(docs)?;
    let pool = renderer.prepare_docs(pool)?;
    let docs: Vec<Json> = docs.into_iter().take(options.limit.unwrap_or(usize::MAX)).collect();
    let rendered = renderer.render_all(&docs, &pool, options.shots, options.seed)?;
    Ok((docs, rendered))
}

/// Scores one rendered multiple-choice document.
pub async fn score_item(lm: &LanguageModel, doc_id: u64, doc: Json, rendered: &Rendered) -> Result<ItemResult> {
    let Request::MultipleChoice { continuations } = &rendered.request else {
        return Err(Error::new(format!("document {doc_id}: only multiple-choice tasks can be run so far")));
    };
    let choices = rendered.choices.clone().unwrap_or_default();
    let gold = rendered
        .gold()
        .ok_or_else(|| Error::new(format!("document {doc_id}: the target does not name one of the choices")))?;
    let scores = lm.log_likelihoods(&rendered.context, continuations).await.map_err(|e| e.context(format!("document {doc_id}")))?;
    let loglikelihoods: Vec<f64> = scores.iter().map(|s| s.loglikelihood).collect();
    let is_greedy: Vec<bool> = scores.iter().map(|s| s.is_greedy).collect();
    let token_counts: Vec<usize> = scores.iter().map(|s| s.continuation_tokens.len()).collect();
    let score = ChoiceScores {
        choices: &choices,
        loglikelihoods: &loglikelihoods,
        is_greedy: &is_greedy,
        token_counts: Some(&token_counts),
        unconditional: None,
    }
    .score(&[gold])
    .map_err(|e| e.context(format!("document {doc_id}")))?;
    Ok(ItemResult {
        doc_id,
        doc,
        context: rendered.context.clone(),
        choices,
        continuations: continuations.clone(),
        loglikelihoods,
        is_greedy,
        token_counts,
        gold,
        score,
    })
}

/// Mean, standard error and 95% interval of each metric over the items.
pub fn summarize(results: &[ItemResult]) -> Vec<(String, Summary)> {
    let Some(first) = results.first() else { return Vec::new() };
    first
        .score
        .metrics()
        .iter()
        .filter_map(|(name, _)| {
            let values: Vec<f64> = results
                .iter()
                .filter_map(|r| r.score.metrics().into_iter().find(|(n, _)| n == name).map(|(_, v)| v))
                .collect();
            Summary::of(&values).map(|s| (name.to_string(), s))
        })
        .collect()
}

impl ItemResult {
    /// The item's line in lm-evaluation-harness's samples JSONL (the CLI's log; the page's export).
    pub fn sample_record(&self, metrics: &[&str]) -> Result<crate::scoring::outputs::SampleRecord> {
        use crate::scoring::outputs::{McSample, SampleRecord};
        use crate::scoring::pyjson::PyJson;
        SampleRecord::multiple_choice(
            McSample {
                doc_id: self.doc_id,
                doc: PyJson::from_serde(&self.doc),
                target: self.gold.to_string(),
                context: &self.context,
                continuations: &self.continuations,
                loglikelihoods: &self.loglikelihoods,
                is_greedy: &self.is_greedy,
                unconditional: None,
            },
            &self.score,
            metrics,
        )
    }
}
