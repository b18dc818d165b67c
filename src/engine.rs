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
//!
//! [`LanguageModel::generate`] is lm-eval's `generate_until` with the HF backend, greedy: the
//! prompt is encoded with the tokenizer's default special tokens, tokens are chosen by argmax one at
//! a time (each step runs one token through the KV cache), and generation stops at an EOS token,
//! after `max_tokens`, or once the decoded text contains a stop string. The text is the decoded
//! tokens without special tokens (`skip_special_tokens=True`), cut before the first stop string
//! (lm-eval's `s.split(term)[0]` for each term of `until`).

use serde::{Deserialize, Serialize};

#[cfg(feature = "engine")]
use crate::backend::ComputeDevice;
use crate::error::{Error, Result};
#[cfg(feature = "engine")]
use crate::models::config::ModelConfig;
#[cfg(feature = "engine")]
use crate::models::{KvCache, Model};
use crate::scoring::py_rstrip;
use crate::tokenizers::Tokenizer;

#[cfg(feature = "engine")]
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
    /// Context tokens left out on the left because context and continuation were longer than the
    /// model's `max_length` (lm-eval's truncation); 0 when everything fit.
    #[serde(default)]
    pub truncated: usize,
}

/// Why generation ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The decoded text contains this stop string (the earliest one in the text).
    Until(String),
    /// The model produced an end-of-generation token (the last of `tokens`).
    Eos,
    /// `max_tokens` were generated.
    MaxTokens,
}

/// What [`LanguageModel::generate`] produced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Generation {
    /// The generated text, cut before the first stop string.
    pub text: String,
    /// The prompt's tokens, special tokens included.
    pub prompt_tokens: Vec<u32>,
    /// Every generated token, the EOS token or the stop string's tokens included.
    pub tokens: Vec<u32>,
    pub stop: StopReason,
    /// Prompt tokens left out on the left so that prompt and generation fit the model's
    /// `max_length` (lm-eval's truncation); 0 when the prompt fit.
    #[serde(default)]
    pub truncated: usize,
}

/// `text` cut before the earliest occurrence of any non-empty stop string (lm-eval applies
/// `s = s.split(term)[0]` for each term in turn, which comes to the same), and which one it was.
pub fn cut_at_stop<'a>(text: &'a str, until: &[String]) -> (&'a str, Option<String>) {
    let first = until
        .iter()
        .filter(|t| !t.is_empty())
        .filter_map(|t| text.find(t.as_str()).map(|at| (at, t)))
        .min_by_key(|(at, _)| *at);
    match first {
        Some((at, term)) => (&text[..at], Some(term.clone())),
        None => (text, None),
    }
}

/// lm-eval's context/continuation split (steps 1–3 above): (context tokens, continuation tokens).
pub fn encode_pair(tokenizer: &Tokenizer, context: &str, continuation: &str) -> Result<(Vec<u32>, Vec<u32>)> {
    encode_pairs(tokenizer, context, &[continuation]).map(|mut pairs| pairs.remove(0))
}

/// [`encode_pair`] for each continuation of one context, which is encoded once.
pub fn encode_pairs(
    tokenizer: &Tokenizer,
    context: &str,
    continuations: &[impl AsRef<str>],
) -> Result<Vec<(Vec<u32>, Vec<u32>)>> {
    if context.is_empty() {
        let bos = tokenizer
            .bos_id()
            .ok_or_else(|| Error::new("an empty context needs a BOS token, and this tokenizer has none"))?;
        return Ok(continuations.iter().map(|c| (vec![bos], tokenizer.encode(c.as_ref(), false, true))).collect());
    }
    let kept = py_rstrip(context);
    let moved = &context[kept.len()..];
    let ctx = tokenizer.encode(kept, true, true);
    Ok(continuations
        .iter()
        .map(|c| {
            let whole = tokenizer.encode(&format!("{kept}{moved}{}", c.as_ref()), true, true);
            (ctx.clone(), whole.get(ctx.len()..).unwrap_or_default().to_vec())
        })
        .collect())
}

