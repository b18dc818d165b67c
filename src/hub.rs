//! A Hugging Face Hub dataset repository read the way the `datasets` library reads it (datasets
//! 5.x, `data_files.py` and `load.py`): which files hold a config's split. lm-eval's
//! `dataset_path: owner/name` with `dataset_name: config` and `test_split: split` means exactly
//! this, and so does a catalogue entry whose files are known only by repository and config.
//!
//! The rules, in the order `datasets` applies them:
//! 1. The dataset card (`README.md`) may declare `configs:`, each with `data_files` (a pattern, a
//!    list of them, `{split: patterns}`, or `[{split, path}]`) and/or a `data_dir`. The named config
//!    is taken; with no name, the one marked `default: true`, or the only one.
//! 2. A config without `data_files` (or a card without configs) gets the default patterns, under
//!    its `data_dir`: `data/{split}-00000-of-00001.*` shards first; else split keywords in folder
//!    names (`test/…`), then in file names (`…/test.csv`, `x_valid.json`); else every file is `train`.
//! 3. Patterns are fsspec globs over the repository's files (`*` stays within a folder, `**` crosses
//!    them); hidden files and folders, `__special__` folders and the card itself are skipped unless a
//!    pattern names them; the most common data format among the matches is kept.
//!
//! A repository with nothing to read this way (a loading script) can still have the Hub's parquet
//! conversion (`refs/convert/parquet`, `{config}/{split}/0000.parquet`): [`parquet_conversion`].
//! Everything here is pure: the caller fetches the card and the tree listing (`cli::fetch` natively,
//! the worker in the page) and downloads what this picks.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::{bail, Error, Result};

/// The Hub's host, as catalogue URLs name it (a mirror or `HF_ENDPOINT` redirects it).
pub const HUB: &str = "https://huggingface.co";
/// The branch of the Hub's parquet conversion, percent-encoded as it goes in a URL path.
pub const PARQUET_BRANCH: &str = "refs%2Fconvert%2Fparquet";
/// The most pages of a tree listing followed (the Hub pages by 1,000 entries).
pub const MAX_TREE_PAGES: usize = 100;

/// One file of a repository's tree listing: its path, size and, where the Hub stores it with Git
/// LFS (parquet files always), its sha256.
#[derive(Debug, Clone, PartialEq)]
pub struct ListedFile {
    pub path: String,
    pub size: Option<u64>,
    pub sha256: Option<String>,
}

/// The tree API's URL for `dataset` at `revision`: every file, recursively.
pub fn tree_url(dataset: &str, revision: &str) -> String {
    format!("{HUB}/api/datasets/{dataset}/tree/{}?recursive=true", encode_segment(revision))
}

/// The URL a file of `dataset` at `revision` is downloaded from.
pub fn resolve_url(dataset: &str, revision: &str, path: &str) -> String {
    let path: Vec<String> = path.split('/').map(encode_segment).collect();
    format!("{HUB}/datasets/{dataset}/resolve/{}/{}", encode_segment(revision), path.join("/"))
}

/// The dataset card's URL at `revision`.
pub fn card_url(dataset: &str, revision: &str) -> String {
    resolve_url(dataset, revision, "README.md")
}

/// `owner/name`, the only form of a Hub dataset id lingualens follows (no URL, no `..`).
pub fn check_dataset_id(id: &str) -> Result<()> {
    let parts: Vec<&str> = id.split('/').collect();
    let ok = parts.len() == 2
        && parts.iter().all(|p| {
            !p.is_empty()
                && *p != "."
                && *p != ".."
                && p.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
        });
    if !ok {
        bail!("{id:?} is not a Hugging Face Hub dataset id (owner/name)");
    }
    Ok(())
}

