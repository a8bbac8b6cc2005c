#!/usr/bin/env bash
# compare.sh — the DP-DGT paper's Fig. 4 sweep (11 values of θ_0 × 2000
# runs × 1500 iterations on the IEEE 14-bus dispatch): `dpsim sweep` on 2
# workers against the vectorised NumPy reference (numpy_fig4.py, batched
# over the runs), interleaved over several rounds on the same machine;
# prints every round, both implementations' E‖w_K − w*‖² per θ_0, and the
# median ratio of wall times (target: NumPy/dpsim ≥ 3).
#
#   bench/dpdgt/compare.sh [ROUNDS]        (default 3)
#
# Needs go and /usr/bin/python3 with NumPy (Debian: apt-get install -y
# python3-numpy). Other processes on the machine slow both sides; the
# rounds interleave them so that both see the same load.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
rounds=${1:-3}
workers=${WORKERS:-2}
py=/usr/bin/python3
"$py" -c 'import numpy' 2>/dev/null || { echo "compare.sh: NumPy missing for $py (apt-get install -y python3-numpy)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/dpsim" ./cmd/dpsim
# The run export pins the problem (R and C as entries, generators,
# demands), so NumPy runs exactly dpsim's instance.
"$tmp/dpsim" run --quiet --out "$tmp/export.json" preset:dpdgt-ieee14

now() { date +%s.%N; }
printf '%-6s %12s %12s %10s\n' round dpsim_s numpy_s numpy/dpsim
ratios=()
for r in $(seq "$rounds"); do
  t0=$(now)
  "$tmp/dpsim" sweep --quiet --workers "$workers" --out "$tmp/fig4.json" preset:dpdgt-fig4
  t1=$(now)
  "$py" bench/dpdgt/numpy_fig4.py "$tmp/export.json" --runs 2000 --iters 1500 --seed "$r" > "$tmp/numpy.txt"
  t2=$(now)
  line=$(awk -v a="$t0" -v b="$t1" -v c="$t2" -v r="$r" 'BEGIN { d = b - a; n = c - b; printf "%-6s %12.2f %12.2f %10.2f", r, d, n, n / d }')
  echo "$line"
  ratios+=("$line")
done
echo
echo "E‖w_K − w*‖² per θ_0 (last round): dpsim (mean ± s.e.) | NumPy (mean ± s.e.)"
"$py" - "$tmp/fig4.json" "$tmp/numpy.txt" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
np_rows = [l.split() for l in open(sys.argv[2]) if l.startswith("theta")]
for p, row in zip(d["series"][0]["points"], np_rows):
    m = p["metrics"]["allocation_error"]
    print("θ_0 = %-5g  %9.4g ± %-8.2g | %9.4g ± %.2g" % (p["x"], m["mean"], m["se"] or 0, float(row[3]), float(row[5])))
PY
printf '%s\n' "${ratios[@]}" | awk '{ a[NR] = $4; d[NR] = $2; n[NR] = $3 }
  function med(x, k,   i, j, t) { for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
                                   return (k % 2) ? x[(k + 1) / 2] : (x[k / 2] + x[k / 2 + 1]) / 2 }
  END { printf "median: dpsim sweep %.2f s, NumPy %.2f s, NumPy/dpsim %.2fx (target ≥ 3)\n", med(d, NR), med(n, NR), med(a, NR) }'
