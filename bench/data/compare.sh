#!/usr/bin/env bash
# compare.sh — one full gradient of logistic regression with ℓ2 over a
# whole training split (ijcnn1: 49,990 × 22 float32; MNIST 0 vs 1:
# 12,665 × 784 pixels), one agent: dpsim natively, dpsim under js/wasm
# (node), and the vectorised NumPy reference reading the same committed
# core/data files, interleaved over several rounds; prints every round,
# checks that both sides agree on ‖∇f(x)‖, and prints the median ratios.
#
#   bench/data/compare.sh [ROUNDS]        (default 5)
#
# Needs go, node, and /usr/bin/python3 with NumPy (Debian: apt-get install
# -y python3-numpy). NumPy runs on one BLAS thread (as dpsim's gradient is
# one goroutine), on OpenBLAS (what its wheels bundle: the default column)
# and on the reference BLAS, each chosen for its process only (bench/blas.sh). The targets: native ≥ NumPy's
# speed, wasm ≤ 2.5× native (docs/performance.md).
#
# The wasm side is built as the page's is, with the dpsimsimd tag, and
# runs with the SIMD module linked (wasm/simd/go_js_wasm_exec); the
# column wasm-scalar is the same code without the tag (Go's WebAssembly
# alone, dense rows read in place), for the module's share.
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
go test -c -o "$tmp/native.test" ./core/problems/logistic
GOOS=js GOARCH=wasm go test -tags dpsimsimd -c -o "$tmp/wasm.test" ./core/problems/logistic
GOOS=js GOARCH=wasm go test -c -o "$tmp/wasm-scalar.test" ./core/problems/logistic
go run ./wasm/simd/gen -o "$tmp/simd.wasm"
export DPSIM_SIMD_WASM=$tmp/simd.wasm DPSIM_GOROOT="$(go env GOROOT)"

# Time-based (b.N grows until a run lasts 1 s), so both sides are warm.
bench() { # prints "<name> <ns/op> <gradnorm>" for each dataset
  (cd core/problems/logistic && "$@" -test.cpu 1 -test.run '^$' -test.bench 'FullGrad' -test.benchtime 1s) |
    awk '/^BenchmarkFullGrad\// { split($1, p, "/"); ns = ""; gn = ""
      for (i = 2; i <= NF; i++) { if ($i == "ns/op") ns = $(i-1); if ($i == "gradnorm") gn = $(i-1) }
      print p[2], ns, gn }'
}
printf '%-6s %-9s %-9s %12s %12s %12s %10s %10s %15s\n' round dataset numpy native_ms wasm_ms numpy_ms numpy/nat wasm/nat wasm-scalar_ms
lines=()
for r in $(seq "$rounds"); do
  nat=$(bench "$tmp/native.test")
  wasm=$(bench "$PWD/wasm/simd/go_js_wasm_exec" "$tmp/wasm.test")
  scalar=$(bench go_js_wasm_exec "$tmp/wasm-scalar.test")
  for ds in ijcnn1 mnist-01; do
    read -r _ n gn < <(grep "^$ds " <<<"$nat")
    read -r _ w wgn < <(grep "^$ds " <<<"$wasm")
    read -r _ sc _ < <(grep "^$ds " <<<"$scalar")
    [[ $wgn == "$gn" ]] || { echo "compare.sh: $ds: ‖∇f‖ $gn natively, $wgn under js/wasm" >&2; exit 1; }
    for b in "${BLASES[@]}"; do
      read -r _ p pgn < <(blas_run "$b" "$py" bench/data/numpy_grad.py "core/data/files/$ds-train.gz")
      # The benchmark reports ‖g‖ to 4 significant digits: agree to that.
      awk -v a="$gn" -v b="$pgn" -v d="$ds" 'BEGIN { if ((a - b)^2 > (1e-3 * b)^2) { printf "compare.sh: %s: ‖∇f‖ %s (dpsim) vs %s (NumPy)\n", d, a, b > "/dev/stderr"; exit 1 } }'
      line=$(awk -v n="$n" -v w="$w" -v p="$p" -v sc="$sc" -v r="$r" -v d="$ds" -v b="$b" 'BEGIN {
        printf "%-6s %-9s %-9s %12.3f %12.3f %12.3f %10.2f %10.2f %15.3f", r, d, b, n/1e6, w/1e6, p/1e3, p*1000/n, w/n, sc/1e6 }')
      echo "$line"
      lines+=("$line")
    done
  done
done
for ds in ijcnn1 mnist-01; do for bl in "${BLASES[@]}"; do
  printf '%s\n' "${lines[@]}" | awk -v d="$ds" -v bl="$bl" "$MEDIAN"'
    $2 == d && $3 == bl { k++; n[k] = $4; w[k] = $5; p[k] = $6; a[k] = $7; b[k] = $8; s[k] = $9 }
    END { printf "median %s, NumPy on %s: native %.3f ms, wasm %.3f ms (without SIMD %.3f ms), NumPy %.3f ms; NumPy/native %.2fx (target ≥ 1), wasm/native %.2fx (target ≤ 2)\n", d, bl, med(n, k), med(w, k), med(s, k), med(p, k), med(a, k), med(b, k) }'
done; done
