//! What burn lacks on wgpu, written as cubecl kernels: the matmul on a packed [`QMatrix`].
//!
//! A quantized GGUF weight goes to the device as it is held on the CPU — the packed `u32` words,
//! one f32 scale (and offset) per block — and is dequantized inside the multiply, so a Q8_0 model
//! takes ~1.1 bytes per weight of GPU memory instead of 4. Activations stay f32.
//!
//! A matrix whose words or scales would not fit in one storage binding
//! (`maxStorageBufferBindingSize`, 128 MiB by WebGPU's default) is split by rows into parts that
//! do; each part's kernel writes its own columns of the one output.
//!
//! The kernel: one unit per (weight row `n`, tile of [`TOKENS_PER_UNIT`] tokens). It walks the row
//! block by block, decodes each weight once — `w = s·q (+ o)`, exactly as [`QMatrix::dequantize`]
//! — and multiplies it into the tile's token rows, so a weight is read and decoded once per tile,
//! not once per token.

use burn::backend::Cube;
use burn::tensor::{DType, Device, Shape, Tensor};
use burn_cubecl::tensor::CubeTensor;
use cubecl::prelude::*;
use cubecl::server::Handle;

use crate::error::{Error, Result};
use crate::quant::QMatrix;

/// Tokens one unit multiplies each decoded weight into.
const TOKENS_PER_UNIT: usize = 4;
/// Units per workgroup, along the weight rows.
const ROWS_PER_CUBE: u32 = 64;

/// A [`QMatrix`] in device memory, in one or more row ranges ("parts") that each fit a binding.
pub struct GpuQMatrix {
    rows: usize,
    cols: usize,
    bits: u32,
    block: usize,
    signed: bool,
    parts: Vec<Part>,
    client: cubecl::client::Client,
    device: burn_cubecl::CubeDevice,
}

struct Part {
    first_row: usize,
    rows: usize,
    values: Handle,
    scales: Handle,
    /// `None` for types without an offset; the kernel is then compiled without the addition.
    offsets: Option<Handle>,
}

/// The largest buffer one storage binding may hold on `device` (the adapter's
/// `maxStorageBufferBindingSize`, capped by `maxBufferSize`), or `None` on the CPU backend, which
/// has no such limit. `LINGUALENS_MAX_BINDING_BYTES` lowers it natively, so that tests can make
/// tiny models split their tensors the way a large model splits on a real adapter.
pub fn binding_limit(device: &Device) -> Option<u64> {
    let probe = Tensor::<1>::zeros([1], device).try_into_primitive::<Cube>().ok()?;
    let limit = probe.client.properties().memory.max_page_size;
    let forced = std::env::var("LINGUALENS_MAX_BINDING_BYTES").ok().and_then(|v| v.parse::<u64>().ok());
    Some(forced.map_or(limit, |f| f.min(limit)))
}

impl GpuQMatrix {
    /// Uploads `m` to the wgpu `device`, split by rows so that no buffer exceeds `max_binding`
    /// bytes. Errors if `device` is not a wgpu device, or if one row alone exceeds the binding.
    pub fn upload(m: &QMatrix, device: &Device, max_binding: u64) -> Result<GpuQMatrix> {
        let probe = Tensor::<1>::zeros([1], device)
            .try_into_primitive::<Cube>()
            .map_err(|e| Error::new(format!("the quantized matmul kernel needs a wgpu device: {e:?}")))?;
        let (client, cube_device) = (probe.client.clone(), probe.device.clone());

        let words_per_row = m.values().len() / m.rows().max(1);
        let blocks_per_row = m.cols() / m.block();
        let row_bytes = (words_per_row.max(blocks_per_row) * 4) as u64;
        let rows_per_part = (max_binding / row_bytes.max(1)) as usize;
        if rows_per_part == 0 {
            return Err(Error::new(format!(
                "one row of {} quantized weights needs {row_bytes} bytes, more than the adapter's largest storage binding ({max_binding} bytes)",
                m.cols()
            )));
        }

        let mut parts = Vec::new();
        let mut first_row = 0;
        while first_row < m.rows() {
            let rows = rows_per_part.min(m.rows() - first_row);
            let (w0, w1) = (first_row * words_per_row, (first_row + rows) * words_per_row);
            let (b0, b1) = (first_row * blocks_per_row, (first_row + rows) * blocks_per_row);
            parts.push(Part {
                first_row,
                rows,
                values: client.create_from_slice(u32::as_bytes(&m.values()[w0..w1])),
                scales: client.create_from_slice(f32::as_bytes(&m.scales()[b0..b1])),
                offsets: m.offsets().map(|o| client.create_from_slice(f32::as_bytes(&o[b0..b1]))),
            });
            first_row += rows;
        }
        Ok(GpuQMatrix {
            rows: m.rows(),
            cols: m.cols(),
            bits: m.bits(),
            block: m.block(),
            signed: m.signed(),
            parts,
            client,
            device: cube_device,
        })
    }

