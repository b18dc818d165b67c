//! Scaled dot-product attention with grouped KV heads:
//! `softmax(q·kᵀ · scale [soft-capped] + mask) · v`, per query head, each KV head serving
//! `h / kv` consecutive query heads (k0 k0 k1 k1, not k0 k1 k0 k1).
//!
//! Two implementations of the one computation: burn tensor ops, for wgpu; and a loop over host
//! memory for the CPU backend, where burn's ops would copy the repeated KV heads and the
//! transposes, compute the scores the mask hides, and call `exp` for each of them. The host loop
//! skips hidden keys and splits the heads across the cores natively. Both sum in f32.

use burn::tensor::{activation, Device, Tensor, TensorData};

use crate::models::host_ops;
use crate::models::layers::{host_values, KvCache};

/// Appends this pass's keys and values (`[kv, t, d]`) to `cache` for `layer` and attends over the
/// whole cache: on the CPU backends straight from the host cache (appended in place, never copied
/// per token), elsewhere as tensors. q `[h, t', d]`, mask `[t', t_k]` → `[t', h·d]`.
#[allow(clippy::too_many_arguments)]
pub fn attend(
    cache: &mut KvCache,
    layer: usize,
    q: Tensor<3>,
    k: Tensor<3>,
    v: Tensor<3>,
    mask: Tensor<2>,
    scale: f64,
    softcap: Option<f64>,
) -> Tensor<2> {
    let device = q.device();
    if device != Device::flex() {
        let (k, v) = cache.append(layer, k, v);
        return attention_tensors(q, k, v, mask, scale, softcap);
    }
    let ([h, t, d], [kv, t_new, _]) = (q.dims(), k.dims());
    let cached = cache.append_host(layer, &host_values(k), &host_values(v), kv, t_new, d);
    let t_k = cached.len;
    let mask = mask.into_data().try_to_vec::<f32>().expect("the mask is f32");
    let shape = Shape { heads: h, kv_heads: kv, t, t_k, d, kv_stride: cached.capacity };
    let mask = Mask::new(&mask, t, t_k);
    let out = attention_host(
        &host_values(q),
        &cached.keys,
        &cached.values,
        &mask,
        shape,
        scale as f32,
        softcap.map(|c| c as f32),
    );
    Tensor::from_data(TensorData::new(out, [t, h * d]), &device)
}

/// [`attend`] with burn's tensor ops: q `[h, t, d]`, k and v `[kv, t_k, d]`, mask `[t, t_k]`
/// (0 where a query may look, -inf where not) → `[t, h·d]`.
fn attention_tensors(
    q: Tensor<3>,
    k: Tensor<3>,
    v: Tensor<3>,
    mask: Tensor<2>,
    scale: f64,
    softcap: Option<f64>,
) -> Tensor<2> {
    let [h, t, d] = q.dims();
    let [kv, t_k, _] = k.dims();
    let group = h / kv;
    let repeat = |x: Tensor<3>| x.unsqueeze_dim::<4>(1).repeat_dim(1, group).reshape([h, t_k, d]);
    let (k, v) = (repeat(k), repeat(v));
    let mut scores = q.matmul(k.swap_dims(1, 2)).mul_scalar(scale);
    if let Some(cap) = softcap {
        scores = scores.div_scalar(cap).tanh().mul_scalar(cap);
    }
    let probs = activation::softmax(scores + mask.unsqueeze_dim(0), 2);
    probs.matmul(v).swap_dims(0, 1).reshape([t, h * d])
}

#[derive(Clone, Copy)]
struct Shape {
    heads: usize,
    kv_heads: usize,
    t: usize,
    t_k: usize,
    d: usize,
    /// Positions between one KV head's keys and the next's (`t_k`, or a cache's capacity).
    kv_stride: usize,
}

/// Below this many multiply-adds, a second thread costs more than it saves.
const MIN_MACS_PER_THREAD: usize = 1 << 18;

/// The additive mask `[t][t_k]` with each query's span of keys, from its first visible key to its
/// last: found once here rather than again for every head. Keys hidden inside a span (other
/// packed sequences) get -inf from the mask and weigh exactly 0.
struct Mask<'a> {
    values: &'a [f32],
    spans: Vec<Option<(usize, usize)>>,
}

