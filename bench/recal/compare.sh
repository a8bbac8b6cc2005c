#!/usr/bin/env bash
# compare.sh — Table IV's time column as a ratio: the time per
# communication of DP-RECAL, noise-free RECAL and each DP baseline of the
# paper's Table IV (DP-ADMM [12], DP-EXTRA, DP-NIDS, DP-RWADMM, and
# DP-MRADMM) in dpsim natively and in a vectorised NumPy implementation of
# the same update (numpy_bench.py), on the paper's least squares with
# r = 0.01‖x‖₁ + ½‖x‖² over ijcnn1 (49,990 rows × 22) and MNIST 0 vs 1
# (12,665 × 784), 8 agents on a ring, Metropolis weights, ε = 12 at PLF 300.
# DP-MRADMM refuses a nonsmooth r (as the paper says): it runs the same
# least squares with ½‖x‖² inside every f_i and no ℓ1 term (Table IV's
# r = 0 rows); its odd iterations solve exactly, tens of gradients per
# agent, so its check runs 20 iterations.
#
#   bench/recal/compare.sh [ROUNDS [BASE]]   (ROUNDS default 3)
#
# BASE, a git revision, times dpsim at that revision too (built from
# git archive in a temporary directory), in the same interleaved
# rounds: a before-and-after of a change under the same load, printed as
# extra columns (base_cpu, its CPU ratio to NumPy, and after ÷ before).
#
# First a check that NumPy runs dpsim's update: both run every algorithm
# without noise for 200 iterations (the walks on dpsim's holders) and every
# state variable must agree to 1e-10 relative; the timing stops otherwise.
# NumPy reads every parameter dpsim resolved (steps, penalty, weights,
# shard bounds, L, σ_1) from TestNumPyExport's files.
#
# A communication is one message sent: a walk (DP-RECAL, RECAL,
# DP-RWADMM) sends 1 per iteration, a synchronous method one per directed
# edge, 2|E| = 16 on the ring of 8; both sides' time per iteration is
# divided by the same count (numpy_bench.py's last column; dpsim's own
# message counter is printed beside it). Interleaved rounds (dpsim, then
# NumPy, per round), medians printed, in wall time and in CPU time (the
# process's user + system time on both sides: on a shared machine under
# load wall time swings by several times between runs, CPU time much
# less). Target: NumPy ÷ dpsim ≥ 3 in CPU time.
#
# NumPy runs on one BLAS thread (dpsim's iteration is one goroutine), on
# OpenBLAS (what NumPy's own wheels bundle: a competent user's NumPy; the
# default column) and on Debian's reference BLAS, each chosen for its process
# only (bench/blas.sh); the system's choice of BLAS is left alone.
#
# Last, DP-RECAL's wasm ÷ native (target ≤ 2): its time per
# communication on both sets under js/wasm in node, built as the page's
# and the Workers' code is (the dpsimsimd tag, the SIMD module linked by
# wasm/simd/go_js_wasm_exec), against the native wall time of the same
# round; wall time on both sides (node reports no CPU time to Go), each
# wasm run time-based (-benchtime 1s) so that V8 has tiered the kernels
# up (docs/performance.md, "Measuring wasm warm").
#
# Needs go, node and /usr/bin/python3 with NumPy.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
rounds=${1:-3}
base=${2:-}
py=/usr/bin/python3
"$py" -c 'import numpy' 2>/dev/null || { echo "compare.sh: NumPy missing for $py (apt-get install -y python3-numpy)" >&2; exit 1; }
source bench/blas.sh
blas_setup
for b in "${BLASES[@]}"; do blas_check "$b" "$py"; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/native.test" ./core/algorithms/recal
GOOS=js GOARCH=wasm go test -tags dpsimsimd -c -o "$tmp/wasm.test" ./core/algorithms/recal
go run ./wasm/simd/gen -o "$tmp/simd.wasm"
export DPSIM_SIMD_WASM=$tmp/simd.wasm
if [ -n "$base" ]; then
  mkdir "$tmp/base"
  git archive "$base" | tar -x -C "$tmp/base"
  (cd "$tmp/base" && go test -c -o "$tmp/base.test" ./core/algorithms/recal)
fi
numpy() { # numpy BLAS ARGS…
  local b=$1; shift
  blas_run "$b" "$py" bench/recal/numpy_bench.py "$@"
}

mkdir "$tmp/x"
(cd core/algorithms/recal && "$tmp/native.test" -test.run '^TestNumPyExport$' -numpy.out "$tmp/x" -numpy.iters 200 >/dev/null)
echo "check: 200 noise-free iterations (DP-MRADMM 20), NumPy against dpsim (tolerance 1e-10 relative):"
for b in "${BLASES[@]}"; do
  for ds in ijcnn1 mnist-01; do
    numpy "$b" "$tmp/x" "$ds" --check | sed "s/^/  $b: /"
  done
done

# dpsim: the runner over a fixed number of iterations per dataset and kind
# of algorithm (about a second each).
native() { # native DATASET REGEXP ITERATIONS [BINARY]
  (cd core/algorithms/recal && "${4:-$tmp/native.test}" -test.cpu 1 -test.run '^$' -test.bench "^BenchmarkPerMessage/$1/($2)\$" -test.benchtime "$3x") |
    awk '/^BenchmarkPerMessage\// { split($1, p, "/"); ns = ""; cpu = ""; mo = ""
      for (i = 2; i <= NF; i++) { if ($i == "ns/op") ns = $(i-1); if ($i == "cpu-ns/op") cpu = $(i-1); if ($i == "messages/op") mo = $(i-1) }
      sub(/-[0-9]+$/, "", p[3]); print p[2], p[3], ns, cpu, mo }'
}
walks='dp-recal|recal|dp-rwadmm'
sync='dp-admm|dp-extra|dp-nids'
echo
printf '%-5s %-8s %-9s %-8s %9s %9s %9s %9s %8s %8s %6s %6s%s\n' round dataset algorithm numpy \
  nat_us nat_cpu np_us np_cpu ratio cpu_ratio msgs nat_msg "${base:+  base_cpu base_cpur after/base}"
