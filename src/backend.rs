//! The compute device: burn on wgpu (WebGPU in a browser, Vulkan natively) or burn's pure-Rust
//! CPU backend (`flex`), chosen at run time, with a description of the adapter for the UI.
//!
//! Everything that touches the device is created here and nowhere else, so the model code can
//! take a `&ComputeDevice` and not care which backend it runs on.

#[cfg(feature = "engine")]
use burn::tensor::Device;
use serde::{Deserialize, Serialize};

/// Which burn backend a [`ComputeDevice`] runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BackendKind {
    /// burn-wgpu: WebGPU in the browser, Vulkan/Metal/DX12 natively.
    Wgpu,
    /// burn-flex, burn's portable CPU backend (SIMD128 on wasm).
    Cpu,
}

impl BackendKind {
    pub fn name(self) -> &'static str {
        match self {
            BackendKind::Wgpu => "wgpu",
            BackendKind::Cpu => "cpu",
        }
    }
}

/// What the user asked for. `Auto` means: wgpu if an adapter is there, else the CPU (natively
/// the exact path; in the browser's worker the int8 one, see `web::worker`, which also times
/// both on each loaded model where the adapter is real hardware and keeps the faster).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum BackendPreference {
    #[default]
    Auto,
    Wgpu,
    /// The CPU with f32 activations: the exact product of the file's weights.
    Cpu,
    /// The CPU with 8-bit activations for quantized weights ([`Activations::Int8`]).
    #[serde(rename = "cpu-int8")]
    CpuInt8,
    /// As `Auto` on real hardware, even where WebGPU is a software adapter: WebGPU and the CPU
    /// are both timed on each loaded model and the faster is kept (`web::worker`).
    Measure,
}

impl std::str::FromStr for BackendPreference {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "auto" => Ok(Self::Auto),
            "wgpu" | "webgpu" | "gpu" => Ok(Self::Wgpu),
            "cpu" => Ok(Self::Cpu),
            "cpu-int8" => Ok(Self::CpuInt8),
            "measure" => Ok(Self::Measure),
            other => Err(format!("unknown backend {other:?}: expected auto, wgpu, cpu, cpu-int8 or measure")),
        }
    }
}

/// The adapter as the UI and the CLI describe it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AdapterDescription {
    /// The graphics API wgpu went through ("Vulkan", "BrowserWebGpu"), or "cpu".
    pub api: String,
    pub name: String,
    pub vendor: String,
    /// "Cpu", "IntegratedGpu", "DiscreteGpu", … as wgpu reports it.
    pub device_type: String,
    pub driver: String,
    /// The browser's own `GPUAdapterInfo.architecture` ("swiftshader" for Chromium's software adapter).
    pub architecture: String,
    /// The browser's `isFallbackAdapter`: a software adapter the browser keeps as a last resort.
    pub is_fallback_adapter: Option<bool>,
}

impl AdapterDescription {
    /// Why this adapter is a software rasterizer, if it is one: the browser's `isFallbackAdapter`,
    /// or a name that says so (Chromium's SwiftShader, Mesa's llvmpipe/lavapipe, a CPU device
    /// type). On such an adapter the model's matmuls run slower than on the CPU path (a row of the
    /// demo takes seconds on SwiftShader against milliseconds on the CPU), so `Auto` never picks it.
    pub fn software_reason(&self) -> Option<String> {
        let named = [&self.architecture, &self.name, &self.vendor, &self.driver]
            .into_iter()
            .map(|s| s.to_lowercase())
            .find_map(|s| ["swiftshader", "llvmpipe", "lavapipe"].into_iter().find(|w| s.contains(w)));
        let what = match (self.is_fallback_adapter, named) {
            (Some(true), Some(name)) => format!("a software fallback adapter ({name})"),
            (Some(true), None) => "a software fallback adapter (isFallbackAdapter)".to_string(),
            (_, Some(name)) => format!("a software adapter ({name})"),
            (_, None) if self.device_type.eq_ignore_ascii_case("cpu") => {
                "a software adapter (device type CPU)".to_string()
            }
            _ => return None,
        };
        Some(format!("WebGPU here is {what}, slower than the CPU path; ?backend=wgpu uses it anyway"))
    }
}

