//! The pieces every architecture is built from, as burn tensor ops that run on any backend.
//! Shapes are in the names: `[t, d]` is tokens × features, `[h, t, d]` heads × tokens × head_dim.

use std::sync::Arc;

use burn::tensor::{activation, Device, Int, Tensor, TensorData};

use crate::error::Result;
use crate::formats::source::ByteSource;
use crate::gpu::{self, GpuQMatrix};
use crate::models::config::ModelConfig;
use crate::models::host_ops;
use crate::models::weights::{HostTensor, Weight, WeightFile};
use crate::quant::{qmatmul, qmatmul_int8, qmatmul_int8_each, Int8Matrix, QMatrix};

pub fn tensor1(t: HostTensor, device: &Device) -> Tensor<1> {
    let n = t.values.len();
    Tensor::from_data(TensorData::new(t.values, [n]), device)
}

pub fn tensor2(t: HostTensor, device: &Device) -> Tensor<2> {
    let shape = [t.shape[0], t.values.len() / t.shape[0].max(1)];
    Tensor::from_data(TensorData::new(t.values, shape), device)
}

/// A 2-D f32 weight `[rows, cols]` on the device, cut by rows into pieces of at most `limit`
/// bytes each (one piece when there is no limit): a device buffer may not exceed the adapter's
/// largest storage binding, and Gemma 3 1B's embedding is 1.2 GB in f32.
fn row_pieces(t: HostTensor, limit: Option<u64>, device: &Device) -> Vec<Tensor<2>> {
    let rows = t.shape[0].max(1);
    let cols = t.values.len() / rows;
    let rows_per_piece = match limit {
        Some(limit) => ((limit / (cols.max(1) as u64 * 4)) as usize).clamp(1, rows),
        None => rows,
    };
    if rows_per_piece == rows {
        return vec![tensor2(t, device)];
    }
    t.values
        .chunks(rows_per_piece * cols)
        .map(|piece| Tensor::from_data(TensorData::new(piece.to_vec(), [piece.len() / cols, cols]), device))
        .collect()
}

/// `y = x Wᵀ + b`. A float W is kept transposed (`[in, out]`, in pieces of output columns when it
/// is larger than a binding) so the forward pass is one matmul per piece. A quantized W stays
/// packed: on the host for the CPU backend (`quant::qmatmul`, or repacked for
/// `quant::qmatmul_int8` when activations are quantized too), on the device for wgpu
/// (`gpu::GpuQMatrix`, dequantized inside the kernel).
pub enum Linear {
    Float { weight_t: Vec<Tensor<2>>, bias: Option<Tensor<1>> },
    Quantized { weight: Arc<QMatrix>, bias: Option<Tensor<1>> },
    Int8 { weight: Arc<Int8Matrix>, bias: Option<Tensor<1>> },
    Gpu { weight: Arc<GpuQMatrix>, bias: Option<Tensor<1>> },
}

impl Linear {
    pub async fn load<S: ByteSource>(
        w: &WeightFile<S>,
        name: &str,
        cfg: &ModelConfig,
        device: &Device,
    ) -> Result<Linear> {
        let bias_name = format!("{name}.bias");
        let bias = if w.has(&bias_name, cfg.architecture) {
            Some(tensor1(w.get(&bias_name, cfg).await?, device))
        } else {
            None
        };
        let weight = w.get_weight(&format!("{name}.weight"), cfg).await?;
        Linear::from_weight(weight, bias, w.int8_activations(), device)
            .map_err(|e| e.context(format!("tensor {name}.weight")))
    }

    fn from_weight(weight: Weight, bias: Option<Tensor<1>>, int8_activations: bool, device: &Device) -> Result<Linear> {
        let limit = gpu::binding_limit(device);
        Ok(match (weight, limit) {
            (Weight::Float(t), limit) => Linear::Float {
                weight_t: row_pieces(t, limit, device).into_iter().map(|w| w.transpose()).collect(),
                bias,
            },
            (Weight::Quantized(m), None) => Linear::host_quantized(m, bias, int8_activations),
            (Weight::Quantized(m), Some(limit)) => {
                Linear::Gpu { weight: Arc::new(GpuQMatrix::upload(&m, device, limit)?), bias }
            }
        })
    }

