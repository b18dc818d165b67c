//! `lingualens kit`: puts models and benchmark files inside a built site, with a manifest
//! (`kit.json`), so that a classroom's server offers them first and the class never needs the
//! internet. Catalogue models and benchmarks are fetched (`cli::fetch`, sha256 checked); a model
//! file given by path is copied. The page checks every file against the manifest before it uses it.
//!
//! Layout, all paths relative so the site works under any path of any server:
//!   kit.json                         the manifest (`catalog::KitManifest`)
//!   kit/models/<file>.gguf           each model
//!   kit/benchmarks/<id>/<name>       each benchmark's files, by the names its tasks read

use std::path::{Path, PathBuf};

use crate::catalog::{self, KitBenchmark, KitFile, KitManifest, KitModel, KIT_MANIFEST};
use crate::cli::fetch;
use crate::formats::gguf::GgufFile;
use crate::formats::model_info::ModelInfo;
use crate::formats::source::FileSource;
use crate::{bail, Error, Result};

pub struct KitArgs {
    pub site: PathBuf,
    pub models: Vec<String>,
    pub benchmarks: Vec<String>,
}

pub fn run(args: &KitArgs) -> Result<()> {
    if !args.site.join("index.html").is_file() {
        bail!("{}: no index.html here: build the site first (scripts/build-site.sh)", args.site.display());
    }
    let mut manifest = KitManifest {
        about: "What this site holds for offline use, written by `lingualens kit` (scripts/build-site.sh). The page offers these first and checks each file's size and sha256 before it uses it.".into(),
        ..Default::default()
    };
    for wanted in &args.models {
        let model = add_model(&args.site, wanted)?;
        eprintln!("kit: model {} ({} bytes) -> {}", model.id, model.size_bytes, model.path);
        manifest.models.push(model);
    }
    for wanted in &args.benchmarks {
        let benchmark = add_benchmark(&args.site, wanted)?;
        eprintln!(
            "kit: benchmark {} ({} files) for {}",
            benchmark.id,
            benchmark.files.len(),
            benchmark.tasks.join(", ")
        );
        manifest.benchmarks.push(benchmark);
    }
    let path = args.site.join(KIT_MANIFEST);
    if manifest.models.is_empty() && manifest.benchmarks.is_empty() {
        // A site with nothing bundled has no manifest: the page then offers the catalogue alone.
        let _ = std::fs::remove_file(&path);
        return Ok(());
    }
    let json = serde_json::to_string_pretty(&manifest).map_err(|e| Error::new(format!("{KIT_MANIFEST}: {e}")))?;
    fetch::write(&path, json.as_bytes())
}

/// A catalogue id (fetched) or a GGUF file's path (copied).
fn add_model(site: &Path, wanted: &str) -> Result<KitModel> {
    let as_path = Path::new(wanted);
    let (file, source, entry) = if as_path.is_file() {
        (as_path.to_path_buf(), format!("file {}", file_name(as_path)), None)
    } else {
        let catalog = catalog::model_catalog()?;
        let ids: Vec<String> = catalog.models.iter().map(|m| m.id.clone()).collect();
        let Some(entry) = catalog.models.into_iter().find(|m| m.id == wanted) else {
            bail!("--with-model {wanted}: neither a file nor a model of models/catalog.json ({})", ids.join(", "));
        };
        let path = fetch::fetch_cached(&entry.url, entry.size_bytes, entry.sha256.as_deref())
            .map_err(|e| e.context(format!("--with-model {wanted}")))?;
        (path, entry.url.clone(), Some(entry))
    };
    // The header must read as a model lingualens runs: a kit never ships a file the page refuses.
    let info = FileSource::open(&file)
        .and_then(|source| pollster::block_on(GgufFile::read(&source)))
        .map(|gguf| ModelInfo::from_gguf(&gguf))
        .map_err(|e| e.context(format!("--with-model {wanted}")))?;
    let name = file_name(&file);
    let relative = format!("kit/models/{name}");
    copy(&file, &site.join(&relative))?;
    let (sha256, size_bytes) = fetch::file_sha256(&site.join(&relative))?;
    let stem = name.strip_suffix(".gguf").unwrap_or(&name).to_string();
    let quantization = info.tensor_types.iter().max_by_key(|(_, c)| c.parameters).map(|(t, _)| t.clone());
    Ok(match entry {
        Some(e) => KitModel {
            id: e.id,
            name: e.name,
            path: relative,
            size_bytes,
            sha256,
            quantization: e.quantization.or(quantization),
            licence: e.licence,
            source,
        },
        None => KitModel {
            id: stem.clone(),
            name: info.name.unwrap_or(stem),
            path: relative,
            size_bytes,
            sha256,
            quantization,
            licence: None,
            source,
        },
    })
}

/// A benchmark of datasets/catalog.json: its files fetched (sha256 checked) and, for an archive,
/// unpacked, each kept under `kit/benchmarks/<id>/` by the name its tasks read.
fn add_benchmark(site: &Path, wanted: &str) -> Result<KitBenchmark> {
    let catalog = catalog::benchmark_catalog()?;
    let ids: Vec<String> = catalog.benchmarks.iter().map(|b| b.id.clone()).collect();
    let Some(entry) = catalog.benchmarks.into_iter().find(|b| b.id == wanted) else {
        bail!("--with-benchmark {wanted}: not a benchmark of datasets/catalog.json ({})", ids.join(", "));
    };
    let mut files = Vec::new();
    let mut sources = Vec::new();
    let mut resolved = super::benchmark_data::resolved_files(&entry, false)
        .map_err(|e| e.context(format!("--with-benchmark {wanted}")))?;
    // The code its prompts are read from (KyrgyzLLM-Bench's), which the page reads beside the data.
    resolved.extend(entry.prompt_code.iter().cloned());
    for source in &resolved {
        let named = fetch::source_files(source).map_err(|e| e.context(format!("--with-benchmark {wanted}")))?;
        sources.push(format!("{} sha256 {}", source.url, source.sha256.as_deref().unwrap_or("not pinned")));
        for (name, bytes) in named {
            let relative = format!("kit/benchmarks/{}/{name}", entry.id);
            fetch::write(&site.join(&relative), &bytes)?;
            let sha256 = crate::scoring::outputs::hex(&<sha2::Sha256 as sha2::Digest>::digest(&bytes));
            files.push(KitFile { name, path: relative, size_bytes: bytes.len() as u64, sha256 });
        }
    }
    Ok(KitBenchmark {
        id: entry.id,
        name: entry.name,
        tasks: entry.tasks,
        files,
        licence: entry.licence,
        citation: entry.citation,
        sources,
    })
}

fn file_name(path: &Path) -> String {
    path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

fn copy(from: &Path, to: &Path) -> Result<()> {
    if let Some(dir) = to.parent() {
        std::fs::create_dir_all(dir).map_err(|e| Error::new(format!("{}: cannot be created: {e}", dir.display())))?;
    }
    std::fs::copy(from, to)
        .map(|_| ())
        .map_err(|e| Error::new(format!("{} -> {}: cannot be copied: {e}", from.display(), to.display())))
}
