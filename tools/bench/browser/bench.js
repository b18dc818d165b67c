// The page side of `cargo bench --bench browser` (benches/browser.rs): times one engine on one
// GGUF file and hands back its figures. The driver calls `runEngine(job)` over WebDriver and reads
// `window.benchResult` once it is set.
//
// Both engines get the same multiple-choice items: lingualens as text through its own worker
// (`Score { context, choices }`, the evaluator's path) and wllama as the token ids lingualens gives
// that text (as llama.cpp gets them in `lingualens bench`), so both do the same work. Every time is
// measured here, around the engine's own asynchronous calls, so WebDriver costs nothing.
//
// After loading, one item is scored untimed (first-use costs: kernel compilation on WebGPU). Then
// - prompt tokens/s: the first item's context in one forward pass (logits of its last position),
//   median over up to `runs` passes;
// - decode tokens/s: after `job.prompt` (token ids; its pass untimed), `job.decode_steps` greedy
//   tokens one at a time through the KV cache, over the steps after the first; median over up to
//   `runs` runs (as `lingualens bench`'s decode);
// - items/s: passes over the items (the context once, then its 4 choices after the context's KV
//   cache), median over up to `runs` passes.
// A slow engine (WebGPU on SwiftShader needs minutes a pass) stops repeating a phase once it has
// spent `budget_s` seconds in it, after at least one prompt pass and one item.

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const status = (text) => { document.getElementById('status').textContent = text; };
const sameIds = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
const seconds = (since) => (performance.now() - since) / 1e3;

/// The common protocol. `promptPass()` runs the first item's context and returns the seconds its
/// forward pass took; `decodeRun()` returns `[tokens/s, the greedy tokens]` of one decode;
/// `scoreItem(item)` returns the item's 4 log-likelihoods. `scoreItem` may be
/// a list, one per worker of a pool: each takes the next item not yet taken, as the page's pool
/// does, and items/s counts them all.
async function measure(name, job, promptPass, decodeRun, scoreItem) {
  const scorers = Array.isArray(scoreItem) ? scoreItem : [scoreItem];
  const first = job.items[0];
  const warm = performance.now();
  status(`${name}: warm-up`);
  await Promise.all(scorers.map((score) => score(first)));
  const warmUpS = seconds(warm);

  const pp = [];
  const ppStart = performance.now();
  for (let r = 0; r < job.runs && (r === 0 || seconds(ppStart) < job.budget_s); r++) {
    status(`${name}: prompt pass ${r + 1}`);
    pp.push(first.context_tokens.length / await promptPass());
  }

  const dec = [];
  let decoded = null;
  const decStart = performance.now();
  for (let r = 0; r < job.runs && (r === 0 || seconds(decStart) < job.budget_s); r++) {
    status(`${name}: decode ${r + 1}`);
    const [tokensPerS, tokens] = await decodeRun();
    dec.push(tokensPerS);
    decoded = tokens;
  }

  const mc = [];
  const loglikelihoods = job.items.map(() => null);
  const mcStart = performance.now();
  let outOfTime = false;
  for (let r = 0; r < job.runs && !outOfTime; r++) {
    const start = performance.now();
    let done = 0;
    let next = 0;
    await Promise.all(scorers.map(async (score) => {
      for (;;) {
        const i = next++;
        if (i >= job.items.length || outOfTime) return;
        if ((r > 0 || i > 0) && seconds(mcStart) >= job.budget_s) { outOfTime = true; return; }
        status(`${name}: items pass ${r + 1}, item ${i + 1}`);
        loglikelihoods[i] = await score(job.items[i]);
        done += 1;
      }
    }));
    if (done > 0) mc.push(done / seconds(start));
  }
  return {
    warm_up_s: warmUpS,
    pp_tokens_per_s: median(pp),
    decode_tokens_per_s: median(dec),
    mc_items_per_s: median(mc),
    pp_runs: pp,
    decode_runs: dec,
    decoded,
    mc_runs: mc,
    // null for the items a slow engine did not reach
    loglikelihoods,
  };
}

// ---------------------------------------------------------------------------------------------
// lingualens: the app's own worker (dist/lingualens-worker_loader.js), spoken to as the page does.

// A wasm module whose one function runs i32x4.relaxed_dot_i8x16_i7x16_add_s: WebAssembly.validate
// accepts it exactly where relaxed SIMD is there (the bytes of src/web/protocol.rs's
// RELAXED_SIMD_PROBE; tests/integration/bundle.rs checks that they are the same).
const RELAXED_SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 61, 1, 59, 0, 253, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 253, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 253, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 253, 147, 2, 11]);

// The worker build the app's page would start here without threads (`?simd=baseline` on the bench
// page: the other), and the threaded one (the page's where it is cross-origin isolated, as here).
const RELAXED = WebAssembly.validate(RELAXED_SIMD_PROBE) && !location.search.includes('simd=baseline');
const WORKER_SCRIPT = RELAXED ? '/lingualens-worker-relaxed_loader.js' : '/lingualens-worker_loader.js';
const THREADS_WORKER_SCRIPT = RELAXED ? '/lingualens-worker-threads-relaxed_loader.js' : '/lingualens-worker-threads_loader.js';

