//! `lingualens tokenize`, `score`, `logits` and `model-info` as a user runs them, on the fixture models of
//! `tools/fixtures/models.py`, against the transformers references written beside them.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

use crate::common;

/// The text `tools/fixtures/models.py` tokenizes as its "text" sequence.
const SEQ_TEXT: &str = "The quick brown fox jumps over the lazy dog. 12345 café, naïve 日本!";

/// `$LINGUALENS_FIXTURES/models`.
fn fixtures() -> Option<PathBuf> {
    common::fixture("cli_model", "models/index.json", "tools/fixtures/models.py")
        .map(|f| f.parent().unwrap().to_path_buf())
}

fn run(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_lingualens")).args(args).output().expect("run lingualens");
    assert!(out.status.success(), "lingualens {args:?}:\n{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn json_file(path: PathBuf) -> Value {
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))).unwrap()
}

#[test]
fn tokenize_matches_the_reference_tokenizer_for_folder_and_gguf() {
    let Some(dir) = fixtures() else { return };
    let expected = json_file(dir.join("index.json"))["sequences"]["text"].clone();
    let folder = dir.join("qwen2");
    let gguf = dir.join("qwen2/gguf/qwen2-Q4_0.gguf");
    for model in [folder, gguf] {
        let ids: Value =
            serde_json::from_str(&run(&["tokenize", "--model", model.to_str().unwrap(), "--text", SEQ_TEXT])).unwrap();
        assert_eq!(ids, expected, "{}", model.display());
    }
}

#[test]
fn score_gives_lm_eval_log_likelihoods_on_both_backends() {
    let Some(dir) = fixtures() else { return };
    let reference = json_file(dir.join("llama3_tied/ref/ref.json"));
    let item = reference["mc_tricky"][0].as_array().unwrap(); // "The year was 19" + "84", "99", …
    let context = item[0]["request_context"].as_str().unwrap();
    let mut args = vec!["score", "--model", "", "--context", context];
    for r in item {
        args.extend(["--choice", r["request_continuation"].as_str().unwrap()]);
    }
    let model = dir.join("llama3_tied");
    args[2] = model.to_str().unwrap();
    let mut by_backend = Vec::new();
    for backend in ["cpu", "wgpu"] {
        let mut a = args.clone();
        a.extend(["--backend", backend]);
        let out: Value = serde_json::from_str(&run(&a)).unwrap();
        assert_eq!(out["backend"], backend);
        let choices = out["choices"].as_array().unwrap();
        for (ours, theirs) in choices.iter().zip(item) {
            let d = (ours["loglikelihood"].as_f64().unwrap() - theirs["loglikelihood"].as_f64().unwrap()).abs();
            assert!(d < 1e-4, "{backend}: {ours} vs {theirs}");
            assert_eq!(ours["is_greedy"], theirs["is_greedy"]);
        }
        by_backend.push(choices.iter().map(|c| c["loglikelihood"].as_f64().unwrap()).collect::<Vec<_>>());
    }
    for (cpu, gpu) in by_backend[0].iter().zip(&by_backend[1]) {
        assert!((cpu - gpu).abs() < 1e-3, "cpu {cpu} vs wgpu {gpu}");
    }
}

#[test]
fn logits_writes_an_npy_file_equal_to_transformers() {
    let Some(dir) = fixtures() else { return };
    let out = std::env::temp_dir().join(format!("lingualens-logits-{}.npy", std::process::id()));
    run(&[
        "logits",
        "--model",
        dir.join("gemma3").to_str().unwrap(),
        "--text",
        SEQ_TEXT,
        "--out",
        out.to_str().unwrap(),
    ]);
    let ours = std::fs::read(&out).unwrap();
    let theirs = std::fs::read(dir.join("gemma3/ref/text.f32.npy")).unwrap();
    let _ = std::fs::remove_file(&out);
    let floats = |b: &[u8]| {
        let header = u16::from_le_bytes([b[8], b[9]]) as usize;
        b[10 + header..].chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect::<Vec<_>>()
    };
    let (a, b) = (floats(&ours), floats(&theirs));
    assert_eq!(a.len(), b.len());
    let d = a.iter().zip(&b).map(|(x, y)| (x - y).abs()).fold(0f32, f32::max);
    assert!(d < 1e-3, "max |Δ| {d}");
    // numpy's own header for the same shape, byte for byte.
    let header_len = u16::from_le_bytes([theirs[8], theirs[9]]) as usize;
    assert_eq!(ours[..10 + header_len], theirs[..10 + header_len]);
}

