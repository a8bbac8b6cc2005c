#!/usr/bin/env bash
# run.sh — one training step of the CNN (conv 5×5×8 → ReLU → pool → conv
# 5×5×16 → ReLU → pool → dense → softmax CE, batch 32, SGD) in dpsim
# natively and under js/wasm (node), and in the references, on one thread,
# interleaved over ROUNDS rounds on the same machine; prints each engine's
# median wall and CPU milliseconds per step (MNIST 1×28×28 and CIFAR
# 3×32×32 shapes, ten classes) and the ratios of the goals in
# docs/cnn.md (issue 32's: native no slower than PyTorch, wasm at least
# twice as fast as TensorFlow.js's SIMD wasm). dpsim's wasm is the
# page's build (dpsimsimd tag, the SIMD module linked).
#
#   bench/cnn/run.sh [ROUNDS]        (default 3; about 1 min per round)
#
# It installs the references itself when they are missing: Debian's
# python3-torch (PyTorch 1.13, CPU) with apt-get (as root), and the npm
# packages pinned in package.json (@tensorflow/tfjs and
# tfjs-backend-wasm 4.22.0, convnetjs 0.3.0) into $CNNBENCH_DIR (default
# ~/.cache/dpsim-cnnbench). Needs go, node and npm.
#
# Two traps, measured (docs/cnn.md): PyTorch's step time is bimodal from
# process to process with glibc's default allocator (it returns the
# activation buffers to the OS every step), so PyTorch runs with
# GLIBC_TUNABLES that keep them; tfjs-backend-wasm 4.22 has no
# Conv2DBackpropFilter kernel, so bench_tfjs.js supplies the filter
# gradient with wasm kernels (tf.customGrad). On a shared machine compare
# the CPU columns: wall time counts the time other processes hold the
# core.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
rounds=${1:-3}
here=bench/cnn
W=${CNNBENCH_DIR:-$HOME/.cache/dpsim-cnnbench}
py=/usr/bin/python3

# ---- the references
mkdir -p "$W"
if ! "$py" -c 'import torch' 2>/dev/null; then
  echo "run.sh: installing python3-torch with apt-get" >&2
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-torch python3-numpy; } >"$W.apt.log" 2>&1 ||
    { echo "run.sh: apt-get failed; see $W.apt.log" >&2; exit 1; }
fi
if ! cmp -s "$here/package.json" "$W/package.json" || [[ ! -d $W/node_modules/@tensorflow/tfjs-backend-wasm || ! -d $W/node_modules/convnetjs ]]; then
  echo "run.sh: npm install into $W" >&2
  cp "$here/package.json" "$W/"
  (cd "$W" && npm install --no-audit --no-fund --loglevel=error) >&2
fi
cp "$here"/bench_tfjs.js "$here"/bench_convnetjs.js "$here"/bench_torch.py "$W/"

# PyTorch from Debian links the machine's libblas.so.3: it runs on OpenBLAS
# (serial) chosen for its process only, as NumPy does in the other
# benchmarks (bench/blas.sh), so that the machine's BLAS choice cannot
# change its column.
source bench/blas.sh
blas_setup
torchblas=()
if [ -n "${BLAS_PATH[openblas]:-}" ]; then torchblas=("LD_LIBRARY_PATH=${BLAS_PATH[openblas]}"); fi

# ---- dpsim, native and js/wasm
export PATH="$PATH:$(go env GOROOT)/lib/wasm"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/step" ./bench/cnn/step
# The page's build: the dpsimsimd tag, the products and patch matrices in
# the WebAssembly SIMD module (wasm/simd/gen), linked by the wrapper.
GOOS=js GOARCH=wasm go build -tags dpsimsimd -o "$tmp/step.wasm" ./bench/cnn/step
go run ./wasm/simd/gen -o "$tmp/simd.wasm"
export DPSIM_SIMD_WASM=$tmp/simd.wasm

out="$W/results-$(date -u +%Y%m%dT%H%M%SZ).jsonl"
one="OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1"
malloc="GLIBC_TUNABLES=glibc.malloc.mmap_threshold=16777216:glibc.malloc.trim_threshold=268435456"
run() { # run TAG DIR COMMAND…: appends its JSON lines, tagged with the round
  local tag=$1 dir=$2
  shift 2
  echo "round $r: $tag" >&2
  (cd "$dir" && env "$@") 2>/dev/null | grep '^{"' | grep -v '"node"\|"python"\|"go"' |
    sed "s/^{/{\"round\":$r,\"tag\":\"$tag\",/" >>"$out" || echo "run.sh: $tag failed" >&2
}
for r in $(seq "$rounds"); do
  run dpsim-native . "$tmp/step" -steps 40 -warmup 10
  run dpsim-wasm . wasm/simd/go_js_wasm_exec "$tmp/step.wasm" -steps 40 -warmup 20
  run pytorch "$W" $one $malloc "${torchblas[@]}" "$py" bench_torch.py --threads 1 --steps 50 --warmup 20
  run tfjs-wasm-simd "$W" node bench_tfjs.js --backend wasm --simd on --steps 40 --warmup 10
  run tfjs-wasm-nosimd "$W" node bench_tfjs.js --backend wasm --simd off --steps 40 --warmup 10
  run convnetjs "$W" node bench_convnetjs.js --steps 10 --warmup 2
done

"$py" - "$out" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
tags = ["dpsim-native", "dpsim-wasm", "pytorch", "tfjs-wasm-simd", "tfjs-wasm-nosimd", "convnetjs"]
med = {}
print(f"{'engine':18} {'shape':6} {'wall ms (each round)':34} {'median':>8} {'CPU ms (each round)':34} {'median':>8}")
for t in tags:
    for s in ("mnist", "cifar"):
        rs = [r for r in rows if r.get("tag") == t and r.get("shape") == s]
        if not rs:
            continue
        w = [r["median_ms"] for r in rs]; c = [r.get("cpu_median_ms", 0) for r in rs]
        med[t, s] = (statistics.median(w), statistics.median(c))
        print(f"{t:18} {s:6} {' / '.join(f'{v:.2f}' for v in w):34} {med[t, s][0]:8.2f} {' / '.join(f'{v:.2f}' for v in c):34} {med[t, s][1]:8.2f}")
print()
goals = [("dpsim-native", "pytorch", "native / PyTorch (goal ≤ 1)", 1, "le"),
         ("dpsim-wasm", "tfjs-wasm-simd", "wasm / tfjs wasm SIMD (goal ≤ 0.5)", 0.5, "le"),
         ("dpsim-wasm", "tfjs-wasm-nosimd", "wasm / tfjs wasm no SIMD (goal < 1)", 1, "lt"),
         ("convnetjs", "dpsim-wasm", "ConvNetJS / wasm (goal ≥ 5)", 5, "ge"),
         ("dpsim-wasm", "dpsim-native", "wasm / native", None, None)]
for a, b, label, g, how in goals:
    for s in ("mnist", "cifar"):
        if (a, s) in med and (b, s) in med:
            rw = med[a, s][0] / med[b, s][0]
            rc = med[a, s][1] / med[b, s][1] if med[b, s][1] else float("nan")
            ok = "" if g is None else ("  met" if {"le": rc <= g, "lt": rc < g, "ge": rc >= g}[how] else "  NOT met")
            print(f"{label:40} {s:6} wall {rw:6.2f}  CPU {rc:6.2f}{ok} (by CPU time)")
print(f"\nraw results: {sys.argv[1]}")
PY
