//! A mutational fuzzer over `lingualens::fuzz`'s targets (one per parser of user input): seeds
//! (the demo model, llama.cpp's vocab GGUFs, small safetensors and tokenizer.json files written
//! here, DZEN's CSVs, the project's task files) are mutated — bits flipped, integers replaced by
//! boundary values, ranges cut, repeated, spliced from another seed — and every target must
//! return, never panic, within a time limit. Allocation aborts end the test process, which fails
//! the test too.
//!
//! The test command runs a short pass (`LINGUALENS_FUZZ_ITERATIONS`, default 3,000 per target);
//! `scripts/fuzz.sh` runs long ones. A failing input is written to
//! `$CARGO_TARGET_TMPDIR/fuzz-failures/` and named in the failure.

use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Once};
use std::time::{Duration, Instant};

use lingualens::fuzz::{Target, TARGETS};

use crate::common;

/// SplitMix64: a small, seedable generator (the run is reproducible from its seed).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// Values that break size arithmetic and bounds checks.
const BOUNDARY: &[u64] = &[
    0,
    1,
    2,
    3,
    7,
    8,
    31,
    32,
    63,
    64,
    255,
    256,
    4095,
    4096,
    65535,
    65536,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_ffff,
    0x1_0000_0000,
    0x7fff_ffff_ffff_ffff,
    0x8000_0000_0000_0000,
    u64::MAX,
    u64::MAX - 1,
];