class LinguaLens {
  static async start(backend, modelUrl, script) {
    const self = new LinguaLens();
    self.worker = new Worker(script);
    self.pending = null;
    self.backendInfo = null;
    const ready = new Promise((resolve) => { self.onReady = resolve; });
    self.worker.onmessage = (event) => self.receive(event.data);
    self.worker.onerror = (event) => self.fail(`worker error: ${event.message}`);
    await ready;
    await self.request({ type: 'load_model', source: { kind: 'url', url: new URL(modelUrl, location.href).href }, backend }, 'model_loaded');
    if (!self.backendInfo) throw new Error('the worker did not say which backend it chose');
    return self;
  }

  receive(message) {
    if (message.type === 'ready') return this.onReady();
    if (message.type === 'backend') { this.backendInfo = message.info; return; }
    if (message.type === 'download') return;
    const pending = this.pending;
    this.pending = null;
    if (!pending) return;
    if (message.type === 'error') pending.reject(new Error(`lingualens worker (${message.stage}): ${message.message}`));
    else if (message.type !== pending.want) pending.reject(new Error(`lingualens worker: expected ${pending.want}, got ${message.type}`));
    else pending.resolve(message);
  }

  fail(text) {
    if (this.pending) this.pending.reject(new Error(text));
    this.pending = null;
  }

  request(message, want) {
    return new Promise((resolve, reject) => {
      this.pending = { want, resolve, reject };
      this.worker.postMessage(message);
    });
  }

  async decode(prompt, steps) {
    const answer = await this.request({ type: 'decode', prompt, steps }, 'decoded');
    this.wasmMemory = answer.wasm_memory;
    return [answer.tokens_per_s, answer.tokens];
  }

  async score(context, choices) {
    const answer = await this.request({ type: 'score', context, choices }, 'scores');
    this.wasmMemory = answer.wasm_memory;
    return answer.choices;
  }

  close() { this.worker.terminate(); }
}

async function benchLinguaLens(job) {
  const workers = job.workers || 1;
  const name = `lingualens ${job.backend}${workers > 1 ? ` × ${workers} workers` : ''}${job.threads ? ' threads' : ''}`;
  const t0 = performance.now();
  status(`${name}: loading the model`);
  // A pool (as the page's on the CPU path): one worker per core, each with its own copy. The
  // threaded worker: one copy, each pass on every core.
  const script = job.threads ? THREADS_WORKER_SCRIPT : WORKER_SCRIPT;
  const engines = await Promise.all(Array.from({ length: workers }, () => LinguaLens.start(job.backend, job.model_url, script)));
  const engine = engines[0];
  const loadS = seconds(t0);
  try {
    const info = engine.backendInfo;
    // As BackendInfo::label names it: wgpu, cpu (f32 activations) or cpu-int8.
    const label = info.backend === 'cpu' && info.activations === 'int8' ? 'cpu-int8' : info.backend;
    if (label !== job.backend) throw new Error(`asked for ${job.backend}, the worker chose ${label}: ${info.fallback_reason || ''}`);
    // The prompt pass: the context and a one-token choice, so the work is the context's forward
    // pass and one log-softmax over its last position.
    const promptPass = async () => {
      const first = job.items[0];
      const start = performance.now();
      const [score] = await engine.score(first.context, [job.pp_choice]);
      const s = seconds(start);
      if (!sameIds(score.context_tokens, first.context_tokens) || score.continuation_tokens.length !== 1) {
        throw new Error('the prompt pass did not tokenize as the driver did');
      }
      return s;
    };
    // The driver's token ids are what wllama gets: check that the worker saw the same tokens.
    const scoreItemOn = (engine) => async (item) => {
      const scores = await engine.score(item.context, item.choices);
      scores.forEach((score, c) => {
        if (!sameIds(score.context_tokens, item.context_tokens) || !sameIds(score.continuation_tokens, item.continuation_tokens[c])) {
          throw new Error(`choice ${c} of "${item.context.slice(0, 40)}…": the worker's tokens differ from the driver's`);
        }
      });
      return scores.map((s) => s.loglikelihood);
    };
    // Decode on one worker, as a generation task runs (the pool shares out items, not tokens).
    const decodeRun = () => engine.decode(job.prompt, job.decode_steps);
    const figures = await measure(name, job, promptPass, decodeRun, engines.map(scoreItemOn));
    const threads = workers > 1 ? `${workers} workers (prompt: 1)` : `${info.threads || 1} thread${(info.threads || 1) > 1 ? 's' : ''}`;
    // The wasm memory of every worker after the run (it never shrinks), in MiB.
    const wasmMemoryMib = engines.reduce((sum, e) => sum + (e.wasmMemory || 0), 0) / (1 << 20);
    const detail = info.backend === 'wgpu'
      ? `WebGPU on ${[info.adapter.vendor, info.adapter.architecture].filter(Boolean).join(' ')}`
      : `wasm, ${threads}, ${label === 'cpu-int8' ? `int8 activations (${info.int8_kernel} kernel)` : 'f32 activations (exact)'}`;
    return { ...figures, detail, load_s: loadS, wasm_memory_mib: wasmMemoryMib };
  } finally {
    engines.forEach((e) => e.close());
  }
}

