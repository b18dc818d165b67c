//! Named weight tensors from a GGUF file or Hugging Face safetensors (one file or shards), by their GGUF names
//! (`blk.0.attn_q.weight`), decoded to f32 in row-major `[rows, cols]` order, one tensor at a time.
//!
//! Two differences between the formats are undone here so the model code sees one convention:
//! llama.cpp's converter permutes the rows of Llama's Q and K projections for its interleaved RoPE
//! (undone: the models use transformers' rotate-half RoPE), and stores Gemma's RMSNorm weights as
//! `1 + w` (kept: the models multiply by the stored GGUF form, so HF weights get the 1 added).
//!
//! Quantized GGUF tensors can be kept packed ([`WeightFile::get_weight`] → `quant::QMatrix`): the CPU
//! backend multiplies them with `quant::qmatmul`, wgpu with the kernel in `gpu`.

use crate::error::{Error, Result};
use crate::formats::gguf::GgufFile;
use crate::formats::safetensors::SafetensorsShards;
use crate::formats::source::ByteSource;
use crate::models::config::{Architecture, ModelConfig};
use crate::quant::QMatrix;

pub enum WeightFile<S: ByteSource> {
    /// Quantized tensors come back packed from [`WeightFile::get_weight`]. `int8_activations`:
    /// the CPU multiplies them with activations quantized to 8 bits (`quant::qmatmul_int8`).
    Gguf {
        file: GgufFile,
        source: S,
        int8_activations: bool,
    },
    Safetensors {
        shards: SafetensorsShards<S>,
    },
}

/// A 2-D weight: f32, or packed as in the file.
pub enum Weight {
    Float(HostTensor),
    Quantized(QMatrix),
}

/// A weight as row-major f32 with its shape (outermost first).
pub struct HostTensor {
    pub values: Vec<f32>,
    pub shape: Vec<usize>,
}

impl<S: ByteSource> WeightFile<S> {
    /// Whether packed weights are to be multiplied with 8-bit activations on the CPU.
    pub fn int8_activations(&self) -> bool {
        matches!(self, WeightFile::Gguf { int8_activations: true, .. })
    }

    pub fn has(&self, gguf_name: &str, arch: Architecture) -> bool {
        match self {
            WeightFile::Gguf { file, .. } => file.tensor(gguf_name).is_some(),
            WeightFile::Safetensors { shards } => hf_name(gguf_name, arch).is_some_and(|n| shards.contains(&n)),
        }
    }

    /// A 2-D weight, packed if the file has it quantized.
    pub async fn get_weight(&self, gguf_name: &str, cfg: &ModelConfig) -> Result<Weight> {
        if let WeightFile::Gguf { file, source, .. } = self {
            if let Some(info) = file.tensor(gguf_name).filter(|t| t.dims.len() == 2 && is_quantized(t.ggml_type)) {
                cfg.check_shape(&file.name, gguf_name, &gguf_shape(&info.dims))?;
                let bytes = file.read_tensor_bytes(source, info).await?;
                let mut m = QMatrix::from_tensor(info, &bytes).map_err(|e| e.context(&file.name))?;
                if let Some(heads) = permuted_heads(gguf_name, cfg) {
                    m = m.permute_rows(&unpermuted_order(m.rows(), heads));
                }
                return Ok(Weight::Quantized(m));
            }
        }
        Ok(Weight::Float(self.get(gguf_name, cfg).await?))
    }

    /// The tensor `gguf_name`, or an error naming it and the file.
    pub async fn get(&self, gguf_name: &str, cfg: &ModelConfig) -> Result<HostTensor> {
        let arch = cfg.architecture;
        let mut tensor = match self {
            WeightFile::Gguf { file, source, .. } => {
                let info = file
                    .tensor(gguf_name)
                    .ok_or_else(|| Error::new(format!("{}: tensor {gguf_name} is missing", file.name)))?;
                let shape = gguf_shape(&info.dims);
                cfg.check_shape(&file.name, gguf_name, &shape)?;
                let bytes = file.read_tensor_bytes(source, info).await?;
                let values = crate::quant::dequantize_tensor(info, &bytes)?;
                let mut t = HostTensor { values, shape };
                if let Some(heads) = permuted_heads(gguf_name, cfg) {
                    unpermute_rows(&mut t, heads);
                }
                t
            }
            WeightFile::Safetensors { shards } => {
                let name = hf_name(gguf_name, arch)
                    .ok_or_else(|| Error::new(format!("{}: no Hugging Face name for {gguf_name}", shards.name())))?;
                if let Some((_, entry)) = shards.entries().find(|(n, _)| *n == name) {
                    cfg.check_shape(&format!("{} ({name})", shards.name()), gguf_name, &entry.shape)?;
                }
                let (values, shape) = shards.read_f32(&name).await?;
                let mut t = HostTensor { values, shape };
                if arch == Architecture::Gemma3 && gguf_name.ends_with("norm.weight") {
                    t.values.iter_mut().for_each(|w| *w += 1.0);
                }
                t
            }
        };
        if tensor.shape.len() == 1 {
            tensor.shape = vec![tensor.values.len()];
        }
        Ok(tensor)
    }
}

