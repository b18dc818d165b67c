//! Every integration test, in one test crate: one binary to compile and link instead of one per
//! file (29 binaries each linking the whole engine made the cold test compile most of an hour on
//! two cores). Each file below is a module; run one with its path as a filter:
//!
//! ```text
//! cargo test --release --test integration site::          # every test of tests/integration/site.rs
//! cargo test --release --test integration -- --exact hostile::every_command_survives_the_battery
//! ```
//!
//! One process runs them all, so a test must not change what the process shares (environment
//! variables, the panic hook, the current directory) under its neighbours' feet: a test that needs
//! its own environment runs itself in a child process (`common::run_alone`), and the fuzzer silences
//! only its own thread's panics.

mod common;

// The engine's numbers against independent references (transformers, llama.cpp, gguf, lm-eval,
// sacrebleu, HF tokenizers), on fixtures that tools/fixtures writes.
mod aggregates;
mod eval_parity;
mod generation_metrics;
mod generation_parity;
mod loglikelihood_parity;
mod model_parity;
mod paired;
mod quant_parity;
mod real_model;
mod split_parity;
mod tokenizer_parity;

// Tasks and datasets: loaders, task YAMLs, lm-eval's catalogue, the built-in tasks.
mod builtin_tasks;
mod datasets;
mod hub_files;
mod kyrgyz_prompts;
mod lm_eval_catalogue;
mod yaml_tasks;

// The command-line tool as a user runs it.
mod cli_data;
mod cli_eval;
mod cli_model;
mod cli_selftest;
mod export_task;

// Bad input: the hostile battery and the fuzzer.
mod fuzz;
mod hostile;

// The page in a real headless Chromium, the bundle, and the site as others host it.
mod app;
mod browser;
mod bundle;
mod classroom;
mod i18n;
mod site;

// The README's commands and the documents kept true.
mod docs;
mod setup_plan;