impl<'a> Mask<'a> {
    fn new(values: &'a [f32], t: usize, t_k: usize) -> Mask<'a> {
        let spans = values[..t * t_k]
            .chunks_exact(t_k)
            .map(|row| {
                Some((
                    row.iter().position(|&m| m != f32::NEG_INFINITY)?,
                    row.iter().rposition(|&m| m != f32::NEG_INFINITY)?,
                ))
            })
            .collect();
        Mask { values, spans }
    }
}

/// [`attention`] on row-major host slices: q `[h][t][d]`, k and v `[kv][t_k][d]`, mask `[t][t_k]`;
/// returns `[t][h·d]`.
fn attention_host(
    q: &[f32],
    k: &[f32],
    v: &[f32],
    mask: &Mask,
    s: Shape,
    scale: f32,
    softcap: Option<f32>,
) -> Vec<f32> {
    let mut by_head = vec![0f32; s.heads * s.t * s.d]; // [h][t][d]
    #[cfg(target_arch = "x86_64")]
    let keys_t = (softcap.is_none() && x86_512::usable(s.d)).then(|| x86_512::KeysT::new(k, s));
    let heads = |first: usize, out: &mut [f32]| {
        for (i, out_head) in out.chunks_exact_mut(s.t * s.d).enumerate() {
            #[cfg(target_arch = "x86_64")]
            if let Some(keys_t) = &keys_t {
                // SAFETY: `usable` checked the CPU's AVX-512 F and the head size.
                unsafe { x86_512::head(first + i, q, keys_t, v, mask, s, scale, out_head) };
                continue;
            }
            head(first + i, q, k, v, mask, s, scale, softcap, out_head);
        }
    };
    let threads = crate::parallel::cores().min(s.heads * s.t * s.t_k * s.d / MIN_MACS_PER_THREAD).max(1);
    let parts = if threads > 1 { threads * crate::parallel::PARTS_PER_CORE } else { 1 };
    let per_part = s.heads.div_ceil(parts);
    let mut parts: Vec<&mut [f32]> = by_head.chunks_mut(per_part * s.t * s.d).collect();
    crate::parallel::for_each_mut(&mut parts, |i, part| heads(i * per_part, part));

    // [h][t][d] → [t][h·d]
    let mut out = vec![0f32; s.t * s.heads * s.d];
    for (hh, head_out) in by_head.chunks_exact(s.t * s.d).enumerate() {
        for (i, row) in head_out.chunks_exact(s.d).enumerate() {
            out[(i * s.heads + hh) * s.d..][..s.d].copy_from_slice(row);
        }
    }
    out
}

/// Query head `hh` for every token, into `out` (`[t][d]`); with AVX2 and FMA where the CPU has
/// them and `d` is a multiple of 8.
#[allow(clippy::too_many_arguments)]
fn head(
    hh: usize,
    q: &[f32],
    k: &[f32],
    v: &[f32],
    mask: &Mask,
    s: Shape,
    scale: f32,
    softcap: Option<f32>,
    out: &mut [f32],
) {
    #[cfg(target_arch = "x86_64")]
    if s.d.is_multiple_of(8) && std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU has AVX2 and FMA, checked just above.
        return unsafe { head_avx2(hh, q, k, v, mask, s, scale, softcap, out) };
    }
    head_body::<false>(hh, q, k, v, mask, s, scale, softcap, out)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
#[allow(clippy::too_many_arguments)]
fn head_avx2(
    hh: usize,
    q: &[f32],
    k: &[f32],
    v: &[f32],
    mask: &Mask,
    s: Shape,
    scale: f32,
    softcap: Option<f32>,
    out: &mut [f32],
) {
    head_body::<true>(hh, q, k, v, mask, s, scale, softcap, out)
}

/// The head loop; `AVX2`: inside [`head_avx2`], where [`x86`]'s kernels may be called.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn head_body<const AVX2: bool>(
    hh: usize,
    q: &[f32],
    k: &[f32],
    v: &[f32],
    mask: &Mask,
    s: Shape,
    scale: f32,
    softcap: Option<f32>,
    out: &mut [f32],
) {
    let d = s.d;
    let kv = hh / (s.heads / s.kv_heads);
    let keys = &k[kv * s.kv_stride * d..][..s.t_k * d];
    let values = &v[kv * s.kv_stride * d..][..s.t_k * d];
    let mut weights = Vec::with_capacity(s.t_k);
    for (i, out_row) in out.chunks_exact_mut(d).enumerate() {
        let query = &q[(hh * s.t + i) * d..][..d];
        let mask_row = &mask.values[i * s.t_k..(i + 1) * s.t_k];
        out_row.fill(0.0);
        // Only the span from the first to the last visible key is computed.
        let Some((first, last)) = mask.spans[i] else {
            continue; // no key to look at: burn's softmax would give NaN; nothing reads this row
        };
        weights.clear();
        let (span_keys, span_mask) = (&keys[first * d..(last + 1) * d], &mask_row[first..=last]);
        #[cfg(target_arch = "x86_64")]
        if AVX2 && softcap.is_none() {
            // SAFETY: AVX2 is only true inside head_avx2 (the CPU has AVX2 and FMA; d % 8 == 0).
            unsafe { x86::scores(query, span_keys, span_mask, scale, &mut weights) };
        }
        if weights.is_empty() {
            for (key, &m) in span_keys.chunks_exact(d).zip(span_mask) {
                #[cfg(target_arch = "x86_64")]
                // SAFETY: as above.
                let dot = if AVX2 { unsafe { x86::dot(query, key) } } else { dot(query, key) };
                #[cfg(not(target_arch = "x86_64"))]
                let dot = dot(query, key);
                let mut score = dot * scale;
                if let Some(cap) = softcap {
                    score = (score / cap).tanh() * cap;
                }
                weights.push(score + m);
            }
        }
        let max = weights.iter().fold(f32::NEG_INFINITY, |a, &b| a.max(b));
        weights.iter_mut().for_each(|w| *w -= max);
        host_ops::exp_in_place(&mut weights);
        let inv_sum = 1.0 / weights.iter().sum::<f32>();
        weights.iter_mut().for_each(|w| *w *= inv_sum);
        let span = &values[first * d..(last + 1) * d];
        #[cfg(target_arch = "x86_64")]
        if AVX2 {
            // SAFETY: as above.
            unsafe { x86::weighted_sum(span, &weights, out_row) };
            continue;
        }
        for (value, &p) in span.chunks_exact(d).zip(&weights) {
            out_row.iter_mut().zip(value).for_each(|(o, &x)| *o += p * x);
        }
    }
}

