#!/usr/bin/env bash
# trunk's post_build hook (Trunk.toml): runs wasm-opt on each wasm file trunk staged, then prints
# every wasm file's size, raw and gzipped (the README keeps the figures).
#
#   optimize-wasm.sh NAME=LEVEL…      e.g. lingualens-page=z lingualens-worker=1 (wasm-opt -Oz, -O1)
#
# Release builds only. An optimised file is kept in $LINGUALENS_CACHE/wasm-opt under the sha256 of
# its input, level and wasm-opt version: wasm-bindgen's output is the same for the same code, so a
# rebuild or a restart of `trunk serve` with nothing changed costs a copy, not minutes of wasm-opt.
# wasm-opt is npm's binaryen (scripts/setup.sh installs it into $LINGUALENS_CACHE/tools/bin).
set -euo pipefail
dir="${TRUNK_STAGING_DIR:?run by trunk as a post_build hook (Trunk.toml)}"
cache="${LINGUALENS_CACHE:-$HOME/.cache/lingualens}/wasm-opt"
# The wasm features rustc enables by default for wasm32-unknown-unknown (rustc --print cfg),
# SIMD128, which .cargo/config.toml turns on, relaxed SIMD, which the relaxed worker's kernel
# enables (src/quant/matmul_int8.rs), and the threaded worker's atomics and shared memory.
features=(--enable-bulk-memory --enable-multivalue --enable-mutable-globals
          --enable-nontrapping-float-to-int --enable-reference-types --enable-sign-ext --enable-simd
          --enable-relaxed-simd --enable-threads)

optimize() {
    local wasm=$1 level=$2 key version
    version="$(wasm-opt --version)"
    key="$( { sha256sum <"$wasm"; echo "$level ${features[*]} $version"; } | sha256sum | cut -c1-32)"
    if [ ! -f "$cache/$key.wasm" ]; then
        mkdir -p "$cache"
        wasm-opt "-O$level" "${features[@]}" "$wasm" -o "$cache/$key.wasm.part"
        mv "$cache/$key.wasm.part" "$cache/$key.wasm"
    fi
    cp "$cache/$key.wasm" "$wasm"
}

# trunk wrote index.html's `integrity` (SRI) for the files before this hook changed them; a stale
# digest makes the browser drop the preloaded wasm and fetch it a second time.
sri() {
    local hex
    hex="$(sha384sum <"$1" | cut -d' ' -f1)"
    printf 'sha384-'
    printf '%b' "$(sed 's/../\\x&/g' <<<"$hex")" | base64 -w0
}

if [ "${TRUNK_PROFILE:-}" = "release" ]; then
    if ! command -v wasm-opt >/dev/null; then
        echo "error: wasm-opt is not on PATH: scripts/serve.sh and scripts/test.sh install it (npm binaryen)" >&2
        exit 1
    fi
    pids=()
    declare -A before=()
    for spec in "$@"; do
        name="${spec%%=*}" level="${spec#*=}"
        [ -f "$dir/${name}_bg.wasm" ] || { echo "error: no ${name}_bg.wasm in $dir" >&2; exit 1; }
        before["$name"]="$(sri "$dir/${name}_bg.wasm")"
        optimize "$dir/${name}_bg.wasm" "$level" &
        pids+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid"; done
    for name in "${!before[@]}"; do
        sed -i "s|${before[$name]}|$(sri "$dir/${name}_bg.wasm")|g" "$dir/index.html"
    done
fi

# The page's Content-Security-Policy (www/index.html) allows no inline script, so trunk's inline
# start-up module (it imports the page's JS and starts the wasm) moves into a file, start.js.
externalize_start_script() {
    local html="$dir/index.html"
    awk -v out="$dir/start.js" '
        !moved && /^<script type="module">$/ { inside = 1; print "<script type=\"module\" src=\"./start.js\"></script>"; next }
        inside && /^<\/script>$/ { inside = 0; moved = 1; next }
        inside { print > out; next }
        { print }' "$html" >"$html.tmp"
    mv "$html.tmp" "$html"
    if grep -q '<script>\|<script type="module">' "$html"; then
        echo "error: $html still has an inline script after externalize_start_script (a new trunk layout?)" >&2
        exit 1
    fi
}
externalize_start_script

printf 'bundle sizes:\n'
for f in "$dir"/*.wasm; do
    raw=$(stat -c %s "$f")
    gz=$(gzip -9 -c "$f" | wc -c)
    awk -v name="$(basename "$f")" -v raw="$raw" -v gz="$gz" \
        'BEGIN { printf "  %-42s %8.0f KB raw %8.0f KB gzip -9\n", name, raw / 1e3, gz / 1e3 }'
done
