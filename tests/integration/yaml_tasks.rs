//! Tasks as data (`tasks::yaml`): lm-eval task YAMLs load, refuse Python clearly, take Jinja
//! overrides, and render what lm-evaluation-harness renders.
//!
//! - `../shared` (ProverbEval's published configs) is found through `LINGUALENS_SHARED`
//!   (default `<CARGO_MANIFEST_DIR>/../shared`);
//! - lm-eval's own renders come from `tools/fixtures/yaml_tasks.py OUTDIR`, read through
//!   `LINGUALENS_FIXTURES=OUTDIR`.
//!
//! Either missing: the test says SKIPPED, or fails when `LINGUALENS_REQUIRE_FIXTURES=1`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use lingualens::tasks::yaml::{self, DataSource, FewshotPool, LoadOptions, OutputType, Request, Target, TaskSpec};
use serde_json::{json, Value as Json};

use crate::common;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The shared folder, if it has ProverbEval's published configs.
fn shared() -> Option<PathBuf> {
    common::shared("yaml_tasks", "datasets/proverbeval-configs")
        .map(|d| d.parent().unwrap().parent().unwrap().to_path_buf())
}

fn load(path: &Path, options: &LoadOptions) -> lingualens::Result<TaskSpec> {
    yaml::load_task_file(path, options)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|e| e == "yaml") && !p.to_string_lossy().ends_with(".override.yaml") {
            out.push(p);
        }
    }
}

/// The override sidecar (ours, under datasets/tasks/proverbeval/overrides) for a published
/// ProverbEval YAML, by its directory and language.
fn proverbeval_sidecar(rel: &str) -> PathBuf {
    let lang = rel.rsplit('/').next().unwrap().trim_end_matches(".yaml");
    let o = repo().join("datasets/tasks/proverbeval/overrides");
    let sub = if rel.starts_with("generation/english/") {
        format!("generation/english/{lang}")
    } else if rel.starts_with("generation/native/") {
        format!("generation/native/{lang}")
    } else if rel.starts_with("fill_blank/native/") {
        format!("fill_blank/{lang}")
    } else if let Some(rest) = rel.strip_prefix("choice/prompts/prompt-native/") {
        format!("choice-native-prompt/{}/{lang}", rest.split('/').next().unwrap())
    } else if let Some(rest) = rel.strip_prefix("choice/translate-test/prompt-english/") {
        format!("translate-test/{}/{lang}", rest.split('/').next().unwrap())
    } else {
        format!("choice/{lang}")
    };
    o.join(format!("{sub}.override.yaml"))
}

/// A ProverbEval-like row with every column any of its tasks reads.
const PROVERB_JSONL: &str = r#"{"Proverb": "ድር ቢያብር አንበሳ ያስር", "A": "Danger comes smiling.", "B": "Unity is strength.", "C": "Spiders are small.", "D": "Lions are strong.", "Answer_Letter": "B", "Answer": "B", "Description": "When many weak ones unite they overcome the strong.", "tranalste": "When spider webs unite, they can tie up a lion.", "translate": "When webs unite they tie a lion."}
"#;

