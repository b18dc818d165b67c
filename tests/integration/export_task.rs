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
    let status = lm_eval(
        &python,
        &model,
        task,
        &exported,
        &["--num_fewshot", &shots.to_string(), "--limit", &limit.to_string()],
        &run,
    );
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
    let worst = assert_same_samples(task, &ours_dir.join(format!("samples_{task}.jsonl")), &theirs_path);
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

/// `lm-eval run` of `tasks` from `include` with the hf model on the CPU, samples logged to `out`.
fn lm_eval(
    python: &Path,
    model: &Path,
    tasks: &str,
    include: &Path,
    extra: &[&str],
    out: &Path,
) -> std::process::ExitStatus {
    Command::new(python)
        .args(["-m", "lm_eval", "run", "--model", "hf", "--model_args"])
        .arg(format!("pretrained={},dtype=float32", model.display()))
        .args(["--tasks", tasks, "--include_path", s(include), "--device", "cpu", "--batch_size", "1"])
        .args(extra)
        .args(["--log_samples", "--output_path", s(out)])
        .envs([("HF_HUB_OFFLINE", "1"), ("HF_DATASETS_OFFLINE", "1"), ("TRANSFORMERS_OFFLINE", "1")])
        .stdout(std::process::Stdio::null())
        .status()
        .expect("run lm-eval")
}

/// lingualens's samples and lm-eval's for the same task: the same documents and requests,
/// log-likelihoods within 2e-4 (or 2e-5 relative), the same acc and acc_norm. The largest
/// difference.
fn assert_same_samples(task: &str, ours: &Path, theirs: &Path) -> f64 {
    let theirs = samples(theirs);
    let ours = samples(ours);
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
    worst
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

/// `export-task --experiment`: an experiment of three runs (DZEN English at 0 and 2 shots, Dzongkha
/// cloze at its own count) becomes an lm-eval group; stock lm-eval runs the group and every run's
/// samples equal those of `lingualens suite` on the same experiment; the group's mean is lm-eval's
/// own of the runs. An experiment with a choice order is refused, naming the run.
#[test]
fn an_exported_experiment_runs_in_lm_eval_as_a_group_as_the_suite_does() {
    let Some((model, python)) = setup() else { return };
    let Some(dzen) = dzen() else { return };
    let dir = std::env::temp_dir().join(format!("lingualens-export-group-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let experiment = dir.join("three.yaml");
    std::fs::write(
        &experiment,
        "experiment: three\ndescription: three runs\nruns:\n  - {name: en_0, task: dzen_en, shots: 0}\n  - {name: en_2, task: dzen_en, shots: 2}\n  - {name: dz, task: dzen_dz_cloze}\ncompare:\n  - [en_0, dz]\n",
    )
    .unwrap();
    let exported = dir.join("exported");
    lingualens(&["export-task", "--experiment", s(&experiment), "--data", s(&dzen), "--out", s(&exported)]);
    let run = dir.join("lm_eval");
    assert!(lm_eval(&python, &model, "three", &exported, &["--limit", "3"], &run).success(), "lm-eval on the group");
    let suite = dir.join("suite");
    lingualens(&[
        "suite",
        s(&experiment),
        "--model",
        s(&model),
        "--data",
        s(&dzen),
        "--limit",
        "3",
        "--out",
        s(&suite),
    ]);
    let mut accuracies = Vec::new();
    for (name, task) in [("en_0", "dzen_en"), ("en_2", "dzen_en"), ("dz", "dzen_dz_cloze")] {
        let theirs =
            find(&run, &format!("samples_three_{name}_")).unwrap_or_else(|| panic!("no lm-eval samples for {name}"));
        let ours = suite.join(name).join(format!("samples_{task}.jsonl"));
        assert_same_samples(name, &ours, &theirs);
        let lines = samples(&theirs);
        let context = lines[&0]["arguments"]["gen_args_0"]["arg_0"].as_str().unwrap().to_string();
        let shots = [("en_0", 0), ("en_2", 2)].into_iter().find(|(n, _)| *n == name).map(|(_, k)| k);
        if let Some(k) = shots {
            assert_eq!(
                context.matches("Answer:").count(),
                k + 1,
                "{name}: the run's shots in lm-eval's prompt: {context:?}"
            );
        }
        accuracies.push(lines.values().map(|l| l["acc"].as_f64().unwrap()).sum::<f64>() / lines.len() as f64);
    }
    let results: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(find(&run, "results_").unwrap()).unwrap()).unwrap();
    let mean = accuracies.iter().sum::<f64>() / 3.0;
    let group = results["groups"]["three"]["acc,none"].as_f64().unwrap();
    assert!((group - mean).abs() < 1e-9, "the group's acc {group} is the runs' mean {mean}");

    let out = Command::new(env!("CARGO_BIN_EXE_lingualens"))
        .args(["export-task", "--experiment", "proverbeval_choice_order_amh", "--out", s(&dir.join("no"))])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("run `gold_first`") && err.contains("lingualens suite"), "{err}");
    assert!(!dir.join("no").exists(), "nothing written");
    let _ = std::fs::remove_dir_all(&dir);
}
