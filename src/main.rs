//! The `lingualens` command-line tool. All the work is in the library (`lingualens::cli`).

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    lingualens::cli::main()
}

// The command line is native only; in a browser the entry points are `lingualens-page` and
// `lingualens-worker`. This stub lets `cargo build --target wasm32-unknown-unknown` build all bins.
#[cfg(target_arch = "wasm32")]
fn main() {}
