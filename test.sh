#!/usr/bin/env bash
# test.sh — the one command that runs every dpsim test.
#
#   ./test.sh                 everything (2 cores: 40 min in CI at e9971dc on a host
#                             whose Chromium runs e2e 1.7× slower; 29 min at 1b4630a
#                             there with a warm Go cache, about 34 estimated cold)
#   FUZZTIME=10s ./test.sh    shorter fuzzing
#
# Steps: (a) dependencies  (b) gofmt  (c) go vet  (d) go test (native)
#        (e) go test under js/wasm (node)  (f) fuzz every target
#        (e2) exports native vs js/wasm, (h) ./build.sh and (e3) the
#        no-FMA check and the numerics' bit tests as arm64 (qemu) and
#        GOAMD64=v3 binaries, run
#        in the background beside (b)–(f) at the lowest CPU priority
#        ((e2) from (d) on)
#        (g) benchmark native vs wasm  (i) end-to-end test in headless Chromium
# Exits non-zero on the first failure.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"

FUZZTIME=${FUZZTIME:-60s}
WASM_RATIO_MAX=${WASM_RATIO_MAX:-5}

t_start=$SECONDS
current=""
t_step=0
times=() # "(x) Ns" per finished step, for the summary at the end
step() {
  if [[ -n $current ]]; then
    printf '    (%ds)\n' $((SECONDS - t_step))
    times+=("${current%% *} $((SECONDS - t_step))s")
  fi
  current=$1
  t_step=$SECONDS
  printf '\n==> %s\n' "$1"
}
trap 'rc=$?; echo; echo "test.sh: FAILED in step: ${current:-setup} (exit $rc)" >&2; exit $rc' ERR

