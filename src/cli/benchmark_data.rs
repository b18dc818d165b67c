//! A built-in task's data fetched from where its authors published it: `lingualens eval --task
//! dzen_en` with no `--data` finds the benchmark of `datasets/catalog.json` whose tasks include
//! it, downloads its files (`cli::fetch`: sha256 checked, continued after an interruption),
//! unpacks an archive, and keeps the result in `$LINGUALENS_CACHE/data/<benchmark>/` for every
//! later run, offline too. `--offline` never downloads: it uses what is kept or says what is
//! missing.
//!
//! The folder is complete or absent: files are unpacked into a folder of their own and renamed
//! into place only when all of them are there, with `SOURCES` naming what the catalogue asked for
//! and the downloads they came from. Files the catalogue knows only by Hub repository and config
//! (`catalog::HubData`) are found first (`cli::hub_data`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::catalog::{self, BenchmarkEntry, SourceFile, SourceRecord};
use crate::cli::{fetch, hub_data};
use crate::{bail, Error, Result};

/// The file in a kept folder that names its downloads; a folder without it is not used.
const SOURCES: &str = ".lingualens-sources.json";

/// What `SOURCES` holds: what the catalogue asked for (its files and its Hub listings), and the
/// files downloaded for it.
#[derive(serde::Serialize, serde::Deserialize, PartialEq)]
struct Kept {
    catalogue: Vec<SourceRecord>,
    downloads: Vec<SourceRecord>,
}

/// What `entry` asks for, as `SOURCES` records it.
fn asked(entry: &BenchmarkEntry) -> Vec<SourceRecord> {
    entry.files.iter().map(|f| f.record()).chain(entry.hub.iter().map(|h| h.record())).collect()
}

/// Every file of `entry`: its own, and those its Hub listings name now (found on the Hub, or as
/// remembered from an earlier run with `offline`), each with the path it takes in the folder.
pub fn resolved_files(entry: &BenchmarkEntry, offline: bool) -> Result<Vec<SourceFile>> {
    let mut files = entry.files.clone();
    for h in &entry.hub {
        for config in &h.configs {
            for split in &h.splits {
                let found = hub_data::split_files(&h.dataset, &h.revision, Some(config), split, offline)?;
                let count = found.len();
                for (i, f) in found.into_iter().enumerate() {
                    files.push(SourceFile {
                        path: Some(h.local_path(config, split, i, count, &f.repo_path)),
                        url: f.url,
                        size_bytes: f.size_bytes,
                        sha256: f.sha256,
                        unpack: None,
                    });
                }
            }
        }
    }
    Ok(files)
}

/// The include files read from the code the catalogue names for `task`'s prompt (`prompt_code`:
/// KyrgyzLLM-Bench's, `tasks::kyrgyzllm`), fetched into the download cache or taken from it
/// (with `offline`, only taken), and the downloads. None where the task's benchmark has no such code.
pub fn prompt_includes(task: &str, offline: bool) -> Result<(BTreeMap<String, String>, Vec<SourceRecord>)> {
    let Some(entry) = catalog::benchmark_catalog()?.benchmark_for(task) else { return Ok(Default::default()) };
    let mut includes = BTreeMap::new();
    let mut records = Vec::new();
    for code in &entry.prompt_code {
        let sha256 = code.sha256.as_deref();
        let path = if offline {
            let path = fetch::cached_path(&code.url, sha256);
            if !path.is_file() {
                bail!(
                    "{task}: --offline, and the code its prompt is read from is not kept yet ({}, expected at {}); run once without --offline",
                    code.url,
                    path.display()
                );
            }
            path
        } else {
            fetch::fetch_cached(&code.url, code.size_bytes, sha256)
                .map_err(|e| e.context(format!("{task}: the code its prompt is read from")))?
        };
        let text = std::fs::read_to_string(&path)
            .map_err(|e| Error::new(format!("{task}: {} ({}): {e}", code.url, path.display())))?;
        let name = code.path.clone().unwrap_or_else(|| catalog::file_name_of(&code.url));
        for include in crate::tasks::kyrgyzllm::includes(&name, &text).map_err(|e| e.context(task.to_string()))? {
            includes.insert(include.name, include.text);
        }
        records.push(code.record());
    }
    Ok((includes, records))
}

