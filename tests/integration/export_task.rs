//! `lingualens export-task` taken to stock lm-evaluation-harness: the built-in `dzen_en` (over the
//! real DZEN CSVs) and `kyrgyz_mmlu` (over a KyrgyzMMLU-shaped table written here) are exported,
//! `lm-eval run --model hf --include_path DIR` runs the exported folder unchanged on the
//! llama3_tied fixture model, and `lingualens eval` runs the built-in task on the same model: the
//! same requests (contexts with few-shot examples, continuations), per-sample log-likelihoods within
//! 2e-4 (or 2e-5 relative), the same acc and acc_norm.
//!
//! Needs `LINGUALENS_FIXTURES` (the models), `LINGUALENS_PYTHON` (a Python with lm-eval 0.4.13, the
//! test command's venv) and `../shared` (`LINGUALENS_SHARED`) for DZEN; without them it says it was
//! skipped, or fails under `LINGUALENS_REQUIRE_FIXTURES=1`.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::samples::by_doc as samples;

/// The llama3_tied fixture model and `$LINGUALENS_PYTHON`, or `None` after saying what is missing.
fn setup() -> Option<(PathBuf, PathBuf)> {
    let model = common::fixture("export_task", "models/llama3_tied/model.safetensors", "tools/fixtures/models.py")?;
    let Some(python) = std::env::var_os("LINGUALENS_PYTHON").map(PathBuf::from).filter(|p| p.is_file()) else {
        common::skip("export_task", "LINGUALENS_PYTHON (a Python with lm-eval 0.4.13) is not set or not a file");
        return None;
    };
    Some((model.parent().unwrap().to_path_buf(), python))
}

fn dzen() -> Option<PathBuf> {
    common::shared("export_task", "datasets/dzen/DZEN").map(|d| d.parent().unwrap().to_path_buf())
}

fn lingualens(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_lingualens")).args(args).output().expect("run lingualens");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "lingualens {args:?} failed:\n{text}");
    text
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Exports `task` (with `data`), runs lm-eval on the folder and lingualens on the built-in task, both
/// with `shots` examples over the first `limit` documents, and compares them sample by sample.
fn compare(name: &str, task: &str, data: &[&Path], shots: usize, limit: usize) {
    let Some((model, python)) = setup() else { return };
    let dir = std::env::temp_dir().join(format!("lingualens-export-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let exported = dir.join("exported");
    let mut args = vec!["export-task", task, "--out", s(&exported)];
    for d in data {
        args.extend(["--data", s(d)]);
    }
    lingualens(&args);

    let run = dir.join("lm_eval");
    let status = Command::new(&python)
        .args(["-m", "lm_eval", "run", "--model", "hf", "--model_args"])
        .arg(format!("pretrained={},dtype=float32", model.display()))
        .args(["--tasks", task, "--include_path", s(&exported), "--device", "cpu", "--batch_size", "1"])
        .args([
            "--num_fewshot",
            &shots.to_string(),
            "--limit",
            &limit.to_string(),
            "--log_samples",
            "--output_path",
            s(&run),
        ])
        .envs([("HF_HUB_OFFLINE", "1"), ("HF_DATASETS_OFFLINE", "1"), ("TRANSFORMERS_OFFLINE", "1")])
        .stdout(std::process::Stdio::null())
        .status()
        .expect("run lm-eval");
    assert!(status.success(), "lm-eval on the exported {task} failed");
    let theirs_path =
        find(&run, &format!("samples_{task}_")).unwrap_or_else(|| panic!("lm-eval wrote no samples for {task}"));

    let ours_dir = dir.join("lingualens");
    let (shots, limit) = (shots.to_string(), limit.to_string());
    let mut args =
        vec!["eval", "--model", s(&model), "--task", task, "--shots", &shots, "--limit", &limit, "--out", s(&ours_dir)];
    for d in data {
        args.extend(["--data", s(d)]);
    }
    lingualens(&args);

    let theirs = samples(&theirs_path);
    let ours = samples(&ours_dir.join(format!("samples_{task}.jsonl")));
    assert_eq!(ours.keys().collect::<Vec<_>>(), theirs.keys().collect::<Vec<_>>(), "{task}: documents");
    let mut worst = 0f64;
    for (id, t) in &theirs {
        let o = &ours[id];
        assert_eq!(o["arguments"], t["arguments"], "{task} doc {id}: requests");
        for (a, b) in o["filtered_resps"].as_array().unwrap().iter().zip(t["filtered_resps"].as_array().unwrap()) {
            let ll = |v: &serde_json::Value| -> f64 { v[0].as_str().unwrap().parse().unwrap() };
            let (x, y) = (ll(a), ll(b));
            worst = worst.max((x - y).abs());
            assert!((x - y).abs() <= 2e-4 || (x - y).abs() <= 2e-5 * y.abs(), "{task} doc {id}: {x} vs lm-eval {y}");
        }
        for m in ["acc", "acc_norm"] {
            assert_eq!(o[m], t[m], "{task} doc {id}: {m}");
        }
    }
    let shown =
        theirs.values().next().map(|t| t["arguments"]["gen_args_0"]["arg_0"].as_str().unwrap_or("").to_string());
    assert!(
        shots == "0" || shown.is_some_and(|c| c.matches("Answer:").count() + c.matches("Жооп:").count() > 1),
        "the examples are in the prompt"
    );
    println!(
        "{task}: exported and run by lm-eval: {} samples equal to lingualens eval, max |Δ log-likelihood| {worst:.1e}",
        theirs.len()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn find(dir: &Path, prefix: &str) -> Option<PathBuf> {
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let p = entry.path();
        if p.is_dir() {
            if let Some(f) = find(&p, prefix) {
                return Some(f);
            }
        } else if p.file_name().is_some_and(|n| n.to_string_lossy().starts_with(prefix)) {
            return Some(p);
        }
    }
    None
}

#[test]
fn exported_dzen_en_runs_in_lm_eval_as_in_lingualens() {
    let Some(dzen) = dzen() else { return };
    compare("dzen", "dzen_en", &[&dzen], 2, 6);
}

#[test]
fn exported_kyrgyz_mmlu_runs_in_lm_eval_as_in_lingualens() {
    let dir = std::env::temp_dir().join(format!("lingualens-export-kg-data-{}", std::process::id()));
    let cfg = dir.join("kyrgyz_mmlu_biology");
    std::fs::create_dir_all(&cfg).unwrap();
    let header = "Суроо (KG),А (KG),Б (KG),В (KG),Г (KG),Туура жооп,Класс\n";
    std::fs::write(
        cfg.join("test.csv"),
        format!("{header}Кыргызстандын борбору кайсы?,Ош,Бишкек,Нарын,Талас,б,9\n2 + 2 = ?,3,4,5,6,Б,10\nСуу кайсы?,H2O,CO2,O2,N2,а,10\nКүн кайсы?,Жылдыз,Планета,Ай,Комета,а,9\n"),
    )
    .unwrap();
    std::fs::write(
        cfg.join("validation.csv"),
        format!("{header}Ай эмне?,Жылдыз,Спутник,Планета,Комета,б,9\nТоо кайсы?,Хан-Теңири,Ысык-Көл,Чүй,Нарын,а,9\n"),
    )
    .unwrap();
    compare("kg", "kyrgyz_mmlu", &[&cfg.join("test.csv"), &cfg.join("validation.csv")], 1, 4);
    let _ = std::fs::remove_dir_all(&dir);
}
