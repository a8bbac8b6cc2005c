#!/usr/bin/env bash
# bench/sweep/run.sh — the sweep engine's two speed figures:
#
#   1. overhead: time per iteration of a run through the engine (scenario
#      build, runner, metrics, privacy ledger, reduction) against the bare
#      algorithm (Advance only), on the GT-DP presets' ring of 8 and on
#      core/algorithms/gtdp's BenchmarkIteration network (50 agents, dimension 10);
#      the issue's bound is ≤ 1.2;
#   2. scaling: the same 64 runs on one and on two workers; the issue asks
#      ≥ 1.8× on a quiet 2-core machine.
#
#   bench/sweep/run.sh            COUNT=5 repetitions, medians printed
#
# Timings are wall-clock: run it when the machine is quiet (the load
# average is printed first).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
COUNT=${COUNT:-5}
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)   cores: $(nproc)"
out=$(go test ./core/experiment -run '^$' -bench 'Overhead|Workers' -benchtime 40x -count "$COUNT" 2>&1) || { echo "$out"; exit 1; }
echo "$out" | awk '
  function median(key,   n, i, j, t, a) {
    n = split(vals[key], a, " ")
    for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
    return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
  }
  /^BenchmarkOverhead/ {
    name = $1; sub(/-[0-9]+$/, "", name); sub(/^BenchmarkOverhead\//, "", name)
    for (i = 2; i <= NF; i++) {
      if ($i == "bare-ns/iter") vals[name " bare"] = vals[name " bare"] " " $(i-1)
      if ($i == "sweep-ns/iter") vals[name " sweep"] = vals[name " sweep"] " " $(i-1)
      if ($i == "sweep/bare") vals[name " ratio"] = vals[name " ratio"] " " $(i-1)
    }
    cases[name] = 1
  }
  /^BenchmarkWorkers/ {
    w = $1; sub(/.*workers=/, "", w); sub(/-[0-9]+$/, "", w)
    for (i = 2; i <= NF; i++) if ($i == "ns/op") vals["w" w] = vals["w" w] " " $(i-1)
  }
  END {
    for (c in cases)
      printf "overhead %-10s bare %8.0f ns/iter   sweep %8.0f ns/iter   sweep/bare %.3f (median of %d)\n",
        c, median(c " bare"), median(c " sweep"), median(c " ratio"), split(vals[c " ratio"], x, " ")
    w1 = median("w1"); w2 = median("w2")
    printf "workers  1: %.3f s   2: %.3f s   speed-up %.2fx (64 runs of 1000 iterations, median of %d)\n",
      w1 / 1e9, w2 / 1e9, w1 / w2, split(vals["w1"], x, " ")
  }'
