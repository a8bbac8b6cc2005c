#!/usr/bin/env bash
# compare.sh — one GT-DP iteration (N = 50, d = 10, 574 directed links,
# noise on): dpsim natively, dpsim under js/wasm (node), and the vectorised
# NumPy reference, interleaved over several rounds on the same machine;
# prints every round and the median ratios.
#
#   bench/gtdp/compare.sh [ROUNDS]        (default 5)
#
# Needs go, node, and /usr/bin/python3 with NumPy (Debian: apt-get install
# -y python3-numpy). NumPy runs on one thread, on OpenBLAS (what its wheels
# bundle: the default column) and on the reference BLAS, each chosen for its
# process only (bench/blas.sh). The targets: native ≥ 3× faster than NumPy on
# OpenBLAS, wasm ≤ 2× native (docs/performance.md).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
rounds=${1:-5}
py=/usr/bin/python3
"$py" -c 'import numpy' 2>/dev/null || { echo "compare.sh: NumPy missing for $py (apt-get install -y python3-numpy)" >&2; exit 1; }
export PATH="$PATH:$(go env GOROOT)/lib/wasm"
source bench/blas.sh
blas_setup
for b in "${BLASES[@]}"; do blas_check "$b" "$py"; done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The pinned export gives NumPy exactly dpsim's graph, weights and targets.
"$py" - bench/gtdp/rgg50.json "$tmp/one.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); s["iterations"] = 1; s["record"] = {"every": 1}
json.dump(s, open(sys.argv[2], "w"))
PY
go run ./cmd/dpsim run --quiet --out "$tmp/export.json" "$tmp/one.json"
go test -c -o "$tmp/native.test" ./core/algorithms/gtdp
GOOS=js GOARCH=wasm go test -c -o "$tmp/wasm.test" ./core/algorithms/gtdp

# Time-based, Go's default way: the harness grows b.N until a run lasts
# 1 s and reports that run, so both sides are measured warm. (A fixed
# count such as 20000x, about 0.4 s, mostly timed V8 still running the
# wasm from its baseline compiler, Liftoff, before it tiers the hot
# functions up to TurboFan: 1.3–1.7× the warm time, and noisier; with
# node --no-liftoff the same 20000x gives the warm time.)
bench() { # prints ns/op of BenchmarkIteration/rgg50
  (cd core/algorithms/gtdp && "$@" -test.run '^$' -test.bench 'Iteration/rgg50$' -test.benchtime 1s) |
    awk '/^BenchmarkIteration\/rgg50/ { for (i = 2; i <= NF; i++) if ($i == "ns/op") print $(i-1) }'
}
iter_header
for r in $(seq "$rounds"); do
  nat=$(bench "$tmp/native.test")
  wasm=$(bench go_js_wasm_exec "$tmp/wasm.test")
  for b in "${BLASES[@]}"; do
    iter_row "$r" "$b" "$nat" "$wasm" "$(blas_run "$b" "$py" bench/gtdp/numpy_iteration.py "$tmp/export.json" --iters 20000 | awk '{print $2}')"
  done
done
iter_summary ""
