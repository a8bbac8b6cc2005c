#!/usr/bin/env bash
# bench/audit/run.sh — the audit's cost: RUNS audit runs (half on D, half
# on its neighbour) of the 50-agent, 500-iteration GT-DP scenario of
# bench/gtdp/rgg50.json against a sweep of as many runs of the same
# scenario without the audit, whole commands (dpsim audit, dpsim sweep),
# run in turn COUNT times each; it prints each command's median wall and
# CPU (user + system) seconds and the ratio audit/sweep of the medians.
# The issue's goal is a ratio ≤ 1.2 at RUNS = 10⁴.
#
#   bench/audit/run.sh              RUNS=10000 COUNT=3 WORKERS=every core
#
# Timings are whole processes (/usr/bin/time): run it when the machine is
# quiet (the load average is printed first).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
RUNS=${RUNS:-10000}
COUNT=${COUNT:-3}
WORKERS=${WORKERS:-$(nproc)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/dpsim" ./cmd/dpsim
base=$(tr -d '\n' < bench/gtdp/rgg50.json)
cat > "$tmp/audit.json" <<JSON
{"format": "dpsim-experiment/1", "name": "bench-audit", "title": "audit of GT-DP, 50 agents, 500 iterations",
 "base": {"scenario": $base}, "set": {"iterations": 500, "record.every": 500},
 "audit": {}, "runs": $((RUNS / 2)), "seed": 1}
JSON
cat > "$tmp/sweep.json" <<JSON
{"format": "dpsim-experiment/1", "name": "bench-sweep", "title": "sweep of GT-DP, 50 agents, 500 iterations",
 "base": {"scenario": $base}, "set": {"iterations": 500, "record.every": 500},
 "series": [{"name": "D", "sweep": {"fields": [], "values": [0]}}],
 "x": {"kind": "field", "label": "data set"}, "runs": $RUNS, "seed": 1,
 "metrics": [{"name": "optimality"}], "statistic": "mean",
 "figure": {"title": "sweep", "y": {"metric": "optimality", "label": "optimality error"}}}
JSON
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)   cores: $(nproc)   runs: $RUNS   workers: $WORKERS"
for i in $(seq "$COUNT"); do
  for cmd in audit sweep; do
    /usr/bin/time -f "$cmd %e %U %S" -a -o "$tmp/times" \
      "$tmp/dpsim" "$cmd" --quiet --workers "$WORKERS" --out "$tmp/out-$cmd.json" "$tmp/$cmd.json"
  done
done
awk '
  function median(s,   n, a, i, j, t) {
    n = split(s, a, " ")
    for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
    return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
  }
  { wall[$1] = wall[$1] " " $2; cpu[$1] = cpu[$1] " " ($3 + $4) }
  END {
    for (c in wall) printf "%-5s wall %8.2f s   cpu %8.2f s   (median of %d)\n", c, median(wall[c]), median(cpu[c]), split(wall[c], x, " ")
    printf "audit/sweep: wall %.3f   cpu %.3f\n", median(wall["audit"]) / median(wall["sweep"]), median(cpu["audit"]) / median(cpu["sweep"])
  }' "$tmp/times"