/// `a · b` in 8 independent lanes, then summed.
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0f32; 8];
    let (a8, b8) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = a8.remainder().iter().zip(b8.remainder()).map(|(x, y)| x * y).sum();
    for (x, y) in a8.zip(b8) {
        for l in 0..8 {
            lanes[l] += x[l] * y[l];
        }
    }
    lanes.iter().sum::<f32>() + tail
}

/// The two inner loops with 8-lane FMA, for rows whose length is a multiple of 8.
#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    /// `a · b`.
    #[inline]
    #[target_feature(enable = "avx2,fma")]
    pub(super) fn dot(a: &[f32], b: &[f32]) -> f32 {
        let d = a.len();
        assert!(b.len() == d && d.is_multiple_of(8));
        let (pa, pb) = (a.as_ptr(), b.as_ptr());
        let (mut acc0, mut acc1) = (_mm256_setzero_ps(), _mm256_setzero_ps());
        let mut c = 0;
        // SAFETY (loads): c + 8 <= d (c + 16 <= d for the pair), asserted lengths.
        while c + 16 <= d {
            acc0 = _mm256_fmadd_ps(unsafe { _mm256_loadu_ps(pa.add(c)) }, unsafe { _mm256_loadu_ps(pb.add(c)) }, acc0);
            acc1 = _mm256_fmadd_ps(
                unsafe { _mm256_loadu_ps(pa.add(c + 8)) },
                unsafe { _mm256_loadu_ps(pb.add(c + 8)) },
                acc1,
            );
            c += 16;
        }
        if c < d {
            acc0 = _mm256_fmadd_ps(unsafe { _mm256_loadu_ps(pa.add(c)) }, unsafe { _mm256_loadu_ps(pb.add(c)) }, acc0);
        }
        let acc = _mm256_add_ps(acc0, acc1);
        let x = _mm_add_ps(_mm256_castps256_ps128(acc), _mm256_extractf128_ps::<1>(acc));
        let x = _mm_add_ps(x, _mm_movehl_ps(x, x));
        _mm_cvtss_f32(_mm_add_ss(x, _mm_movehdup_ps(x)))
    }

    /// `scores[j] = (query · keys[j]) · scale + mask[j]` for every key row, eight keys at a time:
    /// eight lanes of products per key, then one transposing reduction gives the eight scores in
    /// one register (a single key's horizontal sum would cost as much as its products).
    #[inline]
    #[target_feature(enable = "avx2,fma")]
    pub(super) fn scores(query: &[f32], keys: &[f32], mask: &[f32], scale: f32, scores: &mut Vec<f32>) {
        let d = query.len();
        assert!(d.is_multiple_of(8) && keys.len() == mask.len() * d);
        let n = mask.len();
        scores.resize(n, 0.0);
        let (pq, pk) = (query.as_ptr(), keys.as_ptr());
        let scale_v = _mm256_set1_ps(scale);
        let mut j = 0;
        while j + 8 <= n {
            let mut acc = [_mm256_setzero_ps(); 8];
            for c in (0..d).step_by(8) {
                // SAFETY: c + 8 <= d; keys j .. j + 8 are rows of `keys` (j + 8 <= n).
                let qv = unsafe { _mm256_loadu_ps(pq.add(c)) };
                for (r, acc) in acc.iter_mut().enumerate() {
                    *acc = _mm256_fmadd_ps(qv, unsafe { _mm256_loadu_ps(pk.add((j + r) * d + c)) }, *acc);
                }
            }
            // Two rounds of pairwise sums leave key r's partial sums in lane r % 4 of both
            // 128-bit halves (keys 0-3 in h0123, 4-7 in h4567); adding the halves finishes them.
            let h01 = _mm256_hadd_ps(acc[0], acc[1]);
            let h23 = _mm256_hadd_ps(acc[2], acc[3]);
            let h45 = _mm256_hadd_ps(acc[4], acc[5]);
            let h67 = _mm256_hadd_ps(acc[6], acc[7]);
            let h0123 = _mm256_hadd_ps(h01, h23);
            let h4567 = _mm256_hadd_ps(h45, h67);
            let low = _mm256_permute2f128_ps::<0x20>(h0123, h4567);
            let high = _mm256_permute2f128_ps::<0x31>(h0123, h4567);
            let dots = _mm256_add_ps(low, high);
            // SAFETY: j + 8 <= n = mask.len() = scores.len().
            let m = unsafe { _mm256_loadu_ps(mask.as_ptr().add(j)) };
            unsafe { _mm256_storeu_ps(scores.as_mut_ptr().add(j), _mm256_fmadd_ps(dots, scale_v, m)) };
            j += 8;
        }
        for r in j..n {
            scores[r] = dot(query, &keys[r * d..(r + 1) * d]) * scale + mask[r];
        }
    }

    /// `out += Σ_j p[j] · values[j]` over rows `values[j]` of `out.len()`, eight columns at a time
    /// held in a register across all the rows (64 columns, eight registers, at once).
    #[inline]
    #[target_feature(enable = "avx2,fma")]
    pub(super) fn weighted_sum(values: &[f32], p: &[f32], out: &mut [f32]) {
        let d = out.len();
        assert!(d.is_multiple_of(8) && values.len() == p.len() * d);
        for c0 in (0..d).step_by(64) {
            let width = (d - c0).min(64) / 8;
            let mut o = [_mm256_setzero_ps(); 8];
            for (i, o) in o[..width].iter_mut().enumerate() {
                // SAFETY: c0 + 8i + 8 <= d.
                *o = unsafe { _mm256_loadu_ps(out.as_ptr().add(c0 + 8 * i)) };
            }
            for (j, &pj) in p.iter().enumerate() {
                let pv = _mm256_set1_ps(pj);
                for (i, o) in o[..width].iter_mut().enumerate() {
                    // SAFETY: row j starts at j * d within values; c0 + 8i + 8 <= d.
                    *o = _mm256_fmadd_ps(pv, unsafe { _mm256_loadu_ps(values.as_ptr().add(j * d + c0 + 8 * i)) }, *o);
                }
            }
            for (i, o) in o[..width].iter().enumerate() {
                unsafe { _mm256_storeu_ps(out.as_mut_ptr().add(c0 + 8 * i), *o) };
            }
        }
    }
}

