//! Browser entry point for the Web Worker that owns the device and runs all model work.
//! trunk builds it for wasm32; see `lingualens::web::worker`.

#[cfg(target_arch = "wasm32")]
fn main() {
    lingualens::web::worker::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("lingualens-worker runs inside the browser page: serve it with `scripts/serve.sh` (see README.md)");
    std::process::exit(2);
}
