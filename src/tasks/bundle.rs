//! A task given as files in memory rather than as paths: what the page hands its worker when the
//! user picks a built-in task, or drops a task YAML with its data, or drops a data file alone.
//!
//! - With a YAML file: the task is read through [`load_task`] with the other files as its
//!   `include:` targets and sidecars, and its documents come from the data file its
//!   `data_files` names (by file name), or from the user's data file where it says `{{data}}`
//!   or names a Hub dataset.
//! - Without one: each data file is read as a table. A table with `question`, `choices` and
//!   `answer` columns is used as it is; any other goes through the column mapping that fits it
//!   (ProverbEval, KyrgyzMMLU, …; `tasks::hf_table`). Both run under the generic
//!   multiple-choice task in `datasets/tasks/generic/multiple_choice.yaml`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use super::anomaly::Anomaly;
use super::item::Item;
use super::table::Format;
use super::yaml::{
    docs_from_file, item_split_docs, items_docs, load_task, DataSource, FewshotPool, HubSplits, LoadOptions, TaskSpec,
};
use crate::error::{Error, Result};
use crate::formats::source::base_name;

/// The task a data file without a task file runs under.
pub const GENERIC_MULTIPLE_CHOICE: &str = include_str!("../../datasets/tasks/generic/multiple_choice.yaml");

/// A file by name, with its bytes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NamedFile {
    pub name: String,
    #[serde(with = "serde_bytes")]
    pub bytes: Vec<u8>,
}

/// A task file (optional) and the data files that go with it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TaskFiles {
    pub yaml: Option<NamedFile>,
    pub data: Vec<NamedFile>,
    /// A task's Hub dataset: split → the data files' names ([`LoadOptions::hub_data_files`]): a
    /// published task's from the catalogue, or what the worker found on the Hub.
    #[serde(default)]
    pub hub_data: BTreeMap<String, Vec<String>>,
    /// What `os.getenv` gives the task's prompt functions ([`LoadOptions::env`]).
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// A built-in task's files that the catalogue knows by Hub repository and config: the worker
    /// finds and fetches them (`hub::split_files`) and adds them to `data`.
    #[serde(default)]
    pub hub_sources: Vec<crate::catalog::HubData>,
}

/// A task ready to render: its spec, the evaluated documents and the few-shot pool.
#[derive(Debug, Clone)]
pub struct PreparedTask {
    pub spec: TaskSpec,
    pub docs: Vec<Json>,
    pub pool: FewshotPool,
    /// What the user should know: loader anomalies (file:row), task warnings.
    pub notes: Vec<String>,
}

/// The file name a task file's top-level `include:` names, if any.
fn included_name(bytes: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(bytes).ok()?;
    let value = text.lines().find_map(|l| l.strip_prefix("include:"))?.trim();
    let value = value.trim_matches(|c| c == '"' || c == '\'');
    (!value.is_empty()).then(|| base_name(value).to_string())
}

fn is_yaml(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.ends_with(".yaml") || lower.ends_with(".yml")
}

impl TaskFiles {
    /// Sorts dropped files into the task file and the data files: the task file is the one YAML
    /// that no other given YAML includes (`include:`, by file name); the YAMLs it includes go
    /// with the data files, where its `include:` finds them.
    pub fn from_files(files: Vec<NamedFile>) -> Result<TaskFiles> {
        let (yamls, mut data): (Vec<NamedFile>, Vec<NamedFile>) = files.into_iter().partition(|f| is_yaml(&f.name));
        let included: Vec<String> = yamls.iter().filter_map(|f| included_name(&f.bytes)).collect();
        let (includes, tasks): (Vec<NamedFile>, Vec<NamedFile>) =
            yamls.into_iter().partition(|f| included.iter().any(|i| i == base_name(&f.name)));
        if tasks.len() > 1 {
            let names: Vec<&str> = tasks.iter().map(|f| f.name.as_str()).collect();
            crate::bail!("give one task file at a time, not {}", names.join(", "));
        }
        data.extend(includes);
        Ok(TaskFiles { yaml: tasks.into_iter().next(), data, ..Default::default() })
    }

