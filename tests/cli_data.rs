//! `lingualens data check` and `lingualens model-info` as a user runs them: the binary, real files.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

fn shared() -> Option<PathBuf> {
    let dir = std::env::var_os("LINGUALENS_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    if dir.join("datasets").is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var("LINGUALENS_REQUIRE_FIXTURES").as_deref() != Ok("1"),
        "LINGUALENS_REQUIRE_FIXTURES=1 but {} is missing",
        dir.display()
    );
    eprintln!("SKIPPED: {} is not here (the shared datasets)", dir.display());
    None
}

fn lingualens(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_lingualens")).args(args).output().expect("run lingualens");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn data_check_reports_the_dzen_release() {
    let Some(shared) = shared() else { return };
    let dir = shared.join("datasets/dzen/DZEN");
    let (ok, stdout, stderr) = lingualens(&["data", "check", dir.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    let report: Value = serde_json::from_str(&stdout).expect("JSON report");
    assert_eq!(report["files"].as_array().map(Vec::len), Some(15));
    let rows: u64 = report["files"].as_array().unwrap().iter().map(|f| f["rows"].as_u64().unwrap()).sum();
    assert_eq!(rows, 3806, "SOURCE.md: 3,806 evaluation rows");
    // SOURCE.md names these anomalies by file and row.
    let anomalies = report["anomalies"].as_array().unwrap();
    let mentions = |file: &str, row: u64| anomalies.iter().any(|a| a["file"].as_str().is_some_and(|f| f.ends_with(file)) && a["row"] == row);
    assert!(mentions("10th-Physics.csv", 28), "uppercase gold");
    assert!(mentions("8th-Science.csv", 28) && mentions("8th-Science.csv", 145), "`*` gold");
}

#[test]
fn data_check_names_a_missing_path() {
    let (ok, _, stderr) = lingualens(&["data", "check", "/nonexistent/file.csv"]);
    assert!(!ok);
    assert!(stderr.contains("/nonexistent/file.csv"), "{stderr}");
}

#[test]
fn model_info_reads_a_vocab_gguf() {
    let Some(shared) = shared() else { return };
    let path = shared.join("datasets/llama-cpp-vocab/models/ggml-vocab-llama-spm.gguf");
    let (ok, stdout, stderr) = lingualens(&["model-info", "--json", path.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    let info: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(info["architecture"], "llama");
    assert_eq!(info["tokenizer"], "llama");
    assert_eq!(info["vocab_size"], 32000);
    assert_eq!(info["parameters"], 0, "a vocab-only file has no tensors");
}

#[test]
fn model_info_rejects_a_file_that_is_not_gguf() {
    let path = std::env::temp_dir().join(format!("lingualens-not-gguf-{}.bin", std::process::id()));
    std::fs::write(&path, b"PK\x03\x04 definitely a zip file").unwrap();
    let (ok, _, stderr) = lingualens(&["model-info", path.to_str().unwrap()]);
    let _ = std::fs::remove_file(&path);
    assert!(!ok);
    assert!(stderr.contains("not a GGUF file") && stderr.contains("lingualens-not-gguf"), "{stderr}");
}
