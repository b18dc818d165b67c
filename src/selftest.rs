//! The device self-test: a small matmul and a softmax computed on the chosen backend and compared
//! with plain loops in f64 that share no code with burn. It answers one question before any model
//! is loaded: does this device compute the right numbers?
//!
//! The shapes are odd on purpose (not multiples of any tile size), and the softmax inputs span
//! ±40 so that a kernel which forgets to subtract the row maximum overflows and fails.

#[cfg(feature = "engine")]
use burn::tensor::{activation::softmax, Tensor, TensorData};
use serde::{Deserialize, Serialize};
#[cfg(feature = "engine")]
use web_time::Instant;

use crate::backend::BackendInfo;
#[cfg(feature = "engine")]
use crate::backend::{BackendKind, ComputeDevice};

/// One compared computation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Check {
    pub name: String,
    pub shape: Vec<usize>,
    pub max_abs_error: f64,
    pub tolerance: f64,
    pub passed: bool,
    /// The first few values from the device and from the reference, for the eye.
    pub device_head: Vec<f32>,
    pub reference_head: Vec<f32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SelfTestReport {
    pub backend: BackendInfo,
    pub checks: Vec<Check>,
    pub passed: bool,
    pub elapsed_ms: f64,
}

// The checks themselves run on a burn device: only with the `engine` feature.
#[cfg(feature = "engine")]
const M: usize = 37;
#[cfg(feature = "engine")]
const K: usize = 70;
#[cfg(feature = "engine")]
const N: usize = 45;
#[cfg(feature = "engine")]
const SOFTMAX_ROWS: usize = 9;
#[cfg(feature = "engine")]
const SOFTMAX_COLS: usize = 131;

#[cfg(feature = "engine")]
/// Deterministic values in [-1, 1) without a random number generator.
fn pattern(len: usize, seed: usize) -> Vec<f32> {
    (0..len).map(|i| ((i * 7919 + seed * 104_729) % 2003) as f32 / 1001.5 - 1.0).collect()
}

/// Row-major `a [m×k] · b [k×n]`, accumulated in f64.
pub fn reference_matmul(a: &[f32], b: &[f32], m: usize, k: usize, n: usize) -> Vec<f32> {
    let mut out = vec![0f32; m * n];
    for i in 0..m {
        for j in 0..n {
            let mut acc = 0f64;
            for p in 0..k {
                acc += a[i * k + p] as f64 * b[p * n + j] as f64;
            }
            out[i * n + j] = acc as f32;
        }
    }
    out
}

/// Softmax of each row of a row-major `[rows×cols]` matrix, in f64.
pub fn reference_softmax(x: &[f32], rows: usize, cols: usize) -> Vec<f32> {
    let mut out = Vec::with_capacity(x.len());
    for row in x.chunks(cols).take(rows) {
        let max = row.iter().fold(f64::NEG_INFINITY, |m, &v| m.max(v as f64));
        let exps: Vec<f64> = row.iter().map(|&v| (v as f64 - max).exp()).collect();
        let sum: f64 = exps.iter().sum();
        out.extend(exps.iter().map(|e| (e / sum) as f32));
    }
    out
}

#[cfg(feature = "engine")]
fn compare(name: &str, shape: &[usize], device: &[f32], reference: &[f32], tolerance: f64) -> Check {
    let max_abs_error = if device.len() != reference.len() {
        f64::INFINITY
    } else {
        device
            .iter()
            .zip(reference)
            .map(|(&d, &r)| if d.is_finite() { (d as f64 - r as f64).abs() } else { f64::INFINITY })
            .fold(0.0, f64::max)
    };
    Check {
        name: name.to_string(),
        shape: shape.to_vec(),
        max_abs_error,
        tolerance,
        passed: max_abs_error <= tolerance,
        device_head: device.iter().take(4).copied().collect(),
        reference_head: reference.iter().take(4).copied().collect(),
    }
}

