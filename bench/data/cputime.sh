#!/usr/bin/env bash
# cputime.sh — the wasm ÷ native ratio of bench/data/compare.sh measured
# in CPU time rather than wall time: on a shared machine under load, wall
# time swings by 2–4× between rounds while the CPU time a process spends
# does not. For each dataset it runs BenchmarkFullGrad (core/problems/
# logistic) for exactly N iterations and for 1, natively and under js/wasm
# in node, under /usr/bin/time, and takes (CPU(N) − CPU(1)) / (N − 1) per
# gradient (user + system, so the start-up and the data decoding cancel);
# rounds interleave the two sides; it prints every round and the medians.
# node's compiler threads count in the wasm side's CPU time, so the ratio
# errs against wasm. The wasm side is built as the page's is, with the
# dpsimsimd tag, and runs with the SIMD module linked (wasm/simd/
# go_js_wasm_exec); wasm-scalar is the same code without the tag.
#
#   bench/data/cputime.sh [ROUNDS]        (default 3)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
rounds=${1:-3}
export PATH="$PATH:$(go env GOROOT)/lib/wasm"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/native.test" ./core/problems/logistic
GOOS=js GOARCH=wasm go test -tags dpsimsimd -c -o "$tmp/wasm.test" ./core/problems/logistic
GOOS=js GOARCH=wasm go test -c -o "$tmp/wasm-scalar.test" ./core/problems/logistic
go run ./wasm/simd/gen -o "$tmp/simd.wasm"
export DPSIM_SIMD_WASM=$tmp/simd.wasm DPSIM_GOROOT="$(go env GOROOT)"

cpu() { # cpu native|wasm|wasm-scalar DATASET N -> CPU seconds
  local run=("$tmp/$1.test")
  [[ $1 == wasm-scalar ]] && run=(go_js_wasm_exec "$tmp/$1.test")
  [[ $1 == wasm ]] && run=("$PWD/wasm/simd/go_js_wasm_exec" "$tmp/$1.test")
  (cd core/problems/logistic && /usr/bin/time -f '%U %S' -o "$tmp/t" "${run[@]}" -test.cpu 1 -test.run '^$' \
    -test.bench "FullGrad/$2\$" -test.benchtime "$3x" >/dev/null)
  awk '{ print $1 + $2 }' "$tmp/t"
}
per() { # per native|wasm|wasm-scalar DATASET N -> ms per gradient
  local a z
  a=$(cpu "$1" "$2" 1)
  z=$(cpu "$1" "$2" "$3")
  awk -v a="$a" -v z="$z" -v n="$3" 'BEGIN { printf "%.3f", (z - a) / (n - 1) * 1000 }'
}
printf '%-6s %-9s %12s %12s %10s %15s\n' round dataset native_ms wasm_ms wasm/nat wasm-scalar_ms
lines=()
for r in $(seq "$rounds"); do
  for ds in ijcnn1:1500 mnist-01:150; do
    n=$(per native "${ds%:*}" "${ds#*:}")
    w=$(per wasm "${ds%:*}" "${ds#*:}")
    sc=$(per wasm-scalar "${ds%:*}" "${ds#*:}")
    line=$(awk -v r="$r" -v d="${ds%:*}" -v n="$n" -v w="$w" -v sc="$sc" 'BEGIN { printf "%-6s %-9s %12.3f %12.3f %10.2f %15.3f", r, d, n, w, w / n, sc }')
    echo "$line"
    lines+=("$line")
  done
done
for ds in ijcnn1 mnist-01; do
  printf '%s\n' "${lines[@]}" | awk -v d="$ds" '$2 == d { k++; n[k] = $3; w[k] = $4; b[k] = $5; s[k] = $6 }
    function med(x, k,   i, j, t) { for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
                                     return (k % 2) ? x[(k + 1) / 2] : (x[k / 2] + x[k / 2 + 1]) / 2 }
    END { printf "median %s (CPU time): native %.3f ms, wasm %.3f ms (without SIMD %.3f ms); wasm/native %.2fx (target ≤ 2.5)\n", d, med(n, k), med(w, k), med(s, k), med(b, k) }'
done