// ---------------------------------------------------------------------------------------------
// wllama (llama.cpp in wasm, CPU), from the npm package served under /wllama/.

async function benchWllama(job) {
  const { Wllama } = await import('/wllama/esm/index.js');
  const base = new URL('/wllama/esm/', location.href).href;
  const quiet = { debug() {}, log() {}, warn() {}, error: console.error };
  const wllama = new Wllama(
    { 'single-thread/wllama.wasm': base + 'single-thread/wllama.wasm', 'multi-thread/wllama.wasm': base + 'multi-thread/wllama.wasm' },
    { suppressNativeLog: true, logger: quiet },
  );
  const longest = Math.max(
    job.prompt.length + job.decode_steps,
    ...job.items.map((it) => it.context_tokens.length + Math.max(...it.continuation_tokens.map((c) => c.length))),
  );
  const t0 = performance.now();
  status(`wllama: loading the model`);
  const blob = await (await fetch(job.model_url)).blob();
  await wllama.loadModel([blob], { n_ctx: longest + 16, n_batch: longest + 16, n_threads: job.threads, seed: 1 });
  const loadS = seconds(t0);
  try {
    if (job.threads > 1 && !wllama.isMultithread()) {
      throw new Error(`wllama could not start ${job.threads} threads (crossOriginIsolated = ${self.crossOriginIsolated})`);
    }
    const threads = wllama.getNumThreads();
    // getLogits(-1): the softmax of the last position over the whole vocabulary, which is how
    // wllama 2 gives a token's probability. Its cost is part of scoring with wllama; it is also
    // timed on its own, so that it can be told apart from the forward passes.
    let logitsS = 0, logitsCalls = 0;
    const probabilities = async () => {
      const start = performance.now();
      const all = await wllama.getLogits(-1);
      logitsS += seconds(start);
      logitsCalls += 1;
      return all;
    };
    const logP = (all, token) => {
      const hit = all.find((x) => x.token === token);
      return Math.log(hit ? hit.p : 0);
    };
    const promptPass = async () => {
      const first = job.items[0];
      await wllama.kvClear();
      const start = performance.now();
      await wllama.decode(first.context_tokens, {});
      return seconds(start);
    };
    // Greedy decode: llama.cpp's sampler cut to the one most likely token (top-k 1, no penalties),
    // sampled from the last position's logits after each one-token decode, as wllama generates.
    await wllama.samplingInit({ temp: 0, top_k: 1, penalty_repeat: 1, penalty_freq: 0, penalty_present: 0 });
    const decodeRun = async () => {
      await wllama.kvClear();
      await wllama.decode(job.prompt, {});
      const tokens = [(await wllama.samplingSample()).token];
      const start = performance.now();
      while (tokens.length < job.decode_steps) {
        await wllama.decode([tokens[tokens.length - 1]], {});
        tokens.push((await wllama.samplingSample()).token);
      }
      return [(job.decode_steps - 1) / seconds(start), tokens];
    };
    // lingualens's rule: the context once; each choice's tokens but the last after the context's
    // KV cache, one at a time (wllama 2's decode keeps the last position's logits only).
    const scoreItem = async (item) => {
      await wllama.kvClear();
      await wllama.decode(item.context_tokens, {});
      const afterContext = await probabilities();
      const lls = [];
      for (const cont of item.continuation_tokens) {
        let ll = logP(afterContext, cont[0]);
        for (let i = 0; i + 1 < cont.length; i++) {
          await wllama.decode([cont[i]], {});
          ll += logP(await probabilities(), cont[i + 1]);
        }
        if (cont.length > 1) await wllama.kvRemove(item.context_tokens.length, -1);
        lls.push(ll);
      }
      return lls;
    };
    const name = `wllama ${threads} thread${threads > 1 ? 's' : ''}`;
    const figures = await measure(name, job, promptPass, decodeRun, scoreItem);
    return {
      ...figures,
      detail: `wllama ${job.version} (llama.cpp ${Wllama.getLibllamaVersion()}), wasm, ${threads} thread${threads > 1 ? 's' : ''}`,
      threads,
      load_s: loadS,
      get_logits_ms: logitsCalls ? (logitsS / logitsCalls) * 1e3 : null,
    };
  } finally {
    await wllama.exit();
  }
}

window.runEngine = (job) => {
  window.benchResult = null;
  const run = job.engine === 'wllama' ? benchWllama(job) : benchLinguaLens(job);
  run.then(
    (figures) => { status('done'); window.benchResult = { ok: figures }; },
    (e) => { status(`failed: ${e}`); window.benchResult = { error: String((e && e.stack) || e) }; },
  );
  return true;
};
window.benchInfo = { crossOriginIsolated: self.crossOriginIsolated, cores: navigator.hardwareConcurrency };
status('ready');
