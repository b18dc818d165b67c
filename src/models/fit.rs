//! Will a model fit? What a GGUF model needs in memory on a backend, worked out from its header
//! alone (so before anything is downloaded), and the check of those needs against a budget.
//!
//! The sizes are those the model code will hold, not the file's:
//!
//! - a quantized 2-D weight stays packed, on both backends (host memory on the CPU, device memory
//!   on wgpu: `gpu::GpuQMatrix` uploads the same words): `n·bits/8` bytes of packed quants, a 4-byte
//!   f32 scale per block and, for the asymmetric types, a 4-byte offset per block (`packed_bytes`;
//!   bits and block per type as in the table in `crate::quant`); on wgpu a quantized token
//!   embedding is also kept on the host, where its rows are looked up;
//! - everything else is decoded to f32: 4 bytes per value (so every tensor of a safetensors
//!   folder, F32, F16 or BF16);
//! - the KV cache is f32 keys and values for every layer: `2 × layers × kv_heads × head_dim × 4`
//!   bytes per token;
//! - working memory, an estimate for one forward pass over `context` tokens: one layer's
//!   attention scores and probabilities (`2 × heads × context² × 4`) and its feed-forward
//!   activations (`3 × context × ffn × 4`);
//! - loading, an estimate of the peak while one tensor is read: its file bytes plus what it becomes
//!   (twice for the Q and K projections, whose rows are permuted into a second copy), for the
//!   tensor where that is largest.
//!
//! Where it must fit is the [`Budget`], an explicit input so that the arithmetic is tested natively:
//! in the browser the CPU backend keeps everything in wasm32's linear memory (4 GiB at most, of
//! which [`WASM32_USABLE`] is taken as usable), while on WebGPU the weights, the cache and the
//! working memory live on the GPU (budget: `navigator.deviceMemory`, when the browser says) and
//! only the tensor being loaded passes through wasm memory.

use serde::{Deserialize, Serialize};

use crate::backend::BackendKind;
use crate::error::Result;
use crate::formats::ggml::GgmlType;
use crate::formats::gguf::{GgufFile, TensorInfo};
use crate::formats::safetensors::TensorEntry;
use crate::models::config::ModelConfig;

const MIB: u64 = 1 << 20;
const GIB: u64 = 1 << 30;

/// The stack wasm-bindgen gives each helper thread of the threaded worker (its default, 2 MiB),
/// taken from the worker's memory.
pub const HELPER_THREAD_STACK: u64 = 2 * MIB;

/// Of wasm32's 4 GiB address space, what a model may take: the rest is the allocator's slack,
/// the tokenizer, the task and the browser's own copies.
pub const WASM32_USABLE: u64 = 3 * GIB + GIB / 2;

/// The context length the check assumes when none is given (capped by the model's own): long
/// enough for a few-shot prompt in a script that tokenizes poorly.
pub const DEFAULT_CONTEXT: usize = 2048;

/// How a quantized type is held as a `QMatrix`: bits per stored quant, weights per block, and
/// whether each block has an offset (see the table in `crate::quant`).
pub fn qmatrix_layout(t: GgmlType) -> Option<(u64, u64, bool)> {
    use GgmlType::*;
    Some(match t {
        Q8_0 => (8, 32, false),
        Q4_0 => (4, 32, false),
        Q4_1 => (4, 32, true),
        Q5_0 => (8, 32, false),
        Q5_1 => (8, 32, true),
        Q4_K => (4, 32, true),
        Q5_K => (8, 32, true),
        Q6_K => (8, 16, false),
        _ => return None,
    })
}

/// Bytes of `n` weights of type `t` held as a `QMatrix`, or `None` if `t` is not one it takes.
pub fn packed_bytes(t: GgmlType, n: u64) -> Option<u64> {
    let (bits, block, offsets) = qmatrix_layout(t)?;
    let blocks = n / block;
    let scales = blocks.saturating_mul(if offsets { 8 } else { 4 });
    Some((n / 8).saturating_mul(bits).saturating_add(scales))
}

