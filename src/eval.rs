//! A whole evaluation run: a task rendered over its documents, every request scored by the model,
//! every item's result handed to the caller as soon as it exists (the CLI prints progress and
//! appends to the samples log; the worker sends it to the page), each as its lm-eval sample line,
//! from which `scoring::session` computes everything a run reports.
//!
//! - multiple choice: [`plan`] renders every document in every choice order asked for
//!   ([`order`]), [`score_item_with`] scores one (with PMI's unconditional requests when the task
//!   asks for `acc_mutual_info`);
//! - `generate_until`: [`generation`] generates, filters and scores.
//!
//! **Architecture Invariant:** nothing here touches files, the DOM or the device directly; the CLI
//! and the browser worker call the same functions and decide where results go.

pub mod generation;
pub mod loglikelihood;
pub mod order;

use serde_json::Value as Json;

use crate::engine::LanguageModel;
use crate::error::{Error, Result};
use crate::pyrandom::PyRandom;
use crate::scoring::loglikelihood::{ChoiceScores, McScore};
use crate::tasks::yaml::render::{MultipleInput, Rendered, Request};
use crate::tasks::yaml::{document_name, FewshotPool, TaskSpec};
pub use order::ChoiceOrder;

/// One scored item.
#[derive(Debug, Clone)]
pub struct ItemResult {
    pub doc_id: u64,
    pub doc: Json,
    pub context: String,
    /// A multiple-input task's context for each choice (`context` is what they share) and the
    /// target text scored after each.
    pub multiple_input: Option<MultipleInput>,
    pub choices: Vec<String>,
    pub continuations: Vec<String>,
    pub loglikelihoods: Vec<f64>,
    pub is_greedy: Vec<bool>,
    pub token_counts: Vec<usize>,
    pub gold: usize,
    pub score: McScore,
    /// With `acc_mutual_info`: each continuation's log-likelihood and is_greedy after an empty
    /// context (lm-eval's unconditional requests).
    pub unconditional: Option<(Vec<f64>, Vec<bool>)>,
    /// The choice-order variant: its index among the item's variants (0 for `given`) and the
    /// permutation (`permutation[i]` = original index of the option shown at position i).
    pub variant: usize,
    pub permutation: Option<Vec<usize>>,
    /// Context tokens left out on the left to fit the model's `max_length` (the most over the
    /// continuations; see `engine`); 0 when everything fit.
    pub truncated: usize,
}

#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Score a seeded random sample of the documents instead of all (before `limit`).
    pub sample: Option<Sample>,
    /// Score at most this many documents (in order).
    pub limit: Option<usize>,
    /// Few-shot examples per prompt; the task's `num_fewshot` when `None`.
    pub shots: Option<usize>,
    /// Seed of the few-shot sampler (lm-eval's default is 1234) and of choice-order shuffles.
    pub seed: u64,
    /// The order of each item's options ([`plan`] only; `render` ignores it).
    pub order: ChoiceOrder,
}

/// A seeded random sample of a split's documents: those of Python's
/// `random.Random(seed).sample(range(len(docs)), size)`, kept in the split's order, so that
/// every run of a suite given the same size and seed scores the same documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sample {
    pub size: usize,
    pub seed: u64,
}

impl Sample {
    /// The indices of the documents kept out of `n` (all of them when `size >= n`), ascending.
    pub fn indices(&self, n: usize) -> Vec<usize> {
        PyRandom::sorted_sample(self.seed, n, self.size)
    }

    /// The documents kept, in their order.
    pub fn apply<T>(&self, docs: Vec<T>) -> Vec<T> {
        let mut docs: Vec<Option<T>> = docs.into_iter().map(Some).collect();
        self.indices(docs.len()).into_iter().filter_map(|i| docs[i].take()).collect()
    }
}

/// The documents a run scores: the sample where one is asked for (drawn from the split as read,
/// as the page draws it), then, once the task has prepared them, at most `limit`.
pub fn select_docs<T>(docs: Vec<T>, options: &RunOptions) -> Vec<T> {
    let docs = match options.sample {
        Some(sample) => sample.apply(docs),
        None => docs,
    };
    docs.into_iter().take(options.limit.unwrap_or(usize::MAX)).collect()
}

/// One thing to score: a document in one choice order, rendered.
#[derive(Debug, Clone)]
pub struct Job {
    pub doc_id: u64,
    /// The document as rendered (with its options permuted when the permutation applies before
    /// rendering, see [`order`]).
    pub doc: Json,
    pub rendered: Rendered,
    pub variant: usize,
    /// `None` for the given order.
    pub permutation: Option<Vec<usize>>,
}

