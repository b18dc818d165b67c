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
    Llama3 {
        factor: f64,
        low_freq_factor: f64,
        high_freq_factor: f64,
        original_max_position_embeddings: f64,
    },
}

/// Bounds on what a model file may declare, checked ([`ModelConfig::validate`]) before anything is
/// allocated or multiplied from them. They are far above any model this tool can run (the largest
/// open models have 126 layers, 128 query heads, heads of 256, a 262k vocabulary and a hidden size
/// of 16k) and far below what could overflow the size arithmetic that follows (every product of
/// two of them fits in 64 bits, and the largest tensor they allow in 2^41 elements).
pub const MAX_LAYERS: usize = 1024;
pub const MAX_HEADS: usize = 1024;
pub const MAX_HEAD_DIM: usize = 1024;
pub const MAX_HIDDEN: usize = 1 << 17;
pub const MAX_INTERMEDIATE: usize = 1 << 20;
pub const MAX_VOCAB: usize = 1 << 22;
pub const MAX_CONTEXT: usize = 1 << 24;

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
    /// The context the model was trained for (GGUF `<arch>.context_length`, HF
    /// `max_position_embeddings`), if the file says: lm-eval's `max_length` (see
    /// [`ModelConfig::max_length`]).
    pub context_length: Option<usize>,
}

/// lm-eval's default `max_length` when the model does not say.
pub const DEFAULT_MAX_LENGTH: usize = 2048;

impl ModelConfig {
    /// lm-eval's `HFLM.max_length`: the model's trained context, or 2048 when the file does not
    /// say. Inputs longer than this are truncated on the left, as lm-eval does.
    pub fn max_length(&self) -> usize {
        self.context_length.unwrap_or(DEFAULT_MAX_LENGTH)
    }

    /// Every field within its bound and consistent with the others, or an error naming the file
    /// (`name`), the field and its value. Called by both readers, so nothing downstream (the fit
    /// check before a download included) ever sizes an allocation or divides by a declared value
    /// that was not checked here.
    pub fn validate(&self, name: &str) -> Result<()> {
        let bad = |field: &str, value: &dyn std::fmt::Display, why: &str| {
            Err(Error::new(format!("{name}: {field} is {value}: {why}")))
        };
        let bounded = |field: &str, value: usize, max: usize| -> Result<()> {
            if value == 0 || value > max {
                return bad(field, &value, &format!("expected 1 to {max}"));
            }
            Ok(())
        };
        bounded("the layer count", self.num_layers, MAX_LAYERS)?;
        bounded("the attention head count", self.num_heads, MAX_HEADS)?;
        bounded("the key/value head count", self.num_kv_heads, MAX_HEADS)?;
        bounded("the head size", self.head_dim, MAX_HEAD_DIM)?;
        bounded("the hidden size", self.hidden_size, MAX_HIDDEN)?;
        bounded("the feed-forward size", self.intermediate_size, MAX_INTERMEDIATE)?;
        bounded("the vocabulary size", self.vocab_size, MAX_VOCAB)?;
        if let Some(context) = self.context_length {
            bounded("the context length", context, MAX_CONTEXT)?;
        }
        if let Some(window) = self.sliding_window {
            bounded("the sliding window", window, MAX_CONTEXT)?;
        }
        if !self.num_heads.is_multiple_of(self.num_kv_heads) {
            return bad(
                "the key/value head count",
                &self.num_kv_heads,
                &format!("it must divide the {} attention heads", self.num_heads),
            );
        }
        if !self.head_dim.is_multiple_of(2) {
            return bad("the head size", &self.head_dim, "RoPE needs an even head size");
        }
        if self.sliding_layers.len() != self.num_layers {
            return bad(
                "the sliding-window layer pattern",
                &format!("{} entries long", self.sliding_layers.len()),
                &format!("expected one entry per layer ({})", self.num_layers),
            );
        }
        let positive = |field: &str, value: f64| -> Result<()> {
            if !(value.is_finite() && value > 0.0) {
                return bad(field, &value, "expected a finite number above 0");
            }
            Ok(())
        };
        positive("rope_theta", self.rope_theta)?;
        if !(self.rms_norm_eps.is_finite() && self.rms_norm_eps >= 0.0) {
            return bad("the RMSNorm epsilon", &self.rms_norm_eps, "expected a finite number, 0 or above");
        }
        for (field, value) in [
            ("the local rope_theta", self.rope_local_theta),
            ("query_pre_attn_scalar", self.query_pre_attn_scalar),
            ("final_logit_softcapping", self.final_logit_softcapping),
            ("attn_logit_softcapping", self.attn_logit_softcapping),
        ] {
            if let Some(v) = value {
                positive(field, v)?;
            }
        }
        if let RopeScaling::Llama3 { factor, low_freq_factor, high_freq_factor, original_max_position_embeddings } =
            self.rope_scaling
        {
            positive("rope_scaling.factor", factor)?;
            positive("rope_scaling.low_freq_factor", low_freq_factor)?;
            positive("rope_scaling.original_max_position_embeddings", original_max_position_embeddings)?;
            if !(high_freq_factor.is_finite() && high_freq_factor > low_freq_factor) {
                return bad(
                    "rope_scaling.high_freq_factor",
                    &high_freq_factor,
                    &format!("expected more than low_freq_factor ({low_freq_factor})"),
                );
            }
        }
        Ok(())
    }

