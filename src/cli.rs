//! The `lingualens` command line. Each subcommand is a thin shell over the library: it parses
//! arguments, calls the engine, and prints. Nothing here computes anything the browser can't.

use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use crate::backend::{BackendInfo, ComputeDevice};
use crate::formats::gguf::GgufFile;
use crate::formats::model_info::ModelInfo;
use crate::formats::source::FileSource;
use crate::selftest::{self, SelfTestReport};

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
    /// Describe a model file: architecture, hyperparameters, tensor types, parameters, bytes.
    ModelInfo {
        /// A GGUF file.
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
    println!("selftest {verdict}  backend={}  {}", report.backend.backend.name(), describe(&report.backend));
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
    let info = FileSource::open(path).and_then(|source| {
        let file = pollster::block_on(GgufFile::read(&source))?;
        Ok(ModelInfo::from_gguf(&file))
    });
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
