//! The threaded worker of `worker_threads.rs` with the int8 matmul's relaxed-SIMD kernel, as
//! `worker_relaxed.rs` is to `worker.rs`: the page starts it where the page is cross-origin
//! isolated and the browser validates a relaxed-SIMD instruction. The kernel is chosen in shared
//! memory, so the helper threads use it too.

#[cfg(all(target_arch = "wasm32", target_feature = "atomics"))]
fn main() {
    // `()`: the kernel is generic so that it is compiled here, not into the library both link.
    lingualens::quant::use_relaxed_simd_kernel::<()>();
    // wasm-bindgen runs `main` in the first instance only, not in the helpers'.
    lingualens::web::worker::start_threads("./lingualens-worker-threads-relaxed.js");
    lingualens::web::worker::start();
}

/// A helper thread's entry point (`www/lingualens-thread.js`): it joins the pool for good.
#[cfg(all(target_arch = "wasm32", target_feature = "atomics"))]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn lingualens_thread() {
    lingualens::parallel::serve()
}

#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
fn main() {
    lingualens::quant::use_relaxed_simd_kernel::<()>();
    lingualens::web::worker::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "lingualens-worker-threads-relaxed runs inside the browser page: serve it with `scripts/serve.sh` (see README.md)"
    );
    std::process::exit(2);
}