/// Attention with AVX-512 where the head size is a multiple of 16, four queries at a time: each key
/// and value row loaded serves four queries. The keys are first transposed (`[d][t_k]` per KV
/// head), so one register holds sixteen keys' products with one query column and the scores come
/// out sixteen to a register, with no horizontal sums.
#[cfg(target_arch = "x86_64")]
mod x86_512 {
    use std::arch::x86_64::*;

    use super::{Mask, Shape};
    use crate::models::host_ops;

    /// Queries per step.
    const QUERIES: usize = 4;
    /// Keys per step of the scores (two registers).
    const KEYS: usize = 32;

    pub(super) fn usable(d: usize) -> bool {
        d.is_multiple_of(16) && std::is_x86_feature_detected!("avx512f")
    }

    /// The keys of each KV head transposed, `[kv][d][stride]`, each row padded with zeros to
    /// `stride = t_k + KEYS`, so a step of [`KEYS`] keys from any key stays inside it.
    pub(super) struct KeysT {
        values: Vec<f32>,
        stride: usize,
    }

    impl KeysT {
        pub(super) fn new(k: &[f32], s: Shape) -> KeysT {
            let stride = s.t_k + KEYS;
            let mut values = vec![0f32; s.kv_heads * s.d * stride];
            for (kv, head_t) in values.chunks_exact_mut(s.d * stride).enumerate() {
                let head = &k[kv * s.kv_stride * s.d..][..s.t_k * s.d];
                for (j, key) in head.chunks_exact(s.d).enumerate() {
                    for (c, &x) in key.iter().enumerate() {
                        head_t[c * stride + j] = x;
                    }
                }
            }
            KeysT { values, stride }
        }
    }

