//! KyrgyzLLM-Bench's prompts as lingualens reads them from the authors' code (`src/tasks/kyrgyzllm.rs`)
//! against what `datasets/tasks/kyrgyzllm/make_prompts.py` writes from the shared PROMPTS.md, which
//! transcribes that code: on stand-ins of the code's shape that `tools/fixtures/kyrgyz_code_standin.py`
//! writes from PROMPTS.md (the real files are on GitHub, which tests cannot reach), and on the real
//! files where `LINGUALENS_KYRGYZ_CODE` names a folder that holds them (their sha256 checked against
//! the catalogue's first).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use lingualens::tasks::kyrgyzllm;
use serde_yaml_ng::Mapping;
use sha2::{Digest, Sha256};

use crate::common;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn parse(label: &str, text: &str) -> Mapping {
    serde_yaml_ng::from_str(text).unwrap_or_else(|e| panic!("{label}: {e}\n{text}"))
}

/// The include files make_prompts.py wrote from PROMPTS.md, by name.
fn transcribed(test: &str) -> Option<BTreeMap<String, Mapping>> {
    if !crate::builtin_tasks::prompts(test) {
        return None;
    }
    let dir = repo().join("datasets/tasks/kyrgyzllm/prompts");
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        out.insert(name.clone(), parse(&name, &std::fs::read_to_string(&path).unwrap()));
    }
    Some(out)
}

/// What lingualens reads from the code files in `dir`, by include name.
fn read_from_code(dir: &Path) -> BTreeMap<String, Mapping> {
    let mut out = BTreeMap::new();
    for file in [kyrgyzllm::LM_EVAL_CLASSES, kyrgyzllm::LIGHTEVAL_TASKS] {
        let source = std::fs::read_to_string(dir.join(file)).unwrap();
        let includes = kyrgyzllm::includes(file, &source).unwrap_or_else(|e| panic!("{file}: {e}"));
        for include in includes {
            assert!(include.text.starts_with("# Read by lingualens from"), "{}", include.text);
            out.insert(include.name.clone(), parse(&include.name, &include.text));
        }
    }
    out
}

fn assert_same(test: &str, read: &BTreeMap<String, Mapping>, transcribed: &BTreeMap<String, Mapping>) {
    assert_eq!(
        read.keys().collect::<Vec<_>>(),
        transcribed.keys().collect::<Vec<_>>(),
        "{test}: the include files (WinoGrande-kg has no prompt text, so none)"
    );
    for (name, fields) in read {
        assert_eq!(fields, &transcribed[name], "{test}: {name}");
    }
}

#[test]
fn the_prompts_read_from_code_of_the_authors_shape_equal_the_transcription() {
    let test = "kyrgyz_prompts::code_of_the_authors_shape";
    let Some(transcribed) = transcribed(test) else { return };
    let Some(prompts_md) = common::shared(test, "datasets/kyrgyzllm-bench-configs/PROMPTS.md") else { return };
    let tmp = common::TempDir::new("kyrgyz-code");
    let status = Command::new("python3")
        .arg(repo().join("tools/fixtures/kyrgyz_code_standin.py"))
        .arg(&prompts_md)
        .arg(&tmp.path)
        .status()
        .expect("run python3");
    assert!(status.success(), "kyrgyz_code_standin.py failed");
    let read = read_from_code(&tmp.path.join("kyrgyz-code"));
    assert_eq!(read.len(), 5, "{test}: {read:?}");
    assert_same(test, &read, &transcribed);
}

#[test]
fn the_authors_files_at_the_catalogues_commits_give_the_transcribed_prompts() {
    let test = "kyrgyz_prompts::the_authors_files";
    let Some(dir) = std::env::var_os("LINGUALENS_KYRGYZ_CODE").map(PathBuf::from) else {
        // Not `common::skip`: CI cannot reach GitHub, so it never has these files, and must not fail for it.
        eprintln!(
            "SKIPPED {test}: LINGUALENS_KYRGYZ_CODE names no folder with kyrgyz_tasks.py and kyrgyz_eval.py at the catalogue's commits"
        );
        return;
    };
    let Some(transcribed) = transcribed(test) else { return };
    let catalog = lingualens::catalog::benchmark_catalog().unwrap();
    let mut checked = 0;
    for b in &catalog.benchmarks {
        for code in &b.prompt_code {
            let name = lingualens::catalog::file_name_of(&code.url);
            let bytes = std::fs::read(dir.join(&name)).unwrap_or_else(|e| panic!("{test}: {name}: {e}"));
            let sha: String = Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect();
            assert_eq!(Some(sha.as_str()), code.sha256.as_deref(), "{test}: {name} is not the file {} names", code.url);
            assert_eq!(Some(bytes.len() as u64), code.size_bytes, "{test}: {name}");
            checked += 1;
        }
    }
    assert_eq!(checked, 5, "{test}: five benchmarks read their prompt from code");
    assert_same(test, &read_from_code(&dir), &transcribed);
    eprintln!("{test}: the authors' files at the catalogue's commits give the transcribed prompts");
}
