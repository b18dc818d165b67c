//! lingualens: evaluate small language models on benchmarks in low-resource languages,
//! in a browser tab (wasm32 + WebGPU) or from the command line, with one engine.
//!
//! Read `ARCHITECTURE.md` first: it maps these modules onto the data flow
//! model file → tensors → tokens → logits → option scores → results → live UI.

pub mod error;

pub mod backend;
pub mod catalog;
pub mod engine;
#[cfg(feature = "engine")]
pub mod eval;
pub mod formats;
#[cfg(feature = "gpu")]
pub mod gpu;
/// The same names where the build has no wgpu (the threaded worker): no device holds packed weights.
#[cfg(all(feature = "engine", not(feature = "gpu")))]
#[path = "gpu_absent.rs"]
pub mod gpu;
pub mod hub;
pub mod models;
pub mod parallel;
pub mod pyrandom;
pub mod quant;
pub mod scoring;
pub mod selftest;
pub mod tasks;
pub mod tokenizers;
pub mod web;

#[cfg(all(feature = "engine", not(target_arch = "wasm32")))]
pub mod cli;
#[cfg(all(feature = "engine", not(target_arch = "wasm32")))]
pub mod fuzz;

pub use error::{Error, Result};