/// The floats of a numpy 1.0 .npy file.
fn npy_floats(b: &[u8]) -> Vec<f32> {
    let header = u16::from_le_bytes([b[8], b[9]]) as usize;
    b[10 + header..].chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

#[test]
fn logits_of_a_sharded_folder_equal_transformers() {
    let Some(dir) = fixtures() else { return };
    let out = std::env::temp_dir().join(format!("lingualens-sharded-logits-{}.npy", std::process::id()));
    let folder = dir.join("llama3_untied/sharded");
    run(&["logits", "--model", folder.to_str().unwrap(), "--text", SEQ_TEXT, "--out", out.to_str().unwrap()]);
    let ours = npy_floats(&std::fs::read(&out).unwrap());
    let _ = std::fs::remove_file(&out);
    let theirs = npy_floats(&std::fs::read(dir.join("llama3_untied/ref/text.f32.npy")).unwrap());
    assert_eq!(ours.len(), theirs.len());
    let d = ours.iter().zip(&theirs).map(|(x, y)| (x - y).abs()).fold(0f32, f32::max);
    assert!(d < 1e-3, "max |Δ| {d}");
}

#[test]
fn model_info_describes_a_hf_folder_one_file_or_sharded() {
    let Some(dir) = fixtures() else { return };
    let info = |folder: &PathBuf| -> Value {
        serde_json::from_str(&run(&["model-info", "--json", folder.to_str().unwrap()])).unwrap()
    };
    let (single, sharded) = (info(&dir.join("qwen3")), info(&dir.join("qwen3/sharded")));
    assert_eq!(single["format"], "safetensors");
    assert_eq!(sharded["format"], "safetensors, 4 shards");
    // What transformers counted when it made the model (tied: lm_head is the embedding, stored once),
    // and what save_pretrained wrote in the index.
    let index = json_file(dir.join("qwen3/sharded/model.safetensors.index.json"));
    let parameters = &json_file(dir.join("index.json"))["models"]["qwen3"]["parameters"];
    for info in [&single, &sharded] {
        assert_eq!(info["architecture"], "qwen3");
        assert_eq!(info["name"], "Qwen3ForCausalLM");
        assert_eq!(info["hyperparameters"]["hidden_size"], 128);
        assert_eq!(info["hyperparameters"]["tie_word_embeddings"], true);
        assert_eq!(info["tokenizer"], "bpe");
        assert_eq!(info["vocab_size"], 512);
        assert_eq!(&info["parameters"], parameters);
        assert_eq!(info["parameters"], index["metadata"]["total_parameters"]);
        assert_eq!(info["tensor_bytes"], index["metadata"]["total_size"]);
        assert_eq!(info["tensor_types"]["F32"]["parameters"], info["parameters"]);
        assert_eq!(info["unsupported_tensors"], serde_json::json!([]));
    }
    let shard_bytes: u64 = std::fs::read_dir(dir.join("qwen3/sharded"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "safetensors"))
        .map(|p| std::fs::metadata(p).unwrap().len())
        .sum();
    assert_eq!(sharded["file_bytes"], shard_bytes);
    let text = run(&["model-info", dir.join("qwen3/sharded").to_str().unwrap()]);
    assert!(
        text.contains("architecture  qwen3  (Qwen3ForCausalLM)") && text.contains("safetensors, 4 shards"),
        "{text}"
    );
}

#[test]
fn a_malformed_model_file_gets_a_message_naming_it() {
    let path = std::env::temp_dir().join(format!("lingualens-bad-{}.gguf", std::process::id()));
    let mut bytes = b"GGUF".to_vec();
    bytes.extend(3u32.to_le_bytes());
    bytes.extend([0xff; 16]);
    std::fs::write(&path, &bytes).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_lingualens"))
        .args(["score", "--model", path.to_str().unwrap(), "--context", "a", "--choice", "b"])
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&path);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("lingualens-bad-") && stderr.contains("tensor count"), "{stderr}");
}

/// `lingualens bench` beside llama.cpp on the demo model: every column is printed for both sides
/// (prompt tok/s, MC items/s, greedy decode tok/s, with ratios), and both checks (the largest
/// log-likelihood difference, and how many of the 64 greedy tokens agree). Figures only: nothing
/// here asserts a speed.
#[test]
fn bench_prints_prompt_choice_and_decode_figures_beside_llama_cpp() {
    const TEST: &str = "cli_model::bench_prints_prompt_choice_and_decode_figures_beside_llama_cpp";
    let python = std::env::var("LINGUALENS_PYTHON").unwrap_or_else(|_| "python3".into());
    let has_peer = Command::new(&python).args(["-c", "import llama_cpp"]).output().is_ok_and(|o| o.status.success());
    if !has_peer {
        common::skip(TEST, &format!("{python} has no llama-cpp-python (scripts/test.sh's reference venv does)"));
        return;
    }
    let model = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("models/demo/lingualens-demo-Q8_0.gguf");
    let out = run(&[
        "bench",
        "--model",
        model.to_str().unwrap(),
        "--backend",
        "cpu-int8",
        "--peer-python",
        &python,
        "--prompt",
        "32",
        "--context",
        "24",
        "--items",
        "2",
        "--runs",
        "1",
    ]);
    let row = |name: &str| -> Vec<f64> {
        let line =
            out.lines().find(|l| l.trim_start().starts_with(name)).unwrap_or_else(|| panic!("no {name} row:\n{out}"));
        line.split_whitespace().skip(1).take(6).map(|x| x.trim_end_matches('×').parse().unwrap_or(f64::NAN)).collect()
    };
    assert!(out.contains("decode tok/s"), "{out}");
    for name in ["llama.cpp", "cpu-int8"] {
        let figures = row(name);
        assert_eq!(figures.len(), 6, "{name}: {figures:?}\n{out}");
        for i in [0, 2, 4] {
            assert!(figures[i] > 0.0 && figures[i].is_finite(), "{name}: {figures:?}\n{out}");
        }
    }
    let check = out.lines().find(|l| l.contains("check: greedy decode, cpu-int8's first")).expect("the decode check");
    let agreed: usize = check.split("first ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(agreed <= 64, "{check}");
    assert!(out.contains("check: max |Δ log-likelihood| cpu-int8 vs llama.cpp"), "{out}");
}