    /// Query head `hh` for every token into `out` (`[t][d]`): what [`super::head`] computes
    /// without soft-capping, summed in another order.
    ///
    /// # Safety
    /// The CPU has AVX-512 F and `s.d` is a multiple of 16 (see [`usable`]).
    #[target_feature(enable = "avx512f")]
    #[allow(clippy::too_many_arguments)]
    pub(super) unsafe fn head(
        hh: usize,
        q: &[f32],
        keys_t: &KeysT,
        v: &[f32],
        mask: &Mask,
        s: Shape,
        scale: f32,
        out: &mut [f32],
    ) {
        let (d, stride) = (s.d, keys_t.stride);
        let kv = hh / (s.heads / s.kv_heads);
        let head_keys = &keys_t.values[kv * d * stride..(kv + 1) * d * stride];
        let values = &v[kv * s.kv_stride * d..][..s.t_k * d];
        let mut weights = Vec::new();
        for i0 in (0..s.t).step_by(QUERIES) {
            let rows = i0..(i0 + QUERIES).min(s.t);
            let out = &mut out[i0 * d..rows.end * d];
            out.fill(0.0);
            // The keys any of these queries looks at; each row's own mask hides the others.
            let spans = mask.spans[rows.clone()].iter().flatten();
            let (Some(first), Some(last)) = (spans.clone().map(|s| s.0).min(), spans.map(|s| s.1).max()) else {
                continue; // no key to look at: the rows stay 0, as in super::head
            };
            let n = last + 1 - first;
            let width = n.next_multiple_of(KEYS);
            weights.clear();
            weights.resize(rows.len() * width, 0.0);
            let queries = &q[(hh * s.t + i0) * d..(hh * s.t + rows.end) * d];
            // SAFETY (both matches): the CPU has AVX-512 F, the caller's promise.
            unsafe {
                match rows.len() {
                    1 => scores::<1>(queries, head_keys, stride, first, &mut weights),
                    2 => scores::<2>(queries, head_keys, stride, first, &mut weights),
                    3 => scores::<3>(queries, head_keys, stride, first, &mut weights),
                    _ => scores::<QUERIES>(queries, head_keys, stride, first, &mut weights),
                }
            }
            for (i, row) in rows.clone().zip(weights.chunks_exact_mut(width)) {
                let row = &mut row[..n];
                if mask.spans[i].is_none() {
                    row.fill(0.0);
                    continue;
                }
                let mask_row = &mask.values[i * s.t_k + first..][..n];
                row.iter_mut().zip(mask_row).for_each(|(w, &m)| *w = *w * scale + m);
                let max = row.iter().fold(f32::NEG_INFINITY, |a, &b| a.max(b));
                row.iter_mut().for_each(|w| *w -= max);
                host_ops::exp_in_place(row);
                let inv_sum = 1.0 / row.iter().sum::<f32>();
                row.iter_mut().for_each(|w| *w *= inv_sum);
            }
            let span = &values[first * d..(last + 1) * d];
            unsafe {
                match rows.len() {
                    1 => weighted_sums::<1>(span, &weights, out),
                    2 => weighted_sums::<2>(span, &weights, out),
                    3 => weighted_sums::<3>(span, &weights, out),
                    _ => weighted_sums::<QUERIES>(span, &weights, out),
                }
            }
        }
    }

