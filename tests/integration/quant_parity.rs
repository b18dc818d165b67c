//! src/quant against PyPI `gguf` 0.19.0: the references written by `tools/fixtures/quant.py` into
//! `$LINGUALENS_FIXTURES/quant/` (`scripts/test.sh` makes them).
//!
//! - `dequantize` is bit-identical to `gguf.quants.dequantize` for every supported type;
//! - `QMatrix::from_ggml` is lossless: its `dequantize` is bit-identical too;
//! - `qmatmul` is within 1e-4 of `X @ dequant(W).T` computed in float64;
//! - a `QMatrix` stays small next to the GGUF bytes it came from.
//!
//! Without the fixtures these tests skip with a message, unless `LINGUALENS_REQUIRE_FIXTURES=1`
//! (set by `scripts/test.sh` and so by CI), where they fail. `qmatmul_throughput` needs nothing.

use std::path::PathBuf;

use lingualens::formats::ggml::GgmlType;
use lingualens::formats::gguf::GgufFile;
use lingualens::formats::source::MemorySource;
use lingualens::quant::{dequantize, dequantize_tensor, qmatmul, qmatmul_with_threads, QMatrix};
use serde_json::Value;

use crate::common;

/// qmatmul's error bound: |y - y64| <= REL_TOL * Σ_k |x[t][k] * w[n][k]| for every output.
const REL_TOL: f64 = 1e-4;

/// Memory of a QMatrix over the GGUF bytes it came from. Types whose quants fit the 4-bit
/// storage stay under 1.3x. The others pay for the uniform kernel format: 5- and 6-bit quants
/// are stored in 8 bits, and Q4_K's two f16 super-block scales and 6-bit sub-block scales
/// become an f32 scale and offset per 32 weights. These are the format's exact ratios.
fn max_memory_ratio(t: GgmlType) -> f64 {
    match t {
        GgmlType::Q8_0 | GgmlType::Q4_0 | GgmlType::Q4_1 => 1.3,
        GgmlType::Q4_K => 192.0 / 144.0, // 128 B of nibbles + 8 x (4 + 4) B per 144 B block
        GgmlType::Q6_K => 320.0 / 210.0, // 256 B of bytes + 16 x 4 B per 210 B block
        GgmlType::Q5_0 => 36.0 / 22.0,
        GgmlType::Q5_1 => 40.0 / 24.0,
        GgmlType::Q5_K => 320.0 / 176.0,
        _ => unreachable!(),
    }
}

struct Fixtures {
    dir: PathBuf,
    index: Value,
    rows: usize,
    cols: usize,
    tokens: usize,
}

struct Case {
    t: GgmlType,
    bytes: Vec<u8>,
    dequant: Vec<f32>,
    y: Vec<f64>,
}

fn fixtures(test: &str) -> Option<Fixtures> {
    let path = common::fixture(test, "quant/index.json", "tools/fixtures/quant.py")?;
    let text = std::fs::read_to_string(&path).expect("readable index.json");
    let index: Value = serde_json::from_str(&text).expect("index.json is JSON");
    let number = |key: &str| index[key].as_u64().unwrap_or_else(|| panic!("index.json: {key}")) as usize;
    let (rows, cols, tokens) = (number("rows"), number("cols"), number("tokens"));
    Some(Fixtures { dir: path.parent().unwrap().to_path_buf(), index, rows, cols, tokens })
}

