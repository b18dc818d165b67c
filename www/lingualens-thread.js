// A helper thread of the threaded worker (src/bin/worker_threads.rs). The worker sends
// [glue script URL, compiled module, shared memory]; this loads the glue, instantiates the module
// on that memory (wasm-bindgen gives this instance its own stack and thread-locals, and does not
// run the worker's `main` again) and joins the worker's pool of threads
// (lingualens::parallel::serve), for good.
// Plain JavaScript because a Web Worker must start from a script; it holds no app logic.
self.onmessage = (event) => {
  const [glue, module, memory] = event.data;
  importScripts(glue);
  wasm_bindgen.initSync({ module, memory });
  wasm_bindgen.lingualens_thread();
};
