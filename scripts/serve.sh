#!/usr/bin/env bash
# Installs whatever is missing and serves the app with its built-in demo on http://127.0.0.1:8080
# (pass --port N to change it). Stop with Ctrl-C. `--plan`: print what would be installed, do
# nothing (scripts/setup.sh).
set -Eeuo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

ensure_wasm_target
ensure_nightly_rust_src
if plan_mode; then
    ensure_wasm_bindgen
    ensure_trunk
    ensure_wasm_opt
    echo "plan: serve the app (trunk serve --release)"
    echo "plan: complete"
    exit 0
fi
# The wasm compiles while trunk and wasm-bindgen install (see scripts/setup.sh, compile_wasm).
start_background wasm compile_wasm
ensure_wasm_bindgen
ensure_trunk
ensure_wasm_opt
wait_for_background wasm
print_phases
step "serving on 127.0.0.1 (trunk serve --release); open the address below"
CARGO_TARGET_DIR="$WASM_TARGET_DIR" exec trunk serve --release "$@"
