//! The transformer architectures, as burn tensor code that runs on any backend (wgpu or CPU).
//!
//! - [`config`]: one `ModelConfig` from a HF `config.json` or GGUF metadata.
//! - [`weights`]: named tensors from GGUF or safetensors, in one convention.
//! - [`layers`]: Linear, RMSNorm, RoPE and the attention mask; [`attention`] itself.
//! - [`llama`]: Llama 3.x / SmolLM2 / Qwen2 / Qwen3; [`gemma3`]: Gemma 3 text.
//!
//! Quantized GGUF weights stay packed (`quant::QMatrix`): multiplied by `quant::qmatmul` on the
//! CPU backend and by the `gpu` kernel on wgpu. A tensor larger than the adapter's largest storage
//! binding is split by rows (see `layers`).

#[cfg(feature = "engine")]
pub mod attention;
pub mod config;
pub mod fit;
#[cfg(feature = "engine")]
pub mod gemma3;
#[cfg(feature = "engine")]
pub mod host_ops;
#[cfg(feature = "engine")]
pub mod layers;
#[cfg(feature = "engine")]
pub mod llama;
pub mod weights;

// The model itself is burn tensor code: only with the `engine` feature (the page builds without it).
#[cfg(feature = "engine")]
pub use layers::{KvCache, Positions};
#[cfg(feature = "engine")]
use {
    crate::backend::{Activations, ComputeDevice},
    crate::error::{Error, Result},
    crate::formats::gguf::GgufFile,
    crate::formats::safetensors::SafetensorsShards,
    crate::formats::source::ByteSource,
    burn::tensor::{Device, Tensor},
    config::{Architecture, ModelConfig},
    weights::WeightFile,
};

/// The most positions (cached and new) one forward pass may cover. The CPU path and wgpu build an
/// attention mask of `new × (cached + new)` f32 values (256 MiB at this bound); an input longer than
/// the model's context is truncated first, as lm-eval does (`engine`), so only a model with a
/// longer context and an input longer than this meets it.
pub const MAX_POSITIONS: usize = 8192;

#[cfg(feature = "engine")]
pub enum Model {
    Llama(llama::Llama),
    Gemma3(gemma3::Gemma3),
}

#[cfg(feature = "engine")]
impl Model {
    async fn from_weights<S: ByteSource>(w: &WeightFile<S>, cfg: ModelConfig, device: &Device) -> Result<Model> {
        Ok(match cfg.architecture {
            Architecture::Llama | Architecture::Qwen2 | Architecture::Qwen3 => {
                Model::Llama(llama::Llama::load(w, cfg, device).await?)
            }
            Architecture::Gemma3 => Model::Gemma3(gemma3::Gemma3::load(w, cfg, device).await?),
        })
    }

    /// A model from a GGUF file, read tensor by tensor. Quantized weights stay packed.
    pub async fn from_gguf<S: ByteSource>(source: S, compute: &ComputeDevice) -> Result<(Model, ModelConfig)> {
        let file = GgufFile::read(&source).await?;
        let cfg = ModelConfig::from_gguf(&file)?;
        // Quantized weights stay packed on both backends: on the host for the CPU's qmatmul, in
        // device buffers for the wgpu kernel (src/gpu.rs).
        let int8_activations = compute.info.activations == Activations::Int8;
        let w = WeightFile::Gguf { file, source, int8_activations };
        Ok((Self::from_weights(&w, cfg.clone(), &compute.device).await?, cfg))
    }

    /// A model from a HF `config.json` and its safetensors: one `model.safetensors`
    /// ([`SafetensorsShards::single`]) or shards and their index ([`SafetensorsShards::from_index`]).
    pub async fn from_safetensors<S: ByteSource>(
        config_json: &str,
        shards: SafetensorsShards<S>,
        compute: &ComputeDevice,
    ) -> Result<(Model, ModelConfig)> {
        let cfg = ModelConfig::from_hf_json("config.json", config_json)?;
        let w = WeightFile::Safetensors { shards };
        Ok((Self::from_weights(&w, cfg.clone(), &compute.device).await?, cfg))
    }

    /// A HF folder on disk: config.json + model.safetensors, or + model.safetensors.index.json and
    /// its shards.
    #[cfg(not(target_arch = "wasm32"))]
    pub async fn from_hf_folder(dir: &std::path::Path, compute: &ComputeDevice) -> Result<(Model, ModelConfig)> {
        let config_path = dir.join("config.json");
        let config = crate::formats::source::read_text_capped(
            &config_path,
            crate::formats::source::limits::TEXT_FILE,
            "config.json",
        )?;
        Self::from_safetensors(&config, SafetensorsShards::open_folder(dir).await?, compute).await
    }

