//! Messages between the page and its worker, carried by `postMessage` through serde-wasm-bindgen.
//!
//! The worker announces `Ready` once its message handler is installed; the page sends nothing
//! before that, because a message that reaches a worker before its handler exists is dropped.

use serde::{Deserialize, Serialize};

use std::collections::BTreeMap;

use crate::backend::{BackendInfo, BackendPreference};
use crate::engine::ContinuationScore;
use crate::models::fit::{Budget, ModelNeeds};
use crate::selftest::SelfTestReport;
use crate::tasks::bundle::TaskFiles;

/// The file trunk writes for the worker (`data-loader-shim` on the worker's `<link>` in index.html).
pub const WORKER_SCRIPT: &str = "./lingualens-worker_loader.js";

/// The same worker with the int8 matmul's relaxed-SIMD kernel (`src/bin/worker_relaxed.rs`):
/// started where the browser validates [`RELAXED_SIMD_PROBE`] (Chrome/Edge 114 and later).
pub const RELAXED_WORKER_SCRIPT: &str = "./lingualens-worker-relaxed_loader.js";
/// The worker built for wasm threads (`src/bin/worker_threads.rs`), started where the page is
/// cross-origin isolated (shared memory needs it).
pub const THREADS_WORKER_SCRIPT: &str = "./lingualens-worker-threads_loader.js";
/// The threaded worker with the relaxed-SIMD kernel, where the browser validates
/// [`RELAXED_SIMD_PROBE`].
pub const THREADS_RELAXED_WORKER_SCRIPT: &str = "./lingualens-worker-threads-relaxed_loader.js";
/// A helper thread of the threaded worker: instantiates the worker's module on its shared memory
/// and joins its pool (`www/lingualens-thread.js`).
pub const THREAD_SCRIPT: &str = "./lingualens-thread.js";

/// A wasm module of one function, `() -> v128`, that runs `i32x4.relaxed_dot_i8x16_i7x16_add_s`
/// on three zero vectors: `WebAssembly.validate` accepts it exactly where relaxed SIMD is there.
/// (`www/sw.js` and `tools/bench/browser/bench.js` hold the same bytes; `tests/integration/bundle.rs` checks.)
pub const RELAXED_SIMD_PROBE: [u8; 82] = {
    let head: [u8; 24] = [
        0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version 1
        0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, // type section: () -> v128
        0x03, 0x02, 0x01, 0x00, // function section: one function of type 0
        0x0a, 0x3d, 0x01, 0x3b, 0x00, // code section: one body of 59 bytes, no locals
    ];
    let mut bytes = [0u8; 82];
    let mut i = 0;
    while i < 24 {
        bytes[i] = head[i];
        i += 1;
    }
    // Three `v128.const` of zeros (0xfd 0x0c, 16 bytes each), then the relaxed dot product
    // (0xfd, opcode 0x113 as LEB128: 0x93 0x02) and `end`.
    let mut at = 24;
    while at < 78 {
        bytes[at] = 0xfd;
        bytes[at + 1] = 0x0c;
        at += 18;
    }
    bytes[78] = 0xfd;
    bytes[79] = 0x93;
    bytes[80] = 0x02;
    bytes[81] = 0x0b;
    bytes
};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToWorker {
    /// Initialise the device (once, on the first request) and run the self-test on it.
    SelfTest { backend: BackendPreference },
    /// Load the model `source` names on `backend`; answered by `ModelLoaded`, with `Download`
    /// progress for a URL.
    LoadModel { source: ModelSource, backend: BackendPreference },
    /// Before a load: check that the model `source` names fits on the backend, from its header
    /// alone (a URL's: from Cache Storage if it is there, else a growing prefix by HTTP `Range`
    /// requests, never the whole file; a folder's: config.json and the safetensors headers);
    /// answered by `ModelFit`. `budget_mib` forces the budget (the page's `?budget_mib=`, to test
    /// a refusal).
    CheckModel {
        source: ModelSource,
        backend: BackendPreference,
        #[serde(default)]
        budget_mib: Option<u64>,
    },
    /// Read a task and its documents and render every prompt; answered by `TaskReady`.
    /// `ticket` comes back in the answer, so a late answer to an earlier request is told apart.
    /// `fetch`: a built-in task's benchmark files, downloaded by the worker first (with
    /// `DataDownload` progress, checked, kept in Cache Storage, an archive unpacked) and added
    /// to `files`: the page cannot fetch them itself, its Content-Security-Policy allows only its
    /// own origin.
    PrepareTask {
        ticket: u32,
        /// Boxed: the other messages are small.
        files: Box<TaskFiles>,
        settings: RunSettings,
        #[serde(default)]
        fetch: Vec<RemoteData>,
        /// The page's `?mirror=URL`: where a task YAML's Hub dataset is looked up and fetched
        /// (`https://HOST/PATH` as `URL/HOST/PATH`), as the catalogue's files are.
        #[serde(default)]
        mirror: Option<String>,
    },
    /// Score item `index` of the prepared task with the loaded model; answered by `ItemScored`.
    ScoreItem { index: usize },
    /// The prompt of item `index` cut into the model's tokens; answered by `Tokens`.
    Tokenize { index: usize },
    /// Count the loaded model's tokens in every document's question and options; answered by
    /// `Fertility`.
    Fertility,
    /// Score `choices` after `context` with the loaded model (lm-evaluation-harness's rule).
    Score { context: String, choices: Vec<String> },
    /// `steps` greedy tokens after the token ids `prompt`, never stopping (decode speed, as
    /// `lingualens bench` measures it: `scripts/bench-browser.sh`); answered by `Decoded`.
    Decode { prompt: Vec<u32>, steps: usize },
    /// Panic, on purpose: the page's `?crash_item=N` sends it before item N, once, so that tests
    /// can drive the recovery from a crashed worker (a panic in wasm leaves the worker unusable).
    Crash,
    /// Never answer again (a loop that does not end), on purpose: the page's `?hang_item=N`
    /// sends it before item N, once, so that tests can drive the watchdog.
    Hang,
}

