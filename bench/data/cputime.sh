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
# errs against wasm.
#
#   bench/data/cputime.sh [ROUNDS]        (default 3)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
rounds=${1:-3}
export PATH="$PATH:$(go env GOROOT)/lib/wasm"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/native.test" ./core/problems/logistic
GOOS=js GOARCH=wasm go test -c -o "$tmp/wasm.test" ./core/problems/logistic

cpu() { # cpu native|wasm DATASET N -> CPU seconds
  local run=("$tmp/$1.test")
  [[ $1 == wasm ]] && run=(go_js_wasm_exec "$tmp/wasm.test")
  (cd core/problems/logistic && /usr/bin/time -f '%U %S' -o "$tmp/t" "${run[@]}" -test.cpu 1 -test.run '^$' \
    -test.bench "FullGrad/$2\$" -test.benchtime "$3x" >/dev/null)
  awk '{ print $1 + $2 }' "$tmp/t"
}
per() { # per native|wasm DATASET N -> ms per gradient
  local a z
  a=$(cpu "$1" "$2" 1)
  z=$(cpu "$1" "$2" "$3")
  awk -v a="$a" -v z="$z" -v n="$3" 'BEGIN { printf "%.3f", (z - a) / (n - 1) * 1000 }'
}
printf '%-6s %-9s %12s %12s %10s\n' round dataset native_ms wasm_ms wasm/nat
lines=()
for r in $(seq "$rounds"); do
  for ds in ijcnn1:1500 mnist-01:150; do
    n=$(per native "${ds%:*}" "${ds#*:}")
    w=$(per wasm "${ds%:*}" "${ds#*:}")
    line=$(awk -v r="$r" -v d="${ds%:*}" -v n="$n" -v w="$w" 'BEGIN { printf "%-6s %-9s %12.3f %12.3f %10.2f", r, d, n, w, w / n }')
    echo "$line"
    lines+=("$line")
  done
done
for ds in ijcnn1 mnist-01; do
  printf '%s\n' "${lines[@]}" | awk -v d="$ds" '$2 == d { k++; n[k] = $3; w[k] = $4; b[k] = $5 }
    function med(x, k,   i, j, t) { for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
                                     return (k % 2) ? x[(k + 1) / 2] : (x[k / 2] + x[k / 2 + 1]) / 2 }
    END { printf "median %s (CPU time): native %.3f ms, wasm %.3f ms; wasm/native %.2fx (target ≤ 2.5)\n", d, med(n, k), med(w, k), med(b, k) }'
done