#[cfg(feature = "engine")]
impl LanguageModel {
    /// Log-likelihood and greediness of each continuation after `context`. The context is run
    /// once; the continuations then run together in one pass, each continuing its KV cache.
    pub async fn log_likelihoods(&self, context: &str, continuations: &[String]) -> Result<Vec<ContinuationScore>> {
        let pairs = encode_pairs(&self.tokenizer, context, continuations)?;
        if let Some(i) = pairs.iter().position(|(_, cont)| cont.is_empty()) {
            return Err(Error::new(format!("continuation {:?} adds no token after the context", continuations[i])));
        }
        // lm-eval reads at most `max_length` tokens: `(context + continuation)[-(max_length + 1):][:-1]`.
        let max_length = self.config.max_length();
        if pairs.iter().any(|(ctx, cont)| ctx.len() + cont.len() - 1 > max_length) {
            return self.log_likelihoods_truncated(continuations, pairs, max_length).await;
        }
        // lm-eval encodes the context the same way for every continuation (it does not depend on it).
        let ctx = &pairs[0].0;
        let mut cache = KvCache::new();
        let last_context_logits = self.model.logits_cached(ctx, &mut cache, 1).await?;

        // Every continuation's tokens but its last, packed into one pass over the shared cache.
        let heads: Vec<&[u32]> = pairs.iter().map(|(_, cont)| &cont[..cont.len() - 1]).collect();
        let after = self.model.logits_packed(&heads, &cache).await?;

        let mut scores = Vec::with_capacity(continuations.len());
        for ((continuation, (ctx, cont)), after) in continuations.iter().zip(&pairs).zip(after) {
            // The model reads ctx + cont[..-1]: the last context position predicts cont[0], and
            // continuation position j predicts cont[j + 1].
            let rows = std::iter::once(last_context_logits.as_slice()).chain(after.chunks(last_context_logits.len()));
            let (loglikelihood, is_greedy) = self.score_rows(rows, cont)?;
            scores.push(ContinuationScore {
                continuation: continuation.clone(),
                loglikelihood,
                is_greedy,
                context_tokens: ctx.clone(),
                continuation_tokens: cont.clone(),
                truncated: 0,
            });
        }
        Ok(scores)
    }

    /// lm-eval's rule when context and continuation do not fit `max_length`: each continuation
    /// reads the last `max_length` tokens of `context + continuation` but the final one, so the
    /// context is cut on the left, by a different amount for each continuation (no shared cache).
    async fn log_likelihoods_truncated(
        &self,
        continuations: &[String],
        pairs: Vec<(Vec<u32>, Vec<u32>)>,
        max_length: usize,
    ) -> Result<Vec<ContinuationScore>> {
        let mut scores = Vec::with_capacity(continuations.len());
        for (continuation, (ctx, cont)) in continuations.iter().zip(pairs) {
            if cont.len() > max_length {
                return Err(Error::new(format!(
                    "continuation {continuation:?} is {} tokens long, more than the model's max_length ({max_length})",
                    cont.len()
                )));
            }
            let whole: Vec<u32> = ctx.iter().chain(&cont).copied().collect();
            let read = &whole[..whole.len() - 1];
            let truncated = read.len().saturating_sub(max_length);
            let input = &read[truncated..];
            let logits = self.model.logits_last(input, cont.len()).await?;
            let (loglikelihood, is_greedy) = self.score_rows(logits.chunks(logits.len() / cont.len()), &cont)?;
            scores.push(ContinuationScore {
                continuation: continuation.clone(),
                loglikelihood,
                is_greedy,
                context_tokens: ctx,
                continuation_tokens: cont,
                truncated,
            });
        }
        Ok(scores)
    }

    /// The summed log-probability of `targets`, row `j` predicting `targets[j]`, and whether each
    /// was the argmax.
    fn score_rows<'a>(&self, rows: impl IntoIterator<Item = &'a [f32]>, targets: &[u32]) -> Result<(f64, bool)> {
        let (mut total, mut greedy) = (0f64, true);
        for (row, &target) in rows.into_iter().zip(targets) {
            let (lp, is_max) = log_prob(row, target as usize).ok_or_else(|| {
                Error::new(format!("token {target} is outside the model's vocabulary ({})", self.config.vocab_size))
            })?;
            total += lp as f64;
            greedy &= is_max;
        }
        Ok((total, greedy))
    }
}