/// One benchmark file of `datasets/catalog.json` to download: kept under its catalogue `url`,
/// fetched from `fetch_url` (the same, or through the page's `?mirror=`), and used only if it is
/// `check`'s size and sha256.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RemoteData {
    pub url: String,
    pub fetch_url: String,
    pub check: ModelCheck,
    /// `zip`: the download is an archive of the benchmark's files.
    #[serde(default)]
    pub unpack: Option<String>,
    /// The file's name among the task's files (a published task's path, so that its YAML finds
    /// its include file and `utils.py`); default: the URL's file name.
    #[serde(default)]
    pub path: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FromWorker {
    Ready,
    Backend {
        info: BackendInfo,
    },
    SelfTest {
        report: SelfTestReport,
    },
    /// `sha256`: of a picked file (of a folder: of its files' names and hashes), which the page
    /// keys the run's checkpoint by; none for a download (its URL and the catalog's hash name it).
    ModelLoaded {
        name: String,
        architecture: String,
        layers: usize,
        vocab_size: usize,
        #[serde(default)]
        sha256: Option<String>,
    },
    /// The answer to `CheckModel`: what the model needs on the backend and the budget it was held
    /// against; `refused` says why it cannot fit (the page does not load it); `unchecked` says why
    /// the check could not be made (the header could not be read by ranges, …): the load goes on.
    ModelFit {
        name: String,
        needs: Option<ModelNeeds>,
        budget: Option<Budget>,
        summary: String,
        refused: Option<String>,
        unchecked: Option<String>,
    },
    /// Download progress (`total` when the server or the catalog says); `from_cache` when the model
    /// came from Cache Storage instead of the network; `resumed_from`: the byte where a download
    /// interrupted by an earlier page was taken up (0 for a fresh one).
    Download {
        loaded: u64,
        total: Option<u64>,
        from_cache: bool,
        #[serde(default)]
        resumed_from: u64,
    },
    /// A downloaded file (a model or a benchmark's) is used but could not be kept in Cache
    /// Storage for offline use: its name and why.
    NotKept {
        name: String,
        reason: String,
    },
    /// A benchmark file's download (`PrepareTask`'s `fetch`): file `file` of `files`, by name.
    DataDownload {
        name: String,
        loaded: u64,
        total: Option<u64>,
        file: usize,
        files: usize,
        from_cache: bool,
    },
    Scores {
        backend: String,
        choices: Vec<ContinuationScore>,
        /// The worker's wasm memory afterwards, in bytes (it never shrinks: the most it has held):
        /// the model, its caches and everything else. `scripts/bench-browser.sh` reports it.
        #[serde(default)]
        wasm_memory: Option<u64>,
    },
    /// The answer to `Decode`: the greedy tokens and tokens/s over the steps after the first.
    Decoded {
        tokens: Vec<u32>,
        tokens_per_s: f64,
        #[serde(default)]
        wasm_memory: Option<u64>,
    },
    /// `documents`: how many the task has before the filters and the sample; `facets`: the
    /// metadata fields a run can be filtered by, over all of them.
    TaskReady {
        ticket: u32,
        task: String,
        /// lm-eval's `output_type`: `multiple_choice`, `generate_until` or `loglikelihood`.
        #[serde(default = "multiple_choice")]
        output_type: String,
        fingerprint: String,
        items: Vec<ItemView>,
        notes: Vec<String>,
        /// The task YAML's warnings (among `notes`), which the results file records.
        #[serde(default)]
        warnings: Vec<String>,
        /// The task's `metadata.cloze_variant` (see `TaskSpec::cloze_variant`).
        #[serde(default)]
        cloze_variant: Option<String>,
        documents: usize,
        facets: Vec<Facet>,
        /// The files the worker found on the Hub and downloaded for the task (their URLs, and the
        /// size and sha256 the listing gave), for the results' `config.data_sources`.
        #[serde(default)]
        sources: Vec<crate::catalog::SourceRecord>,
    },
    ItemScored {
        row: ItemRow,
    },
    /// The text generated so far for item `index` of a `generate_until` task, after each token.
    Generating {
        index: usize,
        text: String,
    },
    /// The prompt of an item cut at token boundaries (see the worker's `tokenize`).
    Tokens {
        index: usize,
        pieces: Vec<String>,
        count: usize,
    },
    /// Tokenizer fertility of the prepared task's texts under the loaded model, by language.
    Fertility {
        rows: Vec<FertilityRow>,
    },
    /// A request failed; `stage` says which kind of request, or that the worker crashed.
    /// `ticket`: the `PrepareTask` request's, for errors in preparing a task.
    Error {
        stage: Stage,
        message: String,
        ticket: Option<u32>,
    },
}

