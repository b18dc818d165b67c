#!/usr/bin/env bash
# Installs what the tests need and runs every test: the library's unit tests, the native CLI on
# both backends, and the page in a real headless Chromium on WebGPU (SwiftShader) and on the CPU
# fallback. CI runs exactly this (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
started=$SECONDS

# chromium + chromium-driver: the browser tests. mesa-vulkan-drivers: lavapipe, a Vulkan
# implementation on the CPU, so burn-wgpu runs natively on machines without a GPU.
need_apt chromium chromium-driver mesa-vulkan-drivers
ensure_wasm_target
ensure_wasm_bindgen
ensure_trunk
ensure_reference_venv
ensure_reference_tokenizers
build_bundle

step "generating test fixtures and references (tools/fixtures)"
export LINGUALENS_FIXTURES="$LINGUALENS_CACHE/fixtures"
PYTHON="$LINGUALENS_CACHE/venv/bin/python" tools/fixtures/make_all.sh "$LINGUALENS_FIXTURES"

# lavapipe warns on every start without a runtime dir.
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
step "cargo test --release (unit, CLI and browser tests)"
LINGUALENS_DIST="$PWD/dist" LINGUALENS_REQUIRE_BROWSER=1 LINGUALENS_REQUIRE_FIXTURES=1 cargo test --release --no-fail-fast

step "lingualens selftest (for the record)"
"$CARGO_TARGET_DIR/release/lingualens" selftest

step "bundle size"
for f in dist/*.wasm; do
    awk -v name="$(basename "$f")" -v raw="$(stat -c %s "$f")" -v gz="$(gzip -9 -c "$f" | wc -c)" \
        'BEGIN { printf "%-32s %6.1f MB raw, %5.1f MB gzip -9\n", name, raw / 1e6, gz / 1e6 }'
done
echo "scripts/test.sh finished in $((SECONDS - started)) s"