/// Adapter limits that decide whether a model fits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdapterLimits {
    pub max_storage_buffer_binding_size: u64,
    pub max_buffer_size: u64,
}

/// Everything known about the device in use, sent to the page and printed by the CLI.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BackendInfo {
    pub backend: BackendKind,
    pub adapter: AdapterDescription,
    /// `None` on the CPU backend, which has no binding limits.
    pub limits: Option<AdapterLimits>,
    /// Why wgpu was not used when it was wanted (no `navigator.gpu`, no adapter, …).
    pub fallback_reason: Option<String>,
    /// The CPU backend's quantized matmul; wgpu always keeps activations f32.
    #[serde(default)]
    pub activations: Activations,
    /// On the CPU backend, the int8 matmul's kernel for this CPU and build ("avx512-vnni", "avx2",
    /// "relaxed-simd", "simd128", "portable").
    #[serde(default)]
    pub int8_kernel: Option<String>,
    /// Where the browser's worker timed WebGPU and the CPU on the loaded model to choose between
    /// them: both speeds, in words.
    #[serde(default)]
    pub calibration: Option<String>,
    /// On the CPU backend, the threads one forward pass is split across (`crate::parallel`): the
    /// cores natively, the threaded worker and its helper threads in the browser, 1 in the other
    /// workers (the page's pool splits the items instead).
    #[serde(default)]
    pub threads: Option<usize>,
}

impl BackendInfo {
    /// The backend as `--backend` and `?backend=` name it: `wgpu`, `cpu` or `cpu-int8`.
    pub fn label(&self) -> &'static str {
        match (self.backend, self.activations) {
            (BackendKind::Cpu, Activations::Int8) => "cpu-int8",
            (kind, _) => kind.name(),
        }
    }
}

/// How the CPU multiplies packed quantized weights.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Activations {
    /// Activations stay f32: the exact product of the file's weights (the default).
    #[default]
    F32,
    /// Activations are quantized to 8 bits per block of 32 first, as llama.cpp does: faster, and
    /// as far from transformers as llama.cpp is (every quantized type; float weights stay f32).
    Int8,
}

/// A burn device plus its description.
#[cfg(feature = "engine")]
#[derive(Debug, Clone)]
pub struct ComputeDevice {
    pub device: Device,
    pub info: BackendInfo,
}

#[cfg(feature = "engine")]
impl ComputeDevice {
    /// burn's CPU backend. Always available.
    pub fn cpu() -> Self {
        ComputeDevice {
            device: Device::flex(),
            info: BackendInfo {
                backend: BackendKind::Cpu,
                adapter: AdapterDescription {
                    api: "cpu".into(),
                    name: "burn-flex".into(),
                    device_type: "Cpu".into(),
                    ..Default::default()
                },
                limits: None,
                fallback_reason: None,
                activations: Activations::F32,
                int8_kernel: Some(crate::quant::int8_kernel().to_string()),
                calibration: None,
                threads: Some(crate::parallel::cores()),
            },
        }
    }

    /// The CPU backend with 8-bit activations for quantized weights (see [`Activations::Int8`]).
    pub fn cpu_int8() -> Self {
        let mut device = ComputeDevice::cpu();
        device.info.activations = Activations::Int8;
        device
    }

    /// burn-wgpu on the default adapter. Asynchronous because the browser's `requestAdapter`
    /// and `requestDevice` are; natively it resolves at once.
    ///
    /// burn registers its wgpu runtime once per process and refuses a second ("Service already
    /// initialized"), so natively the first answer is kept and every later call gets it again:
    /// `lingualens bench --backend wgpu` with two models asked twice. (A worker asks once.)
    #[cfg(all(feature = "gpu", not(target_arch = "wasm32")))]
    pub async fn wgpu() -> Result<Self, String> {
        static FIRST: std::sync::OnceLock<Result<ComputeDevice, String>> = std::sync::OnceLock::new();
        FIRST.get_or_init(|| pollster::block_on(Self::init_wgpu())).clone()
    }

