#!/usr/bin/env bash
# Installs what the tests need and runs every test: the library's unit tests, the native CLI on
# both backends, and the page in a real headless Chromium on WebGPU (SwiftShader) and on the CPU
# fallback. CI runs exactly this (.ci/run). `--plan`: print what would be installed and run, do
# nothing (scripts/setup.sh).
set -Eeuo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
started=$SECONDS

# chromium + chromium-driver: the browser tests. mesa-vulkan-drivers: lavapipe, a Vulkan
# implementation on the CPU, so burn-wgpu runs natively on machines without a GPU.
need_apt chromium chromium-driver mesa-vulkan-drivers
command -v npm >/dev/null || need_apt nodejs npm
ensure_wasm_target
ensure_nightly_rust_src
ensure_rustfmt
ensure_clippy

if plan_mode; then
    ensure_reference_venv
    ensure_reference_tokenizers
    ensure_real_model
    ensure_wasm_bindgen
    ensure_trunk
    ensure_wasm_opt
    build_bundle
    echo "plan: check the layout (cargo fmt --check), generate the fixtures (tools/fixtures/make_all.sh), run clippy (native and wasm, warnings denied) and cargo test --profile release-tests"
    echo "plan: complete"
    exit 0
fi

# The layout is rustfmt's (rustfmt.toml): checked first, it fails in seconds, before an hour of installs.
step "checking the layout (cargo fmt --check)"
cargo fmt --check

# The Python references (a venv with torch, transformers, lm-eval and llama.cpp, then the fixtures
# they write), the native tests' compile and the wasm compile need nothing from each other or from
# trunk: on a fresh machine they run side by side with the tools' installs, so downloads overlap
# compiles and both cores stay busy. They meet before the tests run.
export LINGUALENS_FIXTURES="$LINGUALENS_CACHE/fixtures"
# The Python with lm-eval, for the tests that run it on what lingualens exports (tests/integration/export_task.rs).
export LINGUALENS_PYTHON="$LINGUALENS_CACHE/venv/bin/python"
references() {
    ensure_reference_venv
    ensure_reference_tokenizers
    ensure_real_model
    step "generating test fixtures and references (tools/fixtures)"
    PYTHON="$LINGUALENS_CACHE/venv/bin/python" LINGUALENS_REAL_MODEL="$SMOLLM2_GGUF" tools/fixtures/make_all.sh "$LINGUALENS_FIXTURES"
}
# Clippy's lints, every warning an error, on each build the tests run: natively (lib, bins, tests,
# benches) and for the browser (the two workers, the page without the engine). Each runs after the
# compile of its target dir, whose dependencies it reuses (a check of lingualens alone, mostly on
# one core), in the background while the other jobs finish: not after them all, where it added
# three minutes on its own.
compile_tests() {
    step "compiling the tests (cargo test --profile release-tests --no-run)"
    cargo test --timings --profile release-tests --no-run
    step "clippy, warnings denied (native)"
    cargo clippy --profile release-tests --all-targets -- -D warnings
}
clippy_wasm() {
    step "clippy, warnings denied (the workers and the page, wasm32)"
    CARGO_TARGET_DIR="$WASM_TARGET_DIR" cargo clippy --target=wasm32-unknown-unknown --profile wasm-worker \
        --bins -- -D warnings
    CARGO_TARGET_DIR="$WASM_TARGET_DIR" cargo clippy --target=wasm32-unknown-unknown --profile wasm-page \
        --no-default-features --bin lingualens-page -- -D warnings
    step "clippy, warnings denied (the threaded workers, wasm32 with atomics)"
    bash scripts/build-threaded-worker.sh --clippy
}
start_background references references
start_background native-tests compile_tests
start_background wasm compile_wasm
ensure_wasm_bindgen
ensure_trunk
ensure_wasm_opt
wait_for_background wasm
build_bundle
# After trunk: the two would wait for each other on the wasm target dir's lock.
start_background wasm-clippy clippy_wasm
wait_for_background native-tests
wait_for_background references
wait_for_background wasm-clippy

# lavapipe warns on every start without a runtime dir.
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
step "cargo test --profile release-tests (unit, CLI and browser tests)"
LINGUALENS_DIST="$PWD/dist" LINGUALENS_REQUIRE_BROWSER=1 LINGUALENS_REQUIRE_FIXTURES=1 cargo test --profile release-tests --no-fail-fast

step "lingualens selftest (for the record)"
"$CARGO_TARGET_DIR/release-tests/lingualens" selftest

print_phases
echo "scripts/test.sh finished in $((SECONDS - started)) s"
