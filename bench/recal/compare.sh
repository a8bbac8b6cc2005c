#!/usr/bin/env bash
# compare.sh — Table IV's time column as a ratio: the time of one DP-RECAL
# iteration (one communication: the holder's gradient on its shard, the
# prox, the Gaussian noise, the walk) in dpsim natively and in the
# vectorised NumPy implementation of the same update (numpy_recal.py), on
# the paper's least squares over ijcnn1 (6,248 rows × 22 per agent) and
# MNIST 0 vs 1 (1,583 × 784 per agent), 8 agents on a ring; interleaved
# over several rounds, medians printed, in wall time and in CPU time (the
# process's user + system time per iteration on both sides: on a shared
# machine under load wall time swings by several times between runs,
# CPU time much less). Target: NumPy ÷ native ≥ 3.
#
#   bench/recal/compare.sh [ROUNDS]        (default 3)
#
# Then Table IV's baselines in dpsim alone (BenchmarkPerMessage: DP-RECAL,
# DP-ADMM [12], DP-EXTRA, DP-NIDS, DP-RWADMM through the runner, ε = 12):
# time per iteration, per message (wall and CPU), and per PLF 300 (Table
# IV's time, from CPU time: a
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

printf '%-6s %-9s %12s %12s %10s %12s %12s %10s\n' round dataset native_us numpy_us numpy/nat nat_cpu_us np_cpu_us cpu_ratio
lines=()
for r in $(seq "$rounds"); do
  nat=$(cd core/algorithms/recal && "$tmp/native.test" -test.cpu 1 -test.run '^$' -test.bench 'Iteration' -test.benchtime 2000x |
    awk '/^BenchmarkIteration\// { split($1, p, "/"); ns = ""; cpu = ""
      for (i = 2; i <= NF; i++) { if ($i == "ns/op") ns = $(i-1); if ($i == "cpu-ns/op") cpu = $(i-1) }
      print p[2], ns, cpu }')
  for ds in ijcnn1 mnist-01; do
    read -r _ n nc < <(grep "^$ds " <<<"$nat")
    iters=2000; [ "$ds" = mnist-01 ] && iters=500
    read -r _ p _ pc < <("$py" bench/recal/numpy_recal.py "core/data/files/$ds-train.gz" --iters $iters)
    line=$(awk -v n="$n" -v p="$p" -v nc="$nc" -v pc="$pc" -v r="$r" -v d="$ds" 'BEGIN {
      printf "%-6s %-9s %12.1f %12.1f %10.2f %12.1f %12.1f %10.2f", r, d, n/1e3, p, p*1000/n, nc/1e3, pc, pc*1000/nc }')
    echo "$line"
    lines+=("$line")
  done
done
for ds in ijcnn1 mnist-01; do
  printf '%s\n' "${lines[@]}" | awk -v d="$ds" '$2 == d { k++; n[k] = $3; p[k] = $4; a[k] = $5; nc[k] = $6; pc[k] = $7; c[k] = $8 }
    function med(x, k,   i, j, t) { for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
                                     return (k % 2) ? x[(k + 1) / 2] : (x[k / 2] + x[k / 2 + 1]) / 2 }
    END { printf "median %s: wall: dpsim %.1f µs, NumPy %.1f µs per communication, NumPy/dpsim %.2fx; CPU: dpsim %.1f µs, NumPy %.1f µs, NumPy/dpsim %.2fx (target ≥ 3)\n", d, med(n, k), med(p, k), med(a, k), med(nc, k), med(pc, k), med(c, k) }'
done

echo
echo "Table IV's baselines in dpsim (one round, 300 iterations each):"
(cd core/algorithms/recal && "$tmp/native.test" -test.cpu 1 -test.run '^$' -test.bench 'PerMessage' -test.benchtime 300x) |
  awk '/^BenchmarkPerMessage\// { split($1, p, "/"); ns = ""; nm = ""; cpu = ""
      for (i = 2; i <= NF; i++) { if ($i == "ns/op") ns = $(i-1); if ($i == "ns/message") nm = $(i-1); if ($i == "cpu-ns/op") cpu = $(i-1) }
      key = p[2] "/" p[3]; it = (p[3] == "dp-recal" || p[3] == "dp-rwadmm") ? 2230 : 300
      plf[key] = cpu * it; msg[key] = nm; cmsg[key] = cpu * nm / ns; op[key] = ns; cop[key] = cpu; keys[++k] = key }
    END { printf "%-24s %10s %10s %12s %12s %14s %12s\n", "dataset/algorithm", "us/iter", "cpu_us/it", "us/message", "cpu_us/msg", "cpu s/PLF 300", "÷ DP-RECAL"
      for (i = 1; i <= k; i++) { key = keys[i]; split(key, q, "/"); ref = plf[q[1] "/dp-recal"]
        printf "%-24s %10.1f %10.1f %12.1f %12.1f %14.3f %12.2f\n", key, op[key]/1e3, cop[key]/1e3, msg[key]/1e3, cmsg[key]/1e3, plf[key]/1e9, plf[key]/ref } }'