/// What failed, in a worker's `Error`: the kind of request it was answering, or `Crash`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// The self-test.
    Selftest,
    /// Loading a model or checking that it fits.
    Model,
    /// Preparing a task.
    Task,
    /// Scoring, tokenizing or scoring choices for an item.
    Item,
    /// An analysis over the task (fertility).
    Analysis,
    /// A message the worker could not read.
    Request,
    /// The worker panicked (the panic's message, sent by its panic hook just before it dies); the
    /// page replaces it.
    Crash,
}

impl ToWorker {
    /// The stage an error in answering this request belongs to.
    pub fn stage(&self) -> Stage {
        match self {
            ToWorker::SelfTest { .. } => Stage::Selftest,
            ToWorker::LoadModel { .. } | ToWorker::CheckModel { .. } => Stage::Model,
            ToWorker::PrepareTask { .. } => Stage::Task,
            ToWorker::ScoreItem { .. }
            | ToWorker::Score { .. }
            | ToWorker::Decode { .. }
            | ToWorker::Tokenize { .. }
            | ToWorker::Crash
            | ToWorker::Hang => Stage::Item,
            ToWorker::Fertility => Stage::Analysis,
        }
    }
}

/// Where a model comes from. A `File` cannot go through serde: a picked file crosses
/// `postMessage` beside the message, as its `file` property (a folder's as the array `files`),
/// and is read by slices.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ModelSource {
    /// A GGUF at `url` (relative to the page, or absolute), from Cache Storage when it is there;
    /// a download is checked against `check` and then cached. `check.size` also stands in for a
    /// server that hides the file's size.
    Url {
        url: String,
        #[serde(default)]
        check: ModelCheck,
        /// Where it is downloaded from when Cache Storage does not hold it: the mirror's copy of
        /// `url` (the page's `?mirror=URL`); `None`, `url` itself. It is kept under `url`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from: Option<String>,
    },
    /// The GGUF `File` attached to the message.
    File { name: String },
    /// A Hugging Face model folder from the `File`s attached to the message (in the order of
    /// `names`): config.json, tokenizer.json and the safetensors weights (one file or an index and
    /// its shards), found by file name (`engine::load_hf_files`). `folder` names the model.
    Folder { folder: String, names: Vec<String> },
}

/// What a downloaded model file must be (from the catalog); unchecked where `None`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ModelCheck {
    pub size: Option<u64>,
    pub sha256: Option<String>,
}