/// What scoring a multiple-choice item needs besides the model.
#[derive(Debug, Clone, Copy, Default)]
pub struct ScoreOptions {
    /// Also score each continuation after an empty context, for `acc_mutual_info`.
    pub mutual_info: bool,
}

impl ScoreOptions {
    /// What the task's `metric_list` asks for.
    pub fn for_task(spec: &TaskSpec) -> ScoreOptions {
        ScoreOptions { mutual_info: spec.metrics.iter().any(|m| m.metric == "acc_mutual_info") }
    }
}

/// The metrics a task logs per sample and reports, by `scoring::metrics`: those of its
/// `metric_list` computed for its output type (multiple choice and loglikelihood in lm-eval's
/// order, generation in the list's), or lm-eval's defaults.
pub fn metric_names(spec: &TaskSpec) -> Vec<&'static str> {
    crate::scoring::metrics::for_task(spec.output_type.name(), spec.metrics.iter().map(|m| m.metric.as_str()))
}

/// The documents of a task, rendered: `docs` are the evaluated split, `pool` the few-shot source.
pub fn render(
    spec: &TaskSpec,
    docs: Vec<Json>,
    pool: FewshotPool,
    options: &RunOptions,
) -> Result<(Vec<Json>, Vec<Rendered>)> {
    let renderer = spec.renderer()?;
    let docs = match options.sample {
        Some(sample) => sample.apply(docs),
        None => docs,
    };
    let docs = renderer.prepare_docs(docs)?;
    let pool = renderer.prepare_pool(pool)?;
    let docs: Vec<Json> = docs.into_iter().take(options.limit.unwrap_or(usize::MAX)).collect();
    let rendered = renderer.render_all(&docs, &pool, options.shots, options.seed)?;
    Ok((docs, rendered))
}

/// Every document of a multiple-choice task in every order `options.order` asks for, rendered:
/// documents in order, each document's variants together. With the given order this is
/// [`render`]'s output, one job per document.
pub fn plan(spec: &TaskSpec, docs: Vec<Json>, pool: FewshotPool, options: &RunOptions) -> Result<Vec<Job>> {
    let (docs, rendered) = render(spec, docs, pool.clone(), options)?;
    if options.order == ChoiceOrder::Given {
        return Ok(docs
            .into_iter()
            .zip(rendered)
            .enumerate()
            .map(|(i, (doc, rendered))| Job { doc_id: i as u64, doc, rendered, variant: 0, permutation: None })
            .collect());
    }
    // Permutations per document, drawn in document order from one seeded generator.
    let mut rng = PyRandom::new(options.seed);
    // An error about document `i`, named by the task file and the document.
    let at = |i: usize| move |e: Error| e.context(format!("{}: {}", spec.file, document_name(i as u64)));
    let mut perms: Vec<Vec<Vec<usize>>> = Vec::with_capacity(docs.len());
    let mut shapes: Vec<Option<order::DocOptions>> = Vec::with_capacity(docs.len());
    let mut golds: Vec<usize> = Vec::with_capacity(docs.len());
    for (i, (doc, r)) in docs.iter().zip(&rendered).enumerate() {
        let n = r.choices.as_ref().map_or(0, Vec::len);
        let gold = r.gold_index().map_err(at(i))?;
        perms.push(options.order.permutations(n, gold, &mut rng));
        shapes.push(order::DocOptions::of(doc, n, gold));
        golds.push(gold);
    }
    // Before rendering only when every document can be (one way for the whole run).
    let before_rendering: Option<Vec<order::DocOptions>> = shapes.into_iter().collect();
    let renderer = spec.renderer()?;
    let pool = renderer.prepare_pool(pool)?;
    let variants = perms.iter().map(Vec::len).max().unwrap_or(0);
    let mut by_variant: Vec<Vec<Option<Job>>> = Vec::with_capacity(variants);
    for v in 0..variants {
        let mut jobs: Vec<Option<Job>> = Vec::with_capacity(docs.len());
        if let Some(shapes) = &before_rendering {
            // Each variant is rendered as a run of its own over the documents that have it, with the
            // few-shot sampler seeded as for the given order.
            let mut variant_docs = Vec::new();
            let mut kept = Vec::new();
            for (i, doc) in docs.iter().enumerate() {
                if let Some(p) = perms[i].get(v) {
                    variant_docs.push(shapes[i].permute(doc, p).map_err(at(i))?);
                    kept.push(i);
                }
            }
            let variant_rendered = renderer.render_all(&variant_docs, &pool, options.shots, options.seed)?;
            jobs.resize(docs.len(), None);
            for ((i, doc), rendered) in kept.into_iter().zip(variant_docs).zip(variant_rendered) {
                // The permuted document must render its gold where the permutation put it; a
                // template that reads the gold from elsewhere would make the run's verdicts wrong.
                if Some(rendered.gold_index().map_err(at(i))?) != order::permuted_gold(&perms[i][v], golds[i]) {
                    return Err(at(i)(Error::new(format!(
                        "the choice order {} moved the options but not the gold the template reads",
                        options.order
                    ))));
                }
                jobs[i] =
                    Some(Job { doc_id: i as u64, doc, rendered, variant: v, permutation: Some(perms[i][v].clone()) });
            }
        } else {
            for (i, (doc, r)) in docs.iter().zip(&rendered).enumerate() {
                jobs.push(match perms[i].get(v) {
                    Some(p) => Some(Job {
                        doc_id: i as u64,
                        doc: doc.clone(),
                        rendered: order::permute_rendered(r, p).map_err(at(i))?,
                        variant: v,
                        permutation: Some(p.clone()),
                    }),
                    None => None,
                });
            }
        }
        by_variant.push(jobs);
    }
    let mut out = Vec::new();
    for i in 0..docs.len() {
        for jobs in &mut by_variant {
            if let Some(job) = jobs[i].take() {
                out.push(job);
            }
        }
    }
    Ok(out)
}

