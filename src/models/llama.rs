//! The Llama family: Llama 3.x and SmolLM2, Qwen2/2.5 (the same with q/k/v biases) and Qwen3 (the
//! same with an RMSNorm on each query and key head, before RoPE). One file, because these three are
//! one computation; the differences are the two `Option`s below, loaded when the weights have them.
//!
//! Reference: transformers' `modeling_llama.py`, `modeling_qwen2.py`, `modeling_qwen3.py`.

use burn::tensor::{Device, Tensor};

use crate::error::Result;
use crate::formats::source::ByteSource;
use crate::models::attention::attend;
use crate::models::config::{Architecture, ModelConfig};
use crate::models::layers::{split_heads, swiglu, Embedding, KvCache, Linear, Positions, RmsNorm, Rope};
use crate::models::weights::WeightFile;

struct Attention {
    q: Linear,
    k: Linear,
    v: Linear,
    o: Linear,
    /// Qwen3 only.
    q_norm: Option<RmsNorm>,
    k_norm: Option<RmsNorm>,
}

struct Mlp {
    gate: Linear,
    up: Linear,
    down: Linear,
}

struct Block {
    attn_norm: RmsNorm,
    attn: Attention,
    ffn_norm: RmsNorm,
    mlp: Mlp,
}

pub struct Llama {
    cfg: ModelConfig,
    embed: Embedding,
    blocks: Vec<Block>,
    final_norm: RmsNorm,
    lm_head: Linear,
    rope: Rope,
    device: Device,
}

/// Qwen3's q/k norms: present in its weights, absent in the others'.
/// Block `p`'s per-head q and k norms: Qwen3 has both (a file that lacks one is refused by the
/// tensor it lacks, as a missing weight is); Llama and Qwen2 have neither, and a file of theirs
/// that holds one is refused by its name rather than run without it.
async fn qk_norms<S: ByteSource>(
    w: &WeightFile<S>,
    p: &str,
    cfg: &ModelConfig,
    device: &Device,
) -> Result<(Option<RmsNorm>, Option<RmsNorm>)> {
    let (q, k) = (format!("{p}.attn_q_norm.weight"), format!("{p}.attn_k_norm.weight"));
    if cfg.architecture == Architecture::Qwen3 {
        return Ok((Some(RmsNorm::load(w, &q, cfg, device).await?), Some(RmsNorm::load(w, &k, cfg, device).await?)));
    }
    if let Some(name) = [&q, &k].into_iter().find(|n| w.has(n, cfg.architecture)) {
        return Err(crate::Error::new(format!(
            "tensor {name}: a per-head q/k norm, which {:?} models do not have (Qwen3's do); the file's architecture and its tensors disagree",
            cfg.architecture
        )));
    }
    Ok((None, None))
}

impl Llama {
    pub fn config(&self) -> &ModelConfig {
        &self.cfg
    }

    pub async fn load<S: ByteSource>(w: &WeightFile<S>, cfg: ModelConfig, device: &Device) -> Result<Llama> {
        let arch = cfg.architecture;
        let mut blocks = Vec::with_capacity(cfg.num_layers);
        for i in 0..cfg.num_layers {
            let p = format!("blk.{i}");
            let (q_norm, k_norm) = qk_norms(w, &p, &cfg, device).await?;
            blocks.push(Block {
                attn_norm: RmsNorm::load(w, &format!("{p}.attn_norm.weight"), &cfg, device).await?,
                attn: Attention {
                    q: Linear::load(w, &format!("{p}.attn_q"), &cfg, device).await?,
                    k: Linear::load(w, &format!("{p}.attn_k"), &cfg, device).await?,
                    v: Linear::load(w, &format!("{p}.attn_v"), &cfg, device).await?,
                    o: Linear::load(w, &format!("{p}.attn_output"), &cfg, device).await?,
                    q_norm,
                    k_norm,
                },
                ffn_norm: RmsNorm::load(w, &format!("{p}.ffn_norm.weight"), &cfg, device).await?,
                mlp: Mlp {
                    gate: Linear::load(w, &format!("{p}.ffn_gate"), &cfg, device).await?,
                    up: Linear::load(w, &format!("{p}.ffn_up"), &cfg, device).await?,
                    down: Linear::load(w, &format!("{p}.ffn_down"), &cfg, device).await?,
                },
            });
        }
        let embed = Embedding::load(w, &cfg, device).await?;
        let lm_head = if cfg.tie_word_embeddings || !w.has("output.weight", arch) {
            embed.as_linear()
        } else {
            Linear::load(w, "output", &cfg, device).await?
        };
        let mut inv_freq = cfg.inv_freq(cfg.rope_theta);
        // GGUF stores Llama 3.1's RoPE scaling as per-frequency divisors.
        if w.has("rope_freqs.weight", arch) {
            let factors = w.get("rope_freqs.weight", &cfg).await?.values;
            inv_freq.iter_mut().zip(factors).for_each(|(f, d)| *f /= d);
        }
        Ok(Llama {
            final_norm: RmsNorm::load(w, "output_norm.weight", &cfg, device).await?,
            rope: Rope::new(inv_freq),
            cfg,
            embed,
            blocks,
            lm_head,
            device: device.clone(),
        })
    }

    /// Logits `[last, vocab]` for the last `last` of `tokens`, which sit at `at` after the
    /// positions in `cache`.
    pub fn forward(&self, tokens: &[u32], at: &Positions, cache: &mut KvCache, last: usize) -> Tensor<2> {
        let device = self.device.clone();
        let t = tokens.len();
        debug_assert_eq!(at.len(), t, "one position per token");
        let cfg = &self.cfg;
        let mask = at.mask(None, &device);
        let angles = self.rope.angles(at.positions(), &device);
        let mut x = self.embed.lookup(tokens, &device); // [t, hidden]
        for (layer, block) in self.blocks.iter().enumerate() {
            // 1. Attention, pre-norm, residual.
            let h = block.attn_norm.forward(x.clone());
            // The last layer's keys and values of every token go into the cache; past that only
            // the rows whose logits are asked for are needed (llama.cpp skips the rest the same way).
            let rows = if layer + 1 == self.blocks.len() { last } else { t };
            let [q, k, v] = Linear::attention_inputs(&block.attn.q, &block.attn.k, &block.attn.v, h, rows);
            x = x.narrow(0, t - rows, rows);
            let mut q = split_heads(q, cfg.num_heads); // [h, rows, d]
            let mut k = split_heads(k, cfg.num_kv_heads); // [kv, t, d]
            let v = split_heads(v, cfg.num_kv_heads);
            if let (Some(qn), Some(kn)) = (&block.attn.q_norm, &block.attn.k_norm) {
                q = qn.forward_heads(q);
                k = kn.forward_heads(k);
            }
            let (q, k) = (angles.last(rows).rotate(q), angles.rotate(k));
            // Keys and values into the cache ([kv, cached + t, d]), attended over.
            let mask = mask.clone().narrow(0, t - rows, rows);
            let a = attend(cache, layer, q, k, v, mask, cfg.attention_scale(), None);
            x = x + block.attn.o.forward(a);
            // 2. MLP, pre-norm, residual: down(silu(gate(h)) * up(h)).
            let h = block.ffn_norm.forward(x.clone());
            let [gate, up] = Linear::forward_each([&block.mlp.gate, &block.mlp.up], h);
            let m = swiglu(gate, up);
            x = x + block.mlp.down.forward(m);
        }
        cache.advance(t);
        // Only the rows that are asked for are left (the last layer kept them), and only they go
        // through the (vocabulary-sized) output projection.
        self.lm_head.forward(self.final_norm.forward(x))
    }
}