    /// The shape `[rows, cols]` (or `[n]`) a tensor must have under this configuration, by its GGUF
    /// name; `None` for a name the models do not read. Checked against the file's header before
    /// a tensor is read, so a tensor of the wrong size is refused by name instead of reaching a
    /// matmul.
    pub fn expected_shape(&self, gguf_name: &str) -> Option<Vec<usize>> {
        let (hidden, q, kv) = (self.hidden_size, self.num_heads * self.head_dim, self.num_kv_heads * self.head_dim);
        let shape = match gguf_name {
            "token_embd.weight" | "output.weight" => vec![self.vocab_size, hidden],
            "output_norm.weight" => vec![hidden],
            "rope_freqs.weight" => vec![self.head_dim / 2],
            _ => {
                let tensor = gguf_name.strip_prefix("blk.")?.split_once('.')?.1;
                match tensor {
                    "attn_norm.weight" | "ffn_norm.weight" | "post_attention_norm.weight" | "post_ffw_norm.weight" => {
                        vec![hidden]
                    }
                    "attn_q.weight" => vec![q, hidden],
                    "attn_k.weight" | "attn_v.weight" => vec![kv, hidden],
                    "attn_output.weight" => vec![hidden, q],
                    "attn_q.bias" => vec![q],
                    "attn_k.bias" | "attn_v.bias" => vec![kv],
                    "attn_q_norm.weight" | "attn_k_norm.weight" => vec![self.head_dim],
                    "ffn_gate.weight" | "ffn_up.weight" => vec![self.intermediate_size, hidden],
                    "ffn_down.weight" => vec![hidden, self.intermediate_size],
                    _ => return None,
                }
            }
        };
        Some(shape)
    }

    /// An error naming the tensor, the file and both shapes if `shape` (outermost first) is not
    /// what [`expected_shape`](Self::expected_shape) says.
    pub fn check_shape(&self, file: &str, gguf_name: &str, shape: &[usize]) -> Result<()> {
        match self.expected_shape(gguf_name) {
            Some(want) if want != shape => Err(Error::new(format!(
                "{file}: tensor {gguf_name} has shape {shape:?}, but the model's configuration needs {want:?}"
            ))),
            _ => Ok(()),
        }
    }

    pub fn attention_scale(&self) -> f64 {
        self.query_pre_attn_scalar.unwrap_or(self.head_dim as f64).powf(-0.5)
    }

