// lingualens's service worker: after the first visit the app opens with no network. The app's
// files are precached at install and refreshed from the network whenever it answers (network
// first, so an update is seen at once; the cache only when offline). Models are not handled
// here: the worker keeps downloaded models in Cache Storage ("lingualens-models-v1") itself.
// Plain JavaScript because a service worker must be a script; it holds no app logic.
const APP_CACHE = "lingualens-app-v7";
// A wasm module whose one function runs i32x4.relaxed_dot_i8x16_i7x16_add_s: WebAssembly.validate
// accepts it exactly where relaxed SIMD is there (the bytes of src/web/protocol.rs's
// RELAXED_SIMD_PROBE; tests/integration/bundle.rs checks that they are the same).
const RELAXED_SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 61, 1, 59, 0, 253, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 253, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 253, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 253, 147, 2, 11]);
// The page starts the worker build with the relaxed-SIMD kernel where this validates, the SIMD128
// one elsewhere: only that one is precached.
const WORKER = WebAssembly.validate(RELAXED_SIMD_PROBE) ? "lingualens-worker-relaxed" : "lingualens-worker";
const SHELL = [
  "./", "index.html", "style.css", "start.js",
  "lingualens-page.js", "lingualens-page_bg.wasm",
  `${WORKER}.js`, `${WORKER}_bg.wasm`, `${WORKER}_loader.js`,
  "fonts/NotoSans-Regular.woff2", "fonts/NotoSansEthiopic-Regular.woff2", "fonts/NotoSerifTibetan-Regular.woff2",
  "models/catalog.json", "datasets/tasks/demo/demo.yaml", "datasets/tasks/demo/demo.jsonl",
  "datasets/tasks/dzen/dzen_en.yaml", "datasets/tasks/dzen/dzen_dz.yaml", "datasets/tasks/dzen/dzen_dz_en.yaml",
  "datasets/tasks/dzen/dzen_en_cloze.yaml", "datasets/tasks/dzen/dzen_dz_cloze.yaml", "datasets/tasks/dzen/dzen_dz_en_cloze.yaml",
  "datasets/tasks/dzen/dzen_common_yaml", "datasets/tasks/dzen/dzen_cloze_common_yaml",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(APP_CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) =>
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("lingualens-app-") && k !== APP_CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim())
  )
);

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || url.pathname.endsWith(".gguf")) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.status === 200) {
          const copy = response.clone();
          caches.open(APP_CACHE).then((cache) => cache.put(request, copy));
        }
        return response;
      })
      .catch(() => caches.match(request, { ignoreSearch: true }).then((hit) => hit || Response.error()))
  );
});