    /// A quantized W on the host: repacked for 8-bit activations when asked and its form allows.
    fn host_quantized(m: QMatrix, bias: Option<Tensor<1>>, int8_activations: bool) -> Linear {
        match int8_form(&m, int8_activations) {
            Some(weight) => Linear::Int8 { weight: Arc::new(weight), bias },
            None => Linear::Quantized { weight: Arc::new(m), bias },
        }
    }

    /// `[t, in]` → `[t, out]`
    pub fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        let (y, bias) = match self {
            Linear::Float { weight_t, bias } => match weight_t.as_slice() {
                [w] => (x.matmul(w.clone()), bias),
                pieces => (Tensor::cat(pieces.iter().map(|w| x.clone().matmul(w.clone())).collect(), 1), bias),
            },
            Linear::Quantized { weight, bias } => {
                (host_matmul(x, weight.rows(), |input, out| qmatmul(input, weight, out)), bias)
            }
            Linear::Int8 { weight, bias } => {
                (host_matmul(x, weight.rows(), |input, out| qmatmul_int8(input, weight, out)), bias)
            }
            Linear::Gpu { weight, bias } => (weight.matmul(x), bias),
        };
        add_bias(y, bias)
    }

    /// `x` through each of `linears` (a layer's q, k and v, or its gate and up): where all are
    /// repacked for 8-bit activations, `x` is read to the host and quantized once for them all.
    pub fn forward_each<const N: usize>(linears: [&Linear; N], x: Tensor<2>) -> [Tensor<2>; N] {
        let weights = linears.map(|l| match l {
            Linear::Int8 { weight, .. } => Some(weight.as_ref()),
            _ => None,
        });
        if weights.iter().any(Option::is_none) {
            return linears.map(|l| l.forward(x.clone()));
        }
        let weights = weights.map(|w| w.expect("checked just above"));
        let ([t, _], device) = (x.dims(), x.device());
        let data = x.into_data();
        let input = data.as_slice::<f32>().expect("activations are f32");
        let mut outs = weights.map(|w| vec![0f32; t * w.rows()]);
        qmatmul_int8_each(input, &weights, &mut outs.each_mut().map(|o| o.as_mut_slice()));
        let mut outs = outs.into_iter().zip(weights);
        linears.map(|l| {
            let (out, w) = outs.next().expect("one output per linear");
            add_bias(Tensor::from_data(TensorData::new(out, [t, w.rows()]), &device), l.bias())
        })
    }

    /// A layer's q, k and v from its normed input `h` (`[t, d]`): k and v for every token (they go
    /// into the KV cache), q for the last `rows` only (the last layer needs no more; llama.cpp skips
    /// the rest the same way). Where it can, one quantized input serves all three.
    pub fn attention_inputs(q: &Linear, k: &Linear, v: &Linear, h: Tensor<2>, rows: usize) -> [Tensor<2>; 3] {
        let t = h.dims()[0];
        if rows == t {
            return Linear::forward_each([q, k, v], h);
        }
        let [k, v] = Linear::forward_each([k, v], h.clone());
        [q.forward(h.narrow(0, t - rows, rows)), k, v]
    }

    fn bias(&self) -> &Option<Tensor<1>> {
        match self {
            Linear::Float { bias, .. }
            | Linear::Quantized { bias, .. }
            | Linear::Int8 { bias, .. }
            | Linear::Gpu { bias, .. } => bias,
        }
    }
}

fn add_bias(y: Tensor<2>, bias: &Option<Tensor<1>>) -> Tensor<2> {
    match bias {
        Some(b) => y + b.clone().unsqueeze_dim(0),
        None => y,
    }
}

fn row_indices(tokens: &[u32]) -> Vec<usize> {
    tokens.iter().map(|&t| t as usize).collect()
}

/// `m` repacked for `quant::qmatmul_int8`, when 8-bit activations are asked for and `m`'s form
/// allows them (every form a GGUF type converts to); otherwise `None`, and `m` is multiplied with
/// f32 activations.
fn int8_form(m: &QMatrix, int8_activations: bool) -> Option<Int8Matrix> {
    if int8_activations {
        Int8Matrix::new(m)
    } else {
        None
    }
}

