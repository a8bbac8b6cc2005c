#!/usr/bin/env bash
# startup.sh — the page's start-up against a minimal ebiten program's, in
# headless Chromium: median of ROUNDS cold loads of each, alternating,
# with the breakdown (poster; the view's fetch, compile, Go start-up,
# ebiten start-up, scenario build → first frame; then the simulator)
# and the compressed bytes fetched before the first frame; and the same
# minimal program started by dpsim's page in place of the view.
#
#   bench/page/startup.sh [ROUNDS]     (default 5; builds the site first)
#
# Needs /usr/bin/chromium, brotli and e2e's node modules (./test.sh
# installs them). Headless Chromium draws WebGL in software (SwiftShader)
# on two shared cores: the figures are a GPU-less floor.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
rounds=${1:-5}
[[ ${SKIP_BUILD:-} == 1 ]] || ./build.sh >/dev/null   # SKIP_BUILD=1: the site as it is
tmp=$(mktemp -d)
trap 'kill $srv 2>/dev/null || true; rm -rf "$tmp"' EXIT
mkdir -p "$tmp/site"
cp -a public/. "$tmp/site/"   # -a: the sidecars must stay newer than the .wasm
mkdir -p "$tmp/site/bench-minimal"
cp bench/page/minimal/index.html "$tmp/site/bench-minimal/"
GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w" -o "$tmp/site/bench-minimal/minimal.wasm" ./bench/page/minimal
brotli -q 11 -c "$tmp/site/bench-minimal/minimal.wasm" > "$tmp/site/bench-minimal/minimal.wasm.br"
# The same minimal program in dpsim's page (bench-minimal/inpage.html: the
# page's head fetches minimal.wasm where it fetches view.wasm): what the
# page itself costs a program's first frame, apart from the program.
sed -e "s#fetch('view.wasm')#fetch('bench-minimal/minimal.wasm')#" -e 's#<meta charset="utf-8">#<meta charset="utf-8"><base href="../">#' \
  public/index.html > "$tmp/site/bench-minimal/inpage.html"
grep -q "fetch('bench-minimal/minimal.wasm')" "$tmp/site/bench-minimal/inpage.html" || { echo "startup.sh: index.html no longer fetches view.wasm from its head" >&2; exit 1; }
gzip -9 -n -c "$tmp/site/bench-minimal/minimal.wasm" > "$tmp/site/bench-minimal/minimal.wasm.gz"
go build -o "$tmp/serve" ./serve
"$tmp/serve" -addr 127.0.0.1:0 -dir "$tmp/site" >"$tmp/serve.log" 2>&1 &
srv=$!
for _ in $(seq 50); do grep -q http "$tmp/serve.log" && break; sleep 0.1; done
url=$(grep -o 'http://127.0.0.1:[0-9]*/' "$tmp/serve.log" | head -1)
node bench/page/startup.js "$url" "$rounds"