    /// `scores[r][j] = queries[r] · key (first + j)` for `j < width` (`scores` is `[R][width]`,
    /// `width` a multiple of [`KEYS`]); column c of key j is `keys_t[c · stride + j]`.
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn scores<const R: usize>(queries: &[f32], keys_t: &[f32], stride: usize, first: usize, scores: &mut [f32]) {
        let d = queries.len() / R;
        let width = scores.len() / R;
        assert!(queries.len() == R * d && scores.len() == R * width && width.is_multiple_of(KEYS));
        assert!(keys_t.len() == d * stride && first + width <= stride);
        let (pq, pk, ps) = (queries.as_ptr(), keys_t.as_ptr(), scores.as_mut_ptr());
        for j0 in (first..first + width).step_by(KEYS) {
            let mut acc = [[_mm512_setzero_ps(); 2]; R];
            for c in 0..d {
                // SAFETY (every access): inside the slices, by the asserts above.
                let keys = unsafe {
                    [_mm512_loadu_ps(pk.add(c * stride + j0)), _mm512_loadu_ps(pk.add(c * stride + j0 + 16))]
                };
                for (r, acc) in acc.iter_mut().enumerate() {
                    let qc = _mm512_set1_ps(unsafe { *pq.add(r * d + c) });
                    acc[0] = _mm512_fmadd_ps(qc, keys[0], acc[0]);
                    acc[1] = _mm512_fmadd_ps(qc, keys[1], acc[1]);
                }
            }
            for (r, acc) in acc.iter().enumerate() {
                let at = r * width + j0 - first;
                unsafe {
                    _mm512_storeu_ps(ps.add(at), acc[0]);
                    _mm512_storeu_ps(ps.add(at + 16), acc[1]);
                }
            }
        }
    }

