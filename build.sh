#!/usr/bin/env bash
# build.sh — build every wasm/* main package into public/, with wasm_exec.js
# and fresh precompressed sidecars.
#
#   wasm/app    -> public/dpsim.wasm   (the page's simulator, no ebiten)
#   wasm/view   -> public/view.wasm    (the page's view: ebiten, draws)
#   wasm/<dir>  -> public/<dir>.wasm   (e.g. wasm/solver -> public/solver.wasm)
#                 all with the dpsimsimd tag: the simulator's and the solver's
#                 gradient kernels run in the SIMD module below (public/simd.js)
#   wasm/simd/gen -> public/simd.wasm   (that WebAssembly SIMD module,
#                                       generated, never committed)
#
#   cmd/dpsim  -> ./dpsim              (the CLI, stamped like the page)
#   jsvendor/  -> public/vendor/uplot/ (uPlot, fetched by npm ci as pinned by
#                                       jsvendor/package-lock.json, with its
#                                       licence)
#
#   core/data/files/*.gz -> public/data/  (the datasets the page fetches on
#                           demand; copied as they are, never recompressed)
#
# Runs from any working directory. Old sidecars are always deleted first, so a
# stale .wasm.br/.wasm.gz can never be served beside a new .wasm.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"
root=$PWD
out=$root/public

goroot=$(go env GOROOT)
wasm_exec=$goroot/lib/wasm/wasm_exec.js
[[ -f $wasm_exec ]] || wasm_exec=$goroot/misc/wasm/wasm_exec.js   # Go < 1.24
cp "$wasm_exec" "$out/wasm_exec.js"

# BROTLI_QUALITY (0–11, default 11): the brotli sidecars' level. 11 is the
# smallest transfer, for the site users get; test.sh takes a lower one
# (brotli is lossless: the page decodes the same .wasm bytes at any level).
brotli_q=${BROTLI_QUALITY:-11}
if [[ ! $brotli_q =~ ^([0-9]|1[01])$ ]]; then
  echo "build.sh: BROTLI_QUALITY must be an integer from 0 to 11 (got \"$brotli_q\")" >&2
  exit 2
fi
have_brotli=1
if ! command -v brotli >/dev/null 2>&1; then
  have_brotli=0
  echo "build.sh: brotli not found (apt-get install brotli); writing gzip sidecars only" >&2
fi

# The version the page and the CLI write into their exports (core/version):
# the commit, stamped by Go from git whenever this is a git checkout,
# whatever GOFLAGS says (some machines set -buildvcs=false); without git,
# both say "devel". One flag for every build below, so they agree.
buildvcs=false
if command -v git >/dev/null 2>&1 && git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  buildvcs=true
fi

size() { stat -c %s "$1"; }
human() { numfmt --to=iec-i --suffix=B --format='%.2f' "$1" 2>/dev/null || echo "$1 B"; }

# The page is two programs (docs/bridge.md): the view draws (ebiten), the
# simulator runs (no ebiten), so that what loads before the first frame
# stays a minimal ebiten program plus the scene code (docs/performance.md,
# start-up). Keep them so.
if GOOS=js GOARCH=wasm go list -deps ./wasm/app | grep -q '^github.com/hajimehoshi/ebiten'; then
  echo "build.sh: wasm/app (the simulator) depends on ebiten; only wasm/view draws" >&2
  exit 1
fi
if GOOS=js GOARCH=wasm go list -deps ./wasm/view | grep -q '^dpsim/core/objective$\|^dpsim/ui$\|^encoding/json$'; then
  echo "build.sh: wasm/view (the view) links core/objective, ui or encoding/json; keep it thin (render/sceneof holds what needs a problem)" >&2
  exit 1
fi

# compress writes target's gzip and brotli sidecars. Brotli at -q 11 (the
# default BROTLI_QUALITY) is
# most of this script's time (about 110 s of one core for the three
# modules) and single-threaded, so each module's sidecars are written in
# the background while the next module and the rest build; the sizes are
# printed once all are done.
compress() {
  local target=$1
  gzip -9 -n -c "$target" > "$target.gz.tmp" || return 1
  mv "$target.gz.tmp" "$target.gz" || return 1
  if (( have_brotli )); then
    # Through stdout: "brotli -o" would copy the .wasm's mtime truncated to
    # whole seconds, making the sidecar look older than the .wasm (stale).
    brotli -q "$brotli_q" -c "$target" > "$target.br.tmp" || return 1
    mv "$target.br.tmp" "$target.br" || return 1
  fi
  # The sidecars are written after the .wasm, so they are never older than
  # it (serve ignores a sidecar older than its .wasm).
}
compressing=() # "pid base" of each background compress
# A failed or interrupted build leaves no compressor running.
trap 'for j in "${compressing[@]}"; do pkill -P "${j%% *}" 2>/dev/null; kill "${j%% *}" 2>/dev/null; done; true' EXIT