/// Bytes tensor `t` takes once loaded: packed if it is a quantized matrix (what
/// `models::weights` keeps packed), else f32.
pub fn tensor_bytes(t: &TensorInfo) -> u64 {
    let n = t.n_elements();
    match packed_bytes(t.ggml_type, n) {
        Some(bytes) if t.dims.len() == 2 => bytes,
        _ => n.saturating_mul(4),
    }
}

/// The shape of the attention that sizes the KV cache and the working memory.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Shape {
    pub layers: u64,
    pub heads: u64,
    pub kv_heads: u64,
    pub head_dim: u64,
    pub ffn: u64,
}

impl Shape {
    pub fn of(cfg: &ModelConfig) -> Shape {
        Shape {
            layers: cfg.num_layers as u64,
            heads: cfg.num_heads as u64,
            kv_heads: cfg.num_kv_heads as u64,
            head_dim: cfg.head_dim as u64,
            ffn: cfg.intermediate_size as u64,
        }
    }

    /// f32 keys and values of every layer for `tokens` positions.
    pub fn kv_cache_bytes(&self, tokens: u64) -> u64 {
        saturating_product(&[2, self.layers, self.kv_heads, self.head_dim, 4, tokens])
    }

    /// One layer's attention scores and probabilities, and its feed-forward activations.
    pub fn working_bytes(&self, tokens: u64) -> u64 {
        saturating_product(&[2, self.heads, tokens, tokens, 4])
            .saturating_add(saturating_product(&[3, tokens, self.ffn, 4]))
    }
}

/// The product of sizes a header declared, `u64::MAX` where it overflows (then it fits nowhere).
fn saturating_product(factors: &[u64]) -> u64 {
    factors.iter().fold(1, |a, &b| a.saturating_mul(b))
}

/// What a model needs, in bytes, on one backend for one context length.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelNeeds {
    /// The backend the sizes are for.
    pub backend: BackendKind,
    pub tensors: usize,
    /// Every tensor as it will be held.
    pub weights: u64,
    /// The largest tensor as held: (name, bytes).
    pub largest: (String, u64),
    pub context: usize,
    pub kv_cache: u64,
    pub working: u64,
    /// Peak extra memory while one tensor is read and converted (in wasm memory on every
    /// backend), and that tensor.
    pub loading: u64,
    pub loading_tensor: String,
    /// On wgpu, what stays in wasm memory besides the device's copy: a quantized token embedding
    /// (its rows are looked up on the host). 0 on the CPU, where everything is in `total`.
    pub host_resident: u64,
    /// The most that is held at once where the weights live: the weights plus the larger of the
    /// loading peak (CPU only: on wgpu it is in host memory) and the cache with the working memory.
    pub total: u64,
    /// The file's size, for the message.
    pub file_bytes: u64,
}

impl ModelNeeds {
    /// The needs of `tensors` with attention `shape` on `backend`, for `context` tokens.
    pub fn new(tensors: &[TensorInfo], shape: Shape, backend: BackendKind, context: usize) -> ModelNeeds {
        let mut weights = 0u64;
        let mut host_resident = 0u64;
        let mut largest = (String::new(), 0u64);
        let mut loading = 0u64;
        let mut loading_tensor = String::new();
        for t in tensors {
            let held = tensor_bytes(t);
            weights = weights.saturating_add(held);
            if backend == BackendKind::Wgpu
                && t.name == "token_embd.weight"
                && t.dims.len() == 2
                && packed_bytes(t.ggml_type, 0).is_some()
            {
                host_resident = held;
            }
            if held > largest.1 {
                largest = (t.name.clone(), held);
            }
            let copies = if t.name.ends_with("attn_q.weight") || t.name.ends_with("attn_k.weight") { 2 } else { 1 };
            let peak = t.n_bytes.saturating_add(held.saturating_mul(copies));
            if peak > loading {
                (loading, loading_tensor) = (peak, t.name.clone());
            }
        }
        let tokens = context as u64;
        let kv_cache = shape.kv_cache_bytes(tokens);
        let working = shape.working_bytes(tokens);
        let file_bytes = tensors.iter().fold(0u64, |sum, t| sum.saturating_add(t.n_bytes));
        let mut needs = ModelNeeds {
            backend,
            tensors: tensors.len(),
            weights,
            largest,
            context,
            kv_cache,
            working,
            loading,
            loading_tensor,
            host_resident,
            total: 0,
            file_bytes,
        };
        needs.total = needs.sum();
        needs
    }

