//! Files dropped on the setup panel, or a folder picked whole, sorted into what they are: the
//! model (one GGUF, or a Hugging Face folder's files) and the task's files (data and YAML). Plain
//! paths in, indices out, so it is tested natively; `page::files` reads the `File`s.

use std::collections::BTreeMap;

use crate::formats::source::base_name;

/// What a drop onto the setup section is: a model (one GGUF file, or the files of a Hugging Face
/// folder) and any number of task files (data and YAML), by path. Indices are into the dropped list.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DroppedFiles {
    pub model: Vec<usize>,
    pub task: Vec<usize>,
    /// Paths of files that are neither, left out (said in the status line).
    pub ignored: Vec<String>,
    /// The dropped folder the model's files are, when they came as a folder (its name names the model).
    pub model_folder: Option<String>,
}

/// The task files the benchmark input accepts (`accept` of `#task-files` in index.html); an
/// lm-eval include file (`dzen_common_yaml`, no extension) counts too.
/// `zip`: a benchmark release as its authors publish it (DZEN's), unpacked in the worker.
const TASK_EXTENSIONS: [&str; 8] = ["csv", "json", "jsonl", "parquet", "yaml", "yml", "zip", "py"];

/// Files of a Hugging Face model folder that are not weights: taken as the model's, not as data.
const HF_MODEL_FILES: [&str; 6] = [
    "config.json",
    "tokenizer.json",
    "tokenizer_config.json",
    "model.safetensors.index.json",
    "generation_config.json",
    "special_tokens_map.json",
];

/// Whether `path` names a GGUF file.
pub fn is_gguf(path: &str) -> bool {
    base_name(path).to_ascii_lowercase().ends_with(".gguf")
}

/// Whether a file (by its name, or its path in a picked folder) is part of a Hugging Face model
/// folder: its weights (`*.safetensors`) or one of its JSON files.
pub fn is_hf_model_file(name: &str) -> bool {
    let base = base_name(name).to_ascii_lowercase();
    base.ends_with(".safetensors") || HF_MODEL_FILES.contains(&base.as_str())
}

/// Whether a file is one the benchmark takes: a data table, a task YAML or an include file.
pub fn is_task_file(name: &str) -> bool {
    let base = base_name(name).to_ascii_lowercase();
    let extension = base.rsplit_once('.').map(|(_, e)| e.to_string()).unwrap_or_default();
    TASK_EXTENSIONS.contains(&extension.as_str()) || (!base.contains('.') && base.ends_with("_yaml"))
}

/// The most files a dropped folder may hold (a drop of a home folder by mistake is refused
/// instead of listed for minutes).
pub const MAX_DROPPED_FILES: usize = 20_000;

