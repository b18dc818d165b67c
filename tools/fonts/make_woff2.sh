#!/usr/bin/env bash
# Writes www/fonts/*.woff2 from Debian's fonts-noto-core TTFs (the files the page used before
# WOFF2; OFL 1.1, www/fonts/OFL.txt). WOFF2 is the same font, Brotli-compressed for the web:
# 1.45 MB of TTF became 433 KB. Run once by hand when a font changes; nothing builds on it.
#   tools/fonts/make_woff2.sh [DIR_WITH_TTFS]   (default: /usr/share/fonts/truetype/noto)
set -euo pipefail
cd "$(dirname "$0")/../.."
src="${1:-/usr/share/fonts/truetype/noto}"
venv="$(mktemp -d)"
trap 'rm -rf "$venv"' EXIT
python3 -m venv "$venv"
"$venv/bin/pip" install -q fonttools brotli
for name in NotoSans-Regular NotoSansEthiopic-Regular NotoSerifTibetan-Regular; do
    "$venv/bin/python" - "$src/$name.ttf" "www/fonts/$name.woff2" <<'PY'
import sys
from fontTools.ttLib import TTFont
font = TTFont(sys.argv[1])
font.flavor = "woff2"
font.save(sys.argv[2])
PY
    ls -l "www/fonts/$name.woff2"
done
