//! `lingualens data check` and `lingualens model-info` as a user runs them: the binary, real files;
//! and a built-in task run with no `--data`, its benchmark fetched from the stand-in for GitHub
//! (tools/standin/server.py serving DZEN's real release zip where the catalogue's URL points).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn shared() -> Option<PathBuf> {
    common::shared("cli_data", "datasets").map(|d| d.parent().unwrap().to_path_buf())
}

fn lingualens(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_lingualens")).args(args).output().expect("run lingualens");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
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
    let mentions = |file: &str, row: u64| {
        anomalies.iter().any(|a| a["file"].as_str().is_some_and(|f| f.ends_with(file)) && a["row"] == row)
    };
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

/// `lingualens ARGS` with downloads through `mirror` into the download cache `cache`.
fn lingualens_fetching(args: &[&str], mirror: &str, cache: &Path) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_lingualens"))
        .args(args)
        .env("LINGUALENS_MIRROR", mirror)
        .env("LINGUALENS_CACHE", cache)
        .env_remove("HF_ENDPOINT")
        .output()
        .expect("run lingualens");
    (out.status.success(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

const DZEN_ZIP: &str = "1652_Multilingual_Question_Ans_Supplementary Material.zip";

#[test]
fn a_builtin_task_given_no_data_fetches_its_benchmark_continues_a_broken_download_and_then_runs_offline() {
    let Some(shared) = shared() else { return };
    let tmp = common::TempDir::new("fetch-dzen");
    let root = tmp.path.join("mirror");
    std::fs::create_dir_all(&root).unwrap();
    let release = shared.join("datasets/dzen-release");
    // The first download is cut after 100,000 of its 426,280 bytes, as a dropped connection would.
    let standin = common::StandIn::start(
        &root,
        &[(common::DZEN_RELEASE_PATH, &release)],
        &["--truncate-once", "Material.zip=100000"],
    );
    let mirror = standin.url("");
    let cache = tmp.path.join("cache");
    let fetched = tmp.path.join("export-fetched");
    let args = ["export-task", "dzen_dz_cloze", "--out", fetched.to_str().unwrap()];

    let (ok, text) = lingualens_fetching(&args, &mirror, &cache);
    assert!(!ok, "a broken download must fail the run:\n{text}");
    assert!(text.contains("stopped at 100000 bytes") && text.contains("100000 bytes that arrived are kept"), "{text}");
    assert!(!cache.join("data/dzen").exists(), "nothing half-downloaded is used");

    let (ok, text) = lingualens_fetching(&args, &mirror, &cache);
    assert!(ok, "the second try continues the download:\n{text}");
    let asked: Vec<_> = standin.requests().into_iter().filter(|(p, _, _)| p.ends_with("Material.zip")).collect();
    assert_eq!(asked.len(), 2, "{asked:?}");
    assert_eq!(
        (asked[1].1.as_deref(), asked[1].2),
        (Some("bytes=100000-"), 206),
        "the rest asked for with Range: {asked:?}"
    );

    // The same documents as from the user's own copy of the CSVs.
    let given = tmp.path.join("export-given");
    let dzen = shared.join("datasets/dzen");
    let (ok, _, text) = lingualens(&[
        "export-task",
        "dzen_dz_cloze",
        "--data",
        dzen.to_str().unwrap(),
        "--out",
        given.to_str().unwrap(),
    ]);
    assert!(ok, "{text}");
    for file in ["dzen_dz_cloze.test.jsonl", "dzen_dz_cloze.few_shot.jsonl"] {
        let (a, b) = (read(&fetched.join(file)), read(&given.join(file)));
        assert!(a.lines().count() > 2000 || file.contains("few_shot"), "{file}: {} lines", a.lines().count());
        assert!(a == b, "{file}: the fetched data gives other documents than the shared CSVs");
    }

    // With the stand-in gone, --offline runs from what was kept, and the results name the file.
    drop(standin);
    let model = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("models/demo/lingualens-demo-Q8_0.gguf");
    let run = |data: Option<&Path>, out: &Path| {
        let mut args = vec![
            "eval",
            "--model",
            model.to_str().unwrap(),
            "--task",
            "dzen_dz_cloze",
            "--limit",
            "5",
            "--out",
            out.to_str().unwrap(),
        ];
        match data {
            Some(d) => args.extend(["--data", d.to_str().unwrap()]),
            None => args.push("--offline"),
        }
        lingualens_fetching(&args, "http://127.0.0.1:9/", &cache)
    };
    let (offline, from_files) = (tmp.path.join("run-offline"), tmp.path.join("run-files"));
    let (ok, text) = run(None, &offline);
    assert!(ok, "--offline with the data kept:\n{text}");
    let (ok, text) = run(Some(&dzen), &from_files);
    assert!(ok, "{text}");
    let results: Value = serde_json::from_str(&read(&offline.join("results_dzen_dz_cloze.json"))).unwrap();
    let sources = results["config"]["data_sources"].as_array().expect("config.data_sources");
    assert_eq!(sources.len(), 1, "{sources:?}");
    assert!(sources[0]["url"].as_str().unwrap().ends_with("Supplementary%20Material.zip"), "{sources:?}");
    let (sha, _) = sha256_file(&release.join(DZEN_ZIP));
    assert_eq!(sources[0]["sha256"].as_str(), Some(sha.as_str()));
    assert_eq!(sources[0]["size_bytes"].as_u64(), Some(426_280));
    let given: Value = serde_json::from_str(&read(&from_files.join("results_dzen_dz_cloze.json"))).unwrap();
    assert!(given["config"].get("data_sources").is_none(), "files given with --data are the user's, not a download");
    assert_eq!(results["results"], given["results"], "the same 5 items score the same");
    assert_eq!(read(&offline.join("items_dzen_dz_cloze.csv")), read(&from_files.join("items_dzen_dz_cloze.csv")));
}

#[test]
fn offline_with_nothing_kept_a_wrong_file_and_a_missing_file_each_say_so_and_keep_nothing() {
    if shared().is_none() {
        return;
    }
    let tmp = common::TempDir::new("fetch-refused");
    let cache = tmp.path.join("cache");
    let out = tmp.path.join("out");
    let args = ["export-task", "dzen_en", "--out", out.to_str().unwrap()];
    let offline: Vec<&str> = args.iter().copied().chain(["--offline"]).collect();

    let (ok, text) = lingualens_fetching(&offline, "http://127.0.0.1:9/", &cache);
    assert!(!ok, "{text}");
    assert!(
        text.contains("--offline")
            && text.contains("Supplementary%20Material.zip (426280 bytes)")
            && text.contains("--data"),
        "{text}"
    );

    // A file of the right size that is not the release.
    let root = tmp.path.join("mirror");
    let wrong = tmp.path.join("wrong");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::create_dir_all(&wrong).unwrap();
    std::fs::write(wrong.join(DZEN_ZIP), vec![7u8; 426_280]).unwrap();
    let standin = common::StandIn::start(&root, &[(common::DZEN_RELEASE_PATH, &wrong)], &[]);
    let (ok, text) = lingualens_fetching(&args, &standin.url(""), &cache);
    assert!(!ok, "{text}");
    assert!(text.contains("sha256 is") && text.contains("the file was not kept"), "{text}");
    drop(standin);

    // Nothing at the URL.
    let standin = common::StandIn::start(&root, &[], &[]);
    let (ok, text) = lingualens_fetching(&args, &standin.url(""), &cache);
    assert!(!ok, "{text}");
    assert!(text.contains("HTTP 404") && text.contains("not found"), "{text}");

    let kept: Vec<PathBuf> = walk(&cache);
    assert!(kept.is_empty(), "nothing is kept of a refused download: {kept:?}");
}

fn sha256_file(path: &Path) -> (String, u64) {
    let out = Command::new("sha256sum").arg(path).output().expect("sha256sum");
    let text = String::from_utf8_lossy(&out.stdout);
    (text.split_whitespace().next().unwrap_or("").to_string(), std::fs::metadata(path).map(|m| m.len()).unwrap_or(0))
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files
}

/// ProverbEval's Amharic tasks from the catalogue with no `--data`: the authors' published YAMLs
/// (the shared copies, byte for byte, so the committed sha256 is checked on them), a utils.py in
/// their shape and Hub-shaped CSVs, all from the stand-in (tools/standin/make_shaped.py). Each of
/// the five tasks runs 5 items; the published YAML run on the kept files with `--data` scores the
/// same; `--offline` runs with the stand-in gone; the results name every download.
#[test]
fn proverbeval_amharic_tasks_run_from_the_authors_published_yaml_and_the_hub_files() {
    let Some(shared) = shared() else { return };
    let tmp = common::TempDir::new("fetch-proverbeval");
    let root = tmp.path.join("mirror");
    std::fs::create_dir_all(&root).unwrap();
    let catalog_file = tmp.path.join("catalog.json");
    let tasks = common::proverbeval_standin(&shared, &root, &catalog_file);

    let standin = common::StandIn::start(&root, &[], &[]);
    let mirror = standin.url("");
    let cache = tmp.path.join("cache");
    let model = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("models/demo/lingualens-demo-Q8_0.gguf");
    let run = |task: &str, out: &Path, extra: &[&str], mirror: &str| {
        let mut args = vec![
            "eval",
            "--model",
            model.to_str().unwrap(),
            "--task",
            task,
            "--limit",
            "5",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend(extra);
        let out = Command::new(env!("CARGO_BIN_EXE_lingualens"))
            .args(&args)
            .env("LINGUALENS_MIRROR", mirror)
            .env("LINGUALENS_CACHE", &cache)
            .env("LINGUALENS_BENCHMARKS", &catalog_file)
            .env_remove("HF_ENDPOINT")
            .output()
            .expect("run lingualens");
        (
            out.status.success(),
            format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)),
        )
    };
    assert_eq!(
        tasks,
        [
            "amh_choice_english_1",
            "amh_choice_native_1",
            "amh_fill_1",
            "amh_generation_english",
            "amh_generation_native"
        ]
    );
    for task in &tasks {
        let out = tmp.path.join(format!("run-{task}"));
        let (ok, text) = run(task, &out, &[], &mirror);
        assert!(ok, "{task}:\n{text}");
        assert!(
            text.contains("read from") && text.contains("utils.py as the template"),
            "{task}: the prompt function is read:\n{text}"
        );
        let samples = read(&out.join(format!("samples_{task}.jsonl")));
        assert_eq!(samples.lines().count(), 5, "{task}");
        let results: Value = serde_json::from_str(&read(&out.join(format!("results_{task}.json")))).unwrap();
        let sources = results["config"]["data_sources"].as_array().expect("config.data_sources");
        assert!(
            sources.iter().any(|s| s["url"].as_str().unwrap().ends_with("/amh.yaml") && s["sha256"].is_string()),
            "{task}: {sources:?}"
        );
        assert!(
            sources
                .iter()
                .any(|s| s["url"].as_str().unwrap().contains("/datasets/israel/ProverbEval/resolve/main/amh/")),
            "{task}: {sources:?}"
        );
    }
    // The Hub's files came through its resolve redirect.
    let redirected = standin
        .requests()
        .into_iter()
        .filter(|(p, _, status)| p.contains("/resolve/main/amh/") && *status == 302)
        .count();
    assert_eq!(redirected, 6, "each of the six Hub files fetched once");

    // The same published YAML run on the kept files given by hand scores the same.
    let kept = cache.join("data/proverbeval-amh");
    let yaml = kept.join("EthioProverbEval/choice/shuffle/english/1/amh.yaml");
    let csv = kept.join("ProverbEval/amh/amh_english_test_1.csv");
    let by_hand = tmp.path.join("by-hand");
    let (ok, text) = run(yaml.to_str().unwrap(), &by_hand, &["--data", csv.to_str().unwrap()], &mirror);
    assert!(ok, "{text}");
    let a: Value =
        serde_json::from_str(&read(&tmp.path.join("run-amh_choice_english_1/results_amh_choice_english_1.json")))
            .unwrap();
    let b: Value = serde_json::from_str(&read(&by_hand.join("results_amh_choice_english_1.json"))).unwrap();
    assert_eq!(a["results"], b["results"]);
    assert_eq!(
        read(&tmp.path.join("run-amh_choice_english_1/items_amh_choice_english_1.csv")),
        read(&by_hand.join("items_amh_choice_english_1.csv"))
    );

    // A choice order moves the options the prompt lists (columns A-D), not only the scored ones:
    // with the gold last, each item lists its gold answer's text under `D:` and scores it fourth.
    let last = tmp.path.join("gold-last");
    let (ok, text) = run("amh_choice_native_1", &last, &["--order", "gold-last"], &mirror);
    assert!(ok && !text.contains("only the scored options move"), "{text}");
    let given = read(&tmp.path.join("run-amh_choice_native_1/samples_amh_choice_native_1.jsonl"));
    let moved = read(&last.join("samples_amh_choice_native_1.jsonl"));
    for (g, m) in given.lines().zip(moved.lines()) {
        let (g, m): (Value, Value) = (serde_json::from_str(g).unwrap(), serde_json::from_str(m).unwrap());
        let gold_text = &g["doc"][g["doc"]["Answer_Letter"].as_str().unwrap()];
        assert_eq!(m["doc"]["Answer_Letter"], "D");
        assert_eq!(&m["doc"]["D"], gold_text);
        assert_eq!(m["target"], "3");
        let context = m["arguments"]["gen_args_3"]["arg_0"].as_str().unwrap();
        assert!(context.contains(&format!("D: {}", gold_text.as_str().unwrap())), "{context}");
        assert_eq!(m["arguments"]["gen_args_3"]["arg_1"], format!(" {}", gold_text.as_str().unwrap()));
    }

    // Offline, with the stand-in gone, from what was kept (5 few-shot examples from `valid`).
    drop(standin);
    let (ok, text) =
        run("amh_fill_1", &tmp.path.join("offline"), &["--offline", "--shots", "5"], "http://127.0.0.1:9/");
    assert!(ok, "--offline with the data kept:\n{text}");
}

/// ProverbEval's other languages from the catalogue with no `--data`: the authors' published YAMLs
/// and the Hub's parquet conversion (`resolve/refs%2Fconvert%2Fparquet/{config}/{split}/0000.parquet`,
/// the branch name percent-encoded as the Hub wants it). The published Ge'ez English-descriptions
/// YAML names Tigrinya's config; the catalogue gives it Ge'ez's file, and the results say which.
#[test]
fn proverbeval_other_languages_run_from_the_hubs_parquet_conversion() {
    let Some(shared) = shared() else { return };
    let tmp = common::TempDir::new("fetch-proverbeval-parquet");
    let root = tmp.path.join("mirror");
    std::fs::create_dir_all(&root).unwrap();
    let catalog_file = tmp.path.join("catalog.json");
    common::proverbeval_standin(&shared, &root, &catalog_file);
    let standin = common::StandIn::start(&root, &[], &[]);
    let cache = tmp.path.join("cache");
    let model = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("models/demo/lingualens-demo-Q8_0.gguf");
    let cases = [
        ("tir_choice_native_1", "tir_choice_native/native_1"),
        ("gez_choice_english_1", "gez_choice_english/english_1"),
        ("eng_fill_1", "eng_fill_blank/train_1"),
        ("orm_generation_native", "orm_generation/native"),
    ];
    for (task, config_split) in cases {
        let out_dir = tmp.path.join(format!("run-{task}"));
        let out = Command::new(env!("CARGO_BIN_EXE_lingualens"))
            .args(["eval", "--model", model.to_str().unwrap(), "--task", task, "--limit", "5"])
            .arg("--out")
            .arg(&out_dir)
            .env("LINGUALENS_MIRROR", standin.url(""))
            .env("LINGUALENS_CACHE", &cache)
            .env("LINGUALENS_BENCHMARKS", &catalog_file)
            .env_remove("HF_ENDPOINT")
            .output()
            .expect("run lingualens");
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success(), "{task}:\n{text}");
        assert_eq!(read(&out_dir.join(format!("samples_{task}.jsonl"))).lines().count(), 5, "{task}");
        let results: Value = serde_json::from_str(&read(&out_dir.join(format!("results_{task}.json")))).unwrap();
        let sources = results["config"]["data_sources"].as_array().expect("config.data_sources");
        let wanted =
            format!("/datasets/israel/ProverbEval/resolve/refs%2Fconvert%2Fparquet/{config_split}/0000.parquet");
        assert!(sources.iter().any(|s| s["url"].as_str().unwrap().ends_with(&wanted)), "{task}: {sources:?}");
    }
    // Asked for with the branch name encoded, redirected, and served.
    let requests = standin.requests();
    let asked = |status: u16| {
        requests.iter().filter(|(p, _, s)| p.contains("refs%2Fconvert%2Fparquet/") && *s == status).count()
    };
    assert!(asked(302) >= 4 && asked(200) >= 4, "{requests:?}");
}

/// KyrgyzMMLU from the catalogue with no `--data`: the Hub repository is known by id and configs
/// only, so its card and tree listing are fetched from the stand-in, each subject's splits are the
/// files the card names (as `datasets` reads it), and each download is checked against the sha256
/// the listing gives. 5 items score as with the same files given by hand; the results name all 18
/// downloads; `--offline` runs with the stand-in gone.
#[test]
fn kyrgyz_mmlu_runs_from_the_hub_repository_the_catalogue_names() {
    const TEST: &str = "cli_data::kyrgyz_mmlu_runs_from_the_hub_repository_the_catalogue_names";
    if !crate::builtin_tasks::prompts(TEST) {
        return;
    }
    let tmp = common::TempDir::new("fetch-kyrgyz");
    let root = tmp.path.join("mirror");
    let repo = common::kyrgyz_mmlu_standin(&root);
    let standin = common::StandIn::start(&root, &[], &[]);
    let cache = tmp.path.join("cache");
    let model = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("models/demo/lingualens-demo-Q8_0.gguf");
    let run = |out: &Path, extra: &[&str], mirror: &str| {
        let mut args =
            vec!["eval", "--model", model.to_str().unwrap(), "--task", "kyrgyz_mmlu", "--limit", "5", "--out"];
        args.push(out.to_str().unwrap());
        args.extend(extra);
        lingualens_fetching(&args, mirror, &cache)
    };
    let fetched = tmp.path.join("run-fetched");
    let (ok, text) = run(&fetched, &[], &standin.url(""));
    assert!(ok, "{text}");
    let asked: Vec<String> = standin.requests().into_iter().map(|(p, _, _)| p).collect();
    assert!(
        asked.iter().any(|p| p == "/huggingface.co/api/datasets/TTimur/kyrgyzMMLU/tree/main?recursive=true"),
        "the tree listing was asked for: {asked:?}"
    );
    assert!(asked.iter().any(|p| p.ends_with("/TTimur/kyrgyzMMLU/resolve/main/README.md")), "{asked:?}");
    let results: Value = serde_json::from_str(&read(&fetched.join("results_kyrgyz_mmlu.json"))).unwrap();
    let sources = results["config"]["data_sources"].as_array().expect("config.data_sources");
    assert_eq!(sources.len(), 18, "9 subjects x (test, validation): {sources:?}");
    for s in sources {
        let url = s["url"].as_str().unwrap();
        let rel = url.split("/resolve/main/").nth(1).unwrap_or_else(|| panic!("{url}"));
        let (sha, size) = sha256_file(&repo.join(rel));
        assert_eq!(s["sha256"].as_str(), Some(sha.as_str()), "{url}: the listed sha256 is recorded");
        assert_eq!(s["size_bytes"].as_u64(), Some(size), "{url}");
    }

    // The same files given by hand: the same scores.
    let by_hand = tmp.path.join("run-by-hand");
    let (ok, text) = run(&by_hand, &["--data", repo.to_str().unwrap()], "http://127.0.0.1:9/");
    assert!(ok, "{text}");
    let given: Value = serde_json::from_str(&read(&by_hand.join("results_kyrgyz_mmlu.json"))).unwrap();
    assert_eq!(results["results"], given["results"]);
    let items = read(&fetched.join("items_kyrgyz_mmlu.csv"));
    assert_eq!(items, read(&by_hand.join("items_kyrgyz_mmlu.csv")));
    // Each subject numbers its rows from 1: the ids name the subject's config, and differ.
    let ids: Vec<&str> = items.lines().skip(1).map(|l| l.split(',').nth(1).unwrap()).collect();
    assert_eq!(ids.len(), 5);
    assert!(ids.iter().all(|id| id.starts_with("kyrgyz-mmlu/kyrgyz_mmlu_")), "{ids:?}");
    assert_eq!(ids.iter().collect::<std::collections::BTreeSet<_>>().len(), 5, "{ids:?}");

    // Offline, from what was kept.
    drop(standin);
    let (ok, text) = run(&tmp.path.join("offline"), &["--offline"], "http://127.0.0.1:9/");
    assert!(ok, "--offline with the data kept:\n{text}");
}

/// KyrgyzMMLU in a checkout that has no prompt generated from the shared PROMPTS.md (a user's):
/// the prompt is read from the authors' code the catalogue names (here a stand-in of its shape,
/// served in GitHub's place, its sha256 in a test catalogue), with `--data` too. The scores and
/// items equal the run with make_prompts.py's include; the results name the code's URL and
/// sha256; `--offline` reads the kept copy; a file whose sha256 differs is refused naming it.
#[test]
fn kyrgyz_mmlu_reads_its_prompt_from_the_authors_code_where_the_checkout_has_none() {
    const TEST: &str = "cli_data::kyrgyz_mmlu_reads_its_prompt_from_the_authors_code";
    if !crate::builtin_tasks::prompts(TEST) {
        return;
    }
    let Some(shared) = shared() else { return };
    let tmp = common::TempDir::new("kyrgyz-code-cli");
    let root = tmp.path.join("mirror");
    let repo = common::kyrgyz_mmlu_standin(&root);
    // The built-in task files as a user's checkout has them: no prompts/ folder.
    let tasks = tmp.path.join("tasks");
    std::fs::create_dir_all(tasks.join("kyrgyzllm")).unwrap();
    let builtin = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("datasets/tasks/kyrgyzllm");
    for entry in std::fs::read_dir(&builtin).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "yaml") {
            std::fs::copy(&path, tasks.join("kyrgyzllm").join(path.file_name().unwrap())).unwrap();
        }
    }
    // The code, where the catalogue says, and a catalogue with its sha256.
    let catalog_file = tmp.path.join("catalog.json");
    let prompts_md = shared.join("datasets/kyrgyzllm-bench-configs/PROMPTS.md");
    let url = common::kyrgyz_code_standin(&prompts_md, &root, &tmp.path, &catalog_file, "kyrgyz_tasks.py");
    let served = root.join(url.strip_prefix("https://").unwrap());
    let (sha, _) = sha256_file(&served);

    let standin = common::StandIn::start(&root, &[], &[]);
    let cache = tmp.path.join("cache");
    let model = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("models/demo/lingualens-demo-Q8_0.gguf");
    let run = |out: &Path, extra: &[&str], mirror: &str, tasks_dir: Option<&Path>, catalog: &Path| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_lingualens"));
        command
            .args(["eval", "--model", model.to_str().unwrap(), "--task", "kyrgyz_mmlu", "--limit", "5"])
            .args(["--data", repo.to_str().unwrap(), "--out"])
            .arg(out)
            .args(extra)
            .env("LINGUALENS_MIRROR", mirror)
            .env("LINGUALENS_CACHE", &cache)
            .env("LINGUALENS_BENCHMARKS", catalog)
            .env_remove("HF_ENDPOINT");
        match tasks_dir {
            Some(d) => command.env("LINGUALENS_TASKS", d),
            None => command.env_remove("LINGUALENS_TASKS"),
        };
        let out = command.output().expect("run lingualens");
        (
            out.status.success(),
            format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)),
        )
    };
    let from_code = tmp.path.join("from-code");
    let (ok, text) = run(&from_code, &[], &standin.url(""), Some(&tasks), &catalog_file);
    assert!(ok, "{TEST}: {text}");
    let asked: Vec<String> = standin.requests().into_iter().map(|(p, _, _)| p).collect();
    assert!(asked.iter().any(|p| p.ends_with("/lm_harness/kyrgyz_tasks.py")), "{TEST}: {asked:?}");
    let results: Value = serde_json::from_str(&read(&from_code.join("results_kyrgyz_mmlu.json"))).unwrap();
    let sources = results["config"]["data_sources"].as_array().expect("config.data_sources");
    assert!(
        sources.iter().any(|s| s["url"] == url.as_str() && s["sha256"] == sha.as_str()),
        "{TEST}: the code's URL and sha256 are in the results: {sources:?}"
    );

    // The include make_prompts.py wrote from PROMPTS.md: the same prompts, so the same scores.
    let transcribed = tmp.path.join("transcribed");
    let (ok, text) = run(&transcribed, &[], "http://127.0.0.1:9/", None, &catalog_file);
    assert!(ok, "{TEST}: {text}");
    let given: Value = serde_json::from_str(&read(&transcribed.join("results_kyrgyz_mmlu.json"))).unwrap();
    assert_eq!(results["results"], given["results"], "{TEST}");
    assert_eq!(read(&from_code.join("items_kyrgyz_mmlu.csv")), read(&transcribed.join("items_kyrgyz_mmlu.csv")));

    // Offline: the kept copy. Then another file where the catalogue's is: refused, naming it.
    drop(standin);
    let (ok, text) = run(&tmp.path.join("offline"), &["--offline"], "http://127.0.0.1:9/", Some(&tasks), &catalog_file);
    assert!(ok, "{TEST}: --offline with the code kept:\n{text}");
    std::fs::write(&served, "# not the authors' file\n").unwrap();
    let fresh_cache = tmp.path.join("cache-2");
    let standin = common::StandIn::start(&root, &[], &[]);
    let out = Command::new(env!("CARGO_BIN_EXE_lingualens"))
        .args(["eval", "--model", model.to_str().unwrap(), "--task", "kyrgyz_mmlu", "--limit", "5"])
        .args(["--data", repo.to_str().unwrap(), "--out"])
        .arg(tmp.path.join("tampered"))
        .env("LINGUALENS_MIRROR", standin.url(""))
        .env("LINGUALENS_CACHE", &fresh_cache)
        .env("LINGUALENS_BENCHMARKS", &catalog_file)
        .env("LINGUALENS_TASKS", &tasks)
        .env_remove("HF_ENDPOINT")
        .output()
        .expect("run lingualens");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{TEST}: a file other than the catalogue's was used");
    assert!(said.contains("kyrgyz_tasks.py") && said.contains("its prompt"), "{TEST}: {said}");
}