#[cfg(feature = "engine")]
impl LanguageModel {
    /// Greedy generation after `prompt` until a stop string, an EOS token or `max_tokens` (see
    /// the module docs for lm-eval's rules).
    ///
    /// As lm-eval's HF backend, prompt and generation share the model's `max_length`: at most
    /// `max_length - 1` tokens are generated, and the prompt keeps its last
    /// `max_length - max_tokens` tokens (cut on the left).
    pub async fn generate(&self, prompt: &str, until: &[String], max_tokens: usize) -> Result<Generation> {
        self.generate_streaming(prompt, until, max_tokens, &mut |_| {}).await
    }

    /// [`generate`](Self::generate), telling `on_text` the text generated so far after every
    /// token (the page shows it growing).
    pub async fn generate_streaming(
        &self,
        prompt: &str,
        until: &[String],
        max_tokens: usize,
        on_text: &mut dyn FnMut(&str),
    ) -> Result<Generation> {
        let tokens = self.tokenizer.encode(prompt, true, true);
        let max_length = self.config.max_length();
        let max_tokens = max_tokens.min(max_length - 1);
        let keep = max_length - max_tokens;
        let truncated = tokens.len().saturating_sub(keep);
        let mut generation = self
            .generate_tokens_with(&tokens[truncated..], until, max_tokens, &self.tokenizer.eos_ids(), on_text)
            .await?;
        generation.truncated = truncated;
        Ok(generation)
    }

    /// [`generate`](Self::generate) from prompt tokens, with the end-of-generation ids given.
    pub async fn generate_tokens(
        &self,
        prompt: &[u32],
        until: &[String],
        max_tokens: usize,
        eos: &[u32],
    ) -> Result<Generation> {
        self.generate_tokens_with(prompt, until, max_tokens, eos, &mut |_| {}).await
    }

    async fn generate_tokens_with(
        &self,
        prompt: &[u32],
        until: &[String],
        max_tokens: usize,
        eos: &[u32],
        on_text: &mut dyn FnMut(&str),
    ) -> Result<Generation> {
        if prompt.is_empty() {
            return Err(Error::new("cannot generate after an empty prompt (the tokenizer adds no BOS token)"));
        }
        let mut cache = KvCache::new();
        let mut tokens: Vec<u32> = Vec::new();
        let mut stop = StopReason::MaxTokens;
        let mut step_input = prompt.to_vec();
        while tokens.len() < max_tokens {
            let logits = self.model.logits_cached(&step_input, &mut cache, 1).await?;
            let next = argmax(&logits) as u32;
            tokens.push(next);
            if eos.contains(&next) {
                stop = StopReason::Eos;
                break;
            }
            let text = self.decode_generated(&tokens);
            let (shown, term) = cut_at_stop(&text, until);
            on_text(shown);
            if let Some(term) = term {
                stop = StopReason::Until(term);
                break;
            }
            step_input = vec![next];
        }
        let text = self.decode_generated(&tokens);
        let text = cut_at_stop(&text, until).0.to_string();
        Ok(Generation { text, prompt_tokens: prompt.to_vec(), tokens, stop, truncated: 0 })
    }

    /// Decode speed as `lingualens bench` and the browser bench measure it: `steps` greedy tokens
    /// after `prompt`, never stopping, and tokens/s over the steps after the first (the first runs
    /// the prompt). What every generation task does per token, without the text.
    pub async fn greedy_decode(&self, prompt: &[u32], steps: usize) -> Result<(Vec<u32>, f64)> {
        if prompt.is_empty() || steps < 2 {
            return Err(Error::new(format!(
                "decode needs a prompt and at least 2 steps (got {} tokens, {steps} steps)",
                prompt.len()
            )));
        }
        // Refused before the first step, not after thousands of them.
        let positions = prompt.len().saturating_add(steps - 1);
        if positions > crate::models::MAX_POSITIONS {
            return Err(Error::new(format!(
                "a decode of {steps} steps after {} tokens needs {positions} positions; lingualens runs at most {}",
                prompt.len(),
                crate::models::MAX_POSITIONS
            )));
        }
        let mut cache = KvCache::new();
        let mut tokens = vec![argmax(&self.model.logits_cached(prompt, &mut cache, 1).await?) as u32];
        let start = web_time::Instant::now();
        while tokens.len() < steps {
            let last = tokens[tokens.len() - 1];
            tokens.push(argmax(&self.model.logits_cached(&[last], &mut cache, 1).await?) as u32);
        }
        Ok((tokens, (steps - 1) as f64 / start.elapsed().as_secs_f64()))
    }

