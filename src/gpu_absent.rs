//! `crate::gpu` in a build without the `gpu` feature (the browser's threaded worker, whose wasm
//! atomics cubecl-wgpu does not compile with): the same names, and no device that holds packed
//! weights, so the model code takes its host paths without a `cfg` of its own.

use burn::tensor::{Device, Tensor};

use crate::error::{Error, Result};
use crate::quant::QMatrix;

/// Packed weights on a wgpu device: none can exist in this build.
pub enum GpuQMatrix {}

/// No device here has a storage-binding limit: every device is the CPU.
pub fn binding_limit(_device: &Device) -> Option<u64> {
    None
}

impl GpuQMatrix {
    pub fn upload(_m: &QMatrix, _device: &Device, _max_binding: u64) -> Result<GpuQMatrix> {
        Err(Error::new("this build of lingualens has no wgpu backend"))
    }

    pub fn rows(&self) -> usize {
        match *self {}
    }

    pub fn parts(&self) -> usize {
        match *self {}
    }

    pub fn matmul(&self, _x: Tensor<2>) -> Tensor<2> {
        match *self {}
    }
}