fn mutate(rng: &mut Rng, seed: &[u8], other: &[u8]) -> Vec<u8> {
    let mut data = seed.to_vec();
    for _ in 0..1 + rng.below(4) {
        let len = data.len();
        match rng.below(9) {
            0 if len > 0 => {
                let i = rng.below(len);
                data[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = rng.below(len);
                data[i] = [0u8, 0xff, 0x7f, 0x80, b'"', b'{', b'[', b',', b'\n', b'\\'][rng.below(10)];
            }
            2 if len >= 8 => {
                // A little-endian integer of 4 or 8 bytes replaced by a boundary value.
                let width = if rng.below(2) == 0 { 4 } else { 8 };
                let i = rng.below(len - width + 1);
                let v = BOUNDARY[rng.below(BOUNDARY.len())].wrapping_add(rng.below(3) as u64).wrapping_sub(1);
                data[i..i + width].copy_from_slice(&v.to_le_bytes()[..width]);
            }
            3 if len > 0 => data.truncate(rng.below(len)),
            4 if len > 0 => {
                let (a, b) = (rng.below(len), rng.below(len));
                let (a, b) = (a.min(b), a.max(b));
                data.drain(a..b.min(a + 4096));
            }
            5 if len > 0 => {
                // A range repeated: long runs, nested structure.
                let a = rng.below(len);
                let n = 1 + rng.below(64.min(len - a));
                let piece = data[a..a + n].to_vec();
                for _ in 0..1 + rng.below(16) {
                    data.splice(a..a, piece.iter().copied());
                }
            }
            6 if !other.is_empty() => {
                // Splice: the head of this seed and the tail of another.
                let cut = rng.below(data.len() + 1);
                let from = rng.below(other.len());
                data.truncate(cut);
                data.extend_from_slice(&other[from..]);
            }
            7 => {
                let i = rng.below(len + 1);
                let n = 1 + rng.below(16);
                let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
                data.splice(i..i, bytes);
            }
            _ if len > 0 => {
                // A decimal number in text formats replaced by a boundary value.
                let i = rng.below(len);
                let text =
                    ["0", "-1", "4294967296", "18446744073709551615", "1e308", "NaN", "99999999999999999999", "-0"]
                        [rng.below(8)];
                data.splice(i..i, text.bytes());
            }
            _ => data.push(rng.next() as u8),
        }
    }
    data
}

fn read_if(path: &Path) -> Option<Vec<u8>> {
    std::fs::read(path).ok()
}

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A safetensors file: an 8-byte header length, the JSON header, the data.
fn safetensors(tensors: &[(&str, &str, &[usize], Vec<u8>)]) -> Vec<u8> {
    let mut header = serde_json::Map::new();
    let mut data = Vec::new();
    for (name, dtype, shape, bytes) in tensors {
        let start = data.len();
        data.extend_from_slice(bytes);
        header.insert(
            name.to_string(),
            serde_json::json!({"dtype": dtype, "shape": shape, "data_offsets": [start, data.len()]}),
        );
    }
    header.insert("__metadata__".into(), serde_json::json!({"format": "pt"}));
    let json = serde_json::to_vec(&header).unwrap();
    let mut out = (json.len() as u64).to_le_bytes().to_vec();
    out.extend(json);
    out.extend(data);
    out
}

fn seeds(target: &str) -> Vec<Vec<u8>> {
    let mut seeds: Vec<Vec<u8>> = Vec::new();
    match target {
        "gguf" => {
            seeds.extend(read_if(&repo().join("models/demo/lingualens-demo-Q8_0.gguf")));
            for name in ["ggml-vocab-bert-bge.gguf", "ggml-vocab-llama-spm.gguf", "ggml-vocab-phi-3.gguf"] {
                seeds.extend(read_if(&common::shared_root().join("datasets/llama-cpp-vocab/models").join(name)));
            }
        }
        "safetensors" => {
            let f32s: Vec<u8> = (0..12).flat_map(|i| (i as f32 * 0.5).to_le_bytes()).collect();
            let f16s: Vec<u8> = (0..6).flat_map(|i| half_bits(i as f32)).collect();
            seeds.push(safetensors(&[
                ("a", "F32", &[3, 4], f32s.clone()),
                ("b", "F16", &[2, 3], f16s.clone()),
                ("c", "BF16", &[3], vec![0x80, 0x3f, 0, 0x40, 0x40, 0x40]),
            ]));
            seeds.push(safetensors(&[("model.embed_tokens.weight", "F32", &[2, 6], f32s)]));
        }
        "tokenizer_json" => {
            let bpe = serde_json::json!({
                "added_tokens": [{"id": 5, "content": "<s>", "special": true, "single_word": false, "lstrip": false, "rstrip": false, "normalized": false}],
                "normalizer": {"type": "NFC"},
                "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
                    {"type": "Split", "pattern": {"Regex": "\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+|\\s+"}, "behavior": "Isolated", "invert": false},
                    {"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": false}]},
                "post_processor": {"type": "TemplateProcessing", "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}],
                    "pair": [], "special_tokens": {"<s>": {"id": "<s>", "ids": [5], "tokens": ["<s>"]}}},
                "decoder": {"type": "ByteLevel"},
                "model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2, "Ġ": 3, "Ġa": 4, "<s>": 5}, "merges": ["a b", "Ġ a"], "byte_fallback": false}
            });
            let wordpiece = serde_json::json!({
                "normalizer": {"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true, "strip_accents": null, "lowercase": true},
                "pre_tokenizer": {"type": "BertPreTokenizer"},
                "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##", "max_input_chars_per_word": 100,
                    "vocab": {"[UNK]": 0, "[CLS]": 1, "what": 2, "is": 3, "##s": 4, "7": 5}}
            });
            let unigram = serde_json::json!({
                "normalizer": {"type": "Sequence", "normalizers": [{"type": "Prepend", "prepend": "▁"}, {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}]},
                "decoder": {"type": "Sequence", "decoders": [{"type": "Replace", "pattern": {"String": "▁"}, "content": " "}, {"type": "ByteFallback"}, {"type": "Fuse"}]},
                "model": {"type": "BPE", "vocab": {"<unk>": 0, "▁": 1, "a": 2, "▁a": 3, "<0x41>": 4}, "merges": [["▁", "a"]], "byte_fallback": true, "unk_token": "<unk>"}
            });
            for t in [bpe, wordpiece, unigram] {
                seeds.push(serde_json::to_vec(&t).unwrap());
            }
            let mut with_config = seeds[0].clone();
            with_config.push(0);
            with_config.extend(br#"{"add_bos_token": true, "bos_token": "<s>", "eos_token": {"content": "</s>"}}"#);
            seeds.push(with_config);
        }
        "tables" => {
            seeds.push(
                b"id,question,A,B,C,D,answer\n1,\"What is 2+2?\",3,4,5,6,B\n2,\"multi\nline\",a,b,c,d,A\r\n".to_vec(),
            );
            seeds.push(
                b"[{\"question\": \"q\", \"choices\": [\"a\", \"b\"], \"answer\": 1}, {\"question\": null}]".to_vec(),
            );
            seeds.push(
                b"{\"question\": \"q\", \"choices\": [\"a\", \"b\"], \"label\": 0}\n{\"text\": \"\\u0f40\"}\n".to_vec(),
            );
            let dzen = common::shared_root().join("datasets/dzen/DZEN");
            if let Ok(entries) = std::fs::read_dir(&dzen) {
                let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
                paths.sort();
                for p in paths.iter().take(2) {
                    // The first rows: enough for every path through the parser, fast to mutate.
                    if let Some(bytes) = read_if(p) {
                        seeds.push(bytes[..bytes.len().min(6000)].to_vec());
                    }
                }
            }
            if let Some(dir) = std::env::var_os("LINGUALENS_FIXTURES") {
                for p in
                    walk(Path::new(&dir)).into_iter().filter(|p| p.extension().is_some_and(|e| e == "parquet")).take(2)
                {
                    seeds.extend(read_if(&p).filter(|b| b.len() < 200_000));
                }
            }
        }
        "task_yaml" => {
            let data = b"\0{\"question\": \"2 + 2?\", \"choices\": [\"3\", \"4\"], \"answer\": 1, \"label\": \"B\", \"id\": \"x/en\"}\n";
            for rel in [
                "datasets/tasks/demo/demo.yaml",
                "datasets/tasks/generic/multiple_choice.yaml",
                "datasets/tasks/kyrgyzllm/kyrgyz_mmlu.yaml",
            ] {
                if let Some(mut yaml) = read_if(&repo().join(rel)) {
                    yaml.extend_from_slice(data);
                    seeds.push(yaml);
                }
            }
            seeds.push(
                [
                    &b"task: t\noutput_type: multiple_choice\ndataset_path: json\ntest_split: test\nnum_fewshot: 2\n\
doc_to_text: \"{% for c in choices %}{{ loop.index }}. {{ c | upper }}\\n{% endfor %}{{ question }}\"\n\
doc_to_choice: \"{{ choices }}\"\ndoc_to_target: \"{{ answer }}\"\nfilter_list:\n  - name: x\n    filter:\n      - function: regex\n        regex_pattern: \"(\\\\d+)\"\n"[..],
                    data,
                ]
                .concat(),
            );
            seeds.push([&b"task: g\noutput_type: generate_until\ndoc_to_text: \"{{question}}\"\ndoc_to_target: \"{{label}}\"\ngeneration_kwargs:\n  until: [\"\\n\"]\n  max_gen_toks: 8\n"[..], data].concat());
        }
        _ => {}
    }
    seeds.retain(|s| !s.is_empty());
    seeds
}

