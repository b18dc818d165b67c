//! `lingualens eval` as a user runs it: a built-in task found by name over the real DZEN CSVs (with
//! `--limit`, few-shot exemplars, the summary's breakdowns, position bias and fertility), the
//! choice-order variants (gold first, rotations, seeded shuffles), resuming a variant run, and the
//! messages for bad input. Models: the tiny fixtures of `tools/fixtures/models.py`.
//!
//! Needs `LINGUALENS_FIXTURES`; the DZEN tests also `shared/datasets/dzen` (through
//! `LINGUALENS_SHARED`, default `../shared`). Without them a test says it was skipped; with
//! `LINGUALENS_REQUIRE_FIXTURES=1` it fails instead.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::common;

fn model() -> Option<PathBuf> {
    common::fixture("cli_eval", "models/llama3_tied/model.safetensors", "tools/fixtures/models.py")
        .map(|f| f.parent().unwrap().to_path_buf())
}

/// The fixtures folder, if it has the lm-eval fixtures.
fn fixtures() -> Option<PathBuf> {
    common::fixture("cli_eval", "lm_eval/tiny_mc.jsonl", "tools/fixtures/lm_eval_run.py")
        .map(|f| f.parent().unwrap().parent().unwrap().to_path_buf())
}

fn dzen() -> Option<PathBuf> {
    common::shared("cli_eval", "datasets/dzen/DZEN").map(|d| d.parent().unwrap().to_path_buf())
}

/// Runs `lingualens eval ARGS`: (success, stdout, stderr).
fn eval(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_lingualens")).arg("eval").args(args).output().expect("run lingualens");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn eval_ok(args: &[&str]) -> String {
    let (ok, stdout, stderr) = eval(args);
    assert!(ok, "lingualens eval {args:?} failed:\n{stderr}");
    format!("{stdout}{stderr}")
}

