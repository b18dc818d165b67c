//! The `lingualens` command line. Each subcommand is a thin shell over the library: it parses
//! arguments, calls the engine, and prints. Nothing here computes anything the browser can't.

use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use crate::backend::{BackendInfo, ComputeDevice};
use crate::formats::gguf::GgufFile;
use crate::formats::model_info::ModelInfo;
use crate::formats::source::FileSource;
use crate::selftest::{self, SelfTestReport};

pub mod bench;
mod benchmark_data;
mod compare;
mod eval_command;
pub mod fetch;
mod hub_data;
mod kit;
mod suite;

#[derive(Parser)]
#[command(name = "lingualens", version, about = "Evaluate small language models on low-resource-language benchmarks")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check that a backend computes correctly: a matmul and a softmax against f64 loops.
    Selftest {
        /// Which backend(s) to check.
        #[arg(long, value_enum, default_value_t = SelftestBackend::All)]
        backend: SelftestBackend,
        /// Print the reports as JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Inspect benchmark data files.
    Data {
        #[command(subcommand)]
        command: DataCommand,
    },
    /// Print the token ids of TEXT as a JSON array (with the BOS the tokenizer adds by default).
    Tokenize {
        #[arg(long)]
        model: std::path::PathBuf,
        #[arg(long)]
        text: String,
    },
    /// Log-likelihood and is_greedy of each choice after the context, by lm-evaluation-harness's rule (JSON).
    Score {
        #[arg(long)]
        model: std::path::PathBuf,
        #[arg(long)]
        context: String,
        /// A continuation to score; repeat for each choice.
        #[arg(long = "choice", required = true)]
        choices: Vec<String>,
        #[arg(long, value_enum, default_value_t = BackendArg::Cpu)]
        backend: BackendArg,
    },
    /// Write the logits of every position of TEXT to a .npy file ([tokens, vocab], float32).
    Logits {
        #[arg(long)]
        model: std::path::PathBuf,
        #[arg(long)]
        text: String,
        #[arg(long)]
        out: std::path::PathBuf,
        #[arg(long, value_enum, default_value_t = BackendArg::Cpu)]
        backend: BackendArg,
    },
    /// Run a task (lm-eval YAML: multiple choice or generate_until) over its data; write lm-eval's
    /// results JSON and samples JSONL and a CSV to --out, and print a summary. A rerun with the
    /// same --out resumes.
    Eval {
        #[arg(long)]
        model: std::path::PathBuf,
        /// A task YAML file, or the name of a built-in task under datasets/tasks (e.g. dzen_dz).
        #[arg(long)]
        task: String,
        /// Data of the evaluated split: CSV/JSON/JSONL/Parquet files, or for lingualens items the
        /// loader's files (DZEN: the folder holding DZEN/ and DZEN-Few_Shots/). Repeatable.
        #[arg(long)]
        data: Vec<std::path::PathBuf>,
        /// Few-shot examples: data files whose documents are the pool examples are drawn from,
        /// instead of the task's few-shot split (needed where that split's file is not at hand,
        /// e.g. a Hub task's `train` split). Repeatable.
        #[arg(long = "fewshot-data")]
        fewshot_data: Vec<std::path::PathBuf>,
        /// Generation settings, as lm-eval's --gen_kwargs: `max_gen_toks=64,until=['\n']` (one or
        /// more key=value arguments, or a JSON object); merged into the task's generation_kwargs.
        #[arg(long = "gen_kwargs", num_args = 1..)]
        gen_kwargs: Vec<String>,
        /// Replace a task field with a Jinja template: FIELD=TEMPLATE (repeatable).
        #[arg(long = "override")]
        overrides: Vec<String>,
        /// A sidecar YAML whose keys replace the task's fields.
        #[arg(long)]
        override_file: Option<std::path::PathBuf>,
        /// Score a seeded random sample of N documents (Python's `random.Random(--sample-seed).sample`,
        /// kept in the split's order) instead of all of them; before --limit.
        #[arg(long)]
        sample: Option<usize>,
        #[arg(long = "sample-seed", default_value_t = 1234, requires = "sample")]
        sample_seed: u64,
        #[arg(long)]
        limit: Option<usize>,
        #[arg(long)]
        shots: Option<usize>,
        /// Seed of the few-shot sampler and of choice shuffles.
        #[arg(long, default_value_t = 1234)]
        seed: u64,
        /// Order of each item's options: given, shuffle:N, gold-first, gold-last or rotations.
        #[arg(long, default_value = "given")]
        order: String,
        /// A document field to break results down by (repeatable; default: language and metadata).
        #[arg(long)]
        by: Vec<String>,
        #[arg(long, value_enum, default_value_t = BackendArg::Cpu)]
        backend: BackendArg,
        #[arg(long)]
        out: std::path::PathBuf,
        /// Never download: a built-in task given no --data reads its benchmark's files only from
        /// what an earlier run kept in ~/.cache/lingualens/data (else it says what is missing).
        #[arg(long)]
        offline: bool,
    },
    /// Put models and benchmarks inside a built site (a classroom kit): each --with-model (an id of
    /// models/catalog.json, fetched, or a GGUF file) and --with-benchmark (an id of
    /// datasets/catalog.json, fetched and unpacked) goes under SITE/kit/, sha256 checked, listed
    /// in SITE/kit.json. scripts/build-site.sh runs it. Sources honour LINGUALENS_MIRROR and HF_ENDPOINT.
    Kit {
        /// The built site (trunk's dist/, or scripts/build-site.sh --out).
        #[arg(long)]
        site: std::path::PathBuf,
        #[arg(long = "with-model")]
        models: Vec<String>,
        #[arg(long = "with-benchmark")]
        benchmarks: Vec<String>,
    },
    /// Speed, not correctness: prompt-processing tokens/s, multiple-choice items/s (4 choices
    /// after a ~200-token context) and greedy decode tokens/s (64 tokens after the prompt) of each
    /// --model on each --backend, and llama.cpp's on the same
    /// file in the same run with the ratio ours / llama.cpp's. llama.cpp runs through
    /// llama-cpp-python in --peer-python (e.g. $LINGUALENS_CACHE/venv/bin/python); without it only
    /// our figures are printed. A ~100M-parameter random Llama to time: tools/bench/make_bench_model.py.
    Bench {
        /// A GGUF file (repeatable).
        #[arg(long = "model", required = true)]
        models: Vec<std::path::PathBuf>,
        /// Backends to time (repeatable).
        #[arg(long = "backend", value_enum, default_values_t = [BackendArg::Cpu, BackendArg::CpuInt8, BackendArg::Wgpu])]
        backends: Vec<BackendArg>,
        /// A Python with llama-cpp-python installed: runs llama.cpp on the same workload.
        #[arg(long)]
        peer_python: Option<std::path::PathBuf>,
        /// llama.cpp's thread count (default: every core, as our CPU backend uses).
        #[arg(long)]
        threads: Option<usize>,
        /// Prompt-processing length in tokens.
        #[arg(long, default_value_t = 256)]
        prompt: usize,
        /// Multiple-choice context length in tokens (at least).
        #[arg(long, default_value_t = 200)]
        context: usize,
        /// Multiple-choice items per pass.
        #[arg(long, default_value_t = 8)]
        items: usize,
        /// Timed runs (passes) per figure; the median is printed.
        #[arg(long, default_value_t = 5)]
        runs: usize,
    },
    /// Write a task as a folder stock lm-evaluation-harness runs (`lm-eval run --tasks NAME
    /// --include_path OUT`): NAME.yaml with `dataset_path: json`, and its documents as JSONL, for a
    /// task whose documents come through a lingualens loader (DZEN, KyrgyzMMLU, …) or any other.
    /// With --experiment, an experiment's runs as an lm-eval group.
    ExportTask {
        /// A task YAML file, or the name of a built-in task (e.g. dzen_en).
        #[arg(required_unless_present = "experiment")]
        task: Option<String>,
        /// Instead of a task: an experiment (a built-in name such as dzen_language_gap, or a
        /// file) as an lm-eval group: every task it runs, a task per run, and the group file.
        #[arg(long, conflicts_with_all = ["task", "overrides", "override_file"])]
        experiment: Option<String>,
        /// The task's data, as for `eval` (DZEN: the folder holding DZEN/ and DZEN-Few_Shots/).
        #[arg(long)]
        data: Vec<std::path::PathBuf>,
        /// Replace a task field with a Jinja template: FIELD=TEMPLATE (repeatable).
        #[arg(long = "override")]
        overrides: Vec<String>,
        /// A sidecar YAML whose keys replace the task's fields.
        #[arg(long)]
        override_file: Option<std::path::PathBuf>,
        #[arg(long)]
        out: std::path::PathBuf,
        /// The folder the YAML's data_files point into, where the folder will be when lm-eval runs
        /// (lm-eval reads relative paths from its working directory); default: --out, absolute.
        #[arg(long)]
        data_root: Option<String>,
        /// Never download (as for `eval`).
        #[arg(long)]
        offline: bool,
    },
    /// Two runs of the same items compared item by item: the difference in accuracy with its 95 %
    /// interval and the exact McNemar test on the items that flipped (DZEN English against
    /// Dzongkha, one choice order against another, two models). A run is its samples_TASK.jsonl
    /// or the --out folder holding it; items are matched by doc_id.
    Compare {
        /// The first run (A).
        a: std::path::PathBuf,
        /// The second run (B); the difference is B − A.
        b: std::path::PathBuf,
        /// The per-item metric compared, 0 or 1 per sample.
        #[arg(long, default_value = "acc")]
        metric: String,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Run an experiment whole (datasets/experiments/NAME.yaml, or a file): each of its runs is an
    /// `eval` into OUT/<run>/ (OUT/<model>/<run>/ for several models; resumable), then the table:
    /// each run's accuracy with its 95 % interval, each comparison's paired difference and exact
    /// McNemar test, each swing, as OUT/suite_NAME.md, .json and .svg.
    Suite {
        /// A built-in experiment's name (e.g. dzen_language_gap) or an experiment file.
        experiment: String,
        /// A model file (repeatable: a table of models × runs).
        #[arg(long = "model", required = true)]
        models: Vec<std::path::PathBuf>,
        /// Data for every run, as eval's --data (repeatable).
        #[arg(long)]
        data: Vec<std::path::PathBuf>,
        /// Every run scores the same seeded random sample of N documents (as eval's --sample).
        #[arg(long)]
        sample: Option<usize>,
        /// The sample's seed (as eval's --sample-seed; each run's own few-shot and shuffle seeds
        /// come from the experiment).
        #[arg(long, default_value_t = 1234, requires = "sample")]
        seed: u64,
        #[arg(long)]
        limit: Option<usize>,
        #[arg(long, value_enum, default_value_t = BackendArg::Cpu)]
        backend: BackendArg,
        #[arg(long)]
        out: std::path::PathBuf,
        /// Never download (as eval's --offline).
        #[arg(long)]
        offline: bool,
    },
    /// Describe a model file: architecture, hyperparameters, tensor types, parameters, bytes.
    ModelInfo {
        /// A GGUF file or a Hugging Face folder (one model.safetensors or sharded).
        path: std::path::PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Subcommand)]
enum DataCommand {
    /// Items found per file and per metadata value, and every anomaly with file:row and reason (JSON).
    Check {
        /// Data files or folders (DZEN CSVs; CSV/JSON/JSONL/Parquet tables).
        #[arg(required = true)]
        paths: Vec<std::path::PathBuf>,
    },
}

#[derive(Clone, Copy, PartialEq, ValueEnum)]
enum BackendArg {
    Cpu,
    /// The CPU with activations quantized to 8 bits before each quantized matmul, as llama.cpp
    /// does: faster, not exact (every quantized type; F32/F16/BF16 weights stay f32).
    CpuInt8,
    Wgpu,
}

impl BackendArg {
    /// The name as given on the command line.
    fn label(self) -> String {
        self.to_possible_value().map_or_else(String::new, |v| v.get_name().to_string())
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum SelftestBackend {
    Cpu,
    Wgpu,
    All,
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Selftest { backend, json } => selftest_command(backend, json),
        Command::ModelInfo { path, json } => model_info_command(&path, json),
        Command::Suite { experiment, models, data, sample, seed, limit, backend, out, offline } => report((|| {
            let sample = sample.map(|size| crate::eval::Sample { size, seed });
            let args = suite::SuiteArgs { experiment, models, data, sample, limit, out, offline };
            suite::run(&args, &device(backend)?)
        })()),
        Command::Compare { a, b, metric, json } => report(compare::run(&compare::CompareArgs { a, b, metric, json })),
        Command::ExportTask { task, experiment, data, overrides, override_file, out, data_root, offline } => {
            report(eval_command::export(&eval_command::ExportArgs {
                task,
                experiment,
                data,
                overrides,
                override_file,
                out,
                data_root,
                offline,
            }))
        }
        Command::Eval {
            model,
            task,
            data,
            fewshot_data,
            gen_kwargs,
            overrides,
            override_file,
            sample,
            sample_seed,
            limit,
            shots,
            seed,
            order,
            by,
            backend,
            out,
            offline,
        } => report((|| {
            let order = order.parse().map_err(|e: crate::Error| e.context("--order"))?;
            let sample = sample.map(|size| crate::eval::Sample { size, seed: sample_seed });
            let options = crate::eval::RunOptions { sample, limit, shots, seed, order };
            let gen_kwargs = crate::tasks::yaml::parse_gen_kwargs(&gen_kwargs)?;
            let args = eval_command::EvalArgs {
                model,
                task,
                data,
                fewshot_data,
                gen_kwargs,
                overrides,
                override_file,
                options,
                by,
                out,
                offline,
            };
            eval_command::run(&args, &device(backend)?)
        })()),
        Command::Bench { models, backends, peer_python, threads, prompt, context, items, runs } => {
            let threads = threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |p| p.get()));
            let args = bench::BenchArgs {
                models,
                backends,
                peer_python,
                threads,
                prompt,
                context,
                items: items.max(1),
                runs: runs.max(1),
            };
            report(bench::run(&args))
        }
        Command::Kit { site, models, benchmarks } => report(kit::run(&kit::KitArgs { site, models, benchmarks })),
        Command::Tokenize { model, text } => report(tokenize_command(&model, &text)),
        Command::Score { model, context, choices, backend } => {
            report(score_command(&model, &context, &choices, backend))
        }
        Command::Logits { model, text, out, backend } => report(logits_command(&model, &text, &out, backend)),
        Command::Data { command: DataCommand::Check { paths } } => data_check_command(&paths),
    }
}

