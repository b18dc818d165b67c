//! `lingualens eval` against a real lm-evaluation-harness run (`tools/fixtures/lm_eval_run.py`:
//! `lm-eval run --model hf --log_samples` on the llama3_tied fixture model and a task YAML + JSONL
//! written for the test): the same requests, per-sample log-likelihoods within 1e-4, the same
//! is_greedy, acc and acc_norm; and a second run over the same output folder scores nothing again.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

fn fixtures() -> Option<PathBuf> {
    let dir = PathBuf::from(std::env::var_os("LINGUALENS_FIXTURES")?);
    if dir.join("lm_eval/samples_tiny_mc.jsonl").is_file() {
        return Some(dir);
    }
    None
}

fn samples(path: &std::path::Path) -> BTreeMap<u64, Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .map(|v| (v["doc_id"].as_u64().unwrap(), v))
        .collect()
}

fn eval(dir: &std::path::Path, out: &std::path::Path) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_lingualens"))
        .args(["eval", "--model"])
        .arg(dir.join("models/llama3_tied"))
        .arg("--task")
        .arg(dir.join("lm_eval/tiny_mc.yaml"))
        .arg("--data")
        .arg(dir.join("lm_eval/tiny_mc.jsonl"))
        .arg("--out")
        .arg(out)
        .output()
        .expect("run lingualens eval");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "lingualens eval failed:\n{stderr}");
    format!("{}{stderr}", String::from_utf8_lossy(&output.stdout))
}

#[test]
fn eval_matches_lm_eval_sample_by_sample_and_resumes() {
    let Some(dir) = fixtures() else {
        assert!(std::env::var("LINGUALENS_REQUIRE_FIXTURES").as_deref() != Ok("1"), "lm-eval fixtures missing");
        eprintln!("SKIPPED: no lm-eval run (set LINGUALENS_FIXTURES; see tools/fixtures/lm_eval_run.py)");
        return;
    };
    let out = std::env::temp_dir().join(format!("lingualens-eval-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let printed = eval(&dir, &out);
    assert!(printed.contains("acc"), "{printed}");

    let theirs = samples(&dir.join("lm_eval/samples_tiny_mc.jsonl"));
    let ours = samples(&out.join("samples_tiny_mc.jsonl"));
    assert_eq!(ours.keys().collect::<Vec<_>>(), theirs.keys().collect::<Vec<_>>());
    let mut worst = 0f64;
    for (id, t) in &theirs {
        let o = &ours[id];
        assert_eq!(o["arguments"], t["arguments"], "doc {id}: requests");
        for (a, b) in o["filtered_resps"].as_array().unwrap().iter().zip(t["filtered_resps"].as_array().unwrap()) {
            let (la, lb): (f64, f64) = (a[0].as_str().unwrap().parse().unwrap(), b[0].as_str().unwrap().parse().unwrap());
            worst = worst.max((la - lb).abs());
            assert!((la - lb).abs() < 1e-4, "doc {id}: {la} vs {lb}");
            assert_eq!(a[1], b[1], "doc {id}: is_greedy");
        }
        assert_eq!(o["acc"], t["acc"], "doc {id}: acc");
        assert_eq!(o["acc_norm"], t["acc_norm"], "doc {id}: acc_norm");
    }
    let results: Value = serde_json::from_str(&std::fs::read_to_string(out.join("results_tiny_mc.json")).unwrap()).unwrap();
    let mean = theirs.values().map(|s| s["acc"].as_f64().unwrap()).sum::<f64>() / theirs.len() as f64;
    assert!((results["results"]["tiny_mc"]["acc,none"].as_f64().unwrap() - mean).abs() < 1e-12);
    println!("lingualens eval vs lm-eval: {} samples, max |Δ log-likelihood| {worst:.1e}, acc {mean}", theirs.len());

    // Resuming: nothing is scored twice.
    let again = eval(&dir, &out);
    assert!(again.contains(&format!("{} of {} items are already", theirs.len(), theirs.len())), "{again}");
    assert_eq!(samples(&out.join("samples_tiny_mc.jsonl")).len(), theirs.len());
    let lines = std::fs::read_to_string(out.join("samples_tiny_mc.jsonl")).unwrap().lines().count();
    assert_eq!(lines, theirs.len(), "a resumed run appended duplicates");
    let _ = std::fs::remove_dir_all(&out);
}
