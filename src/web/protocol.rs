//! Messages between the page and its worker, carried by `postMessage` through serde-wasm-bindgen.
//!
//! The worker announces `Ready` once its message handler is installed; the page sends nothing
//! before that, because a message that reaches a worker before its handler exists is dropped.

use serde::{Deserialize, Serialize};

use crate::backend::{BackendInfo, BackendPreference};
use crate::engine::ContinuationScore;
use crate::selftest::SelfTestReport;

/// The file trunk writes for the worker (`data-loader-shim` on the worker's `<link>` in index.html).
pub const WORKER_SCRIPT: &str = "./lingualens-worker_loader.js";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToWorker {
    /// Initialise the device (once, on the first request) and run the self-test on it.
    SelfTest { backend: BackendPreference },
    /// Download a GGUF model from `url` (relative to the page, or absolute) and load it.
    LoadModel { url: String, backend: BackendPreference },
    /// Score `choices` after `context` with the loaded model (lm-evaluation-harness's rule).
    Score { context: String, choices: Vec<String> },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FromWorker {
    Ready,
    Backend { info: BackendInfo },
    SelfTest { report: SelfTestReport },
    ModelLoaded { name: String, architecture: String, layers: usize, vocab_size: usize },
    Scores { backend: String, choices: Vec<ContinuationScore> },
    Error { message: String },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_tagged_with_a_snake_case_type() {
        let json = serde_json::to_value(ToWorker::SelfTest { backend: BackendPreference::Cpu }).unwrap();
        assert_eq!(json, serde_json::json!({ "type": "self_test", "backend": "cpu" }));
        let back: FromWorker = serde_json::from_value(serde_json::json!({ "type": "ready" })).unwrap();
        assert_eq!(back, FromWorker::Ready);
    }
}
