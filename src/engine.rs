//! What the evaluator asks of a model: the log-likelihood of continuations after a context, with
//! lm-evaluation-harness's exact tokenization rule, on any backend.
//!
//! lm-eval 0.4's `HFLM._encode_pair` (the rule copied here, quirks included):
//! 1. trailing whitespace of the context moves to the front of the continuation;
//! 2. `whole = encode(context + continuation)`, `ctx = encode(context)`, both with the tokenizer's
//!    default special tokens (BOS where the tokenizer adds one);
//! 3. the continuation's tokens are `whole[len(ctx)..]` — so when a token spans the boundary
//!    ("19" + "84" → "198" "4"), the context keeps its own split and only the tail is scored;
//! 4. the model reads `(ctx + cont)[..-1]`; the log-probabilities (log-softmax in f32) of the last
//!    `len(cont)` positions are summed, and `is_greedy` says whether each was the argmax.
//!
//! An empty context is replaced by the BOS token (lm-eval's prefix token).

use serde::{Deserialize, Serialize};

use crate::backend::ComputeDevice;
use crate::error::{Error, Result};
use crate::models::config::ModelConfig;
use crate::models::{KvCache, Model};
use crate::scoring::py_rstrip;
use crate::tokenizers::Tokenizer;

pub struct LanguageModel {
    pub model: Model,
    pub tokenizer: Tokenizer,
    pub config: ModelConfig,
}

/// One continuation's score.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ContinuationScore {
    pub continuation: String,
    pub loglikelihood: f64,
    pub is_greedy: bool,
    pub context_tokens: Vec<u32>,
    pub continuation_tokens: Vec<u32>,
}

/// lm-eval's context/continuation split (steps 1–3 above): (context tokens, continuation tokens).
pub fn encode_pair(tokenizer: &Tokenizer, context: &str, continuation: &str) -> Result<(Vec<u32>, Vec<u32>)> {
    if context.is_empty() {
        let cont = tokenizer.encode(continuation, false, true);
        let bos = tokenizer
            .bos_id()
            .ok_or_else(|| Error::new("an empty context needs a BOS token, and this tokenizer has none"))?;
        return Ok((vec![bos], cont));
    }
    let kept = py_rstrip(context);
    let (context, continuation) = (kept, format!("{}{continuation}", &context[kept.len()..]));
    let whole = tokenizer.encode(&format!("{context}{continuation}"), true, true);
    let ctx = tokenizer.encode(context, true, true);
    let cont = whole.get(ctx.len()..).unwrap_or_default().to_vec();
    Ok((ctx, cont))
}

impl LanguageModel {
    /// Log-likelihood and greediness of each continuation after `context`. The context is run
    /// once; each continuation continues from its KV cache.
    pub async fn log_likelihoods(&self, context: &str, continuations: &[String]) -> Result<Vec<ContinuationScore>> {
        let pairs = continuations
            .iter()
            .map(|c| encode_pair(&self.tokenizer, context, c))
            .collect::<Result<Vec<_>>>()?;
        if let Some(i) = pairs.iter().position(|(_, cont)| cont.is_empty()) {
            return Err(Error::new(format!("continuation {:?} adds no token after the context", continuations[i])));
        }
        // lm-eval encodes the context the same way for every continuation (it does not depend on it).
        let ctx = &pairs[0].0;
        let mut cache = KvCache::new();
        let last_context_logits = self.model.logits_cached(ctx, &mut cache, 1).await?;

        let mut scores = Vec::with_capacity(continuations.len());
        for (continuation, (ctx, cont)) in continuations.iter().zip(&pairs) {
            // The model reads ctx + cont[..-1]: the last context position predicts cont[0], and
            // continuation position j predicts cont[j + 1].
            let mut rows = vec![last_context_logits.clone()];
            if cont.len() > 1 {
                let after = self.model.logits_cached(&cont[..cont.len() - 1], &mut cache.clone(), cont.len() - 1).await?;
                let vocab = after.len() / (cont.len() - 1);
                rows.extend(after.chunks(vocab).map(<[f32]>::to_vec));
            }
            let (mut total, mut greedy) = (0f64, true);
            for (row, &target) in rows.iter().zip(cont) {
                let (lp, is_max) = log_prob(row, target as usize).ok_or_else(|| {
                    Error::new(format!("token {target} is outside the model's vocabulary ({})", self.config.vocab_size))
                })?;
                total += lp as f64;
                greedy &= is_max;
            }
            scores.push(ContinuationScore {
                continuation: continuation.clone(),
                loglikelihood: total,
                is_greedy: greedy,
                context_tokens: ctx.clone(),
                continuation_tokens: cont.clone(),
            });
        }
        Ok(scores)
    }
}

