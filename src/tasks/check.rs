//! `lingualens data check PATH…`: load files as the evaluator would and report what was found:
//! items per file and per metadata value, and every anomaly with `file:row` and reason.
//!
//! DZEN files are told by their header (evaluation: 11 columns from `English Question`;
//! few-shot: 26 columns) and loaded together, so duplicates are found across them. Other files
//! are read by extension (`.csv`, `.json`, `.jsonl`, `.parquet`) with the built-in mapping whose
//! columns they have; the language comes from the file name where it can (ProverbEval's `amh_…`),
//! and KyrgyzLLM-Bench config directories (`kyrgyz_mmlu_<subject>/`, `kyrgyz_rc_<source>/`) and
//! split file names (`test.parquet`) add metadata.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::anomaly::{Action, Anomaly, AnomalyKind};
use super::dzen::{self, DzenFileKind};
use super::hf_table::{load_table, TableOptions};
use super::item::Item;
use super::table::Format;

/// Metadata keys counted per value in the report; other keys (per-item values such as
/// `activity_label`, `topic`) would only make it long.
pub const GROUP_KEYS: [&str; 9] =
    ["grade", "subject", "part", "category", "source_type", "split", "subtask", "config", "choices_language"];

/// The whole report; serialised as JSON by the CLI.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DataCheckReport {
    pub files: Vec<FileCheck>,
    /// All items, all files.
    pub items: usize,
    pub by_kind: BTreeMap<String, usize>,
    pub by_language: BTreeMap<String, usize>,
    /// key → value → items (keys from [`GROUP_KEYS`]).
    pub by_metadata: BTreeMap<String, BTreeMap<String, usize>>,
    /// Anomaly counts by kind.
    pub anomalies_by_kind: BTreeMap<String, usize>,
    /// Every anomaly, in file order.
    pub anomalies: Vec<Anomaly>,
}

/// One file's line in the report.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FileCheck {
    pub file: String,
    /// `dzen`, `dzen-few-shot`, `csv`, `json`, `jsonl`, `parquet`, or `unknown`.
    pub format: String,
    /// The column mapping used (HF tables).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mapping: Option<String>,
    /// Data rows read (header excluded).
    pub rows: usize,
    pub items: usize,
    pub by_kind: BTreeMap<String, usize>,
    pub by_language: BTreeMap<String, usize>,
    pub by_metadata: BTreeMap<String, BTreeMap<String, usize>>,
    pub anomalies: usize,
}

/// A file given by name and contents (the page passes dropped files this way).
#[derive(Debug, Clone, Copy)]
pub struct Source<'a> {
    pub name: &'a str,
    pub bytes: &'a [u8],
}

/// Metadata a path implies: KyrgyzLLM-Bench config directories and split file names.
pub fn metadata_from_path(name: &str) -> BTreeMap<String, String> {
    let mut m = BTreeMap::new();
    let parts: Vec<&str> = name.split(['/', '\\']).collect();
    for p in &parts {
        if let Some(s) = p.strip_prefix("kyrgyz_mmlu_") {
            m.insert("config".into(), p.to_string());
            m.insert("subject".into(), s.to_string());
        } else if let Some(s) = p.strip_prefix("kyrgyz_rc_") {
            m.insert("config".into(), p.to_string());
            m.insert("source_type".into(), s.to_string());
        }
    }
    if let Some(base) = parts.last() {
        let lower = base.to_ascii_lowercase();
        let stem = lower.split(['.', '-']).next().unwrap_or("");
        if ["test", "validation", "train", "dev", "val", "valid"].contains(&stem) {
            m.insert("split".into(), stem.to_string());
        }
        if lower.contains("_english_") {
            m.insert("choices_language".into(), "english".into());
        } else if lower.contains("_native_") {
            m.insert("choices_language".into(), "native".into());
        }
    }
    m
}