#[cfg(feature = "engine")]
/// Runs both checks on `device`. Reads back asynchronously, as the browser requires.
pub async fn run(device: &ComputeDevice) -> Result<SelfTestReport, String> {
    let started = Instant::now();
    let dev = &device.device;

    let a = pattern(M * K, 1);
    let b = pattern(K * N, 2);
    let ta = Tensor::<2>::from_data(TensorData::new(a.clone(), [M, K]), dev);
    let tb = Tensor::<2>::from_data(TensorData::new(b.clone(), [K, N]), dev);
    let product = read(ta.matmul(tb)).await?;
    // |a|,|b| < 1 and K = 70, so f32 accumulation error stays far below 1e-4.
    let matmul = compare("matmul", &[M, K, N], &product, &reference_matmul(&a, &b, M, K, N), 1e-4);

    let logits: Vec<f32> = pattern(SOFTMAX_ROWS * SOFTMAX_COLS, 3).iter().map(|v| v * 40.0).collect();
    let tl = Tensor::<2>::from_data(TensorData::new(logits.clone(), [SOFTMAX_ROWS, SOFTMAX_COLS]), dev);
    let probs = read(softmax(tl, 1)).await?;
    let softmax = compare(
        "softmax",
        &[SOFTMAX_ROWS, SOFTMAX_COLS],
        &probs,
        &reference_softmax(&logits, SOFTMAX_ROWS, SOFTMAX_COLS),
        1e-6,
    );

    let mut checks = vec![matmul, softmax];
    if device.info.backend == BackendKind::Cpu {
        // The int8 kernel this CPU runs (SIMD128 in the browser), against the definition in f64.
        let int8 = crate::quant::check_int8_kernel();
        checks.push(Check {
            name: format!("int8 matmul, {} kernel (error relative to Σ|x·w|)", int8.kernel),
            shape: int8.shape.to_vec(),
            max_abs_error: int8.error,
            tolerance: 1e-6,
            passed: int8.error <= 1e-6,
            device_head: Vec::new(),
            reference_head: Vec::new(),
        });
    }
    Ok(SelfTestReport {
        backend: device.info.clone(),
        passed: checks.iter().all(|c| c.passed),
        checks,
        elapsed_ms: started.elapsed().as_secs_f64() * 1e3,
    })
}

#[cfg(feature = "engine")]
async fn read(tensor: Tensor<2>) -> Result<Vec<f32>, String> {
    let data = tensor.into_data_async().await.map_err(|e| format!("device read failed: {e:?}"))?;
    data.try_into_vec::<f32>().map_err(|e| format!("unexpected tensor data: {e:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_matmul_matches_a_hand_computed_product() {
        // [1 2; 3 4] · [5 6; 7 8] = [19 22; 43 50]
        let c = reference_matmul(&[1., 2., 3., 4.], &[5., 6., 7., 8.], 2, 2, 2);
        assert_eq!(c, vec![19., 22., 43., 50.]);
    }

    #[test]
    fn reference_softmax_is_stable_and_normalised() {
        let p = reference_softmax(&[1000.0, 1000.0, -1000.0, 0.0, 0.0, 0.0], 2, 3);
        assert!((p[0] - 0.5).abs() < 1e-7 && (p[1] - 0.5).abs() < 1e-7 && p[2] == 0.0);
        assert!(p[3..].iter().all(|v| (v - 1.0 / 3.0).abs() < 1e-7));
    }

    #[test]
    fn compare_flags_errors_and_non_finite_values() {
        assert!(compare("x", &[2], &[1.0, 2.0], &[1.0, 2.0], 1e-6).passed);
        assert!(!compare("x", &[2], &[1.0, 2.1], &[1.0, 2.0], 1e-6).passed);
        assert!(!compare("x", &[2], &[1.0, f32::NAN], &[1.0, 2.0], 1e-6).passed);
        assert!(!compare("x", &[2], &[1.0], &[1.0, 2.0], 1e-6).passed);
    }

    #[cfg(feature = "engine")]
    #[test]
    fn cpu_backend_passes() {
        let report = pollster::block_on(run(&ComputeDevice::cpu())).expect("self-test ran");
        assert!(report.passed, "{report:#?}");
        assert!(report.checks.iter().any(|c| c.name.starts_with("int8 matmul")), "{report:#?}");
    }
}