    /// From `config.json`. `name` is used in messages.
    pub fn from_hf_json(name: &str, text: &str) -> Result<ModelConfig> {
        let cfg: Value = serde_json::from_str(text).map_err(|e| Error::new(format!("{name}: not valid JSON: {e}")))?;
        let field = |key: &str| cfg.get(key).filter(|v| !v.is_null());
        let usize_of = |key: &str, v: &Value| -> Result<usize> {
            v.as_u64()
                .and_then(|v| usize::try_from(v).ok())
                .ok_or_else(|| Error::new(format!("{name}: {key} is {v}, not a whole number this machine can hold")))
        };
        let usize_field = |key: &str| -> Result<usize> {
            let v = field(key).ok_or_else(|| Error::new(format!("{name}: {key} is missing")))?;
            usize_of(key, v)
        };
        let optional_usize = |key: &str| -> Result<Option<usize>> { field(key).map(|v| usize_of(key, v)).transpose() };
        let arch_name = field("architectures").and_then(|a| a.get(0)).and_then(Value::as_str).unwrap_or("");
        let architecture = match arch_name {
            "LlamaForCausalLM" | "MistralForCausalLM" => Architecture::Llama,
            "Qwen2ForCausalLM" => Architecture::Qwen2,
            "Qwen3ForCausalLM" => Architecture::Qwen3,
            "Gemma3ForCausalLM" | "Gemma3ForConditionalGeneration" => Architecture::Gemma3,
            other => {
                return Err(Error::new(format!(
                    "{name}: architecture {other:?} is not supported (Llama, Qwen2, Qwen3, Gemma3)"
                )))
            }
        };
        let num_heads = usize_field("num_attention_heads")?;
        let hidden_size = usize_field("hidden_size")?;
        let num_layers = usize_field("num_hidden_layers")?;

        // RoPE: v4 layout (rope_theta, rope_scaling, rope_local_base_freq) or v5 (rope_parameters).
        let (rope, local) = match field("rope_parameters") {
            Some(rp) if rp.get("full_attention").is_some() => (
                rp["full_attention"].clone(),
                rp.get("sliding_attention").and_then(|s| s.get("rope_theta")).and_then(Value::as_f64),
            ),
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

        let sliding_window = optional_usize("sliding_window")?;
        // Only Gemma 3's code applies a sliding window. Where transformers would apply one to
        // another architecture (Mistral's `sliding_window`; Qwen's when `use_sliding_window`),
        // the model is refused by the key rather than run attending to every token.
        let window_key = match architecture {
            Architecture::Gemma3 => None,
            _ if arch_name == "MistralForCausalLM" => Some("sliding_window"),
            Architecture::Qwen2 | Architecture::Qwen3
                if field("use_sliding_window").and_then(Value::as_bool) == Some(true) =>
            {
                Some("use_sliding_window")
            }
            _ => None,
        };
        if let (Some(key), Some(window)) = (window_key, sliding_window) {
            return Err(Error::new(format!(
                "{name}: {key} is set: {arch_name} attends to the last {window} tokens only, a sliding window lingualens applies to Gemma 3 alone; refused rather than run attending to every token"
            )));
        }
        // The layer count bounds the allocations below; the rest is checked by `validate`.
        if num_layers == 0 || num_layers > MAX_LAYERS {
            return Err(Error::new(format!("{name}: num_hidden_layers is {num_layers}: expected 1 to {MAX_LAYERS}")));
        }
        let sliding_layers = match (architecture, field("layer_types").and_then(Value::as_array)) {
            (Architecture::Gemma3, Some(types)) => {
                types.iter().map(|t| t.as_str() == Some("sliding_attention")).collect()
            }
            (Architecture::Gemma3, None) => {
                let pattern = optional_usize("sliding_window_pattern")?.unwrap_or(6).max(1);
                (0..num_layers).map(|i| (i + 1) % pattern != 0).collect()
            }
            _ => vec![false; num_layers],
        };
        let config = ModelConfig {
            architecture,
            vocab_size: usize_field("vocab_size")?,
            hidden_size,
            intermediate_size: usize_field("intermediate_size")?,
            num_layers,
            num_heads,
            num_kv_heads: optional_usize("num_key_value_heads")?.unwrap_or(num_heads),
            head_dim: optional_usize("head_dim")?.unwrap_or(hidden_size.checked_div(num_heads).unwrap_or(0)),
            rms_norm_eps: field("rms_norm_eps").and_then(Value::as_f64).unwrap_or(1e-6),
            rope_theta: num("rope_theta", 10000.0),
            rope_scaling,
            tie_word_embeddings: field("tie_word_embeddings")
                .and_then(Value::as_bool)
                .unwrap_or(architecture == Architecture::Gemma3),
            sliding_window: if architecture == Architecture::Gemma3 { sliding_window } else { None },
            sliding_layers,
            rope_local_theta: if architecture == Architecture::Gemma3 { Some(local.unwrap_or(10000.0)) } else { None },
            query_pre_attn_scalar: field("query_pre_attn_scalar").and_then(Value::as_f64),
            final_logit_softcapping: field("final_logit_softcapping").and_then(Value::as_f64),
            attn_logit_softcapping: field("attn_logit_softcapping").and_then(Value::as_f64),
            // Gemma 3's multimodal configs keep it under text_config.
            context_length: match optional_usize("max_position_embeddings")? {
                Some(n) => Some(n),
                None => cfg
                    .get("text_config")
                    .and_then(|t| t.get("max_position_embeddings"))
                    .map(|v| usize_of("text_config.max_position_embeddings", v))
                    .transpose()?,
            },
        };
        config.validate(name)?;
        Ok(config)
    }

    /// From GGUF metadata (`<arch>.block_count`, …), as llama.cpp reads it.
    pub fn from_gguf(file: &GgufFile) -> Result<ModelConfig> {
        let arch = file.get_str("general.architecture")?.unwrap_or("");
        let architecture = match arch {
            "llama" => Architecture::Llama,
            "qwen2" => Architecture::Qwen2,
            "qwen3" => Architecture::Qwen3,
            "gemma3" => Architecture::Gemma3,
            other => {
                return Err(Error::new(format!(
                    "{}: architecture {other:?} is not supported (llama, qwen2, qwen3, gemma3)",
                    file.name
                )))
            }
        };
        let key = |k: &str| format!("{arch}.{k}");
        let optional = |k: &str| -> Result<Option<usize>> {
            file.get_u64(&key(k))?
                .map(|v| {
                    usize::try_from(v)
                        .map_err(|_| Error::new(format!("{}: metadata {} is {v}, too large", file.name, key(k))))
                })
                .transpose()
        };
        let need = |k: &str| -> Result<usize> {
            optional(k)?.ok_or_else(|| Error::new(format!("{}: metadata key {} is missing", file.name, key(k))))
        };
        let hidden_size = need("embedding_length")?;
        let num_heads = need("attention.head_count")?;
        let num_layers = need("block_count")?;
        // The layer count bounds the allocations below; the rest is checked by `validate`.
        if num_layers == 0 || num_layers > MAX_LAYERS {
            return Err(Error::new(format!(
                "{}: metadata {} is {num_layers}: expected 1 to {MAX_LAYERS}",
                file.name,
                key("block_count")
            )));
        }
        let vocab_size = match optional("vocab_size")? {
            Some(v) => v,
            None => file
                .get("tokenizer.ggml.tokens")
                .and_then(|v| v.as_array())
                .map(<[_]>::len)
                .or_else(|| {
                    file.tensor("token_embd.weight").and_then(|t| t.dims.get(1)).and_then(|&d| usize::try_from(d).ok())
                })
                .ok_or_else(|| Error::new(format!("{}: cannot tell the vocabulary size", file.name)))?,
        };
        let sliding_window = optional("attention.sliding_window")?;
        if let (Some(window), false) = (sliding_window, architecture == Architecture::Gemma3) {
            return Err(Error::new(format!(
                "{}: metadata {} is {window}: a sliding window lingualens applies to Gemma 3 alone; refused rather than run attending to every token",
                file.name,
                key("attention.sliding_window")
            )));
        }
        let sliding_layers = match file.get(&key("attention.sliding_window_pattern")).and_then(|v| v.as_array()) {
            Some(flags) if architecture == Architecture::Gemma3 => {
                flags.iter().map(|f| f.as_bool().unwrap_or(false)).collect()
            }
            // llama.cpp's default for Gemma 3: five sliding layers, then one global.
            _ if architecture == Architecture::Gemma3 => (0..num_layers).map(|i| i % 6 < 5).collect(),
            _ => vec![false; num_layers],
        };
        let config = ModelConfig {
            architecture,
            vocab_size,
            hidden_size,
            intermediate_size: need("feed_forward_length")?,
            num_layers,
            num_heads,
            num_kv_heads: optional("attention.head_count_kv")?.unwrap_or(num_heads),
            head_dim: optional("attention.key_length")?.unwrap_or(hidden_size.checked_div(num_heads).unwrap_or(0)),
            rms_norm_eps: file.get_f64(&key("attention.layer_norm_rms_epsilon"))?.unwrap_or(1e-6),
            rope_theta: file.get_f64(&key("rope.freq_base"))?.unwrap_or(10000.0),
            // Llama 3.1 scaling is stored as the tensor rope_freqs.weight; the loader applies it.
            rope_scaling: RopeScaling::None,
            tie_word_embeddings: file.tensor("output.weight").is_none(),
            sliding_window,
            sliding_layers,
            rope_local_theta: if architecture == Architecture::Gemma3 {
                Some(file.get_f64(&key("rope.freq_base_swa"))?.unwrap_or(10000.0))
            } else {
                None
            },
            // llama.cpp scales Gemma 3 attention by 1/sqrt(head_dim) and does not store the scalar.
            query_pre_attn_scalar: None,
            final_logit_softcapping: file.get_f64(&key("final_logit_softcapping"))?,
            attn_logit_softcapping: file.get_f64(&key("attn_logit_softcapping"))?,
            context_length: optional("context_length")?,
        };
        config.validate(&file.name)?;
        Ok(config)
    }

    /// RoPE inverse frequencies for `theta`, with Llama 3.1 scaling if configured
    /// (transformers' `_compute_llama3_parameters`).
    pub fn inv_freq(&self, theta: f64) -> Vec<f32> {
        let d = self.head_dim;
        let base: Vec<f32> = (0..d / 2).map(|i| 1.0 / (theta as f32).powf((2 * i) as f32 / d as f32)).collect();
        match self.rope_scaling {
            RopeScaling::None => base,
            RopeScaling::Llama3 {
                factor,
                low_freq_factor,
                high_freq_factor,
                original_max_position_embeddings: old,
            } => {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn config(architecture: &str, extra: &str) -> Result<ModelConfig> {
        let json = format!(
            r#"{{"architectures": ["{architecture}"], "vocab_size": 32, "hidden_size": 16, "intermediate_size": 32,
                "num_hidden_layers": 2, "num_attention_heads": 2, "num_key_value_heads": 1, "max_position_embeddings": 32768{extra}}}"#
        );
        ModelConfig::from_hf_json("config.json", &json)
    }

    #[test]
    fn a_sliding_window_outside_gemma_3_is_refused_by_its_key() {
        let e = config("MistralForCausalLM", r#", "sliding_window": 4096"#).unwrap_err().to_string();
        assert!(e.contains("config.json: sliding_window is set") && e.contains("4096"), "{e}");
        let e = config("Qwen2ForCausalLM", r#", "sliding_window": 4096, "use_sliding_window": true"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("use_sliding_window"), "{e}");
        // Mistral with no window, and Qwen's window when it is not used (as Qwen's configs ship).
        assert_eq!(config("MistralForCausalLM", r#", "sliding_window": null"#).unwrap().sliding_window, None);
        assert_eq!(
            config("Qwen3ForCausalLM", r#", "sliding_window": 32768, "use_sliding_window": false"#)
                .unwrap()
                .sliding_window,
            None
        );
        // Gemma 3 keeps it.
        assert_eq!(config("Gemma3ForCausalLM", r#", "sliding_window": 512"#).unwrap().sliding_window, Some(512));
    }
}