fn half_bits(v: f32) -> [u8; 2] {
    // Enough of IEEE half for small whole numbers.
    if v == 0.0 {
        return [0, 0];
    }
    let bits = v.to_bits();
    let exp = ((bits >> 23) & 0xff) as i32 - 127 + 15;
    let mantissa = (bits >> 13) & 0x3ff;
    (((exp as u32) << 10 | mantissa) as u16).to_le_bytes()
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

struct Outcome {
    executions: u64,
    failures: Vec<String>,
}

/// Runs `target` on `iterations` mutations of its seeds (the seeds themselves first). A call that
/// does not return within `limit` ends the process with the input saved (a hang cannot be
/// interrupted from inside).
fn fuzz(target: &Target, iterations: u64, rng_seed: u64, limit: Duration) -> Outcome {
    let (name, run) = *target;
    let seeds = seeds(name);
    assert!(!seeds.is_empty(), "no seeds for {name}");
    let failures_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("fuzz-failures");
    std::fs::create_dir_all(&failures_dir).unwrap();
    let current: Arc<std::sync::Mutex<Vec<u8>>> = Arc::default();
    let progress = Arc::new(AtomicU64::new(0));
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watchdog = {
        let (current, progress, done, failures_dir) =
            (current.clone(), progress.clone(), done.clone(), failures_dir.clone());
        std::thread::spawn(move || {
            let (mut last, mut since) = (u64::MAX, Instant::now());
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                let now = progress.load(Ordering::Relaxed);
                if now != last {
                    (last, since) = (now, Instant::now());
                } else if since.elapsed() > limit {
                    let path = failures_dir.join(format!("{name}-seed{rng_seed}-hang.bin"));
                    std::fs::write(&path, &*current.lock().unwrap()).unwrap();
                    eprintln!("FUZZ HANG: {name} ran for more than {limit:?} on the input saved at {}", path.display());
                    std::process::exit(101);
                }
            }
        })
    };
    let mut rng = Rng(rng_seed ^ name.bytes().fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64)));
    let mut failures = Vec::new();
    let total = iterations + seeds.len() as u64;
    for i in 0..total {
        let input = if (i as usize) < seeds.len() {
            seeds[i as usize].clone()
        } else {
            let a = rng.below(seeds.len());
            let b = rng.below(seeds.len());
            mutate(&mut rng, &seeds[a], &seeds[b])
        };
        current.lock().unwrap().clone_from(&input);
        if let Err(panic) = catch_unwind(AssertUnwindSafe(|| run(&input))) {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            let path = failures_dir.join(format!("{name}-seed{rng_seed}-{}.bin", failures.len()));
            std::fs::write(&path, &input).unwrap();
            failures.push(format!("{name}: panicked ({message}) on the input saved at {}", path.display()));
        }
        progress.fetch_add(1, Ordering::Relaxed);
    }
    done.store(true, Ordering::Relaxed);
    watchdog.join().unwrap();
    Outcome { executions: total, failures }
}