    /// The total: the weights, then on the CPU the larger of the loading peak and the cache with
    /// the working memory (loading is over before a pass runs), on wgpu the cache and working memory.
    fn sum(&self) -> u64 {
        let running = self.kv_cache.saturating_add(self.working);
        match self.backend {
            BackendKind::Cpu => self.weights.saturating_add(self.loading.max(running)),
            BackendKind::Wgpu => self.weights.saturating_add(running),
        }
    }

    /// These needs in the browser's threaded worker, whose `threads - 1` helper threads each take
    /// a [`HELPER_THREAD_STACK`] of the same memory (their share of a pass's scratch, split by
    /// rows and heads, is already in `working`).
    pub fn on_threads(mut self, threads: usize) -> ModelNeeds {
        let stacks = (threads.saturating_sub(1) as u64).saturating_mul(HELPER_THREAD_STACK);
        self.working = self.working.saturating_add(stacks);
        self.total = self.sum();
        self
    }

    /// The needs of a parsed GGUF header on `backend`; `context` defaults to [`DEFAULT_CONTEXT`],
    /// and is capped by the model's `context_length`.
    pub fn from_gguf(file: &GgufFile, backend: BackendKind, context: Option<usize>) -> Result<ModelNeeds> {
        let cfg = ModelConfig::from_gguf(file)?;
        Ok(ModelNeeds::new(&file.tensors, Shape::of(&cfg), backend, capped_context(context, cfg.context_length)))
    }

    /// The needs of a Hugging Face model on `backend`: its `config.json` text and its safetensors
    /// tensors (name, header entry), each held as f32 as `models::weights` reads them. `context`
    /// defaults to [`DEFAULT_CONTEXT`], capped by `max_position_embeddings`. A dtype the loader
    /// cannot read is an error naming the tensor.
    pub fn from_safetensors<'a>(
        folder: &str,
        config_json: &str,
        tensors: impl Iterator<Item = (&'a str, &'a TensorEntry)>,
        backend: BackendKind,
        context: Option<usize>,
    ) -> Result<ModelNeeds> {
        let cfg = ModelConfig::from_hf_json(&format!("{folder}/config.json"), config_json)?;
        let mut infos = Vec::new();
        for (name, entry) in tensors {
            let Some(ggml_type) = entry.float_type() else {
                crate::bail!(
                    "{folder}: tensor {name} is {}; lingualens reads F32, F16 and BF16 safetensors",
                    entry.dtype
                );
            };
            infos.push(TensorInfo {
                name: name.to_string(),
                // GGUF lists dimensions innermost first; only their product and number matter here.
                dims: entry.shape.iter().rev().map(|&d| d as u64).collect(),
                ggml_type,
                offset: 0,
                n_bytes: entry.data_offsets[1].saturating_sub(entry.data_offsets[0]),
            });
        }
        Ok(ModelNeeds::new(&infos, Shape::of(&cfg), backend, capped_context(context, cfg.context_length)))
    }
}

/// The context a check is for: `requested`, or [`DEFAULT_CONTEXT`], capped by the model's trained
/// context where it says one; at least 1.
fn capped_context(requested: Option<usize>, trained: Option<usize>) -> usize {
    requested.unwrap_or(DEFAULT_CONTEXT).min(trained.unwrap_or(usize::MAX)).max(1)
}