impl Fixtures {
    fn read(&self, name: &str) -> Vec<u8> {
        let path = self.dir.join(name);
        std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    fn x(&self) -> Vec<f32> {
        let x = f32s(&self.read(self.index["x"].as_str().expect("index.json: x")));
        assert_eq!(x.len(), self.tokens * self.cols);
        x
    }

    fn cases(&self) -> Vec<Case> {
        let types = self.index["types"].as_array().expect("index.json: types");
        let cases: Vec<Case> = types
            .iter()
            .map(|entry| {
                let file = |key: &str| entry[key].as_str().unwrap_or_else(|| panic!("index.json: {key}"));
                let name = file("type");
                let t = (0..64).filter_map(GgmlType::from_id).find(|t| t.name() == name).expect("a ggml type name");
                let case = Case {
                    t,
                    bytes: self.read(file("bytes")),
                    dequant: f32s(&self.read(file("dequant"))),
                    y: f64s(&self.read(file("y"))),
                };
                assert_eq!(
                    (case.dequant.len(), case.y.len()),
                    (self.rows * self.cols, self.tokens * self.rows),
                    "{name}"
                );
                case
            })
            .collect();
        // Every type lingualens supports has a reference.
        assert_eq!(cases.len(), 11, "expected F32, F16, BF16 and the 8 quantized types");
        assert!(cases.iter().all(|c| c.t.is_supported()));
        cases
    }
}

fn f32s(bytes: &[u8]) -> Vec<f32> {
    bytes.chunks_exact(4).map(|b| f32::from_le_bytes(b.try_into().unwrap())).collect()
}

fn f64s(bytes: &[u8]) -> Vec<f64> {
    bytes.chunks_exact(8).map(|b| f64::from_le_bytes(b.try_into().unwrap())).collect()
}

/// The number of elements whose bits differ, and the first of them.
fn bit_differences(got: &[f32], expected: &[f32]) -> (usize, Option<String>) {
    assert_eq!(got.len(), expected.len());
    let differing: Vec<usize> = (0..got.len()).filter(|&i| got[i].to_bits() != expected[i].to_bits()).collect();
    let first = differing.first().map(|&i| format!("element {i}: {:e} != {:e}", got[i], expected[i]));
    (differing.len(), first)
}

#[test]
fn dequantize_is_bit_exact_with_gguf() {
    let Some(fx) = fixtures("dequantize_is_bit_exact_with_gguf") else { return };
    for case in fx.cases() {
        let got = dequantize(case.t, &case.bytes, fx.rows * fx.cols).unwrap();
        let (n, first) = bit_differences(&got, &case.dequant);
        eprintln!("dequantize {:5}: {n} of {} elements differ", case.t.name(), got.len());
        assert_eq!(n, 0, "{:?}: {}", case.t, first.unwrap_or_default());
    }
}

#[test]
fn qmatrix_is_lossless_and_small() {
    let Some(fx) = fixtures("qmatrix_is_lossless_and_small") else { return };
    for case in fx.cases().into_iter().filter(|c| QMatrix::TYPES.contains(&c.t)) {
        let w = QMatrix::from_ggml(case.t, &case.bytes, fx.rows, fx.cols).unwrap();
        let (n, first) = bit_differences(&w.dequantize(), &case.dequant);
        let ratio = w.memory_bytes() as f64 / case.bytes.len() as f64;
        eprintln!(
            "QMatrix {:5}: {n} elements differ; {}-bit/{} {}; {} B vs {} B in GGUF ({ratio:.3}x)",
            case.t.name(),
            w.bits(),
            w.block(),
            if w.offsets().is_some() { "with offsets" } else { "symmetric" },
            w.memory_bytes(),
            case.bytes.len()
        );
        assert_eq!(n, 0, "{:?}: {}", case.t, first.unwrap_or_default());
        assert!(ratio <= max_memory_ratio(case.t) + 1e-9, "{:?}: {ratio:.3}x the GGUF bytes", case.t);
    }
}

#[test]
fn qmatmul_matches_float64() {
    let Some(fx) = fixtures("qmatmul_matches_float64") else { return };
    let x = fx.x();
    let (t, n, k) = (fx.tokens, fx.rows, fx.cols);
    for case in fx.cases().into_iter().filter(|c| QMatrix::TYPES.contains(&c.t)) {
        let w = QMatrix::from_ggml(case.t, &case.bytes, n, k).unwrap();
        let mut out = vec![f32::NAN; t * n];
        qmatmul(&x, &w, &mut out);
        let (mut worst, mut worst_plain) = (0f64, 0f64);
        for ti in 0..t {
            for ni in 0..n {
                let scale: f64 =
                    (0..k).map(|kk| (x[ti * k + kk] as f64 * case.dequant[ni * k + kk] as f64).abs()).sum();
                let (got, expected) = (out[ti * n + ni] as f64, case.y[ti * n + ni]);
                let error = (got - expected).abs();
                let rel = if scale == 0.0 { error } else { error / scale };
                assert!(
                    rel <= REL_TOL,
                    "{:?} out[{ti}][{ni}] = {got}, float64 {expected}: error {error:e} is {rel:e} of Σ|x·w| = {scale:e}",
                    case.t
                );
                worst = worst.max(rel);
                if expected.abs() > 1e-3 * scale {
                    worst_plain = worst_plain.max(error / expected.abs());
                }
            }
        }
        eprintln!(
            "qmatmul {:5}: max error {worst:.2e} of Σ|x·w|; max |error / y| {worst_plain:.2e} (outputs not cancelled below 1e-3 Σ|x·w|)",
            case.t.name()
        );
    }
}

/// The references through the GGUF reader: a file built here holds the fixture tensors, and
/// `GgufFile` + `read_tensor_bytes` + `QMatrix::from_tensor` / `dequantize_tensor` decode them.
#[test]
fn tensors_read_from_a_gguf_file() {
    let Some(fx) = fixtures("tensors_read_from_a_gguf_file") else { return };
    let cases: Vec<Case> =
        fx.cases().into_iter().filter(|c| matches!(c.t, GgmlType::Q4_K | GgmlType::Q8_0 | GgmlType::BF16)).collect();
    let type_id = |t: GgmlType| (0..64).find(|&id| GgmlType::from_id(id) == Some(t)).unwrap();
    let mut infos = Vec::new();
    let mut data = Vec::new();
    for case in &cases {
        let name = format!("blk.0.{}.weight", case.t.name());
        infos.extend((name.len() as u64).to_le_bytes());
        infos.extend(name.as_bytes());
        infos.extend(2u32.to_le_bytes());
        infos.extend((fx.cols as u64).to_le_bytes()); // dims[0]: the row length
        infos.extend((fx.rows as u64).to_le_bytes());
        infos.extend(type_id(case.t).to_le_bytes());
        infos.extend((data.len() as u64).to_le_bytes());
        data.extend(&case.bytes);
        data.resize(data.len().next_multiple_of(32), 0);
    }
    let mut file = b"GGUF".to_vec();
    file.extend(3u32.to_le_bytes());
    file.extend((cases.len() as u64).to_le_bytes());
    file.extend(0u64.to_le_bytes());
    file.extend(infos);
    file.resize(file.len().next_multiple_of(32), 0);
    file.extend(data);

    let source = MemorySource::new("quant.gguf", file);
    let gguf = pollster::block_on(GgufFile::read(&source)).unwrap();
    for case in &cases {
        let info = gguf.tensor(&format!("blk.0.{}.weight", case.t.name())).unwrap();
        let bytes = pollster::block_on(gguf.read_tensor_bytes(&source, info)).unwrap();
        assert_eq!(bit_differences(&dequantize_tensor(info, &bytes).unwrap(), &case.dequant).0, 0, "{:?}", case.t);
        if case.t == GgmlType::BF16 {
            let e = QMatrix::from_tensor(info, &bytes).unwrap_err();
            assert_eq!(
                e.message(),
                "tensor blk.0.BF16.weight: BF16 weights are not quantized: they take the float path (quant::dequantize), not QMatrix"
            );
            continue;
        }
        let w = QMatrix::from_tensor(info, &bytes).unwrap();
        assert_eq!((w.rows(), w.cols()), (fx.rows, fx.cols));
        assert_eq!(bit_differences(&w.dequantize(), &case.dequant).0, 0, "{:?}", case.t);
        let e = QMatrix::from_tensor(info, &bytes[1..]).unwrap_err();
        assert!(e.message().starts_with(&format!("tensor blk.0.{}.weight: ", case.t.name())), "{}", e.message());
    }
}

/// Prints GFLOP/s of qmatmul for a 768 x 2048 weight (N = 768 outputs, K = 2048 inputs) and
/// T = 256 tokens, on one thread and on all, and for T = 1 (a decoding step) on one thread.
/// Asserts nothing about time. Use `--release`.
#[test]
fn qmatmul_throughput() {
    let (n, k) = (768, 2048);
    let t = if cfg!(debug_assertions) { 4 } else { 256 };
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let x: Vec<f32> = (0..t * k).map(|_| (next() >> 40) as f32 / (1u64 << 23) as f32 - 1.0).collect();
    let threads = std::thread::available_parallelism().map_or(1, |p| p.get());
    for ty in [GgmlType::Q4_0, GgmlType::Q8_0, GgmlType::Q4_K, GgmlType::Q6_K] {
        let (qk, size) = ty.block_layout();
        let mut bytes: Vec<u8> = (0..n * k / qk * size).map(|_| next() as u8).collect();
        // Every f16 field a modest positive value (0.0078), so no Inf/NaN/subnormal slows the sums.
        let f16_fields: &[usize] = if ty == GgmlType::Q6_K {
            &[208]
        } else if ty == GgmlType::Q4_K {
            &[0, 2]
        } else {
            &[0]
        };
        for block in bytes.chunks_exact_mut(size) {
            for &at in f16_fields {
                block[at..at + 2].copy_from_slice(&0x2000u16.to_le_bytes());
            }
        }
        let w = QMatrix::from_ggml(ty, &bytes, n, k).unwrap();
        let mut out = vec![0f32; t * n];
        let mut gflops = |tokens: usize, threads: usize| {
            let (x, out) = (&x[..tokens * k], &mut out[..tokens * n]);
            if !cfg!(debug_assertions) {
                qmatmul_with_threads(x, &w, out, threads); // warm-up
            }
            let runs = if tokens == 1 && !cfg!(debug_assertions) { 50 } else { 1 };
            let start = std::time::Instant::now();
            for _ in 0..runs {
                qmatmul_with_threads(x, &w, out, threads);
            }
            let seconds = start.elapsed().as_secs_f64() / runs as f64;
            format!("{:.1} GFLOP/s ({:.2} ms)", 2.0 * (tokens * n * k) as f64 / seconds / 1e9, seconds * 1e3)
        };
        let mut report = format!(
            "qmatmul {:5} {n}x{k}: T={t} {} on 1 thread, {} on {threads};",
            ty.name(),
            gflops(t, 1),
            gflops(t, threads)
        );
        report += &format!(" T=1 {} on 1 thread", gflops(1, 1));
        if cfg!(debug_assertions) {
            report += " (debug build: T reduced to 4, one run; use --release for real figures)";
        }
        eprintln!("{report}");
        assert!(out.iter().all(|y| y.is_finite()));
    }
}