/// Checks files given as bytes (works on every target).
pub fn check_sources(sources: &[Source]) -> DataCheckReport {
    let mut report = DataCheckReport::default();
    let mut dzen_sources: Vec<(&str, &[u8])> = Vec::new();
    // One entry per source, in order: filled either now (tables) or from the DZEN set later.
    let mut per_file: Vec<(FileCheck, Vec<Item>, Vec<Anomaly>)> = Vec::new();
    for s in sources {
        if let Some(kind) = dzen::detect(s.bytes) {
            dzen_sources.push((s.name, s.bytes));
            let format = match kind {
                DzenFileKind::Eval => "dzen",
                DzenFileKind::FewShot => "dzen-few-shot",
            };
            per_file.push((
                FileCheck { file: s.name.to_string(), format: format.into(), ..FileCheck::default() },
                Vec::new(),
                Vec::new(),
            ));
            continue;
        }
        let Some(format) = Format::from_name(s.name) else {
            let a = Anomaly::new(
                s.name,
                None,
                AnomalyKind::UnreadableFile,
                Action::SkippedFile,
                "not a DZEN file, and not .csv, .json, .jsonl or .parquet",
            );
            per_file.push((
                FileCheck { file: s.name.to_string(), format: "unknown".into(), ..FileCheck::default() },
                Vec::new(),
                vec![a],
            ));
            continue;
        };
        let options = TableOptions { metadata: metadata_from_path(s.name), ..TableOptions::default() };
        let loaded = load_table(s.name, s.bytes, &options);
        let mapping = loaded.items.first().and_then(|i| i.id.split('/').next()).map(str::to_string);
        let fc = FileCheck {
            file: s.name.to_string(),
            format: format.as_str().into(),
            mapping,
            rows: loaded.rows,
            ..FileCheck::default()
        };
        per_file.push((fc, loaded.items, loaded.anomalies));
    }
    if !dzen_sources.is_empty() {
        let set = dzen::load_dzen(&dzen_sources);
        for summary in &set.files {
            if let Some(entry) = per_file.iter_mut().find(|(fc, _, _)| fc.file == summary.file) {
                entry.0.rows = summary.rows;
            }
        }
        for item in set.items.into_iter().chain(set.exemplars) {
            if let Some(entry) = per_file.iter_mut().find(|(fc, _, _)| fc.file == item.source.file) {
                entry.1.push(item);
            }
        }
        for a in set.anomalies {
            match per_file.iter_mut().find(|(fc, _, _)| fc.file == a.file) {
                Some(entry) => entry.2.push(a),
                None => report.anomalies.push(a),
            }
        }
    }
    for (mut fc, items, anomalies) in per_file {
        fc.items = items.len();
        fc.anomalies = anomalies.len();
        for item in &items {
            count(&mut fc.by_kind, item.kind());
            count(&mut fc.by_language, &item.language);
            count(&mut report.by_kind, item.kind());
            count(&mut report.by_language, &item.language);
            for key in GROUP_KEYS {
                if let Some(v) = item.metadata.get(key) {
                    count(fc.by_metadata.entry(key.to_string()).or_default(), v);
                    count(report.by_metadata.entry(key.to_string()).or_default(), v);
                }
            }
        }
        report.items += items.len();
        for a in &anomalies {
            count(&mut report.anomalies_by_kind, a.kind.as_str());
        }
        report.anomalies.extend(anomalies);
        report.files.push(fc);
    }
    report
}

fn count(m: &mut BTreeMap<String, usize>, key: &str) {
    *m.entry(key.to_string()).or_insert(0) += 1;
}