    /// Files fetched into `data` (a published task's YAML among them) sorted again into the
    /// task file and the rest, as [`TaskFiles::from_files`] sorts them.
    pub fn sort_fetched(&mut self) -> Result<()> {
        if self.yaml.is_some() || !self.data.iter().any(|f| is_yaml(&f.name)) {
            return Ok(());
        }
        let sorted = TaskFiles::from_files(std::mem::take(&mut self.data))?;
        self.yaml = sorted.yaml;
        self.data = sorted.data;
        Ok(())
    }

    /// Each `.zip` among the data files replaced by the files it holds, by their paths in it
    /// (DZEN's release given whole: `DZEN/8th-Math.csv`, …), as `formats::archive` reads them.
    pub fn unpack_archives(&mut self) -> Result<()> {
        let mut data = Vec::with_capacity(self.data.len());
        for file in std::mem::take(&mut self.data) {
            if file.name.to_ascii_lowercase().ends_with(".zip") {
                for (name, bytes) in crate::formats::archive::unzip(&file.name, &file.bytes)? {
                    data.push(NamedFile { name, bytes });
                }
            } else {
                data.push(file);
            }
        }
        self.data = data;
        Ok(())
    }

    fn find(&self, name: &str) -> Option<&NamedFile> {
        let wanted = base_name(name);
        self.data.iter().find(|f| base_name(&f.name) == wanted)
    }

    /// Reads the task and its documents.
    pub fn prepare(&self, options: &LoadOptions) -> Result<PreparedTask> {
        let mut options = options.clone();
        options.env.extend(self.env.clone());
        options.hub_data_files.extend(self.hub_data.clone());
        // KyrgyzLLM-Bench's prompts, from the authors' code that came with the data, for a task
        // file that includes one (not for the authors' own lm-eval folder dropped whole).
        let wanted = self.yaml.as_ref().and_then(|y| included_name(&y.bytes));
        let reads_code = wanted.is_some_and(|name| super::kyrgyzllm::INCLUDES.contains(&name.as_str()));
        for f in self.data.iter().filter(|_| reads_code) {
            let name = base_name(&f.name);
            if [super::kyrgyzllm::LM_EVAL_CLASSES, super::kyrgyzllm::LIGHTEVAL_TASKS].contains(&name) {
                let text =
                    std::str::from_utf8(&f.bytes).map_err(|_| Error::new(format!("{}: not UTF-8 text", f.name)))?;
                for include in super::kyrgyzllm::includes(name, text)? {
                    options.include_files.insert(include.name, include.text);
                }
            }
        }
        let options = &options;
        match &self.yaml {
            Some(yaml) => self.prepare_yaml(yaml, options),
            None => self.prepare_tables(),
        }
    }

    /// The task file read (its includes found among the data files by name).
    fn load_spec(&self, yaml: &NamedFile, options: &LoadOptions) -> Result<TaskSpec> {
        let text = |f: &NamedFile| {
            String::from_utf8(f.bytes.clone()).map_err(|_| Error::new(format!("{}: not UTF-8 text", f.name)))
        };
        let root = base_name(&yaml.name).to_string();
        let resolve = |path: &str| -> Result<Option<String>> {
            if base_name(path) == root {
                return text(yaml).map(Some);
            }
            self.find(path).map(text).transpose()
        };
        load_task(&root, &resolve, options)
    }

    /// The Hub dataset the task file reads when it was given without a data file (its
    /// `dataset_path` an `owner/name`); `None` otherwise.
    pub fn hub_splits(&self, options: &LoadOptions) -> Result<Option<HubSplits>> {
        let Some(yaml) = &self.yaml else { return Ok(None) };
        // A data file given (not an include file or a Python module beside the YAML).
        let given = self
            .data
            .iter()
            .any(|f| Format::from_name(&f.name).is_some() || f.name.to_ascii_lowercase().ends_with(".zip"));
        if given || !self.hub_data.is_empty() {
            return Ok(None);
        }
        let mut options = options.clone();
        options.env.extend(self.env.clone());
        Ok(self.load_spec(yaml, &options)?.hub_splits())
    }