/// log-softmax of `row` at `target` (in f32, as torch computes it), and whether `target` is the
/// first maximum (torch's argmax).
fn log_prob(row: &[f32], target: usize) -> Option<(f32, bool)> {
    let value = *row.get(target)?;
    let (argmax, max) = row.iter().enumerate().fold((0, f32::NEG_INFINITY), |best, (i, &v)| if v > best.1 { (i, v) } else { best });
    let sum: f32 = row.iter().map(|&v| (v - max).exp()).sum();
    Some((value - max - sum.ln(), argmax == target))
}

/// A model and its tokenizer from a GGUF file in any byte source (a `Blob` in the browser).
pub async fn load_gguf<S: crate::formats::source::ByteSource>(source: S, compute: &ComputeDevice) -> Result<LanguageModel> {
    let name = source.name().to_string();
    let header = crate::formats::gguf::GgufFile::read(&source).await?;
    let tokenizer = Tokenizer::from_gguf(&header).map_err(|e| e.context(&name))?;
    let (model, config) = Model::from_gguf(source, compute).await?;
    checked(LanguageModel { model, tokenizer, config }, &name)
}

/// A tokenizer that can produce ids the embedding does not have is refused at load, not at a
/// lookup in the middle of a run.
fn checked(lm: LanguageModel, name: &str) -> Result<LanguageModel> {
    if lm.tokenizer.vocab_size() > lm.config.vocab_size {
        return Err(Error::new(format!(
            "{name}: the tokenizer has {} tokens but the model only {} embeddings",
            lm.tokenizer.vocab_size(),
            lm.config.vocab_size
        )));
    }
    Ok(lm)
}

/// Loading a model and its tokenizer from a path: a GGUF file or a Hugging Face folder.
#[cfg(not(target_arch = "wasm32"))]
pub async fn load(path: &std::path::Path, compute: &ComputeDevice) -> Result<LanguageModel> {
    use crate::formats::source::FileSource;
    if path.is_dir() {
        let read = |name: &str| std::fs::read_to_string(path.join(name)).map_err(|e| Error::new(format!("{}: {e}", path.join(name).display())));
        let tokenizer = Tokenizer::from_hf_json(&read("tokenizer.json")?, read("tokenizer_config.json").ok().as_deref())
            .map_err(|e| e.context(path.join("tokenizer.json").display()))?;
        let (model, config) = Model::from_hf_folder(path, compute).await?;
        checked(LanguageModel { model, tokenizer, config }, &path.display().to_string())
    } else {
        load_gguf(FileSource::open(path)?, compute).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_prob_is_a_log_softmax() {
        let (lp, greedy) = log_prob(&[0.0, 0.0], 1).unwrap();
        assert!((lp - 0.5f32.ln()).abs() < 1e-7);
        assert!(!greedy, "ties go to the first index, as torch.argmax");
        let (lp, greedy) = log_prob(&[1000.0, 0.0], 0).unwrap();
        assert!(lp.abs() < 1e-6 && greedy);
        assert!(log_prob(&[0.0], 3).is_none());
    }
}
