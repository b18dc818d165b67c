//! The catalogues of what lingualens can fetch, as data: `models/catalog.json` (GGUF files on the
//! Hugging Face Hub) and `datasets/catalog.json` (benchmark files at pinned revisions), and the
//! manifest of a classroom kit (`kit.json`, written by `lingualens kit` beside a built site).
//!
//! Compiled on every target: the CLI fetches from the catalogues and writes kits; the page reads
//! a kit's manifest and offers what it holds first. Both redirect sources through a mirror the
//! same way (`mirrored`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::{bail, Result};

/// The model catalogue, as committed (compiled in, so the CLI needs no checkout to find it).
pub const MODEL_CATALOG_JSON: &str = include_str!("../models/catalog.json");
/// The benchmark catalogue, as committed.
pub const BENCHMARK_CATALOG_JSON: &str = include_str!("../datasets/catalog.json");
/// The kit manifest's name, at the root of a built site.
pub const KIT_MANIFEST: &str = "kit.json";

/// A model a user can pick from a list: one GGUF file at a URL. `size_bytes` and `sha256`, where
/// given, are what the downloaded file must be; `None` means unknown, not checked.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ModelEntry {
    pub id: String,
    pub name: String,
    pub url: String,
    #[serde(default)]
    pub size_bytes: Option<u64>,
    #[serde(default)]
    pub sha256: Option<String>,
    #[serde(default)]
    pub quantization: Option<String>,
    #[serde(default)]
    pub licence: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ModelCatalog {
    pub models: Vec<ModelEntry>,
}

/// A benchmark's public release: the files its built-in tasks read, each at a pinned URL.
#[derive(Debug, Clone, Deserialize)]
pub struct BenchmarkEntry {
    pub id: String,
    pub name: String,
    /// The built-in tasks (`datasets/tasks/…`) that read these files.
    pub tasks: Vec<String>,
    pub files: Vec<SourceFile>,
    #[serde(default)]
    pub licence: Option<String>,
    #[serde(default)]
    pub citation: Option<String>,
    /// Tasks run from their authors' own published YAML (fetched with the data, among `files`),
    /// rather than from a YAML under `datasets/tasks`.
    #[serde(default)]
    pub published: Vec<PublishedTask>,
    /// Files known by repository and config rather than by path (the Hub's tree listing, read as
    /// the `datasets` library reads it, names them when they are fetched).
    #[serde(default)]
    pub hub: Vec<HubData>,
    /// The code its tasks' prompts are read from, where the prompts are code rather than data
    /// (KyrgyzLLM-Bench's: `tasks::kyrgyzllm`), each file at a pinned URL with its sha256.
    #[serde(default)]
    pub prompt_code: Vec<SourceFile>,
    /// Why the page's Task menu does not offer this benchmark yet, where it does not (the CLI
    /// runs it).
    #[serde(default)]
    pub not_in_page: Option<String>,
}

/// The splits of some configs of a Hub dataset, at a revision: `hub::split_files` picks each
/// split's files from the dataset card and the tree listing when they are fetched, and they go
/// into the benchmark's folder as `FOLDER/CONFIG/SPLIT.EXT` (`SPLIT-00001.EXT`, … for shards),
/// the names the task's loader reads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HubData {
    /// `owner/name`.
    pub dataset: String,
    /// A commit, or a branch where no commit could be established (the entry's `verified` says).
    pub revision: String,
    pub configs: Vec<String>,
    pub splits: Vec<String>,
    pub folder: String,
}

