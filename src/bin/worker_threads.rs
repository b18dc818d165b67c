//! The Web Worker of `worker.rs` built for wasm threads: one copy of the model in shared memory,
//! every split of a forward pass (the int8 matmuls, attention) run on all cores by
//! `lingualens::parallel`, as natively. It needs a std rebuilt with atomics (nightly, `-Z
//! build-std`: `scripts/build-threaded-worker.sh`, not trunk) and a cross-origin-isolated page;
//! the page starts it only there (`web::page::worker_link::worker_script`).
//!
//! The worker starts one helper Web Worker per extra core (`www/lingualens-thread.js`); each
//! instantiates this same module on the same memory and calls `lingualens_thread`, which never
//! returns. Built without atomics (clippy's wasm pass), it is the plain worker.

#[cfg(all(target_arch = "wasm32", target_feature = "atomics"))]
fn main() {
    // wasm-bindgen runs `main` in the first instance only, not in the helpers'.
    lingualens::web::worker::start_threads("./lingualens-worker-threads.js");
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
    lingualens::web::worker::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "lingualens-worker-threads runs inside the browser page: serve it with `scripts/serve.sh` (see README.md)"
    );
    std::process::exit(2);
}
