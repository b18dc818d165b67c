//! A task as stock lm-evaluation-harness can run it: `lingualens export-task`.
//!
//! A task whose documents come through a lingualens loader (`dataset_path: lingualens`: DZEN,
//! KyrgyzMMLU, …) cannot be read by lm-eval. Exported, it becomes a folder of
//!
//! - `<task>.yaml`: the task file as lingualens read it (includes merged, overrides applied), with
//!   `dataset_path: json` and `data_files` naming the JSONL files below, and nothing lm-eval does
//!   not know (`dataset_name`, `dataset_kwargs.language`/`metadata` are applied to the documents;
//!   a `process_docs` map, lingualens's stand-in for Python, is applied to them too);
//! - `<task>.<split>.jsonl`: the evaluated documents, and the few-shot split's when the task has
//!   one, each exactly as lingualens renders them.
//!
//! `lm-eval run --tasks <task> --include_path DIR` then builds the same requests as `lingualens
//! eval` (checked by `tests/integration/export_task.rs` on the log-likelihoods of a real lm-eval run).

use serde_json::Value as Json;
use serde_yaml_ng::{Mapping, Value as Yaml};

use super::yaml::{FewshotPool, TaskSpec};
use crate::error::{Error, Result};

/// The files of an exported task: names relative to the export folder, and their text.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportedTask {
    pub files: Vec<(String, String)>,
}

/// Exports `spec` with its evaluated documents `docs` and few-shot `pool` (as `eval` loads them).
/// `data_root` is the folder the YAML's `data_files` point into (where the files will be: lm-eval
/// reads relative paths from its working directory, so this is an absolute path as a rule).
pub fn export_task(spec: &TaskSpec, docs: Vec<Json>, pool: FewshotPool, data_root: &str) -> Result<ExportedTask> {
    let renderer = spec.renderer()?;
    let docs = renderer.prepare_docs(docs)?;
    let eval_split = spec.eval_split().unwrap_or("test").to_string();
    let mut splits: Vec<(String, Vec<Json>)> = vec![(eval_split.clone(), docs)];
    match (spec.fewshot_split_to_read(), renderer.prepare_pool(pool)?) {
        (Some(split), FewshotPool::Split(d)) => splits.push((split.to_string(), d)),
        (Some(split), FewshotPool::Missing(_)) => {
            return Err(Error::new(format!(
            "{}: the few-shot split `{split}` was not given, so lm-eval could not draw examples from it: add its files",
            spec.file
        )))
        }
        // The evaluated split, or `fewshot_config.samples` (written in the YAML already).
        _ => {}
    }

    // lm-eval loads every split in one `datasets.load_dataset`, whose JSON loader takes the
    // columns and their types from the first file and adds the missing ones to the others as null:
    // the first file must give every column a value somewhere. So the split that does is written
    // first; when none does, a column would come out null or fail to load, and the export stops.
    let typed = |docs: &[Json]| -> std::collections::BTreeSet<String> {
        docs.iter()
            .filter_map(Json::as_object)
            .flat_map(|d| d.iter().filter(|(_, v)| !v.is_null()).map(|(k, _)| k.clone()))
            .collect()
    };
    let all: std::collections::BTreeSet<String> = splits.iter().flat_map(|(_, d)| typed(d)).collect();
    if let Some(i) = splits.iter().position(|(_, d)| typed(d) == all) {
        let first = splits.remove(i);
        splits.insert(0, first);
    } else {
        let best = splits.iter().map(|(_, d)| typed(d)).max_by_key(|t| t.len()).unwrap_or_default();
        let missing: Vec<&String> = all.difference(&best).collect();
        return Err(Error::new(format!(
            "{}: no split has a value in every field ({missing:?} are missing from each that has most), and lm-eval's JSON loader takes the fields from the first file",
            spec.file
        )));
    }

    let mut map: Mapping = spec.raw.clone();
    for key in ["dataset_name", "dataset_kwargs", "process_docs", "include"] {
        map.remove(key);
    }
    map.insert("dataset_path".into(), "json".into());
    let root = data_root.trim_end_matches('/');
    let mut data_files = Mapping::new();
    let mut files = Vec::new();
    for (split, docs) in &splits {
        let name = format!("{}.{split}.jsonl", spec.task);
        data_files.insert(split.as_str().into(), format!("{root}/{name}").into());
        let mut text = String::new();
        for doc in docs {
            text.push_str(&serde_json::to_string(doc).map_err(|e| Error::new(format!("{name}: {e}")))?);
            text.push('\n');
        }
        files.push((name, text));
    }
    let mut kwargs = Mapping::new();
    kwargs.insert("data_files".into(), Yaml::Mapping(data_files));
    map.insert("dataset_kwargs".into(), Yaml::Mapping(kwargs));
    // A split lm-eval would look for that is not among the files: name the evaluated split only.
    if !matches!(map.get("test_split"), Some(Yaml::String(_))) {
        map.insert("test_split".into(), eval_split.as_str().into());
    }
    let yaml = serde_yaml_ng::to_string(&map).map_err(|e| Error::new(format!("{}: {e}", spec.file)))?;
    let header = format!(
        "# {} exported by lingualens for lm-evaluation-harness: lm-eval run --tasks {} --include_path <this folder>\n",
        spec.task, spec.task
    );
    files.insert(0, (format!("{}.yaml", spec.task), header + &yaml));
    Ok(ExportedTask { files })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::yaml::{load_task, LoadOptions};
    use serde_json::json;

    #[test]
    fn lingualens_keys_go_and_the_documents_are_written() {
        let text = "task: t\ndataset_path: lingualens\ndataset_name: dzen\ndataset_kwargs:\n  language: en\ntest_split: test\nfewshot_split: few_shot\noutput_type: multiple_choice\nprocess_docs:\n  q2: '{{ question | upper }}'\ndoc_to_text: '{{q2}}'\ndoc_to_choice: choices\ndoc_to_target: answer\n";
        let resolve = |p: &str| Ok((p == "t.yaml").then(|| text.to_string()));
        let spec = load_task("t.yaml", &resolve, &LoadOptions::default()).unwrap();
        let doc = json!({"question": "why?", "choices": ["a", "b"], "answer": 1});
        let shot = json!({"question": "how?", "choices": ["c", "d"], "answer": 0});
        let out = export_task(&spec, vec![doc.clone()], FewshotPool::Split(vec![shot]), "/data/x/").unwrap();
        let names: Vec<&str> = out.files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["t.yaml", "t.test.jsonl", "t.few_shot.jsonl"]);
        let yaml: Mapping = serde_yaml_ng::from_str(&out.files[0].1).unwrap();
        assert_eq!(yaml.get("dataset_path"), Some(&Yaml::from("json")));
        for gone in ["dataset_name", "process_docs"] {
            assert!(yaml.get(gone).is_none(), "{gone}");
        }
        let files = &yaml["dataset_kwargs"]["data_files"];
        assert_eq!(files["few_shot"], Yaml::from("/data/x/t.few_shot.jsonl"));
        assert!(yaml["dataset_kwargs"].get("language").is_none());
        // process_docs was applied to the written documents.
        let written: Json = serde_json::from_str(out.files[1].1.trim()).unwrap();
        assert_eq!(written["q2"], "WHY?");
        // A few-shot split that was not given cannot be exported.
        let err = export_task(&spec, vec![doc], FewshotPool::Missing("x".into()), "/d").unwrap_err();
        assert!(err.to_string().contains("few-shot split `few_shot`"), "{err}");
    }
}
