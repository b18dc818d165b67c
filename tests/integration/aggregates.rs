//! Parity of lingualens' log-likelihood metrics, aggregates and lm-eval output files with
//! lm-evaluation-harness 0.4.13.
//!
//! `tools/fixtures/aggregates.py OUTDIR` writes `OUTDIR/aggregates/aggregates.json` (generated items
//! and lm-eval's own numbers for them) and the results JSON and samples JSONL that lm-eval itself
//! wrote for a multiple-choice task over those items. This test requires:
//! * per-item `acc`, `acc_norm`, `acc_bytes`, `exact_match`, `acc_mutual_info` identical;
//! * `mean`, `sample_stddev`, `mean_stderr`, pooled group stderr, breakdowns within 1e-9 (relative);
//! * Python's `random.Random` outputs identical (Mersenne Twister);
//! * bootstrap stderr of median/perplexity (2000 iterations) within 1e-9 relative, and of
//!   chrF/chrF++/BLEU/TER (100 iterations, the evaluator's setting) within [`CORPUS_TOL`];
//! * every samples JSONL line byte-identical to lm-eval's, and the results JSON with the same keys in
//!   the same order, the same per-task entries (values within 1e-12) and the same `task_hashes`.
//!
//! It also writes its own files to `OUTDIR/aggregates/lingualens_out/` for
//! `aggregates.py --check OUTDIR/aggregates/lingualens_out` (lm-eval's readers).
//!
//! Set `LINGUALENS_FIXTURES=OUTDIR`. Without it (or without the file) the test says it was skipped and
//! passes, unless `LINGUALENS_REQUIRE_FIXTURES=1`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use lingualens::scoring::aggregate::{self, CorpusMetric, PyRandom};
use lingualens::scoring::loglikelihood::{ChoiceScores, ExactMatch, McScore};
use lingualens::scoring::outputs::{self, McSample, ResultsFile, SampleRecord, TaskResult};
use lingualens::scoring::pyjson::PyJson;
use lingualens::scoring::report;
use lingualens::scoring::session::{complete_lines, Session};
use serde_json::Value;

use crate::common;

/// Corpus metrics: our chrF/BLEU/TER equal sacrebleu's up to float noise, and each replicate is
/// recomputed on the identical resample, so the bootstrap stderr agrees to this relative tolerance.
const CORPUS_TOL: f64 = 1e-6;
const METRICS: [&str; 5] = ["acc", "acc_norm", "acc_bytes", "exact_match", "acc_mutual_info"];

fn fixture_dir() -> Option<PathBuf> {
    common::fixture("aggregates", "aggregates/aggregates.json", "tools/fixtures/aggregates.py")
        .map(|f| f.parent().unwrap().to_path_buf())
}

