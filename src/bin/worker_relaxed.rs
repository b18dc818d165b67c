//! The Web Worker of `worker.rs` with the int8 matmul's relaxed-SIMD kernel
//! (`lingualens::quant::use_relaxed_simd_kernel`; the only difference: the kernel is compiled into
//! this binary, not the library, so the other worker's wasm holds no relaxed instruction). The page starts this one
//! where the browser validates a relaxed-SIMD instruction (`lingualens::web::protocol::RELAXED_SIMD_PROBE`).

#[cfg(target_arch = "wasm32")]
fn main() {
    // `()`: the kernel is generic so that it is compiled here, not into the library both workers link.
    lingualens::quant::use_relaxed_simd_kernel::<()>();
    lingualens::web::worker::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "lingualens-worker-relaxed runs inside the browser page: serve it with `scripts/serve.sh` (see README.md)"
    );
    std::process::exit(2);
}
