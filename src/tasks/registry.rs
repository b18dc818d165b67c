//! Built-in task files by name: `lingualens eval --task dzen_en` finds the YAML under
//! `datasets/tasks/**` whose `task:` is `dzen_en` (or, without a `task:` key, whose file stem is).
//! Include files (`*_yaml` without an extension) and override sidecars (`*.override.yaml`) are not
//! tasks. Native only: the browser is given its task files.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// The folder of built-in tasks: `$LINGUALENS_TASKS`, else `datasets/tasks` of this source tree.
pub fn builtin_dir() -> PathBuf {
    match std::env::var_os("LINGUALENS_TASKS") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/tasks"),
    }
}

/// Every task file under `dir` with its task name, sorted by name.
pub fn list_tasks(dir: &Path) -> Result<Vec<(String, PathBuf)>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).map_err(|e| Error::new(format!("{}: {e}", d.display())))?;
        for entry in entries.filter_map(|e| e.ok()) {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if path.is_dir() {
                stack.push(path);
            } else if (name.ends_with(".yaml") || name.ends_with(".yml")) && !name.ends_with(".override.yaml") {
                let text = crate::formats::source::read_text_capped(
                    &path,
                    crate::formats::source::limits::TEXT_FILE,
                    "task file",
                )?;
                out.push((task_name(&text).unwrap_or_else(|| stem(&name).to_string()), path));
            }
        }
    }
    out.sort();
    Ok(out)
}

fn stem(name: &str) -> &str {
    name.strip_suffix(".yaml").or_else(|| name.strip_suffix(".yml")).unwrap_or(name)
}

/// The `task:` value of a task file, read without loading it (its includes may need data).
fn task_name(text: &str) -> Option<String> {
    let map: serde_yaml_ng::Value = serde_yaml_ng::from_str(text).ok()?;
    map.get("task")?.as_str().map(String::from)
}

/// A task given on the command line: an existing file, or the name of a built-in task in `dir`.
pub fn resolve(task: &str, dir: &Path) -> Result<PathBuf> {
    let path = Path::new(task);
    if path.is_file() {
        return Ok(path.to_path_buf());
    }
    let tasks = list_tasks(dir).map_err(|e| e.context("looking for built-in tasks"))?;
    let found: Vec<&PathBuf> = tasks.iter().filter(|(n, _)| n == task).map(|(_, p)| p).collect();
    match found.as_slice() {
        [one] => Ok(one.to_path_buf()),
        [] => {
            let names: Vec<&str> = tasks.iter().map(|(n, _)| n.as_str()).collect();
            Err(Error::new(format!(
                "--task {task}: no such file, and no built-in task of that name in {} (there are: {})",
                dir.display(),
                names.join(", ")
            )))
        }
        many => Err(Error::new(format!(
            "--task {task}: {} built-in task files have that name: {}",
            many.len(),
            many.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_shipped_tasks_by_name() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/tasks");
        let p = resolve("dzen_dz_en", &dir).unwrap();
        assert!(p.ends_with("dzen/dzen_dz_en.yaml"), "{}", p.display());
        assert!(resolve("kyrgyz_mmlu", &dir).unwrap().ends_with("kyrgyzllm/kyrgyz_mmlu.yaml"));
        let names: Vec<String> = list_tasks(&dir).unwrap().into_iter().map(|(n, _)| n).collect();
        assert!(!names.iter().any(|n| n.contains("common")), "include files are not tasks: {names:?}");
        let e = resolve("dzen_xx", &dir).unwrap_err();
        assert!(e.message().contains("no built-in task of that name") && e.message().contains("dzen_en"), "{e}");
    }
}