thread_local! {
    static QUIET: Cell<bool> = const { Cell::new(false) };
}

/// The panic hook is the process's, and the other tests of this binary run beside the fuzzer on
/// threads of their own: the hook stays quiet only on a thread that asked, and prints elsewhere.
fn quiet_panics_on_this_thread(quiet: bool) {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let print = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(Cell::get) {
                print(info)
            }
        }));
    });
    QUIET.with(|q| q.set(quiet));
}

#[test]
fn every_parser_survives_mutated_input() {
    let iterations: u64 =
        std::env::var("LINGUALENS_FUZZ_ITERATIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(3_000);
    let rng_seed: u64 = std::env::var("LINGUALENS_FUZZ_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(1234);
    let only = std::env::var("LINGUALENS_FUZZ_TARGET").ok();
    // Panics are expected to be caught and reported here, not printed as they happen.
    quiet_panics_on_this_thread(true);
    let mut failures = Vec::new();
    for target in TARGETS.iter().filter(|(name, _)| only.as_deref().is_none_or(|o| o == *name)) {
        let started = Instant::now();
        let outcome = fuzz(target, iterations, rng_seed, Duration::from_secs(20));
        eprintln!(
            "fuzz {}: {} executions in {:.1} s, {} failures",
            target.0,
            outcome.executions,
            started.elapsed().as_secs_f64(),
            outcome.failures.len()
        );
        failures.extend(outcome.failures.into_iter().take(5));
    }
    quiet_panics_on_this_thread(false);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
