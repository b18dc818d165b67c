//! Benchmarks as items: the item representation, the dataset loaders, and the data check.
//!
//! - [`item`]: [`Item`] — multiple choice, cloze, generation — serde-serialisable for postMessage.
//! - [`anomaly`]: what was wrong in an input file, by file and row, and what was done about it.
//! - [`dzen`]: the DZEN Dzongkha–English CSVs and their few-shot exemplars.
//! - [`hf_table`]: Hugging Face–style CSV/JSON/JSONL/Parquet tables by column mapping
//!   (ProverbEval, KyrgyzMMLU, KyrgyzRC, the `_kg` sets, or a user's mapping).
//! - [`bundle`]: a task given as files in memory (the page's dropped or built-in files).
//! - [`check`]: the `data check` report over a list of files.
//! - [`experiment`]: experiments as data: several runs over the same documents and what to compare.
//! - [`registry`]: built-in task files by task name (native).
//! - [`pyprompt`]: a task's Python prompt function (`!function utils.x`) read as a template.
//! - [`kyrgyzllm`]: KyrgyzLLM-Bench's prompts, read from its authors' code as include files.
//!
//! Loaders take bytes and a file name, never a path, so they run in the browser too; the
//! `*_dir`/`check_files` helpers that read paths exist only natively.

pub mod anomaly;
pub mod bundle;
pub mod check;
pub mod dzen;
pub mod experiment;
#[cfg(not(target_arch = "wasm32"))]
pub mod export;
pub mod hf_table;
pub mod item;
pub mod kyrgyzllm;
pub mod pylit;
pub mod pyprompt;
#[cfg(not(target_arch = "wasm32"))]
pub mod registry;
pub mod table;
pub mod text;
pub mod yaml;

pub use anomaly::{Action, Anomaly, AnomalyKind, Loaded};
#[cfg(not(target_arch = "wasm32"))]
pub use check::check_files;
pub use check::{check_sources, DataCheckReport, FileCheck, Source};
pub use dzen::{load_dzen, load_dzen_file, DzenSet};
pub use hf_table::{builtin, detect_mapping, load_table, Mapping, TableOptions};
pub use item::{Cloze, Generation, Item, ItemBody, MultipleChoice, SourceRef};
pub use table::Format;
pub use yaml::{load_task, LoadOptions, TaskSpec};
