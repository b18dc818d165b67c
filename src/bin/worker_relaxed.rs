//! The Web Worker of `worker.rs`, built with the `relaxed-simd` feature: the int8 matmul's
//! relaxed-SIMD kernel (`lingualens::quant`). The page starts this one where the browser validates
//! a relaxed-SIMD instruction (`lingualens::web::protocol::RELAXED_SIMD_PROBE`).

#[cfg(target_arch = "wasm32")]
fn main() {
    lingualens::web::worker::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "lingualens-worker-relaxed runs inside the browser page: serve it with `scripts/serve.sh` (see README.md)"
    );
    std::process::exit(2);
}