fn out_dir(name: &str) -> PathBuf {
    let out = std::env::temp_dir().join(format!("lingualens-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    out
}

fn samples(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The one `samples_*.jsonl` of an output folder.
fn samples_file(dir: &Path) -> PathBuf {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.file_name().unwrap().to_str().unwrap().starts_with("samples_"))
        .unwrap_or_else(|| panic!("{}: no samples file", dir.display()))
}

/// An output folder's `acc` per document: right or not.
fn verdicts(dir: &Path) -> BTreeMap<u64, bool> {
    samples(&samples_file(dir))
        .iter()
        .map(|l| (l["doc_id"].as_u64().unwrap(), l["acc"].as_f64().unwrap() == 1.0))
        .collect()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_builtin_dzen_task_by_name_over_the_real_csvs() {
    let Some(model) = model() else { return };
    let Some(dzen) = dzen() else { return };
    let out = out_dir("dzen");
    let printed = eval_ok(&[
        "--model",
        s(&model),
        "--task",
        "dzen_en",
        "--data",
        s(&dzen),
        "--limit",
        "10",
        "--shots",
        "2",
        "--out",
        s(&out),
    ]);

    let lines = samples(&out.join("samples_dzen_en.jsonl"));
    assert_eq!(lines.len(), 10);
    let english_test_items = lingualens::tasks::dzen::load_dzen_dir(&dzen)
        .unwrap()
        .items
        .iter()
        .filter(|i| i.language == "en" && !i.metadata.contains_key("split"))
        .count();
    let results: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results_dzen_en.json")).unwrap()).unwrap();
    assert_eq!(results["n-samples"]["dzen_en"]["original"], english_test_items);
    assert_eq!(results["n-samples"]["dzen_en"]["effective"], 10);
    assert_eq!(results["n-shot"]["dzen_en"], 2);
    for l in &lines {
        let context = l["arguments"]["gen_args_0"]["arg_0"].as_str().unwrap();
        assert_eq!(context.matches("Answer:").count(), 3, "two exemplars and the question: {context:?}");
        assert_eq!(l["doc"]["language"], "en");
    }
    let acc = lines.iter().map(|l| l["acc"].as_f64().unwrap()).sum::<f64>() / 10.0;
    assert!((results["results"]["dzen_en"]["acc,none"].as_f64().unwrap() - acc).abs() < 1e-12);

    // The summary: every metadata field, the position bias, fertility for English.
    for expected in
        ["acc,none", "by subject:", "by grade:", "by language:", "position bias", "tokenizer fertility", "  en "]
    {
        assert!(printed.contains(expected), "{expected:?} not in:\n{printed}");
    }
    let csv = std::fs::read_to_string(out.join("items_dzen_en.csv")).unwrap();
    assert_eq!(csv.lines().count(), 11);
    assert!(csv.lines().next().unwrap().contains("meta.subject"), "{csv}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn gold_first_and_rotations_move_the_listed_options_on_dzen() {
    let Some(model) = model() else { return };
    let Some(dzen) = dzen() else { return };
    let out = out_dir("gold-first");
    eval_ok(&[
        "--model",
        s(&model),
        "--task",
        "dzen_dz_en",
        "--data",
        s(&dzen),
        "--limit",
        "6",
        "--order",
        "gold-first",
        "--out",
        s(&out),
    ]);
    let given_dir = out_dir("given");
    eval_ok(&[
        "--model",
        s(&model),
        "--task",
        "dzen_dz_en",
        "--data",
        s(&dzen),
        "--limit",
        "6",
        "--out",
        s(&given_dir),
    ]);
    let given = samples(&given_dir.join("samples_dzen_dz_en.jsonl"));
    let moved = samples(&out.join("samples_dzen_dz_en.jsonl"));
    assert_eq!(moved.len(), 6);
    for (g, m) in given.iter().zip(&moved) {
        assert_eq!(m["target"], "0", "gold first for every item");
        assert_eq!(m["doc"]["answer"], 0);
        let gold = g["doc"]["answer"].as_u64().unwrap() as usize;
        let gold_text = g["doc"]["choices"][gold].as_str().unwrap();
        let gold_en = g["doc"]["choices_en"][gold].as_str().unwrap();
        // The prompt lists the gold option (Dzongkha and its English translation) as A.
        let context = m["arguments"]["gen_args_0"]["arg_0"].as_str().unwrap();
        assert!(context.contains(&format!("A. {gold_text}\n")), "{context:?}");
        assert!(
            context.contains(&"English translation:".to_string()) && context.contains(&format!("A. {gold_en}\n")),
            "{context:?}"
        );
        assert_eq!(m["permutation"][0], gold);
        assert_eq!(m["variant"], 0);
    }

    // Rotations: one run per option; the gold visits every position once.
    let rot = out_dir("rotations");
    let args = [
        "--model",
        s(&model),
        "--task",
        "dzen_en",
        "--data",
        s(&dzen),
        "--limit",
        "3",
        "--order",
        "rotations",
        "--out",
        s(&rot),
    ];
    let printed = eval_ok(&args);
    assert!(printed.contains("right in every choice order"), "{printed}");
    let lines = samples(&rot.join("samples_dzen_en.jsonl"));
    let mut by_doc: BTreeMap<u64, Vec<&Value>> = BTreeMap::new();
    for l in &lines {
        by_doc.entry(l["doc_id"].as_u64().unwrap()).or_default().push(l);
    }
    assert_eq!(by_doc.len(), 3);
    for (doc, runs) in &by_doc {
        let n = runs[0]["doc"]["choices"].as_array().unwrap().len();
        assert_eq!(runs.len(), n, "doc {doc}: one run per rotation");
        let targets: BTreeSet<String> = runs.iter().map(|r| r["target"].as_str().unwrap().to_string()).collect();
        assert_eq!(targets, (0..n).map(|i| i.to_string()).collect(), "doc {doc}: gold at every position once");
    }
    // Resuming a variant run scores nothing twice.
    let again = eval_ok(&args);
    assert!(again.contains(&format!("{} of {} items are already", lines.len(), lines.len())), "{again}");
    assert_eq!(samples(&rot.join("samples_dzen_en.jsonl")).len(), lines.len());
    for d in [out, given_dir, rot] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn seeded_shuffles_are_reproducible_and_differ_across_seeds() {
    let Some(dir) = fixtures() else { return };
    let model = dir.join("models/llama3_tied");
    let task = dir.join("lm_eval/tiny_mc.yaml");
    let run = |seed: &str, name: &str| -> Vec<(u64, u64, Value, Value)> {
        let out = out_dir(name);
        eval_ok(&["--model", s(&model), "--task", s(&task), "--order", "shuffle:3", "--seed", seed, "--out", s(&out)]);
        let lines = samples(&out.join("samples_tiny_mc.jsonl"));
        let _ = std::fs::remove_dir_all(&out);
        lines
            .iter()
            .map(|l| {
                (
                    l["doc_id"].as_u64().unwrap(),
                    l["variant"].as_u64().unwrap(),
                    l["permutation"].clone(),
                    l["arguments"].clone(),
                )
            })
            .collect()
    };
    let a = run("7", "shuffle-a");
    assert_eq!(a.len(), 8 * 3, "three shuffles of each of the 8 items");
    assert_eq!(a, run("7", "shuffle-b"), "the same seed gives the same orders and requests");
    let c = run("8", "shuffle-c");
    assert_ne!(
        a.iter().map(|x| &x.2).collect::<Vec<_>>(),
        c.iter().map(|x| &x.2).collect::<Vec<_>>(),
        "another seed, other orders"
    );
    // The scored continuations follow the permutation.
    let given: Vec<Value> = std::fs::read_to_string(dir.join("lm_eval/tiny_mc.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for (doc_id, _, perm, args) in &a {
        let choices = given[*doc_id as usize]["choices"].as_array().unwrap();
        for (pos, original) in perm.as_array().unwrap().iter().enumerate() {
            let cont = args[format!("gen_args_{pos}")]["arg_1"].as_str().unwrap();
            assert_eq!(cont, format!(" {}", choices[original.as_u64().unwrap() as usize].as_str().unwrap()));
        }
    }
}

#[test]
fn bad_input_gets_a_message_naming_what_is_wrong() {
    let no_model = "/nonexistent/model";
    let (ok, _, err) = eval(&["--model", no_model, "--task", "no_such_task", "--out", "/tmp/x"]);
    assert!(!ok && err.contains("no built-in task of that name") && err.contains("dzen_en"), "{err}");
    let (ok, _, err) = eval(&["--model", no_model, "--task", "dzen_en", "--order", "sideways", "--out", "/tmp/x"]);
    assert!(!ok && err.contains("--order") && err.contains("unknown choice order \"sideways\""), "{err}");
    // A task of lingualens items whose benchmark is not kept, --offline: what to do, named (fetched
    // without --offline: tests/integration/cli_data.rs).
    let cache = common::TempDir::new("offline-cache");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_lingualens"))
        .args(["eval", "--model", no_model, "--task", "kyrgyz_mmlu", "--offline", "--out", "/tmp/x"])
        .env("LINGUALENS_CACHE", &cache.path)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains("--offline, and the data of kyrgyzllm-mmlu is not kept")
            && err.contains("give the files with --data"),
        "{err}"
    );
    let (ok, _, err) = eval(&[
        "--model",
        no_model,
        "--task",
        "amh_generation_native",
        "--order",
        "rotations",
        "--data",
        "x.csv",
        "--out",
        "/tmp/x",
    ]);
    assert!(!ok && err.contains("choice orders apply to multiple-choice tasks"), "{err}");
    let empty = std::env::temp_dir().join(format!("lingualens-cli-empty-{}.jsonl", std::process::id()));
    std::fs::write(&empty, "").unwrap();
    let (ok, _, err) = eval(&["--model", no_model, "--task", "kyrgyz_mmlu", "--data", s(&empty), "--out", "/tmp/x"]);
    assert!(!ok && err.contains("no documents to evaluate in the `test` split"), "{err}");
    let _ = std::fs::remove_file(&empty);
    if let Some(dzen) = dzen() {
        let (ok, _, err) = eval(&[
            "--model",
            no_model,
            "--task",
            "dzen_en",
            "--data",
            s(&dzen),
            "--out",
            &std::env::temp_dir().join("lingualens-cli-nomodel").display().to_string(),
        ]);
        assert!(!ok && err.contains("/nonexistent/model"), "{err}");
    }
}

#[test]
fn kyrgyz_mmlu_table_files_with_a_validation_split_for_shots() {
    let Some(model) = model() else { return };
    let dir = out_dir("kg-data");
    let cfg = dir.join("kyrgyz_mmlu_biology");
    std::fs::create_dir_all(&cfg).unwrap();
    let header = "Суроо (KG),А (KG),Б (KG),В (KG),Г (KG),Туура жооп,Класс\n";
    std::fs::write(
        cfg.join("test.csv"),
        format!("{header}Кыргызстандын борбору кайсы?,Ош,Бишкек,Нарын,Талас,б,9\n2 + 2 = ?,3,4,5,,Б,10\nСуу кайсы?,H2O,CO2,O2,N2,а,10\n"),
    )
    .unwrap();
    std::fs::write(cfg.join("validation.csv"), format!("{header}Күн кайсы?,Жылдыз,Планета,Ай,Комета,а,9\n")).unwrap();
    let out = out_dir("kg");
    let printed = eval_ok(&[
        "--model",
        s(&model),
        "--task",
        "kyrgyz_mmlu",
        "--data",
        s(&cfg.join("test.csv")),
        "--data",
        s(&cfg.join("validation.csv")),
        "--shots",
        "1",
        "--order",
        "gold-last",
        "--out",
        s(&out),
    ]);
    let lines = samples(&out.join("samples_kyrgyz_mmlu.jsonl"));
    assert_eq!(lines.len(), 3, "the test split only");
    for l in &lines {
        let context = l["arguments"]["gen_args_0"]["arg_0"].as_str().unwrap();
        assert!(
            context.starts_with("Суроо: Күн кайсы?\n\nА. Жылдыз\n"),
            "the validation item is the exemplar: {context:?}"
        );
        let n = l["doc"]["choices"].as_array().unwrap().len();
        assert_eq!(l["target"], (n - 1).to_string(), "gold last");
    }
    // The third item had gold А (H2O): with gold last it is listed as Г.
    let third = lines[2]["arguments"]["gen_args_0"]["arg_0"].as_str().unwrap();
    assert!(third.ends_with("Суроо: Суу кайсы?\n\nА. CO2\nБ. O2\nВ. N2\nГ. H2O\n\nЖооп:"), "{third:?}");
    for expected in ["by subject:", "biology", "by grade:", "by language:", "  ky "] {
        assert!(printed.contains(expected), "{expected:?} not in:\n{printed}");
    }
    for d in [dir, out] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn a_hub_tasks_few_shot_split_comes_from_fewshot_data_or_the_run_is_refused() {
    let Some(model) = model() else { return };
    let dir = out_dir("hub-fewshot");
    std::fs::create_dir_all(&dir).unwrap();
    // gsm8k's shape: a Hub dataset, examples from `train`, the `test` split evaluated.
    let task = dir.join("hub_mc.yaml");
    std::fs::write(
        &task,
        "task: hub_mc\ndataset_path: someone/hub_mc\ntest_split: test\nfewshot_split: train\nnum_fewshot: 1\noutput_type: multiple_choice\ndoc_to_text: 'Q: {{question}}\nA:'\ndoc_to_choice: choices\ndoc_to_target: answer\n",
    )
    .unwrap();
    let test = dir.join("test.jsonl");
    std::fs::write(&test, "{\"question\": \"2 + 2?\", \"choices\": [\"3\", \"4\"], \"answer\": 1}\n{\"question\": \"Sky?\", \"choices\": [\"blue\", \"red\"], \"answer\": 0}\n").unwrap();
    let train = dir.join("train.jsonl");
    std::fs::write(&train, "{\"question\": \"Fish live in?\", \"choices\": [\"air\", \"water\"], \"answer\": 1}\n")
        .unwrap();
    let out = out_dir("hub-fewshot-out");
    let (ok, _, err) = eval(&["--model", s(&model), "--task", s(&task), "--data", s(&test), "--out", s(&out)]);
    assert!(!ok && err.contains("split `train`") && err.contains("--fewshot-data"), "{err}");
    let _ = std::fs::remove_dir_all(&out);
    eval_ok(&[
        "--model",
        s(&model),
        "--task",
        s(&task),
        "--data",
        s(&test),
        "--fewshot-data",
        s(&train),
        "--out",
        s(&out),
    ]);
    let lines = samples(&out.join("samples_hub_mc.jsonl"));
    assert_eq!(lines.len(), 2, "the test split only");
    for l in &lines {
        let context = l["arguments"]["gen_args_0"]["arg_0"].as_str().unwrap();
        assert!(context.starts_with("Q: Fish live in? A: water\n\nQ: "), "the train example: {context:?}");
        assert_eq!(context.matches("Q: ").count(), 2, "{context:?}");
    }
    // --shots 0 needs no few-shot file.
    let _ = std::fs::remove_dir_all(&out);
    eval_ok(&["--model", s(&model), "--task", s(&task), "--data", s(&test), "--shots", "0", "--out", s(&out)]);
    // A bad --gen_kwargs is refused with lm-eval's syntax named.
    let (ok, _, err) = eval(&[
        "--model",
        s(&model),
        "--task",
        s(&task),
        "--data",
        s(&test),
        "--gen_kwargs",
        "max_gen_toks",
        "--out",
        s(&out),
    ]);
    assert!(!ok && err.contains("expected `key=value`"), "{err}");
    for d in [dir, out] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn a_metric_lingualens_cannot_compute_is_named_in_the_warnings_and_the_results_file() {
    // lm-eval accepts a metric_list entry it knows for another task type (here `bleu` on a
    // multiple-choice task) or from a plugin; lingualens runs what it can and says what it left out.
    let Some(model) = model() else { return };
    let dir = out_dir("metric-warning");
    std::fs::create_dir_all(&dir).unwrap();
    let task = dir.join("warned_mc.yaml");
    std::fs::write(
        &task,
        "task: warned_mc\ndataset_path: json\ntest_split: test\noutput_type: multiple_choice\ndoc_to_text: 'Q: {{question}}\nA:'\ndoc_to_choice: choices\ndoc_to_target: answer\nmetric_list:\n  - metric: acc\n  - metric: bleu\n  - metric: made_up_metric\n",
    )
    .unwrap();
    let test = dir.join("test.jsonl");
    std::fs::write(&test, "{\"question\": \"2 + 2?\", \"choices\": [\"3\", \"4\"], \"answer\": 1}\n").unwrap();
    let out = out_dir("metric-warning-out");
    let printed = eval_ok(&["--model", s(&model), "--task", s(&task), "--data", s(&test), "--out", s(&out)]);
    let results: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results_warned_mc.json")).unwrap()).unwrap();
    let warnings: Vec<&str> = results["config"]["warnings"]
        .as_array()
        .expect("config.warnings")
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings[0].contains("`bleu`") && warnings[0].contains("not multiple_choice"), "{warnings:?}");
    assert!(warnings[1].contains("`made_up_metric` is not one lingualens computes"), "{warnings:?}");
    for w in &warnings {
        assert!(printed.contains(&format!("warning: {w}")), "printed too: {printed}");
    }
    assert!(results["results"]["warned_mc"].get("acc,none").is_some(), "acc is still computed: {results}");
    assert!(results["results"]["warned_mc"].get("bleu,none").is_none(), "{results}");
    for d in [dir, out] {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// `lingualens compare`: 12 DZEN questions in two choice orders (as given, gold first), compared
/// item by item; its four counts and difference as the two samples files give them; a metric that
/// is not right-or-wrong per item and a run of other items are refused by name.
#[test]
fn compare_puts_two_runs_of_the_same_items_side_by_side() {
    let Some(model) = model() else { return };
    let Some(dzen) = dzen() else { return };
    let (given, first) = (out_dir("compare-given"), out_dir("compare-gold-first"));
    let run = |order: &str, out: &Path| {
        eval_ok(&[
            "--model",
            s(&model),
            "--task",
            "dzen_dz_en",
            "--data",
            s(&dzen),
            "--limit",
            "12",
            "--order",
            order,
            "--out",
            s(out),
        ])
    };
    run("given", &given);
    run("gold-first", &first);
    let compare = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_lingualens")).arg("compare").args(args).output().unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (ok, json, err) = compare(&[s(&given), s(&first), "--json"]);
    assert!(ok, "{err}");
    let c: Value = serde_json::from_str(&json).unwrap();
    // The same counts, read from the two samples files here.
    let (a, b) = (verdicts(&given), verdicts(&first));
    assert_eq!(a.len(), b.len());
    let count = |x: bool, y: bool| a.iter().filter(|(id, &v)| v == x && b[*id] == y).count() as u64;
    assert!(count(true, false) + count(false, true) > 0, "some answers flipped, so the counts are tested");
    assert_eq!(c["items"], a.len() as u64);
    assert_eq!(
        [&c["both_right"], &c["only_a"], &c["only_b"], &c["both_wrong"]],
        [count(true, true), count(true, false), count(false, true), count(false, false)]
    );
    let right = |m: &BTreeMap<u64, bool>| m.values().filter(|v| **v).count() as f64;
    let difference = (right(&b) - right(&a)) / a.len() as f64;
    assert!((c["difference"].as_f64().unwrap() - difference).abs() < 1e-12, "{c}");
    let p = c["mcnemar_p"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&p), "{c}");
    let (ok, text, err) = compare(&[s(&given), s(&first)]);
    assert!(ok && text.contains("exact McNemar p =") && text.contains("difference B − A"), "{text}{err}");

    // Refused by name: a metric that is not 0 or 1 per item, a metric the samples lack, other items.
    let odd = out_dir("compare-odd");
    std::fs::create_dir_all(&odd).unwrap();
    std::fs::write(odd.join("samples_x.jsonl"), "{\"doc_id\": 0, \"acc\": 0.5}\n").unwrap();
    let (ok, _, err) = compare(&[s(&given), s(&odd.join("samples_x.jsonl"))]);
    assert!(!ok && err.contains("samples_x.jsonl:1") && err.contains("not 0 or 1"), "{err}");
    let (ok, _, err) = compare(&[s(&given), s(&first), "--metric", "bleu"]);
    assert!(!ok && err.contains("no bleu"), "{err}");
    std::fs::write(odd.join("samples_x.jsonl"), "{\"doc_id\": 999, \"acc\": 1.0}\n").unwrap();
    let (ok, _, err) = compare(&[s(&given), s(&odd)]);
    assert!(!ok && err.contains("no item in common"), "{err}");
}

/// `lingualens suite`: an experiment over 12 DZEN questions (the letter form, whose prompt lists
/// the options, so that their order matters: as given, gold first, gold last; one comparison, one
/// swing) for two models (the tiny Llama fixture and the demo's weights). Each run's samples file
/// is the one a plain `eval` with the same settings writes; the table's counts are the ones read
/// from those files here; run again, the suite resumes and repeats nothing; a mistaken experiment
/// file is refused by its key.
#[test]
fn a_suite_runs_an_experiment_as_separate_evals_would_and_tables_it() {
    let Some(model_a) = model() else { return };
    let Some(dzen) = dzen() else { return };
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let work = out_dir("suite");
    std::fs::create_dir_all(&work).unwrap();
    let model_b = work.join("demo.gguf");
    std::fs::copy(repo.join("models/demo/lingualens-demo-Q8_0.gguf"), &model_b).unwrap();
    let experiment = work.join("orders.yaml");
    std::fs::write(
        &experiment,
        "experiment: orders\ndescription: DZEN in three orders\nruns:\n  - {name: given, task: dzen_dz_en}\n  - {name: first, task: dzen_dz_en, order: gold-first}\n  - {name: last, task: dzen_dz_en, order: gold-last}\ncompare:\n  - [first, last]\nswing:\n  - {name: orders, runs: [given, first, last]}\n",
    )
    .unwrap();
    let out = work.join("out");
    let suite = |experiment: &Path| {
        let o = Command::new(env!("CARGO_BIN_EXE_lingualens"))
            .args(["suite", s(experiment), "--model", s(&model_a), "--model", s(&model_b)])
            .args(["--data", s(&dzen), "--limit", "12", "--out", s(&out)])
            .output()
            .unwrap();
        (o.status.success(), format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr)))
    };
    let (ok, text) = suite(&experiment);
    assert!(ok, "{text}");
    // A run of the suite is the run `eval` makes alone.
    let alone = work.join("alone");
    eval_ok(&[
        "--model",
        s(&model_a),
        "--task",
        "dzen_dz_en",
        "--data",
        s(&dzen),
        "--limit",
        "12",
        "--order",
        "gold-last",
        "--out",
        s(&alone),
    ]);
    assert_eq!(
        std::fs::read_to_string(samples_file(&out.join("llama3_tied/last"))).unwrap(),
        std::fs::read_to_string(samples_file(&alone)).unwrap(),
        "the suite's gold-last run and eval's alone"
    );
    // The table's comparison, counted here from the two runs' files.
    let table: Value = serde_json::from_str(&std::fs::read_to_string(out.join("suite_orders.json")).unwrap()).unwrap();
    let mut flipped = 0;
    for (i, model) in ["llama3_tied", "demo"].iter().enumerate() {
        let m = &table["models"][i];
        assert_eq!(m["model"], *model);
        let (first, last) = (verdicts(&out.join(model).join("first")), verdicts(&out.join(model).join("last")));
        let c = &m["comparisons"][0];
        let only =
            |x: &BTreeMap<u64, bool>, y: &BTreeMap<u64, bool>| x.iter().filter(|(id, &v)| v && !y[*id]).count() as u64;
        assert_eq!(
            (c["only_a"].as_u64().unwrap(), c["only_b"].as_u64().unwrap()),
            (only(&first, &last), only(&last, &first)),
            "{model}: {c}"
        );
        flipped += only(&first, &last) + only(&last, &first);
        let accuracy = |v: &BTreeMap<u64, bool>| v.values().filter(|x| **x).count() as f64 / v.len() as f64;
        assert!((m["runs"]["first"]["accuracy"].as_f64().unwrap() - accuracy(&first)).abs() < 1e-12, "{m}");
        let swing = &m["swings"][0];
        let accs: Vec<f64> =
            ["given", "first", "last"].iter().map(|r| accuracy(&verdicts(&out.join(model).join(r)))).collect();
        let spread = accs.iter().cloned().fold(f64::MIN, f64::max) - accs.iter().cloned().fold(f64::MAX, f64::min);
        assert!((swing["swing"].as_f64().unwrap() - spread).abs() < 1e-12, "{swing}");
    }
    assert!(flipped > 0, "the orders changed some answers, so the comparison was tested: {table}");
    let md = std::fs::read_to_string(out.join("suite_orders.md")).unwrap();
    assert!(md.contains("| model | given | first | last |") && md.contains("exact McNemar p"), "{md}");
    let svg = std::fs::read_to_string(out.join("suite_orders.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>") && svg.contains(">last<"), "{svg}");
    // The one-page picture the page prints: every model's comparison, in English.
    let picture = std::fs::read_to_string(out.join("suite_orders_summary.svg")).unwrap();
    assert!(picture.contains("lingualens · experiment orders") && picture.contains("last − first"), "{picture}");
    for model in table["models"].as_array().unwrap() {
        assert!(picture.contains(&format!(">{}<", model["model"].as_str().unwrap())), "{picture}");
    }

    // Again: every run resumes from its files (nothing repeated), the same table.
    let before = std::fs::read_to_string(samples_file(&out.join("demo/given"))).unwrap();
    let (ok, text) = suite(&experiment);
    assert!(ok, "{text}");
    assert_eq!(std::fs::read_to_string(samples_file(&out.join("demo/given"))).unwrap(), before);
    let again: Value = serde_json::from_str(&std::fs::read_to_string(out.join("suite_orders.json")).unwrap()).unwrap();
    assert_eq!(again, table);

    // A mistaken experiment is refused by what is wrong, before any run.
    std::fs::write(&experiment, std::fs::read_to_string(&experiment).unwrap().replace("swing:", "swimg:")).unwrap();
    let (ok, text) = suite(&experiment);
    assert!(!ok && text.contains("swimg") && text.contains("orders.yaml"), "{text}");
    let (ok, text) = suite(Path::new("no_such_experiment"));
    assert!(!ok && text.contains("dzen_language_gap"), "the built-in experiments are listed: {text}");
}

/// `suite --sample N --seed S`: every run scores the same documents, those Python's
/// `random.Random(S).sample(range(len(split)), N)` picks (asked of Python here), in the split's
/// order; the sample is written in each run's results and in the suite's table.
#[test]
fn a_suites_sample_is_pythons_draw_and_the_same_for_every_run() {
    let Some(model) = model() else { return };
    let python = std::env::var("LINGUALENS_PYTHON").unwrap_or_else(|_| "python3".into());
    let Ok(drawn) = Command::new(&python)
        .args(["-c", "import random; print(sorted(random.Random(7).sample(range(40), 5)))"])
        .output()
    else {
        common::skip("cli_eval::sample", "no Python (LINGUALENS_PYTHON or python3) to draw the reference sample");
        return;
    };
    let drawn: Vec<usize> = serde_json::from_slice(&drawn.stdout).expect("Python printed a list");
    let dir = out_dir("suite-sample");
    std::fs::create_dir_all(&dir).unwrap();
    let task = dir.join("forty.yaml");
    std::fs::write(
        &task,
        "task: forty\ndataset_path: json\ntest_split: test\noutput_type: multiple_choice\ndoc_to_text: 'Q: {{question}}\nA:'\ndoc_to_choice: choices\ndoc_to_target: answer\n",
    )
    .unwrap();
    let data = dir.join("test.jsonl");
    let rows: String = (0..40)
        .map(|i| {
            format!(
                "{{\"question\": \"item {i}\", \"choices\": [\"yes\", \"no\", \"maybe\"], \"answer\": {}}}\n",
                i % 3
            )
        })
        .collect();
    std::fs::write(&data, rows).unwrap();
    let experiment = dir.join("sampled.yaml");
    std::fs::write(
        &experiment,
        format!(
            "experiment: sampled\nruns:\n  - {{name: given, task: {0}}}\n  - {{name: last, task: {0}, order: gold-last}}\ncompare:\n  - [given, last]\n",
            task.display()
        ),
    )
    .unwrap();
    let out = dir.join("out");
    let suite = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_lingualens"))
            .args(["suite", s(&experiment), "--model", s(&model), "--data", s(&data), "--out", s(&out)])
            .args(extra)
            .output()
            .unwrap()
    };
    let o = suite(&["--sample", "5", "--seed", "7"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let expected: Vec<String> = drawn.iter().map(|i| format!("item {i}")).collect();
    for run in ["given", "last"] {
        let questions: Vec<String> = samples(&samples_file(&out.join(run)))
            .iter()
            .map(|l| l["doc"]["question"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(questions, expected, "run {run}");
        let results: Value =
            serde_json::from_str(&std::fs::read_to_string(out.join(run).join("results_forty.json")).unwrap()).unwrap();
        assert_eq!(results["config"]["sample"], serde_json::json!({"size": 5, "seed": 7}), "{results}");
        assert_eq!(results["n-samples"]["forty"]["original"], 40, "{results}");
    }
    let table: Value = serde_json::from_str(&std::fs::read_to_string(out.join("suite_sampled.json")).unwrap()).unwrap();
    assert_eq!(table["sample"], serde_json::json!({"size": 5, "seed": 7}));
    assert_eq!(table["models"][0]["comparisons"][0]["items"], 5, "{table}");
    let md = std::fs::read_to_string(out.join("suite_sampled.md")).unwrap();
    assert!(md.contains("the same 5 documents") && md.contains("seed 7"), "{md}");
    // Another sample is another run: the files of this one are not resumed into it.
    let o = suite(&["--sample", "6", "--seed", "7"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("sample"), "{err}");
    // A seed alone means nothing to sample.
    let o = suite(&["--seed", "7"]);
    assert!(!o.status.success() && String::from_utf8_lossy(&o.stderr).contains("--sample"));
}
