//! The shipped experiments (`datasets/experiments/*.yaml`) as one JSON file in `OUT_DIR`, which
//! `tasks::experiment::builtin` reads: the page offers them in its Experiment menu without linking a
//! YAML parser (serde_yaml_ng made its wasm 85 KB larger, gzipped). The CLI reads the YAML files;
//! `tests/integration/builtin_tasks.rs` checks that both read the same experiments.
//!
//! Also the threaded worker's link flags (wasm32 with `+atomics` only): see `threaded_worker_links`.

use std::path::Path;

fn main() {
    threaded_worker_links();
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

/// The threaded workers (`src/bin/worker_threads*.rs`) need its memory shared, imported (so its helper
/// threads instantiate the module on the same memory) and able to grow to wasm32's 4 GiB, and the
/// TLS symbols wasm-bindgen's thread start-up calls exported. rustc no longer adds these for
/// `+atomics` (rust-lang/rust#147225); here they go to that binary's link only, so the
/// dependencies' fingerprints do not change with them.
fn threaded_worker_links() {
    let features = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() != Ok("wasm32") || !features.split(',').any(|f| f == "atomics")
    {
        return;
    }
    for flag in [
        "--shared-memory",
        "--import-memory",
        "--max-memory=4294967296",
        "--export=__wasm_init_tls",
        "--export=__tls_size",
        "--export=__tls_align",
        "--export=__tls_base",
    ] {
        for bin in ["lingualens-worker-threads", "lingualens-worker-threads-relaxed"] {
            println!("cargo:rustc-link-arg-bin={bin}={flag}");
        }
    }
}
