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
. bench/page/serve.sh # $tmp, $url
node bench/page/workers.js "$url" "${1:-3}" "${2:-2}"