/// Sorts a drop by path: a loose file is its name (`data.jsonl`), a file in a dropped folder its
/// path from that folder (`qwen3/config.json`, `dzen/DZEN/8th-Math.csv`).
///
/// - A loose `.gguf`, or a loose Hugging Face folder's files (config.json, tokenizer.json,
///   `*.safetensors`, …), is the model; loose data and YAML files are the task.
/// - A folder with Hugging Face model files directly in it is a model folder: its own files are
///   the model, not its subfolders' (as the folder picker), and it names the model. A `.gguf`
///   directly in a folder is a GGUF model as if dropped loose.
/// - Any other folder is a data folder: every task file in it or in its subfolders is the task
///   (DZEN's folder holds DZEN/ and DZEN-Few_Shots/), as the data folder picker takes them.
///
/// Two models (two GGUF files, a GGUF file and a folder's files, two model folders), two data
/// files with one name (the task finds its files by name), or nothing usable, is an error that
/// names the files.
pub fn sort_dropped(paths: &[String]) -> std::result::Result<DroppedFiles, String> {
    let mut dropped = DroppedFiles::default();
    let (mut ggufs, mut loose_hf) = (Vec::new(), Vec::new());
    // Dropped folders by name, in the order they first appear, with their files.
    let mut folders: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, path) in paths.iter().enumerate() {
        match path.split_once('/') {
            Some((folder, _)) => match folders.iter_mut().find(|(f, _)| f == folder) {
                Some((_, files)) => files.push(i),
                None => folders.push((folder.to_string(), vec![i])),
            },
            None if is_gguf(path) => ggufs.push(i),
            None if is_hf_model_file(path) => loose_hf.push(i),
            None if is_task_file(path) => dropped.task.push(i),
            None => dropped.ignored.push(path.clone()),
        }
    }
    let mut model_folders: Vec<(String, Vec<usize>)> = Vec::new();
    for (folder, files) in folders {
        let direct = |i: &usize| paths[*i].split('/').count() == 2;
        if files.iter().filter(|i| direct(i)).any(|&i| is_hf_model_file(&paths[i])) {
            let mut own = Vec::new();
            for i in files {
                match (direct(&i), is_gguf(&paths[i])) {
                    (true, true) => ggufs.push(i),
                    (true, false) => own.push(i),
                    (false, _) => dropped.ignored.push(paths[i].clone()),
                }
            }
            model_folders.push((folder, own));
        } else {
            for i in files {
                if direct(&i) && is_gguf(&paths[i]) {
                    ggufs.push(i);
                } else if is_task_file(&paths[i]) {
                    dropped.task.push(i);
                } else {
                    dropped.ignored.push(paths[i].clone());
                }
            }
        }
    }
    let listed = |indices: &[usize]| indices.iter().map(|&i| paths[i].as_str()).collect::<Vec<_>>().join(", ");
    if ggufs.len() > 1 {
        return Err(format!("drop one model file at a time, not {}", listed(&ggufs)));
    }
    let mut models: Vec<(String, Vec<usize>, Option<String>)> = Vec::new();
    if !ggufs.is_empty() {
        models.push((format!("a GGUF file ({})", listed(&ggufs)), ggufs, None));
    }
    if !loose_hf.is_empty() {
        models.push((format!("a model folder's files ({})", listed(&loose_hf)), loose_hf, None));
    }
    for (folder, files) in model_folders {
        models.push((format!("the model folder {folder}"), files, Some(folder)));
    }
    match models.len() {
        0 => {}
        1 => {
            let (_, files, folder) = models.remove(0);
            (dropped.model, dropped.model_folder) = (files, folder);
        }
        _ => {
            let what: Vec<&str> = models.iter().map(|(what, _, _)| what.as_str()).collect();
            return Err(format!("drop one model at a time: {}, not all of them", what.join(" or ")));
        }
    }
    let mut by_name: BTreeMap<String, &str> = BTreeMap::new();
    for &i in &dropped.task {
        if let Some(other) = by_name.insert(base_name(&paths[i]).to_string(), &paths[i]) {
            return Err(format!(
                "two data files are named {} ({other} and {}): a task finds its files by name, drop one of them",
                base_name(&paths[i]),
                paths[i]
            ));
        }
    }
    if dropped.model.is_empty() && dropped.task.is_empty() {
        let names: Vec<&str> = paths.iter().take(12).map(String::as_str).collect();
        let more = if paths.len() > 12 { format!(" and {} more", paths.len() - 12) } else { String::new() };
        return Err(format!(
            "nothing to use in {}{more}: a model is a .gguf file or a Hugging Face folder (config.json, tokenizer.json, .safetensors), a benchmark a .{} file",
            if paths.is_empty() { "the drop".to_string() } else { names.join(", ") },
            TASK_EXTENSIONS.join(", .")
        ));
    }
    Ok(dropped)
}