#[test]
fn every_proverbeval_yaml_parses_refuses_python_and_renders_with_overrides() {
    let Some(shared) = shared() else { return };
    let root = shared.join("datasets/proverbeval-configs");
    let mut files = Vec::new();
    walk(&root, &mut files);
    // PROMPTS.md's text says 118; its task table and the folder hold 117.
    assert_eq!(files.len(), 117, "ProverbEval publishes 117 task YAMLs");

    let tmp = std::env::temp_dir().join(format!("lingualens-yaml-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let data = tmp.join("docs.jsonl");
    std::fs::write(&data, PROVERB_JSONL).unwrap();
    let docs = yaml::docs_from_file("docs.jsonl", PROVERB_JSONL.as_bytes()).unwrap();
    assert_eq!(docs.len(), 1);

    let (mut refused, mut function_fields, mut rendered) = (0, 0, 0);
    let mut by_field: BTreeMap<String, usize> = BTreeMap::new();
    for path in &files {
        let rel = path.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
        let text = std::fs::read_to_string(path).unwrap();
        match load(path, &LoadOptions::default()) {
            Ok(spec) => panic!("{rel}: loaded without overrides, but every ProverbEval prompt is Python: {spec:?}"),
            Err(e) => {
                refused += 1;
                let m = e.message();
                assert!(m.starts_with(&path.to_string_lossy().replace('\\', "/")), "{m}");
                assert!(m.contains("which lingualens cannot run"), "{m}");
                let stem = rel.rsplit('/').next().unwrap().trim_end_matches(".yaml");
                assert!(m.ends_with(&format!("or a sidecar file {stem}.override.yaml")), "{m}");
                for field in ["doc_to_text", "doc_to_choice", "doc_to_target", "process_docs"] {
                    if let Some(line) = text.lines().find(|l| l.starts_with(&format!("{field}: !function "))) {
                        let func = line.split("!function ").nth(1).unwrap().trim();
                        assert!(m.contains(&format!("{field} is !function {func} (Python)")), "{rel}: {m}");
                        assert!(m.contains(&format!("--override {field}='…'")), "{m}");
                        function_fields += 1;
                        *by_field.entry(field.to_string()).or_default() += 1;
                    }
                }
            }
        }

        // With our sidecar the task runs as published otherwise.
        let sidecar = proverbeval_sidecar(&rel);
        assert!(sidecar.is_file(), "{rel}: no sidecar {}", sidecar.display());
        let options = LoadOptions { sidecar: Some(sidecar.to_string_lossy().into_owned()), ..Default::default() };
        let spec = load(path, &options).unwrap_or_else(|e| panic!("{rel}: {e}"));
        assert!(matches!(spec.source, DataSource::Hub { .. }), "{rel}");
        assert!(spec.source.needs_user_data());
        assert!(spec.overridden.contains(&"doc_to_text".to_string()), "{rel}");
        let r = spec.renderer().unwrap_or_else(|e| panic!("{rel}: {e}"));
        let out = r
            .render_all(&docs, &FewshotPool::Split(docs.clone()), Some(0), 1234)
            .unwrap_or_else(|e| panic!("{rel}: {e}"));
        let req = &out[0];
        match spec.output_type {
            OutputType::MultipleChoice => {
                let choices = req.choices.as_ref().unwrap();
                assert_eq!(choices.len(), 4, "{rel}");
                let Request::MultipleChoice { continuations, .. } = &req.request else { panic!() };
                assert_eq!(continuations[0], format!(" {}", choices[0]));
                assert_eq!(req.target, Target::Index(1), "{rel}: Answer_Letter/Answer B");
                assert!(req.context.contains("Danger comes smiling."), "{rel}: {:?}", req.context);
            }
            OutputType::GenerateUntil => {
                let Request::GenerateUntil { until, max_gen_toks } = &req.request else { panic!() };
                if rel.starts_with("generation/") {
                    // No `until` published: lm-eval's default [fewshot_delimiter].
                    assert_eq!((until.as_slice(), *max_gen_toks), (&["\n\n".to_string()][..], 256));
                    assert!(req.context.contains("When many weak ones unite"), "{rel}");
                    assert_eq!(req.target, Target::Text("ድር ቢያብር አንበሳ ያስር".into()));
                }
            }
            OutputType::Loglikelihood => panic!("{rel}: no loglikelihood tasks in ProverbEval"),
        }
        rendered += 1;
    }
    eprintln!(
        "ProverbEval: {} YAMLs parsed, {refused} refused for Python, {function_fields} !function fields ({by_field:?}), {rendered} rendered with overrides",
        files.len()
    );
    assert_eq!(refused, 117);
    assert_eq!(rendered, 117);
    std::fs::remove_dir_all(&tmp).ok();
}

/// The override templates reproduce the Python functions: `str.format` over PROMPTS.md's text.
#[test]
fn proverbeval_overrides_equal_the_python_prompts() {
    let Some(shared) = shared() else { return };
    let root = shared.join("datasets/proverbeval-configs");
    let md = std::fs::read_to_string(root.join("PROMPTS.md")).unwrap();
    let block = |variant: &str, label: &str| -> String {
        let v = &md[md.find(variant).unwrap()..];
        let b = &v[v.find(label).unwrap()..];
        let start = b.find("````text\n").unwrap() + "````text\n".len();
        b[start..start + b[start..].find("\n````").unwrap()].to_string()
    };
    let doc: Json = serde_json::from_str(PROVERB_JSONL.trim()).unwrap();
    let s = |k: &str| doc[k].as_str().unwrap().to_string();
    let format =
        |t: String, pairs: &[(&str, String)]| pairs.iter().fold(t, |t, (k, v)| t.replace(&format!("{{{k}}}"), v));
    let abcd = || ["A", "B", "C", "D"].map(|k| (k, s(k)));

    let cases: Vec<(&str, &str, String)> = vec![
        // doc_to_text_amh_t1 of choice/shuffle/english/1 (Variant 1)
        ("choice/shuffle/english/1/amh.yaml", "choice/amh", {
            let mut p = vec![("language", "Amharic".to_string()), ("proverb", s("Proverb"))];
            p.extend(abcd());
            format(block("### Variant 1 ", "`output` inside `doc_to_text_amh_t1`"), &p)
        }),
        // doc_to_text_orm_t1 of fill_blank/native/2 (Variant 11)
        ("fill_blank/native/2/orm.yaml", "fill_blank/orm", {
            let mut p = vec![("language", "Afann Oromo".to_string()), ("Proverb", s("Proverb"))];
            p.extend(abcd());
            format(block("### Variant 11 ", "`output` inside `doc_to_text_amh_t1`"), &p)
        }),
        // doc_to_text_tir of generation/native (Variant 14)
        (
            "generation/native/tir.yaml",
            "generation/native/tir",
            format(
                block("### Variant 14 ", "module-level `prompt`"),
                &[
                    ("source_language", "Tigrinya".into()),
                    ("target_language", "Tigrinya".into()),
                    ("Description", s("Description")),
                ],
            ),
        ),
        // prompt-native english/orm.yaml calls doc_to_text_tir_t1 (as published)
        ("choice/prompts/prompt-native/english/orm.yaml", "choice-native-prompt/english/orm", {
            let mut p = vec![("language", "ትግረኛ".to_string()), ("Proverb", s("Proverb"))];
            p.extend(abcd());
            format(block("### Variant 4 ", "`output['tir'][0]`"), &p)
        }),
    ];
    for (rel, sidecar, expected) in cases {
        let sidecar = repo().join(format!("datasets/tasks/proverbeval/overrides/{sidecar}.override.yaml"));
        let options = LoadOptions { sidecar: Some(sidecar.to_string_lossy().into_owned()), ..Default::default() };
        let spec = load(&root.join(rel), &options).unwrap();
        let r = spec.renderer().unwrap().render(&doc, &[]).unwrap();
        assert_eq!(r.context, expected, "{rel}");
        if spec.output_type == OutputType::MultipleChoice {
            let want: Vec<String> = ["A", "B", "C", "D"].iter().map(|k| s(k)).collect();
            assert_eq!(r.choices.as_ref(), Some(&want), "{rel}: utils.doc_to_choice");
        }
    }
}

/// `--override FIELD=TEMPLATE` replaces a `!function` without a sidecar.
#[test]
fn cli_style_override() {
    let Some(shared) = shared() else { return };
    let path = shared.join("datasets/proverbeval-configs/choice/prompts/prompt-native/english/amh.yaml");
    let mut options = LoadOptions::default();
    options.overrides.insert("doc_to_text".into(), "{{Proverb}}\nመልስ፦".into());
    let spec = load(&path, &options).unwrap();
    // The published doc_to_choice (a Jinja list of Ge'ez letters) is used as is.
    let doc: Json = serde_json::from_str(PROVERB_JSONL.trim()).unwrap();
    let r = spec.renderer().unwrap().render(&doc, &[]).unwrap();
    assert_eq!(r.context, "ድር ቢያብር አንበሳ ያስር\nመልስ፦");
    assert_eq!(r.choices.unwrap(), vec!["ሀ", "ለ", "ሐ", "መ"]);
    assert_eq!(r.target, Target::Index(1));
    assert_eq!(spec.task, "amh_choice_native_p1_english");
    assert_eq!(spec.test_split.as_deref(), Some("english_1"), "from the included common file");
    assert_eq!(spec.metrics[0].metric, "acc");
}

#[test]
fn renders_equal_lm_eval() {
    let Some(file) =
        common::fixture("renders_equal_lm_eval", "yaml_tasks/lm_eval_renders.json", "tools/fixtures/yaml_tasks.py")
    else {
        return;
    };
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let fx: Json = serde_json::from_str(&text).unwrap();
    let mut checked = 0;
    for case in fx["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let yaml_text = case["yaml"].as_str().unwrap().to_string();
        // A case with `python` has its prompt functions in a utils.py beside the YAML, which
        // lm-eval imported (with `env` set) and lingualens reads.
        let python = case["python"].as_str().map(String::from);
        let resolve = move |p: &str| {
            Ok(match p {
                "case.yaml" => Some(yaml_text.clone()),
                "utils.py" => python.clone(),
                _ => None,
            })
        };
        let env = case["env"]
            .as_object()
            .map(|m| m.iter().map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string())).collect())
            .unwrap_or_default();
        let spec = yaml::load_task("case.yaml", &resolve, &LoadOptions { env, ..Default::default() })
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        if case["python"].is_string() {
            assert!(spec.warnings.iter().any(|w| w.contains("read from utils.py")), "{name}: {:?}", spec.warnings);
        }
        let docs: Vec<Json> = case["docs"].as_array().unwrap().clone();
        let train: Option<Vec<Json>> = case["fewshot_docs"].as_array().cloned();
        // lm-eval's data files: `test` holds `docs`, `train` the few-shot documents.
        let split = |name: &str| match name {
            "test" => Some(docs.clone()),
            "train" => train.clone(),
            _ => None,
        };
        let eval_docs = split(spec.eval_split().unwrap_or("test")).unwrap();
        let pool = spec.fewshot_pool(&eval_docs, |s| Ok(split(s)), "").unwrap_or_else(|e| panic!("{name}: {e}"));
        let r = spec.renderer().unwrap();
        let pool = r.prepare_pool(pool).unwrap();
        let eval_docs = r.prepare_docs(eval_docs).unwrap();
        let out = r.render_all(&eval_docs, &pool, None, 1234).unwrap_or_else(|e| panic!("{name}: {e}"));
        let want = case["renders"].as_array().unwrap();
        assert_eq!(out.len(), want.len(), "{name}");
        for (i, (got, want)) in out.iter().zip(want).enumerate() {
            let args = want["arguments"].as_array().unwrap();
            match (&got.request, &want["context"]) {
                (Request::MultipleChoice { multiple_input: Some(m), .. }, Json::Array(w)) => {
                    let c = &m.contexts;
                    let w: Vec<&str> = w.iter().map(|x| x.as_str().unwrap()).collect();
                    assert_eq!(c, &w, "{name} doc {i}: a context per choice");
                    assert!(w.iter().all(|x| x.starts_with(&got.context)), "{name} doc {i}: shared part");
                }
                (_, w) => assert_eq!(got.context, w.as_str().unwrap(), "{name} doc {i}: context"),
            }
            match &got.request {
                Request::MultipleChoice { continuations, multiple_input } => {
                    let w: Vec<&str> = args.iter().map(|a| a[1].as_str().unwrap()).collect();
                    assert_eq!(continuations, &w, "{name} doc {i}: continuations");
                    for (j, a) in args.iter().enumerate() {
                        let context = multiple_input.as_ref().map_or(&got.context, |m| &m.contexts[j]);
                        assert_eq!(a[0].as_str().unwrap(), context, "{name} doc {i}: request {j}");
                    }
                }
                Request::GenerateUntil { until, max_gen_toks } => {
                    let w = &args[0][1];
                    let wu: Vec<&str> = w["until"].as_array().unwrap().iter().map(|u| u.as_str().unwrap()).collect();
                    assert_eq!(until, &wu, "{name} doc {i}: until");
                    assert_eq!(*max_gen_toks as u64, w["max_gen_toks"].as_u64().unwrap_or(256), "{name}");
                }
                Request::Loglikelihood { continuation } => {
                    assert_eq!(continuation, args[0][1].as_str().unwrap())
                }
            }
            if !want["choices"].is_null() {
                let wc: Vec<&str> = want["choices"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
                assert_eq!(got.choices.as_ref().unwrap(), &wc, "{name} doc {i}: choices");
            }
            match (&got.target, &want["target"]) {
                // Multiple input: the gold is doc_to_text's index; doc_to_target the continuation.
                (Target::Index(g), Json::String(_)) if !want["multiple_input_gold"].is_null() => {
                    assert_eq!(*g as u64, want["multiple_input_gold"].as_u64().unwrap(), "{name} doc {i}")
                }
                (Target::Index(g), Json::Number(n)) => {
                    assert_eq!(*g as u64, n.as_u64().unwrap(), "{name} doc {i}")
                }
                (Target::Text(g), Json::String(s)) => assert_eq!(g, s, "{name} doc {i}"),
                (g, w) => panic!("{name} doc {i}: target {g:?} vs lm-eval {w}"),
            }
            checked += 1;
        }
        if name == "generate_until" {
            let f = &spec.filters[0];
            assert_eq!(f.apply(vec![" ድር ቢያብር\nx".into(), "y".into()]).unwrap(), vec!["ድር".to_string()]);
        }
    }
    eprintln!("{checked} documents rendered exactly as lm-eval {} renders them", fx["lm_eval_version"]);
    assert!(checked >= 27);

    // Filter pipelines on made-up responses: what lm-eval's filters make of them.
    let mut filtered = 0;
    for case in fx["filters"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let yaml_text = format!(
            "dataset_path: json\noutput_type: generate_until\ndoc_to_text: q\ndoc_to_target: a\n{}",
            case["yaml"].as_str().unwrap()
        );
        let resolve = move |p: &str| Ok((p == "f.yaml").then(|| yaml_text.clone()));
        let spec =
            yaml::load_task("f.yaml", &resolve, &LoadOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let pipeline = &spec.filters[0];
        for (responses, want) in case["responses"].as_array().unwrap().iter().zip(case["filtered"].as_array().unwrap())
        {
            let responses: Vec<String> =
                responses.as_array().unwrap().iter().map(|r| r.as_str().unwrap().to_string()).collect();
            let got = pipeline.apply(responses.clone()).unwrap();
            let want: Vec<String> = match want {
                Json::String(s) => vec![s.clone()],
                w => w.as_array().unwrap().iter().map(|r| r.as_str().unwrap().to_string()).collect(),
            };
            assert_eq!(got, want, "{name}: {responses:?}");
            filtered += 1;
        }
    }
    assert!(filtered >= 9, "{filtered} filtered responses checked");
}

fn builtin(rel: &str) -> TaskSpec {
    let p = repo().join("datasets/tasks").join(rel);
    // An unknown key would be refused here, by name.
    load(&p, &LoadOptions::default()).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn builtin_tasks_load() {
    let mut files = Vec::new();
    walk(&repo().join("datasets/tasks"), &mut files);
    let mut specs = std::collections::BTreeMap::new();
    for f in &files {
        let spec = load(f, &LoadOptions::default()).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        spec.renderer().unwrap();
        // The demo ships its own questions; every benchmark task reads the user's data.
        if !f.ends_with("demo/demo.yaml") {
            assert!(spec.source.needs_user_data(), "{}", f.display());
        }
        specs.insert(spec.task.clone(), spec);
    }
    assert!(files.len() >= 6, "{files:?}");
    // A letter-scored task's cloze form (metadata.cloze_variant, which the page offers when the
    // model keeps picking one letter) is a built-in multiple-choice task over the same items.
    for (task, spec) in &specs {
        let Some(cloze) = spec.cloze_variant() else { continue };
        let other = specs.get(&cloze).unwrap_or_else(|| panic!("{task}: cloze_variant {cloze} is no built-in task"));
        assert_eq!(other.output_type, spec.output_type, "{task} → {cloze}");
        assert_eq!(other.source, spec.source, "{task} → {cloze}: the same loader and language");
        assert!(other.cloze_variant().is_none(), "{cloze} is itself the cloze form");
    }
    for task in ["dzen_en", "dzen_dz", "dzen_dz_en"] {
        assert_eq!(specs[task].cloze_variant(), Some(format!("{task}_cloze")), "{task}");
    }
}

#[test]
fn builtin_dzen_tasks_render() {
    let csv = "English Question,Dzongkha Question,A,B,C,D,A Dz .,B Dz ,C Dz,D Dz,Correct Answer\r\n\
               \"Which gas do plants take in?\",རྩི་ཤིང་གིས་རླུང་ག་ཅི་ལེན་ནི་ཨིན།,oxygen,carbon dioxide,neon,argon,ཨོག་སི་ཇན།,ཀར་བཱོན།,ནི་ཡོན།,ཨར་གོན།,b\r\n";
    let set = lingualens::tasks::load_dzen_file("10th-Biology.csv", csv.as_bytes());
    assert_eq!(set.items.len(), 2, "{:?}", set.anomalies);

    let en = builtin("dzen/dzen_en.yaml");
    let docs = yaml::item_split_docs(&en, &set.items, "test");
    assert_eq!(docs.len(), 1);
    let r = en.renderer().unwrap().render(&docs[0], &[]).unwrap();
    assert_eq!(
        r.context,
        "The following are multiple choice questions (with answers) about biology.\n\n\
         Which gas do plants take in?\nA. oxygen\nB. carbon dioxide\nC. neon\nD. argon\nAnswer:"
    );
    assert_eq!(
        r.request,
        Request::MultipleChoice {
            continuations: vec![" A".into(), " B".into(), " C".into(), " D".into()],
            multiple_input: None,
        }
    );
    assert_eq!(r.gold(), Some(1));

    let dz = builtin("dzen/dzen_dz.yaml");
    let docs = yaml::item_split_docs(&dz, &set.items, "test");
    let r = dz.renderer().unwrap().render(&docs[0], &[]).unwrap();
    assert!(
        r.context.ends_with("རྩི་ཤིང་གིས་རླུང་ག་ཅི་ལེན་ནི་ཨིན།\nA. ཨོག་སི་ཇན།\nB. ཀར་བཱོན།\nC. ནི་ཡོན།\nD. ཨར་གོན།\nAnswer:"),
        "{:?}",
        r.context
    );

    let dzen = builtin("dzen/dzen_dz_en.yaml");
    let docs = yaml::item_split_docs(&dzen, &set.items, "test");
    assert_eq!(docs[0]["question_en"], json!("Which gas do plants take in?"));
    let r = dzen.renderer().unwrap().render(&docs[0], &[]).unwrap();
    assert!(
        r.context.ends_with(
            "D. ཨར་གོན།\n\nEnglish translation:\nWhich gas do plants take in?\nA. oxygen\nB. carbon dioxide\nC. neon\nD. argon\nAnswer:"
        ),
        "{:?}",
        r.context
    );
    assert_eq!(r.gold(), Some(1));
}

#[test]
fn builtin_kyrgyz_mmlu_renders_like_the_authors_class() {
    let csv = "Суроо (KG),А (KG),Б (KG),В (KG),Г (KG),Туура жооп\n\
               Кыргызстандын борбору кайсы?,Ош,Бишкек,Нарын,Талас,б\n\
               2 + 2 = ?,3,4,5,,Б\n";
    let options = lingualens::tasks::TableOptions {
        mapping: lingualens::tasks::builtin("kyrgyz-mmlu"),
        language: Some("ky".into()),
        ..Default::default()
    };
    let loaded = lingualens::tasks::load_table("kyrgyz_mmlu_test.csv", csv.as_bytes(), &options);
    assert_eq!(loaded.items.len(), 2, "{:?}", loaded.anomalies);
    let spec = builtin("kyrgyzllm/kyrgyz_mmlu.yaml");
    let docs = yaml::item_split_docs(&spec, &loaded.items, "test");
    let r = spec.renderer().unwrap();
    let out = r.render_all(&docs, &FewshotPool::Split(vec![]), None, 1234).unwrap();
    // (H): f"Суроо: {question}\n\n" + "".join(f"{L}. {choice}\n" ...) + "\nЖооп:", choices " " + text.
    assert_eq!(out[0].context, "Суроо: Кыргызстандын борбору кайсы?\n\nА. Ош\nБ. Бишкек\nВ. Нарын\nГ. Талас\n\nЖооп:");
    assert_eq!(
        out[0].request,
        Request::MultipleChoice {
            continuations: vec![" Ош".into(), " Бишкек".into(), " Нарын".into(), " Талас".into()],
            multiple_input: None,
        }
    );
    assert_eq!(out[0].gold(), Some(1));
    assert_eq!(out[1].context, "Суроо: 2 + 2 = ?\n\nА. 3\nБ. 4\nВ. 5\n\nЖооп:");
    assert_eq!(out[1].gold(), Some(1));
    // 1-shot from the validation split, first in order.
    let out = r.render_all(&docs[1..], &FewshotPool::Split(docs[..1].to_vec()), Some(1), 1234).unwrap();
    assert!(out[0].context.starts_with(
        "Суроо: Кыргызстандын борбору кайсы?\n\nА. Ош\nБ. Бишкек\nВ. Нарын\nГ. Талас\n\nЖооп: Бишкек\n\nСуроо: 2 + 2"
    ));
}

#[test]
fn builtin_proverbeval_tasks_render() {
    let spec = builtin("proverbeval/amh_choice_english.yaml");
    assert_eq!(spec.overridden, Vec::<String>::new(), "included, not overridden");
    let DataSource::Files { format, data_files } = &spec.source else { panic!("{:?}", spec.source) };
    assert_eq!((format.as_str(), data_files["english_1"][0].as_str()), ("csv", "{{data}}"));
    let csv = "Proverb,A,B,C,D,Answer_Letter\nድር ቢያብር አንበሳ ያስር,Danger comes smiling.,Unity is strength.,\"Spiders, small.\",Lions.,B\n";
    let docs = yaml::docs_from_file("amh_english_test_1.csv", csv.as_bytes()).unwrap();
    let r = spec.renderer().unwrap().render(&docs[0], &[]).unwrap();
    assert!(
        r.context.starts_with("\n                You are LLM capable of undersatnding Amharic language. \n"),
        "{:?}",
        r.context
    );
    assert!(r.context.contains("\n                Amharic Proverb: ድር ቢያብር አንበሳ ያስር\n"));
    assert!(r.context.ends_with("C: Spiders, small.\n                D: Lions.\n\n\n                Answer:"));
    assert_eq!(r.choices.as_ref().unwrap()[2], "Spiders, small.");
    assert_eq!(r.gold(), Some(1));

    let spec = builtin("proverbeval/amh_generation_native.yaml");
    let docs = [json!({"Description": "ብዙ ደካሞች ሲተባበሩ", "Proverb": "ድር ቢያብር አንበሳ ያስር"})];
    let r = spec.renderer().unwrap().render(&docs[0], &[]).unwrap();
    assert!(r.context.ends_with("Amharic Description: ብዙ ደካሞች ሲተባበሩ\n            Amharic Proverb:"), "{:?}", r.context);
    assert_eq!(r.request, Request::GenerateUntil { until: vec!["\n\n".into()], max_gen_toks: 256 });
    assert_eq!(r.target, Target::Text("ድር ቢያብር አንበሳ ያስር".into()));
}

#[test]
fn include_is_relative_to_the_including_file_and_unknown_keys_are_refused() {
    let files: BTreeMap<&str, &str> = [
        ("a/b/task.yaml", "include: ../common/base.yaml\ntask: t\ndoc_to_text: '{{q}}'\n"),
        ("a/b/fancy.yaml", "include: ../common/base.yaml\ntask: t\ndoc_to_text: '{{q}}'\nfancy_key: 1\n"),
        (
            "a/common/base.yaml",
            "include: deeper.yaml\ndataset_path: json\ndoc_to_text: 'base {{q}}'\noutput_type: generate_until\n",
        ),
        ("a/common/deeper.yaml", "fewshot_delimiter: \"\\n\"\ntest_split: test\n"),
    ]
    .into_iter()
    .collect();
    let resolve = |p: &str| Ok(files.get(p).map(|s| s.to_string()));
    let spec = yaml::load_task("a/b/task.yaml", &resolve, &LoadOptions::default()).unwrap();
    assert_eq!(spec.doc_to_text, Some(yaml::Field::Template("{{q}}".into())));
    assert_eq!(spec.fewshot_delimiter, "\n");
    assert_eq!(
        spec.generation.as_ref().unwrap().until().unwrap(),
        vec!["\n".to_string()],
        "default until = [fewshot_delimiter]"
    );
    let e = yaml::load_task("a/b/fancy.yaml", &resolve, &LoadOptions::default()).unwrap_err();
    assert!(e.message().contains("a/b/fancy.yaml: unknown key `fancy_key`"), "{e}");
    let e = yaml::load_task("a/b/missing.yaml", &resolve, &LoadOptions::default()).unwrap_err();
    assert!(e.message().contains("a/b/missing.yaml: file not found"));
}

fn task_from(yaml_text: &str) -> lingualens::Result<TaskSpec> {
    let text = yaml_text.to_string();
    let resolve = move |p: &str| Ok((p == "t.yaml").then(|| text.clone()));
    yaml::load_task("t.yaml", &resolve, &LoadOptions::default())
}

const QA: &str = "dataset_path: gsm8k_like\noutput_type: multiple_choice\ntest_split: test\ndoc_to_text: '{{question}}'\ndoc_to_choice: choices\ndoc_to_target: answer\n";

#[test]
fn few_shot_examples_come_from_lm_evals_split_or_the_run_is_refused() {
    let docs = vec![
        json!({"question": "2 + 2?", "choices": ["3", "4"], "answer": 1}),
        json!({"question": "Sky?", "choices": ["blue", "red"], "answer": 0}),
    ];
    // A named few-shot split that was not given: no examples from elsewhere, a message naming it.
    let spec = task_from(&format!("{QA}fewshot_split: train\nnum_fewshot: 1\n")).unwrap();
    let pool = spec.fewshot_pool(&docs, |_| Ok(None), "give its file with --fewshot-data").unwrap();
    let err = spec.renderer().unwrap().render_all(&docs, &pool, None, 1234).unwrap_err().to_string();
    assert!(err.contains("split `train`") && err.contains("--fewshot-data"), "{err}");
    // Without shots the run goes on.
    assert_eq!(spec.renderer().unwrap().render_all(&docs, &pool, Some(0), 1234).unwrap().len(), 2);
    // lm-eval's fallback when no few-shot split is named: training_split, named in the message.
    let spec = task_from(&format!("{QA}training_split: train\nnum_fewshot: 1\n")).unwrap();
    let pool = spec.fewshot_pool(&docs, |_| Ok(None), "x").unwrap();
    let err = spec.renderer().unwrap().render_all(&docs, &pool, None, 1234).unwrap_err().to_string();
    assert!(err.contains("split `train` (training_split"), "{err}");
    // The given split is used; the evaluated split only where lm-eval takes it (nothing named).
    let train = vec![json!({"question": "Fish?", "choices": ["air", "water"], "answer": 1})];
    let spec = task_from(&format!("{QA}fewshot_split: train\nnum_fewshot: 1\n")).unwrap();
    let pool = spec.fewshot_pool(&docs, |s| Ok((s == "train").then(|| train.clone())), "x").unwrap();
    let out = spec.renderer().unwrap().render_all(&docs, &pool, None, 1234).unwrap();
    assert!(out.iter().all(|r| r.context.starts_with("Fish? water\n\n")), "{:?}", out[0].context);
    let spec = task_from(&format!("{QA}num_fewshot: 1\n")).unwrap();
    assert_eq!(spec.fewshot_pool(&docs, |_| Ok(None), "x").unwrap(), yaml::FewshotPool::Split(docs.clone()));
    // fewshot_config.samples: used when no split is named; a !function there is refused.
    let spec = task_from(&format!(
        "{QA}num_fewshot: 1\nfewshot_config:\n  samples:\n    - {{question: Q, choices: [a, b], answer: 0}}\n"
    ))
    .unwrap();
    let pool = spec.fewshot_pool(&docs, |_| Ok(None), "x").unwrap();
    assert!(matches!(&pool, yaml::FewshotPool::Samples(s) if s.len() == 1));
    let out = spec.renderer().unwrap().render_all(&docs, &pool, None, 1234).unwrap();
    assert!(out[0].context.starts_with("Q a\n\n"), "{:?}", out[0].context);
    let err = task_from(&format!("{QA}fewshot_config:\n  samples: !function utils.samples\n")).unwrap_err().to_string();
    assert!(err.contains("samples") && err.contains("Python"), "{err}");
    // fewshot_config keys that would change the examples are refused, not ignored.
    let err = task_from(&format!("{QA}fewshot_config:\n  fewshot_indices: [0, 2]\n")).unwrap_err().to_string();
    assert!(err.contains("fewshot_config.fewshot_indices is not supported"), "{err}");
}

#[test]
fn filters_are_applied_or_refused_and_sampling_is_refused() {
    let gen =
        "dataset_path: json\noutput_type: generate_until\ntest_split: test\ndoc_to_text: '{{q}}'\ndoc_to_target: a\n";
    for (filter, why) in [
        ("- function: multi_choice_regex", "filter `multi_choice_regex` in `f` is not supported"),
        ("- function: custom\n        filter_fn: !function utils.f", "filter `custom` in `f` is not supported"),
        ("- function: take_first_k\n        k: 4", "needs that many responses"),
        ("- function: map\n        mapping_dict: {A: 1}\n        default_value: '0'", "maps responses to text only"),
        ("- function: regex\n        regex_pattern: '(?<=is )(A|B)'", "cannot be run here"),
    ] {
        let text = format!("{gen}filter_list:\n  - name: f\n    filter:\n      {filter}\n");
        let err = task_from(&text).unwrap_err().to_string();
        assert!(err.contains(why), "{filter}: {err}");
    }
    for (key, why) in [
        ("use_prompt: 'promptsource:x'\n", "use_prompt (a promptsource template) is not supported"),
        ("repeats: 4\n", "repeats > 1"),
    ] {
        let err = task_from(&format!("{gen}{key}")).unwrap_err().to_string();
        assert!(err.contains(why), "{key}: {err}");
    }
    let spec = task_from(&format!("{gen}generation_kwargs:\n  do_sample: true\n  temperature: 1\n")).unwrap();
    assert_eq!(
        spec.generation.as_ref().unwrap().get("temperature"),
        Some(&json!(1.0)),
        "a task file's temperature is a float"
    );
    let err = spec.renderer().unwrap().render(&json!({"q": "x", "a": "y"}), &[]).unwrap_err().to_string();
    assert!(err.contains("do_sample: true") && err.contains("greedily"), "{err}");
}

#[test]
fn gen_kwargs_as_lm_eval_reads_them() {
    let kv = yaml::parse_gen_kwargs(&[
        "max_gen_toks=64,until=['\\n\\n', 'Q:'],temperature=0".into(),
        "do_sample=False".into(),
    ])
    .unwrap();
    assert_eq!(
        kv,
        vec![
            ("max_gen_toks".to_string(), json!(64)),
            ("until".to_string(), json!(["\n\n", "Q:"])),
            ("temperature".to_string(), json!(0)),
            ("do_sample".to_string(), json!(false)),
        ]
    );
    let kv = yaml::parse_gen_kwargs(&[r#"{"max_gen_toks": 8, "until": ["\n"]}"#.into()]).unwrap();
    assert_eq!(kv[0], ("max_gen_toks".to_string(), json!(8)));
    assert_eq!(
        yaml::parse_gen_kwargs(&["top_p=0.9,stop=word".into()]).unwrap()[1],
        ("stop".to_string(), json!("word"))
    );
    let err = yaml::parse_gen_kwargs(&["max_gen_toks".into()]).unwrap_err().to_string();
    assert!(err.contains("expected `key=value`"), "{err}");
    // Merged as dict.update: the task's keys keep their places, new ones follow.
    let mut spec = task_from("dataset_path: json\noutput_type: generate_until\ntest_split: test\ndoc_to_text: q\ngeneration_kwargs:\n  until: [x]\n  max_gen_toks: 9\n").unwrap();
    let g = spec.generation.as_mut().unwrap();
    g.set("until", json!(["y"]));
    g.set("min_p", json!(0.1));
    let keys: Vec<&str> = g.kwargs.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, ["until", "max_gen_toks", "min_p"]);
    assert_eq!((g.until().unwrap(), g.max_gen_toks().unwrap()), (vec!["y".to_string()], 9));
}

#[test]
fn overrides_can_give_numbers_and_name_any_column() {
    // A sidecar's process_docs (the stand-in for a Python one) adds fields.
    let sidecar =
        "process_docs:\n  gold: '{{ label | int }}'\n  text_gold: '{{ label }}'\n  q: \"{{ doc['Question text'] }}\"\n";
    let text = "dataset_path: json\noutput_type: multiple_choice\ntest_split: test\ndoc_to_text: q\ndoc_to_choice: '{{[A, B]}}'\ndoc_to_target: gold\n";
    let resolve = move |p: &str| {
        Ok(match p {
            "t.yaml" => Some(text.to_string()),
            "t.override.yaml" => Some(sidecar.to_string()),
            _ => None,
        })
    };
    let spec = yaml::load_task("t.yaml", &resolve, &LoadOptions::default()).unwrap();
    let r = spec.renderer().unwrap();
    let docs = r.prepare_docs(vec![json!({"Question text": "Which?", "A": "x", "B": "y", "label": "1"})]).unwrap();
    assert_eq!(docs[0]["gold"], json!(1), "one expression keeps its type");
    assert_eq!(docs[0]["text_gold"], json!("1"));
    assert_eq!(docs[0]["q"], json!("Which?"), "a column whose name has a space, through doc[...]");
    let out = r.render(&docs[0], &[]).unwrap();
    assert_eq!((out.context.as_str(), out.gold()), ("Which?", Some(1)));
    // A target that is the text of a number says why it names no choice.
    let mut doc = docs[0].clone();
    doc["gold"] = json!("1");
    let err = r.render(&doc, &[]).unwrap().gold_index().unwrap_err().to_string();
    assert!(err.contains("is text, not an index") && err.contains("| int"), "{err}");
}
