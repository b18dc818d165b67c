//! The reference CPU matmul on a [`QMatrix`]: `out = x · Wᵀ` with f32 activations (activations
//! are never quantized). Plain safe Rust that LLVM vectorizes; threads natively, not on wasm32.
//!
//! Weights are decoded a panel at a time (8 rows × 256 columns, 8 KiB, with the very decoder of
//! [`QMatrix::dequantize`]) and used for every token before the next panel, so each weight is
//! unpacked once per call and the full f32 matrix never exists. The microkernel keeps a
//! 4-token × 8-row tile of sums in registers and vectorizes over the 8 rows.

use std::ops::Range;

use super::QMatrix;

/// Weight rows per panel: the lanes the microkernel vectorizes over.
const NR: usize = 8;
/// Tokens per microkernel call.
const MR: usize = 4;
/// Columns (K) per panel: a multiple of both block sizes; NR × KC f32 fit in L1.
const KC: usize = 256;
/// Below this many multiply-adds per thread, another thread costs more than it saves.
#[cfg(not(target_arch = "wasm32"))]
const MIN_MACS_PER_THREAD: usize = 1 << 21;

/// `out[t][n] = Σ_k x[t][k] · w[n][k]` for `x` = `[T][K]` and `out` = `[T][N]`, row-major,
/// `K = w.cols()`, `N = w.rows()`; natively split over N across the available cores.
///
/// **Summation order** (the same on every path, thread count and tile size, so results are
/// reproducible bit for bit): with `w[n][k]` exactly as [`QMatrix::dequantize`] gives it, each
/// block of `w.block()` columns is summed first, left to right from 0.0 —
/// `part = ((x[k0]·w[k0] + x[k0+1]·w[k0+1]) + …)` — and the block sums are then added left to
/// right, `y = ((0 + part_0) + part_1) + …`. All in f32, every product rounded before its
/// addition (no FMA).
///
/// # Panics
///
/// If `x.len()` is not a multiple of `K`, or `out.len()` is not `T * N`: these are programming
/// errors (the shapes come from the model), not bad input.
pub fn qmatmul(x: &[f32], w: &QMatrix, out: &mut [f32]) {
    #[cfg(not(target_arch = "wasm32"))]
    let threads = {
        let macs = out.len().saturating_mul(w.cols());
        let cores = std::thread::available_parallelism().map_or(1, |p| p.get());
        cores.min(macs / MIN_MACS_PER_THREAD).max(1)
    };
    #[cfg(target_arch = "wasm32")]
    let threads = 1;
    qmatmul_with_threads(x, w, out, threads);
}

/// [`qmatmul`] on at most `threads` threads (1 = the calling thread only; always 1 on wasm32).
/// The result does not depend on `threads`.
pub fn qmatmul_with_threads(x: &[f32], w: &QMatrix, out: &mut [f32], threads: usize) {
    let Some(t) = tokens_to_multiply("qmatmul", x, w.rows(), w.cols(), out) else { return };
    let n = w.rows();

    #[cfg(not(target_arch = "wasm32"))]
    if threads > 1 && n > NR {
        // Runs of whole panels, one per thread.
        let panels = n.div_ceil(NR);
        let rows_per_thread = panels.div_ceil(threads.min(panels)) * NR;
        split_rows_across_threads(n, t, rows_per_thread, out, |rows, part| {
            matmul_rows(x, t, w, rows.clone(), part, rows.len())
        });
        return;
    }
    #[cfg(target_arch = "wasm32")]
    let _ = threads; // wasm32 runs on the calling thread only.
    matmul_rows(x, t, w, 0..n, out, n);
}

/// The checks every quantized matmul makes: `x` is `[T][K]` and `out` `[T][N]` for an `N x K`
/// weight. Returns `T`, or `None` when there is nothing to multiply (`out` is then already right:
/// zeros when `K` is 0).
///
/// # Panics
///
/// If the shapes disagree: programming errors, not bad input.
pub(super) fn tokens_to_multiply(name: &str, x: &[f32], n: usize, k: usize, out: &mut [f32]) -> Option<usize> {
    if k == 0 {
        out.fill(0.0);
        return None;
    }
    assert!(x.len().is_multiple_of(k), "{name}: x has {} values, not a whole number of rows of {k}", x.len());
    let t = x.len() / k;
    assert!(out.len() == t * n, "{name}: out has {} values, expected {t} x {n}", out.len());
    (t > 0 && n > 0).then_some(t)
}