lines=()
wlines=()
natall() { # natall [BINARY]: every dataset and algorithm
  native ijcnn1 "$walks" 20000 "$@"; native ijcnn1 "$sync" 2500 "$@"; native ijcnn1 dp-mradmm 100 "$@"
  native mnist-01 "$walks" 3000 "$@"; native mnist-01 "$sync" 400 "$@"; native mnist-01 dp-mradmm 8 "$@"
}
for r in $(seq "$rounds"); do
  natb=""
  if [ -n "$base" ]; then natb=$(natall "$tmp/base.test"); fi
  nat=$(natall)
  wasm=$(cd core/algorithms/recal && ../../../wasm/simd/go_js_wasm_exec "$tmp/wasm.test" -test.cpu 1 -test.run '^$' \
    -test.bench '^BenchmarkPerMessage/(ijcnn1|mnist-01)/dp-recal$' -test.benchtime 1s |
    awk '/^BenchmarkPerMessage\// { split($1, p, "/"); print p[2], $3 }')
  while read -r ds ww; do
    read -r _ _ nw _ _ < <(awk -v d="$ds" '$1 == d && $2 == "dp-recal"' <<<"$nat")
    wlines+=("$(awk -v r="$r" -v d="$ds" -v ww="$ww" -v nw="$nw" 'BEGIN { printf "%-5s %-8s %9.2f %9.2f %8.2f", r, d, nw/1e3, ww/1e3, ww/nw }')")
  done <<<"$wasm"
  for b in "${BLASES[@]}"; do
    for ds in ijcnn1 mnist-01; do
      while read -r alg pw pc _ msgs; do
        read -r _ _ nw nc nm < <(awk -v d="$ds" -v a="$alg" '$1 == d && $2 == a' <<<"$nat")
        bc=0
        if [ -n "$base" ]; then read -r _ _ _ bc _ < <(awk -v d="$ds" -v a="$alg" '$1 == d && $2 == a' <<<"$natb"); fi
        line=$(awk -v r="$r" -v d="$ds" -v a="$alg" -v b="$b" -v nw="$nw" -v nc="$nc" -v pw="$pw" -v pc="$pc" -v m="$msgs" -v nm="$nm" -v bc="$bc" 'BEGIN {
          printf "%-5s %-8s %-9s %-8s %9.2f %9.2f %9.2f %9.2f %8.2f %8.2f %6d %6.2f", r, d, a, b, nw/1e3/m, nc/1e3/m, pw/m, pc/m, pw*1e3/nw, pc*1e3/nc, m, nm
          if (bc > 0) printf " %9.2f %8.2f %6.2f", bc/1e3/m, pc*1e3/bc, nc/bc }')
        echo "$line"
        lines+=("$line")
      done < <(numpy "$b" "$tmp/x" "$ds" --seconds 1)
    done
  done
done
echo
echo "medians over $rounds rounds, µs per communication (a message; 16 per synchronous iteration, 1 per walk step):"
printf '%-8s %-9s %-8s %9s %9s %9s %9s %11s %11s%s\n' dataset algorithm numpy dpsim dpsim_cpu numpy numpy_cpu "NumPy/dpsim" "CPU ratio" \
  "${base:+ $(printf '%10s %10s %10s' base_cpu 'base ratio' after/base)}"
printf '%s\n' "${lines[@]}" | awk '{ key = $2 " " $3 " " $4; if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
    k = ++cnt[key]; for (c = 5; c <= 15; c++) v[key, c, k] = $c }
  function med(key, c,   i, j, t, k, x) { k = cnt[key]; for (i = 1; i <= k; i++) x[i] = v[key, c, i]
    for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
    return (k % 2) ? x[(k + 1) / 2] : (x[k / 2] + x[k / 2 + 1]) / 2 }
  END { for (i = 1; i <= nk; i++) { key = keys[i]; split(key, q, " ")
      printf "%-8s %-9s %-8s %9.2f %9.2f %9.2f %9.2f %10.2fx %10.2fx", q[1], q[2], q[3], med(key, 5), med(key, 6), med(key, 7), med(key, 8), med(key, 9), med(key, 10)
      if (v[key, 13, 1] != "") printf " %10.2f %9.2fx %9.2fx", med(key, 13), med(key, 14), med(key, 15)
      printf " (target ≥ 3)\n" } }'
echo
echo "DP-RECAL under js/wasm (dpsimsimd, SIMD module linked) against native, wall µs per communication:"
printf '%-5s %-8s %9s %9s %8s\n' round dataset native wasm wasm/nat
printf '%s\n' "${wlines[@]}"
printf '%s\n' "${wlines[@]}" | awk '{ if (!($2 in seen)) { seen[$2] = 1; keys[++nk] = $2 }; k = ++cnt[$2]; for (c = 3; c <= 5; c++) v[$2, c, k] = $c }
  function med(key, c,   i, j, t, k, x) { k = cnt[key]; for (i = 1; i <= k; i++) x[i] = v[key, c, i]
    for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
    return (k % 2) ? x[(k + 1) / 2] : (x[k / 2] + x[k / 2 + 1]) / 2 }
  END { for (i = 1; i <= nk; i++) printf "median %-8s %9.2f %9.2f %7.2fx (target ≤ 2)\n", keys[i], med(keys[i], 3), med(keys[i], 4), med(keys[i], 5) }'