fn selftest_command(backend: SelftestBackend, json: bool) -> ExitCode {
    let mut devices: Vec<Result<ComputeDevice, String>> = Vec::new();
    if matches!(backend, SelftestBackend::Cpu | SelftestBackend::All) {
        devices.push(Ok(ComputeDevice::cpu()));
    }
    if matches!(backend, SelftestBackend::Wgpu | SelftestBackend::All) {
        devices.push(pollster::block_on(ComputeDevice::wgpu()));
    }

    let mut all_passed = true;
    let mut reports = Vec::new();
    for device in devices {
        let outcome = device.and_then(|d| pollster::block_on(selftest::run(&d)));
        match outcome {
            Ok(report) => {
                all_passed &= report.passed;
                if !json {
                    print_report(&report);
                }
                reports.push(serde_json::to_value(&report).unwrap_or_default());
            }
            Err(message) => {
                all_passed = false;
                if !json {
                    println!("selftest FAILED: {message}");
                }
                reports.push(serde_json::json!({ "passed": false, "error": message }));
            }
        }
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&reports).unwrap_or_default());
    }
    if all_passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn print_report(report: &SelfTestReport) {
    let verdict = if report.passed { "PASS" } else { "FAIL" };
    println!("selftest {verdict}  backend={}  {}", report.backend.label(), describe(&report.backend));
    for check in &report.checks {
        println!(
            "  {:<8} shape={:?}  max|Δ|={:.3e}  tolerance={:.0e}  {}",
            check.name,
            check.shape,
            check.max_abs_error,
            check.tolerance,
            if check.passed { "ok" } else { "WRONG" }
        );
    }
    println!("  {:.1} ms", report.elapsed_ms);
}