/// Whether a choice order can only move the scored options, not the ones a prompt lists: true when
/// the documents were permuted after rendering (see [`order`]) and the first context contains every
/// option text. The CLI warns then.
pub fn order_leaves_prompt_options(jobs: &[Job]) -> bool {
    let Some(first) = jobs.iter().find(|j| j.permutation.is_some()) else { return false };
    let choices = first.rendered.choices.clone().unwrap_or_default();
    if first.rendered.gold_index().is_ok_and(|g| order::DocOptions::of(&first.doc, choices.len(), g).is_some()) {
        return false;
    }
    !choices.is_empty() && choices.iter().all(|c| c.chars().count() > 1 && first.rendered.context.contains(c.as_str()))
}

/// Scores one rendered multiple-choice document.
pub async fn score_item(lm: &LanguageModel, doc_id: u64, doc: Json, rendered: &Rendered) -> Result<ItemResult> {
    score_item_with(lm, doc_id, doc, rendered, ScoreOptions::default()).await
}

/// Scores one job ([`plan`]): [`score_item_with`], with its variant and permutation recorded.
pub async fn score_job(lm: &LanguageModel, job: &Job, options: ScoreOptions) -> Result<ItemResult> {
    let mut r = score_item_with(lm, job.doc_id, job.doc.clone(), &job.rendered, options).await?;
    r.variant = job.variant;
    r.permutation = job.permutation.clone();
    Ok(r)
}

/// Scores one rendered multiple-choice document; with `mutual_info`, also each continuation after
/// an empty context (lm-eval's `("", target_delimiter + choice)` requests) for `acc_mutual_info`.
pub async fn score_item_with(
    lm: &LanguageModel,
    doc_id: u64,
    doc: Json,
    rendered: &Rendered,
    options: ScoreOptions,
) -> Result<ItemResult> {
    let Request::MultipleChoice { continuations, multiple_input } = &rendered.request else {
        return Err(Error::new(format!("{}: only multiple-choice tasks can be run so far", document_name(doc_id))));
    };
    let choices = rendered.choices.clone().unwrap_or_default();
    let gold = rendered.gold_index().map_err(|e| e.context(document_name(doc_id)))?;
    let scores = match multiple_input {
        None => {
            lm.log_likelihoods(&rendered.context, continuations).await.map_err(|e| e.context(document_name(doc_id)))?
        }
        Some(MultipleInput { contexts, .. }) => {
            if options.mutual_info {
                return Err(Error::new(format!(
                    "{}: acc_mutual_info is not supported for a multiple-input task",
                    document_name(doc_id)
                )));
            }
            let mut scores = Vec::with_capacity(contexts.len());
            for (context, continuation) in contexts.iter().zip(continuations) {
                let s = lm.log_likelihoods(context, std::slice::from_ref(continuation)).await;
                scores.extend(s.map_err(|e| e.context(document_name(doc_id)))?);
            }
            scores
        }
    };
    let loglikelihoods: Vec<f64> = scores.iter().map(|s| s.loglikelihood).collect();
    let is_greedy: Vec<bool> = scores.iter().map(|s| s.is_greedy).collect();
    let token_counts: Vec<usize> = scores.iter().map(|s| s.continuation_tokens.len()).collect();
    let unconditional = if options.mutual_info {
        let u = lm
            .log_likelihoods("", continuations)
            .await
            .map_err(|e| e.context(format!("{}: unconditional", document_name(doc_id))))?;
        Some((
            u.iter().map(|s| s.loglikelihood).collect::<Vec<f64>>(),
            u.iter().map(|s| s.is_greedy).collect::<Vec<bool>>(),
        ))
    } else {
        None
    };
    let score = ChoiceScores {
        choices: &choices,
        loglikelihoods: &loglikelihoods,
        is_greedy: &is_greedy,
        token_counts: Some(&token_counts),
        unconditional: unconditional.as_ref().map(|(u, _)| u.as_slice()),
    }
    .score(&[gold])
    .map_err(|e| e.context(document_name(doc_id)))?;
    Ok(ItemResult {
        doc_id,
        doc,
        context: rendered.context.clone(),
        multiple_input: multiple_input.clone(),
        choices,
        continuations: continuations.clone(),
        loglikelihoods,
        is_greedy,
        token_counts,
        gold,
        score,
        unconditional,
        variant: 0,
        permutation: None,
        truncated: scores.iter().map(|s| s.truncated).max().unwrap_or(0),
    })
}

