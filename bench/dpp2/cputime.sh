#!/usr/bin/env bash
# cputime.sh — one DPP² iteration (BenchmarkIteration in core/algorithms/
# dpp2: the paper's classifier "rgg50", or the update alone
# "rgg50-update") in CPU time rather than wall time: on a shared machine
# under load, wall time swings by 2–4× between rounds while the CPU time a
# process spends does not. It runs the benchmark for exactly N iterations
# and for 1, natively and under js/wasm in node, under /usr/bin/time, and
# takes (CPU(N) − CPU(1)) / (N − 1) per iteration (user + system, so the
# start-up and the data drawing cancel); rounds interleave the two sides;
# it prints every round and the medians. node's compiler threads count in
# the wasm side's CPU time, so the ratio errs against wasm. NumPy's
# iteration (numpy_iteration.py --cpu, on the pinned export of the preset)
# is timed by its own process's CPU time beside them. With REV (a
# git revision) it also times that revision's code, for a before/after.
# The wasm side is built as the page's is, with the dpsimsimd tag, and
# runs with the SIMD module linked (wasm/simd/go_js_wasm_exec); the side
# "wasm-scalar" is the same code without the tag (the Go WebAssembly
# assembly alone), for the SIMD module's gain.
#
#   bench/dpp2/cputime.sh [ROUNDS [CASE [REV]]]   (defaults 3, rgg50)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
rounds=${1:-3}
case=${2:-rgg50}
rev=${3:-}
export PATH="$PATH:$(go env GOROOT)/lib/wasm"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sides=(native wasm wasm-scalar)
py=/usr/bin/python3
"$py" -c 'import numpy' 2>/dev/null || { echo "cputime.sh: NumPy missing for $py (apt-get install -y python3-numpy)" >&2; exit 1; }
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
if [[ -n $rev ]]; then
  mkdir "$tmp/old"
  git archive "$rev" | tar -x -C "$tmp/old"
  (cd "$tmp/old" && go test -c -o "$tmp/native-old.test" ./core/algorithms/dpp2 &&
    GOOS=js GOARCH=wasm go test -c -o "$tmp/wasm-old.test" ./core/algorithms/dpp2)   # untagged: a revision before the SIMD module runs as ever
  sides+=(native-old wasm-old)
fi
n=$([[ $case == rgg50 ]] && echo 4000 || echo 100000)
problem=$([[ $case == rgg50 ]] && echo classifier || echo quadratic)

cpu() { # cpu SIDE N -> CPU seconds
  local run=("$tmp/$1.test")
  [[ $1 == wasm* ]] && run=(go_js_wasm_exec "$tmp/$1.test")
  [[ $1 == wasm ]] && run=("$PWD/wasm/simd/go_js_wasm_exec" "$tmp/$1.test")
  (cd core/algorithms/dpp2 && /usr/bin/time -f '%U %S' -o "$tmp/t" "${run[@]}" -test.cpu 1 -test.run '^$' \
    -test.bench "Iteration/$case\$" -test.benchtime "$2x" >/dev/null)
  awk '{ print $1 + $2 }' "$tmp/t"
}
per() { # per SIDE -> µs per iteration
  local a z
  a=$(cpu "$1" 1)
  z=$(cpu "$1" "$n")
  awk -v a="$a" -v z="$z" -v n="$n" 'BEGIN { printf "%.2f", (z - a) / (n - 1) * 1e6 }'
}
printf '%-6s' round; printf ' %12s' "${sides[@]/%/_µs}" numpy_µs; printf ' %10s %10s\n' numpy/nat wasm/nat
lines=()
for r in $(seq "$rounds"); do
  vals=()
  for s in "${sides[@]}"; do vals+=("$(per "$s")"); done
  vals+=("$("$py" bench/dpp2/numpy_iteration.py "$tmp/export.json" --problem "$problem" --iters $((n / 8)) --cpu | awk '{print $2}')")
  line=$(printf '%-6s' "$r"; printf ' %12s' "${vals[@]}"; awk -v n="${vals[0]}" -v w="${vals[1]}" -v p="${vals[-1]}" 'BEGIN { printf " %10.2f %10.2f", p / n, w / n }')
  echo "$line"
  lines+=("$line")
done
printf '%s\n' "${lines[@]}" | awk -v c="$case" -v old="$rev" '{ for (i = 2; i <= NF; i++) v[i, NR] = $i; nf = NF }
  function med(i, k,   a, j, l, t) { for (j = 1; j <= k; j++) a[j] = v[i, j]
    for (j = 1; j <= k; j++) for (l = j + 1; l <= k; l++) if (a[l] < a[j]) { t = a[j]; a[j] = a[l]; a[l] = t }
    return (k % 2) ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2 }
  END { printf "median %s (CPU time): native %.2f µs, wasm %.2f µs (without SIMD %.2f µs), NumPy %.2f µs; NumPy/native %.2fx (target ≥ 3), wasm/native %.2fx (target ≤ 2.5)", c, med(2, NR), med(3, NR), med(4, NR), med(nf - 2, NR), med(nf - 1, NR), med(nf, NR)
        if (old != "") printf "; at %s: native %.2f µs, wasm %.2f µs", old, med(5, NR), med(6, NR)
        printf "\n" }'
