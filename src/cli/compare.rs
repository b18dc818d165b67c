//! `lingualens compare A B`: two runs of the same items, compared item by item
//! (`scoring::paired`): the difference in accuracy with its 95 % interval and the exact McNemar
//! test on the items that flipped. A run is its lm-eval samples file (`samples_TASK.jsonl`, as
//! lingualens and lm-eval write them) or the output folder holding one; items are matched by
//! `doc_id` (for a run of several choice orders per item, also by `variant`; for a generation task
//! with several filters, also by `filter`), so that a run in one order compares with a run in
//! another, and a chain-of-thought run with a plain one.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::scoring::paired::{paired_comparison, PairedComparison};
use crate::{bail, Error, Result};

/// A run's verdict per item, keyed by (doc_id, variant and filter where they vary).
pub(super) type Verdicts = BTreeMap<(u64, String), bool>;

pub struct CompareArgs {
    pub a: PathBuf,
    pub b: PathBuf,
    /// The per-item metric to compare: 0 or 1 per sample (`acc`, `acc_norm`, `exact_match`, …).
    pub metric: String,
    pub json: bool,
}

pub fn run(args: &CompareArgs) -> Result<()> {
    let (a_file, a) = verdicts(&args.a, &args.metric)?;
    let (b_file, b) = verdicts(&args.b, &args.metric)?;
    let keys: Vec<&(u64, String)> = a.keys().filter(|k| b.contains_key(*k)).collect();
    if keys.is_empty() {
        bail!(
            "{} and {} have no item in common (matched by doc_id): they are not runs of the same items",
            a_file.display(),
            b_file.display()
        );
    }
    let pick = |run: &Verdicts| keys.iter().map(|k| run[*k]).collect::<Vec<bool>>();
    let c = paired_comparison(&pick(&a), &pick(&b))?;
    let only_in = |x: &Verdicts, y: &Verdicts| x.keys().filter(|k| !y.contains_key(*k)).count();
    let (only_in_a, only_in_b) = (only_in(&a, &b), only_in(&b, &a));
    if args.json {
        let value = serde_json::json!({
            "a": a_file, "b": b_file, "metric": args.metric, "items": c.n,
            "items_only_in_a": only_in_a, "items_only_in_b": only_in_b,
            "accuracy_a": c.accuracy_a, "accuracy_b": c.accuracy_b, "difference": c.difference,
            "ci95": c.ci95.map(|(lo, hi)| [lo, hi]),
            "both_right": c.both_right, "both_wrong": c.both_wrong, "only_a": c.only_a, "only_b": c.only_b,
            "mcnemar_p": c.mcnemar_p,
        });
        println!("{}", serde_json::to_string_pretty(&value).map_err(|e| Error::new(e.to_string()))?);
    } else {
        print!("{}", describe(&c, &a_file, &b_file, &args.metric, only_in_a, only_in_b));
    }
    Ok(())
}

fn describe(c: &PairedComparison, a: &Path, b: &Path, metric: &str, only_in_a: usize, only_in_b: usize) -> String {
    let mut text = format!(
        "A: {} ({metric} {:.4})\nB: {} ({metric} {:.4})\nitems in both: {}",
        a.display(),
        c.accuracy_a,
        b.display(),
        c.accuracy_b,
        c.n
    );
    if only_in_a + only_in_b > 0 {
        text += &format!(" (left out: {only_in_a} only in A, {only_in_b} only in B)");
    }
    text += &format!("\ndifference B − A: {:+.4}", c.difference);
    if let Some((lo, hi)) = c.ci95 {
        text += &format!(" (95 % interval {lo:+.4} to {hi:+.4})");
    }
    text += &format!(
        "\nflipped: {} right in A only, {} right in B only; both right {}, both wrong {}\nexact McNemar p = {:.4}{}\n",
        c.only_a,
        c.only_b,
        c.both_right,
        c.both_wrong,
        c.mcnemar_p,
        if c.only_a + c.only_b == 0 { " (no item flipped)" } else { "" }
    );
    text
}

/// A run's verdicts by item (doc_id, and variant and filter where a run has several per document):
/// its samples file (or the one samples file in a folder).
pub(super) fn verdicts(path: &Path, metric: &str) -> Result<(PathBuf, Verdicts)> {
    let file = if path.is_dir() {
        let mut found: Vec<PathBuf> = std::fs::read_dir(path)
            .map_err(|e| Error::new(format!("{}: {e}", path.display())))?
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("samples_") && n.ends_with(".jsonl"))
            })
            .collect();
        found.sort();
        match found.len() {
            1 => found.remove(0),
            0 => bail!("{}: no samples_*.jsonl in this folder", path.display()),
            _ => bail!(
                "{}: several samples files ({}); name the one to compare",
                path.display(),
                found.iter().filter_map(|p| p.file_name()?.to_str()).collect::<Vec<_>>().join(", ")
            ),
        }
    } else {
        path.to_path_buf()
    };
    let text = std::fs::read_to_string(&file).map_err(|e| Error::new(format!("{}: {e}", file.display())))?;
    // (line, doc_id, variant, filter, verdict)
    let mut lines = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let at = format!("{}:{}", file.display(), i + 1);
        let sample: serde_json::Value =
            serde_json::from_str(line).map_err(|e| Error::new(format!("{at}: not a JSON line: {e}")))?;
        let Some(doc_id) = sample["doc_id"].as_u64() else { bail!("{at}: no doc_id") };
        let part = |key: &str| match &sample[key] {
            serde_json::Value::Null => String::new(),
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let verdict = match sample[metric].as_f64() {
            Some(v) if v == 0.0 || v == 1.0 => v == 1.0,
            Some(v) => bail!("{at}: {metric} is {v}, not 0 or 1: compare a metric that is right or wrong per item"),
            None => bail!("{at}: no {metric} in this sample (give --metric, e.g. acc_norm or exact_match)"),
        };
        lines.push((at, doc_id, part("variant"), part("filter"), verdict));
    }
    if lines.is_empty() {
        bail!("{}: no samples", file.display());
    }
    // A run in one choice order (given, gold first, …) is keyed by its documents alone, so that two
    // orders compare; a run of several orders per item (shuffles, rotations) by document and order.
    // Likewise a generation task with several filters has a line per filter, compared filter by filter;
    // with one, it compares with a multiple-choice run of the same documents.
    let several_variants = lines.iter().any(|l| l.2 != lines[0].2);
    let several_filters = lines.iter().any(|l| l.3 != lines[0].3);
    let mut out = BTreeMap::new();
    for (at, doc_id, variant, filter, verdict) in lines {
        let key = (
            doc_id,
            format!(
                "{}|{}",
                if several_variants { variant.as_str() } else { "" },
                if several_filters { filter.as_str() } else { "" }
            ),
        );
        if out.insert(key, verdict).is_some() {
            bail!("{at}: doc_id {doc_id} appears twice (variant {variant:?}, filter {filter:?})");
        }
    }
    Ok((file, out))
}