impl ItemResult {
    /// The item's line in lm-evaluation-harness's samples JSONL (the CLI's log; the page's export):
    /// the document with its fields in `columns` order (the data file's; others after), the
    /// unconditional requests when scored with PMI, and the choice-order variant when there is one.
    pub fn sample_record(&self, metrics: &[&str], columns: &[String]) -> Result<crate::scoring::outputs::SampleRecord> {
        use crate::scoring::outputs::{McSample, SampleRecord};
        use crate::scoring::pyjson::PyJson;
        let mut record = SampleRecord::multiple_choice(
            McSample {
                doc_id: self.doc_id,
                doc: PyJson::from_serde_ordered(&self.doc, columns),
                // lm-eval logs str(doc_to_target(doc)): the gold index, or a multiple-input task's text.
                target: self.multiple_input.as_ref().map_or_else(|| self.gold.to_string(), |m| m.target.clone()),
                context: &self.context,
                contexts: self.multiple_input.as_ref().map(|m| m.contexts.as_slice()),
                continuations: &self.continuations,
                loglikelihoods: &self.loglikelihoods,
                is_greedy: &self.is_greedy,
                unconditional: self.unconditional.as_ref().map(|(u, g)| (u.as_slice(), g.as_slice())),
            },
            &self.score,
            metrics,
        )?;
        if self.multiple_input.is_some() {
            // Its `target` is text: the gold index is kept beside it, so the run can be read back.
            record.extra.push(("gold".into(), PyJson::Int(self.gold as i64)));
        }
        if let Some(p) = &self.permutation {
            record.extra.push(("variant".into(), PyJson::Int(self.variant as i64)));
            record.extra.push(("permutation".into(), PyJson::List(p.iter().map(|&i| PyJson::Int(i as i64)).collect())));
        }
        Ok(record)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::yaml::{load_task, LoadOptions};
    use serde_json::json;

    /// ProverbEval's meaning task as published: the prompt lists the columns `A`–`D`, the scored
    /// options are those texts, the gold is the letter in `Answer_Letter`.
    fn proverb_shaped() -> (TaskSpec, Vec<Json>) {
        let text = "task: p\ndataset_path: csv\noutput_type: multiple_choice\n\
                    doc_to_text: \"Proverb: {{Proverb}}\\nA: {{A}}\\nB: {{B}}\\nC: {{C}}\\nD: {{D}}\\nAnswer:\"\n\
                    doc_to_choice: \"{{[A, B, C, D]}}\"\n\
                    doc_to_target: \"{{['A', 'B', 'C', 'D'].index(Answer_Letter)}}\"\n";
        let files = move |p: &str| Ok((p == "p.yaml").then(|| text.to_string()));
        let spec = load_task("p.yaml", &files, &LoadOptions::default()).unwrap();
        let docs = vec![
            json!({"Proverb": "one", "A": "a1", "B": "gold1", "C": "c1", "D": "d1", "Answer_Letter": "B"}),
            json!({"Proverb": "two", "A": "a2", "B": "b2", "C": "c2", "D": "gold2", "Answer_Letter": "D"}),
        ];
        (spec, docs)
    }

    fn listed(context: &str) -> Vec<String> {
        ["A: ", "B: ", "C: ", "D: "]
            .iter()
            .map(|l| context.lines().find_map(|line| line.strip_prefix(l)).unwrap().to_string())
            .collect()
    }

    #[test]
    fn a_choice_order_moves_the_options_a_letter_column_prompt_lists_with_the_scored_ones() {
        let (spec, docs) = proverb_shaped();
        for (order, position) in [(ChoiceOrder::GoldFirst, 0), (ChoiceOrder::GoldLast, 3)] {
            let options = RunOptions { order, ..Default::default() };
            let jobs = plan(&spec, docs.clone(), FewshotPool::Split(docs.clone()), &options).unwrap();
            assert_eq!(jobs.len(), 2);
            for (job, gold) in jobs.iter().zip(["gold1", "gold2"]) {
                let shown = listed(&job.rendered.context);
                assert_eq!(shown[position], gold, "{order}: {}", job.rendered.context);
                assert_eq!(job.rendered.gold_index().unwrap(), position, "{order}");
                assert_eq!(job.rendered.choices.as_ref().unwrap(), &shown, "{order}: scored as listed");
                assert_eq!(job.doc["Answer_Letter"], json!(["A", "B", "C", "D"][position]));
            }
            assert!(!order_leaves_prompt_options(&jobs));
        }
        // Shuffled: the list and the scored options in the same new order, every text kept once.
        let options = RunOptions { order: ChoiceOrder::Shuffle(3), seed: 1, ..Default::default() };
        let jobs = plan(&spec, docs.clone(), FewshotPool::Split(docs.clone()), &options).unwrap();
        assert_eq!(jobs.len(), 6);
        for job in &jobs {
            let shown = listed(&job.rendered.context);
            assert_eq!(job.rendered.choices.as_ref().unwrap(), &shown);
            let p = job.permutation.as_ref().unwrap();
            let original = &docs[job.doc_id as usize];
            let given: Vec<&str> = ["A", "B", "C", "D"].iter().map(|k| original[k].as_str().unwrap()).collect();
            assert_eq!(shown, p.iter().map(|&i| given[i]).collect::<Vec<_>>());
            assert_eq!(shown[job.rendered.gold_index().unwrap()], ["gold1", "gold2"][job.doc_id as usize]);
        }
    }

    #[test]
    fn a_prompt_that_lists_options_it_does_not_read_from_letter_columns_is_only_warned_about() {
        // The options in a list column: permuted after rendering, the prompt's list stays (the CLI warns).
        let text = "task: q\ndataset_path: json\noutput_type: multiple_choice\n\
                    doc_to_text: \"{{question}} {{opts | join(', ')}}\"\n\
                    doc_to_choice: opts\ndoc_to_target: label\n";
        let files = move |p: &str| Ok((p == "q.yaml").then(|| text.to_string()));
        let spec = load_task("q.yaml", &files, &LoadOptions::default()).unwrap();
        let docs = vec![json!({"question": "q?", "opts": ["xx", "yy", "zz"], "label": 2})];
        let options = RunOptions { order: ChoiceOrder::GoldFirst, ..Default::default() };
        let jobs = plan(&spec, docs.clone(), FewshotPool::Split(docs), &options).unwrap();
        assert_eq!(jobs[0].rendered.context, "q? xx, yy, zz");
        assert_eq!(jobs[0].rendered.choices.as_ref().unwrap(), &["zz", "xx", "yy"]);
        assert!(order_leaves_prompt_options(&jobs));
    }

    #[test]
    fn a_sample_keeps_pythons_draw_in_the_splits_order_then_the_limit() {
        // python3 -c "import random; print(sorted(random.Random(1234).sample(range(10), 3)))" -> [0, 1, 7]
        let sample = Sample { size: 3, seed: 1234 };
        assert_eq!(sample.indices(10), vec![0, 1, 7]);
        let docs: Vec<usize> = (100..110).collect();
        let options = RunOptions { sample: Some(sample), ..Default::default() };
        assert_eq!(select_docs(docs.clone(), &options), vec![100, 101, 107]);
        let limited = RunOptions { sample: Some(sample), limit: Some(2), ..Default::default() };
        assert_eq!(select_docs(docs.clone(), &limited), vec![100, 101]);
        // A sample as large as the split keeps it whole; no sample, only the limit.
        assert_eq!(Sample { size: 99, seed: 1 }.indices(4), vec![0, 1, 2, 3]);
        assert_eq!(select_docs(docs, &RunOptions { limit: Some(1), ..Default::default() }), vec![100]);
    }
}
