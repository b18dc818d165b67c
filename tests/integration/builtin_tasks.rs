//! The built-in tasks of `datasets/tasks/`: every one loads and renders, and each family runs
//! through `lingualens eval --task NAME` on a small data file written here in the benchmark's own
//! schema, with prompts that hold what the task promises (the exemplars' worked answers, the
//! English translation, the native letters, k shots from the few-shot split). The DZEN tasks also
//! run over the real CSVs in `shared/datasets/dzen`.
//!
//! The prompt texts of ProverbEval and KyrgyzLLM-Bench are not in the repository: the tasks include
//! files that `datasets/tasks/proverbeval/make_overrides.py` and
//! `datasets/tasks/kyrgyzllm/make_prompts.py` write from the shared `PROMPTS.md` files, which these
//! tests run first (python3). Needs `../shared` (`LINGUALENS_SHARED`) and, for the runs,
//! `LINGUALENS_FIXTURES` (the tiny Llama GGUF). Without them a test says it was skipped; with
//! `LINGUALENS_REQUIRE_FIXTURES=1` it fails instead.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use lingualens::tasks::yaml::{self, DataSource, LoadOptions, OutputType};
use lingualens::tasks::{self, Item};
use serde_json::Value;

use crate::common;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The shared folder (`../shared`, holding `datasets/`), or `None` after skipping `test`.
fn shared(test: &str) -> Option<PathBuf> {
    common::shared(test, "datasets").map(|d| d.parent().unwrap().to_path_buf())
}

fn model(test: &str) -> Option<PathBuf> {
    common::fixture(test, "models/llama3_tied/gguf/llama3_tied-Q8_0.gguf", "tools/fixtures/models.py")
}