    /// burn-wgpu on the browser's adapter (see the native one's comment).
    #[cfg(all(feature = "gpu", target_arch = "wasm32"))]
    pub async fn wgpu() -> Result<Self, String> {
        Self::init_wgpu().await
    }

    /// A build without the `gpu` feature (the browser's threaded worker) has the CPU backends only.
    #[cfg(not(feature = "gpu"))]
    pub async fn wgpu() -> Result<Self, String> {
        Err("this build of lingualens has no WebGPU backend (the threaded worker runs on the CPU only)".into())
    }

    #[cfg(feature = "gpu")]
    async fn init_wgpu() -> Result<Self, String> {
        let (device, setup) = Device::wgpu_options()
            .init_with_setup_async()
            .await
            .map_err(|e| format!("wgpu initialisation failed: {e}"))?;
        Ok(ComputeDevice { device, info: describe_wgpu(&setup) })
    }
}

#[cfg(feature = "gpu")]
fn describe_wgpu(setup: &burn::tensor::wgpu::WgpuSetup) -> BackendInfo {
    let info = setup.adapter.get_info();
    let limits = setup.adapter.limits();
    BackendInfo {
        backend: BackendKind::Wgpu,
        adapter: AdapterDescription {
            api: format!("{:?}", setup.backend),
            name: info.name,
            vendor: format!("{:#06x}", info.vendor),
            device_type: format!("{:?}", info.device_type),
            driver: [info.driver, info.driver_info].into_iter().filter(|s| !s.is_empty()).collect::<Vec<_>>().join(" "),
            architecture: String::new(),
            is_fallback_adapter: None,
        },
        limits: Some(AdapterLimits {
            max_storage_buffer_binding_size: limits.max_storage_buffer_binding_size,
            max_buffer_size: limits.max_buffer_size,
        }),
        fallback_reason: None,
        activations: Activations::F32,
        int8_kernel: None,
        calibration: None,
        threads: None,
    }
}

#[cfg(test)]
mod tests {
    #[cfg(all(feature = "engine", not(target_arch = "wasm32")))]
    #[test]
    fn a_second_wgpu_device_in_one_process_is_the_first_one_again() {
        use super::ComputeDevice;
        let first = pollster::block_on(ComputeDevice::wgpu());
        let Ok(first) = first else {
            assert!(std::env::var("LINGUALENS_REQUIRE_FIXTURES").as_deref() != Ok("1"), "no wgpu adapter: {first:?}");
            return eprintln!("SKIPPED: no wgpu adapter: {first:?}");
        };
        let second = pollster::block_on(ComputeDevice::wgpu()).expect("a second call in the same process");
        assert_eq!(format!("{:?}", first.device), format!("{:?}", second.device));
        assert_eq!(first.info.adapter.name, second.info.adapter.name);
    }

    use super::AdapterDescription;

    fn adapter(architecture: &str, device_type: &str, fallback: Option<bool>) -> AdapterDescription {
        AdapterDescription {
            api: "BrowserWebGpu".into(),
            vendor: "google".into(),
            architecture: architecture.into(),
            device_type: device_type.into(),
            is_fallback_adapter: fallback,
            ..AdapterDescription::default()
        }
    }

    #[test]
    fn software_adapters_are_named_and_hardware_ones_are_not() {
        let swiftshader = adapter("swiftshader", "", None).software_reason().expect("SwiftShader is software");
        assert!(swiftshader.contains("swiftshader") && swiftshader.contains("?backend=wgpu"), "{swiftshader}");
        assert!(adapter("", "", Some(true)).software_reason().unwrap().contains("isFallbackAdapter"));
        assert!(adapter("", "Cpu", None).software_reason().is_some());
        let lavapipe =
            AdapterDescription { name: "llvmpipe (LLVM 19.1.7, 256 bits)".into(), ..adapter("", "Cpu", None) };
        assert!(lavapipe.software_reason().unwrap().contains("llvmpipe"));
        for hardware in [
            adapter("ampere", "DiscreteGpu", Some(false)),
            adapter("gen-12lp", "IntegratedGpu", None),
            adapter("", "", None),
        ] {
            assert_eq!(hardware.software_reason(), None, "{hardware:?}");
        }
    }
}