    /// The text of generated tokens without the special (control) ones, as HF's
    /// `decode(…, skip_special_tokens=True)` that lm-eval uses.
    pub fn decode_generated(&self, tokens: &[u32]) -> String {
        let kept: Vec<u32> = tokens
            .iter()
            .copied()
            .filter(|&t| self.tokenizer.token_kind(t) != Some(crate::tokenizers::TokenKind::Control))
            .collect();
        self.tokenizer.decode(&kept)
    }
}

/// The index of the first maximum (torch's argmax).
#[cfg(feature = "engine")]
pub(crate) fn argmax(row: &[f32]) -> usize {
    row.iter().enumerate().fold((0, f32::NEG_INFINITY), |best, (i, &v)| if v > best.1 { (i, v) } else { best }).0
}

/// log-softmax of `row` at `target` (in f32, as torch computes it), and whether `target` is the
/// first maximum (torch's argmax).
#[cfg(feature = "engine")]
fn log_prob(row: &[f32], target: usize) -> Option<(f32, bool)> {
    let value = *row.get(target)?;
    let (argmax, max) =
        row.iter().enumerate().fold((0, f32::NEG_INFINITY), |best, (i, &v)| if v > best.1 { (i, v) } else { best });
    let sum: f32 = row.iter().map(|&v| (v - max).exp()).sum();
    Some((value - max - sum.ln(), argmax == target))
}

/// A model and its tokenizer from a GGUF file in any byte source (a `Blob` in the browser).
#[cfg(feature = "engine")]
pub async fn load_gguf<S: crate::formats::source::ByteSource>(
    source: S,
    compute: &ComputeDevice,
) -> Result<LanguageModel> {
    let name = source.name().to_string();
    let header = crate::formats::gguf::GgufFile::read(&source).await?;
    let tokenizer = Tokenizer::from_gguf(&header).map_err(|e| e.context(&name))?;
    let (model, config) = Model::from_gguf(source, compute).await?;
    checked(LanguageModel { model, tokenizer, config }, &name)
}

/// A tokenizer that can produce ids the embedding does not have is refused at load, not at a
/// lookup in the middle of a run.
#[cfg(feature = "engine")]
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

/// A model and its tokenizer from a Hugging Face folder's files in any byte source: the text of
/// config.json, tokenizer.json and tokenizer_config.json (if any), and the weights (one
/// model.safetensors or shards: `SafetensorsShards`). `name` (the folder) is for messages.
#[cfg(feature = "engine")]
pub async fn load_hf<S: crate::formats::source::ByteSource>(
    name: &str,
    config_json: &str,
    tokenizer_json: &str,
    tokenizer_config_json: Option<&str>,
    weights: crate::formats::safetensors::SafetensorsShards<S>,
    compute: &ComputeDevice,
) -> Result<LanguageModel> {
    let tokenizer = Tokenizer::from_hf_json(tokenizer_json, tokenizer_config_json)
        .map_err(|e| e.context(format!("{name}/tokenizer.json")))?;
    let (model, config) = Model::from_safetensors(config_json, weights, compute).await?;
    checked(LanguageModel { model, tokenizer, config }, name)
}

/// The files a Hugging Face model folder must have, for messages.
const HF_FOLDER_NEEDS: &str =
    "config.json, tokenizer.json and model.safetensors (or model.safetensors.index.json and its shards)";

/// A Hugging Face folder given as named files, its config.json read and its safetensors headers
/// parsed (no weight read yet): what the fit check needs. The tokenizer files stay unread until
/// the load, since a tokenizer.json can be tens of MB.
pub struct HfFolderFiles<S> {
    pub config: String,
    pub tokenizer: S,
    pub tokenizer_config: Option<S>,
    pub weights: crate::formats::safetensors::SafetensorsShards<S>,
}

