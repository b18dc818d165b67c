//! lm-eval's samples JSONL files (and ours, which have the same lines), keyed by `doc_id`.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

/// Every sample line of `path`, by its `doc_id`.
pub fn by_doc(path: &Path) -> BTreeMap<u64, Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .map(|v| (v["doc_id"].as_u64().unwrap(), v))
        .collect()
}