impl HubData {
    /// Where the `index`th of `count` files of (`config`, `split`) goes in the benchmark's folder.
    pub fn local_path(&self, config: &str, split: &str, index: usize, count: usize, repo_path: &str) -> String {
        let ext = repo_path.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()).unwrap_or_else(|| "csv".into());
        let shard = if count > 1 { format!("-{index:05}") } else { String::new() };
        format!("{}/{config}/{split}{shard}.{ext}", self.folder)
    }

    /// Where the page's worker keeps, in Cache Storage, the files it chose for these configs and
    /// splits (a JSON list of [`SourceRecord`]s), so that the page can tell whether they are all
    /// kept without reading the card and the listing itself (which would link a YAML parser and
    /// the `datasets` rules into the page). Never fetched: a key only.
    pub fn chosen_key(&self) -> String {
        format!(
            "{}&lingualens-chosen={};{}",
            crate::hub::tree_url(&self.dataset, &self.revision),
            self.configs.join(","),
            self.splits.join(",")
        )
    }

    /// What the catalogue asks for, as a kept folder records it: the tree listing's URL, with the
    /// configs and splits taken.
    pub fn record(&self) -> SourceRecord {
        SourceRecord {
            url: format!(
                "{}#configs={};splits={}",
                crate::hub::tree_url(&self.dataset, &self.revision),
                self.configs.join(","),
                self.splits.join(",")
            ),
            sha256: None,
            size_bytes: None,
        }
    }
}

/// A task as its authors published it: its YAML (and the include files and `utils.py` beside
/// it) and its data files per split, each a `path` of one of the benchmark's `files`.
#[derive(Debug, Clone, Deserialize)]
pub struct PublishedTask {
    pub task: String,
    /// The task YAML's path in the benchmark's folder.
    pub yaml: String,
    /// Split → the data file's path in the benchmark's folder (the dataset card's `configs`
    /// for the YAML's `dataset_name`, as the `datasets` library would match them).
    pub data: BTreeMap<String, String>,
    /// What `os.getenv` gives the task's prompt functions.
    #[serde(default)]
    pub env: BTreeMap<String, String>,
}

/// One file to download: its URL at a pinned revision and what it must be.
#[derive(Debug, Clone, Deserialize)]
pub struct SourceFile {
    pub url: String,
    #[serde(default)]
    pub size_bytes: Option<u64>,
    #[serde(default)]
    pub sha256: Option<String>,
    /// `zip`: the download is an archive whose files are the benchmark's (DZEN's release).
    #[serde(default)]
    pub unpack: Option<String>,
    /// Where the file goes in the benchmark's folder (default: the URL's file name), so that a
    /// published YAML finds its include files and `utils.py` beside it.
    #[serde(default)]
    pub path: Option<String>,
}

/// One download a run's data came from, as the results file records it (`config.data_sources`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SourceRecord {
    pub url: String,
    /// The sha256 the download was checked against; `None` where the catalogue has none.
    pub sha256: Option<String>,
    pub size_bytes: Option<u64>,
}

impl SourceFile {
    pub fn record(&self) -> SourceRecord {
        SourceRecord { url: self.url.clone(), sha256: self.sha256.clone(), size_bytes: self.size_bytes }
    }
}

#[derive(Debug, Clone, Deserialize)]
pub struct BenchmarkCatalog {
    pub benchmarks: Vec<BenchmarkEntry>,
}

impl BenchmarkCatalog {
    /// The benchmark whose built-in tasks include `task`, if any.
    pub fn benchmark_for(self, task: &str) -> Option<BenchmarkEntry> {
        self.benchmarks.into_iter().find(|b| b.tasks.iter().any(|t| t == task))
    }
}

impl BenchmarkEntry {
    /// `task` as its authors published it, where this benchmark runs it so.
    pub fn published_task(&self, task: &str) -> Option<&PublishedTask> {
        self.published.iter().find(|p| p.task == task)
    }
}

pub fn model_catalog() -> Result<ModelCatalog> {
    serde_json::from_str(MODEL_CATALOG_JSON).map_err(|e| format!("models/catalog.json: {e}").into())
}

/// The benchmark catalogue: as committed, or (natively) the file `LINGUALENS_BENCHMARKS` names,
/// for an institution's own list or a test's.
pub fn benchmark_catalog() -> Result<BenchmarkCatalog> {
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(path) = std::env::var_os("LINGUALENS_BENCHMARKS") {
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("LINGUALENS_BENCHMARKS={}: {e}", path.to_string_lossy()))?;
        return serde_json::from_str(&text)
            .map_err(|e| format!("LINGUALENS_BENCHMARKS={}: {e}", path.to_string_lossy()).into());
    }
    serde_json::from_str(BENCHMARK_CATALOG_JSON).map_err(|e| format!("datasets/catalog.json: {e}").into())
}