fn load(dir: &std::path::Path) -> Value {
    let path = dir.join("aggregates.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn f64s(v: &Value) -> Vec<f64> {
    v.as_array().expect("array").iter().map(|x| x.as_f64().expect("number")).collect()
}

fn reprs(v: &Value) -> Vec<f64> {
    v.as_array().expect("array").iter().map(|x| x.as_str().expect("string").parse().expect("float")).collect()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().expect("array").iter().map(|x| x.as_str().expect("string").to_string()).collect()
}

fn bools(v: &Value) -> Vec<bool> {
    v.as_array().expect("array").iter().map(|x| x.as_bool().expect("bool")).collect()
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    a == b || (a - b).abs() <= rel * a.abs().max(b.abs()).max(1e-300)
}

struct Mc {
    doc: Value,
    choices: Vec<String>,
    lls: Vec<f64>,
    unconditional: Vec<f64>,
    is_greedy: Vec<bool>,
    unconditional_is_greedy: Vec<bool>,
    gold: usize,
    metadata: BTreeMap<String, String>,
}

fn mc_items(fx: &Value) -> Vec<Mc> {
    fx["mc_items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|it| {
            let doc = it["doc"].clone();
            let metadata = doc
                .as_object()
                .unwrap()
                .iter()
                .filter(|(k, _)| !["id", "question", "choices", "label"].contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
                .collect();
            Mc {
                choices: strings(&doc["choices"]),
                gold: doc["label"].as_u64().unwrap() as usize,
                lls: reprs(&it["lls_repr"]),
                unconditional: reprs(&it["unconditional_repr"]),
                is_greedy: bools(&it["is_greedy"]),
                unconditional_is_greedy: bools(&it["unconditional_is_greedy"]),
                metadata,
                doc,
            }
        })
        .collect()
}

fn score(it: &Mc) -> McScore {
    ChoiceScores {
        choices: &it.choices,
        loglikelihoods: &it.lls,
        is_greedy: &it.is_greedy,
        token_counts: None,
        unconditional: Some(&it.unconditional),
    }
    .score(&[it.gold])
    .unwrap()
}

fn metric_values(scores: &[McScore], metric: &str) -> Vec<f64> {
    scores.iter().map(|s| s.metrics().into_iter().find(|(m, _)| *m == metric).unwrap().1).collect()
}

#[test]
fn lm_eval_parity() {
    let Some(dir) = fixture_dir() else { return };
    let fx = load(&dir);
    let items = mc_items(&fx);
    let scores: Vec<McScore> = items.iter().map(score).collect();

    // Per-item metrics: identical to lm-eval's process_results.
    let per_item = fx["mc_per_item"].as_array().unwrap();
    assert_eq!(per_item.len(), items.len());
    for (i, (s, want)) in scores.iter().zip(per_item).enumerate() {
        for (m, v) in s.metrics() {
            if let Some(w) = want.get(m) {
                assert_eq!(v, w.as_f64().unwrap(), "item {i} {m}");
            }
        }
    }
    println!("per-item: {} items × {} metrics identical", items.len(), METRICS.len());

    // Breakdown by every metadata field.
    let metas: Vec<&BTreeMap<String, String>> = items.iter().map(|i| &i.metadata).collect();
    let mut groups = 0;
    for metric in METRICS {
        let b = aggregate::breakdown_by_metadata(&metric_values(&scores, metric), &metas).unwrap();
        let want = fx["mc_breakdown"][metric].as_object().unwrap();
        assert_eq!(b.len(), want.len(), "{metric}: fields");
        for (field, by_value) in want {
            let by_value = by_value.as_object().unwrap();
            assert_eq!(b[field].len(), by_value.len(), "{metric} {field}: values");
            for (value, w) in by_value {
                let got = &b[field][value];
                assert_eq!(got.n as u64, w["n"].as_u64().unwrap());
                assert!(close(got.mean, w["mean"].as_f64().unwrap(), 1e-12), "{metric} {field}={value}");
                match (got.stderr, w["stderr"].as_f64()) {
                    (Some(a), Some(b)) => assert!(close(a, b, 1e-9), "{metric} {field}={value}: {a} vs {b}"),
                    (None, None) => {}
                    other => panic!("{metric} {field}={value}: stderr {other:?}"),
                }
                groups += 1;
            }
        }
    }
    println!("breakdown: {groups} (metric, field, value) groups match");

    // Mean / stderr series.
    for (name, s) in fx["series"].as_object().unwrap() {
        let xs = f64s(&s["values"]);
        assert!(close(aggregate::mean(&xs).unwrap(), s["mean"].as_f64().unwrap(), 1e-12), "{name} mean");
        let se = aggregate::mean_stderr(&xs).unwrap();
        assert!(close(se, s["mean_stderr"].as_f64().unwrap(), 1e-9), "{name} stderr");
        assert!(close(aggregate::sample_stddev(&xs).unwrap(), s["sample_stddev"].as_f64().unwrap(), 1e-9));
    }

    // Mersenne Twister.
    for (seed, want) in fx["random"].as_object().unwrap() {
        let seed: u64 = seed.parse().unwrap();
        let want = want.as_array().unwrap();
        assert_eq!(PyRandom::new(seed).random(), want[0].as_f64().unwrap(), "seed {seed}");
        let picks = PyRandom::new(seed).choices_indices(1000, 20);
        let want_picks: Vec<usize> = want[1..].iter().map(|v| v.as_u64().unwrap() as usize).collect();
        assert_eq!(picks, want_picks, "seed {seed}");
    }

    // Bootstrap.
    let boot = &fx["bootstrap"];
    let pairs: Vec<(String, Vec<String>)> = boot["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[1].as_str().unwrap().to_string(), vec![p[0].as_str().unwrap().to_string()]))
        .collect();
    for (name, metric) in [
        ("chrf", CorpusMetric::Chrf),
        ("chrf++", CorpusMetric::ChrfPlusPlus),
        ("bleu", CorpusMetric::Bleu),
        ("ter", CorpusMetric::Ter),
    ] {
        let (score, stderr) = metric.score_with_stderr(&pairs, aggregate::DEFAULT_BOOTSTRAP_ITERS).unwrap();
        let (ws, wse) = (boot[name]["score"].as_f64().unwrap(), boot[name]["stderr_100"].as_f64().unwrap());
        let stderr = stderr.unwrap();
        println!(
            "bootstrap {name}: score {score} vs {ws}, stderr {stderr} vs {wse} (rel {:.1e})",
            ((stderr - wse) / wse).abs()
        );
        assert!(close(score, ws, CORPUS_TOL), "{name} score {score} vs {ws}");
        assert!(close(stderr, wse, CORPUS_TOL), "{name} stderr {stderr} vs {wse}");
    }
    let med = f64s(&boot["median_values"]);
    let got = aggregate::bootstrap_stderr(|s| Ok(aggregate::median(s).unwrap()), &med, 2000).unwrap().unwrap();
    assert!(close(got, boot["median_2000"].as_f64().unwrap(), 1e-9), "median {got}");
    let ll = f64s(&fx["series"]["loglik_64"]["values"]);
    let got = aggregate::bootstrap_stderr(|s| Ok(aggregate::perplexity(s).unwrap()), &ll, 2000).unwrap().unwrap();
    assert!(close(got, boot["perplexity_2000"].as_f64().unwrap(), 1e-9), "perplexity {got}");

    // Groups.
    let g = &fx["groups"];
    let sizes: Vec<usize> = g["sizes"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as usize).collect();
    let pooled = aggregate::pooled_sample_stderr(&f64s(&g["stderrs"]), &sizes).unwrap();
    assert!(close(pooled, g["pooled_sample_stderr"].as_f64().unwrap(), 1e-12));
    let w = aggregate::aggregate_subtask_metrics(&f64s(&g["scores"]), &sizes, true).unwrap();
    assert!(close(w, g["weighted"].as_f64().unwrap(), 1e-12));
    let u = aggregate::aggregate_subtask_metrics(&f64s(&g["scores"]), &sizes, false).unwrap();
    assert!(close(u, g["unweighted"].as_f64().unwrap(), 1e-12));

    // exact_match for generations.
    for case in fx["exact_match"].as_array().unwrap() {
        let o = &case["options"];
        let em = ExactMatch {
            regexes_to_ignore: o.get("regexes_to_ignore").map(strings).unwrap_or_default(),
            ignore_case: o.get("ignore_case").is_some_and(|v| v.as_bool().unwrap()),
            ignore_punctuation: o.get("ignore_punctuation").is_some_and(|v| v.as_bool().unwrap()),
            ignore_numbers: o.get("ignore_numbers").is_some_and(|v| v.as_bool().unwrap()),
        };
        let got = em.score(case["prediction"].as_str().unwrap(), &[case["reference"].as_str().unwrap()]).unwrap();
        assert_eq!(got, case["exact_match"].as_f64().unwrap(), "{case}");
    }

    // lm-eval's files.
    check_files(&dir, &fx, &items, &scores);
}

/// The doc as lm-eval's dataset hands it over: every column of the dataset (sorted here, as the
/// generated JSONL's keys are), `null` where a row lacks it.
fn dataset_doc(items: &[Mc], it: &Mc) -> PyJson {
    let mut columns: Vec<&String> = items.iter().flat_map(|i| i.doc.as_object().unwrap().keys()).collect();
    columns.sort();
    columns.dedup();
    PyJson::Dict(
        columns
            .into_iter()
            .map(|c| (c.clone(), it.doc.get(c).map(PyJson::from_serde).unwrap_or(PyJson::Null)))
            .collect(),
    )
}

fn check_files(dir: &std::path::Path, fx: &Value, items: &[Mc], scores: &[McScore]) {
    // Samples JSONL: byte-identical lines.
    let lm_samples = std::fs::read_to_string(dir.join(fx["samples_file"].as_str().unwrap())).unwrap();
    let mut records = Vec::new();
    for (i, (it, s)) in items.iter().zip(scores).enumerate() {
        let context = it.doc["question"].as_str().unwrap();
        let continuations: Vec<String> = it.choices.iter().map(|c| format!(" {c}")).collect();
        let sample = McSample {
            doc_id: i as u64,
            doc: dataset_doc(items, it),
            target: it.gold.to_string(),
            context,
            contexts: None,
            continuations: &continuations,
            loglikelihoods: &it.lls,
            is_greedy: &it.is_greedy,
            unconditional: Some((&it.unconditional, &it.unconditional_is_greedy)),
        };
        let r = SampleRecord::multiple_choice(sample, s, &METRICS).unwrap();
        records.push(r);
    }
    let ours = outputs::samples_jsonl(&records);
    let (mut same, mut lines) = (0, 0);
    for (i, (a, b)) in ours.lines().zip(lm_samples.lines()).enumerate() {
        assert_eq!(a, b, "samples line {i} differs");
        same += 1;
    }
    lines += lm_samples.lines().count();
    assert_eq!(ours.lines().count(), lines);
    println!("samples JSONL: {same}/{lines} lines byte-identical to lm-eval's");

    // Results JSON.
    let lm_results: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join(fx["results_file"].as_str().unwrap())).unwrap())
            .unwrap();
    // The metrics as lingualens aggregates a run: from the samples, lm-eval's own file here.
    let session = Session::from_jsonl("lm-eval's samples", "multiple_choice", &lm_samples).unwrap();
    let metrics = session.metrics().unwrap();
    assert_eq!(
        metrics.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(),
        METRICS,
        "every metric lm-eval logged, in its order"
    );
    let results = ResultsFile {
        tasks: vec![TaskResult {
            name: "ll_mc".into(),
            alias: "ll_mc".into(),
            metrics,
            version: PyJson::Float(1.0),
            num_fewshot: 0,
            n_original: items.len(),
            n_effective: items.len(),
            config: PyJson::from_serde(&lm_results["configs"]["ll_mc"]),
        }],
        groups: vec![],
        model: "lingualens".into(),
        model_args: "pretrained=table-lm".into(),
        model_name: "table-lm".into(),
        config: vec![
            ("batch_size".into(), PyJson::Int(1)),
            ("device".into(), PyJson::str("cpu")),
            ("limit".into(), PyJson::Null),
            ("bootstrap_iters".into(), PyJson::Int(100_000)),
        ],
        start_unix: 1_796_061_326.25,
        end_unix: 1_796_061_329.75,
        producer: "lingualens 0.1.0".into(),
        task_hashes: vec![("ll_mc".into(), outputs::task_hash(&records))],
    };
    let json = results.to_json();
    let ours: Value = serde_json::from_str(&json).unwrap();
    let key_order = |text: &str| -> Vec<String> {
        // Top-level keys in file order (serde_json's Map may sort them).
        text.lines().filter(|l| l.starts_with("  \"")).map(|l| l[3..].split('"').next().unwrap().to_string()).collect()
    };
    let lm_text = std::fs::read_to_string(dir.join(fx["results_file"].as_str().unwrap())).unwrap();
    assert_eq!(key_order(&json), key_order(&lm_text), "top-level keys");
    let (a, b) = (ours["results"]["ll_mc"].as_object().unwrap(), lm_results["results"]["ll_mc"].as_object().unwrap());
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (k, v) in b {
        match (v.as_f64(), a[k].as_f64()) {
            (Some(w), Some(g)) => assert!(close(g, w, 1e-12), "results {k}: {g} vs {w}"),
            _ => assert_eq!(&a[k], v, "results {k}"),
        }
    }
    for key in ["task_hashes", "n-samples", "higher_is_better", "versions", "n-shot", "configs", "group_subtasks"] {
        assert_eq!(ours[key], lm_results[key], "{key}");
    }
    println!("results JSON: keys, per-task entries and task_hashes match lm-eval's");

    // Our own files for `aggregates.py --check`.
    let date = outputs::date_id(results.start_unix);
    let out = dir.join("lingualens_out").join(outputs::sanitize_model_name(&results.model_name));
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join(outputs::results_file_name(&date)), &json).unwrap();
    std::fs::write(out.join(outputs::samples_file_name("ll_mc", &date)), outputs::samples_jsonl(&records)).unwrap();
    std::fs::write(out.join(format!("items_ll_mc_{date}.csv")), report::csv(&session.rows(None))).unwrap();

    // Resume from lm-eval's own samples file: every doc is done; from a copy cut off inside its
    // 11th line (inside a multibyte character), the first 10.
    assert_eq!(session.len(), items.len());
    let cut =
        lm_samples.lines().take(10).map(|l| format!("{l}\n")).collect::<String>() + "{\"doc_id\": 10, \"doc\": \"ཀ";
    let lines = complete_lines(&cut.as_bytes()[..cut.len() - 1]);
    let mut resumed = Session::new("multiple_choice");
    for line in &lines {
        assert_eq!(resumed.record(line), Ok(true));
    }
    assert_eq!(resumed.samples().map(|s| s.doc_id).collect::<Vec<_>>(), (0..10).collect::<Vec<u64>>());
}