/// A Hugging Face folder given as named files (what the page gets from a folder picker, a
/// multiple-file picker or a drop): config.json, tokenizer.json, tokenizer_config.json if there is
/// one, and model.safetensors or model.safetensors.index.json with its shards, each found by its
/// file name. Other files (generation_config.json, a README, …) are ignored. Only config.json and
/// the index are read whole, and the safetensors headers. `folder` names the folder in messages; a
/// missing file is named with what the folder needs.
pub async fn open_hf_files<S: crate::formats::source::ByteSource>(
    folder: &str,
    files: Vec<(String, S)>,
) -> Result<HfFolderFiles<S>> {
    use crate::formats::safetensors::{SafetensorsShards, INDEX_FILE, SINGLE_FILE};
    let mut by_name: std::collections::BTreeMap<String, S> = std::collections::BTreeMap::new();
    for (name, source) in files {
        let base = crate::formats::source::base_name(&name).to_string();
        if by_name.insert(base.clone(), source).is_some() {
            return Err(Error::new(format!("{folder}: two files are named {base}")));
        }
    }
    let given = || by_name.keys().cloned().collect::<Vec<_>>().join(", ");
    let missing = |name: &str| {
        Error::new(format!(
            "{folder}: {name} is missing (a Hugging Face model folder needs {HF_FOLDER_NEEDS}; given: {})",
            given()
        ))
    };
    for needed in ["config.json", "tokenizer.json"] {
        if !by_name.contains_key(needed) {
            return Err(missing(needed));
        }
    }
    if !by_name.contains_key(SINGLE_FILE) && !by_name.contains_key(INDEX_FILE) {
        return Err(missing(SINGLE_FILE));
    }
    let (Some(config), Some(tokenizer)) = (by_name.remove("config.json"), by_name.remove("tokenizer.json")) else {
        return Err(Error::new(format!("{folder}: config.json or tokenizer.json is missing")));
        // checked above
    };
    let config = read_text(folder, "config.json", &config).await?;
    let tokenizer_config = by_name.remove("tokenizer_config.json");
    let index = match by_name.get(INDEX_FILE) {
        Some(source) => Some(read_text(folder, INDEX_FILE, source).await?),
        None => None,
    };
    let weights = match (by_name.remove(SINGLE_FILE), index) {
        (Some(single), _) => SafetensorsShards::single(single).await?,
        (None, Some(index)) => {
            SafetensorsShards::from_index(&format!("{folder}/{INDEX_FILE}"), &index, by_name.into_iter().collect())
                .await?
        }
        (None, None) => return Err(Error::new(format!("{folder}: {SINGLE_FILE} is missing"))),
    };
    Ok(HfFolderFiles { config, tokenizer, tokenizer_config, weights })
}

/// `source` read whole as UTF-8 text; `folder/name` in messages.
async fn read_text<S: crate::formats::source::ByteSource>(folder: &str, name: &str, source: &S) -> Result<String> {
    let len = usize::try_from(source.len()).map_err(|_| Error::new(format!("{folder}/{name}: too large")))?;
    let bytes = source.read_at(0, len).await.map_err(|e| e.context(format!("{folder}/{name}")))?;
    String::from_utf8(bytes).map_err(|_| Error::new(format!("{folder}/{name}: not UTF-8 text")))
}

/// A model from a Hugging Face folder given as named files ([`open_hf_files`]); the weights are
/// read tensor by tensor from their sources.
#[cfg(feature = "engine")]
pub async fn load_hf_files<S: crate::formats::source::ByteSource>(
    folder: &str,
    files: Vec<(String, S)>,
    compute: &ComputeDevice,
) -> Result<LanguageModel> {
    let f = open_hf_files(folder, files).await?;
    let tokenizer = read_text(folder, "tokenizer.json", &f.tokenizer).await?;
    let tokenizer_config = match &f.tokenizer_config {
        Some(source) => Some(read_text(folder, "tokenizer_config.json", source).await?),
        None => None,
    };
    load_hf(folder, &f.config, &tokenizer, tokenizer_config.as_deref(), f.weights, compute).await.map_err(|e| {
        if e.to_string().starts_with("config.json") {
            e.context(folder)
        } else {
            e
        }
    })
}