/// Splits the `n` output columns into runs of `rows_per_thread`, one part each on the cores (see
/// [`crate::parallel`]). A part's `multiply(rows, part)` writes `[t][rows.len()]` into a buffer
/// of its own, copied into its columns of `out` (`[t][n]`) afterwards.
#[cfg(not(target_arch = "wasm32"))]
fn split_rows_across_threads(
    n: usize,
    t: usize,
    rows_per_thread: usize,
    out: &mut [f32],
    multiply: impl Fn(Range<usize>, &mut [f32]) + Sync,
) {
    let runs: Vec<Range<usize>> =
        (0..n).step_by(rows_per_thread).map(|start| start..(start + rows_per_thread).min(n)).collect();
    let mut parts: Vec<Vec<f32>> = runs.iter().map(|rows| vec![0f32; t * rows.len()]).collect();
    crate::parallel::for_each_mut(&mut parts, |i, part| multiply(runs[i].clone(), part));
    for (rows, part) in runs.into_iter().zip(parts) {
        for (out_row, part_row) in out.chunks_exact_mut(n).zip(part.chunks_exact(rows.len())) {
            out_row[rows.clone()].copy_from_slice(part_row);
        }
    }
}

/// Output columns `rows` of all `t` tokens, written to `out[token * stride + (n - rows.start)]`.
fn matmul_rows(x: &[f32], t: usize, w: &QMatrix, rows: Range<usize>, out: &mut [f32], stride: usize) {
    let (k, block) = (w.cols(), w.block());
    let blocks_per_row = k / block;
    // panel[kk][j] = w[n0 + j][k0 + kk]: transposed, so the microkernel loads 8 rows at once.
    let mut panel = vec![[0f32; NR]; KC.min(k)];
    let mut decoded = [0f32; 32];
    for n0 in rows.clone().step_by(NR) {
        let nr = NR.min(rows.end - n0);
        let tile = Tile { col0: n0 - rows.start, nr, stride };
        for k0 in (0..k).step_by(KC) {
            let panel = &mut panel[..KC.min(k - k0)];
            // 1. Decode the panel. Rows past the matrix's end stay zero and their sums unused.
            for j in 0..NR {
                if j >= nr {
                    panel.iter_mut().for_each(|p| p[j] = 0.0);
                    continue;
                }
                for (kb, chunk) in panel.chunks_exact_mut(block).enumerate() {
                    let b = (n0 + j) * blocks_per_row + k0 / block + kb;
                    w.dequantize_block(b, &mut decoded[..block]);
                    for (p, &v) in chunk.iter_mut().zip(&decoded) {
                        p[j] = v;
                    }
                }
            }
            // 2. Every token against it.
            let panel = &*panel;
            match block {
                32 => tokens::<32>(x, t, k, k0, panel, out, tile),
                _ => tokens::<16>(x, t, k, k0, panel, out, tile),
            }
        }
    }
}

/// Where a panel's sums go in `out`: columns `col0 .. col0 + nr` of rows of `stride`.
#[derive(Clone, Copy)]
struct Tile {
    col0: usize,
    nr: usize,
    stride: usize,
}

fn tokens<const B: usize>(x: &[f32], t: usize, k: usize, k0: usize, panel: &[[f32; NR]], out: &mut [f32], tile: Tile) {
    let mut t0 = 0;
    while t0 + MR <= t {
        microkernel::<MR, B>(x, k, t0, k0, panel, out, tile);
        t0 += MR;
    }
    while t0 < t {
        microkernel::<1, B>(x, k, t0, k0, panel, out, tile);
        t0 += 1;
    }
}