    /// Logits `[last, vocab]` for the last `last` positions of `tokens`, continuing `cache`.
    pub fn forward(&self, tokens: &[u32], cache: &mut KvCache, last: usize) -> Tensor<2> {
        self.forward_at(tokens, &Positions::after(cache.len(), tokens.len()), cache, last)
    }

    fn forward_at(&self, tokens: &[u32], at: &Positions, cache: &mut KvCache, last: usize) -> Tensor<2> {
        match self {
            Model::Llama(m) => m.forward(tokens, at, cache, last),
            Model::Gemma3(m) => m.forward(tokens, at, cache, last),
        }
    }

    pub fn config(&self) -> &ModelConfig {
        match self {
            Model::Llama(m) => m.config(),
            Model::Gemma3(m) => m.config(),
        }
    }

    /// Every id a row of the embedding, and no more positions in the pass than [`MAX_POSITIONS`]:
    /// checked before a pass, so a bad id or a huge input is an error instead of an out-of-bounds
    /// lookup or an attention mask of terabytes.
    fn check_pass(&self, tokens: &[u32], cached: usize) -> Result<()> {
        let vocab = self.config().vocab_size;
        if let Some(&bad) = tokens.iter().find(|&&t| t as usize >= vocab) {
            return Err(Error::new(format!("token id {bad} is outside the model's vocabulary of {vocab}")));
        }
        let positions = cached.saturating_add(tokens.len());
        if positions > MAX_POSITIONS {
            return Err(Error::new(format!(
                "{positions} tokens in one pass: lingualens runs at most {MAX_POSITIONS} (its attention mask grows with the square)"
            )));
        }
        Ok(())
    }

    /// The logits of every position of each sequence, each continuing `cache` on its own, computed
    /// in one pass (see [`Positions::packed`]): row-major `[len, vocab]` per sequence. This is how
    /// the continuations of one context are scored together.
    pub async fn logits_packed(&self, sequences: &[&[u32]], cache: &KvCache) -> Result<Vec<Vec<f32>>> {
        let lengths: Vec<usize> = sequences.iter().map(|s| s.len()).collect();
        let tokens: Vec<u32> = sequences.concat();
        if tokens.is_empty() {
            return Ok(vec![Vec::new(); sequences.len()]);
        }
        self.check_pass(&tokens, cache.len())?;
        let at = Positions::packed(cache.len(), &lengths);
        let data = self
            .forward_at(&tokens, &at, &mut cache.clone(), tokens.len())
            .into_data_async()
            .await
            .map_err(|e| Error::new(format!("device read failed: {e:?}")))?;
        let all = data.try_into_vec::<f32>().map_err(|e| Error::new(format!("unexpected logits data: {e:?}")))?;
        let vocab = all.len() / tokens.len();
        let mut rows = all.chunks(vocab);
        Ok(lengths.iter().map(|&len| rows.by_ref().take(len).flatten().copied().collect()).collect())
    }

    /// The logits of every position, read back to the host, row-major `[t, vocab]`.
    pub async fn logits(&self, tokens: &[u32]) -> Result<Vec<f32>> {
        self.logits_last(tokens, tokens.len()).await
    }

    /// The logits of the last `last` positions, row-major `[last, vocab]`.
    pub async fn logits_last(&self, tokens: &[u32], last: usize) -> Result<Vec<f32>> {
        self.logits_cached(tokens, &mut KvCache::new(), last).await
    }

    /// Runs `tokens` after the positions in `cache` (which grows by them) and reads back the
    /// logits of the last `last` of them, row-major `[last, vocab]`.
    pub async fn logits_cached(&self, tokens: &[u32], cache: &mut KvCache, last: usize) -> Result<Vec<f32>> {
        if tokens.is_empty() || last == 0 || last > tokens.len() {
            return Err(Error::new(format!("cannot take the last {last} logits of {} tokens", tokens.len())));
        }
        self.check_pass(tokens, cache.len())?;
        let data = self
            .forward(tokens, cache, last)
            .into_data_async()
            .await
            .map_err(|e| Error::new(format!("device read failed: {e:?}")))?;
        data.try_into_vec::<f32>().map_err(|e| Error::new(format!("unexpected logits data: {e:?}")))
    }
}