/// Where a model must fit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Budget {
    /// Bytes where the weights, the cache and the working memory live; `None`: unknown, not checked.
    pub memory: Option<u64>,
    /// What `memory` is, for the message ("wasm32 memory", "navigator.deviceMemory = 8 GiB", …).
    pub memory_source: String,
    /// Bytes of wasm memory that the loading peak and the host's embedding table may take on wgpu
    /// (on the CPU they are part of `memory`).
    pub host: Option<u64>,
}

impl Budget {
    /// The browser's budget for `backend`: wasm32's memory for the CPU; for wgpu the device's
    /// memory as `navigator.deviceMemory` says (GiB, rounded by the browser), unknown without it.
    pub fn browser(backend: BackendKind, device_memory_gib: Option<f64>) -> Budget {
        match backend {
            BackendKind::Cpu => Budget {
                memory: Some(WASM32_USABLE),
                memory_source: "the CPU backend's wasm32 memory (4 GiB at most; about 3.5 GiB usable)".into(),
                host: None,
            },
            BackendKind::Wgpu => Budget {
                memory: device_memory_gib.filter(|g| g.is_finite() && *g > 0.0).map(|g| (g * GIB as f64) as u64),
                memory_source: match device_memory_gib {
                    Some(g) => {
                        format!("this device's memory as the browser reports it (navigator.deviceMemory = {g} GiB)")
                    }
                    None => "this device's memory (unknown: the browser does not say)".into(),
                },
                host: Some(WASM32_USABLE),
            },
        }
    }

    /// A budget forced to `mib` MiB (the page's `?budget_mib=`, for testing the refusal).
    pub fn forced(mut self, mib: u64) -> Budget {
        self.memory = Some(mib.saturating_mul(MIB));
        self.memory_source = format!("a budget of {mib} MiB set by budget_mib");
        self
    }
}

fn mib(bytes: u64) -> String {
    let m = bytes as f64 / MIB as f64;
    if m < 10.0 {
        format!("{m:.1} MiB")
    } else {
        format!("{m:.0} MiB")
    }
}

/// `Ok` if `needs` fits in `budget`, else why not, in words: what is too big, by how much, against
/// which limit, and what to do instead.
pub fn check(name: &str, needs: &ModelNeeds, budget: &Budget) -> std::result::Result<(), String> {
    let other = match needs.backend {
        BackendKind::Cpu => "the WebGPU backend (?backend=wgpu), where the weights live on the GPU",
        BackendKind::Wgpu => "the CPU backend (?backend=cpu)",
    };
    if let Some(limit) = budget.memory {
        if needs.total > limit {
            let loading = if needs.backend == BackendKind::Cpu && needs.loading > needs.kv_cache + needs.working {
                format!(" plus {} while {} is loaded", mib(needs.loading), needs.loading_tensor)
            } else {
                format!(
                    " plus {} of KV cache and working memory for {} tokens",
                    mib(needs.kv_cache + needs.working),
                    needs.context
                )
            };
            return Err(format!(
                "{name} does not fit: on the {} backend it needs about {} ({} of weights, quantized ones kept packed; the largest, {}, is {}){loading}, \
                 more than the {} of {}. Choose a smaller model or a smaller quantization, or try {other}.",
                needs.backend.name(),
                mib(needs.total),
                mib(needs.weights),
                needs.largest.0,
                mib(needs.largest.1),
                mib(limit),
                budget.memory_source,
            ));
        }
    }
    if let Some(host) = budget.host {
        let held = needs.loading.saturating_add(needs.host_resident);
        if needs.backend == BackendKind::Wgpu && held > host {
            let table = if needs.host_resident > 0 {
                format!(" plus {} for the token embedding kept for lookups", mib(needs.host_resident))
            } else {
                String::new()
            };
            return Err(format!(
                "{name} does not fit: loading its tensor {} takes about {} of the worker's wasm32 memory{table}, \
                 more than the {} usable. Choose a smaller model.",
                needs.loading_tensor,
                mib(needs.loading),
                mib(host),
            ));
        }
    }
    Ok(())
}