/// The files of a folder picked with `webkitdirectory`, by their paths in it (`qwen3/config.json`):
/// the picked folder's name and the indices of the files directly in it. Files in its subfolders
/// are left out, so a model folder that keeps other exports in `gguf/` or `sharded/` still has one
/// config.json. `None` when nothing was picked.
pub fn top_level_files(paths: &[String]) -> Option<(String, Vec<usize>)> {
    let folder = paths.first()?.split('/').next()?.to_string();
    let top = paths.iter().enumerate().filter(|(_, p)| p.split('/').count() <= 2).map(|(i, _)| i).collect();
    Some((folder, top))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dropped_files_sort_into_a_model_and_task_files() {
        let names = |xs: &[&str]| xs.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let d = sort_dropped(&names(&["task.YAML", "Qwen3-0.6B-Q8_0.gguf", "data.jsonl", "notes.txt"])).unwrap();
        assert_eq!(
            d,
            DroppedFiles { model: vec![1], task: vec![0, 2], ignored: vec!["notes.txt".into()], model_folder: None }
        );
        let d = sort_dropped(&names(&["m.GGUF"])).unwrap();
        assert_eq!((d.model, d.task.len()), (vec![0], 0));
        let e = sort_dropped(&names(&["a.gguf", "b.gguf"])).unwrap_err();
        assert!(e.contains("a.gguf, b.gguf"), "{e}");
        let e = sort_dropped(&names(&["photo.png", "gguf"])).unwrap_err();
        assert!(e.contains("photo.png") && e.contains(".parquet"), "{e}");
        // A Hugging Face folder's files are the model; its JSON files are not taken for data.
        let hf = [
            "config.json",
            "model-00001-of-00002.safetensors",
            "tokenizer.json",
            "model.safetensors.index.json",
            "dzen_en.yaml",
            "dzen_common_yaml",
            "8th-Math.csv",
            "README.md",
        ];
        let d = sort_dropped(&names(&hf)).unwrap();
        assert_eq!(
            d,
            DroppedFiles {
                model: vec![0, 1, 2, 3],
                task: vec![4, 5, 6],
                ignored: vec!["README.md".into()],
                model_folder: None
            }
        );
        let e = sort_dropped(&names(&["a.gguf", "config.json", "model.safetensors"])).unwrap_err();
        assert!(e.contains("a.gguf") && e.contains("config.json, model.safetensors"), "{e}");
    }

    #[test]
    fn dropped_folders_are_a_model_folder_or_a_data_folder() {
        let paths = |xs: &[&str]| xs.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        // A model folder dropped with DZEN's data folder and a loose YAML: the model is the
        // folder's own files (its gguf/ and ref/ subfolders are left out, its vocab.json is the
        // model's, not data); the data is every task file under the data folder.
        let drop = paths(&[
            "llama3_tied/config.json",
            "llama3_tied/model.safetensors",
            "llama3_tied/vocab.json",
            "llama3_tied/gguf/llama3_tied-Q8_0.gguf",
            "llama3_tied/ref/logits.npy",
            "dzen/SOURCE.md",
            "dzen/DZEN/8th-Math.csv",
            "dzen/DZEN-Few_Shots/8th-Math-few_shot.csv",
            "task.yaml",
        ]);
        let d = sort_dropped(&drop).unwrap();
        assert_eq!(
            d,
            DroppedFiles {
                model: vec![0, 1, 2],
                task: vec![8, 6, 7],
                ignored: paths(&[
                    "llama3_tied/gguf/llama3_tied-Q8_0.gguf",
                    "llama3_tied/ref/logits.npy",
                    "dzen/SOURCE.md"
                ]),
                model_folder: Some("llama3_tied".into()),
            }
        );
        // A folder holding a GGUF file and data: the GGUF file is the model, the data the task.
        let d = sort_dropped(&paths(&["run/m.gguf", "run/q.jsonl", "run/old/m2.gguf"])).unwrap();
        assert_eq!((d.model, d.task, d.ignored, d.model_folder), (vec![0], vec![1], paths(&["run/old/m2.gguf"]), None));
        // Two models, however they come, are refused, naming them.
        let e = sort_dropped(&paths(&["a/config.json", "a/model.safetensors", "b/config.json", "b/model.safetensors"]))
            .unwrap_err();
        assert!(e.contains("the model folder a") && e.contains("the model folder b"), "{e}");
        let e = sort_dropped(&paths(&["a/config.json", "m.gguf"])).unwrap_err();
        assert!(e.contains("m.gguf") && e.contains("the model folder a"), "{e}");
        let e = sort_dropped(&paths(&["a/config.json", "tokenizer.json"])).unwrap_err();
        assert!(e.contains("tokenizer.json") && e.contains("the model folder a"), "{e}");
        // A task finds files by name: two data files with one name are ambiguous.
        let e = sort_dropped(&paths(&["d/x/test.csv", "d/y/test.csv"])).unwrap_err();
        assert!(e.contains("d/x/test.csv and d/y/test.csv"), "{e}");
        // A folder with nothing usable names what it held.
        let e = sort_dropped(&paths(&["photos/a.png", "photos/b.png"])).unwrap_err();
        assert!(e.contains("photos/a.png, photos/b.png"), "{e}");
    }

    #[test]
    fn a_picked_folder_gives_its_own_files_not_its_subfolders() {
        let paths: Vec<String> =
            ["qwen3/config.json", "qwen3/sharded/config.json", "qwen3/model.safetensors", "qwen3/gguf/q.gguf"]
                .iter()
                .map(|p| p.to_string())
                .collect();
        assert_eq!(top_level_files(&paths), Some(("qwen3".to_string(), vec![0, 2])));
        assert_eq!(top_level_files(&[]), None);
    }
}
