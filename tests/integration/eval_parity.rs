//! `lingualens eval` against a real lm-evaluation-harness run (`tools/fixtures/lm_eval_run.py`:
//! `lm-eval run --model hf --log_samples` on the llama3_tied fixture model and a task YAML + JSONL
//! written for the test): the same requests, per-sample log-likelihoods within 1e-4, the same
//! is_greedy, acc and acc_norm; and a second run over the same output folder scores nothing again.
//! The same for `acc_mutual_info` (PMI: the unconditional requests too), and for a `generate_until`
//! task on llama3_untied: the same generated text, filtered responses (two pipelines), per-sample
//! metrics, and exact_match/chrF/BLEU/TER with their standard errors. And lm-eval's features a task
//! file can ask for: multiple input (Winogrande-style, a context per option) and `gen_prefix` with the
//! `remove_whitespace`/`uppercase` filters under `--gen_kwargs`.

use crate::common;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

use crate::common::samples::by_doc as samples;

/// The fixtures folder, if it has the lm-eval run.
fn fixtures() -> Option<PathBuf> {
    common::fixture("eval_parity", "lm_eval/samples_tiny_mc.jsonl", "tools/fixtures/lm_eval_run.py")
        .map(|f| f.parent().unwrap().parent().unwrap().to_path_buf())
}

/// The data file given with --data (the other tasks read the `data_files` of their YAML).
fn eval(dir: &std::path::Path, out: &std::path::Path) -> String {
    eval_task_with(
        dir,
        "llama3_tied",
        "tiny_mc",
        out,
        &["--data".as_ref(), dir.join("lm_eval/tiny_mc.jsonl").as_os_str()],
    )
}

fn eval_task(dir: &std::path::Path, model: &str, task: &str, out: &std::path::Path) -> String {
    eval_task_with(dir, model, task, out, &[])
}

fn eval_task_with(
    dir: &std::path::Path,
    model: &str,
    task: &str,
    out: &std::path::Path,
    extra: &[&std::ffi::OsStr],
) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_lingualens"))
        .args(["eval", "--model"])
        .arg(dir.join("models").join(model))
        .arg("--task")
        .arg(dir.join(format!("lm_eval/{task}.yaml")))
        .args(extra)
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
    let Some(dir) = fixtures() else { return };
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
        // The document logged as lm-eval logs it: its fields in the data file's column order.
        assert_eq!(o["doc_hash"], t["doc_hash"], "doc {id}: doc_hash");
        for (a, b) in o["filtered_resps"].as_array().unwrap().iter().zip(t["filtered_resps"].as_array().unwrap()) {
            let (la, lb): (f64, f64) =
                (a[0].as_str().unwrap().parse().unwrap(), b[0].as_str().unwrap().parse().unwrap());
            worst = worst.max((la - lb).abs());
            assert!((la - lb).abs() < 1e-4, "doc {id}: {la} vs {lb}");
            assert_eq!(a[1], b[1], "doc {id}: is_greedy");
        }
        assert_eq!(o["acc"], t["acc"], "doc {id}: acc");
        assert_eq!(o["acc_norm"], t["acc_norm"], "doc {id}: acc_norm");
    }
    let results: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results_tiny_mc.json")).unwrap()).unwrap();
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