/// A published lm-eval YAML whose `dataset_path` is a Hub dataset, run with no `--data`: its split
/// found from the dataset card's configs (ProverbEval's layout on the stand-in) scores as the
/// catalogue's mapping of the same task; the authors' own `dataset_path` (a dataset the Hub does not
/// serve) is refused naming it.
#[test]
fn a_published_yaml_reads_its_hub_dataset_as_lm_eval_would() {
    let Some(shared) = shared() else { return };
    let tmp = common::TempDir::new("hub-yaml");
    let root = tmp.path.join("mirror");
    std::fs::create_dir_all(&root).unwrap();
    let catalog_file = tmp.path.join("catalog.json");
    common::proverbeval_standin(&shared, &root, &catalog_file);
    let hub = root.join("huggingface.co/datasets/israel/ProverbEval");
    std::fs::write(
        hub.join("README.md"),
        "---\nconfigs:\n- config_name: amh_choice_english\n  data_files:\n  - split: english_1\n    path: amh/amh_english_test_1.csv\n---\n",
    )
    .unwrap();
    let folder = root
        .join("raw.githubusercontent.com/EthioNLP/EthioProverbEval/8c6e92671f7fb59afdf7cd8295efca71b2120a10/choice/shuffle/english/1");
    std::fs::write(folder.join("amh_hub.yaml"), "include: amh.yaml\ndataset_path: israel/ProverbEval\n").unwrap();
    let standin = common::StandIn::start(&root, &[], &[]);
    let cache = tmp.path.join("cache");
    let model = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("models/demo/lingualens-demo-Q8_0.gguf");
    let run = |task: &str, out: &Path| {
        let out = Command::new(env!("CARGO_BIN_EXE_lingualens"))
            .args(["eval", "--model", model.to_str().unwrap(), "--task", task, "--limit", "5", "--out"])
            .arg(out)
            .env("LINGUALENS_MIRROR", standin.url(""))
            .env("LINGUALENS_CACHE", &cache)
            .env("LINGUALENS_BENCHMARKS", &catalog_file)
            .env_remove("HF_ENDPOINT")
            .output()
            .expect("run lingualens");
        (
            out.status.success(),
            format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)),
        )
    };
    let (ok, text) = run(folder.join("amh_hub.yaml").to_str().unwrap(), &tmp.path.join("yaml"));
    assert!(ok, "{text}");
    assert!(text.contains("split english_1 from the Hub's israel/ProverbEval"), "{text}");
    let (ok, text) = run("amh_choice_english_1", &tmp.path.join("catalogue"));
    assert!(ok, "{text}");
    let a: Value = serde_json::from_str(&read(&tmp.path.join("yaml/results_amh_choice_english_1.json"))).unwrap();
    let b: Value = serde_json::from_str(&read(&tmp.path.join("catalogue/results_amh_choice_english_1.json"))).unwrap();
    assert_eq!(a["results"], b["results"]);
    let sources = a["config"]["data_sources"].as_array().expect("config.data_sources");
    assert_eq!(sources.len(), 1, "{sources:?}");
    assert!(sources[0]["url"]
        .as_str()
        .unwrap()
        .ends_with("/israel/ProverbEval/resolve/main/amh/amh_english_test_1.csv"));

    // As published, the YAML names a dataset the Hub does not serve: refused, named.
    let (ok, text) = run(folder.join("amh.yaml").to_str().unwrap(), &tmp.path.join("as-published"));
    assert!(!ok);
    assert!(text.contains("no dataset israel/OXgXd3n0CSIoxZf at revision main"), "{text}");
}
