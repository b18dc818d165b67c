//! `lingualens::hub` against the `datasets` library itself: which files hold a config's split, on
//! repositories laid out as ProverbEval's, KyrgyzLLM-Bench's and `push_to_hub`'s are, and on the
//! default-pattern layouts. `tools/fixtures/hub_data_files.py` writes the repositories and asks
//! `datasets.load_dataset_builder` (the reference venv's, which lm-eval uses); this test lists the
//! same folders as the Hub's tree API would and asks `hub::split_files`.

use std::path::Path;

use lingualens::hub::{split_files, ListedFile};

use crate::common::{skip, TempDir};

/// Every file under `root`, relative, as the tree API lists a repository.
fn listing(root: &Path) -> Vec<ListedFile> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
                out.push(ListedFile { path: rel, size: Some(entry.metadata().unwrap().len()), sha256: None });
            }
        }
    }
    out
}

#[test]
fn a_configs_split_is_the_files_the_datasets_library_picks() {
    const TEST: &str = "hub_files::a_configs_split_is_the_files_the_datasets_library_picks";
    let python = std::env::var("LINGUALENS_PYTHON").unwrap_or_else(|_| "python3".into());
    let has_datasets = std::process::Command::new(&python)
        .args(["-c", "import datasets, pyarrow"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_datasets {
        skip(
            TEST,
            &format!("{python} has no `datasets` (scripts/test.sh's reference venv does; set LINGUALENS_PYTHON)"),
        );
        return;
    }
    let dir = TempDir::new("hub-files");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/fixtures/hub_data_files.py");
    let out = std::process::Command::new(&python)
        .arg(&script)
        .arg(&dir.path)
        .env("HF_DATASETS_OFFLINE", "1")
        .env("HF_HUB_OFFLINE", "1")
        .output()
        .expect("run the reference");
    assert!(out.status.success(), "{}: {}", script.display(), String::from_utf8_lossy(&out.stderr));
    let answers: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert!(answers.len() >= 20, "the reference answered {} questions", answers.len());
    let (mut found, mut refused) = (0, 0);
    for a in &answers {
        let case = a["case"].as_str().unwrap();
        let config = a["config"].as_str();
        let split = a["split"].as_str().unwrap();
        let root = dir.path.join(case);
        let readme = std::fs::read_to_string(root.join("README.md")).unwrap_or_default();
        let ours = split_files(case, &readme, &listing(&root), config, split);
        match a["files"].as_array() {
            Some(files) => {
                let want: Vec<&str> = files.iter().map(|f| f.as_str().unwrap()).collect();
                let got = ours
                    .unwrap_or_else(|e| panic!("{case} {config:?} {split}: datasets reads {want:?}; lingualens: {e}"));
                let got: Vec<&str> = got.iter().map(|f| f.path.as_str()).collect();
                assert_eq!(got, want, "{case} {config:?} {split}");
                found += 1;
            }
            None => {
                assert!(ours.is_err(), "{case} {config:?} {split}: datasets refuses it; lingualens reads {ours:?}");
                refused += 1;
            }
        }
    }
    // Both kinds of answer were compared.
    assert!(found >= 10 && refused >= 5, "{found} read, {refused} refused");
}