/// A one-line summary of what fits where, for the model panel.
pub fn summary(needs: &ModelNeeds, budget: &Budget) -> String {
    let of = budget.memory.map(|m| format!(" of {} available", mib(m))).unwrap_or_default();
    format!(
        "needs about {}{of} on {}: {} of weights (quantized ones kept packed), {} of KV cache and working memory for {} tokens",
        mib(needs.total),
        needs.backend.name(),
        mib(needs.weights),
        mib(needs.kv_cache + needs.working),
        needs.context,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quant::QMatrix;

    fn info(name: &str, dims: &[u64], t: GgmlType) -> TensorInfo {
        let n: u64 = dims.iter().product();
        TensorInfo { name: name.into(), dims: dims.to_vec(), ggml_type: t, offset: 0, n_bytes: t.bytes_for(n).unwrap() }
    }

    #[test]
    fn packed_sizes_equal_what_qmatrix_holds_for_every_type() {
        // An all-zero tensor is valid in every type: convert one and ask it what it holds.
        for t in QMatrix::TYPES {
            let (rows, cols) = (3usize, 512usize);
            let bytes = vec![0u8; t.bytes_for((rows * cols) as u64).unwrap() as usize];
            let m = QMatrix::from_ggml(t, &bytes, rows, cols).unwrap();
            assert_eq!(packed_bytes(t, (rows * cols) as u64), Some(m.memory_bytes() as u64), "{t:?}");
            let (bits, block, offsets) = qmatrix_layout(t).unwrap();
            assert_eq!((bits as u32, block as usize, offsets), (m.bits(), m.block(), m.offsets().is_some()), "{t:?}");
        }
        assert_eq!(packed_bytes(GgmlType::F16, 64), None);
        assert_eq!(packed_bytes(GgmlType::Q2_K, 256), None);
    }

    #[test]
    fn what_stays_packed_and_what_becomes_f32() {
        let q = info("blk.0.attn_q.weight", &[256, 4], GgmlType::Q4_0);
        // 1024 weights: 512 bytes of nibbles, 32 blocks × 4 bytes of scale.
        assert_eq!(tensor_bytes(&q), 512 + 128);
        // A K-quant with offsets: 1024 nibbles = 512 bytes, 32 blocks × (scale + offset).
        assert_eq!(tensor_bytes(&info("w", &[256, 4], GgmlType::Q4_K)), 512 + 256);
        // Q6_K: 8 bits a weight, 64 blocks of 16 with a scale each.
        assert_eq!(tensor_bytes(&info("w", &[256, 4], GgmlType::Q6_K)), 1024 + 256);
        // Float types and vectors are f32; a quantized vector too (only matrices stay packed).
        assert_eq!(tensor_bytes(&info("w", &[256, 4], GgmlType::F16)), 4096);
        assert_eq!(tensor_bytes(&info("norm", &[256], GgmlType::F32)), 1024);
        assert_eq!(tensor_bytes(&info("v", &[256], GgmlType::Q8_0)), 1024);
    }

    fn tiny() -> (Vec<TensorInfo>, Shape) {
        let tensors = vec![
            info("token_embd.weight", &[256, 1000], GgmlType::Q8_0),
            info("blk.0.attn_q.weight", &[256, 256], GgmlType::Q8_0),
            info("blk.0.attn_norm.weight", &[256], GgmlType::F32),
        ];
        (tensors, Shape { layers: 1, heads: 4, kv_heads: 2, head_dim: 64, ffn: 512 })
    }

    #[test]
    fn the_threaded_workers_helper_threads_count_their_stacks() {
        let (tensors, shape) = tiny();
        let one = ModelNeeds::new(&tensors, shape, BackendKind::Cpu, 100);
        let eight = one.clone().on_threads(8);
        assert_eq!(eight.working, one.working + 7 * HELPER_THREAD_STACK);
        assert!(one.kv_cache + one.working > one.loading, "the running memory decides this model's total");
        assert_eq!(eight.total, one.total + 7 * HELPER_THREAD_STACK);
        assert_eq!(one.clone().on_threads(1), one, "one thread: no helper");
        // A model that fits on one thread may not fit with the stacks of eight.
        let budget =
            Budget { memory: Some(one.total + HELPER_THREAD_STACK), ..Budget::browser(BackendKind::Cpu, None) };
        assert!(check("m.gguf", &one, &budget).is_ok());
        assert!(check("m.gguf", &eight, &budget).is_err());
    }

    #[test]
    fn needs_add_up_by_the_formulas() {
        let (tensors, shape) = tiny();
        let cpu = ModelNeeds::new(&tensors, shape, BackendKind::Cpu, 100);
        // Q8_0 packed: n bytes + n/32 × 4 of scales.
        let embd = 256_000 + 8_000 * 4;
        let q = 65_536 + 2_048 * 4;
        assert_eq!(cpu.weights, embd + q + 1024);
        assert_eq!(cpu.largest, ("token_embd.weight".into(), embd));
        assert_eq!(cpu.kv_cache, 2 * 2 * 64 * 4 * 100);
        assert_eq!(cpu.working, 2 * 4 * 100 * 100 * 4 + 3 * 100 * 512 * 4);
        // The larger of the embedding's file bytes (34 per 32 weights) plus what it becomes, and
        // the Q projection's plus twice what it becomes (its rows are permuted into a copy).
        assert_eq!(cpu.loading, (8_000 * 34 + embd).max(2_048 * 34 + 2 * q));
        assert_eq!(cpu.total, cpu.weights + cpu.loading.max(cpu.kv_cache + cpu.working));
        assert_eq!(cpu.file_bytes, 8_000 * 34 + 2_048 * 34 + 1024);

        assert_eq!(cpu.host_resident, 0);

        // On wgpu the same packed weights are on the device; the quantized embedding is also kept
        // on the host, and the loading peak is in host memory, not the device's.
        let gpu = ModelNeeds::new(&tensors, shape, BackendKind::Wgpu, 100);
        assert_eq!(gpu.weights, cpu.weights);
        assert_eq!(gpu.host_resident, embd);
        assert_eq!(gpu.total, gpu.weights + gpu.kv_cache + gpu.working);
    }

    #[test]
    fn a_model_too_big_is_refused_with_the_reason() {
        let (tensors, shape) = tiny();
        let needs = ModelNeeds::new(&tensors, shape, BackendKind::Cpu, 100);
        let budget = Budget::browser(BackendKind::Cpu, None);
        assert_eq!(check("tiny.gguf", &needs, &budget), Ok(()));
        let why = check("tiny.gguf", &needs, &budget.clone().forced(1)).unwrap_err();
        assert!(why.starts_with("tiny.gguf does not fit: on the cpu backend it needs about 1.3 MiB"), "{why}");
        for part in
            ["token_embd.weight", "more than the 1.0 MiB of a budget of 1 MiB", "smaller model", "WebGPU backend"]
        {
            assert!(why.contains(part), "{part:?} missing from: {why}");
        }
        // wasm32 memory bounds the CPU backend: a 4 GiB model is refused there.
        let big = [info("token_embd.weight", &[4096, 1 << 20], GgmlType::Q8_0)];
        let needs = ModelNeeds::new(&big, shape, BackendKind::Cpu, 100);
        let why = check("big.gguf", &needs, &budget).unwrap_err();
        assert!(why.contains("3584 MiB of the CPU backend's wasm32 memory"), "{why}");
        // On WebGPU an unknown device memory is not a reason to refuse, a known one is.
        let needs = ModelNeeds::new(&big, shape, BackendKind::Wgpu, 100);
        let unknown = Budget::browser(BackendKind::Wgpu, None);
        assert_eq!(check("big.gguf", &needs, &Budget { host: None, ..unknown.clone() }), Ok(()));
        // …but wasm memory is: the 4.25 GiB embedding is read through it and kept there for lookups.
        let why = check("big.gguf", &needs, &unknown).unwrap_err();
        assert!(
            why.contains("token_embd.weight") && why.contains("wasm32 memory") && why.contains("kept for lookups"),
            "{why}"
        );
        let why = check("big.gguf", &needs, &Budget::browser(BackendKind::Wgpu, Some(4.0))).unwrap_err();
        assert!(why.contains("navigator.deviceMemory = 4 GiB") && why.contains("CPU backend"), "{why}");
    }

    /// `$LINGUALENS_FIXTURES`, or `None` after saying the test was skipped (a panic instead under
    /// `LINGUALENS_REQUIRE_FIXTURES=1`).
    fn fixtures_root(test: &str) -> Option<std::path::PathBuf> {
        let root = std::env::var_os("LINGUALENS_FIXTURES").map(std::path::PathBuf::from);
        if root.is_none() {
            assert!(
                std::env::var("LINGUALENS_REQUIRE_FIXTURES").as_deref() != Ok("1"),
                "LINGUALENS_FIXTURES is not set"
            );
            eprintln!("SKIPPED {test}: LINGUALENS_FIXTURES is not set");
        }
        root
    }

    /// A Hugging Face folder's needs, from config.json and the safetensors headers, equal those of
    /// the F32 GGUF export of the same weights (made by llama.cpp's converter, an independent
    /// reading of the same model): the same tensors held as f32, the same cache and working memory.
    /// One file and four shards alike.
    #[test]
    fn needs_of_fixture_hf_folders_equal_those_of_their_f32_gguf() {
        use crate::formats::safetensors::SafetensorsShards;
        use crate::formats::source::FileSource;
        let Some(root) = fixtures_root("needs_of_fixture_hf_folders_equal_those_of_their_f32_gguf") else { return };
        let mut checked = 0;
        for (model, folder) in [
            ("llama3_tied", ""),
            ("llama3_untied", ""),
            ("qwen2", ""),
            ("qwen3", ""),
            ("qwen3", "sharded"),
            ("gemma3", ""),
        ] {
            let dir = root.join(format!("models/{model}")).join(folder);
            let gguf = root.join(format!("models/{model}/gguf/{model}-F32.gguf"));
            if !dir.join("config.json").is_file() || !gguf.is_file() {
                continue;
            }
            let config = std::fs::read_to_string(dir.join("config.json")).unwrap();
            let shards = pollster::block_on(SafetensorsShards::open_folder(&dir)).unwrap();
            let mut file = pollster::block_on(GgufFile::read(&FileSource::open(&gguf).unwrap())).unwrap();
            // llama.cpp's converter stores Llama 3's RoPE scaling as a tensor; the HF model has it
            // in config.json (and the model code computes it from there, for both).
            file.tensors.retain(|t| t.name != "rope_freqs.weight");
            for backend in [BackendKind::Cpu, BackendKind::Wgpu] {
                let hf = ModelNeeds::from_safetensors(model, &config, shards.entries(), backend, None).unwrap();
                let reference = ModelNeeds::from_gguf(&file, backend, None).unwrap();
                let key = |n: &ModelNeeds| {
                    (n.tensors, n.weights, n.largest.1, n.context, n.kv_cache, n.working, n.host_resident)
                };
                assert_eq!(key(&hf), key(&reference), "{model} {folder} {backend:?}");
                // The file holds 4 bytes a value (the fixtures are F32): the loading peak is twice
                // the largest tensor, without the GGUF's permuted copy of Q and K.
                assert_eq!(hf.loading, 2 * hf.largest.1, "{model} {folder}");
            }
            checked += 1;
        }
        assert!(checked > 0, "no fixture HF folder with an F32 GGUF under {}", root.display());
    }

    #[test]
    fn a_hf_folder_is_checked_like_a_gguf_and_unreadable_dtypes_are_named() {
        let config = r#"{"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 256, "intermediate_size": 512,
            "num_hidden_layers": 1, "num_attention_heads": 4, "num_key_value_heads": 2, "vocab_size": 1000, "rms_norm_eps": 1e-5,
            "max_position_embeddings": 512, "rope_theta": 10000.0, "tie_word_embeddings": true}"#;
        let entry = |dtype: &str, shape: &[usize], bytes: u64| TensorEntry {
            dtype: dtype.into(),
            shape: shape.to_vec(),
            data_offsets: [0, bytes],
        };
        let tensors = [
            ("model.embed_tokens.weight".to_string(), entry("BF16", &[1000, 256], 512_000)),
            ("model.norm.weight".to_string(), entry("F32", &[256], 1024)),
        ];
        let needs = ModelNeeds::from_safetensors(
            "tiny",
            config,
            tensors.iter().map(|(n, e)| (n.as_str(), e)),
            BackendKind::Cpu,
            None,
        )
        .unwrap();
        // BF16 is read into f32: 4 bytes a value; the context is capped by max_position_embeddings.
        assert_eq!(needs.weights, 1_024_000 + 1024);
        assert_eq!(needs.loading, 512_000 + 1_024_000);
        assert_eq!(needs.context, 512);
        let why = check("tiny", &needs, &Budget::browser(BackendKind::Cpu, None).forced(1)).unwrap_err();
        assert!(
            why.starts_with("tiny does not fit: on the cpu backend") && why.contains("model.embed_tokens.weight"),
            "{why}"
        );
        let int8 = [("model.embed_tokens.weight".to_string(), entry("I8", &[1000, 256], 256_000))];
        let e = ModelNeeds::from_safetensors(
            "tiny",
            config,
            int8.iter().map(|(n, e)| (n.as_str(), e)),
            BackendKind::Cpu,
            None,
        )
        .unwrap_err();
        assert!(e.to_string().contains("model.embed_tokens.weight is I8"), "{e}");
    }

    /// The needs of real GGUF files equal what the model code holds after reading every tensor
    /// the way `models::weights` does: `QMatrix::memory_bytes` when packed, else 4 bytes a value.
    #[test]
    fn needs_of_fixture_ggufs_equal_the_loaded_weights() {
        use crate::formats::source::FileSource;
        use crate::models::weights::{Weight, WeightFile};
        let Some(root) = fixtures_root("needs_of_fixture_ggufs_equal_the_loaded_weights") else { return };
        let mut checked = 0;
        for (model, quant) in [
            ("llama3_h256", "Q4_K"),
            ("llama3_h256", "Q6_K"),
            ("llama3_h256", "F16"),
            ("gemma3", "Q8_0"),
            ("qwen2", "Q4_0"),
        ] {
            let path = root.join(format!("models/{model}/gguf/{model}-{quant}.gguf"));
            if !path.is_file() {
                continue;
            }
            let source = FileSource::open(&path).unwrap();
            let file = pollster::block_on(GgufFile::read(&source)).unwrap();
            let cfg = ModelConfig::from_gguf(&file).unwrap();
            let needs = ModelNeeds::from_gguf(&file, BackendKind::Cpu, Some(64)).unwrap();
            let tensors = file.tensors.clone();
            let w = WeightFile::Gguf { file, source, int8_activations: false };
            let mut held = 0u64;
            for t in &tensors {
                held += match pollster::block_on(w.get_weight(&t.name, &cfg)).unwrap() {
                    Weight::Quantized(m) => m.memory_bytes() as u64,
                    Weight::Float(f) => 4 * f.values.len() as u64,
                };
            }
            assert_eq!(needs.weights, held, "{model} {quant}");
            assert_eq!(
                needs.kv_cache,
                2 * cfg.num_layers as u64 * cfg.num_kv_heads as u64 * cfg.head_dim as u64 * 4 * 64,
                "{model} {quant}"
            );
            checked += 1;
        }
        assert!(checked > 0, "no fixture GGUF found under {}", root.display());
    }
}