/// A benchmark's data as kept: the folder to read, and the downloads it came from.
pub struct KeptData {
    pub benchmark: String,
    pub dir: PathBuf,
    pub sources: Vec<SourceRecord>,
}

/// `task`'s data from the catalogue: kept, or fetched now (unless `offline`). `None` where the
/// catalogue has no benchmark for the task.
pub fn data_for_task(task: &str, offline: bool) -> Result<Option<KeptData>> {
    let Some(entry) = catalog::benchmark_catalog()?.benchmark_for(task) else { return Ok(None) };
    let asked = asked(&entry);
    let dir = fetch::cache_dir().join("data").join(&entry.id);
    if let Some(kept) = kept(&dir).filter(|k| k.catalogue == asked) {
        return Ok(Some(KeptData { benchmark: entry.id, dir, sources: kept.downloads }));
    }
    if offline {
        let wanted: Vec<String> = asked
            .iter()
            .map(|s| {
                format!(
                    "{} ({})",
                    s.url,
                    s.size_bytes.map(|b| format!("{b} bytes")).unwrap_or_else(|| "size unknown".into())
                )
            })
            .collect();
        bail!(
            "{task}: --offline, and the data of {} is not kept in {} yet; run once without --offline to fetch {}, or give the files with --data",
            entry.id,
            dir.display(),
            wanted.join(", ")
        );
    }
    let files = resolved_files(&entry, false).map_err(|e| e.context(format!("{task}: the data of {}", entry.id)))?;
    eprintln!("{task}: fetching the data of {} ({} file(s)) into {}", entry.id, files.len(), dir.display());
    let unpacking = dir.with_file_name(format!("{}.unpacking-{}", entry.id, std::process::id()));
    let _ = std::fs::remove_dir_all(&unpacking);
    let kept = Kept { catalogue: asked, downloads: files.iter().map(|f| f.record()).collect() };
    let filled = fill(&files, &unpacking, &kept);
    if let Err(e) = filled {
        let _ = std::fs::remove_dir_all(&unpacking);
        return Err(e.context(format!("{task}: the data of {}", entry.id)));
    }
    // Another folder of the same benchmark (an older catalogue's) is replaced whole.
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::rename(&unpacking, &dir)
        .map_err(|e| Error::new(format!("{}: cannot be renamed to {}: {e}", unpacking.display(), dir.display())))?;
    Ok(Some(KeptData { benchmark: entry.id, dir, sources: kept.downloads }))
}

/// The benchmark's files downloaded (or taken from the download cache) and written into `dir`,
/// archives unpacked, and `SOURCES` last.
fn fill(files: &[SourceFile], dir: &Path, kept: &Kept) -> Result<()> {
    for source in files {
        for (name, bytes) in fetch::source_files(source)? {
            fetch::write(&dir.join(&name), &bytes)?;
        }
    }
    let json = serde_json::to_string_pretty(kept).map_err(|e| Error::new(format!("{SOURCES}: {e}")))?;
    fetch::write(&dir.join(SOURCES), json.as_bytes())
}

/// What a kept folder says it holds; `None` for a folder that is absent or incomplete (or kept
/// by an older lingualens, whose record had another form: it is fetched again).
fn kept(dir: &Path) -> Option<Kept> {
    serde_json::from_slice(&std::fs::read(dir.join(SOURCES)).ok()?).ok()
}

/// A task its authors published, as the catalogue runs it: the YAML in the kept folder, the data
/// file of each split there, what `os.getenv` gives its prompt functions, and the downloads.
pub struct PublishedData {
    pub yaml: PathBuf,
    pub data: BTreeMap<String, PathBuf>,
    pub env: BTreeMap<String, String>,
    pub kept: KeptData,
}

/// `task` from its authors' published files, where the catalogue runs it so: the benchmark's
/// files kept, or fetched now (unless `offline`). `None` for any other task.
pub fn published_task(task: &str, offline: bool) -> Result<Option<PublishedData>> {
    let Some(entry) = catalog::benchmark_catalog()?.benchmark_for(task) else { return Ok(None) };
    let Some(published) = entry.published_task(task).cloned() else { return Ok(None) };
    let Some(kept) = data_for_task(task, offline)? else { return Ok(None) };
    let data = published.data.iter().map(|(split, path)| (split.clone(), kept.dir.join(path))).collect();
    Ok(Some(PublishedData { yaml: kept.dir.join(&published.yaml), data, env: published.env, kept }))
}
