//! Gemma 3 (text). Differs from the Llama family in: the embedding is scaled by √hidden; each block
//! has four RMSNorms (before and after attention, before and after the MLP) whose weights act as
//! `1 + w`; q and k get a per-head RMSNorm; layers alternate between sliding-window attention
//! (window `sliding_window`, RoPE base `rope_local_base_freq`) and global attention (`rope_theta`);
//! scores are scaled by `query_pre_attn_scalar^-1/2`; the MLP uses GELU with the tanh approximation.
//!
//! Reference: transformers' `modeling_gemma3.py` (`Gemma3ForCausalLM`).

use burn::tensor::{Device, Tensor};

use crate::error::Result;
use crate::formats::source::ByteSource;
use crate::models::attention::attend;
use crate::models::config::ModelConfig;
use crate::models::layers::{gelu_tanh_mul, split_heads, Embedding, KvCache, Linear, Positions, RmsNorm, Rope};
use crate::models::weights::WeightFile;

struct Block {
    input_norm: RmsNorm,
    q: Linear,
    k: Linear,
    v: Linear,
    o: Linear,
    q_norm: RmsNorm,
    k_norm: RmsNorm,
    post_attn_norm: RmsNorm,
    pre_ffn_norm: RmsNorm,
    gate: Linear,
    up: Linear,
    down: Linear,
    post_ffn_norm: RmsNorm,
    sliding: bool,
}

pub struct Gemma3 {
    cfg: ModelConfig,
    embed: Embedding,
    blocks: Vec<Block>,
    final_norm: RmsNorm,
    lm_head: Linear,
    rope_global: Rope,
    rope_local: Rope,
    device: Device,
}

impl Gemma3 {
    pub fn config(&self) -> &ModelConfig {
        &self.cfg
    }

    pub async fn load<S: ByteSource>(w: &WeightFile<S>, cfg: ModelConfig, device: &Device) -> Result<Gemma3> {
        let mut blocks = Vec::with_capacity(cfg.num_layers);
        for i in 0..cfg.num_layers {
            let p = format!("blk.{i}");
            let cfg = &cfg;
            let norm = |name: &str| {
                let full = format!("{p}.{name}.weight");
                async move { RmsNorm::load(w, &full, cfg, device).await }
            };
            let linear = |name: &str| {
                let full = format!("{p}.{name}");
                async move { Linear::load(w, &full, cfg, device).await }
            };
            blocks.push(Block {
                input_norm: norm("attn_norm").await?,
                q: linear("attn_q").await?,
                k: linear("attn_k").await?,
                v: linear("attn_v").await?,
                o: linear("attn_output").await?,
                q_norm: norm("attn_q_norm").await?,
                k_norm: norm("attn_k_norm").await?,
                post_attn_norm: norm("post_attention_norm").await?,
                pre_ffn_norm: norm("ffn_norm").await?,
                gate: linear("ffn_gate").await?,
                up: linear("ffn_up").await?,
                down: linear("ffn_down").await?,
                post_ffn_norm: norm("post_ffw_norm").await?,
                sliding: cfg.sliding_layers.get(i).copied().unwrap_or(false),
            });
        }
        let embed = Embedding::load(w, &cfg, device).await?;
        let lm_head = if w.has("output.weight", cfg.architecture) {
            Linear::load(w, "output", &cfg, device).await?
        } else {
            embed.as_linear()
        };
        Ok(Gemma3 {
            final_norm: RmsNorm::load(w, "output_norm.weight", &cfg, device).await?,
            rope_global: Rope::new(cfg.inv_freq(cfg.rope_theta)),
            rope_local: Rope::new(cfg.inv_freq(cfg.rope_local_theta.unwrap_or(10000.0))),
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
        // The cache keeps every position; the sliding window is applied by the mask.
        let global_mask = at.mask(None, &device);
        let local_mask = at.mask(cfg.sliding_window, &device);
        let (global_angles, local_angles) =
            (self.rope_global.angles(at.positions(), &device), self.rope_local.angles(at.positions(), &device));
        // transformers multiplies by √hidden rounded to the weights' dtype (f32 here).
        let scale = (cfg.hidden_size as f32).sqrt();
        let mut x = self.embed.lookup(tokens, &device).mul_scalar(scale);
        for (layer, b) in self.blocks.iter().enumerate() {
            let (angles, mask) = if b.sliding { (&local_angles, &local_mask) } else { (&global_angles, &global_mask) };
            // 1. Attention: norm, q/k head norms, RoPE, attention, norm, residual.
            let h = b.input_norm.forward(x.clone());
            // The last layer's keys and values of every token go into the cache; past that only
            // the rows whose logits are asked for are needed (llama.cpp skips the rest the same way).
            let rows = if layer + 1 == self.blocks.len() { last } else { t };
            let [q, k, v] = Linear::attention_inputs(&b.q, &b.k, &b.v, h, rows);
            x = x.narrow(0, t - rows, rows);
            let q = b.q_norm.forward_heads(split_heads(q, cfg.num_heads));
            let k = b.k_norm.forward_heads(split_heads(k, cfg.num_kv_heads));
            let v = split_heads(v, cfg.num_kv_heads);
            let (q, k) = (angles.last(rows).rotate(q), angles.rotate(k));
            // Keys and values into the cache ([kv, cached + t, d]), attended over.
            let a = attend(
                cache,
                layer,
                q,
                k,
                v,
                mask.clone().narrow(0, t - rows, rows),
                cfg.attention_scale(),
                cfg.attn_logit_softcapping,
            );
            x = x + b.post_attn_norm.forward(b.o.forward(a));
            // 2. MLP: norm, down(gelu_tanh(gate(h)) * up(h)), norm, residual.
            let h = b.pre_ffn_norm.forward(x.clone());
            let [gate, up] = Linear::forward_each([&b.gate, &b.up], h);
            let m = gelu_tanh_mul(gate, up);
            x = x + b.post_ffn_norm.forward(b.down.forward(m));
        }
        cache.advance(t);
        // Only the rows that are asked for are left (the last layer kept them).
        let logits = self.lm_head.forward(self.final_norm.forward(x));
        match cfg.final_logit_softcapping {
            Some(cap) => logits.div_scalar(cap).tanh().mul_scalar(cap),
            None => logits,
        }
    }
}