/// Tokens `t0 .. t0 + M` against one panel (columns `k0 ..`), continuing the sums already in
/// `out` when `k0 > 0`. By far the most time is spent in the innermost loop here.
#[inline(always)]
fn microkernel<const M: usize, const B: usize>(
    x: &[f32],
    k: usize,
    t0: usize,
    k0: usize,
    panel: &[[f32; NR]],
    out: &mut [f32],
    tile: Tile,
) {
    let xs: [&[f32]; M] = std::array::from_fn(|i| &x[(t0 + i) * k + k0..][..panel.len()]);
    let mut acc = [[0f32; NR]; M];
    if k0 > 0 {
        for (i, acc) in acc.iter_mut().enumerate() {
            acc[..tile.nr].copy_from_slice(&out[(t0 + i) * tile.stride + tile.col0..][..tile.nr]);
        }
    }
    for (pb, weights) in panel.chunks_exact(B).enumerate() {
        let weights: &[[f32; NR]; B] = weights.try_into().expect("chunks_exact gives B rows");
        let xb: [&[f32; B]; M] = std::array::from_fn(|i| xs[i][pb * B..][..B].try_into().expect("B values"));
        let mut part = [[0f32; NR]; M];
        for kk in 0..B {
            for i in 0..M {
                let xv = xb[i][kk];
                for j in 0..NR {
                    part[i][j] += xv * weights[kk][j];
                }
            }
        }
        for i in 0..M {
            for j in 0..NR {
                acc[i][j] += part[i][j];
            }
        }
    }
    for (i, acc) in acc.iter().enumerate() {
        out[(t0 + i) * tile.stride + tile.col0..][..tile.nr].copy_from_slice(&acc[..tile.nr]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::ggml::GgmlType;
    use crate::quant::qmatrix::tests::{random_blocks, Rng};

    /// The documented order, written as plainly as possible.
    fn reference(x: &[f32], w: &QMatrix) -> Vec<f32> {
        let (n, k, block) = (w.rows(), w.cols(), w.block());
        let weights = w.dequantize();
        let t = x.len() / k;
        let mut out = vec![0f32; t * n];
        for ti in 0..t {
            for ni in 0..n {
                let mut y = 0f32;
                for b in 0..k / block {
                    let mut part = 0f32;
                    for kk in b * block..(b + 1) * block {
                        part += x[ti * k + kk] * weights[ni * k + kk];
                    }
                    y += part;
                }
                out[ti * n + ni] = y;
            }
        }
        out
    }

    #[test]
    fn matches_the_documented_order_bit_for_bit() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        // N not a multiple of 8, T not a multiple of 4, K spanning several panels of 256.
        for (t_ty, rows, cols, tokens) in [
            (GgmlType::Q4_0, 13, 96, 7),
            (GgmlType::Q4_1, 21, 544, 5),
            (GgmlType::Q8_0, 8, 32, 1),
            (GgmlType::Q4_K, 11, 768, 6),
            (GgmlType::Q5_K, 3, 256, 4),
            (GgmlType::Q6_K, 17, 512, 9),
        ] {
            let (qk, _) = t_ty.block_layout();
            let w = QMatrix::from_ggml(t_ty, &random_blocks(t_ty, rows * cols / qk, &mut rng), rows, cols).unwrap();
            let x: Vec<f32> =
                (0..tokens * cols).map(|_| (rng.next() >> 40) as f32 / (1u64 << 23) as f32 - 1.0).collect();
            let expected = reference(&x, &w);
            for threads in [1, 2, 3] {
                let mut out = vec![f32::NAN; tokens * rows];
                qmatmul_with_threads(&x, &w, &mut out, threads);
                for (i, (o, e)) in out.iter().zip(&expected).enumerate() {
                    assert_eq!(o.to_bits(), e.to_bits(), "{t_ty:?}, {threads} threads, out[{i}]: {o} != {e}");
                }
            }
        }
    }

    #[test]
    fn empty_shapes() {
        let w = QMatrix::new(0, 32, 8, 32, true, vec![], None, vec![]).unwrap();
        let mut out = vec![];
        qmatmul(&[0.0; 64], &w, &mut out);
        let w = QMatrix::new(2, 0, 8, 32, true, vec![], None, vec![]).unwrap();
        let mut out = vec![1.0; 6];
        qmatmul(&[], &w, &mut out);
        assert_eq!(out, vec![0.0; 6]);
    }
}