/// `[t, in]` → `[t, rows]` by a matmul over host memory: the CPU backend's tensors live there, so
/// reading them is a copy, not a transfer.
fn host_matmul(x: Tensor<2>, rows: usize, matmul: impl FnOnce(&[f32], &mut [f32])) -> Tensor<2> {
    let [t, _] = x.dims();
    let device = x.device();
    let data = x.into_data();
    let input = data.as_slice::<f32>().expect("activations are f32");
    let mut out = vec![0f32; t * rows];
    matmul(input, &mut out);
    Tensor::from_data(TensorData::new(out, [t, rows]), &device)
}

/// The token embedding, which doubles as the output projection when embeddings are tied.
pub enum Embedding {
    /// Row pieces of the f32 table (one piece unless the table is larger than a binding).
    Float(Vec<Tensor<2>>),
    /// Packed rows, looked up on the host; `gpu` holds the same matrix on a wgpu device for the
    /// tied output projection.
    Quantized { table: Arc<QMatrix>, gpu: Option<Arc<GpuQMatrix>> },
    /// Rows repacked for 8-bit activations (the CPU's `cpu-int8`): one copy serves the lookup
    /// and the tied output projection.
    Int8(Arc<Int8Matrix>),
}

impl Embedding {
    pub async fn load<S: ByteSource>(w: &WeightFile<S>, cfg: &ModelConfig, device: &Device) -> Result<Embedding> {
        let limit = gpu::binding_limit(device);
        Ok(match w.get_weight("token_embd.weight", cfg).await? {
            Weight::Float(t) => Embedding::Float(row_pieces(t, limit, device)),
            Weight::Quantized(m) => match limit {
                Some(limit) => {
                    let gpu =
                        GpuQMatrix::upload(&m, device, limit).map_err(|e| e.context("tensor token_embd.weight"))?;
                    Embedding::Quantized { table: Arc::new(m), gpu: Some(Arc::new(gpu)) }
                }
                None => match int8_form(&m, w.int8_activations()) {
                    Some(int8) => Embedding::Int8(Arc::new(int8)),
                    None => Embedding::Quantized { table: Arc::new(m), gpu: None },
                },
            },
        })
    }

    /// `[t, hidden]` for the token ids.
    pub fn lookup(&self, tokens: &[u32], device: &Device) -> Tensor<2> {
        match self {
            Embedding::Float(pieces) if pieces.len() == 1 => pieces[0].clone().select(0, token_ids(tokens, device)),
            Embedding::Float(pieces) => {
                // Gather each token's row from the piece that holds it, pieces in order, then put
                // the rows back in token order.
                let mut gathered = Vec::new();
                let mut order = Vec::with_capacity(tokens.len());
                let mut first_row = 0u32;
                for piece in pieces {
                    let rows = piece.dims()[0] as u32;
                    let mine: Vec<usize> =
                        (0..tokens.len()).filter(|&i| (first_row..first_row + rows).contains(&tokens[i])).collect();
                    if !mine.is_empty() {
                        let local: Vec<u32> = mine.iter().map(|&i| tokens[i] - first_row).collect();
                        gathered.push(piece.clone().select(0, token_ids(&local, device)));
                        order.extend(mine);
                    }
                    first_row += rows;
                }
                let mut position = vec![0u32; tokens.len()];
                for (row, &token_index) in order.iter().enumerate() {
                    position[token_index] = row as u32;
                }
                Tensor::cat(gathered, 0).select(0, token_ids(&position, device))
            }
            Embedding::Quantized { table, .. } => Tensor::from_data(
                TensorData::new(table.dequantize_rows(&row_indices(tokens)), [tokens.len(), table.cols()]),
                device,
            ),
            Embedding::Int8(table) => Tensor::from_data(
                TensorData::new(table.dequantize_rows(&row_indices(tokens)), [tokens.len(), table.cols()]),
                device,
            ),
        }
    }

