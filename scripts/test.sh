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
# benches), for the browser (the two workers, the page without the engine) and for the threaded
# workers. Not as `cargo clippy` passes of their own, which check every dependency a second time
# (rmeta only, none of it shared with the builds: 320 s natively and 250 s on wasm in the cold run
# at 03d1a4d), but as the builds themselves: cargo runs clippy-driver in place of rustc for this
# crate (RUSTC_WORKSPACE_WRAPPER; the dependencies still go to rustc), which compiles exactly what
# rustc would and reports clippy's lints on the way. CLIPPY_ARGS is how `cargo clippy` hands its
# arguments to clippy-driver (separated by __CLIPPY_HACKERY__). cargo counts both variables in this
# crate's fingerprint, so every cargo and trunk call below sees the same ones and nothing is
# compiled twice.
export RUSTC_WORKSPACE_WRAPPER=clippy-driver
export CLIPPY_ARGS="-Dwarnings__CLIPPY_HACKERY__"
compile_tests() {
    step "compiling the tests, clippy's lints denied (cargo test --profile release-tests --no-run)"
    # --lib --tests --benches: what `cargo clippy --all-targets` covers here (the bins are built
    # for the integration tests; there are no examples).
    cargo test --timings --profile release-tests --no-run --lib --tests --benches
}
start_background references references
start_background native-tests compile_tests
start_background wasm compile_wasm
ensure_wasm_bindgen
ensure_trunk
ensure_wasm_opt
wait_for_background wasm
build_bundle
wait_for_background native-tests
wait_for_background references

# lavapipe warns on every start without a runtime dir.
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
step "cargo test --profile release-tests (unit, CLI and browser tests)"
LINGUALENS_DIST="$PWD/dist" LINGUALENS_REQUIRE_BROWSER=1 LINGUALENS_REQUIRE_FIXTURES=1 cargo test --profile release-tests --no-fail-fast

step "lingualens selftest (for the record)"
"$CARGO_TARGET_DIR/release-tests/lingualens" selftest

print_phases
echo "scripts/test.sh finished in $((SECONDS - started)) s"
