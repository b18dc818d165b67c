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
//!
//! An experiment (`tasks::experiment`) whose runs lm-eval can express becomes a group
//! ([`experiment_group`]): each run a task `<experiment>_<run>` that includes its task's YAML and
//! sets its `num_fewshot`, and `<experiment>.yaml` listing them with an `aggregate_metric_list`.
//! A choice order or a seed of its own has no lm-eval equivalent, and is refused by run.

use serde_json::Value as Json;
use serde_yaml_ng::{Mapping, Value as Yaml};

use super::experiment::Experiment;
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

/// What lm-eval's `--tasks` cannot express in an experiment's runs: a choice order other than the
/// given one, and a seed of the run's own (lm-eval's few-shot seed is one for the whole
/// invocation, `--seed`, 1234 by default). `None` when every run can be a task of a group.
pub fn group_refusal(experiment: &Experiment) -> Option<String> {
    for run in &experiment.runs {
        if run.order.as_deref().is_some_and(|o| o != "given") {
            return Some(format!(
                "{}: run `{}` asks for the choice order `{}`, which lm-eval has no setting for",
                experiment.experiment,
                run.name,
                run.order.as_deref().unwrap_or_default()
            ));
        }
        if run.seed.is_some_and(|s| s != 1234) {
            return Some(format!(
                "{}: run `{}` has a seed of its own ({}); lm-eval's few-shot seed is one for the whole run (--seed)",
                experiment.experiment,
                run.name,
                run.seed.unwrap_or_default()
            ));
        }
    }
    None
}

/// An experiment as an lm-eval group: a task file per run (`<experiment>_<run>.yaml`, including
/// the exported task `task_names[run.task]` and setting the run's `num_fewshot`), and the group
/// file `<experiment>.yaml` listing them, with each compared metric's plain mean over the runs
/// (`weight_by_size: false`: the runs score the same documents). The exported tasks' own files
/// come from [`export_task`].
pub fn experiment_group(
    experiment: &Experiment,
    task_names: &std::collections::BTreeMap<String, String>,
) -> Result<ExportedTask> {
    if let Some(why) = group_refusal(experiment) {
        return Err(Error::new(why));
    }
    let header = |what: &str| {
        format!(
            "# {what} of the experiment {} exported by lingualens for lm-evaluation-harness: lm-eval run --tasks {} --include_path <this folder>\n",
            experiment.experiment, experiment.experiment
        )
    };
    let mut files = Vec::new();
    let mut names = Vec::new();
    for run in &experiment.runs {
        let task = task_names
            .get(&run.task)
            .ok_or_else(|| Error::new(format!("run `{}`: the task `{}` was not exported", run.name, run.task)))?;
        let name = format!("{}_{}", experiment.experiment, run.name);
        if task_names.values().any(|t| *t == name) {
            return Err(Error::new(format!("run `{}`: its lm-eval name `{name}` is already a task's", run.name)));
        }
        let mut map = Mapping::new();
        map.insert("include".into(), format!("{task}.yaml").into());
        map.insert("task".into(), name.as_str().into());
        if let Some(k) = run.shots {
            map.insert("num_fewshot".into(), (k as u64).into());
        }
        let yaml = serde_yaml_ng::to_string(&map).map_err(|e| Error::new(format!("{name}: {e}")))?;
        files.push((format!("{name}.yaml"), header(&format!("run `{}`", run.name)) + &yaml));
        names.push(Yaml::from(name));
    }
    let mut metrics: Vec<&str> = Vec::new();
    for run in &experiment.runs {
        if !metrics.contains(&run.metric.as_str()) {
            metrics.push(&run.metric);
        }
    }
    let aggregate: Vec<Yaml> = metrics
        .iter()
        .map(|m| {
            let mut entry = Mapping::new();
            entry.insert("metric".into(), (*m).into());
            entry.insert("aggregation".into(), "mean".into());
            entry.insert("weight_by_size".into(), false.into());
            Yaml::Mapping(entry)
        })
        .collect();
    let mut metadata = Mapping::new();
    metadata.insert("version".into(), 1.0.into());
    metadata.insert("description".into(), experiment.description.as_str().into());
    let mut group = Mapping::new();
    group.insert("group".into(), experiment.experiment.as_str().into());
    group.insert("task".into(), Yaml::Sequence(names));
    group.insert("aggregate_metric_list".into(), Yaml::Sequence(aggregate));
    group.insert("metadata".into(), Yaml::Mapping(metadata));
    let yaml = serde_yaml_ng::to_string(&group).map_err(|e| Error::new(format!("{}: {e}", experiment.experiment)))?;
    files.insert(0, (format!("{}.yaml", experiment.experiment), header("the group") + &yaml));
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

    #[test]
    fn an_experiment_becomes_a_group_of_its_runs_or_is_refused_by_run() {
        let text = "experiment: gap\ndescription: two languages\nruns:\n  - {name: en, task: dzen_en, shots: 0}\n  - {name: dz, task: ./dz.yaml}\n  - {name: cot, task: dzen_en, metric: exact_match}\n";
        let experiment = Experiment::parse("gap.yaml", text).unwrap();
        let names = [("dzen_en", "dzen_en"), ("./dz.yaml", "dzen_dz")]
            .into_iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        let out = experiment_group(&experiment, &names).unwrap();
        let files: Vec<&str> = out.files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(files, ["gap.yaml", "gap_en.yaml", "gap_dz.yaml", "gap_cot.yaml"]);
        let group: Mapping = serde_yaml_ng::from_str(&out.files[0].1).unwrap();
        assert_eq!(group["task"], serde_yaml_ng::from_str::<Yaml>("[gap_en, gap_dz, gap_cot]").unwrap());
        let metrics: Vec<&str> = group["aggregate_metric_list"]
            .as_sequence()
            .unwrap()
            .iter()
            .map(|m| m["metric"].as_str().unwrap())
            .collect();
        assert_eq!(metrics, ["acc", "exact_match"]);
        let en: Mapping = serde_yaml_ng::from_str(&out.files[1].1).unwrap();
        assert_eq!((en["include"].as_str(), en["num_fewshot"].as_u64()), (Some("dzen_en.yaml"), Some(0)));
        let dz: Mapping = serde_yaml_ng::from_str(&out.files[2].1).unwrap();
        assert_eq!((dz["include"].as_str(), dz.get("num_fewshot")), (Some("dzen_dz.yaml"), None));
        for (change, says) in [("shots: 0}", "shots: 0, order: gold-last}"), ("shots: 0}", "shots: 0, seed: 7}")] {
            let e = Experiment::parse("gap.yaml", &text.replace(change, says)).unwrap();
            let err = experiment_group(&e, &names).unwrap_err().to_string();
            assert!(err.contains("run `en`") && err.contains("lm-eval"), "{err}");
        }
    }
}