/// Loading a model and its tokenizer from a path: a GGUF file or a Hugging Face folder (with one
/// model.safetensors, or sharded with model.safetensors.index.json).
#[cfg(all(feature = "engine", not(target_arch = "wasm32")))]
pub async fn load(path: &std::path::Path, compute: &ComputeDevice) -> Result<LanguageModel> {
    use crate::formats::safetensors::SafetensorsShards;
    use crate::formats::source::FileSource;
    if path.is_dir() {
        use crate::formats::source::{limits, read_optional_text_capped, read_text_capped};
        let config = read_text_capped(&path.join("config.json"), limits::TEXT_FILE, "config.json")?;
        let tokenizer = read_text_capped(&path.join("tokenizer.json"), limits::TOKENIZER_FILE, "tokenizer.json")?;
        let tokenizer_config =
            read_optional_text_capped(&path.join("tokenizer_config.json"), limits::TEXT_FILE, "tokenizer_config.json")?;
        let weights = SafetensorsShards::open_folder(path).await?;
        load_hf(&path.display().to_string(), &config, &tokenizer, tokenizer_config.as_deref(), weights, compute).await
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

    /// An incomplete or broken HF folder given as files is refused with the file named.
    #[test]
    fn an_hf_folder_given_as_files_names_what_is_missing_or_broken() {
        use crate::formats::source::MemorySource;
        let device = ComputeDevice::cpu();
        let file =
            |name: &str, text: &str| (format!("my-model/{name}"), MemorySource::new(name, text.as_bytes().to_vec()));
        let load =
            |files: Vec<(String, MemorySource)>| match pollster::block_on(load_hf_files("my-model", files, &device)) {
                Ok(_) => panic!("loaded"),
                Err(e) => e.to_string(),
            };
        let e = load(vec![file("tokenizer.json", "{}"), file("model.safetensors", "")]);
        assert!(
            e.starts_with("my-model: config.json is missing") && e.contains("given: model.safetensors, tokenizer.json"),
            "{e}"
        );
        let e = load(vec![file("config.json", "{}"), file("model.safetensors", "")]);
        assert!(e.starts_with("my-model: tokenizer.json is missing"), "{e}");
        let e =
            load(vec![file("config.json", "{}"), file("tokenizer.json", "{}"), file("generation_config.json", "{}")]);
        assert!(
            e.starts_with("my-model: model.safetensors is missing") && e.contains("model.safetensors.index.json"),
            "{e}"
        );
        let e = load(vec![file("config.json", "{}"), file("tokenizer.json", "{}"), file("config.json", "{}")]);
        assert_eq!(e, "my-model: two files are named config.json");
        // A sharded folder without one of its shards: the index and the shard are named.
        let index = r#"{"metadata": {}, "weight_map": {"a.weight": "model-00001-of-00002.safetensors", "b.weight": "model-00002-of-00002.safetensors"}}"#;
        let header = br#"{"a.weight":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}"#;
        let mut shard = (header.len() as u64).to_le_bytes().to_vec();
        shard.extend_from_slice(header);
        shard.extend_from_slice(&[0; 4]);
        let e = load(vec![
            file("config.json", "{}"),
            file("tokenizer.json", "{}"),
            file("model.safetensors.index.json", index),
            (
                "model-00001-of-00002.safetensors".into(),
                MemorySource::new("model-00001-of-00002.safetensors", shard.clone()),
            ),
        ]);
        assert!(
            e.contains("my-model/model.safetensors.index.json")
                && e.contains("shard model-00002-of-00002.safetensors is missing"),
            "{e}"
        );
        let e = load(vec![
            file("config.json", "{}"),
            file("tokenizer.json", "{}"),
            file("model.safetensors.index.json", "{not json"),
        ]);
        assert!(e.contains("model.safetensors.index.json"), "{e}");
        let single = ("model.safetensors".to_string(), MemorySource::new("model.safetensors", shard.clone()));
        let e = load(vec![file("config.json", "{}"), file("tokenizer.json", "{oops"), single]);
        assert!(e.starts_with("my-model/tokenizer.json"), "{e}");
    }

    #[test]
    fn stop_strings_cut_at_the_earliest() {
        let until = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(cut_at_stop("a cat.\nmore", &until(&["\n", "."])), ("a cat", Some(".".into())));
        assert_eq!(cut_at_stop("a cat\n.", &until(&[".", "\n"])), ("a cat", Some("\n".into())));
        // lm-eval skips empty terms.
        assert_eq!(cut_at_stop("abc", &until(&["", "z"])), ("abc", None));
        assert_eq!(cut_at_stop("Q: x\n\nQ:", &until(&["\n\n"])), ("Q: x", Some("\n\n".into())));
        assert_eq!(argmax(&[1.0, 3.0, 3.0]), 1);
    }
}
