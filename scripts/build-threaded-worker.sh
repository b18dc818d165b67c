#!/usr/bin/env bash
# The workers built for wasm threads (src/bin/worker_threads.rs, and worker_threads_relaxed.rs with
# the relaxed-SIMD kernel): one copy of the model in shared memory and every core on each forward
# pass. One cargo call: the two link one build of the library. trunk cannot build it (it needs another toolchain
# and flags than the other binaries), so trunk's post_build hook (Trunk.toml) runs this first:
#
#   build-threaded-worker.sh              compile, run wasm-bindgen into $TRUNK_STAGING_DIR and
#                                         write the loaders the page starts
#                                         (lingualens-worker-threads[-relaxed]_loader.js)
#   build-threaded-worker.sh --compile    compile only (scripts/setup.sh, while tools install)
#   build-threaded-worker.sh --clippy     clippy on this build, warnings denied (scripts/test.sh
#                                         gets the lints from the build itself, through clippy-driver)
#
# Shared memory needs std rebuilt with atomics: rustup's nightly with its rust-src component
# (scripts/setup.sh adds rust-src), `-Z build-std`, in a target dir of its own. Without the `gpu`
# feature: cubecl-wgpu does not compile with atomics, and this worker is for the CPU path. The
# link flags (shared, imported, growable memory; TLS exports) are build.rs's, for this binary only.
set -euo pipefail
cache="${LINGUALENS_CACHE:-$HOME/.cache/lingualens}"
# The nightly these machines have; another one is used with a warning.
NIGHTLY="nightly"
NIGHTLY_VERSION="1.97.0-nightly (e50aa6fba 2026-05-19)"
bins=(lingualens-worker-threads lingualens-worker-threads-relaxed)

have="$(rustup run "$NIGHTLY" rustc --version 2>/dev/null)" || {
    echo "error: the threaded worker needs rustup's $NIGHTLY toolchain with rust-src (scripts/setup.sh adds rust-src)" >&2
    exit 1
}
[ "$have" = "rustc $NIGHTLY_VERSION" ] || echo "warning: building the threaded worker with $have, not $NIGHTLY_VERSION" >&2

# The wasm-worker profile (Cargo.toml) as for the other workers; SIMD128 as .cargo/config.toml sets
# it for them (RUSTFLAGS replaces that file's flags).
export CARGO_TARGET_DIR="$cache/target-wasm-threads"
threads_cargo() {
    local command=$1
    shift
    RUSTFLAGS="-C target-feature=+atomics,+bulk-memory,+mutable-globals,+simd128" \
        cargo "+$NIGHTLY" "$command" --target wasm32-unknown-unknown -Z build-std=std,panic_abort \
        --profile wasm-worker --no-default-features --features engine "${bins[@]/#/--bin=}" "$@"
}
if [ "${1:-}" = "--clippy" ]; then
    # The code only this build compiles (`cfg(target_feature = "atomics")`), with warnings denied.
    threads_cargo clippy -- -D warnings
    exit 0
fi
threads_cargo build --timings
[ "${1:-}" = "--compile" ] && exit 0

dir="${TRUNK_STAGING_DIR:?run by trunk as a post_build hook (Trunk.toml), or with --compile}"
for bin in "${bins[@]}"; do
    wasm-bindgen --target no-modules --no-typescript --out-dir "$dir" \
        "$CARGO_TARGET_DIR/wasm32-unknown-unknown/wasm-worker/$bin.wasm"
    # As trunk's loader shim for the other workers: the glue, then the module by its path. The
    # first instance makes the shared memory; the worker hands it to its helper threads. A failed
    # start (a browser that refuses the shared memory, a file the host lacks) is thrown again
    # outside the promise, so that it reaches the page as the worker's `error` event and the page
    # starts a worker without threads instead (src/web/page/worker_link.rs).
    printf 'importScripts("./%s.js");wasm_bindgen("./%s_bg.wasm").catch((e)=>setTimeout(()=>{throw e;}));' "$bin" "$bin" >"$dir/${bin}_loader.js"
done
