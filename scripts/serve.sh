#!/usr/bin/env bash
# Installs whatever is missing and serves the app with its built-in demo on http://127.0.0.1:8080
# (pass --port N to change it). Stop with Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

ensure_wasm_target
ensure_wasm_bindgen
ensure_trunk
step "serving on 127.0.0.1 (trunk serve --release); open the address below"
exec trunk serve --release "$@"