    /// Output features (N).
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// How many row ranges the matrix was split into (1 when it fits one binding).
    pub fn parts(&self) -> usize {
        self.parts.len()
    }

    /// `x · Wᵀ`: `[t, cols]` → `[t, rows]`.
    pub fn matmul(&self, x: Tensor<2>) -> Tensor<2> {
        let [t, k] = x.dims();
        assert_eq!(k, self.cols, "quantized matmul: input has {k} features, the weight {}", self.cols);
        let x = x.try_into_primitive::<Cube>().expect("a GpuQMatrix is only made on a wgpu device");
        let x = if x.is_contiguous() { x } else { burn_cubecl::kernel::into_contiguous(x) };
        assert_eq!(x.dtype, DType::F32, "quantized matmul: activations must be f32");

        let out = self.client.empty(t * self.rows * 4);
        // A type without offsets still binds something in their place; the kernel never reads it.
        let no_offsets = || self.parts[0].scales.clone();
        for part in &self.parts {
            let cube_count =
                CubeCount::Static((part.rows as u32).div_ceil(ROWS_PER_CUBE), t.div_ceil(TOKENS_PER_UNIT) as u32, 1);
            let offsets = part.offsets.clone().unwrap_or_else(no_offsets);
            let n_offsets = if part.offsets.is_some() { part.rows * self.cols / self.block } else { 1 };
            // SAFETY: every index the kernel forms is below the length given with its buffer:
            // rows < part.rows, tokens are clamped to t - 1, columns < cols.
            unsafe {
                qmatmul_kernel::launch_unchecked(
                    &self.client,
                    cube_count,
                    CubeDim::new_2d(ROWS_PER_CUBE, 1),
                    BufferArg::from_raw_parts(x.handle.clone(), t * k),
                    BufferArg::from_raw_parts(part.values.clone(), part.rows * self.cols * self.bits as usize / 32),
                    BufferArg::from_raw_parts(part.scales.clone(), part.rows * self.cols / self.block),
                    BufferArg::from_raw_parts(offsets, n_offsets),
                    BufferArg::from_raw_parts(out.clone(), t * self.rows),
                    t as u32,
                    k as u32,
                    self.rows as u32,
                    part.first_row as u32,
                    part.rows as u32,
                    self.bits,
                    self.block as u32,
                    self.signed,
                    part.offsets.is_some(),
                );
            }
        }
        let out = CubeTensor::new_contiguous(
            self.client.clone(),
            self.device.clone(),
            Shape::new([t, self.rows]),
            out,
            DType::F32,
        );
        Tensor::from_primitive::<Cube>(out)
    }
}

