//! One model configuration, read from a Hugging Face `config.json` (both the transformers-4 layout
//! that hub checkpoints use and the v5 `rope_parameters` layout) or from GGUF metadata.

use serde::Serialize;
use serde_json::Value;

use crate::error::{Error, Result};
use crate::formats::gguf::GgufFile;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Architecture {
    /// Llama 3.x, SmolLM2.
    Llama,
    /// Qwen2 / Qwen2.5: Llama with q/k/v biases.
    Qwen2,
    /// Qwen3: Llama with per-head RMSNorm on q and k.
    Qwen3,
    /// Gemma 3 (text).
    Gemma3,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum RopeScaling {
    None,
    /// Llama 3.1's frequency-dependent scaling (HF `rope_type: llama3`).
    Llama3 { factor: f64, low_freq_factor: f64, high_freq_factor: f64, original_max_position_embeddings: f64 },
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelConfig {
    pub architecture: Architecture,
    pub vocab_size: usize,
    pub hidden_size: usize,
    pub intermediate_size: usize,
    pub num_layers: usize,
    pub num_heads: usize,
    pub num_kv_heads: usize,
    pub head_dim: usize,
    pub rms_norm_eps: f64,
    pub rope_theta: f64,
    pub rope_scaling: RopeScaling,
    pub tie_word_embeddings: bool,
    /// Gemma 3: which layers use sliding-window attention, the window, and their RoPE base.
    pub sliding_window: Option<usize>,
    pub sliding_layers: Vec<bool>,
    pub rope_local_theta: Option<f64>,
    /// Gemma 3: attention scores are scaled by `query_pre_attn_scalar^-1/2` (head_dim when absent).
    pub query_pre_attn_scalar: Option<f64>,
    pub final_logit_softcapping: Option<f64>,
    pub attn_logit_softcapping: Option<f64>,
}

impl ModelConfig {
    pub fn attention_scale(&self) -> f64 {
        self.query_pre_attn_scalar.unwrap_or(self.head_dim as f64).powf(-0.5)
    }

    /// From `config.json`. `name` is used in messages.
    pub fn from_hf_json(name: &str, text: &str) -> Result<ModelConfig> {
        let cfg: Value = serde_json::from_str(text).map_err(|e| Error::new(format!("{name}: not valid JSON: {e}")))?;
        let field = |key: &str| cfg.get(key).filter(|v| !v.is_null());
        let usize_field = |key: &str| -> Result<usize> {
            field(key)
                .and_then(Value::as_u64)
                .map(|v| v as usize)
                .ok_or_else(|| Error::new(format!("{name}: {key} is missing or not a whole number")))
        };
        let arch_name = field("architectures").and_then(|a| a.get(0)).and_then(Value::as_str).unwrap_or("");
        let architecture = match arch_name {
            "LlamaForCausalLM" | "MistralForCausalLM" => Architecture::Llama,
            "Qwen2ForCausalLM" => Architecture::Qwen2,
            "Qwen3ForCausalLM" => Architecture::Qwen3,
            "Gemma3ForCausalLM" | "Gemma3ForConditionalGeneration" => Architecture::Gemma3,
            other => return Err(Error::new(format!("{name}: architecture {other:?} is not supported (Llama, Qwen2, Qwen3, Gemma3)"))),
        };
        let num_heads = usize_field("num_attention_heads")?;
        let hidden_size = usize_field("hidden_size")?;
        let num_layers = usize_field("num_hidden_layers")?;

        // RoPE: v4 layout (rope_theta, rope_scaling, rope_local_base_freq) or v5 (rope_parameters).
        let (rope, local) = match field("rope_parameters") {
            Some(rp) if rp.get("full_attention").is_some() => (rp["full_attention"].clone(), rp.get("sliding_attention").and_then(|s| s.get("rope_theta")).and_then(Value::as_f64)),
            Some(rp) => (rp.clone(), None),
            None => {
                let mut rp = field("rope_scaling").cloned().unwrap_or(Value::Object(Default::default()));
                if let Value::Object(map) = &mut rp {
                    map.insert("rope_theta".into(), field("rope_theta").cloned().unwrap_or(Value::from(10000.0)));
                }
                (rp, field("rope_local_base_freq").and_then(Value::as_f64))
            }
        };
        let rope_type = rope.get("rope_type").or_else(|| rope.get("type")).and_then(Value::as_str).unwrap_or("default");
        let num = |key: &str, default: f64| rope.get(key).and_then(Value::as_f64).unwrap_or(default);
        let rope_scaling = match rope_type {
            "default" => RopeScaling::None,
            "llama3" => RopeScaling::Llama3 {
                factor: num("factor", 8.0),
                low_freq_factor: num("low_freq_factor", 1.0),
                high_freq_factor: num("high_freq_factor", 4.0),
                original_max_position_embeddings: num("original_max_position_embeddings", 8192.0),
            },
            other => return Err(Error::new(format!("{name}: rope type {other:?} is not supported (default, llama3)"))),
        };

        let sliding_window = field("sliding_window").and_then(Value::as_u64).map(|w| w as usize);
        let sliding_layers = match (architecture, field("layer_types").and_then(Value::as_array)) {
            (Architecture::Gemma3, Some(types)) => types.iter().map(|t| t.as_str() == Some("sliding_attention")).collect(),
            (Architecture::Gemma3, None) => {
                let pattern = field("sliding_window_pattern").and_then(Value::as_u64).unwrap_or(6) as usize;
                (0..num_layers).map(|i| (i + 1) % pattern != 0).collect()
            }
            _ => vec![false; num_layers],
        };
        Ok(ModelConfig {
            architecture,
            vocab_size: usize_field("vocab_size")?,
            hidden_size,
            intermediate_size: usize_field("intermediate_size")?,
            num_layers,
            num_heads,
            num_kv_heads: field("num_key_value_heads").and_then(Value::as_u64).map(|v| v as usize).unwrap_or(num_heads),
            head_dim: field("head_dim").and_then(Value::as_u64).map(|v| v as usize).unwrap_or(hidden_size / num_heads),
            rms_norm_eps: field("rms_norm_eps").and_then(Value::as_f64).unwrap_or(1e-6),
            rope_theta: num("rope_theta", 10000.0),
            rope_scaling,
            tie_word_embeddings: field("tie_word_embeddings").and_then(Value::as_bool).unwrap_or(architecture == Architecture::Gemma3),
            sliding_window: if architecture == Architecture::Gemma3 { sliding_window } else { None },
            sliding_layers,
            rope_local_theta: if architecture == Architecture::Gemma3 { Some(local.unwrap_or(10000.0)) } else { None },
            query_pre_attn_scalar: field("query_pre_attn_scalar").and_then(Value::as_f64),
            final_logit_softcapping: field("final_logit_softcapping").and_then(Value::as_f64),
            attn_logit_softcapping: field("attn_logit_softcapping").and_then(Value::as_f64),
        })
    }

    /// From GGUF metadata (`<arch>.block_count`, …), as llama.cpp reads it.
    pub fn from_gguf(file: &GgufFile) -> Result<ModelConfig> {
        let arch = file.get_str("general.architecture")?.unwrap_or("");
        let architecture = match arch {
            "llama" => Architecture::Llama,
            "qwen2" => Architecture::Qwen2,
            "qwen3" => Architecture::Qwen3,
            "gemma3" => Architecture::Gemma3,
            other => return Err(Error::new(format!("{}: architecture {other:?} is not supported (llama, qwen2, qwen3, gemma3)", file.name))),
        };
        let key = |k: &str| format!("{arch}.{k}");
        let need = |k: &str| -> Result<usize> {
            file.get_u64(&key(k))?
                .map(|v| v as usize)
                .ok_or_else(|| Error::new(format!("{}: metadata key {} is missing", file.name, key(k))))
        };
        let hidden_size = need("embedding_length")?;
        let num_heads = need("attention.head_count")?;
        let num_layers = need("block_count")?;
        let vocab_size = match file.get_u64(&key("vocab_size"))? {
            Some(v) => v as usize,
            None => file
                .get("tokenizer.ggml.tokens")
                .and_then(|v| v.as_array())
                .map(<[_]>::len)
                .or_else(|| file.tensor("token_embd.weight").map(|t| t.dims[1] as usize))
                .ok_or_else(|| Error::new(format!("{}: cannot tell the vocabulary size", file.name)))?,
        };
        let sliding_window = if architecture == Architecture::Gemma3 { file.get_u64(&key("attention.sliding_window"))?.map(|w| w as usize) } else { None };
        let sliding_layers = match file.get(&key("attention.sliding_window_pattern")).and_then(|v| v.as_array()) {
            Some(flags) if architecture == Architecture::Gemma3 => flags.iter().map(|f| f.as_bool().unwrap_or(false)).collect(),
            // llama.cpp's default for Gemma 3: five sliding layers, then one global.
            _ if architecture == Architecture::Gemma3 => (0..num_layers).map(|i| i % 6 < 5).collect(),
            _ => vec![false; num_layers],
        };
        Ok(ModelConfig {
            architecture,
            vocab_size,
            hidden_size,
            intermediate_size: need("feed_forward_length")?,
            num_layers,
            num_heads,
            num_kv_heads: file.get_u64(&key("attention.head_count_kv"))?.map(|v| v as usize).unwrap_or(num_heads),
            head_dim: file.get_u64(&key("attention.key_length"))?.map(|v| v as usize).unwrap_or(hidden_size / num_heads),
            rms_norm_eps: file.get_f64(&key("attention.layer_norm_rms_epsilon"))?.unwrap_or(1e-6),
            rope_theta: file.get_f64(&key("rope.freq_base"))?.unwrap_or(10000.0),
            // Llama 3.1 scaling is stored as the tensor rope_freqs.weight; the loader applies it.
            rope_scaling: RopeScaling::None,
            tie_word_embeddings: file.tensor("output.weight").is_none(),
            sliding_window,
            sliding_layers,
            rope_local_theta: if architecture == Architecture::Gemma3 { Some(file.get_f64(&key("rope.freq_base_swa"))?.unwrap_or(10000.0)) } else { None },
            // llama.cpp scales Gemma 3 attention by 1/sqrt(head_dim) and does not store the scalar.
            query_pre_attn_scalar: None,
            final_logit_softcapping: file.get_f64(&key("final_logit_softcapping"))?,
            attn_logit_softcapping: file.get_f64(&key("attn_logit_softcapping"))?,
        })
    }

    /// RoPE inverse frequencies for `theta`, with Llama 3.1 scaling if configured
    /// (transformers' `_compute_llama3_parameters`).
    pub fn inv_freq(&self, theta: f64) -> Vec<f32> {
        let d = self.head_dim;
        let base: Vec<f32> = (0..d / 2).map(|i| 1.0 / (theta as f32).powf((2 * i) as f32 / d as f32)).collect();
        match self.rope_scaling {
            RopeScaling::None => base,
            RopeScaling::Llama3 { factor, low_freq_factor, high_freq_factor, original_max_position_embeddings: old } => {
                let (low_wl, high_wl) = (old / low_freq_factor, old / high_freq_factor);
                base.iter()
                    .map(|&f| {
                        let wavelen = 2.0 * std::f64::consts::PI / f as f64;
                        if wavelen < high_wl {
                            f
                        } else if wavelen > low_wl {
                            (f as f64 / factor) as f32
                        } else {
                            let smooth = (old / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor);
                            ((1.0 - smooth) * f as f64 / factor + smooth * f as f64) as f32
                        }
                    })
                    .collect()
            }
        }
    }
}