    /// The tied output projection.
    pub fn as_linear(&self) -> Linear {
        match self {
            Embedding::Float(pieces) => {
                Linear::Float { weight_t: pieces.iter().map(|p| p.clone().transpose()).collect(), bias: None }
            }
            Embedding::Quantized { gpu: Some(gpu), .. } => Linear::Gpu { weight: gpu.clone(), bias: None },
            Embedding::Quantized { table, gpu: None } => Linear::Quantized { weight: table.clone(), bias: None },
            Embedding::Int8(table) => Linear::Int8 { weight: table.clone(), bias: None },
        }
    }
}

/// RMSNorm over the last dimension: `x / sqrt(mean(x²) + eps) * w`.
pub struct RmsNorm {
    weight: Tensor<1>,
    /// The same weights on the host, for the CPU backend's loop ([`host_ops::rms_norm_rows`]).
    host_weight: Vec<f32>,
    eps: f64,
}

impl RmsNorm {
    pub async fn load<S: ByteSource>(
        w: &WeightFile<S>,
        name: &str,
        cfg: &ModelConfig,
        device: &Device,
    ) -> Result<RmsNorm> {
        let weight = w.get(name, cfg).await?;
        let host_weight = weight.values.clone();
        Ok(RmsNorm { weight: tensor1(weight, device), host_weight, eps: cfg.rms_norm_eps })
    }

    /// `[n, d]` → `[n, d]`; on the CPU backend one loop over host memory, its rows split across
    /// the cores, instead of seven tensor ops on one.
    pub fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        let device = x.device();
        if device == Device::flex() {
            let dims = x.dims();
            let mut values = host_values(x);
            host_ops::rms_norm_rows(&mut values, &self.host_weight, self.eps as f32);
            return Tensor::from_data(TensorData::new(values, dims), &device);
        }
        let inv_rms = x.clone().square().mean_dim(1).add_scalar(self.eps).sqrt().recip();
        x * inv_rms * self.weight.clone().unsqueeze_dim(0)
    }

    /// Per-head norm on `[h, t, head_dim]` (Qwen3's and Gemma 3's q/k norms).
    pub fn forward_heads(&self, x: Tensor<3>) -> Tensor<3> {
        let [h, t, d] = x.dims();
        self.forward(x.reshape([h * t, d])).reshape([h, t, d])
    }
}

/// Rotary position embedding in transformers' rotate-half form:
/// `x·cos + rotate_half(x)·sin`, `rotate_half([a, b]) = [-b, a]`.
pub struct Rope {
    inv_freq: Vec<f32>,
}

impl Rope {
    pub fn new(inv_freq: Vec<f32>) -> Rope {
        Rope { inv_freq }
    }

    /// The cos and sin tables of one pass (token `i` at position `positions[i]`), made once and
    /// used by every layer.
    pub fn angles(&self, positions: &[usize], device: &Device) -> RopeAngles {
        let (t, d) = (positions.len(), 2 * self.inv_freq.len());
        let mut cos = Vec::with_capacity(t * d);
        let mut sin = Vec::with_capacity(t * d);
        for &pos in positions {
            // As transformers: the angle is computed in f32, and the table is [freqs, freqs].
            let angles: Vec<f32> = self.inv_freq.iter().map(|f| pos as f32 * f).collect();
            for _ in 0..2 {
                cos.extend(angles.iter().map(|a| a.cos()));
                sin.extend(angles.iter().map(|a| a.sin()));
            }
        }
        RopeAngles {
            cos: Tensor::<2>::from_data(TensorData::new(cos.clone(), [t, d]), device).unsqueeze_dim::<3>(0),
            sin: Tensor::<2>::from_data(TensorData::new(sin.clone(), [t, d]), device).unsqueeze_dim::<3>(0),
            host: Arc::new((cos, sin)),
            rows: 0..t,
        }
    }
}

/// [`Rope::angles`]: `[1, t, head_dim]` each.
pub struct RopeAngles {
    cos: Tensor<3>,
    sin: Tensor<3>,
    /// The same tables on the host (`[t][d]`, all the pass's tokens), for the CPU backend's loop
    /// ([`host_ops::rope_rotate`]), and which of their rows these angles are.
    host: Arc<(Vec<f32>, Vec<f32>)>,
    rows: std::ops::Range<usize>,
}