/// Writes the generated prompt files (once per test binary) from the shared PROMPTS.md files;
/// `false` after skipping `test` when `../shared` is not there.
pub(crate) fn prompts(test: &str) -> bool {
    static DONE: OnceLock<()> = OnceLock::new();
    // Checked on every call, so each test that needs shared/ says it was skipped.
    let Some(shared) = shared(test) else { return false };
    DONE.get_or_init(|| {
        for (script, prompts, out) in [
            (
                "datasets/tasks/proverbeval/make_overrides.py",
                "datasets/proverbeval-configs/PROMPTS.md",
                "datasets/tasks/proverbeval/overrides",
            ),
            (
                "datasets/tasks/kyrgyzllm/make_prompts.py",
                "datasets/kyrgyzllm-bench-configs/PROMPTS.md",
                "datasets/tasks/kyrgyzllm/prompts",
            ),
        ] {
            let status = Command::new("python3")
                .arg(repo().join(script))
                .arg(shared.join(prompts))
                .arg(repo().join(out))
                .status()
                .expect("run python3");
            assert!(status.success(), "{script} failed");
        }
    });
    true
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("lingualens-builtin-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write(dir: &Path, rel: &str, text: &str) -> PathBuf {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, text).unwrap();
    p
}

fn csv_line(fields: &[&str]) -> String {
    fields.iter().map(|c| format!("\"{}\"", c.replace('"', "\"\""))).collect::<Vec<_>>().join(",") + "\r\n"
}

// ---------------------------------------------------------------------------------------------
// Data in each benchmark's schema

/// A DZEN evaluation file (11 columns) and a few-shot file (26 columns), for grade 10 biology.
fn dzen_files(dir: &Path) -> PathBuf {
    let mut eval = csv_line(&[
        "English Question",
        "Dzongkha Question",
        "A",
        "B",
        "C",
        "D",
        "A Dz .",
        "B Dz ",
        "C Dz",
        "D Dz",
        "Correct Answer",
    ]);
    for (i, gold) in ["a", "c", "d"].iter().enumerate() {
        let q = format!("Which cell part number {i} holds the genes?");
        let qdz = format!("ཕྲ་རབ་ {i} གང་ཨིན?");
        eval += &csv_line(&[&q, &qdz, "Nucleus", "Wall", "Vacuole", "Membrane", "ཀ་ཀ", "ཁ་ཁ", "ག་ག", "ང་ང", gold]);
    }
    write(dir, "DZEN/10th-Biology.csv", &eval);
    let mut few = csv_line(&tasks::dzen::FEW_SHOT_COLUMNS);
    for (i, (gold, dz)) in [("b", "ཁ"), ("a", "ཀ")].iter().enumerate() {
        let mut f: Vec<String> = vec![String::new(); 26];
        f[0] = i.to_string();
        f[1] = format!("Exemplar question {i}: what do leaves make?");
        f[2] = format!("དཔེ་ {i} ལོ་མ?");
        for (k, o) in ["Sugar", "Salt", "Iron", "Gold"].iter().enumerate() {
            f[3 + k] = o.to_string();
            f[10 + k] = format!("{o}-dz");
        }
        f[7] = gold.to_string();
        f[16] = "N".into();
        f[22] = "Factual Knowledge".into();
        f[24] = format!("Worked answer {i}: leaves photosynthesise. So {{{{\"Answer\": \"{gold}\"}}}}");
        f[25] = format!("དཔེ་ལན་ {i} {{{{\"ལན\": \"{dz}\"}}}}");
        few += &csv_line(&f.iter().map(String::as_str).collect::<Vec<_>>());
    }
    write(dir, "DZEN-Few_Shots/10th-Biology-few_shot.csv", &few);
    dir.to_path_buf()
}

/// A ProverbEval row with every column its tasks read.
fn proverb_row(i: usize) -> String {
    format!(
        r#"{{"Proverb": "ድር ቢያብር ___ ያስር {i}", "A": "Meaning A{i}", "B": "Meaning B{i}", "C": "Meaning C{i}", "D": "Meaning D{i}", "Answer_Letter": "B", "Answer": "C", "Description": "Many weak ones unite {i}."}}"#
    )
}

fn proverb_csv(prefix: &str, n: usize) -> String {
    let mut s = "Proverb,A,B,C,D,Answer_Letter,Answer,Description\n".to_string();
    for i in 0..n {
        s += &format!("{prefix} proverb ___ {i},{prefix} meaning A{i},{prefix} meaning B{i},{prefix} meaning C{i},{prefix} meaning D{i},B,C,{prefix} description {i}\n");
    }
    s
}

/// KyrgyzLLM-Bench rows (JSONL) by loader, with `n` rows tagged `tag` (the split) in their texts.
fn kyrgyz_rows(loader: &str, tag: &str, n: usize) -> String {
    (0..n)
        .map(|i| {
            let row = match loader {
                "kyrgyz-mmlu" => format!(r#"{{"Суроо (KG)": "{tag} суроо {i}?", "А (KG)": "бир {i}", "Б (KG)": "эки {i}", "В (KG)": "үч {i}", "Г (KG)": "төрт {i}", "Туура жооп": "б"}}"#),
                "kyrgyz-rc" => format!(r#"{{"Текст (KG)": "{tag} текст {i}.", "Суроо (KG)": "{tag} суроо {i}?", "А (KG)": "бир", "Б (KG)": "эки", "В (KG)": "үч", "Г (KG)": "төрт", "Туура жооп": "в"}}"#),
                "boolq-kg" => format!(r#"{{"passage_kg": "{tag} текст {i}.", "question_kg": "{tag} суроо {i}??", "answer_kg": "ооба"}}"#),
                "hellaswag-kg" => format!(r#"{{"activity_label_kg": "{tag} иш {i}", "ctx_a_kg": "ал", "ctx_b_kg": "андан кийин", "endings_kg": "['бир', 'эки', 'үч', 'төрт']", "label": "2"}}"#),
                "winogrande-kg" => format!(r#"{{"sentence_kg": "{tag} {i} Айгүл китепти сумкага салды, анткени _ чоң эле.", "option1_kg": "сумка", "option2_kg": "китеп", "answer": "1"}}"#),
                "truthfulqa-mc-kg" => format!(r#"{{"Question_kg": "{tag} суроо {i}?", "mc1_targets_kg": "{{'choices': ['туура {i}', 'жалган {i}'], 'labels': [1, 0]}}", "mc2_targets_kg": "{{'choices': ['туура', 'дагы туура', 'жалган'], 'labels': [1, 1, 0]}}"}}"#),
                other => panic!("no rows for {other}"),
            };
            row + "\n"
        })
        .collect()
}

/// The evaluated and few-shot splits' file names for a KyrgyzLLM-Bench loader.
fn kyrgyz_splits(loader: &str) -> (&'static str, &'static str) {
    match loader {
        "boolq-kg" => ("val", "train"),
        "hellaswag-kg" => ("validation", "train"),
        "winogrande-kg" => ("dev", "train"),
        "truthfulqa-mc-kg" => ("test", "validation"),
        _ => ("test", "validation"),
    }
}

fn load_items(loader: &str, files: &[PathBuf]) -> Vec<Item> {
    let mut items = Vec::new();
    for p in files {
        let name = p.display().to_string();
        let options = tasks::TableOptions {
            mapping: Some(tasks::builtin(loader).unwrap()),
            metadata: tasks::check::metadata_from_path(&name),
            ..Default::default()
        };
        let loaded = tasks::load_table(&name, &std::fs::read(p).unwrap(), &options);
        assert!(loaded.anomalies.is_empty(), "{name}: {:?}", loaded.anomalies);
        items.extend(loaded.items);
    }
    items
}

// ---------------------------------------------------------------------------------------------
// Every built-in task loads and renders

/// The built-in tasks this change promises, by family (a missing or renamed file fails here).
const EXPECTED: &[&str] = &[
    "dzen_en",
    "dzen_dz",
    "dzen_dz_en",
    "dzen_cot_en",
    "dzen_cot_dz",
    "dzen_en_cloze",
    "dzen_dz_cloze",
    "dzen_dz_en_cloze",
    "kyrgyz_mmlu",
    "kyrgyz_rc",
    "boolq_kg",
    "hellaswag_kg",
    "winogrande_kg",
    "winogrande_kg_partial",
    "truthfulqa_mc1_kg",
    "amh_choice_english_1",
    "amh_choice_native_1",
    "amh_choice_native_p1_english",
    "amh_choice_native_p1_native",
    "orm_choice_english_1",
    "orm_choice_native_1",
    "orm_choice_native_p1_english",
    "orm_choice_native_p1_native",
    "tir_choice_english_1",
    "tir_choice_native_1",
    "tir_choice_native_p1_english",
    "tir_choice_native_p1_native",
    "gez_choice_english_1",
    "gez_choice_native_1",
    "gez_choice_native_p1_english",
    "gez_choice_native_p1_native",
    "eng_choice_native_1",
    "amh_fill_1",
    "orm_fill_1",
    "tir_fill_1",
    "gez_fill_1",
    "eng_fill_1",
    "amh_generation_english",
    "amh_generation_native",
    "orm_generation_english",
    "orm_generation_native",
    "tir_generation_english",
    "tir_generation_native",
    "gez_generation_english",
    "gez_generation_native",
    "eng_generation_native",
];

#[test]
fn every_builtin_task_loads_and_renders() {
    // The PROMPTS.md files of shared/ are what the prompt includes are generated from.
    if !prompts("every_builtin_task_loads_and_renders") {
        return;
    }
    let dir = scratch("render");
    let dzen = tasks::dzen::load_dzen_dir(&dzen_files(&dir.join("dzen"))).unwrap().into_loaded().items;
    let proverbs: Vec<Value> = (0..3).map(|i| serde_json::from_str(&proverb_row(i)).unwrap()).collect();
    let tasks = tasks::registry::list_tasks(&repo().join("datasets/tasks")).unwrap();
    let names: BTreeSet<&str> = tasks.iter().map(|(n, _)| n.as_str()).collect();
    for e in EXPECTED {
        assert!(names.contains(e), "no built-in task {e}; there are {names:?}");
    }
    for (name, path) in &tasks {
        let spec = yaml::load_task_file(path, &LoadOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (docs, pool) = match &spec.source {
            DataSource::Items { loader, .. } => {
                let items = if loader == "dzen" {
                    dzen.clone()
                } else {
                    let (test, few) = kyrgyz_splits(loader);
                    let files = [
                        write(&dir, &format!("{loader}/{test}.jsonl"), &kyrgyz_rows(loader, test, 2)),
                        write(&dir, &format!("{loader}/{few}.jsonl"), &kyrgyz_rows(loader, few, 2)),
                    ];
                    load_items(loader, &files)
                };
                let (docs, pool) = lingualens::tasks::bundle::item_task_docs(&spec, &items, "")
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                (docs, pool.docs().to_vec())
            }
            // The demo and the generic task have tests of their own.
            _ if path.parent().is_some_and(|d| d.ends_with("demo") || d.ends_with("generic")) => continue,
            _ => (proverbs.clone(), proverbs.clone()),
        };
        assert!(!docs.is_empty() && !pool.is_empty(), "{name}: no documents");
        let renderer = spec.renderer().unwrap_or_else(|e| panic!("{name}: {e}"));
        for shots in [0, 1] {
            for r in renderer
                .render_all(&docs, &lingualens::tasks::yaml::FewshotPool::Split(pool.clone()), Some(shots), 1234)
                .unwrap_or_else(|e| panic!("{name}, {shots} shots: {e}"))
            {
                assert!(!r.context.trim().is_empty(), "{name}: empty prompt");
                if spec.output_type == OutputType::MultipleChoice {
                    assert!(r.choices.as_ref().is_some_and(|c| c.len() >= 2), "{name}: choices {:?}", r.choices);
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn no_builtin_task_copies_a_prompt_text() {
    // The benchmark's prompt texts reach the tasks only through the generated include files.
    let Some(shared) = shared("no_builtin_task_copies_a_prompt_text") else { return };
    let mut texts = Vec::new();
    for md in ["datasets/proverbeval-configs/PROMPTS.md", "datasets/kyrgyzllm-bench-configs/PROMPTS.md"] {
        let md = std::fs::read_to_string(shared.join(md)).unwrap();
        // Phrases of four or more words from the prompt lines.
        for line in md.lines().filter(|l| l.starts_with("    ") || l.contains("query") || l.contains("doc_to_text")) {
            for phrase in line
                .split(['{', '}', '"', '\'', '`', '\\'])
                .map(str::trim)
                .filter(|p| p.split_whitespace().count() >= 4)
            {
                texts.push(phrase.to_string());
            }
        }
    }
    assert!(texts.len() > 20, "too few prompt phrases found: {texts:?}");
    let mut files = Vec::new();
    for sub in ["dzen", "kyrgyzllm", "proverbeval"] {
        for e in std::fs::read_dir(repo().join("datasets/tasks").join(sub)).unwrap() {
            let p = e.unwrap().path();
            // The generators hold Python code that mirrors the transcriptions' syntax, not prompt text.
            if p.is_file() && p.extension().is_none_or(|e| e != "py") {
                files.push(p);
            }
        }
    }
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for t in &texts {
            assert!(!text.contains(t.as_str()), "{} copies the prompt text {t:?}", f.display());
        }
        // KyrgyzLLM-Bench's prompts are short Kyrgyz labels; a task file's settings (its comments
        // aside, which name columns and answer values) have no Kyrgyz at all.
        if f.parent().is_some_and(|d| d.ends_with("kyrgyzllm")) {
            for line in text.lines().filter(|l| !l.trim_start().starts_with('#')) {
                assert!(
                    !line.chars().any(|c| ('\u{0400}'..='\u{04FF}').contains(&c)),
                    "{}: {line:?} has Kyrgyz text: a copied prompt?",
                    f.display()
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Runs through the CLI

/// `lingualens eval ARGS --out OUT`; the samples of the task.
fn eval(task: &str, args: &[&str], out: &Path) -> Vec<Value> {
    let model = model("builtin_tasks").unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_lingualens"))
        .args(["eval", "--model", model.to_str().unwrap(), "--task", task, "--out", out.to_str().unwrap()])
        .args(args)
        .output()
        .expect("run lingualens");
    assert!(
        output.status.success(),
        "lingualens eval --task {task} {args:?}:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    std::fs::read_to_string(out.join(format!("samples_{task}.jsonl")))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn context(sample: &Value) -> &str {
    sample["arguments"]["gen_args_0"]["arg_0"].as_str().unwrap()
}

/// The scored continuations of a multiple-choice sample.
fn continuations(sample: &Value) -> Vec<String> {
    let args = sample["arguments"].as_object().unwrap();
    (0..args.len()).map(|i| args[&format!("gen_args_{i}")]["arg_1"].as_str().unwrap().to_string()).collect()
}

/// The fixture GGUF and the generated prompt files, or `false` after skipping `test`.
fn ready(test: &str) -> bool {
    model(test).is_some() && prompts(test)
}

#[test]
fn dzen_chain_of_thought_on_written_files() {
    if !ready("dzen_chain_of_thought_on_written_files") {
        return;
    }
    let dir = scratch("dzen-cot");
    let data = dzen_files(&dir.join("data"));
    let en = eval("dzen_cot_en", &["--data", data.to_str().unwrap(), "--limit", "3", "--shots", "2"], &dir.join("en"));
    assert_eq!(en.len(), 3);
    for s in &en {
        let c = context(s);
        // Two exemplars with their worked answers, then the question, answered by generation.
        assert!(c.contains("Worked answer 0") && c.contains("Worked answer 1"), "{c}");
        assert!(c.contains(r#"So {{"Answer": "b"}}"#), "{c}");
        assert_eq!(c.matches("Answer:").count(), 3, "{c}");
        assert!(c.ends_with("Answer:"), "{c}");
        assert_eq!(s["filter"], "strict-match");
        assert!(s["arguments"]["gen_args_0"]["arg_1"]["until"].to_string().contains("Question:"), "{s}");
    }
    assert_eq!(en.iter().map(|s| s["target"].as_str().unwrap()).collect::<Vec<_>>(), ["a", "c", "d"]);

    let dz = eval("dzen_cot_dz", &["--data", data.to_str().unwrap(), "--limit", "3", "--shots", "1"], &dir.join("dz"));
    for s in &dz {
        let c = context(s);
        assert!(c.contains("དཔེ་ལན་ 0") && !c.contains("Worked answer"), "Dzongkha exemplars only: {c}");
        assert!(c.contains("ཕྲ་རབ་"), "the Dzongkha question: {c}");
    }
    // The gold as a Latin and a Tibetan letter.
    assert_eq!(dz[1]["target"], r#"["c", "ག"]"#);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dzen_tasks_over_the_real_csvs() {
    if !ready("dzen_tasks_over_the_real_csvs") {
        return;
    }
    let Some(dzen) = common::shared("dzen_tasks_over_the_real_csvs", "datasets/dzen/DZEN")
        .map(|d| d.parent().unwrap().to_path_buf())
    else {
        return;
    };
    let dir = scratch("dzen-real");
    let data = dzen.to_str().unwrap();
    // k shots from the few-shot files (`--shots` over num_fewshot 0).
    for k in [0usize, 3, 5] {
        let out = dir.join(format!("dz-{k}"));
        let lines = eval("dzen_dz", &["--data", data, "--limit", "3", "--shots", &k.to_string()], &out);
        for s in &lines {
            assert_eq!(context(s).matches("Answer:").count(), k + 1, "{k} shots");
        }
    }
    // The English translation appended to the Dzongkha question.
    for s in eval("dzen_dz_en", &["--data", data, "--limit", "3"], &dir.join("dz-en")) {
        let en = s["doc"]["question_en"].as_str().unwrap();
        assert!(context(&s).contains(en.trim()) && context(&s).contains(s["doc"]["question"].as_str().unwrap().trim()));
    }
    // Chain of thought with the real exemplars' worked answers.
    for s in eval("dzen_cot_en", &["--data", data, "--limit", "3", "--shots", "2"], &dir.join("cot-en")) {
        assert_eq!(context(&s).matches("Question:").count(), 3);
        assert!(
            context(&s).matches("Answer").count() >= 5,
            "two worked answers end in an answer object: {}",
            context(&s)
        );
        assert!(!context(&s).contains('\r'));
    }
    for s in eval("dzen_cot_dz", &["--data", data, "--limit", "3", "--shots", "1"], &dir.join("cot-dz")) {
        assert!(context(&s).contains("ལན"), "a Dzongkha worked answer: {}", context(&s));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn proverbeval_tasks_on_written_files() {
    if !ready("proverbeval_tasks_on_written_files") {
        return;
    }
    let dir = scratch("proverbeval");
    let test = write(&dir, "amh_native_test_1.csv", &proverb_csv("test", 4));
    // Native prompt: the Ethiopic letters are listed and scored.
    let lines =
        eval("amh_choice_native_p1_native", &["--data", test.to_str().unwrap(), "--limit", "3"], &dir.join("native"));
    assert_eq!(lines.len(), 3);
    for s in &lines {
        assert!(context(s).contains("ሀ: test meaning A") && context(s).contains("መ: test meaning D"), "{}", context(s));
        assert_eq!(continuations(s), [" ሀ", " ለ", " ሐ", " መ"]);
        assert_eq!(s["target"], "1");
    }
    // English prompt: the option texts are scored.
    for s in eval("orm_choice_english_1", &["--data", test.to_str().unwrap(), "--limit", "3"], &dir.join("english")) {
        assert!(context(&s).contains("Afann Oromo"), "{}", context(&s));
        assert_eq!(continuations(&s)[0], format!(" {}", s["doc"]["A"].as_str().unwrap()));
    }
    // Fill in the blank, 2 shots from the valid file given beside the test file.
    let fill = write(&dir, "amh_fill_1.csv", &proverb_csv("test", 4));
    let valid = write(&dir, "amh_fill_valid.csv", &proverb_csv("valid", 5));
    let lines = eval(
        "amh_fill_1",
        &["--data", fill.to_str().unwrap(), "--data", valid.to_str().unwrap(), "--limit", "3", "--shots", "2"],
        &dir.join("fill"),
    );
    assert_eq!(lines.len(), 3, "the valid file is not evaluated");
    for s in &lines {
        assert_eq!(context(s).matches("valid proverb").count(), 2, "{}", context(s));
        assert_eq!(context(s).matches("test proverb").count(), 1);
        assert_eq!(s["target"], "2");
    }
    // 0-shot needs no valid file.
    assert_eq!(eval("tir_fill_1", &["--data", fill.to_str().unwrap(), "--limit", "3"], &dir.join("fill0")).len(), 3);
    // Generation: the description in the prompt, the proverb the reference.
    let lines = eval("tir_generation_english", &["--data", test.to_str().unwrap(), "--limit", "3"], &dir.join("gen"));
    for s in &lines {
        assert!(context(s).contains(s["doc"]["Description"].as_str().unwrap()) && context(s).contains("Tigrinya"));
        assert_eq!(s["target"], s["doc"]["Proverb"]);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn kyrgyzllm_tasks_on_written_files() {
    if !ready("kyrgyzllm_tasks_on_written_files") {
        return;
    }
    let dir = scratch("kyrgyz");
    for (task, loader, shots, letters) in [
        ("kyrgyz_mmlu", "kyrgyz-mmlu", 5, Some(["А. ", "Б. "])),
        ("kyrgyz_rc", "kyrgyz-rc", 5, Some(["А. ", "Г. "])),
        ("boolq_kg", "boolq-kg", 5, None),
        ("hellaswag_kg", "hellaswag-kg", 5, Some(["A. ", "D. "])),
        ("winogrande_kg", "winogrande-kg", 5, None),
        ("winogrande_kg_partial", "winogrande-kg", 5, None),
        ("truthfulqa_mc1_kg", "truthfulqa-mc-kg", 5, None),
    ] {
        let (test, few) = kyrgyz_splits(loader);
        let t = write(&dir, &format!("{loader}/{test}.jsonl"), &kyrgyz_rows(loader, "evaluated", 4));
        let f = write(&dir, &format!("{loader}/{few}.jsonl"), &kyrgyz_rows(loader, "exemplar", 6));
        for k in [0, shots] {
            let lines = eval(
                task,
                &[
                    "--data",
                    t.to_str().unwrap(),
                    "--data",
                    f.to_str().unwrap(),
                    "--limit",
                    "3",
                    "--shots",
                    &k.to_string(),
                ],
                &dir.join(format!("{task}-{k}")),
            );
            assert_eq!(lines.len(), 3, "{task}: only the evaluated split");
            // The tag is in the passage and the question of RC and BoolQ rows, in one field of the others.
            let per_doc = if matches!(task, "kyrgyz_rc" | "boolq_kg") { 2 } else { 1 };
            for s in &lines {
                let c = context(s);
                assert_eq!(c.matches("exemplar").count(), k * per_doc, "{task}, {k} shots: {c}");
                assert_eq!(c.matches("evaluated").count(), per_doc, "{task}: {c}");
                if let Some(ls) = letters {
                    assert!(ls.iter().all(|l| c.contains(l)), "{task}: letters {ls:?} in {c}");
                }
                match task {
                    "boolq_kg" => {
                        assert_eq!(continuations(s), [" ооба", " жок"]);
                        assert!(c.contains("?\n") && !c.contains("??"), "the trailing ?? is cut: {c}");
                    }
                    "hellaswag_kg" => assert_eq!(continuations(s), [" A", " B", " C", " D"]),
                    "winogrande_kg" => {
                        assert!(c.ends_with("анткени "), "{c}");
                        assert_eq!(continuations(s), ["сумка чоң эле.", "китеп чоң эле."]);
                    }
                    "winogrande_kg_partial" => {
                        // lm-eval's partial scoring: a context per option, the rest of the sentence after each.
                        let second = s["arguments"]["gen_args_1"]["arg_0"].as_str().unwrap();
                        assert!(c.ends_with("анткени сумка") && second.ends_with("анткени китеп"), "{c} / {second}");
                        assert_eq!(continuations(s), [" чоң эле.", " чоң эле."]);
                    }
                    "truthfulqa_mc1_kg" => assert_eq!(continuations(s).len(), 2, "MC1 only"),
                    "kyrgyz_rc" => assert!(c.contains("evaluated текст"), "the passage: {c}"),
                    _ => {}
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The page's Task menu (www/index.html's `#task-select`) offers every task of every benchmark in
/// `datasets/catalog.json`, each under its benchmark's group (`task-group-<benchmark id>`), and
/// nothing else besides the demo and "My files": a catalogue task missing from the menu is one a
/// teacher cannot pick, an option without a catalogue entry one the page cannot fetch. A benchmark
/// the catalogue marks `not_in_page` (with the reason) is not offered.
#[test]
fn the_task_menu_offers_every_catalogue_task_under_its_benchmark() {
    let html = std::fs::read_to_string(repo().join("www/index.html")).unwrap();
    let start = html.find(r#"<select id="task-select">"#).expect("#task-select in www/index.html");
    let menu = &html[start..start + html[start..].find("</select>").unwrap()];
    // (group's i18n key, option value) in document order.
    let mut offered = Vec::new();
    let mut group = String::new();
    for line in menu.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("<optgroup ") {
            let key = rest.split(r#"data-i18n-label=""#).nth(1).expect("each group has data-i18n-label");
            group = key[..key.find('"').unwrap()].to_string();
        } else if line.starts_with("</optgroup>") {
            group.clear();
        } else if let Some(rest) = line.strip_prefix(r#"<option value=""#) {
            offered.push((group.clone(), rest[..rest.find('"').unwrap()].to_string()));
        }
    }
    let catalog = lingualens::catalog::benchmark_catalog().unwrap();
    let mut expected = vec![(String::new(), "demo".to_string()), (String::new(), "files".to_string())];
    for b in &catalog.benchmarks {
        if let Some(why) = &b.not_in_page {
            assert!(why.len() > 40, "{}: not_in_page says why", b.id);
            continue;
        }
        for t in &b.tasks {
            expected.push((format!("task-group-{}", b.id), t.clone()));
        }
    }
    let sorted = |mut v: Vec<(String, String)>| {
        v.sort();
        v
    };
    assert_eq!(sorted(offered), sorted(expected));
}

/// Every experiment under `datasets/experiments/` reads (`tasks::experiment`: unknown keys,
/// comparisons naming no run and orders with several variants per item are refused) and every
/// run names a task lingualens has: a built-in task file, or one the benchmark catalogue runs.
#[test]
fn every_shipped_experiment_reads_and_names_tasks_that_exist() {
    let dir = repo().join("datasets/experiments");
    let catalog = lingualens::catalog::benchmark_catalog().unwrap();
    let builtin: BTreeSet<String> = lingualens::tasks::registry::list_tasks(&repo().join("datasets/tasks"))
        .unwrap()
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap().flatten() {
        let path = entry.path();
        let text = std::fs::read_to_string(&path).unwrap();
        let experiment = lingualens::tasks::experiment::Experiment::parse(&path.display().to_string(), &text)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            path.file_stem().unwrap().to_str().unwrap(),
            experiment.experiment,
            "{}: the file is named by its experiment",
            path.display()
        );
        for run in &experiment.runs {
            let in_catalog = catalog.clone().benchmark_for(&run.task).is_some();
            assert!(
                builtin.contains(&run.task) || in_catalog,
                "{}: run {}: no task {}",
                path.display(),
                run.name,
                run.task
            );
        }
        // The page's built-in copy (build.rs's JSON) reads as this file.
        let built_in = lingualens::tasks::experiment::builtin(&experiment.experiment).map(|e| e.unwrap());
        assert_eq!(built_in.as_ref(), Some(&experiment), "{}: the built-in copy differs", path.display());
        seen += 1;
    }
    assert!(seen >= 8, "{seen} experiments");
    assert_eq!(seen, lingualens::tasks::experiment::builtin_all().unwrap().len(), "the built-in copy has one more");
}
