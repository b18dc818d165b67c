//! The shipped experiments (`datasets/experiments/*.yaml`) as one JSON file in `OUT_DIR`, which
//! `tasks::experiment::builtin` reads: the page offers them in its Experiment menu without linking a
//! YAML parser (serde_yaml_ng made its wasm 85 KB larger, gzipped). The CLI reads the YAML files;
//! `tests/integration/builtin_tasks.rs` checks that both read the same experiments.

use std::path::Path;

fn main() {
    let dir = Path::new("datasets/experiments");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("datasets/experiments")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    let mut experiments = Vec::new();
    for path in files {
        println!("cargo:rerun-if-changed={}", path.display());
        let text = std::fs::read_to_string(&path).expect("an experiment file");
        let value: serde_json::Value =
            serde_yaml_ng::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        experiments.push(value);
    }
    let out = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("experiments.json");
    std::fs::write(&out, serde_json::to_string(&experiments).expect("JSON")).expect("write experiments.json");
}