/// How a run is set up; part of the run's identity (its checkpoint key).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunSettings {
    pub limit: Option<usize>,
    pub shots: Option<usize>,
    pub seed: u64,
    /// The choice order (`eval::ChoiceOrder`: `given`, `shuffle:N`, `gold-first`, `gold-last`,
    /// `rotations`); each variant of a document is one item of the run.
    pub order: String,
    /// Only the documents whose metadata `field` has `value`, for every entry (`run::select_docs`).
    /// Left out of the JSON when empty, so the checkpoint keys of unfiltered runs stay as they were.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub filters: BTreeMap<String, String>,
    /// A random sample of this many of the filtered documents, drawn with `sample_seed` (else
    /// `seed`), in document order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sample: Option<usize>,
    /// The sample's own seed, as the CLI's `--sample-seed`: an experiment's runs differ in `seed`
    /// (their shuffles) and score one sample. Left out when None, so older checkpoint keys hold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sample_seed: Option<u64>,
}

impl RunSettings {
    /// The seed the run's sample is drawn with.
    pub fn sample_seed(&self) -> u64 {
        self.sample_seed.unwrap_or(self.seed)
    }
}

/// A metadata field of a task's documents with its values and how many documents have each
/// (before any filter), for the filter selects.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Facet {
    pub field: String,
    pub values: Vec<(String, usize)>,
}

/// One language's tokenizer fertility (`scoring::fertility`): tokens without the BOS token, words
/// as Python's `str.split()`, syllables split further on the Tibetan tsheg, characters as code points.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FertilityRow {
    pub language: String,
    pub texts: usize,
    pub tokens: usize,
    pub words: usize,
    pub syllables: usize,
    pub chars: usize,
    pub tokens_per_word: Option<f64>,
    pub tokens_per_syllable: Option<f64>,
    pub tokens_per_char: Option<f64>,
}

/// One item of a prepared task as the page shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemView {
    pub index: usize,
    /// The document's `id` field, else its position.
    pub id: String,
    /// The question as written (the document's `question`), else the whole prompt.
    pub question: String,
    /// BCP 47 tag from the document's `language`, for the script's font; empty if unknown.
    pub language: String,
    /// A multiple-choice item's options (none for the other output types).
    pub choices: Vec<String>,
    pub gold: usize,
    /// A generation's reference text (several joined by ` | `), a loglikelihood item's
    /// continuation; none for multiple choice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
    /// The exact prompt the model is given.
    pub context: String,
    /// The document's other short text fields (subject, grade, group, …), for breakdowns.
    pub metadata: BTreeMap<String, String>,
}

/// One scored item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemRow {
    pub index: usize,
    pub loglikelihoods: Vec<f64>,
    pub is_greedy: Vec<bool>,
    pub token_counts: Vec<usize>,
    /// The choice picked by log-likelihood (`acc`) and by log-likelihood per character (`acc_norm`).
    pub chosen: usize,
    pub chosen_norm: usize,
    pub correct: bool,
    pub correct_norm: bool,
    pub elapsed_ms: f64,
    /// The item's lines in lm-evaluation-harness's samples JSONL (newline included): one, or
    /// for a generation one per filter pipeline.
    pub sample: String,
    /// A generation's response after the first filter pipeline (`correct`: its exact match).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response: Option<String>,
}

fn multiple_choice() -> String {
    "multiple_choice".into()
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
        let json = serde_json::to_value(ToWorker::ScoreItem { index: 3 }).unwrap();
        assert_eq!(json, serde_json::json!({ "type": "score_item", "index": 3 }));
        let json =
            serde_json::to_value(FromWorker::Error { stage: Stage::Selftest, message: "m".into(), ticket: None })
                .unwrap();
        assert_eq!(json, serde_json::json!({ "type": "error", "stage": "selftest", "message": "m", "ticket": null }));
        let load = ToWorker::LoadModel {
            source: ModelSource::File { name: "m.gguf".into() },
            backend: BackendPreference::Cpu,
        };
        let json = serde_json::to_value(&load).unwrap();
        assert_eq!(
            json,
            serde_json::json!({ "type": "load_model", "source": { "kind": "file", "name": "m.gguf" }, "backend": "cpu" })
        );
        assert_eq!(serde_json::from_value::<ToWorker>(json).unwrap(), load);
    }
}
