//! A Hugging Face Hub dataset's split, found and fetched as lm-eval's `datasets` would read it:
//! the dataset card and the repository's tree listing are fetched, `hub::split_files` picks the
//! split's files (else the Hub's parquet conversion has them), and each is downloaded into the
//! download cache (`cli::fetch`, checked against the sha256 the Hub lists for it).
//!
//! What was picked is kept (`$LINGUALENS_CACHE/hub/…json`), so `--offline` runs again from the
//! cache without asking the Hub; a gated dataset or a loading script is refused with the reason.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;

use crate::catalog::SourceRecord;
use crate::cli::fetch;
use crate::hub::{self, ListedFile};
use crate::{bail, Error, Result};

/// One file of a split: where it came from (its URL at the revision, size and sha256 as the Hub
/// lists them) and its path in the repository.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct SplitFile {
    pub url: String,
    pub repo_path: String,
    pub size_bytes: Option<u64>,
    pub sha256: Option<String>,
}

impl SplitFile {
    pub fn record(&self) -> SourceRecord {
        SourceRecord { url: self.url.clone(), sha256: self.sha256.clone(), size_bytes: self.size_bytes }
    }
}

/// Where the files picked for (dataset, revision, config, split) are remembered.
fn picked_path(dataset: &str, revision: &str, config: Option<&str>, split: &str) -> PathBuf {
    let safe = |s: &str| s.replace(['/', '\\'], "--");
    fetch::cache_dir().join("hub").join(safe(dataset)).join(safe(revision)).join(format!(
        "{}--{}.json",
        safe(config.unwrap_or("default")),
        safe(split)
    ))
}

/// The files of `dataset`'s `split` (in `config`, or the card's default): remembered from an
/// earlier run, else found on the Hub now (never with `offline`).
pub fn split_files(
    dataset: &str,
    revision: &str,
    config: Option<&str>,
    split: &str,
    offline: bool,
) -> Result<Vec<SplitFile>> {
    hub::check_dataset_id(dataset)?;
    let picked = picked_path(dataset, revision, config, split);
    if let Ok(bytes) = std::fs::read(&picked) {
        if let Ok(files) = serde_json::from_slice::<Vec<SplitFile>>(&bytes) {
            return Ok(files);
        }
    }
    let what = format!("{dataset}{} split {split}", config.map(|c| format!(" config {c}")).unwrap_or_default());
    if offline {
        bail!("{what}: --offline, and which files it is has not been asked of the Hub yet; run once without --offline, or give the files with --data");
    }
    let readme = card(dataset, revision)?;
    let files = listing(dataset, revision)?;
    let (chosen_revision, chosen) = match hub::split_files(dataset, &readme, &files, config, split) {
        Ok(chosen) => (revision.to_string(), chosen),
        Err(e) if !hub::has_readable_data(&files) => {
            // Nothing the `datasets` rules read (a loading script): the Hub's parquet conversion.
            let converted = match listing(dataset, "refs/convert/parquet") {
                Ok(listed) => hub::parquet_conversion(&listed, config, split),
                Err(_) => Vec::new(),
            };
            if converted.is_empty() {
                return Err(e.context("and the Hub has no parquet conversion of it either"));
            }
            ("refs/convert/parquet".to_string(), converted)
        }
        Err(e) => return Err(e),
    };
    let out: Vec<SplitFile> = chosen
        .into_iter()
        .map(|f| SplitFile {
            url: hub::resolve_url(dataset, &chosen_revision, &f.path),
            repo_path: f.path,
            size_bytes: f.size,
            sha256: f.sha256,
        })
        .collect();
    if let Ok(json) = serde_json::to_vec_pretty(&out) {
        let _ = fetch::write(&picked, &json);
    }
    Ok(out)
}

/// `file` downloaded (or taken from the download cache), checked against the listed sha256.
pub fn download(file: &SplitFile) -> Result<PathBuf> {
    fetch::fetch_cached(&file.url, file.size_bytes, file.sha256.as_deref())
}

/// What this process has already asked of the Hub, by URL: a benchmark's configs and splits are
/// all found in one card and one listing, which are fetched once, not once for each.
static CARDS: Mutex<BTreeMap<String, String>> = Mutex::new(BTreeMap::new());
static LISTINGS: Mutex<BTreeMap<String, Vec<ListedFile>>> = Mutex::new(BTreeMap::new());

fn asked_before<T: Clone>(
    answers: &Mutex<BTreeMap<String, T>>,
    url: String,
    ask: impl FnOnce() -> Result<T>,
) -> Result<T> {
    if let Some(known) = answers.lock().ok().and_then(|a| a.get(&url).cloned()) {
        return Ok(known);
    }
    let answer = ask()?;
    if let Ok(mut a) = answers.lock() {
        a.insert(url, answer.clone());
    }
    Ok(answer)
}

/// The dataset card (README.md) at `revision`; empty where the dataset has none.
fn card(dataset: &str, revision: &str) -> Result<String> {
    let url = hub::card_url(dataset, revision);
    asked_before(&CARDS, url.clone(), || {
        Ok(match get(&url)? {
            Got::Body(bytes, _) => String::from_utf8_lossy(&bytes).into_owned(),
            Got::Missing => String::new(),
        })
    })
}

/// Every page of the repository's tree listing at `revision`.
fn listing(dataset: &str, revision: &str) -> Result<Vec<ListedFile>> {
    asked_before(&LISTINGS, hub::tree_url(dataset, revision), || listing_pages(dataset, revision))
}

fn listing_pages(dataset: &str, revision: &str) -> Result<Vec<ListedFile>> {
    let mut files = Vec::new();
    let mut next = Some(hub::tree_url(dataset, revision));
    let mut pages = 0;
    while let Some(url) = next.take() {
        pages += 1;
        if pages > hub::MAX_TREE_PAGES {
            bail!("{dataset}: its tree listing runs past {} pages; give the files with --data", hub::MAX_TREE_PAGES);
        }
        match get(&url)? {
            Got::Body(bytes, link) => {
                files.extend(hub::parse_tree(&bytes, &url)?);
                next = link.as_deref().and_then(hub::next_page);
            }
            Got::Missing => bail!("{url}: not found: no dataset {dataset} at revision {revision} on the Hub"),
        }
    }
    Ok(files)
}

enum Got {
    /// The body and the `Link` header.
    Body(Vec<u8>, Option<String>),
    Missing,
}

/// A small GET (a card, a listing page) through `HF_ENDPOINT` and `LINGUALENS_MIRROR`.
fn get(url: &str) -> Result<Got> {
    let from = fetch::effective_url(url);
    let response = ureq::get(&from)
        .config()
        .http_status_as_error(false)
        .build()
        .call()
        .map_err(|e| Error::new(format!("{url}: cannot be fetched: {e}")))?;
    match response.status().as_u16() {
        200 => {
            let link = response.headers().get("link").and_then(|v| v.to_str().ok()).map(str::to_string);
            let bytes = response
                .into_body()
                .with_config()
                .limit(64 << 20)
                .read_to_vec()
                .map_err(|e| Error::new(format!("{url}: the download stopped: {e}")))?;
            Ok(Got::Body(bytes, link))
        }
        404 => Ok(Got::Missing),
        401 | 403 => bail!(
            "{url}: refused (HTTP {}): the dataset is gated or private; accept its terms on the Hub and give its files with --data",
            response.status().as_u16()
        ),
        status => bail!("{url}: HTTP {status} (fetched from {from})"),
    }
}