fn encode_segment(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[derive(Deserialize)]
struct TreeEntry {
    #[serde(rename = "type")]
    kind: String,
    path: String,
    #[serde(default)]
    size: Option<u64>,
    #[serde(default)]
    lfs: Option<LfsInfo>,
}

#[derive(Deserialize)]
struct LfsInfo {
    oid: String,
    #[serde(default)]
    size: Option<u64>,
}

/// The files of one page of the tree API's JSON (`what` names it in errors).
pub fn parse_tree(json: &[u8], what: &str) -> Result<Vec<ListedFile>> {
    let entries: Vec<TreeEntry> = serde_json::from_slice(json)
        .map_err(|e| Error::new(format!("{what}: not the Hub's tree listing (a JSON array of files): {e}")))?;
    Ok(entries
        .into_iter()
        .filter(|e| e.kind == "file")
        .map(|e| {
            let sha256 = e.lfs.as_ref().map(|l| l.oid.to_ascii_lowercase()).filter(|h| is_sha256(h));
            ListedFile { size: e.lfs.and_then(|l| l.size).or(e.size), sha256, path: e.path }
        })
        .collect())
}

fn is_sha256(h: &str) -> bool {
    h.len() == 64 && h.bytes().all(|c| c.is_ascii_hexdigit())
}

/// The next page of a paged listing, from the response's `Link` header (`<URL>; rel="next"`).
pub fn next_page(link: &str) -> Option<String> {
    link.split(',').find(|part| part.contains("rel=\"next\"")).and_then(|part| {
        let start = part.find('<')? + 1;
        let end = part.find('>')?;
        (end > start).then(|| part[start..end].to_string())
    })
}

/// One config of a dataset card's `configs:`.
#[derive(Debug, Clone, PartialEq)]
pub struct CardConfig {
    pub name: String,
    pub default: bool,
    pub data_dir: Option<String>,
    /// Split → patterns, in the card's order; `None` where the config gives no `data_files`.
    pub data_files: Option<Vec<(String, Vec<String>)>>,
}

/// The `configs:` of a dataset card's YAML front matter; none for a card without them (or
/// without front matter). A card whose front matter is not YAML, or whose configs are not what
/// `datasets` accepts, is an error naming the field.
pub fn card_configs(readme: &str, what: &str) -> Result<Vec<CardConfig>> {
    let text = readme.strip_prefix('\u{feff}').unwrap_or(readme);
    let Some(rest) = text.strip_prefix("---\n").or_else(|| text.strip_prefix("---\r\n")) else {
        return Ok(Vec::new());
    };
    let end = rest.find("\n---").map(|i| i + 1).unwrap_or(rest.len());
    let yaml = &rest[..end];
    let value: serde_json::Value = serde_yaml_ng::from_str(yaml)
        .map_err(|e| Error::new(format!("{what}: the card's YAML header cannot be read: {e}")))?;
    let Some(configs) = value.get("configs") else { return Ok(Vec::new()) };
    let Some(configs) = configs.as_array() else {
        bail!("{what}: configs: expected a list of configs");
    };
    let mut out = Vec::new();
    for (i, c) in configs.iter().enumerate() {
        let at = |field: &str| format!("{what}: configs[{i}].{field}");
        let name = match c.get("config_name") {
            None => "default".to_string(),
            Some(serde_json::Value::String(s)) => s.clone(),
            Some(_) => bail!("{}: expected a name", at("config_name")),
        };
        let default = c.get("default").and_then(|d| d.as_bool()).unwrap_or(false);
        let data_dir = match c.get("data_dir") {
            None | Some(serde_json::Value::Null) => None,
            Some(serde_json::Value::String(s)) => Some(s.trim_matches('/').to_string()),
            Some(_) => bail!("{}: expected a folder", at("data_dir")),
        };
        let data_files = match c.get("data_files") {
            None | Some(serde_json::Value::Null) => None,
            Some(files) => Some(sanitize_patterns(files).map_err(|e| e.context(at("data_files")))?),
        };
        out.push(CardConfig { name, default, data_dir, data_files });
    }
    Ok(out)
}

/// `datasets`' rule for a card's `data_files`: a pattern or a list of them is the `train` split's;
/// a list of `{split, path}` gives each split its own. (A map is refused, as `datasets` refuses it
/// in a card.)
fn sanitize_patterns(value: &serde_json::Value) -> Result<Vec<(String, Vec<String>)>> {
    use serde_json::Value;
    let strings = |v: &Value| -> Result<Vec<String>> {
        match v {
            Value::String(s) => Ok(vec![s.clone()]),
            Value::Array(a) => a
                .iter()
                .map(|x| x.as_str().map(str::to_string).ok_or_else(|| Error::new("expected a path or a list of paths")))
                .collect(),
            _ => Err(Error::new("expected a path or a list of paths")),
        }
    };
    match value {
        Value::String(_) => Ok(vec![("train".into(), strings(value)?)]),
        Value::Array(items) if items.iter().all(Value::is_object) => {
            let mut out: Vec<(String, Vec<String>)> = Vec::new();
            for item in items {
                let (Some(split), Some(path)) = (item.get("split").and_then(Value::as_str), item.get("path")) else {
                    bail!("each entry needs split and path");
                };
                out.push((split.to_string(), strings(path)?));
            }
            Ok(out)
        }
        Value::Array(_) => Ok(vec![("train".into(), strings(value)?)]),
        _ => bail!("expected a path, a list of paths, or a list of {{split, path}}"),
    }
}

/// The formats `datasets` infers a builder from, by extension, in its order; and whether
/// lingualens reads them.
const DATA_EXTENSIONS: &[(&str, bool)] = &[
    ("csv", true),
    ("tsv", false),
    ("json", true),
    ("jsonl", true),
    ("parquet", true),
    ("arrow", false),
    ("txt", false),
    ("geoparquet", false),
    ("gpq", false),
    ("tar", false),
    ("zip", false),
    ("xml", false),
    ("hdf5", false),
    ("h5", false),
    ("eval", false),
    ("lance", false),
];

/// Files `datasets` never takes as data unless a pattern names them.
const FILES_TO_IGNORE: &[&str] =
    &["README.md", "config.json", "dataset_info.json", "dataset_infos.json", "dummy_data.zip", "dataset_dict.json"];

const SPLIT_KEYWORDS: &[(&str, &[&str])] = &[
    ("train", &["train", "training"]),
    ("validation", &["validation", "valid", "dev", "val"]),
    ("test", &["test", "testing", "eval", "evaluation"]),
];
const NON_WORD: &str = "-._ 0-9";

/// The split → patterns a config reads: its card's `data_files`, else the default patterns that
/// find something among `files` under its `data_dir`. Patterns are relative to the data folder.
fn config_patterns(files: &[ListedFile], data_dir: &str, config: Option<&CardConfig>) -> Vec<(String, Vec<String>)> {
    if let Some(patterns) = config.and_then(|c| c.data_files.clone()) {
        return patterns;
    }
    let matches = |pattern: &str| !matching(files, data_dir, pattern).is_empty();
    // `data/{split}-00000-of-00001.parquet`, as `push_to_hub` writes: the splits are in the names.
    let sharded = "data/*-[0-9][0-9][0-9][0-9][0-9]-of-[0-9][0-9][0-9][0-9][0-9]*.*";
    let shards = matching(files, data_dir, sharded);
    if !shards.is_empty() {
        let mut splits: Vec<String> = Vec::new();
        for f in &shards {
            let base = f.path.rsplit('/').next().unwrap_or(&f.path);
            if let Some(split) = shard_split(base) {
                if !splits.contains(&split) {
                    splits.push(split);
                }
            }
        }
        let order = |s: &String| SPLIT_KEYWORDS.iter().position(|(k, _)| k == s).unwrap_or(usize::MAX);
        splits.sort_by(|a, b| order(a).cmp(&order(b)).then(a.cmp(b)));
        return splits
            .into_iter()
            .map(|s| {
                let p = format!("data/{s}-[0-9][0-9][0-9][0-9][0-9]-of-[0-9][0-9][0-9][0-9][0-9]*.*");
                (s, vec![p])
            })
            .collect();
    }
    let in_dir = ["**/{k}/**", "**/{k}[{s}]*/**", "**/*[{s}]{k}/**", "**/*[{s}]{k}[{s}]*/**"];
    let in_name = ["**/{k}[{s}]*", "**/*[{s}]{k}[{s}]*"];
    for bases in [&in_dir[..], &in_name[..]] {
        let mut found = Vec::new();
        for (split, keywords) in SPLIT_KEYWORDS {
            let patterns: Vec<String> = keywords
                .iter()
                .flat_map(|k| bases.iter().map(move |b| b.replace("{k}", k).replace("{s}", NON_WORD)))
                .collect();
            if patterns.iter().any(|p| matches(p)) {
                found.push((split.to_string(), patterns));
            }
        }
        if !found.is_empty() {
            return found;
        }
    }
    vec![("train".into(), vec!["**".into()])]
}

/// The split of a shard's file name `{split}-00000-of-00001…`, if it is one `datasets` accepts.
fn shard_split(base: &str) -> Option<String> {
    let re = regex::Regex::new(r"^(.+?)-[0-9]{5}-of-[0-9]{5}.*\..*$").ok()?;
    let split = re.captures(base)?.get(1)?.as_str().to_string();
    let ok = regex::Regex::new(r"^\w+(\.\w+)*$").ok()?.is_match(&split);
    ok.then_some(split)
}

/// The files of `dataset`'s `split` in `config` (`None`: the card's default config), from the
/// card's text (empty where there is none) and the repository's files.
pub fn split_files(
    dataset: &str,
    readme: &str,
    files: &[ListedFile],
    config: Option<&str>,
    split: &str,
) -> Result<Vec<ListedFile>> {
    let card = card_configs(readme, &format!("{dataset}: README.md"))?;
    let chosen = match (config, card.is_empty()) {
        (None, true) | (Some("default"), true) => None,
        (Some(name), true) => {
            bail!("{dataset}: has no config {name:?}: its card declares no configs, so its only config is \"default\"")
        }
        (Some(name), false) => Some(card.iter().find(|c| c.name == name).ok_or_else(|| {
            let names: Vec<&str> = card.iter().map(|c| c.name.as_str()).collect();
            Error::new(format!("{dataset}: has no config {name:?}; its configs are {}", names.join(", ")))
        })?),
        (None, false) => {
            let defaults: Vec<&CardConfig> = card.iter().filter(|c| c.default).collect();
            match (defaults.as_slice(), card.as_slice()) {
                ([one], _) => Some(*one),
                ([], [one]) => Some(one),
                _ => {
                    let names: Vec<&str> = card.iter().map(|c| c.name.as_str()).collect();
                    bail!("{dataset}: name a config (dataset_name); its configs are {}", names.join(", "))
                }
            }
        }
    };
    let data_dir = chosen.and_then(|c| c.data_dir.clone()).unwrap_or_default();
    let patterns = config_patterns(files, &data_dir, chosen);
    // Every split's matches decide the format, as `datasets` infers one builder for the config.
    let all: Vec<ListedFile> =
        patterns.iter().flat_map(|(_, p)| p.iter()).flat_map(|p| matching(files, &data_dir, p)).collect();
    let format = most_common_format(&all).ok_or_else(|| {
        Error::new(format!(
            "{dataset}{}: no data files (CSV, JSON, JSONL or Parquet) in the repository{}",
            config.map(|c| format!(" (config {c})")).unwrap_or_default(),
            if files.iter().any(|f| !f.path.contains('/') && f.path.ends_with(".py")) {
                ": it is read by a loading script, which lingualens (like datasets 4 and later) does not run"
            } else {
                ""
            }
        ))
    })?;
    let Some((_, true)) = DATA_EXTENSIONS.iter().find(|(e, _)| *e == format) else {
        bail!("{dataset}: its data files are .{format}, which lingualens does not read (CSV, JSON, JSONL, Parquet)");
    };
    let Some((_, wanted)) = patterns.iter().find(|(s, _)| s == split) else {
        let splits: Vec<&str> = patterns.iter().map(|(s, _)| s.as_str()).collect();
        bail!(
            "{dataset}{}: has no split {split:?}; its splits are {}",
            config.map(|c| format!(" (config {c})")).unwrap_or_default(),
            splits.join(", ")
        );
    };
    let mut out: Vec<ListedFile> = Vec::new();
    for pattern in wanted {
        for f in matching(files, &data_dir, pattern) {
            if extension(&f.path).as_deref() == Some(format) && !out.iter().any(|o| o.path == f.path) {
                out.push(f);
            }
        }
    }
    if out.is_empty() {
        bail!(
            "{dataset}{}: split {split}: no file matches {}",
            config.map(|c| format!(" (config {c})")).unwrap_or_default(),
            wanted.join(", ")
        );
    }
    Ok(out)
}

/// The split's files in the Hub's parquet conversion (listed from the `refs/convert/parquet`
/// branch): `{config}/{split}/NNNN.parquet`, or `{config}/partial-{split}/…` for a large split.
pub fn parquet_conversion(files: &[ListedFile], config: Option<&str>, split: &str) -> Vec<ListedFile> {
    let config = config.unwrap_or("default");
    let mut out: Vec<ListedFile> = Vec::new();
    for folder in [format!("{config}/{split}/"), format!("{config}/partial-{split}/")] {
        out.extend(
            files
                .iter()
                .filter(|f| f.path.strip_prefix(&folder).is_some_and(|r| !r.contains('/') && r.ends_with(".parquet")))
                .cloned(),
        );
        if !out.is_empty() {
            break;
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

fn extension(path: &str) -> Option<String> {
    let base = path.rsplit('/').next()?;
    base.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase())
}

/// Whether any of `files` is a data file lingualens reads (CSV, JSON, JSONL, Parquet).
pub fn has_readable_data(files: &[ListedFile]) -> bool {
    files
        .iter()
        .any(|f| extension(&f.path).is_some_and(|e| DATA_EXTENSIONS.iter().any(|(x, readable)| *readable && *x == e)))
}

/// The format most of `files` have among those `datasets` knows (its order breaks ties).
fn most_common_format(files: &[ListedFile]) -> Option<&'static str> {
    let mut counts: BTreeMap<usize, usize> = BTreeMap::new();
    for f in files {
        if let Some(i) = extension(&f.path).and_then(|e| DATA_EXTENSIONS.iter().position(|(x, _)| *x == e)) {
            *counts.entry(i).or_default() += 1;
        }
    }
    let best = counts.values().copied().max()?;
    counts.iter().find(|(_, n)| **n == best).map(|(i, _)| DATA_EXTENSIONS[*i].0)
}

/// The files `pattern` (relative to `data_dir`) matches, sorted by path, skipping what
/// `datasets` skips unless the pattern names it.
fn matching(files: &[ListedFile], data_dir: &str, pattern: &str) -> Vec<ListedFile> {
    let full = if data_dir.is_empty() { pattern.to_string() } else { format!("{data_dir}/{pattern}") };
    let Some(re) = glob_regex(&full) else { return Vec::new() };
    let named = full.rsplit('/').next().unwrap_or("");
    let mut out: Vec<ListedFile> = files
        .iter()
        .filter(|f| re.is_match(&f.path))
        .filter(|f| {
            let base = f.path.rsplit('/').next().unwrap_or("");
            !(FILES_TO_IGNORE.contains(&base) && base != named)
        })
        .filter(|f| special_folders(&f.path) == special_folders(&full))
        .filter(|f| hidden_parts(&f.path) == hidden_parts(&full))
        .cloned()
        .collect();
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// Folders named `__x` in a path: `datasets` skips a match inside more of them than its pattern names.
fn special_folders(path: &str) -> usize {
    path.rsplit_once('/').map_or(0, |(folders, _)| folders.split('/').filter(|p| p.starts_with("__")).count())
}

/// Hidden parts (`.x`, folders and the file) of a path: skipped as [`special_folders`] are.
fn hidden_parts(path: &str) -> usize {
    path.split('/').filter(|p| p.starts_with('.') && !p.chars().all(|c| c == '.')).count()
}

/// An fsspec glob (fsspec 2023.12 and later: Python's `glob.translate` with `recursive` and
/// `include_hidden`) as an anchored regular expression over `/`-separated paths: `*` and `?`
/// stay within a part, `**` as a whole part spans any number of them, `[…]` is a class.
pub fn glob_regex(pattern: &str) -> Option<regex::Regex> {
    let parts: Vec<&str> = pattern.split('/').collect();
    let last = parts.len() - 1;
    let mut re = String::from("^(?s:");
    for (i, part) in parts.iter().enumerate() {
        match *part {
            "*" if i < last => re.push_str("[^/]+/"),
            "*" => re.push_str("[^/]+"),
            "**" if i < last => {
                if parts[i + 1] != "**" {
                    re.push_str("(?:.+/)?");
                }
            }
            "**" => re.push_str(".*"),
            _ => {
                re.push_str(&translate_part(part));
                if i < last {
                    re.push('/');
                }
            }
        }
    }
    re.push_str(")$");
    regex::Regex::new(&re).ok()
}

/// One part of a glob as `fnmatch` translates it, `*` and `?` kept off `/`.
fn translate_part(part: &str) -> String {
    let chars: Vec<char> = part.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '*' => {
                while i + 1 < chars.len() && chars[i + 1] == '*' {
                    i += 1;
                }
                out.push_str("[^/]*");
            }
            '?' => out.push_str("[^/]"),
            '[' => match class_end(&chars, i) {
                Some(end) => {
                    let mut body: String = chars[i + 1..end].iter().collect();
                    let negated = body.starts_with('!');
                    if negated {
                        body.remove(0);
                    }
                    let body = body.replace('\\', "\\\\").replace('[', "\\[").replace('&', "\\&").replace('~', "\\~");
                    let body = body.replace("--", "\\-\\-").replace("||", "\\|\\|");
                    out.push('[');
                    if negated {
                        out.push('^');
                    } else if body.starts_with('^') {
                        out.push('\\');
                    }
                    out.push_str(&body);
                    out.push(']');
                    i = end;
                }
                None => out.push_str("\\["),
            },
            c => out.push_str(&regex::escape(&c.to_string())),
        }
        i += 1;
    }
    out
}

/// Where a `[` class opened at `start` closes (fnmatch's rule: a `]` right after `[` or `[!` is
/// literal); `None` for a `[` that is literal.
fn class_end(chars: &[char], start: usize) -> Option<usize> {
    let mut j = start + 1;
    if chars.get(j) == Some(&'!') {
        j += 1;
    }
    if chars.get(j) == Some(&']') {
        j += 1;
    }
    while j < chars.len() {
        if chars[j] == ']' {
            return Some(j);
        }
        j += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listed(paths: &[&str]) -> Vec<ListedFile> {
        paths.iter().map(|p| ListedFile { path: p.to_string(), size: None, sha256: None }).collect()
    }

    fn paths(files: &[ListedFile]) -> Vec<&str> {
        files.iter().map(|f| f.path.as_str()).collect()
    }

    #[test]
    fn globs_keep_stars_within_a_folder_and_double_stars_across() {
        let m = |p: &str, path: &str| glob_regex(p).unwrap().is_match(path);
        assert!(m("*.csv", "a.csv"));
        assert!(!m("*.csv", "x/a.csv"));
        assert!(m("**/test[-._ 0-9]*", "test.parquet"));
        assert!(m("**/test[-._ 0-9]*", "kyrgyz_mmlu_all/test-00000-of-00001.parquet"));
        assert!(!m("**/test[-._ 0-9]*", "kyrgyz_mmlu_all/testing.parquet"));
        assert!(m("**/*[-._ 0-9]valid[-._ 0-9]*", "amh/amh_fill_valid.csv"));
        assert!(m("**", "a/b/c.csv"));
        assert!(m("data/*", "data/x.csv"));
        assert!(!m("data/*", "data/x/y.csv"));
        assert!(m("[!a]x", "bx"));
        assert!(!m("[!a]x", "ax"));
    }

    #[test]
    fn a_card_config_maps_its_splits_and_a_missing_one_is_named() {
        let card = "---\nconfigs:\n- config_name: amh_fill_blank\n  data_files:\n  - split: train_1\n    path: amh/amh_fill_1.csv\n  - split: valid\n    path: amh/amh_fill_valid.csv\n- config_name: amh\n  data_files: amh/amh_all.csv\n---\n# ProverbEval\n";
        let files = listed(&["amh/amh_fill_1.csv", "amh/amh_fill_valid.csv", "amh/amh_all.csv", "README.md"]);
        let got = split_files("x/y", card, &files, Some("amh_fill_blank"), "valid").unwrap();
        assert_eq!(paths(&got), ["amh/amh_fill_valid.csv"]);
        let got = split_files("x/y", card, &files, Some("amh"), "train").unwrap();
        assert_eq!(paths(&got), ["amh/amh_all.csv"]);
        let e = split_files("x/y", card, &files, Some("amh_fill_blank"), "test").unwrap_err();
        assert!(e.message().contains("no split \"test\"; its splits are train_1, valid"), "{e}");
        let e = split_files("x/y", card, &files, Some("gez"), "test").unwrap_err();
        assert!(e.message().contains("its configs are amh_fill_blank, amh"), "{e}");
        let e = split_files("x/y", card, &files, None, "train").unwrap_err();
        assert!(e.message().contains("name a config"), "{e}");
    }

    #[test]
    fn without_a_card_the_default_patterns_find_splits_in_names_and_folders() {
        let files = listed(&["data/train-00000-of-00001.parquet", "data/test-00000-of-00001.parquet", "x.csv"]);
        assert_eq!(paths(&split_files("x/y", "", &files, None, "test").unwrap()), ["data/test-00000-of-00001.parquet"]);
        let files = listed(&["test/a.csv", "test/b.csv", "train.csv"]);
        assert_eq!(paths(&split_files("x/y", "", &files, None, "test").unwrap()), ["test/a.csv", "test/b.csv"]);
        // A folder named by a split keyword wins over file names, as in datasets.
        assert!(split_files("x/y", "", &files, None, "train").is_err());
        let files = listed(&["my_valid.jsonl", "my_test.jsonl", "LICENSE"]);
        assert_eq!(paths(&split_files("x/y", "", &files, None, "validation").unwrap()), ["my_valid.jsonl"]);
        let e = split_files("x/y", "", &files, Some("amh"), "test").unwrap_err();
        assert!(e.message().contains("declares no configs"), "{e}");
    }

    #[test]
    fn hidden_files_and_scripts_are_not_data() {
        let files = listed(&[".hidden/test.csv", "test.csv", "__pycache__/test.csv"]);
        assert_eq!(paths(&split_files("x/y", "", &files, None, "test").unwrap()), ["test.csv"]);
        let e = split_files("x/y", "", &listed(&["y.py", "README.md"]), None, "test").unwrap_err();
        assert!(e.message().contains("loading script"), "{e}");
    }

    #[test]
    fn the_tree_listing_gives_lfs_hashes_and_the_parquet_conversion_its_shards() {
        let json = br#"[{"type":"directory","oid":"1","size":0,"path":"c"},
            {"type":"file","oid":"2","size":134,"path":"c/test.parquet","lfs":{"oid":"AB00000000000000000000000000000000000000000000000000000000000000","size":9000,"pointerSize":134}},
            {"type":"file","oid":"3","size":12,"path":"README.md"}]"#;
        let files = parse_tree(json, "tree").unwrap();
        assert_eq!(files.len(), 2);
        assert_eq!(files[0].size, Some(9000));
        assert_eq!(
            files[0].sha256.as_deref(),
            Some("ab00000000000000000000000000000000000000000000000000000000000000")
        );
        assert_eq!(files[1].sha256, None);
        assert!(parse_tree(b"{\"error\":\"x\"}", "tree").unwrap_err().message().starts_with("tree: not the Hub's"));
        let conv = listed(&["c/test/0001.parquet", "c/test/0000.parquet", "c/validation/0000.parquet"]);
        assert_eq!(
            paths(&parquet_conversion(&conv, Some("c"), "test")),
            ["c/test/0000.parquet", "c/test/0001.parquet"]
        );
        assert!(parquet_conversion(&conv, None, "test").is_empty());
        assert_eq!(
            next_page(r#"<https://huggingface.co/api/datasets/a/b/tree/main?cursor=x>; rel="next""#).as_deref(),
            Some("https://huggingface.co/api/datasets/a/b/tree/main?cursor=x")
        );
    }

    #[test]
    fn urls_encode_revisions_and_paths_and_ids_are_checked() {
        assert_eq!(
            resolve_url("TTimur/kyrgyzMMLU", "refs/convert/parquet", "a b/test.parquet"),
            "https://huggingface.co/datasets/TTimur/kyrgyzMMLU/resolve/refs%2Fconvert%2Fparquet/a%20b/test.parquet"
        );
        assert!(check_dataset_id("TTimur/kyrgyzMMLU").is_ok());
        for bad in ["a", "a/b/c", "../b", "a/..", "https://x/y", "a/b?c"] {
            assert!(check_dataset_id(bad).is_err(), "{bad}");
        }
    }
}
