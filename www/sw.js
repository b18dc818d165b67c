// lingualens's service worker: after the first visit the app opens with no network. The app's
// files are precached at install and refreshed from the network whenever it answers (network
// first, so an update is seen at once; the cache only when offline). Models are not handled
// here: the worker keeps downloaded models in Cache Storage ("lingualens-models-v1") itself.
// Plain JavaScript because a service worker must be a script; it holds no app logic.
const APP_CACHE = "lingualens-app-v2";
const SHELL = [
  "./", "index.html", "style.css", "start.js",
  "lingualens-page.js", "lingualens-page_bg.wasm",
  "lingualens-worker.js", "lingualens-worker_bg.wasm", "lingualens-worker_loader.js",
  "fonts/NotoSans-Regular.ttf", "fonts/NotoSansEthiopic-Regular.ttf", "fonts/NotoSerifTibetan-Regular.ttf",
  "models/catalog.json", "datasets/tasks/demo/demo.yaml", "datasets/tasks/demo/demo.jsonl",
  "datasets/tasks/dzen/dzen_en.yaml", "datasets/tasks/dzen/dzen_dz.yaml", "datasets/tasks/dzen/dzen_dz_en.yaml",
  "datasets/tasks/dzen/dzen_common_yaml",
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