# ---------------------------------------------------------------- (a)
step "(a) dependencies"
missing=()
[[ -x /usr/bin/chromium ]] || missing+=(chromium)
command -v brotli >/dev/null 2>&1 || missing+=(brotli)
# The independent replays (examples/replay) are NumPy scripts.
python3 -c 'import numpy' 2>/dev/null || /usr/bin/python3 -c 'import numpy' 2>/dev/null || missing+=(python3-numpy)
# Step (e3) runs arm64 test binaries in qemu's user mode.
command -v qemu-aarch64 >/dev/null 2>&1 || missing+=(qemu-user)
if ((${#missing[@]})); then
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    echo "installing with apt-get: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "test.sh: missing ${missing[*]}; install them first, e.g.: sudo apt-get install -y ${missing[*]}" >&2
    false
  fi
fi
for tool in go node npm git gzip; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "test.sh: '$tool' is not installed" >&2
    false
  fi
done
node_major=$(node -p 'process.versions.node.split(".")[0]')
if ((node_major < 20)); then
  echo "test.sh: node $(node --version) is too old; the e2e test needs node >= 20" >&2
  false
fi
if [[ ! -d e2e/node_modules/playwright-core || ! -d e2e/node_modules/axe-core ]]; then
  echo "npm ci --prefix e2e"
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --prefix e2e --no-audit --no-fund
fi
echo "go: $(go version | cut -d' ' -f3-)  node: $(node --version)  $(/usr/bin/chromium --version 2>/dev/null | head -1)"
# go.mod lists the direct dependencies as such (not "// indirect") and
# go.sum what every package and test needs: go mod tidy would change
# nothing.
if ! tidy=$(go mod tidy -diff 2>&1); then
  echo "$tidy" >&2
  echo "test.sh: go.mod or go.sum is not tidy; run go mod tidy (the pinned versions stay) and commit" >&2
  false
fi
echo "go.mod and go.sum tidy"

GOROOT_DIR=$(go env GOROOT)
export PATH="$PATH:$GOROOT_DIR/lib/wasm"   # go_js_wasm_exec, for GOOS=js tests

# Every go command from here builds with -trimpath, as build.sh does (it
# keeps the checkout's paths out of the .wasm files and the CLI). The flag
# is part of every package's build-cache key, standard library included,
# so with the tests built without it a cold cache compiled the standard
# library, ebiten, gonum/plot and the fonts twice, natively and for
# js/wasm: about 140 s of CPU, measured. The tests are the same programs;
# only the file names in their binaries lose the checkout's directory.
# Step (e3) keeps the caller's GOFLAGS: internal/nofma's builds set
# GOFLAGS= and the bit tests after them share those builds.
caller_goflags=${GOFLAGS:-}
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-trimpath"
# Step (c)'s go vet ./... checks every package and its tests natively,
# with every analyzer go test's vet runs (a subset) and these flags, so the
# native go tests after it (and (e2) beside it) run with -vet=off: their
# vet found nothing (c) does not, and on a cold cache it cost 49 CPU-s in
# step (d) alone, analysing the standard library and every dependency once
# more for its own analyzers' facts (measured). The js/wasm and arm64 go
# tests keep their vet: it is the only one of their files for those
# platforms.
novet=-vet=off

# ------------------------------------------ (h), begun here; (e2) after (c)
# Two steps need nothing the others do: (e2), which runs one preset after
# another on one core, and ./build.sh, most of whose time is one core's too
# (brotli -q 11, the links). Steps (b)–(f) leave a core idle at times (the
# last long test binary of a go test, the links, the fuzzers' instrumented
# builds), so both start in the background (build.sh here, (e2) after
# step (c)) at the lowest CPU priority, where they take only what the
# steps in front leave; each one's
# step later waits for it and prints what it said. The benchmark (g) and
# the end-to-end test (i), which time things, come after both (and (e3),
# begun alike) have ended.
# Each runs in its own process group (set -m), killed if test.sh ends
# first; not in its own session (setsid), whose own scheduler group would
# ignore the nice value (Linux's autogroup).
declare -A bg_pid=() bg_log=()
background() { # background NAME COMMAND...: start COMMAND as NAME
  local name=$1
  shift
  bg_log[$name]=$(mktemp)
  set -m
  nice -n 19 "$@" >"${bg_log[$name]}" 2>&1 </dev/null &
  bg_pid[$name]=$!
  set +m
}
await() { # await NAME: wait for NAME, print its output, fail if it failed
  local name=$1 ok=1
  wait "${bg_pid[$name]}" || ok=0
  unset "bg_pid[$name]"
  cat "${bg_log[$name]}"
  rm -f "${bg_log[$name]}"
  if ((!ok)); then
    echo "test.sh: the background step failed (its output above)" >&2
    return 1
  fi
}
stop_background() {
  local name
  [[ -z ${e2e_programs:-} ]] || rm -rf "$e2e_programs"
  [[ -z ${build_done:-} ]] || rm -f "$build_done"
  for name in "${!bg_pid[@]}"; do
    kill -TERM -- "-${bg_pid[$name]}" 2>/dev/null || kill -TERM "${bg_pid[$name]}" 2>/dev/null || true
    rm -f "${bg_log[$name]}"
  done
}
trap 'stop_background' EXIT
# Files build.sh must leave ignored: what is untracked before it starts.
untracked_before=$(git ls-files --others --exclude-standard 2>/dev/null | sort || true)
# build.sh's brotli sidecars at -q 11 took about 110 s of one core here;
# the e2e step checks that the page is served from them and decodes
# them, which any level shows alike (brotli is lossless), so the site built
# for the tests takes a fast level (BROTLI_QUALITY; build.sh's default, 11,
# is the site users get).
# build_done appears when build.sh has ended, however it ended.
build_done=$(mktemp -u)
background build bash -c 't=$SECONDS; BROTLI_QUALITY=${BROTLI_QUALITY:-5} ./build.sh; rc=$?; : >"$0"; echo "(build.sh took $((SECONDS - t)) s in the background)"; exit $rc' "$build_done"
# The end-to-end step's two test programs (the page's program with a test
# plug-in: e2e/data.test.js's and e2e/nooptimum.test.js's), built here
# beside the others rather than by those files inside step (i), where the
# browser already keeps both cores busy (e2e/harness.js testProgram).
# They start once build.sh has ended: begun beside it on a cold cache,
# both compiled the standard library and the packages they share for
# js/wasm at once, each its own copy (the two builds took 66 CPU-s side by
# side, 47 one after the other, measured); step (i), which needs them,
# comes minutes after (h).
e2e_programs=$(mktemp -d)
export DPSIM_E2E_PROGRAMS=$e2e_programs
background programs bash -c 'until [[ -e $0 ]]; do sleep 1; done
  t=$SECONDS
  GOOS=js GOARCH=wasm go build -o "$DPSIM_E2E_PROGRAMS/datatoy.wasm" ./ui/internal/datatoy/app &&
    GOOS=js GOARCH=wasm go build -o "$DPSIM_E2E_PROGRAMS/wavetoy.wasm" ./ui/internal/wavetoy/app
  rc=$?; echo "(the test programs took $((SECONDS - t)) s in the background, after build.sh)"; exit $rc' "$build_done"
# (e3): the same scenario and seed give the same bytes on every platform,
# not only on this amd64 and in the browser; arm64 (Apple Silicon, ARM
# Linux) and amd64 at v3 compile fused multiply–adds, and the standard
# library's Exp and Log differ there (internal/nofma and
# internal/portablemath keep both out of dpsim's code; internal/nofma's
# test runs here first, see below). Here the pinned,
# golden and bit tests of the numerics are cross-compiled for arm64 and
# run under qemu-aarch64, and built with GOAMD64=v3 and run natively
# (where the CPU has v3). core/num's TestMsunBitsMatchMath compares with
# math, which fuses on both, so it runs in (d) and (e) only. 35 s of CPU
# (25 s on 2 cores) on a warm build cache; 2 min 50 s of CPU (123 s) on a
# cold one, mostly the standard library, gonum/plot and the fonts
# compiled for the two targets.
numerics_bits() {
  set -euo pipefail
  local t=$SECONDS out target
  # internal/nofma's test (run here rather than in step (d)) compiles
  # every package for arm64 and GOAMD64=v3: the standard library and the
  # dependencies it compiles for those targets are the ones the bit tests
  # below need, taken from the build cache once it has run (93 s of CPU
  # after it instead of 167 s on a cold cache, measured for arm64).
  # Its timeout allows for the nice-19 wait behind steps (b)–(f): go
  # test's default ten minutes cut it short there once.
  # The test binary itself is native and built as steps (c)–(d) build
  # (-trimpath, and no vet: (c) vetted this package natively); without
  # them it compiled the standard library natively once more and vetted
  # it again, about 35 CPU-s on a cold cache (measured). Its go list
  # builds for arm64 and v3 set their own GOFLAGS, as the bit tests do.
  if ! out=$(go test -trimpath -vet=off -timeout 60m ./internal/nofma 2>&1); then
    echo "$out"
    echo "test.sh: internal/nofma failed (above: a fused multiply–add in dpsim's code for arm64 or GOAMD64=v3, or the test itself)" >&2
    return 1
  fi
  echo "$out"
  local pkgs=(./core/num ./core/pld ./core/weights ./core/noise ./core/rng ./core/privacy ./core/audit
    ./core/problems/logistic ./core/problems/nonconvex ./core/algorithms/gtdp ./core/nn ./render/figure)
  local tests=(TestBitsArePinned TestMsunSpecialCases TestMsunAgreesWithMath TestSpecialCases TestAgreesWithMath
    TestDotsOrderPinned TestDotsBits TestExpToBits TestBits TestSpectralBits TestGoldenDraws TestZigguratTables
    TestGolden TestNormFloat64 TestSplitMix64Reference TestCalibrateBits TestProportional TestTightBytes
    TestPinned TestKernelBits TestSigmoidKernelBits TestGramMaxBits TestGoldenTraces TestGemmBits TestGoldenBits
    TestGoldenFigures)
  local re listing
  re="^($(IFS='|'; echo "${tests[*]}"))\$"
  # The bit tests build with internal/nofma's -gcflags: -S only prints the
  # compiler's listing (the code is the same), and it makes the 59 dpsim
  # packages they import the very builds internal/nofma's test left in the
  # cache instead of new ones (17 CPU-s a target on a cold cache,
  # measured). The listing goes to a file, shown without its instructions
  # and symbols if the tests fail.
  listing=$(mktemp)
  for target in arm64 v3; do
    local env=(GOARCH=arm64) exec=(-exec qemu-aarch64)
    if [[ $target == v3 ]]; then
      env=(GOARCH=amd64 GOAMD64=v3) exec=()
    fi
    if ! out=$(env "${env[@]}" go test -count=1 -gcflags='dpsim/...=-S' "${exec[@]}" -run "$re" "${pkgs[@]}" 2>"$listing"); then
      out+=$'\n'$(grep -Ev '^([[:space:]]|# )| S[A-Z]+( [a-z]+)* size=[0-9]+' "$listing" || true)
      # Go's runtime itself refuses to start a v3 binary on a CPU without
      # v3 (AVX2, BMI1/2, F16C, FMA, LZCNT, MOVBE): asked of the CPU, not
      # of /proc/cpuinfo, whose flags a virtual machine may leave out
      # (this one's lists no "abm" though LZCNT runs).
      if [[ $target == v3 ]] && grep -q 'can only be run on AMD64 processors with v3 microarchitecture support' <<<"$out"; then
        echo "GOAMD64=v3: skipped, this CPU has no v3 (Go's runtime refused to start)"
        continue
      fi
      echo "$out"
      rm -f "$listing"
      echo "test.sh: the numerics' bit tests fail as $target binaries (a fused multiply–add or a platform's math.Exp/Log: see docs/guarantees.md, \"No fused multiply–add\")" >&2
      return 1
    fi
    if grep 'no tests to run' <<<"$out"; then
      rm -f "$listing"
      echo "test.sh: a package above has none of the bit tests any more; update the list in step (e3)" >&2
      return 1
    fi
    sed "s/^/$target: /" <<<"$out"
  done
  rm -f "$listing"
  echo "(took $((SECONDS - t)) s in the background)"
}
export -f numerics_bits
background numerics env GOFLAGS="$caller_goflags" bash -c numerics_bits

# ---------------------------------------------------------------- (b)
step "(b) gofmt"
mapfile -t gofiles < <(git ls-files --cached --others --exclude-standard -- '*.go' 2>/dev/null || true)
if ((${#gofiles[@]} == 0)); then
  mapfile -t gofiles < <(find . -name '*.go' -not -path './e2e/node_modules/*' -not -path './.git/*')
fi
existing=()
for f in "${gofiles[@]}"; do [[ -f $f ]] && existing+=("$f"); done
unformatted=""
((${#existing[@]} == 0)) || unformatted=$(gofmt -l "${existing[@]}")
if [[ -n $unformatted ]]; then
  echo "gofmt wants changes in:" >&2
  echo "$unformatted" >&2
  echo "fix with: gofmt -w <files>" >&2
  false
fi
echo "${#existing[@]} Go files formatted"
# No generated file is committed: .gitignore lists what build.sh (and the
# generators it runs) writes, so a tracked file it matches is one of them.
# Step (h) checks the other half: build.sh writes nothing .gitignore misses.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  tracked=$(git ls-files --cached --ignored --exclude-standard)
  if [[ -n $tracked ]]; then
    echo "test.sh: generated files are committed (they match .gitignore; build.sh makes them):" >&2
    echo "$tracked" >&2
    echo "remove them with: git rm --cached <files>" >&2
    false
  fi
  echo "no generated file tracked"
fi

# ---------------------------------------------------------------- (c)
step "(c) go vet ./..."
go vet ./...
# (e2) begins once (c) has compiled every package natively: its first
# build is cmd/dpsim's native test binary, and begun beside go vet on a
# cold cache it compiled the standard library and dpsim's packages at the
# same time as go vet did, its own copy (measured with internal/nofma's
# test build beside them too: 240 CPU-s side by side, 216 one after the
# other). (e3), whose chain of builds and runs ended last, still begins
# after (a), and so does build.sh, whose first builds are for js/wasm.
# (e2): builds cmd/dpsim for js/wasm and compares its exports of every
# preset and of every graph kind with the native ones, byte for byte
# (about 70 s of one core). Its timeout allows for the wait in the
# background; the test itself times nothing.
background e2 env DPSIM_WASM_EXPORTS=1 go test $novet -count=1 -timeout 60m ./cmd/dpsim -run '^TestExportsNativeAndWasm$'

# ---------------------------------------------------------------- (d)
step "(d) go test ./... (native; internal/nofma runs in step (e3))"
# internal/nofma cross-compiles every package for arm64 and GOAMD64=v3; it
# runs in the background job of step (e3), before the bit tests it shares
# those builds with.
if ! native_pkgs=$(go list ./...); then
  echo "test.sh: go list ./... failed" >&2
  false
fi
mapfile -t native_pkgs < <(grep -vx 'dpsim/internal/nofma' <<<"$native_pkgs")
go test $novet "${native_pkgs[@]}"

# ---------------------------------------------------------------- (d2)
step "(d2) independent replays: one NumPy script per paper replays dpsim's replay exports (examples/replay)"
examples/replay/check.sh

# ---------------------------------------------------------------- (e)
step "(e) go test under js/wasm (node): core/..., render/scene/... and render/figure/..., and the SIMD build's kernels"
patterns=(./core/...)
[[ -d render/scene ]] && patterns+=(./render/scene/...)
# render/figure's golden SVG and PNG, checked in the browser's arithmetic:
# the page's figure downloads are the CLI's files.
[[ -d render/figure ]] && patterns+=(./render/figure/...)
mapfile -t wasm_pkgs < <(GOOS=js GOARCH=wasm go list "${patterns[@]}" 2>/dev/null || true)
if ((${#wasm_pkgs[@]} == 0)); then
  echo "no packages under ${patterns[*]}; skipped"
else
  # The engine's packages run every preset and experiment in full
  # natively (step d) and compare every preset's export under js/wasm
  # byte for byte (step e2); here -short keeps their code paths and
  # arithmetic under node without those full runs (which took the
  # runner's package past go test's ten minutes).
  heavy_re='^dpsim/core/(runner|experiment)$'
  mapfile -t light < <(printf '%s\n' "${wasm_pkgs[@]}" | grep -Ev "$heavy_re")
  mapfile -t engine < <(printf '%s\n' "${wasm_pkgs[@]}" | grep -E "$heavy_re")
  GOOS=js GOARCH=wasm go test "${light[@]}"
  if ((${#engine[@]} > 0)); then
    GOOS=js GOARCH=wasm go test -short "${engine[@]}"
  fi
fi
# The page's build: the dpsimsimd tag, the classifier's gradient, the
# packed dense full passes, the logistic slopes and the CNN's dot-product
# products in the WebAssembly SIMD module (wasm/simd/), linked by the wrapper; the same bit tests on that
# path.
GOOS=js GOARCH=wasm go test -tags dpsimsimd -exec "$PWD/wasm/simd/go_js_wasm_exec" ./core/problems/nonconvex ./core/algorithms/dpp2 \
  ./core/problems/internal/learn ./core/problems/logistic ./core/nn

# has_test DIR REGEX: DIR holds a test, fuzz target or benchmark matching
# REGEX. A missing package is "no"; a package that does not compile fails.
has_test() {
  local dir=$1 re=$2 out
  compgen -G "$dir/*_test.go" >/dev/null || return 1
  if ! out=$(go test $novet -list "$re" "./$dir" 2>&1); then
    echo "$out" >&2
    echo "test.sh: go test -list failed for ./$dir" >&2
    exit 1
  fi
  grep -Eq "$re" <<<"$out"
}

# ---------------------------------------------------------------- (f)
# Every fuzz target in the module shares FUZZTIME: 60s over three targets is
# 20s each. FUZZTIME is seconds (60s, 2m, 1h) or iterations per target (500x).
step "(f) fuzz every target, $FUZZTIME in total"
# The targets ("package FuzzName"), read from the test files go list names
# for this platform: what go test -list '^Fuzz' ./... prints, without
# linking every package's test binary once more (step (d) built and ran
# them all). gofmt (step (b)) keeps each declaration on one line.
if ! fuzz_files=$(go list -f '{{$d := .Dir}}{{$p := .ImportPath}}{{range .TestGoFiles}}{{$p}} {{$d}}/{{.}}
{{end}}{{range .XTestGoFiles}}{{$p}} {{$d}}/{{.}}
{{end}}' ./... 2>&1); then
  echo "$fuzz_files" >&2
  echo "test.sh: go list failed" >&2
  false
fi
mapfile -t fuzz_targets < <(awk 'NF >= 2 {
    pkg = $1; file = substr($0, length($1) + 2)
    while ((getline line < file) > 0)
      if (line ~ /^func Fuzz[A-Za-z0-9_]*\([A-Za-z_][A-Za-z0-9_]* \*testing\.F\) \{/) {
        sub(/^func /, "", line); sub(/\(.*/, "", line); print pkg, line
      }
    close(file)
  }' <<<"$fuzz_files")
if ((${#fuzz_targets[@]} == 0)); then
  echo "no fuzz targets; skipped"
else
  if [[ $FUZZTIME =~ ^[0-9]+x$ ]]; then
    per=$FUZZTIME
  elif [[ $FUZZTIME =~ ^([0-9]+)(s|m|h)?$ ]]; then
    total=${BASH_REMATCH[1]}
    case ${BASH_REMATCH[2]} in m) total=$((total * 60)) ;; h) total=$((total * 3600)) ;; esac
    per=$((total / ${#fuzz_targets[@]}))
    ((per >= 1)) || per=1
    per=${per}s
  else
    echo "test.sh: FUZZTIME must be like 60s, 2m or 500x (got $FUZZTIME)" >&2
    false
  fi
  echo "${#fuzz_targets[@]} targets, $per each"
  fuzz_log=$(mktemp)
  for target in "${fuzz_targets[@]}"; do
    read -r pkg name <<<"$target"
    echo "--- $name ($pkg)"
    # Go 1.26's fuzz coordinator can report its own -fuzztime deadline as a
    # failure ("context deadline exceeded", no input written) when a worker
    # is busy as the time runs out (golang/go#75804, fixed in Go 1.27). Such
    # a run is repeated with a count budget, which has no deadline to race;
    # any other failure, or one that wrote a failing input, fails the step.
    corpus="$(go list -f '{{.Dir}}' "$pkg")/testdata/fuzz/$name"
    before=$(ls "$corpus" 2>/dev/null | sort || true)
    if go test $novet "$pkg" -run '^$' -fuzz "^$name\$" -fuzztime "$per" 2>&1 | tee "$fuzz_log"; then
      continue
    fi
    after=$(ls "$corpus" 2>/dev/null | sort || true)
    if [[ $before != "$after" ]] || ! grep -q '^    context deadline exceeded$' "$fuzz_log" ||
      grep -Eq '^    (panic|.*_test\.go:[0-9]+:)' "$fuzz_log"; then
      rm -f "$fuzz_log"
      false
    fi
    execs=$(grep -Eo 'execs: [0-9]+' "$fuzz_log" | tail -1 | grep -Eo '[0-9]+')
    ((${execs:-0} >= 1000)) || execs=1000
    echo "test.sh: $name hit Go's fuzztime race (golang/go#75804) with no failing input; again for ${execs} runs"
    go test $novet "$pkg" -run '^$' -fuzz "^$name\$" -fuzztime "${execs}x"
  done
  rm -f "$fuzz_log"
fi

# ---------------------------------------------------------------- (e2)
step "(e2) exports byte-identical natively and under js/wasm (node; begun after step (c), waited for here)"
await e2

# ---------------------------------------------------------------- (h)
step "(h) ./build.sh (begun after step (a), waited for here)"
await build
# Everything build.sh writes is ignored, so that it is never committed by
# accident: a file it added that git would offer to commit fails here.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  new_files=$(comm -13 <(echo "$untracked_before") <(git ls-files --others --exclude-standard | sort))
  if [[ -n $new_files ]]; then
    echo "test.sh: build.sh (or a step run beside it) wrote files .gitignore does not list (generated files must never be committed):" >&2
    echo "$new_files" >&2
    false
  fi
  echo "every file build.sh wrote is ignored"
fi
# The page's ebiten program stays free of the figure code (gonum/plot lives
# in wasm/solver, which the page loads only for experiments).
if GOOS=js GOARCH=wasm go list -deps ./wasm/app | grep -q '^gonum.org/v1/plot'; then
  echo "test.sh: wasm/app depends on gonum.org/v1/plot; keep render/figure in wasm/solver only" >&2
  false
fi

# ---------------------------------------------------------------- (e3)
step "(e3) no fused multiply–add (internal/nofma), then the numerics' bit tests as arm64 binaries under qemu-aarch64 and with GOAMD64=v3 (begun after step (a), waited for here)"
await numerics

# ---------------------------------------------------------------- (g)
step "(g) benchmark BenchmarkIteration: native vs js/wasm (limit ${WASM_RATIO_MAX}x)"
# min_ns prints "name min_ns_per_op" per benchmark (GOMAXPROCS suffix dropped).
min_ns() {
  awk '/^Benchmark/ && / ns\/op/ {
         name = $1; sub(/-[0-9]+$/, "", name)
         for (i = 2; i <= NF; i++) if ($i == "ns/op") v = $(i-1) + 0
         if (!(name in m) || v < m[name]) m[name] = v
       }
       END { for (n in m) print n, m[n] }' | sort
}
if has_test core/algorithms/gtdp '^BenchmarkIteration'; then
  # Time-based, so that both sides are measured warm (V8 first runs wasm
  # from its baseline compiler; see docs/performance.md). A loose guard on
  # a shared machine: the ≤ 2.5× target is bench/gtdp/compare.sh's.
  bench_args=(./core/algorithms/gtdp -run '^$' -bench 'BenchmarkIteration' -benchtime 1s -count 2)
  echo "native:"
  if ! native_out=$(go test $novet "${bench_args[@]}" 2>&1); then echo "$native_out" >&2; false; fi
  echo "$native_out" | grep -E '^(Benchmark|ok|FAIL)' || true
  echo "js/wasm (node):"
  if ! wasm_out=$(GOOS=js GOARCH=wasm go test "${bench_args[@]}" 2>&1); then echo "$wasm_out" >&2; false; fi
  echo "$wasm_out" | grep -E '^(Benchmark|ok|FAIL)' || true
  native_min=$(echo "$native_out" | min_ns)
  wasm_min=$(echo "$wasm_out" | min_ns)
  if [[ -z $native_min || -z $wasm_min ]]; then
    echo "test.sh: could not read ns/op from the benchmark output" >&2
    false
  fi
  join <(echo "$native_min") <(echo "$wasm_min") | awk -v max="$WASM_RATIO_MAX" '
    { r = $3 / $2
      printf "  %-40s native %12.0f ns/op   wasm %12.0f ns/op   wasm/native %.2fx\n", $1, $2, $3, r
      n++
      if (r > max) { bad++; printf "  %s: wasm/native %.2f > %s\n", $1, r, max > "/dev/stderr" } }
    END { if (n == 0) { print "no benchmark in both runs" > "/dev/stderr"; exit 1 }
          exit (bad > 0) }'
else
  echo "skipped: core/algorithms/gtdp has no BenchmarkIteration yet"
fi

# ---------------------------------------------------------------- (i)
step "(i) end-to-end: node --test e2e/, one browser and one server for every file (e2e/run.js)"
await programs
# run.js stops its browser and server however the run ends. If test.sh
# fails or is interrupted meanwhile, the trap stops run.js and kills what it
# started (their ids are in the pid file), should run.js not do it itself.
e2e_pids=$(mktemp)
e2e_run=""
stop_e2e() {
  local b="" s=""
  if [[ -n $e2e_run ]]; then kill -TERM "$e2e_run" 2>/dev/null || true; fi
  read -r b s <"$e2e_pids" 2>/dev/null || true
  # The browser leads its own process group (its renderers and GPU process).
  if [[ -n $b ]]; then kill -KILL -- "-$b" 2>/dev/null || true; fi
  if [[ -n $s ]]; then kill -TERM "$s" 2>/dev/null || true; fi
  rm -f "$e2e_pids"
}
trap 'stop_e2e; stop_background' EXIT
PIDFILE=$e2e_pids node e2e/run.js &
e2e_run=$!
wait "$e2e_run"
e2e_run=""
stop_e2e
trap 'stop_background' EXIT

printf '    (%ds)\n' $((SECONDS - t_step))
times+=("${current%% *} $((SECONDS - t_step))s")
trap - ERR
echo
echo "test.sh: all steps passed in $((SECONDS - t_start))s: ${times[*]}"