fn out_dir(name: &str) -> PathBuf {
    let out = std::env::temp_dir().join(format!("lingualens-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    out
}

fn ll(v: &Value) -> f64 {
    v[0].as_str().unwrap().parse().unwrap()
}

#[test]
fn pmi_matches_lm_eval_with_its_unconditional_requests() {
    let Some(dir) = fixtures() else { return };
    let out = out_dir("pmi");
    eval_task(&dir, "llama3_tied", "tiny_pmi", &out);
    let theirs = samples(&dir.join("lm_eval/samples_tiny_pmi.jsonl"));
    let ours = samples(&out.join("samples_tiny_pmi.jsonl"));
    assert_eq!(ours.len(), theirs.len());
    let mut worst = 0f64;
    for (id, t) in &theirs {
        let o = &ours[id];
        // 4 conditional requests, then the 4 ("", " choice") ones.
        assert_eq!(o["arguments"], t["arguments"], "doc {id}: requests");
        assert_eq!(t["arguments"].as_object().unwrap().len(), 8);
        for (a, b) in o["filtered_resps"].as_array().unwrap().iter().zip(t["filtered_resps"].as_array().unwrap()) {
            worst = worst.max((ll(a) - ll(b)).abs());
            assert!((ll(a) - ll(b)).abs() < 1e-4, "doc {id}: {} vs {}", ll(a), ll(b));
            assert_eq!(a[1], b[1], "doc {id}: is_greedy");
        }
        assert_eq!(o["metrics"], t["metrics"], "doc {id}");
        assert_eq!(o["acc"], t["acc"], "doc {id}: acc");
        assert_eq!(o["acc_mutual_info"], t["acc_mutual_info"], "doc {id}: acc_mutual_info");
    }
    // The two metrics disagree on some item, so PMI is not acc under another name.
    assert!(theirs.values().any(|t| t["acc"] != t["acc_mutual_info"]));
    println!("acc_mutual_info vs lm-eval: {} samples, max |Δ log-likelihood| {worst:.1e}", theirs.len());
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn generate_until_matches_lm_eval_text_filters_and_metrics() {
    let Some(dir) = fixtures() else { return };
    let by_filter = |path: &std::path::Path| -> BTreeMap<(u64, String), Value> {
        std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .map(|v| ((v["doc_id"].as_u64().unwrap(), v["filter"].as_str().unwrap().to_string()), v))
            .collect()
    };
    let out = out_dir("gen");
    eval_task(&dir, "llama3_untied", "tiny_gen", &out);
    let theirs = by_filter(&dir.join("lm_eval/samples_tiny_gen.jsonl"));
    let ours = by_filter(&out.join("samples_tiny_gen.jsonl"));
    assert_eq!(ours.keys().collect::<Vec<_>>(), theirs.keys().collect::<Vec<_>>());
    for (key, t) in &theirs {
        let o = &ours[key];
        for field in [
            "doc",
            "target",
            "arguments",
            "resps",
            "filtered_resps",
            "metrics",
            "exact_match",
            "chrf",
            "bleu",
            "ter",
            "doc_hash",
            "prompt_hash",
        ] {
            assert_eq!(o[field], t[field], "{key:?}: {field}");
        }
    }
    assert!(theirs.values().any(|t| t["exact_match"] == 1.0), "no exact match: the test would not see a wrong 1");

    let results =
        |p: &std::path::Path| -> Value { serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap() };
    let theirs_r = results(&dir.join("lm_eval/results_tiny_gen.json"))["results"]["tiny_gen"].clone();
    let ours_r = results(&out.join("results_tiny_gen.json"))["results"]["tiny_gen"].clone();
    let mut compared = 0;
    for (k, v) in theirs_r.as_object().unwrap() {
        let Some(x) = v.as_f64() else { continue };
        let y = ours_r[k].as_f64().unwrap_or_else(|| panic!("{k} missing from our results: {ours_r}"));
        let tol = if k.contains("_stderr") { 1e-6 } else { 1e-9 };
        assert!((x - y).abs() <= tol * x.abs().max(1.0), "{k}: lm-eval {x}, lingualens {y}");
        compared += 1;
    }
    assert_eq!(compared, 17, "sample_len and 8 metrics with 8 stderrs");
    println!(
        "generate_until vs lm-eval: {} samples (7 documents × 2 filters), {compared} result values equal",
        theirs.len()
    );

    // Resuming a generation run generates nothing again and reports the same.
    let again = eval_task(&dir, "llama3_untied", "tiny_gen", &out);
    assert!(again.contains("7 of 7 items are already"), "{again}");
    assert_eq!(std::fs::read_to_string(out.join("samples_tiny_gen.jsonl")).unwrap().lines().count(), theirs.len());
    let resumed = results(&out.join("results_tiny_gen.json"))["results"]["tiny_gen"].clone();
    assert_eq!(resumed["chrf,word"], ours_r["chrf,word"]);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn loglikelihood_output_type_matches_lm_eval_perplexity_and_acc() {
    let Some(dir) = fixtures() else { return };
    let out = out_dir("ll");
    eval_task(&dir, "llama3_tied", "tiny_ll", &out);
    let theirs = samples(&dir.join("lm_eval/samples_tiny_ll.jsonl"));
    let ours = samples(&out.join("samples_tiny_ll.jsonl"));
    assert_eq!(ours.keys().collect::<Vec<_>>(), theirs.keys().collect::<Vec<_>>());
    let mut worst = 0f64;
    for (id, t) in &theirs {
        let o = &ours[id];
        for field in ["doc", "target", "arguments", "metrics", "acc", "doc_hash", "prompt_hash", "target_hash"] {
            assert_eq!(o[field], t[field], "doc {id}: {field}");
        }
        let d = (ll(&o["filtered_resps"][0]) - ll(&t["filtered_resps"][0])).abs();
        assert!(d < 1e-4, "doc {id}: log-likelihood {d:e} apart");
        assert_eq!(o["filtered_resps"][0][1], t["filtered_resps"][0][1], "doc {id}: is_greedy");
        worst = worst.max(d);
    }
    let results =
        |p: &std::path::Path| -> Value { serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap() };
    let theirs_r = results(&dir.join("lm_eval/results_tiny_ll.json"))["results"]["tiny_ll"].clone();
    let ours_r = results(&out.join("results_tiny_ll.json"))["results"]["tiny_ll"].clone();
    for k in ["perplexity,none", "acc,none", "acc_stderr,none", "perplexity_stderr,none"] {
        let (x, y) = (theirs_r[k].as_f64().unwrap(), ours_r[k].as_f64().unwrap_or(f64::NAN));
        // perplexity is exp(-mean ll): the 1e-4 per-sample tolerance, relative.
        assert!((x - y).abs() <= 1e-3 * x.abs().max(1.0), "{k}: lm-eval {x}, lingualens {y}");
    }
    println!(
        "loglikelihood vs lm-eval: {} samples, max |Δ ll| {worst:.2e}, perplexity {} vs {}",
        theirs.len(),
        ours_r["perplexity,none"],
        theirs_r["perplexity,none"]
    );
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn multiple_input_matches_lm_eval_a_context_per_option() {
    let Some(dir) = fixtures() else { return };
    let out = out_dir("wino");
    eval_task(&dir, "llama3_tied", "tiny_wino", &out);
    let theirs = samples(&dir.join("lm_eval/samples_tiny_wino.jsonl"));
    let ours = samples(&out.join("samples_tiny_wino.jsonl"));
    assert_eq!(ours.keys().collect::<Vec<_>>(), theirs.keys().collect::<Vec<_>>());
    let mut worst = 0f64;
    for (id, t) in &theirs {
        let o = &ours[id];
        // Two requests, each with its own context ending in one option, the same continuation.
        let args = t["arguments"].as_object().unwrap();
        assert_eq!(args.len(), 2);
        assert_ne!(args["gen_args_0"]["arg_0"], args["gen_args_1"]["arg_0"]);
        for field in ["arguments", "target", "doc_hash", "prompt_hash", "target_hash", "metrics", "acc", "acc_norm"] {
            assert_eq!(o[field], t[field], "doc {id}: {field}");
        }
        for (a, b) in o["filtered_resps"].as_array().unwrap().iter().zip(t["filtered_resps"].as_array().unwrap()) {
            worst = worst.max((ll(a) - ll(b)).abs());
            assert!((ll(a) - ll(b)).abs() < 1e-4, "doc {id}: {} vs {}", ll(a), ll(b));
            assert_eq!(a[1], b[1], "doc {id}: is_greedy");
        }
    }
    // acc_norm divides by the options' lengths (lm-eval's partial scoring): it differs from acc somewhere.
    assert!(theirs.values().any(|t| t["acc"] != t["acc_norm"]) || theirs.values().any(|t| t["acc"] == 1.0));
    println!("multiple input vs lm-eval: {} samples, max |Δ log-likelihood| {worst:.1e}", theirs.len());
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn gen_prefix_filters_and_gen_kwargs_match_lm_eval() {
    let Some(dir) = fixtures() else { return };
    let out = out_dir("gen-prefix");
    // The --gen_kwargs string lm-eval was run with, passed the same way.
    let gen_kwargs = std::fs::read_to_string(dir.join("lm_eval/tiny_gen_prefix.gen_kwargs")).unwrap();
    let printed =
        eval_task_with(&dir, "llama3_untied", "tiny_gen_prefix", &out, &["--gen_kwargs".as_ref(), gen_kwargs.as_ref()]);
    let theirs = samples(&dir.join("lm_eval/samples_tiny_gen_prefix.jsonl"));
    let ours = samples(&out.join("samples_tiny_gen_prefix.jsonl"));
    assert_eq!(ours.keys().collect::<Vec<_>>(), theirs.keys().collect::<Vec<_>>(), "{printed}");
    for (id, t) in &theirs {
        let o = &ours[id];
        assert!(
            t["arguments"]["gen_args_0"]["arg_0"].as_str().unwrap().ends_with(" So:"),
            "gen_prefix after the prompt"
        );
        // arguments holds the generation settings as lm-eval logs them: the task's, --gen_kwargs merged in.
        for field in [
            "doc",
            "target",
            "arguments",
            "resps",
            "filtered_resps",
            "filter",
            "metrics",
            "exact_match",
            "doc_hash",
            "prompt_hash",
        ] {
            assert_eq!(o[field], t[field], "doc {id}: {field}");
        }
    }
    // The filters changed something (uppercase, whitespace), so an unapplied filter would fail.
    assert!(theirs.values().any(|t| t["resps"][0][0] != t["filtered_resps"][0]));
    println!("gen_prefix + remove_whitespace/uppercase + --gen_kwargs vs lm-eval: {} samples equal", theirs.len());
    let _ = std::fs::remove_dir_all(&out);
}

/// Every `metric,filter` and `metric_stderr,filter` of a task's entry in a results file.
fn metric_entries(results: &Value, task: &str) -> BTreeMap<String, Value> {
    results["results"][task]
        .as_object()
        .unwrap_or_else(|| panic!("no results for {task}: {results}"))
        .iter()
        .filter(|(k, _)| k.contains(','))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

#[test]
fn a_run_exported_from_the_page_and_the_same_run_from_the_cli_report_the_same() {
    let Some(dir) = fixtures() else { return };
    use lingualens::web::run::Run;
    let out = out_dir("page-export");
    eval(&dir, &out);
    eval_task(&dir, "llama3_tied", "tiny_pmi", &out);
    for (task, metrics) in [("tiny_mc", 2), ("tiny_pmi", 2)] {
        let read = |name: &str| std::fs::read_to_string(out.join(name)).unwrap();
        let cli: Value = serde_json::from_str(&read(&format!("results_{task}.json"))).unwrap();
        let expected = metric_entries(&cli, task);
        assert_eq!(expected.len(), 2 * metrics, "{task}: {expected:?}");
        // The page's run, imported from the CLI's samples file, then exported again.
        let samples_name = format!("samples_{task}.jsonl");
        let run = Run::from_samples_jsonl(&samples_name, &read(&samples_name)).unwrap();
        let page: Value = serde_json::from_str(&run.results_json("cpu", 0.0, 1.0).unwrap()).unwrap();
        assert_eq!(metric_entries(&page, task), expected, "{task}: the page's results file");
        let again = Run::from_samples_jsonl(&samples_name, &run.samples_jsonl()).unwrap();
        assert_eq!(
            again.results_json("cpu", 0.0, 1.0).unwrap(),
            run.results_json("cpu", 0.0, 1.0).unwrap(),
            "{task}: export, import, export"
        );
        // The CSV is the CLI's, row for row (the CLI breaks down by language only, the page by
        // every short field, so the metadata columns differ).
        let cli_csv = read(&format!("items_{task}.csv"));
        let page_csv = run.csv().unwrap();
        let cut =
            |csv: &str| -> Vec<String> { csv.lines().map(|l| l.split(",meta.").next().unwrap().to_string()).collect() };
        assert_eq!(page_csv.lines().count(), cli_csv.lines().count(), "{task}");
        assert_eq!(cut(&page_csv)[0], cut(&cli_csv)[0], "{task}: the columns before the metadata");
        println!("{task}: the page's results equal the CLI's: {expected:?}");
    }
    // A run imported from lm-eval's own samples reports the metrics lm-eval logged, PMI included.
    let theirs = std::fs::read_to_string(dir.join("lm_eval/samples_tiny_pmi.jsonl")).unwrap();
    let run = Run::from_samples_jsonl("samples_tiny_pmi.jsonl", &theirs).unwrap();
    let page: Value = serde_json::from_str(&run.results_json("cpu", 0.0, 1.0).unwrap()).unwrap();
    let lines = samples(&dir.join("lm_eval/samples_tiny_pmi.jsonl"));
    for metric in ["acc", "acc_mutual_info"] {
        let mean = lines.values().map(|s| s[metric].as_f64().unwrap()).sum::<f64>() / lines.len() as f64;
        let got = page["results"]["tiny_pmi"][format!("{metric},none")].as_f64().unwrap_or(f64::NAN);
        assert!((got - mean).abs() < 1e-12, "{metric}: {got} vs lm-eval's samples' mean {mean}");
    }
    let _ = std::fs::remove_dir_all(&out);
}
