#!/usr/bin/env bash
# lingualens in headless Chromium — WebGPU on SwiftShader and the CPU fallback — beside wllama
# (llama.cpp compiled to wasm, npm @wllama/wllama) on the same GGUF files: prompt tokens/s and
# multiple-choice items/s side by side, with the ratios. A benchmark, not a test.
#
#   scripts/bench-browser.sh [--model FILE.gguf]… [--engine wllama|wllama-mt|wgpu|cpu|cpu-int8|cpu-int8-pool|cpu-int8-threads]…
#                            [--items N] [--runs R] [--budget-seconds S]      (--help: all options)
#   scripts/bench-browser.sh --plan      (print what would be installed and run; do nothing)
#
# Installs what is missing (Chromium and chromedriver, the bundle's tools, wllama into
# $LINGUALENS_CACHE/npm-wllama, outside the clone), builds the bundle, and without --model makes
# the ~125M-parameter Q8_0 and Q4_0 bench models of `lingualens bench` (tools/bench/make_bench_model.py)
# in $LINGUALENS_CACHE/bench. Then runs benches/browser.rs, which serves dist/, the bench page
# (tools/bench/browser/) and wllama, and drives Chromium over WebDriver.
set -Eeuo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
started=$SECONDS

# One version, named in benches/browser.rs (which speaks its API and checks what it finds).
WLLAMA_VERSION="$(sed -n 's/^const WLLAMA_VERSION: &str = "\(.*\)";$/\1/p' benches/browser.rs)"
[ -n "$WLLAMA_VERSION" ] || { echo "no WLLAMA_VERSION in benches/browser.rs" >&2; exit 1; }
export LINGUALENS_CACHE
export LINGUALENS_WLLAMA="$LINGUALENS_CACHE/npm-wllama/node_modules/@wllama/wllama"

need_apt chromium chromium-driver
ensure_wasm_target
ensure_nightly_rust_src
ensure_wasm_bindgen
ensure_trunk
ensure_wasm_opt
if ! grep -qs "\"version\": \"$WLLAMA_VERSION\"" "$LINGUALENS_WLLAMA/package.json"; then
    command -v npm >/dev/null || need_apt nodejs npm
    if installing "wllama $WLLAMA_VERSION (npm @wllama/wllama) into $LINGUALENS_CACHE/npm-wllama"; then
        npm install --prefix "$LINGUALENS_CACHE/npm-wllama" --no-audit --no-fund --loglevel=error "@wllama/wllama@$WLLAMA_VERSION"
    fi
fi
build_bundle
if plan_mode; then
    echo "plan: make the bench models if missing, then cargo bench --bench browser"
    echo "plan: complete"
    exit 0
fi

if [[ " $* " != *" --model"* ]]; then
    if [ ! -f "$LINGUALENS_CACHE/bench/bench-llama-125m-Q8_0.gguf" ] || [ ! -f "$LINGUALENS_CACHE/bench/bench-llama-125m-Q4_0.gguf" ]; then
        ensure_reference_venv
        step "making the bench models (tools/bench/make_bench_model.py)"
        "$LINGUALENS_CACHE/venv/bin/python" tools/bench/make_bench_model.py "$LINGUALENS_CACHE/bench" Q8_0,Q4_0
    fi
fi

step "cargo bench --bench browser"
LINGUALENS_DIST="$PWD/dist" cargo bench --bench browser -- "$@"
print_phases
echo "scripts/bench-browser.sh finished in $((SECONDS - started)) s"
