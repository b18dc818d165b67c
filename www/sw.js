// lingualens's service worker: after the first visit the app opens with no network. The app's
// files are precached at install and refreshed from the network whenever it answers (network
// first, so an update is seen at once; the cache only when offline). Models are not handled
// here: the worker keeps downloaded models in Cache Storage ("lingualens-models-v1") itself.
//
// It also makes the page cross-origin isolated where the host sends no such headers (a GitHub
// Pages site, python3 -m http.server): every response it hands the app gets COOP and COEP, as
// the known shims (coi-serviceworker) do, so from the second visit on the page may share memory
// with its workers and runs the threaded worker (one copy of the model on every core). The first
// visit, before this worker serves the page, runs as before; nothing reloads the page under the
// user. Plain JavaScript because a service worker must be a script; it holds no app logic.
const APP_CACHE = "lingualens-app-v8";
// A wasm module whose one function runs i32x4.relaxed_dot_i8x16_i7x16_add_s: WebAssembly.validate
// accepts it exactly where relaxed SIMD is there (the bytes of src/web/protocol.rs's
// RELAXED_SIMD_PROBE; tests/integration/bundle.rs checks that they are the same).
const RELAXED_SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 61, 1, 59, 0, 253, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 253, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 253, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 253, 147, 2, 11]);
// The page starts the worker builds with the relaxed-SIMD kernel where this validates, the SIMD128
// ones elsewhere: only those are precached.
const RELAXED = WebAssembly.validate(RELAXED_SIMD_PROBE);
const WORKER = RELAXED ? "lingualens-worker-relaxed" : "lingualens-worker";
const THREADS_WORKER = RELAXED ? "lingualens-worker-threads-relaxed" : "lingualens-worker-threads";
const SHELL = [
  "./", "index.html", "style.css", "start.js",
  "lingualens-page.js", "lingualens-page_bg.wasm",
  `${WORKER}.js`, `${WORKER}_bg.wasm`, `${WORKER}_loader.js`,
  // The worker of every later visit, isolated by the headers below, and its helper threads' script.
  `${THREADS_WORKER}.js`, `${THREADS_WORKER}_bg.wasm`, `${THREADS_WORKER}_loader.js`,
  "lingualens-thread.js",
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
        // A redirect goes back as it came, for the browser to follow: a navigation's is opaque
        // (status 0), which no Response can be rebuilt with, so adding the headers would fail and
        // the page would get an error instead (a folder without its slash, `/index.html` → `/`).
        if (response.type === "opaqueredirect" || response.status === 0) return response;
        if (response.status === 200) {
          const copy = response.clone();
          caches.open(APP_CACHE).then((cache) => cache.put(request, copy));
        }
        return isolated(response);
      })
      .catch(() => caches.match(request, { ignoreSearch: true }).then((hit) => (hit ? isolated(hit) : Response.error())))
  );
});

// The response with the two headers that make a document (and the workers it starts)
// cross-origin isolated. `require-corp` rather than `credentialless`, which Safari lacks: the
// page loads nothing from other origins, and the worker's downloads are CORS requests.
function isolated(response) {
  const headers = new Headers(response.headers);
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set("Cross-Origin-Embedder-Policy", "require-corp");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
