#!/usr/bin/env bash
# Replays dpsim's exports without dpsim (issue 30): for each paper, runs
# the scenario beside its script twice — as given (noisy, the noise from
# the export's recorded draws) and with every noise scale 0 (noise-free) —
# and the independent NumPy script, which must reach every checkpoint of
# the export to 1e-9. Needs python3 with NumPy (test.sh installs
# python3-numpy with apt when missing).
#   examples/replay/check.sh [DPSIM]   (DPSIM: a built dpsim; default: go run)
set -euo pipefail
cd "$(dirname "$0")"
dpsim=${1:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [[ -z $dpsim ]]; then
  (cd ../.. && go build -o "$tmp/dpsim" ./cmd/dpsim)
  dpsim=$tmp/dpsim
fi
py=python3
if ! "$py" -c 'import numpy' 2>/dev/null; then py=/usr/bin/python3; fi
# scenario:script — DP-RECAL twice: rendezvous, and the paper's own
# regression on synthetic rows the export writes out.
for pair in gtdp:gtdp dpdgt:dpdgt dpp2:dpp2 recal:recal recal-regression:recal ldp:ldp; do
  paper=${pair%:*} script=${pair#*:}
  "$py" - "$paper.json" "$tmp/$paper-quiet.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
for ch in s["noise"].values():
    ch["scale"] = 0
json.dump(s, open(sys.argv[2], "w"))
PY
  for run in "$paper.json:noisy" "$tmp/$paper-quiet.json:noise-free"; do
    "$dpsim" run --quiet --out "$tmp/out.json" "${run%:*}"
    printf '%-11s ' "${run##*:}"
    "$py" "$script.py" "$tmp/out.json"
  done
done
# The check can fail: one recorded draw moved, the replay must disagree.
"$dpsim" run --quiet --out "$tmp/out.json" gtdp.json
"$py" - "$tmp/out.json" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))
e["scenario"]["noise"]["eta"]["draws"][3] += 1e-3
json.dump(e, open(sys.argv[1], "w"))
PY
if "$py" gtdp.py "$tmp/out.json" >/dev/null 2>&1; then
  echo "check.sh: gtdp.py accepted an export whose recorded noise was edited" >&2
  exit 1
fi
echo "an edited draw is caught: gtdp.py refuses the export"
