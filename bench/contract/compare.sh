#!/usr/bin/env bash
# compare.sh — GT-DP's and DP-DGT's per-iteration times at a base commit
# and at the work tree, side by side in the same run: the two builds'
# benchmarks alternate round by round, so machine load hits both alike.
# Prints every round and the median ratio work/base (target ≤ 1.05).
#
#   bench/contract/compare.sh [ROUNDS] [BASE]   (defaults: 5, d87ba81 — the
#                                                commit before the plug-in
#                                                layout of issue 14)
#
# GT-DP: BenchmarkIteration/rgg50 (N = 50, d = 10, noise on), ns per
# iteration. DP-DGT: BenchmarkAdvance (the IEEE 14-bus setting, 1500
# iterations per op), ns per iteration. Sweep: the experiment engine's
# whole runs of the GT-DP preset (ring of 8, dimension 2; build, runner,
# metrics, counters, ledger), BenchmarkOverhead/ring8-d2, ns per iteration —
# where the runner's own per-step work weighs most.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
rounds=${1:-5}
base=${2:-d87ba81}
git rev-parse --verify -q "$base^{commit}" >/dev/null || { echo "compare.sh: BASE $base is not a commit" >&2; exit 2; }

tmp=$(mktemp -d)
cleanup() { git worktree remove --force "$tmp/base" >/dev/null 2>&1 || true; rm -rf "$tmp"; }
trap cleanup EXIT
git worktree add -q --detach "$tmp/base" "$base"

# pkgdir ROOT NAME: where algorithm NAME lives in tree ROOT (it moved).
pkgdir() { if [[ -d $1/core/algorithms/$2 ]]; then echo "core/algorithms/$2"; else echo "core/$2"; fi; }
for side in base work; do
  root=$PWD; [[ $side == base ]] && root=$tmp/base
  for a in gtdp dpdgt experiment; do
    d=core/experiment; [[ $a == experiment ]] || d=$(pkgdir "$root" "$a")
    (cd "$root" && go test -c -o "$tmp/$side-$a.test" "./$d")
    echo "$root/$d" >"$tmp/$side-$a.dir"
  done
done

# run SIDE ALGO: ns per iteration of that build's benchmark.
run() {
  local dir; dir=$(cat "$tmp/$1-$2.dir")
  case $2 in
  gtdp) (cd "$dir" && "$tmp/$1-gtdp.test" -test.run '^$' -test.bench 'Iteration/rgg50$' -test.benchtime 1s) |
      awk '/^BenchmarkIteration\/rgg50/ { for (i = 2; i <= NF; i++) if ($i == "ns/op") print $(i-1) }' ;;
  dpdgt) (cd "$dir" && "$tmp/$1-dpdgt.test" -test.run '^$' -test.bench '^BenchmarkAdvance$' -test.benchtime 1s) |
      awk '/^BenchmarkAdvance/ { for (i = 2; i <= NF; i++) if ($i == "ns/iter") print $(i-1) }' ;;
  experiment) (cd "$dir" && "$tmp/$1-experiment.test" -test.run '^$' -test.bench 'Overhead/ring8-d2$' -test.benchtime 40x) |
      awk '/^BenchmarkOverhead\/ring8-d2/ { for (i = 2; i <= NF; i++) if ($i == "sweep-ns/iter") print $(i-1) }' ;;
  esac
}

printf '%-6s %11s %11s %7s %11s %11s %7s %11s %11s %7s\n' round gtdp_base gtdp_work ratio dpdgt_base dpdgt_work ratio sweep_base sweep_work ratio
lines=()
for r in $(seq "$rounds"); do
  # Alternate which side goes first, so neither always runs on a warmer machine.
  if ((r % 2)); then gb=$(run base gtdp); gw=$(run work gtdp); db=$(run base dpdgt); dw=$(run work dpdgt); sb=$(run base experiment); sw=$(run work experiment)
  else gw=$(run work gtdp); gb=$(run base gtdp); dw=$(run work dpdgt); db=$(run base dpdgt); sw=$(run work experiment); sb=$(run base experiment); fi
  line=$(awk -v r="$r" -v gb="$gb" -v gw="$gw" -v db="$db" -v dw="$dw" -v sb="$sb" -v sw="$sw" 'BEGIN {
    printf "%-6s %11.1f %11.1f %7.3f %11.1f %11.1f %7.3f %11.1f %11.1f %7.3f", r, gb, gw, gw/gb, db, dw, dw/db, sb, sw, sw/sb }')
  echo "$line"
  lines+=("$line")
done
printf '%s\n' "${lines[@]}" | awk '{ g[NR] = $4; d[NR] = $7; w[NR] = $10 }
  function med(x, k,   i, j, t) { for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
                                   return (k % 2) ? x[(k + 1) / 2] : (x[k / 2] + x[k / 2 + 1]) / 2 }
  END { printf "median work/base: GT-DP %.3f, DP-DGT %.3f (target ≤ 1.05 each); sweep engine %.3f\n", med(g, NR), med(d, NR), med(w, NR) }'