impl RopeAngles {
    /// The angles of the last `n` tokens only.
    pub fn last(&self, n: usize) -> RopeAngles {
        let t = self.cos.dims()[1];
        RopeAngles {
            cos: self.cos.clone().narrow(1, t - n, n),
            sin: self.sin.clone().narrow(1, t - n, n),
            host: self.host.clone(),
            rows: self.rows.end - n..self.rows.end,
        }
    }

    /// Rotates `x` (`[h, t, d]`); on the CPU backend one loop over host memory, split across the
    /// cores.
    pub fn rotate(&self, x: Tensor<3>) -> Tensor<3> {
        let device = x.device();
        if device == Device::flex() {
            let dims @ [_, t, d] = x.dims();
            let mut values = host_values(x);
            let rows = self.rows.start * d..self.rows.end * d;
            host_ops::rope_rotate(&mut values, t, &self.host.0[rows.clone()], &self.host.1[rows]);
            return Tensor::from_data(TensorData::new(values, dims), &device);
        }
        let half = x.dims()[2] / 2;
        let first = x.clone().narrow(2, 0, half);
        let second = x.clone().narrow(2, half, half);
        let rotated = Tensor::cat(vec![second.neg(), first], 2);
        x * self.cos.clone() + rotated * self.sin.clone()
    }
}

/// Keys and values of the positions already run, per layer (`[kv, t, d]`, keys after RoPE), so a
/// shared context is computed once and every continuation continues from it. Cloning is cheap:
/// a clone shares the layers, and appending never changes what another clone sees.
///
/// On wgpu a layer is two tensors and appending makes new ones. On the CPU backends it is host
/// memory with room to grow ([`HostKv`]), appended in place while no clone shares it: a generated
/// token then costs its own keys and values, not a copy of the whole cache per layer.
#[derive(Clone, Default)]
pub struct KvCache {
    layers: Vec<Option<CachedLayer>>,
    len: usize,
}

#[derive(Clone)]
enum CachedLayer {
    /// Keys and values (boxed: a tensor handle is large next to a host layer).
    Tensors(Box<(Tensor<3>, Tensor<3>)>),
    Host(HostKv),
}

/// One layer's keys and values on the host: `[kv][capacity][d]`, the first `len` positions of
/// each KV head filled. Shared between clones of a cache until one of them appends.
#[derive(Clone)]
pub struct HostKv {
    pub keys: Arc<Vec<f32>>,
    pub values: Arc<Vec<f32>>,
    pub kv_heads: usize,
    pub d: usize,
    pub len: usize,
    pub capacity: usize,
}

impl HostKv {
    fn empty(kv_heads: usize, d: usize) -> HostKv {
        HostKv { keys: Arc::default(), values: Arc::default(), kv_heads, d, len: 0, capacity: 0 }
    }

    /// Appends `t` positions of `k` and `v` (`[kv][t][d]`). In place when this layer is not shared
    /// and has room; else copied once into new memory (twice the room when it has none, so a
    /// generation copies the cache a logarithmic number of times).
    fn append(&mut self, k: &[f32], v: &[f32], t: usize) {
        let (kv, d, len) = (self.kv_heads, self.d, self.len);
        let needed = len + t;
        let shared = Arc::get_mut(&mut self.keys).is_none() || Arc::get_mut(&mut self.values).is_none();
        if shared || needed > self.capacity {
            let capacity = if needed > self.capacity && !shared { needed.max(2 * self.capacity) } else { needed };
            let regrow = |old: &[f32]| {
                let mut new = vec![0f32; kv * capacity * d];
                for h in 0..kv {
                    new[h * capacity * d..][..len * d].copy_from_slice(&old[h * self.capacity * d..][..len * d]);
                }
                Arc::new(new)
            };
            (self.keys, self.values) = (regrow(&self.keys), regrow(&self.values));
            self.capacity = capacity;
        }
        let capacity = self.capacity;
        for (to, from) in [(&mut self.keys, k), (&mut self.values, v)] {
            let to = Arc::get_mut(to).expect("unshared after the copy above");
            for h in 0..kv {
                to[(h * capacity + len) * d..][..t * d].copy_from_slice(&from[h * t * d..][..t * d]);
            }
        }
        self.len = needed;
    }