    fn prepare_yaml(&self, yaml: &NamedFile, options: &LoadOptions) -> Result<PreparedTask> {
        let spec = self.load_spec(yaml, options)?;
        let mut notes = spec.warnings.clone();
        // A task's Python module (`utils.py`, read for its prompt functions) is not data.
        let user_data: Vec<&NamedFile> =
            self.data.iter().filter(|f| !is_yaml(&f.name) && !f.name.to_ascii_lowercase().ends_with(".py")).collect();
        let split_docs = |split: Option<&str>, notes: &mut Vec<String>| -> Result<Option<Vec<Json>>> {
            let names: Vec<String> = match (&spec.source, split) {
                (DataSource::Files { data_files, .. }, Some(split)) => {
                    data_files.get(split).cloned().unwrap_or_default()
                }
                _ => Vec::new(),
            };
            let mut docs = Vec::new();
            let mut found = false;
            for name in names.iter().filter(|n| !n.contains("{{")) {
                let file = self.find(name).ok_or_else(|| {
                    Error::new(format!(
                        "{}: data file {name} (split {}) was not given",
                        spec.file,
                        split.unwrap_or("?")
                    ))
                })?;
                docs.extend(docs_from_file(&file.name, &file.bytes)?);
                found = true;
            }
            if !found && (spec.source.needs_user_data() || names.is_empty()) && split == spec.eval_split() {
                let [file] = user_data.as_slice() else {
                    if user_data.is_empty() {
                        return Ok(None);
                    }
                    let names: Vec<&str> = user_data.iter().map(|f| f.name.as_str()).collect();
                    crate::bail!(
                        "{}: give one data file for split {}, not {}",
                        spec.file,
                        split.unwrap_or("test"),
                        names.join(", ")
                    );
                };
                notes.push(format!("{}: documents of split {} from {}", spec.file, split.unwrap_or("test"), file.name));
                docs.extend(docs_from_file(&file.name, &file.bytes)?);
                found = true;
            }
            Ok(found.then_some(docs))
        };
        if let DataSource::Items { loader, .. } = &spec.source {
            // The lingualens loader's files: the data tables given (not the task's include files).
            let tables: Vec<(&str, &[u8])> = user_data
                .iter()
                .filter(|f| Format::from_name(&f.name).is_some())
                .map(|f| (f.name.as_str(), f.bytes.as_slice()))
                .collect();
            if tables.is_empty() {
                crate::bail!(
                    "{}: the task reads lingualens `{loader}` items: add their files{}",
                    spec.file,
                    loader_hint(loader)
                );
            }
            let loaded = loader_items(loader, &tables)?;
            notes.push(loaded.summary());
            // Every anomaly, as for tables: the page shows the first ones and counts the rest.
            notes.extend(loaded.anomalies.iter().map(|a| a.to_string()));
            let (docs, pool) = item_task_docs(&spec, &loaded.items, "add the files that hold it")?;
            if docs.is_empty() {
                crate::bail!(
                    "{}: no `{loader}` items of split {} in the files given{}",
                    spec.file,
                    spec.eval_split().unwrap_or("test"),
                    loader_hint(loader)
                );
            }
            return Ok(PreparedTask { spec, docs, pool, notes });
        }
        let docs = split_docs(spec.eval_split(), &mut notes)?.ok_or_else(|| {
            Error::new(format!(
                "{}: no data for split {}: add the data file",
                spec.file,
                spec.eval_split().unwrap_or("test")
            ))
        })?;
        // The few-shot split's files, where all of them were given (else the pool is missing,
        // which only a run that asks for examples refuses).
        let given = |split: &str| match &spec.source {
            DataSource::Files { data_files, .. } => data_files.get(split).is_some_and(|names| {
                !names.is_empty() && names.iter().all(|n| !n.contains("{{") && self.find(n).is_some())
            }),
            _ => false,
        };
        let pool = spec.fewshot_pool(
            &docs,
            |split| if given(split) { split_docs(Some(split), &mut notes) } else { Ok(None) },
            "add its data file",
        )?;
        Ok(PreparedTask { spec, docs, pool, notes })
    }