built=0
for d in wasm/*/; do
  d=${d%/}
  [[ -d $d ]] || continue
  # Only main packages; skip directories with no Go files for js/wasm.
  name=$(GOOS=js GOARCH=wasm go list -f '{{.Name}}' "./$d" 2>/dev/null || true)
  if [[ $name != main ]]; then
    echo "build.sh: skipping $d (not a main package for js/wasm)"
    continue
  fi
  base=$(basename "$d")
  [[ $base == app ]] && base=dpsim
  target=$out/$base.wasm

  rm -f "$target.gz" "$target.br"
  echo "build.sh: GOOS=js GOARCH=wasm go build ./$d -> public/$base.wasm"
  GOOS=js GOARCH=wasm go build -tags dpsimsimd -buildvcs=$buildvcs -trimpath -ldflags="-s -w" -o "$target" "./$d"
  compress "$target" &
  compressing+=("$! $base")
  built=$((built + 1))
done

# The SIMD module the tagged builds import (wasm/simd/gen: f64x2 code from
# readable instruction lists, the same bytes from the same source).
go run ./wasm/simd/gen -o "$out/simd.wasm.tmp" && mv "$out/simd.wasm.tmp" "$out/simd.wasm"
echo "build.sh: go run ./wasm/simd/gen -> public/simd.wasm ($(size "$out/simd.wasm") bytes)"

go build -buildvcs=$buildvcs -trimpath -o "$root/dpsim.tmp" ./cmd/dpsim && mv "$root/dpsim.tmp" "$root/dpsim"
echo "build.sh: built ./dpsim (the CLI), version $("$root/dpsim" version)"

# The page's third-party JavaScript: fetched once by npm (version and
# integrity pinned by the lockfile), copied unchanged with its licence.
if [[ ! -f jsvendor/node_modules/uplot/package.json ]]; then
  command -v npm >/dev/null 2>&1 || { echo "build.sh: npm not found (apt-get install npm): it fetches uPlot, pinned in jsvendor/package-lock.json" >&2; exit 1; }
  echo "build.sh: npm ci --prefix jsvendor"
  npm ci --prefix jsvendor --no-audit --no-fund >/dev/null
fi
uplot=$(sed -n 's/^  "version": "\(.*\)",$/\1/p' jsvendor/node_modules/uplot/package.json)
want=$(sed -n 's/^    "uplot": "\(.*\)"$/\1/p' jsvendor/package.json)
if [[ $uplot != "$want" ]]; then
  echo "build.sh: jsvendor/node_modules has uPlot $uplot, jsvendor/package.json pins $want: run npm ci --prefix jsvendor" >&2
  exit 1
fi
rm -rf "$out/vendor"
mkdir -p "$out/vendor/uplot"
cp jsvendor/node_modules/uplot/dist/uPlot.iife.min.js jsvendor/node_modules/uplot/dist/uPlot.min.css \
  jsvendor/node_modules/uplot/LICENSE "$out/vendor/uplot/"
echo "build.sh: vendored uPlot $uplot into public/vendor/"

# The datasets: the page fetches a preset's files from data/ and hands the
# bytes to core/data, which checks them against the embedded manifest's
# sha256, so they must be the committed bytes exactly. Files no longer
# committed are removed.
rm -rf "$out/data"
mkdir -p "$out/data"
cp core/data/files/*.gz "$out/data/"
echo "build.sh: copied $(ls "$out/data" | wc -l) dataset file(s), $(cat "$out"/data/*.gz | wc -c) bytes, into public/data/"

# The posters: each preset's first frame as SVG, drawn by the scene code the
# simulator uses, shown by the page before the simulator's first frame.
rm -rf "$out/posters"
go run ./cmd/mkposter -out "$out/posters"

# The docs: the page links each paper claim's verdict to its explanation
# (docs/<paper>-paper.md) and the glossary to the others; served as they
# are, as text.
rm -rf "$out/docs"
mkdir -p "$out/docs"
cp docs/*.md "$out/docs/"
echo "build.sh: copied $(ls "$out/docs" | wc -l) doc(s) into public/docs/"

# The sidecars, waited for in order; a failed compressor fails the build.
for j in "${compressing[@]}"; do
  pid=${j%% *} base=${j#* }
  target=$out/$base.wasm
  if ! wait "$pid"; then
    echo "build.sh: compressing public/$base.wasm failed" >&2
    exit 1
  fi
  raw=$(size "$target"); gz=$(size "$target.gz")
  if (( have_brotli )); then
    br=$(size "$target.br")
    printf '  %-14s raw %12s (%s)  gzip %10s (%s)  brotli %10s (%s)\n' "$base.wasm" \
      "$raw" "$(human "$raw")" "$gz" "$(human "$gz")" "$br" "$(human "$br")"
  else
    printf '  %-14s raw %12s (%s)  gzip %10s (%s)  brotli: skipped (no brotli)\n' "$base.wasm" \
      "$raw" "$(human "$raw")" "$gz" "$(human "$gz")"
  fi
done
compressing=()

if (( built == 0 )); then
  echo "build.sh: no wasm/* main package found" >&2
  exit 1
fi
echo "build.sh: built $built wasm file(s) into public/"