fn describe(info: &BackendInfo) -> String {
    let a = &info.adapter;
    let mut text = format!("api={} adapter={:?} type={}", a.api, a.name, a.device_type);
    if !a.driver.is_empty() {
        text += &format!(" driver={:?}", a.driver);
    }
    if let Some(limits) = info.limits {
        text += &format!(
            " maxStorageBufferBindingSize={} maxBufferSize={}",
            limits.max_storage_buffer_binding_size, limits.max_buffer_size
        );
    }
    text
}

fn model_info_command(path: &std::path::Path, json: bool) -> ExitCode {
    let info = if path.is_dir() {
        (|| {
            let config_path = path.join("config.json");
            use crate::formats::source::{limits, read_optional_text_capped, read_text_capped};
            let config = read_text_capped(&config_path, limits::TEXT_FILE, "config.json")?;
            let tokenizer =
                read_optional_text_capped(&path.join("tokenizer.json"), limits::TOKENIZER_FILE, "tokenizer.json")?;
            let weights = pollster::block_on(crate::formats::safetensors::SafetensorsShards::open_folder(path))?;
            ModelInfo::from_hf(&path.display().to_string(), &config, tokenizer.as_deref(), &weights)
        })()
    } else {
        FileSource::open(path).and_then(|source| {
            let file = pollster::block_on(GgufFile::read(&source))?;
            Ok(ModelInfo::from_gguf(&file))
        })
    };
    match info {
        Ok(info) if json => {
            println!("{}", serde_json::to_string_pretty(&info).unwrap_or_default());
            ExitCode::SUCCESS
        }
        Ok(info) => {
            print!("{info}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

fn data_check_command(paths: &[std::path::PathBuf]) -> ExitCode {
    match crate::tasks::check_files(paths) {
        Ok(report) => {
            println!("{}", serde_json::to_string_pretty(&report).unwrap_or_default());
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Prints an error for the person at the terminal and turns it into the exit status.
fn report(outcome: crate::Result<()>) -> ExitCode {
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

fn device(backend: BackendArg) -> crate::Result<ComputeDevice> {
    match backend {
        BackendArg::Cpu => Ok(ComputeDevice::cpu()),
        BackendArg::CpuInt8 => Ok(ComputeDevice::cpu_int8()),
        BackendArg::Wgpu => pollster::block_on(ComputeDevice::wgpu()).map_err(crate::Error::new),
    }
}

fn tokenize_command(model: &std::path::Path, text: &str) -> crate::Result<()> {
    // Only the tokenizer is needed, but loading it goes through the model's files either way.
    let tokenizer = if model.is_dir() {
        use crate::formats::source::{limits, read_optional_text_capped, read_text_capped};
        let json = read_text_capped(&model.join("tokenizer.json"), limits::TOKENIZER_FILE, "tokenizer.json")?;
        let config = read_optional_text_capped(
            &model.join("tokenizer_config.json"),
            limits::TEXT_FILE,
            "tokenizer_config.json",
        )?;
        crate::tokenizers::Tokenizer::from_hf_json(&json, config.as_deref())?
    } else {
        let file = pollster::block_on(GgufFile::read(&FileSource::open(model)?))?;
        crate::tokenizers::Tokenizer::from_gguf(&file)?
    };
    println!("{}", serde_json::to_string(&tokenizer.encode(text, true, true)).unwrap_or_default());
    Ok(())
}

fn score_command(model: &std::path::Path, context: &str, choices: &[String], backend: BackendArg) -> crate::Result<()> {
    let device = device(backend)?;
    let lm = pollster::block_on(crate::engine::load(model, &device))?;
    let scores = pollster::block_on(lm.log_likelihoods(context, choices))?;
    let out = serde_json::json!({ "backend": device.info.backend.name(), "context": context, "choices": scores });
    println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    Ok(())
}

fn logits_command(
    model: &std::path::Path,
    text: &str,
    out: &std::path::Path,
    backend: BackendArg,
) -> crate::Result<()> {
    let device = device(backend)?;
    let lm = pollster::block_on(crate::engine::load(model, &device))?;
    let tokens = lm.tokenizer.encode(text, true, true);
    let logits = pollster::block_on(lm.model.logits(&tokens))?;
    let npy = npy_f32(&logits, &[tokens.len(), logits.len() / tokens.len().max(1)]);
    std::fs::write(out, npy).map_err(|e| crate::Error::new(format!("{}: {e}", out.display())))?;
    eprintln!("{} tokens x {} logits -> {}", tokens.len(), logits.len() / tokens.len().max(1), out.display());
    Ok(())
}

/// A float32 array in numpy's .npy format 1.0.
fn npy_f32(values: &[f32], shape: &[usize]) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let shape_text = if dims.len() == 1 { format!("({},)", dims[0]) } else { format!("({})", dims.join(", ")) };
    let mut header = format!("{{'descr': '<f4', 'fortran_order': False, 'shape': {shape_text}, }}");
    // magic (6) + version (2) + length (2) + header + newline is padded to a multiple of 64.
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend((header.len() as u16).to_le_bytes());
    out.extend(header.as_bytes());
    for v in values {
        out.extend(v.to_le_bytes());
    }
    out
}