    fn prepare_tables(&self) -> Result<PreparedTask> {
        if self.data.is_empty() {
            crate::bail!("no task file and no data file");
        }
        let mut docs = Vec::new();
        let mut notes = Vec::new();
        for file in &self.data {
            let plain = docs_from_file(&file.name, &file.bytes)?;
            let has = |doc: &Json, key: &str| doc.get(key).is_some();
            if plain.first().is_some_and(|d| has(d, "question") && has(d, "choices") && has(d, "answer")) {
                docs.extend(plain);
                continue;
            }
            let loaded = super::hf_table::load_table(&file.name, &file.bytes, &Default::default());
            notes.extend(loaded.anomalies.iter().map(|a| a.to_string()));
            if loaded.items.is_empty() {
                crate::bail!(
                    "{}: no multiple-choice items found (need question/choices/answer columns, or the columns of a known set){}",
                    file.name,
                    loaded.anomalies.first().map(|a| format!(": {a}")).unwrap_or_default()
                );
            }
            docs.extend(items_docs(&loaded.items));
        }
        let generic =
            NamedFile { name: "multiple_choice.yaml".into(), bytes: GENERIC_MULTIPLE_CHOICE.as_bytes().to_vec() };
        let resolve = |_: &str| Ok(Some(GENERIC_MULTIPLE_CHOICE.to_string()));
        let spec = load_task(&generic.name, &resolve, &LoadOptions::default())?;
        let mut checked = Vec::with_capacity(docs.len());
        for (row, doc) in docs.into_iter().enumerate() {
            match check_mc_doc(&doc) {
                Ok(()) => checked.push(doc),
                Err(why) => notes.push(format!("{}: row {}: {why} (skipped)", self.data[0].name, row + 1)),
            }
        }
        let pool = spec.fewshot_pool(&checked, |_| Ok(None), "add its data file")?;
        Ok(PreparedTask { spec, docs: checked, pool, notes })
    }
}

/// Items of a lingualens loader (a task's `dataset_path: lingualens`, `dataset_name: LOADER`).
#[derive(Debug, Clone, Default)]
pub struct LoaderItems {
    pub items: Vec<Item>,
    /// What was wrong in the files and what was done about it (`lingualens data check` lists them).
    pub anomalies: Vec<Anomaly>,
    pub files: usize,
}

impl LoaderItems {
    /// "1234 items from 30 files; 12 anomalies handled (…)".
    pub fn summary(&self) -> String {
        format!(
            "{} items from {} files; {} anomalies handled (`lingualens data check` lists them)",
            self.items.len(),
            self.files,
            self.anomalies.len()
        )
    }
}

/// What to give for a loader's items, for messages.
fn loader_hint(loader: &str) -> &'static str {
    match loader {
        "dzen" => " (DZEN: the CSV files of DZEN/ and DZEN-Few_Shots/, or the folder holding them)",
        _ => " (the data files of the dataset, CSV, JSON, JSONL or Parquet)",
    }
}

