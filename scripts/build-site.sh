#!/usr/bin/env bash
# Builds the static site into a folder and a .zip, with no server: the page, its workers, fonts,
# catalogues and the demo, and (a classroom kit) the models and benchmarks named, fetched with the
# CLI's catalogue code (`lingualens kit`: sha256 checked) and listed in the site's kit.json, so the
# page offers them first, "on this server", and a class never needs the internet. Every URL in the
# site is relative: it works under any path of any static server, with no special headers.
#
#   scripts/build-site.sh [--out DIR] [--with-model ID|FILE]… [--with-benchmark ID]… [--bundle DIR] [--plan]
#
#   --out DIR             where the site goes (default: ./site; DIR.zip beside it)
#   --with-model ID|FILE  an id of models/catalog.json (downloaded) or a GGUF file (copied)
#   --with-benchmark ID   an id of datasets/catalog.json (downloaded; DZEN's zip unpacked)
#   --bundle DIR          use a bundle trunk already built (dist/) instead of building one
#
# Sources honour LINGUALENS_MIRROR (https://HOST/PATH fetched as MIRROR/HOST/PATH) and HF_ENDPOINT.
# LINGUALENS_BIN names a lingualens binary to use instead of building it.
set -Eeuo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"
out="$repo/site"
bundle=""
models=()
benchmarks=()
while [ $# -gt 0 ]; do
    case "$1" in
        --out) out="$2"; shift 2 ;;
        --with-model) models+=("$2"); shift 2 ;;
        --with-benchmark) benchmarks+=("$2"); shift 2 ;;
        --bundle) bundle="$2"; shift 2 ;;
        --plan) LINGUALENS_PLAN=1; shift ;;
        -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "error: scripts/build-site.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
export LINGUALENS_PLAN="${LINGUALENS_PLAN:-0}"
set --
source scripts/setup.sh
started=$SECONDS
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
# A model given by path is read from where the caller stands, before anything changes directory.
for i in "${!models[@]}"; do
    [ -f "${models[$i]}" ] && models[$i]="$(cd "$(dirname "${models[$i]}")" && pwd)/$(basename "${models[$i]}")"
done

# The folder is replaced only if it is empty or an earlier site (it has index.html).
if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ] && [ ! -f "$out/index.html" ]; then
    echo "error: $out exists and is not a site built here (no index.html): give another --out" >&2
    exit 1
fi

if [ -z "$bundle" ]; then
    ensure_wasm_target
    ensure_nightly_rust_src
    ensure_wasm_bindgen
    ensure_trunk
    ensure_wasm_opt
fi
kit_args=()
for m in "${models[@]}"; do kit_args+=(--with-model "$m"); done
for b in "${benchmarks[@]}"; do kit_args+=(--with-benchmark "$b"); done

if plan_mode; then
    [ -n "$bundle" ] && echo "plan: copy the bundle $bundle" || echo "plan: build the bundle (trunk build --release --dist ...)"
    [ ${#kit_args[@]} -gt 0 ] && echo "plan: lingualens kit ${kit_args[*]}"
    echo "plan: write $out and $out.zip"
    echo "plan: complete"
    exit 0
fi

mkdir -p "$(dirname "$out")"
staging="$(mktemp -d "${out%/}.staging.XXXXXX")"
trap 'rm -rf "$staging"' EXIT
if [ -n "$bundle" ]; then
    [ -f "$bundle/index.html" ] || { echo "error: --bundle $bundle: no index.html there" >&2; exit 1; }
    step "copying the bundle from $bundle"
    cp -R "$bundle/." "$staging/"
    rm -f "$staging/kit.json"
    rm -rf "$staging/kit"
else
    compile_wasm
    step "building the bundle: trunk build --release --dist $staging"
    CARGO_TARGET_DIR="$WASM_TARGET_DIR" trunk build --release --dist "$staging"
fi

if [ ${#kit_args[@]} -gt 0 ]; then
    bin="${LINGUALENS_BIN:-}"
    if [ -z "$bin" ]; then
        step "building the lingualens command (cargo build --release)"
        cargo build --release --bin lingualens
        bin="$CARGO_TARGET_DIR/release/lingualens"
    fi
    step "putting the kit inside the site (lingualens kit)"
    "$bin" kit --site "$staging" "${kit_args[@]}"
fi

step "writing $out and $out.zip"
rm -rf "$out" "$out.zip"
mv "$staging" "$out"
trap - EXIT
chmod -R a+rX "$out"
python3 - "$out" <<'PY'
import os, shutil, sys
site = sys.argv[1]
shutil.make_archive(site, "zip", root_dir=os.path.dirname(site), base_dir=os.path.basename(site))
PY

# What a first visit of the demo downloads: the files the service worker precaches (www/sw.js,
# with the relaxed-SIMD workers that current Chrome and Edge get, the threaded one for later visits)
# and the demo's model. Sizes as a
# server that compresses them sends them (gzip -9; WOFF2 and the zip are compressed already).
step "sizes"
python3 - "$out" <<'PY'
import gzip, os, re, sys
site = sys.argv[1]
sw = open(os.path.join(site, "sw.js"), encoding="utf-8").read()
shell = re.search(r"const SHELL = \[(.*?)\];", sw, re.S).group(1)
names = [n.replace("${WORKER}", "lingualens-worker-relaxed").replace("${THREADS_WORKER}", "lingualens-worker-threads-relaxed")
         for n in re.findall(r'["`]([^"`]+)["`]', shell)]
names = [("index.html" if n == "./" else n) for n in names]
names = sorted(set(names)) + ["sw.js", "models/demo/lingualens-demo-Q8_0.gguf"]
raw = packed = 0
for name in names:
    data = open(os.path.join(site, name), "rb").read()
    size = len(gzip.compress(data, 9))
    raw += len(data)
    packed += size
    print(f"  {name:48s} {len(data) / 1e3:9.0f} KB {size / 1e3:9.0f} KB compressed")
print(f"first visit of the demo: {len(names)} files, {raw / 1e6:.2f} MB, {packed / 1e6:.2f} MB compressed")
kit = 0
for root, _, files in os.walk(os.path.join(site, "kit")):
    kit += sum(os.path.getsize(os.path.join(root, f)) for f in files)
total = sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(site) for f in fs)
print(f"the kit (models and benchmarks, fetched when used): {kit / 1e6:.2f} MB")
print(f"the whole site: {total / 1e6:.2f} MB; {site}.zip: {os.path.getsize(site + '.zip') / 1e6:.2f} MB")
PY
print_phases
echo "scripts/build-site.sh: the site is $out (and $out.zip), built in $((SECONDS - started)) s"