/// `out[tok][first_row + r] = Σ_k x[tok][k] · w[r][k]` for the part's rows `r`, with
/// `w[r][k] = scales[b] · q[r][k] (+ offsets[b])`, `b = r · (k_len / block) + k / block`.
/// Unit (x, y) computes row `x` for tokens `y·T .. y·T + T`, `T` = [`TOKENS_PER_UNIT`].
#[allow(clippy::too_many_arguments)]
#[cube(launch_unchecked)]
fn qmatmul_kernel(
    x: &[f32],
    values: &[u32],
    scales: &[f32],
    offsets: &[f32],
    out: &mut [f32],
    tokens: u32,
    k_len: u32,
    out_stride: u32,
    first_row: u32,
    part_rows: u32,
    #[comptime] bits: u32,
    #[comptime] block: u32,
    #[comptime] signed: bool,
    #[comptime] has_offsets: bool,
) {
    let row = ABSOLUTE_POS_X;
    let tok0 = ABSOLUTE_POS_Y * TOKENS_PER_UNIT as u32;
    if row >= part_rows || tok0 >= tokens {
        terminate!();
    }
    let per_word = comptime!(32 / bits);
    let words_per_block = comptime!(block / (32 / bits));
    let mask = comptime!((1u32 << bits) - 1);
    let blocks = k_len / block;

    // Each token row of the tile, clamped so that a partial last tile reads valid memory (its
    // extra sums are never written).
    let mut x_row = Array::<u32>::new(TOKENS_PER_UNIT);
    #[unroll]
    for tt in 0..TOKENS_PER_UNIT {
        x_row[tt] = min(tok0 + tt as u32, tokens - 1) * k_len;
    }
    let mut acc = Array::<f32>::new(TOKENS_PER_UNIT);
    #[unroll]
    for tt in 0..TOKENS_PER_UNIT {
        acc[tt] = 0.0;
    }

    for b in 0..blocks {
        let bi = row * blocks + b;
        let scale = scales[bi as usize];
        let mut offset = 0.0f32;
        if comptime!(has_offsets) {
            offset = offsets[bi as usize];
        }
        #[unroll]
        for j in 0..words_per_block {
            let word = values[(bi * words_per_block + j) as usize];
            #[unroll]
            for i in 0..per_word {
                let q = if comptime!(signed) {
                    // Shift the field to the top, then arithmetic-shift it back: sign-extends.
                    let top = i32::cast_from(word << (32 - bits * (i + 1)));
                    f32::cast_from(top >> (32 - bits) as i32)
                } else {
                    f32::cast_from((word >> (bits * i)) & mask)
                };
                let mut w = scale * q;
                if comptime!(has_offsets) {
                    w += offset;
                }
                let col = b * block + j * per_word + i;
                #[unroll]
                for tt in 0..TOKENS_PER_UNIT {
                    acc[tt] += x[(x_row[tt] + col) as usize] * w;
                }
            }
        }
    }

    #[unroll]
    for tt in 0..TOKENS_PER_UNIT {
        let tok = tok0 + tt as u32;
        if tok < tokens {
            out[(tok * out_stride + first_row + row) as usize] = acc[tt];
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::backend::ComputeDevice;
    use burn::tensor::TensorData;

    /// One wgpu device for the tests of this module: burn initialises a device's runtime once per
    /// process, so a second concurrent initialisation fails.
    fn wgpu() -> Option<&'static ComputeDevice> {
        static DEVICE: std::sync::OnceLock<Result<ComputeDevice, String>> = std::sync::OnceLock::new();
        match DEVICE.get_or_init(|| pollster::block_on(ComputeDevice::wgpu())) {
            Ok(device) => Some(device),
            Err(why) => {
                assert!(std::env::var("LINGUALENS_REQUIRE_FIXTURES").as_deref() != Ok("1"), "no wgpu adapter: {why}");
                eprintln!("SKIPPED: no wgpu adapter: {why}");
                None
            }
        }
    }

    /// A deterministic pseudo-random sequence (xorshift), so the test needs no crate.
    fn noise(seed: &mut u32) -> u32 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 17;
        *seed ^= *seed << 5;
        *seed
    }

    fn random_matrix(
        rows: usize,
        cols: usize,
        bits: u32,
        block: usize,
        signed: bool,
        with_offsets: bool,
        seed: &mut u32,
    ) -> QMatrix {
        let n_blocks = rows * cols / block;
        let scales = (0..n_blocks).map(|_| (noise(seed) % 1000) as f32 / 16384.0 + 0.001).collect();
        let offsets = with_offsets.then(|| (0..n_blocks).map(|_| -((noise(seed) % 1000) as f32) / 8192.0).collect());
        let values = (0..rows * cols * bits as usize / 32).map(|_| noise(seed)).collect();
        QMatrix::new(rows, cols, bits, block, signed, scales, offsets, values).unwrap()
    }

    /// Every packed form (8-bit signed, 4-bit signed, 4-bit unsigned with offsets; blocks of 16
    /// and 32), split into several parts by a small binding limit, against `quant::qmatmul`,
    /// for token counts that do and do not fill the last tile.
    #[test]
    fn split_kernel_matches_the_cpu_qmatmul() {
        let Some(compute) = wgpu() else { return };
        let mut seed = 0x2545_f491;
        let forms = [
            (8, 32, true, false),
            (8, 16, true, true),
            (4, 32, true, false),
            (4, 32, false, true),
            (8, 32, true, true),
        ];
        for (bits, block, signed, offsets) in forms {
            let (rows, cols) = (200, 96);
            let m = random_matrix(rows, cols, bits, block, signed, offsets, &mut seed);
            let limit = (rows / 3 * cols * bits as usize / 8) as u64; // a third of the packed rows per part
            let gpu = GpuQMatrix::upload(&m, &compute.device, limit).unwrap();
            assert!(gpu.parts() > 1, "{bits}-bit block {block}: expected a split, got {} part", gpu.parts());
            for t in [1, 3, 9] {
                let x: Vec<f32> = (0..t * cols).map(|_| (noise(&mut seed) % 2001) as f32 / 1000.0 - 1.0).collect();
                let mut expected = vec![0f32; t * rows];
                crate::quant::qmatmul(&x, &m, &mut expected);
                let input = Tensor::<2>::from_data(TensorData::new(x, [t, cols]), &compute.device);
                let got = gpu.matmul(input).into_data().try_to_vec::<f32>().unwrap();
                let worst = got.iter().zip(&expected).map(|(a, b)| (a - b).abs()).fold(0f32, f32::max);
                assert!(
                    worst < 1e-4,
                    "{bits}-bit block {block} signed {signed} offsets {offsets}, {t} tokens: max |Δ| {worst}"
                );
            }
        }
    }

    #[test]
    fn a_row_larger_than_a_binding_is_an_error_not_a_panic() {
        let Some(compute) = wgpu() else { return };
        let m = random_matrix(4, 64, 8, 32, true, false, &mut 7);
        let err = GpuQMatrix::upload(&m, &compute.device, 16).err().expect("a 64-byte row cannot fit 16 bytes");
        assert!(err.to_string().contains("storage binding"), "{err}");
    }
}