    fn to_tensors(&self, device: &Device) -> (Tensor<3>, Tensor<3>) {
        let (kv, d, len) = (self.kv_heads, self.d, self.len);
        let dense = |x: &[f32]| {
            let rows: Vec<f32> = (0..kv).flat_map(|h| x[h * self.capacity * d..][..len * d].iter().copied()).collect();
            Tensor::from_data(TensorData::new(rows, [kv, len, d]), device)
        };
        (dense(&self.keys), dense(&self.values))
    }
}

impl KvCache {
    pub fn new() -> KvCache {
        KvCache::default()
    }

    /// Positions already in the cache.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Appends this step's `k`, `v` for `layer` and returns the full keys and values.
    pub fn append(&mut self, layer: usize, k: Tensor<3>, v: Tensor<3>) -> (Tensor<3>, Tensor<3>) {
        if self.layers.len() <= layer {
            self.layers.resize(layer + 1, None);
        }
        let (k, v) = match self.layers[layer].take() {
            Some(CachedLayer::Tensors(kv)) => {
                let (pk, pv) = *kv;
                (Tensor::cat(vec![pk, k], 1), Tensor::cat(vec![pv, v], 1))
            }
            Some(CachedLayer::Host(host)) => {
                let (pk, pv) = host.to_tensors(&k.device());
                (Tensor::cat(vec![pk, k], 1), Tensor::cat(vec![pv, v], 1))
            }
            None => (k, v),
        };
        self.layers[layer] = Some(CachedLayer::Tensors(Box::new((k.clone(), v.clone()))));
        (k, v)
    }

    /// Appends `t` positions of host keys and values (`[kv][t][d]`) for `layer`, in place where
    /// it can, and returns the layer's whole cache.
    pub fn append_host(&mut self, layer: usize, k: &[f32], v: &[f32], kv_heads: usize, t: usize, d: usize) -> &HostKv {
        if self.layers.len() <= layer {
            self.layers.resize(layer + 1, None);
        }
        let mut host = match self.layers[layer].take() {
            Some(CachedLayer::Host(host)) => host,
            Some(CachedLayer::Tensors(kv)) => {
                let (pk, pv) = *kv;
                let mut host = HostKv::empty(kv_heads, d);
                let [_, len, _] = pk.dims();
                let data = |x: Tensor<3>| x.into_data().try_to_vec::<f32>().expect("cached keys and values are f32");
                host.append(&data(pk), &data(pv), len);
                host
            }
            None => HostKv::empty(kv_heads, d),
        };
        host.append(k, v, t);
        let slot = &mut self.layers[layer];
        *slot = Some(CachedLayer::Host(host));
        match slot {
            Some(CachedLayer::Host(host)) => host,
            _ => unreachable!("just stored"),
        }
    }

    /// Called once per forward pass, after every layer has appended `t` positions.
    pub fn advance(&mut self, t: usize) {
        self.len += t;
    }
}

/// Where the tokens of one forward pass sit, after the `cached` positions already in the KV cache:
/// each token's position, and which tokens of the pass it may attend to.
///
/// One sequence ([`Positions::after`]) continues the cache. Several packed sequences
/// ([`Positions::packed`]: the continuations of one context, scored in one pass) each continue
/// the cache from the same position and never see each other, so each gets the logits it would
/// get alone; the KV cache they were run through holds all of them and must be thrown away.
pub struct Positions {
    cached: usize,
    positions: Vec<usize>,
    /// Which packed sequence each token belongs to.
    sequence: Vec<usize>,
}

impl Positions {
    /// `t` tokens at `cached..cached + t`.
    pub fn after(cached: usize, t: usize) -> Positions {
        Positions { cached, positions: (cached..cached + t).collect(), sequence: vec![0; t] }
    }

    /// Sequences of these lengths, one after another in the pass, each starting at `cached`.
    pub fn packed(cached: usize, lengths: &[usize]) -> Positions {
        let mut p = Positions { cached, positions: Vec::new(), sequence: Vec::new() };
        for (s, &len) in lengths.iter().enumerate() {
            p.positions.extend(cached..cached + len);
            p.sequence.extend(std::iter::repeat_n(s, len));
        }
        p
    }