/// Items of the lingualens loader `loader` from named files: `dzen`, DZEN's evaluation and
/// few-shot CSVs together (each told apart by its header), in the order of their file names; any other, table files read with that
/// loader's built-in column mapping, with metadata from each file's path (KyrgyzMMLU's
/// `kyrgyz_mmlu_<subject>` folders). The command line and the page both read items here.
pub fn loader_items(loader: &str, files: &[(&str, &[u8])]) -> Result<LoaderItems> {
    if loader == "dzen" {
        // In file-name order, as a DZEN folder is read: the same CSVs give the same items in the
        // same order however they were given (a folder picked in a browser lists its files in
        // no particular order).
        let mut files = files.to_vec();
        files.sort_by(|a, b| (base_name(a.0), a.0).cmp(&(base_name(b.0), b.0)));
        let set = super::dzen::load_dzen(&files);
        let n_files = set.files.len();
        let loaded = set.into_loaded();
        return Ok(LoaderItems { items: loaded.items, anomalies: loaded.anomalies, files: n_files });
    }
    let mapping = super::builtin(loader)
        .ok_or_else(|| Error::new(format!("dataset_name {loader}: no lingualens loader of that name")))?;
    let mut out = LoaderItems { files: files.len(), ..Default::default() };
    for &(name, bytes) in files {
        let options = super::TableOptions {
            mapping: Some(mapping.clone()),
            metadata: super::check::metadata_from_path(name),
            ..Default::default()
        };
        let loaded = super::load_table(name, bytes, &options);
        out.anomalies.extend(loaded.anomalies);
        out.items.extend(loaded.items);
    }
    Ok(out)
}

/// The evaluated documents (the task's eval split) and the few-shot pool (lm-eval's: its
/// few-shot split, `fewshot_config.samples`, …; missing, with `how_to_give` in the message, when
/// the items given hold none of that split) of a task over lingualens items.
pub fn item_task_docs(spec: &TaskSpec, items: &[Item], how_to_give: &str) -> Result<(Vec<Json>, FewshotPool)> {
    let docs = item_split_docs(spec, items, spec.eval_split().unwrap_or("test"));
    let pool = spec.fewshot_pool(
        &docs,
        |split| {
            let d = item_split_docs(spec, items, split);
            Ok((!d.is_empty()).then_some(d))
        },
        how_to_give,
    )?;
    Ok((docs, pool))
}

