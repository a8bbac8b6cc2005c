#!/usr/bin/env bash
# workers.sh — the page's 200-iteration, 10-agent MNIST CNN run on 1 and
# N Workers (the Workers setting; ui/farm.go), interleaved, with medians,
# the speed-up and a check that the exports are the same bytes
# (bench/page/workers.js).
#
#   bench/page/workers.sh [ROUNDS [N]]    (default 3 rounds, N = 2; builds the site first)
#
# Needs /usr/bin/chromium and e2e's node modules (./test.sh installs both).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
./build.sh >/dev/null
tmp=$(mktemp -d)
trap 'kill $srv 2>/dev/null || true; rm -rf "$tmp"' EXIT
go build -o "$tmp/serve" ./serve
"$tmp/serve" -addr 127.0.0.1:0 -dir public >"$tmp/serve.log" 2>&1 &
srv=$!
for _ in $(seq 50); do grep -q http "$tmp/serve.log" && break; sleep 0.1; done
url=$(grep -o 'http://127.0.0.1:[0-9]*/' "$tmp/serve.log" | head -1)
node bench/page/workers.js "$url" "${1:-3}" "${2:-2}"