    /// `out[r] = Σ_j weights[r][j] · values[j]` over the rows of `values` (`out` is `[R][d]`,
    /// `weights` `[R][width]` with width ≥ the row count).
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn weighted_sums<const R: usize>(values: &[f32], weights: &[f32], out: &mut [f32]) {
        let d = out.len() / R;
        let (n, width) = (values.len() / d, weights.len() / R);
        assert!(
            out.len() == R * d
                && d.is_multiple_of(16)
                && values.len() == n * d
                && weights.len() == R * width
                && n <= width
        );
        let (pv, pw, po) = (values.as_ptr(), weights.as_ptr(), out.as_mut_ptr());
        // 64 columns (four registers) per query at a time where d allows, else 16.
        let step = if d.is_multiple_of(64) { 64 } else { 16 };
        for c0 in (0..d).step_by(step) {
            let mut acc = [[_mm512_setzero_ps(); 4]; R];
            let lanes = step / 16;
            for j in 0..n {
                // SAFETY (every access): inside the slices, by the assert above.
                let v: [__m512; 4] = std::array::from_fn(|x| {
                    if x < lanes {
                        unsafe { _mm512_loadu_ps(pv.add(j * d + c0 + 16 * x)) }
                    } else {
                        _mm512_setzero_ps()
                    }
                });
                for (r, acc) in acc.iter_mut().enumerate() {
                    let p = _mm512_set1_ps(unsafe { *pw.add(r * width + j) });
                    for x in 0..lanes {
                        acc[x] = _mm512_fmadd_ps(p, v[x], acc[x]);
                    }
                }
            }
            for (r, acc) in acc.iter().enumerate() {
                for (x, a) in acc[..lanes].iter().enumerate() {
                    unsafe { _mm512_storeu_ps(po.add(r * d + c0 + 16 * x), *a) };
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::host_ops::pseudo_random as random;
    use crate::models::layers::Positions;

    /// The host loop against burn's tensor ops (on the CPU backend, where both can run), on
    /// grouped heads, a cache before the pass (in the host cache, whose room differs from its
    /// length), packed sequences, a sliding window and soft-capping.
    #[test]
    fn host_loop_equals_the_tensor_ops() {
        let device = Device::flex();
        for (h, kv, d, cached, lengths, window, softcap) in [
            (4, 2, 16, 0, vec![7], None, None),
            (6, 3, 8, 5, vec![3, 2, 4], None, None),
            (2, 1, 32, 9, vec![6], Some(4), Some(50.0)),
            (8, 8, 64, 0, vec![40], None, None),
            (4, 2, 128, 3, vec![5, 6], None, None),
            (2, 2, 256, 0, vec![9], Some(5), Some(30.0)),
        ] {
            let at = if lengths.len() == 1 {
                Positions::after(cached, lengths[0])
            } else {
                Positions::packed(cached, &lengths)
            };
            let (t, t_k) = (at.len(), cached + at.len());
            let tensor =
                |data: Vec<f32>, shape: [usize; 3]| Tensor::<3>::from_data(TensorData::new(data, shape), &device);
            let q = tensor(random(h * t * d, 1), [h, t, d]);
            let k = tensor(random(kv * t_k * d, 2), [kv, t_k, d]);
            let v = tensor(random(kv * t_k * d, 3), [kv, t_k, d]);
            let mask = at.mask(window, &device);
            let expected = attention_tensors(q.clone(), k.clone(), v.clone(), mask.clone(), 0.3, softcap)
                .into_data()
                .try_to_vec::<f32>()
                .unwrap();
            // The host loop through the cache: the cached positions first, then the pass's.
            let mut cache = KvCache::new();
            if cached > 0 {
                let host = |x: Tensor<3>| x.narrow(1, 0, cached).into_data().try_to_vec::<f32>().unwrap();
                cache.append_host(0, &host(k.clone()), &host(v.clone()), kv, cached, d);
            }
            let (k, v) = (k.narrow(1, cached, t), v.narrow(1, cached, t));
            let got = attend(&mut cache, 0, q, k, v, mask, 0.3, softcap).into_data().try_to_vec::<f32>().unwrap();
            assert_eq!(got.len(), expected.len());
            let worst = got.iter().zip(&expected).map(|(a, b)| (a - b).abs()).fold(0f32, f32::max);
            assert!(worst < 1e-5, "h {h} kv {kv} d {d} cached {cached} {lengths:?}: max |Δ| {worst}");
        }
    }

    /// The portable loop (wasm's, and x86 without AVX2) against the dispatched one, which on this
    /// CPU may be the AVX2 kernels; also a head size that is not a multiple of 8.
    #[test]
    fn portable_loop_equals_the_dispatched_one() {
        for d in [64, 12] {
            let at = Positions::packed(4, &[5, 3]);
            let s = Shape { heads: 2, kv_heads: 1, t: at.len(), t_k: 4 + at.len(), d, kv_stride: 4 + at.len() };
            let (q, k, v) = (random(2 * s.t * d, 4), random(s.t_k * d, 5), random(s.t_k * d, 6));
            let mask = at.mask(None, &Device::flex()).into_data().try_to_vec::<f32>().unwrap();
            let mask = Mask::new(&mask, s.t, s.t_k);
            for hh in 0..2 {
                let (mut portable, mut dispatched) = (vec![f32::NAN; s.t * d], vec![f32::NAN; s.t * d]);
                head_body::<false>(hh, &q, &k, &v, &mask, s, 0.25, None, &mut portable);
                head(hh, &q, &k, &v, &mask, s, 0.25, None, &mut dispatched);
                let worst = portable.iter().zip(&dispatched).map(|(a, b)| (a - b).abs()).fold(0f32, f32::max);
                assert!(worst < 1e-5, "d {d} head {hh}: max |Δ| {worst}");
            }
        }
    }
}