/// A document the generic task can render: a text question, 2+ text choices, an index in range.
fn check_mc_doc(doc: &Json) -> std::result::Result<(), String> {
    if !doc.get("question").is_some_and(Json::is_string) {
        return Err("question is not text".into());
    }
    let n = match doc.get("choices") {
        Some(Json::Array(c)) if c.len() >= 2 && c.iter().all(Json::is_string) => c.len(),
        _ => return Err("choices is not a list of two or more texts".into()),
    };
    match doc.get("answer").and_then(Json::as_u64) {
        Some(i) if (i as usize) < n => Ok(()),
        _ => Err(format!("answer is not an index below {n}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, text: &str) -> NamedFile {
        NamedFile { name: name.into(), bytes: text.as_bytes().to_vec() }
    }

    const JSONL: &str = "{\"question\":\"2+2?\",\"choices\":[\"3\",\"4\"],\"answer\":1}\n{\"question\":\"<b>x</b>\",\"choices\":[\"a\",\"b\",\"c\"],\"answer\":0}\n";

    #[test]
    fn a_zip_among_the_data_files_is_replaced_by_the_files_it_holds() {
        let mut zipped = std::io::Cursor::new(Vec::new());
        let mut writer = zip::ZipWriter::new(&mut zipped);
        writer.start_file("DZEN/8th-Math.csv", zip::write::SimpleFileOptions::default()).unwrap();
        std::io::Write::write_all(&mut writer, b"q,a\n").unwrap();
        writer.finish().unwrap();
        let mut files = TaskFiles {
            data: vec![
                file("other.jsonl", JSONL),
                NamedFile { name: "Release.ZIP".into(), bytes: zipped.into_inner() },
            ],
            ..Default::default()
        };
        files.unpack_archives().unwrap();
        let names: Vec<&str> = files.data.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["other.jsonl", "DZEN/8th-Math.csv"]);
        assert_eq!(files.data[1].bytes, b"q,a\n");
        let mut broken = TaskFiles { data: vec![file("broken.zip", "not a zip")], ..Default::default() };
        assert!(broken.unpack_archives().unwrap_err().to_string().starts_with("broken.zip: not a zip archive"));
    }

    #[test]
    fn a_data_file_alone_runs_under_the_generic_task() {
        let files = TaskFiles::from_files(vec![file("mine.jsonl", JSONL)]).unwrap();
        let task = files.prepare(&LoadOptions::default()).unwrap();
        assert_eq!(task.spec.task, "multiple_choice");
        assert_eq!(task.docs.len(), 2);
        assert_eq!(task.docs[1]["question"], "<b>x</b>");
    }

    #[test]
    fn a_yaml_finds_its_data_file_by_name() {
        let yaml = "task: t\ndataset_path: json\ndataset_kwargs:\n  data_files:\n    test: sub/d.jsonl\ntest_split: test\noutput_type: multiple_choice\ndoc_to_text: \"Q: {{question}}\"\ndoc_to_choice: choices\ndoc_to_target: answer\n";
        let files = TaskFiles::from_files(vec![file("t.yaml", yaml), file("d.jsonl", JSONL)]).unwrap();
        let task = files.prepare(&LoadOptions::default()).unwrap();
        assert_eq!((task.spec.task.as_str(), task.docs.len()), ("t", 2));

        let missing = TaskFiles::from_files(vec![file("t.yaml", yaml)]).unwrap().prepare(&LoadOptions::default());
        let message = missing.unwrap_err().to_string();
        assert!(message.contains("sub/d.jsonl") && message.contains("was not given"), "{message}");
    }

    #[test]
    fn a_yaml_another_one_includes_goes_with_the_data() {
        let base = "dataset_path: json\ndataset_kwargs:\n  data_files:\n    test: d.jsonl\ntest_split: test\noutput_type: multiple_choice\ndoc_to_choice: choices\ndoc_to_target: answer\n";
        let task = "include: \"prompts/p.yaml\"\ntask: t\ndoc_to_text: \"Q: {{question}}\"\n";
        let files =
            TaskFiles::from_files(vec![file("p.yaml", base), file("t.yaml", task), file("d.jsonl", JSONL)]).unwrap();
        assert_eq!(files.yaml.as_ref().map(|f| f.name.as_str()), Some("t.yaml"));
        let prepared = files.prepare(&LoadOptions::default()).unwrap();
        assert_eq!((prepared.spec.task.as_str(), prepared.docs.len()), ("t", 2));
        // Two task files, neither included by the other, are still refused.
        let two = TaskFiles::from_files(vec![file("t.yaml", task), file("u.yaml", task)]).unwrap_err().to_string();
        assert!(two.contains("one task file at a time"), "{two}");
    }

    /// A published task whose prompt is a Python function runs from its YAML, its `utils.py` and
    /// one data file dropped together (ProverbEval as published: the dataset is a Hub id).
    #[test]
    fn a_yaml_with_its_utils_py_reads_the_prompt_function() {
        let yaml = "dataset_path: someone/Hub-dataset\ndataset_name: amh\ntask: t\ntest_split: english_1\noutput_type: multiple_choice\ndoc_to_text: !function utils.prompt\ndoc_to_choice: !function utils.choices\ndoc_to_target: answer\n";
        let utils = "P = '''Q: {q}\nA:'''\ndef prompt(doc):\n    return P.format(q=doc['question'])\ndef choices(doc):\n    return doc['choices']\n";
        let files =
            TaskFiles::from_files(vec![file("t.yaml", yaml), file("utils.py", utils), file("d.jsonl", JSONL)]).unwrap();
        let task = files.prepare(&LoadOptions::default()).unwrap();
        assert_eq!(task.docs.len(), 2);
        let rendered = task.spec.renderer().unwrap().render(&task.docs[0], &[]).unwrap();
        assert_eq!(
            (rendered.context.as_str(), rendered.choices.as_deref()),
            ("Q: 2+2?\nA:", Some(&["3".to_string(), "4".to_string()][..]))
        );
        assert!(task.notes.iter().any(|n| n.contains("read from utils.py")), "{:?}", task.notes);
    }

    /// A built-in task over lingualens items (DZEN) runs from files in memory, as in the page: the
    /// task YAML, its include file, and the user's CSVs (with a README that is not data).
    #[test]
    fn a_dzen_task_reads_its_items_from_the_csvs_given() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/datasets/tasks/dzen/");
        let read = |name: &str| NamedFile { name: name.into(), bytes: std::fs::read(format!("{dir}{name}")).unwrap() };
        let csv = "English Question,Dzongkha Question,A,B,C,D,A Dz .,B Dz ,C Dz ,D Dz ,Correct Answer\n\
                   Which is a gas?,ག་ཅི་ཨིན།,Oxygen,Iron,Salt,Sand,ཨོག་སི་ཇཱན།,ལྕགས།,ཚྭ།,བྱེ་མ།,a\n\
                   How many legs has a spider?,ཇ་ཇ།,Six,Eight,Ten,Four,༦,༨,༡༠,༤,b\n";
        let data = NamedFile { name: "DZEN/8th-Science.csv".into(), bytes: csv.as_bytes().to_vec() };
        let readme = NamedFile { name: "SOURCE.md".into(), bytes: b"# not data".to_vec() };
        let files = TaskFiles::from_files(vec![read("dzen_en.yaml"), read("dzen_common_yaml"), data, readme]).unwrap();
        let task = files.prepare(&LoadOptions::default()).unwrap();
        assert_eq!(task.spec.task, "dzen_en");
        let ids: Vec<&str> = task.docs.iter().map(|d| d["id"].as_str().unwrap()).collect();
        assert_eq!(ids, ["dzen/8th-Science/1/en", "dzen/8th-Science/2/en"]);
        assert_eq!(
            (task.docs[1]["question"].as_str(), task.docs[1]["answer"].as_u64()),
            (Some("How many legs has a spider?"), Some(1))
        );
        assert!(task.notes.iter().any(|n| n.starts_with("4 items from 1 files")), "{:?}", task.notes);

        // Without the CSVs: what to give, in words.
        let e = TaskFiles::from_files(vec![read("dzen_en.yaml"), read("dzen_common_yaml")])
            .unwrap()
            .prepare(&LoadOptions::default());
        let e = e.unwrap_err().to_string();
        assert!(e.contains("lingualens `dzen` items") && e.contains("DZEN-Few_Shots"), "{e}");
        // A CSV that is not DZEN's: no items, and the file is named among the notes' anomalies.
        let other = NamedFile { name: "mine.csv".into(), bytes: b"question,choices,answer\nq,a,0\n".to_vec() };
        let e = TaskFiles::from_files(vec![read("dzen_en.yaml"), read("dzen_common_yaml"), other])
            .unwrap()
            .prepare(&LoadOptions::default());
        let e = e.unwrap_err().to_string();
        assert!(e.contains("no `dzen` items of split test"), "{e}");
    }

    #[test]
    fn bad_rows_are_skipped_with_their_row_and_a_bad_file_is_named() {
        let text = format!("{JSONL}{{\"question\":\"q\",\"choices\":[\"a\"],\"answer\":0}}\n");
        let task =
            TaskFiles::from_files(vec![file("m.jsonl", &text)]).unwrap().prepare(&LoadOptions::default()).unwrap();
        assert_eq!(task.docs.len(), 2);
        assert!(task.notes.iter().any(|n| n.contains("m.jsonl: row 3")), "{:?}", task.notes);

        let bad = TaskFiles::from_files(vec![file("m.jsonl", "{not json\n")]).unwrap().prepare(&LoadOptions::default());
        assert!(bad.unwrap_err().to_string().contains("m.jsonl"));
        assert!(TaskFiles::from_files(vec![file("a.yaml", ""), file("b.yml", "")]).is_err());
    }
}