    pub fn len(&self) -> usize {
        self.positions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    pub fn positions(&self) -> &[usize] {
        &self.positions
    }

    /// Additive attention mask `[t, cached + t]`: 0 where a query may look, -inf where not (a later
    /// token, another packed sequence, or a key `window` or more positions back).
    pub fn mask(&self, window: Option<usize>, device: &Device) -> Tensor<2> {
        let (t, t_k) = (self.len(), self.cached + self.len());
        let mut mask = vec![0f32; t * t_k];
        for i in 0..t {
            let q = self.positions[i];
            for k in 0..t_k {
                let (key_position, visible) = match k.checked_sub(self.cached) {
                    None => (k, true),
                    Some(j) => (self.positions[j], j <= i && self.sequence[j] == self.sequence[i]),
                };
                let outside_window = window.is_some_and(|w| q >= w && key_position <= q - w);
                if !visible || outside_window {
                    mask[i * t_k + k] = f32::NEG_INFINITY;
                }
            }
        }
        Tensor::from_data(TensorData::new(mask, [t, t_k]), device)
    }
}

/// `[t, h·d]` → `[h, t, d]`; on the CPU backend one copy over host memory (the tensor form's
/// transpose is materialised by burn-flex's generic strided copy when the values are read).
pub fn split_heads(x: Tensor<2>, heads: usize) -> Tensor<3> {
    let [t, hd] = x.dims();
    let d = hd / heads;
    let device = x.device();
    if device != Device::flex() {
        return x.reshape([t, heads, d]).swap_dims(0, 1);
    }
    let rows = host_values(x);
    let mut by_head = vec![0f32; t * hd];
    for (i, row) in rows.chunks_exact(hd).enumerate() {
        for (h, head) in row.chunks_exact(d).enumerate() {
            by_head[(h * t + i) * d..][..d].copy_from_slice(head);
        }
    }
    Tensor::from_data(TensorData::new(by_head, [heads, t, d]), &device)
}

/// A CPU (burn-flex) tensor's values, for the loops over host memory that replace chains of
/// tensor ops there ([`host_ops`]).
pub(crate) fn host_values<const D: usize>(x: Tensor<D>) -> Vec<f32> {
    x.into_data().try_to_vec::<f32>().expect("CPU activations are f32")
}

/// `op(gate, up)` on the host, `gate` overwritten: the gated MLP activations on the CPU backend.
fn gated_on_host(gate: Tensor<2>, up: Tensor<2>, op: fn(&mut [f32], &[f32])) -> Tensor<2> {
    let (dims, device) = (gate.dims(), gate.device());
    let mut g = host_values(gate);
    op(&mut g, &host_values(up));
    Tensor::from_data(TensorData::new(g, dims), &device)
}

pub fn token_ids(tokens: &[u32], device: &Device) -> Tensor<1, Int> {
    let ids: Vec<i64> = tokens.iter().map(|&t| t as i64).collect();
    Tensor::from_data(TensorData::new(ids, [tokens.len()]), device)
}

/// `silu(gate) · up`, Llama's MLP activation; on the CPU backend one loop over host memory
/// ([`host_ops::swiglu_in_place`]) instead of three tensor ops and a libm `exp` per element.
pub fn swiglu(gate: Tensor<2>, up: Tensor<2>) -> Tensor<2> {
    let device = gate.device();
    if device != Device::flex() {
        return activation::silu(gate) * up;
    }
    gated_on_host(gate, up, host_ops::swiglu_in_place)
}

/// `gelu_tanh(gate) · up` (GELU with the tanh approximation, transformers' `gelu_pytorch_tanh`),
/// Gemma's MLP activation; on the CPU backend one loop over host memory split across the cores
/// ([`host_ops::gelu_tanh_in_place`]) instead of seven tensor ops with libm's `powf` and `tanhf`
/// per element on one core (16 % of a Gemma-3-270M-shaped pass).
pub fn gelu_tanh_mul(gate: Tensor<2>, up: Tensor<2>) -> Tensor<2> {
    let device = gate.device();
    if device != Device::flex() {
        let x = gate;
        let inner = (x.clone() + x.clone().powf_scalar(3.0).mul_scalar(0.044715))
            .mul_scalar((2.0f64 / std::f64::consts::PI).sqrt());
        return x.clone().mul_scalar(0.5) * (inner.tanh().add_scalar(1.0)) * up;
    }
    gated_on_host(gate, up, host_ops::gelu_tanh_in_place)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `[kv][t][d]` keys numbered from `from`: position p of head h holds `1000·h + p` in every column.
    fn positions(kv: usize, from: usize, t: usize, d: usize) -> Vec<f32> {
        (0..kv)
            .flat_map(|h| (from..from + t).flat_map(move |p| std::iter::repeat_n((1000 * h + p) as f32, d)))
            .collect()
    }

    /// What the host cache holds for `layer`, dense `[kv][len][d]`.
    fn held(cache: &KvCache, layer: usize) -> Vec<f32> {
        match &cache.layers[layer] {
            Some(CachedLayer::Host(h)) => {
                (0..h.kv_heads).flat_map(|kv| h.keys[kv * h.capacity * h.d..][..h.len * h.d].iter().copied()).collect()
            }
            _ => panic!("no host layer"),
        }
    }

    #[test]
    fn the_host_cache_grows_in_place_and_a_clone_never_sees_anothers_positions() {
        let (kv, d) = (3, 4);
        let mut context = KvCache::new();
        let k = positions(kv, 0, 5, d);
        context.append_host(0, &k, &k, kv, 5, d);
        // A continuation of the context and a second one: each appends its own positions.
        let (mut a, mut b) = (context.clone(), context.clone());
        a.append_host(0, &positions(kv, 5, 2, d), &positions(kv, 5, 2, d), kv, 2, d);
        b.append_host(0, &positions(kv, 5, 1, d), &positions(kv, 5, 1, d), kv, 1, d);
        assert_eq!(held(&context, 0), positions(kv, 0, 5, d), "the context is unchanged");
        assert_eq!(held(&a, 0), [positions(kv, 0, 7, d)].concat());
        assert_eq!(held(&b, 0), positions(kv, 0, 6, d));
        // One token at a time, unshared: the memory is kept while it has room (doubling when not).
        drop(context);
        let mut grown = Vec::new();
        for p in 7..40 {
            a.append_host(0, &positions(kv, p, 1, d), &positions(kv, p, 1, d), kv, 1, d);
            let Some(CachedLayer::Host(h)) = &a.layers[0] else { panic!() };
            if grown.last() != Some(&h.capacity) {
                grown.push(h.capacity);
            }
        }
        assert_eq!(held(&a, 0), positions(kv, 0, 40, d));
        assert_eq!(grown, [14, 28, 56], "copies only when full");
        // Keys and values as tensors (wgpu's form) from a host layer: the same positions.
        let (k, _) = a.append(
            0,
            Tensor::from_data(TensorData::new(positions(kv, 40, 1, d), [kv, 1, d]), &Device::flex()),
            Tensor::from_data(TensorData::new(positions(kv, 40, 1, d), [kv, 1, d]), &Device::flex()),
        );
        assert_eq!(k.into_data().try_to_vec::<f32>().unwrap(), positions(kv, 0, 41, d));
    }

    fn visible(p: &Positions, window: Option<usize>) -> Vec<String> {
        let mask = p.mask(window, &Device::flex()).into_data().try_to_vec::<f32>().unwrap();
        let t_k = mask.len() / p.len();
        mask.chunks(t_k).map(|row| row.iter().map(|&m| if m == 0.0 { '1' } else { '.' }).collect()).collect()
    }

    #[test]
    fn one_sequence_sees_the_cache_and_its_past() {
        assert_eq!(visible(&Positions::after(2, 3), None), ["111..", "1111.", "11111"]);
        // A window of 2: a query sees itself and the one position before it.
        assert_eq!(visible(&Positions::after(2, 3), Some(2)), [".11..", "..11.", "...11"]);
    }

    #[test]
    fn packed_sequences_see_the_cache_but_not_each_other() {
        let p = Positions::packed(2, &[2, 0, 3]);
        assert_eq!(p.positions(), [2, 3, 2, 3, 4]);
        assert_eq!(visible(&p, None), ["111....", "1111...", "11..1..", "11..11.", "11..111"]);
        // The window counts positions, not places in the pass.
        assert_eq!(visible(&p, Some(2)), [".11....", "..11...", ".1..1..", "....11.", ".....11"]);
    }
}