/// What a classroom kit holds: models and benchmark files inside the site, each with the size and
/// sha256 the page checks them against before it uses them.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct KitManifest {
    #[serde(default)]
    pub about: String,
    #[serde(default)]
    pub models: Vec<KitModel>,
    #[serde(default)]
    pub benchmarks: Vec<KitBenchmark>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct KitModel {
    /// The catalogue id, or the file's stem for a file given by path.
    pub id: String,
    pub name: String,
    /// The file's path inside the site (`kit/models/…`), relative, so the site works under any path.
    pub path: String,
    pub size_bytes: u64,
    pub sha256: String,
    #[serde(default)]
    pub quantization: Option<String>,
    #[serde(default)]
    pub licence: Option<String>,
    /// Where it came from: the catalogue URL, or `file NAME` for a file given by path.
    pub source: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct KitBenchmark {
    pub id: String,
    pub name: String,
    pub tasks: Vec<String>,
    pub files: Vec<KitFile>,
    #[serde(default)]
    pub licence: Option<String>,
    #[serde(default)]
    pub citation: Option<String>,
    /// The downloads the files came from (URL and sha256).
    pub sources: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct KitFile {
    /// The file's name as the task's loader reads it (`DZEN/8th-Math.csv`).
    pub name: String,
    /// Its path inside the site.
    pub path: String,
    pub size_bytes: u64,
    pub sha256: String,
}

impl KitManifest {
    pub fn parse(bytes: &[u8]) -> Result<KitManifest> {
        let manifest: KitManifest = serde_json::from_slice(bytes).map_err(|e| format!("{KIT_MANIFEST}: {e}"))?;
        for path in manifest
            .models
            .iter()
            .map(|m| &m.path)
            .chain(manifest.benchmarks.iter().flat_map(|b| b.files.iter().map(|f| &f.path)))
        {
            check_relative(path)?;
        }
        Ok(manifest)
    }

    /// The benchmark in the kit that serves built-in task `task`, if any.
    pub fn benchmark_for(&self, task: &str) -> Option<&KitBenchmark> {
        self.benchmarks.iter().find(|b| b.tasks.iter().any(|t| t == task))
    }
}

/// A kit path must stay inside the site: relative, no `..`, no scheme (a manifest edited to point
/// elsewhere is refused rather than followed).
fn check_relative(path: &str) -> Result<()> {
    if path.is_empty()
        || path.starts_with('/')
        || path.contains("://")
        || path.contains('\\')
        || path.split('/').any(|s| s == ".." || s.is_empty())
    {
        bail!("{KIT_MANIFEST}: the path {path:?} is not a relative path inside the site");
    }
    Ok(())
}

/// `url` fetched through `mirror`: `https://HOST/PATH` becomes `MIRROR/HOST/PATH` (models and
/// benchmarks alike); with no mirror, `url` itself. Only http(s) URLs are redirected.
pub fn mirrored(url: &str, mirror: Option<&str>) -> String {
    let Some(mirror) = mirror.map(|m| m.trim_end_matches('/')).filter(|m| !m.is_empty()) else {
        return url.to_string();
    };
    match url.split_once("://") {
        Some(("https" | "http", rest)) => format!("{mirror}/{rest}"),
        _ => url.to_string(),
    }
}

/// `url` with the Hugging Face Hub's host replaced by `endpoint` (the Hub's own `HF_ENDPOINT`).
pub fn on_hf_endpoint(url: &str, endpoint: Option<&str>) -> String {
    let Some(endpoint) = endpoint.map(|e| e.trim_end_matches('/')).filter(|e| !e.is_empty()) else {
        return url.to_string();
    };
    match url.strip_prefix("https://huggingface.co/") {
        Some(rest) => format!("{endpoint}/{rest}"),
        None => url.to_string(),
    }
}

/// The last path segment of a URL, percent-decoded: the file's name.
pub fn file_name_of(url: &str) -> String {
    let path = url.split(['?', '#']).next().unwrap_or(url);
    let last = path.rsplit('/').next().unwrap_or(path);
    percent_decode(last)
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_catalogues_parse_and_every_benchmark_task_exists() {
        let models = model_catalog().unwrap();
        assert!(!models.models.is_empty());
        let benchmarks = benchmark_catalog().unwrap();
        let tasks = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/tasks");
        for b in &benchmarks.benchmarks {
            assert!(!b.files.is_empty() || !b.hub.is_empty(), "{}", b.id);
            for h in &b.hub {
                crate::hub::check_dataset_id(&h.dataset).unwrap();
                assert!(!h.configs.is_empty() && !h.splits.is_empty() && !h.folder.is_empty(), "{}", b.id);
            }
            for t in b.tasks.iter().filter(|t| b.published_task(t).is_none()) {
                let found = std::fs::read_dir(&tasks)
                    .unwrap()
                    .flatten()
                    .any(|family| family.path().join(format!("{t}.yaml")).is_file());
                assert!(found, "{}: task {t} has no YAML under datasets/tasks", b.id);
            }
            let paths: Vec<String> =
                b.files.iter().map(|f| f.path.clone().unwrap_or_else(|| file_name_of(&f.url))).collect();
            for p in &b.published {
                assert!(b.tasks.contains(&p.task), "{}: published task {} is not in tasks", b.id, p.task);
                for needed in std::iter::once(&p.yaml).chain(p.data.values()) {
                    assert!(paths.contains(needed), "{}: {}: {needed} is not among the files", b.id, p.task);
                }
            }
            for f in &b.files {
                assert!(f.url.starts_with("https://"), "{}: {}", b.id, f.url);
                assert!(
                    f.sha256.as_deref().is_none_or(|h| h.len() == 64 && h.bytes().all(|c| c.is_ascii_hexdigit())),
                    "{}: {:?}",
                    b.id,
                    f.sha256
                );
            }
        }
    }

    #[test]
    fn a_mirror_takes_the_host_into_its_path() {
        let url = "https://huggingface.co/Qwen/Qwen3-0.6B-GGUF/resolve/main/Qwen3-0.6B-Q8_0.gguf";
        assert_eq!(
            mirrored(url, Some("http://127.0.0.1:9/m/")),
            "http://127.0.0.1:9/m/huggingface.co/Qwen/Qwen3-0.6B-GGUF/resolve/main/Qwen3-0.6B-Q8_0.gguf"
        );
        assert_eq!(mirrored(url, None), url);
        assert_eq!(mirrored(url, Some("")), url);
        assert_eq!(mirrored("kit/models/a.gguf", Some("http://m")), "kit/models/a.gguf");
        assert_eq!(
            on_hf_endpoint(url, Some("https://hf-mirror.example/")),
            "https://hf-mirror.example/Qwen/Qwen3-0.6B-GGUF/resolve/main/Qwen3-0.6B-Q8_0.gguf"
        );
        assert_eq!(
            on_hf_endpoint("https://raw.githubusercontent.com/a/b", Some("https://x")),
            "https://raw.githubusercontent.com/a/b"
        );
    }

    #[test]
    fn a_file_name_is_the_decoded_last_segment() {
        assert_eq!(
            file_name_of("https://h/a/1652_Multilingual%20Material.zip?download=1"),
            "1652_Multilingual Material.zip"
        );
        assert_eq!(file_name_of("https://h/a/b.gguf"), "b.gguf");
    }

    #[test]
    fn a_manifest_path_outside_the_site_is_refused() {
        let with = |path: &str| {
            format!(
                r#"{{"models":[{{"id":"m","name":"m","path":"{path}","size_bytes":1,"sha256":"00","source":"s"}}]}}"#
            )
        };
        assert!(KitManifest::parse(with("kit/models/m.gguf").as_bytes()).is_ok());
        for bad in ["/etc/passwd", "../x.gguf", "kit/../../x", "https://evil.example/m.gguf", "kit//m.gguf", ""] {
            let err = KitManifest::parse(with(bad).as_bytes()).unwrap_err().to_string();
            assert!(err.contains("kit.json") && err.contains("not a relative path"), "{bad}: {err}");
        }
        assert!(KitManifest::parse(b"{not json").unwrap_err().to_string().starts_with("kit.json:"));
    }
}
