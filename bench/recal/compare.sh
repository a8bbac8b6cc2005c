#!/usr/bin/env bash
# compare.sh — Table IV's time column as a ratio: the time of one DP-RECAL
# iteration (one communication: the holder's gradient on its shard, the
# prox, the Gaussian noise, the walk) in dpsim natively and in the
# vectorised NumPy implementation of the same update (numpy_recal.py), on
# the paper's least squares over ijcnn1 (6,248 rows × 22 per agent) and
# MNIST 0 vs 1 (1,583 × 784 per agent), 8 agents on a ring; interleaved
# over several rounds, medians printed. Target: NumPy ÷ native ≥ 3.
#
#   bench/recal/compare.sh [ROUNDS]        (default 3)
#
# Then Table IV's baselines in dpsim alone (BenchmarkPerMessage: DP-RECAL,
# DP-ADMM [12], DP-EXTRA, DP-NIDS, DP-RWADMM through the runner, ε = 12):
# time per iteration, per message, and per PLF 300 (Table IV's time: a
# synchronous method reaches PLF 300 in 300 iterations, the baton in
# about 2,230 on the ring of 8), each as a ratio to DP-RECAL's.
#
# Needs go and /usr/bin/python3 with NumPy; NumPy on one BLAS thread, as
# dpsim's iteration is one goroutine.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
rounds=${1:-3}
py=/usr/bin/python3
"$py" -c 'import numpy' 2>/dev/null || { echo "compare.sh: NumPy missing for $py (apt-get install -y python3-numpy)" >&2; exit 1; }
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/native.test" ./core/algorithms/recal

printf '%-6s %-9s %12s %12s %10s\n' round dataset native_us numpy_us numpy/nat
lines=()
for r in $(seq "$rounds"); do
  nat=$(cd core/algorithms/recal && "$tmp/native.test" -test.cpu 1 -test.run '^$' -test.bench 'Iteration' -test.benchtime 2000x |
    awk '/^BenchmarkIteration\// { split($1, p, "/"); for (i = 2; i <= NF; i++) if ($i == "ns/op") print p[2], $(i-1) }')
  for ds in ijcnn1 mnist-01; do
    read -r _ n < <(grep "^$ds " <<<"$nat")
    iters=2000; [ "$ds" = mnist-01 ] && iters=500
    read -r _ p _ < <("$py" bench/recal/numpy_recal.py "core/data/files/$ds-train.gz" --iters $iters)
    line=$(awk -v n="$n" -v p="$p" -v r="$r" -v d="$ds" 'BEGIN { printf "%-6s %-9s %12.1f %12.1f %10.2f", r, d, n/1e3, p, p*1000/n }')
    echo "$line"
    lines+=("$line")
  done
done
for ds in ijcnn1 mnist-01; do
  printf '%s\n' "${lines[@]}" | awk -v d="$ds" '$2 == d { k++; n[k] = $3; p[k] = $4; a[k] = $5 }
    function med(x, k,   i, j, t) { for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
                                     return (k % 2) ? x[(k + 1) / 2] : (x[k / 2] + x[k / 2 + 1]) / 2 }
    END { printf "median %s: dpsim %.1f µs, NumPy %.1f µs per communication; NumPy/dpsim %.2fx (target ≥ 3)\n", d, med(n, k), med(p, k), med(a, k) }'
done

echo
echo "Table IV's baselines in dpsim (one round, 300 iterations each):"
(cd core/algorithms/recal && "$tmp/native.test" -test.cpu 1 -test.run '^$' -test.bench 'PerMessage' -test.benchtime 300x) |
  awk '/^BenchmarkPerMessage\// { split($1, p, "/"); ns = ""; nm = ""
      for (i = 2; i <= NF; i++) { if ($i == "ns/op") ns = $(i-1); if ($i == "ns/message") nm = $(i-1) }
      it = (p[3] == "dp-recal" || p[3] == "dp-rwadmm") ? 2230 : 300
      plf[p[2] "/" p[3]] = ns * it; msg[p[2] "/" p[3]] = nm; op[p[2] "/" p[3]] = ns; keys[++k] = p[2] "/" p[3] }
    END { printf "%-24s %12s %14s %14s %12s\n", "dataset/algorithm", "us/iter", "us/message", "s to PLF 300", "÷ DP-RECAL"
      for (i = 1; i <= k; i++) { key = keys[i]; split(key, q, "/"); ref = plf[q[1] "/dp-recal"]
        printf "%-24s %12.1f %14.1f %14.3f %12.2f\n", key, op[key]/1e3, msg[key]/1e3, plf[key]/1e9, plf[key]/ref } }'
