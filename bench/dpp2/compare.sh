#!/usr/bin/env bash
# compare.sh — one DPP² iteration (N = 50, d = 10, RGG(50, 0.3), P = I − W_MH,
# noise on): dpsim natively, dpsim under js/wasm (node), and the vectorised
# NumPy reference, interleaved over several rounds on the same machine;
# prints every round and the median ratios, for two problems:
#   classifier — the paper's nonconvex classifier (m = 200 samples per
#                agent): the 50 gradients dominate the iteration;
#   update     — f_i = ‖x − a_i‖² in dimension 10: DPP²'s update alone
#                (two rounds, two P-mixings, two Laplace channels, η^k).
#
#   bench/dpp2/compare.sh [ROUNDS]        (default 5)
#
# Needs go, node, and /usr/bin/python3 with NumPy (Debian: apt-get install
# -y python3-numpy). NumPy runs on one thread, on OpenBLAS (what its wheels
# bundle: the default column) and on the reference BLAS, each chosen for its
# process only (bench/blas.sh). The wasm side is the page's build (the
# dpsimsimd tag, the SIMD module linked by wasm/simd/go_js_wasm_exec, as
# bench/data/compare.sh and cputime.sh run it); the same code without the
# tag (a browser without WebAssembly SIMD: the Go WebAssembly assembly
# alone) is timed in the same rounds and printed below each round as
# "wasm-scalar". The targets (as for GT-DP): native ≥ 3× faster than
# NumPy on OpenBLAS, wasm ≤ 2× native.
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
# The pinned export gives NumPy exactly dpsim's P and parameters.
"$py" - core/scenario/presets/dpp2-classifier.json "$tmp/one.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); s["iterations"] = 1; s["record"] = {"every": 1}
json.dump(s, open(sys.argv[2], "w"))
PY
go run ./cmd/dpsim run --quiet --out "$tmp/export.json" "$tmp/one.json"
go test -c -o "$tmp/native.test" ./core/algorithms/dpp2
GOOS=js GOARCH=wasm go test -tags dpsimsimd -c -o "$tmp/wasm.test" ./core/algorithms/dpp2
GOOS=js GOARCH=wasm go test -c -o "$tmp/wasm-scalar.test" ./core/algorithms/dpp2
go run ./wasm/simd/gen -o "$tmp/simd.wasm"
export DPSIM_SIMD_WASM=$tmp/simd.wasm DPSIM_GOROOT="$(go env GOROOT)"

bench() { # NAME CMD…: prints ns/op of BenchmarkIteration/NAME (warm: b.N grows until a run lasts 1 s)
  local name=$1; shift
  (cd core/algorithms/dpp2 && "$@" -test.run '^$' -test.bench "Iteration/$name\$" -test.benchtime 1s) |
    awk -v b="BenchmarkIteration/$name" 'index($1, b) == 1 { for (i = 2; i <= NF; i++) if ($i == "ns/op") print $(i-1) }'
}
for mode in classifier update; do
  case $mode in classifier) name=rgg50 np_iters=500 ;; update) name=rgg50-update np_iters=5000 ;; esac
  [[ $mode == update ]] && problem=quadratic || problem=classifier
  echo "== $mode (BenchmarkIteration/$name)"
  iter_header
  scalar=()
  for r in $(seq "$rounds"); do
    nat=$(bench "$name" "$tmp/native.test")
    wasm=$(bench "$name" "$PWD/wasm/simd/go_js_wasm_exec" "$tmp/wasm.test")
    wsc=$(bench "$name" go_js_wasm_exec "$tmp/wasm-scalar.test")
    for b in "${BLASES[@]}"; do
      iter_row "$r" "$b" "$nat" "$wasm" "$(blas_run "$b" "$py" bench/dpp2/numpy_iteration.py "$tmp/export.json" --problem "$problem" --iters "$np_iters" | awk '{print $2}')"
    done
    scalar+=("$(awk -v r="$r" -v n="$nat" -v w="$wsc" 'BEGIN { printf "%-6s wasm-scalar %14.2f µs, ÷ native %.2f", r, w/1000, w/n }')")
    echo "${scalar[-1]}"
  done
  iter_summary "$mode, "
  printf '%s\n' "${scalar[@]}" | awk -v label="$mode" "$MEDIAN"'{ k++; t[k] = $3; q[k] = $NF }
    END { printf "median (%s, wasm without the SIMD module): %.2f µs, wasm-scalar/native %.2fx\n", label, med(t, k), med(q, k) }'
done