/// Native entry point for `lingualens data check PATH…`: reads each path (a directory is read
/// recursively, its files in name order) and checks them together. Fails only when a path cannot
/// be read; everything wrong inside the files is in the report.
#[cfg(not(target_arch = "wasm32"))]
pub fn check_files<P: AsRef<std::path::Path>>(paths: &[P]) -> crate::error::Result<DataCheckReport> {
    use crate::error::Error;
    use std::path::{Path, PathBuf};

    /// `seen`: the folders walked so far, by their real path, so that a symlink back up the tree
    /// is followed once and not forever.
    fn walk(
        dir: &Path,
        out: &mut Vec<PathBuf>,
        seen: &mut std::collections::HashSet<PathBuf>,
    ) -> crate::error::Result<()> {
        let real = dir.canonicalize().map_err(|e| Error::new(format!("{}: {e}", dir.display())))?;
        if !seen.insert(real) {
            return Ok(());
        }
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|e| Error::new(format!("{}: {e}", dir.display())))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for p in entries {
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            if name.starts_with('.') {
                continue;
            }
            if p.is_dir() {
                walk(&p, out, seen)?;
            } else if Format::from_name(&name).is_some() {
                // Inside a directory only table files are looked at (not README.md, SOURCE.md, zips).
                out.push(p);
            }
        }
        Ok(())
    }

    let mut files: Vec<PathBuf> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for p in paths {
        let p = p.as_ref();
        if p.is_dir() {
            walk(p, &mut files, &mut seen)?;
        } else {
            files.push(p.to_path_buf());
        }
    }
    let mut contents = Vec::with_capacity(files.len());
    for p in &files {
        let bytes = crate::formats::source::read_capped(p, crate::formats::source::limits::DATA_FILE, "data file")?;
        contents.push((p.display().to_string(), bytes));
    }
    let sources: Vec<Source> = contents.iter().map(|(n, b)| Source { name: n, bytes: b }).collect();
    Ok(check_sources(&sources))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_metadata() {
        let m = metadata_from_path("TTimur/kyrgyzMMLU/kyrgyz_mmlu_history/test.parquet");
        assert_eq!(m["subject"], "history");
        assert_eq!(m["split"], "test");
        assert_eq!(m["config"], "kyrgyz_mmlu_history");
        let m = metadata_from_path("kyrgyz_rc_news/validation-00000-of-00001.parquet");
        assert_eq!(m["source_type"], "news");
        assert_eq!(m["split"], "validation");
        let m = metadata_from_path("amh/amh_english_test_1.csv");
        assert_eq!(m["choices_language"], "english");
        assert!(!m.contains_key("split"));
    }

    #[test]
    fn mixed_sources() {
        let dz = "English Question,Dzongkha Question,A,B,C,D,A Dz .,B Dz,C Dz,D Dz,Correct Answer\nq,ཀ,a,b,c,d,ཀ,ཁ,ག,ང,*\nq2,ཀ,a,b,c,d,ཀ,ཁ,ག,ང,c\n";
        let pe = "Proverb,A,B,C,D,Answer_Letter\np,a,b,c,d,A\n";
        let report = check_sources(&[
            Source { name: "DZEN/8th-Science.csv", bytes: dz.as_bytes() },
            Source { name: "tir/tir_native_test_1.csv", bytes: pe.as_bytes() },
            Source { name: "notes.txt", bytes: b"hello" },
        ]);
        assert_eq!(report.items, 3);
        assert_eq!(report.files.len(), 3);
        assert_eq!(report.files[0].format, "dzen");
        assert_eq!(report.files[0].rows, 2);
        assert_eq!(report.files[0].items, 2);
        assert_eq!(report.files[0].anomalies, 1);
        assert_eq!(report.files[1].mapping.as_deref(), Some("proverbeval-choice"));
        assert_eq!(report.by_language["ti"], 1);
        assert_eq!(report.by_metadata["subject"]["Science"], 2);
        assert_eq!(report.by_metadata["choices_language"]["native"], 1);
        assert_eq!(report.anomalies_by_kind["missing_gold"], 1);
        assert_eq!(report.anomalies_by_kind["unreadable_file"], 1);
        assert_eq!(report.anomalies[0].location(), "DZEN/8th-Science.csv:1");
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["files"][1]["by_kind"]["multiple_choice"], 1);
    }
}