/// A GGUF tensor's shape outermost first (GGUF lists dimensions innermost first).
fn gguf_shape(dims: &[u64]) -> Vec<usize> {
    dims.iter().rev().map(|&d| usize::try_from(d).unwrap_or(usize::MAX)).collect()
}

fn is_quantized(t: crate::formats::ggml::GgmlType) -> bool {
    use crate::formats::ggml::GgmlType::*;
    matches!(t, Q8_0 | Q4_0 | Q4_1 | Q5_0 | Q5_1 | Q4_K | Q5_K | Q6_K)
}

/// The head count a GGUF tensor's rows were permuted by, if they were: llama.cpp's converter
/// permutes Llama's Q (by the query heads) and K (by the KV heads); see [`unpermute_rows`].
fn permuted_heads(gguf_name: &str, cfg: &ModelConfig) -> Option<usize> {
    if cfg.architecture != Architecture::Llama {
        None
    } else if gguf_name.ends_with("attn_q.weight") {
        Some(cfg.num_heads)
    } else if gguf_name.ends_with("attn_k.weight") {
        Some(cfg.num_kv_heads)
    } else {
        None
    }
}

/// For each unpermuted row, the GGUF row it comes from (see [`unpermute_rows`]).
fn unpermuted_order(rows: usize, n_heads: usize) -> Vec<usize> {
    let head = rows / n_heads;
    let half = head / 2;
    let mut order = vec![0; rows];
    for h in 0..n_heads {
        for i in 0..half {
            for j in 0..2 {
                order[h * head + j * half + i] = h * head + 2 * i + j;
            }
        }
    }
    order
}

/// llama.cpp's converter reorders each head's rows from rotate-half order (first half, second
/// half) to interleaved pairs; this puts them back: row (h, 2i + j) → row (h, j·half + i).
fn unpermute_rows(t: &mut HostTensor, n_heads: usize) {
    let cols = t.shape[1];
    t.values = unpermuted_order(t.shape[0], n_heads)
        .into_iter()
        .flat_map(|from| t.values[from * cols..(from + 1) * cols].to_vec())
        .collect();
}

/// The transformers name of a GGUF tensor name.
pub fn hf_name(gguf_name: &str, arch: Architecture) -> Option<String> {
    let top = match gguf_name {
        "token_embd.weight" => Some("model.embed_tokens.weight"),
        "output_norm.weight" => Some("model.norm.weight"),
        "output.weight" => Some("lm_head.weight"),
        _ => None,
    };
    if let Some(name) = top {
        return Some(name.to_string());
    }
    let rest = gguf_name.strip_prefix("blk.")?;
    let (layer, tensor) = rest.split_once('.')?;
    let hf = match (tensor, arch) {
        ("attn_norm.weight", _) => "input_layernorm.weight",
        ("attn_q.weight", _) => "self_attn.q_proj.weight",
        ("attn_k.weight", _) => "self_attn.k_proj.weight",
        ("attn_v.weight", _) => "self_attn.v_proj.weight",
        ("attn_q.bias", _) => "self_attn.q_proj.bias",
        ("attn_k.bias", _) => "self_attn.k_proj.bias",
        ("attn_v.bias", _) => "self_attn.v_proj.bias",
        ("attn_output.weight", _) => "self_attn.o_proj.weight",
        ("attn_q_norm.weight", _) => "self_attn.q_norm.weight",
        ("attn_k_norm.weight", _) => "self_attn.k_norm.weight",
        ("ffn_gate.weight", _) => "mlp.gate_proj.weight",
        ("ffn_up.weight", _) => "mlp.up_proj.weight",
        ("ffn_down.weight", _) => "mlp.down_proj.weight",
        // Gemma 3 has four norms per layer; Llama-family models two.
        ("post_attention_norm.weight", Architecture::Gemma3) => "post_attention_layernorm.weight",
        ("ffn_norm.weight", Architecture::Gemma3) => "pre_feedforward_layernorm.weight",
        ("post_ffw_norm.weight", Architecture::Gemma3) => "post_feedforward_layernorm.weight",
        ("ffn_norm.weight", _) => "post_attention_layernorm.weight",
        _ => return None,
    };
    Some(format!("model.layers.{layer}.{hf}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unpermute_undoes_the_converters_permutation() {
        // One head of 4 rows: rotate-half order r0 r1 | r2 r3 becomes interleaved r0 r2 r1 r3.
        let mut t = HostTensor { values: vec![0., 2., 1., 3.], shape: vec![4, 1] };
        unpermute_rows(&mut t, 1);
        assert_eq!(t.values, vec![0., 1., 2., 3.]);
    }

    #[test]
    fn names_map_per_architecture() {
        assert_eq!(
            hf_name("blk.3.ffn_norm.weight", Architecture::Llama).unwrap(),
            "model.layers.3.post_attention_layernorm.weight"
        );
        assert_eq!(
            hf_name("blk.3.ffn_norm.weight", Architecture::Gemma3).unwrap(),
            "model.layers.3.pre_feedforward_layernorm.weight"
        );
        assert_eq!(hf_name("blk.0.attn_q.bias", Architecture::Qwen2).unwrap(), "model.layers.0.self_attn.q_proj.bias");
        assert!(hf_name("rope_freqs.weight", Architecture::Llama).is_none());
    }
}
