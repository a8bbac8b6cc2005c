# blas.sh — sourced by the bench/ compare scripts: which BLAS NumPy runs on,
# chosen for the benchmark's process only.
#
# NumPy's wheels bundle OpenBLAS, so OpenBLAS (Debian's serial build, one
# thread) is the default column; Debian's reference BLAS (libblas3, what
# python3-numpy links when nothing else is selected) is the second. Each
# NumPy process gets its library through LD_LIBRARY_PATH; the machine's BLAS
# alternative (update-alternatives) is never read nor changed, so the columns
# mean the same on every machine.
#
# When libopenblas0-serial is not installed, its Debian package is fetched
# with `apt-get download` and unpacked with `dpkg-deb -x` into
# ${XDG_CACHE_HOME:-$HOME/.cache}/dpsim/openblas-serial — installing it would
# switch the machine's alternative to OpenBLAS (its priority is 90 against
# the reference's 10).
#
# The reference column needs the reference LAPACK beside the reference BLAS:
# NumPy links liblapack.so.3 too, and where the machine's LAPACK alternative
# is OpenBLAS's (installing libopenblas0-serial selects it), that LAPACK would
# pull libopenblas into the reference process. When Debian's liblapack3 is
# not installed, it is fetched and unpacked into
# ${XDG_CACHE_HOME:-$HOME/.cache}/dpsim/lapack-reference the same way.
#
#   blas_setup            fills BLASES (openblas first when available),
#                         BLAS_DIR[name] (the directory of its libblas.so.3)
#                         and BLAS_PATH[name] (what goes on LD_LIBRARY_PATH);
#                         says on stderr what is missing
#   blas_run NAME CMD…    runs CMD with NAME's libraries first on the path
#   blas_check NAME PY    fails unless every BLAS or LAPACK library PY (a
#                         python with NumPy) loads is NAME's (read from
#                         /proc/self/maps)
#
# Every NumPy side runs on one thread, as dpsim's iteration is one goroutine.
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1

declare -gA BLAS_DIR=() BLAS_PATH=()
declare -ga BLASES=()

# blas_fetch PACKAGE SUBDIR CACHE: unpacks Debian's PACKAGE (apt-get download,
# dpkg-deb -x; nothing installed) and copies its /usr/lib/<arch>/SUBDIR into
# CACHE; fails when it cannot.
blas_fetch() {
  local pkg=$1 sub=$2 cache=$3 arch tmp deb ok=1
  arch=$(uname -m)-linux-gnu
  command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null || return 1
  tmp=$(mktemp -d)
  if (cd "$tmp" && apt-get download -q "$pkg" >/dev/null 2>&1) &&
    deb=$(ls "$tmp"/"${pkg}"_*.deb 2>/dev/null) && dpkg-deb -x "$deb" "$tmp/x" &&
    [ -d "$tmp/x/usr/lib/$arch/$sub" ]; then
    # Whole or not at all: a copy cut short (Ctrl-C) must not pass for
    # the library later.
    mkdir -p "$(dirname "$cache")" && rm -rf "$cache.part" &&
      cp -a "$tmp/x/usr/lib/$arch/$sub" "$cache.part" && rm -rf "$cache" &&
      mv "$cache.part" "$cache" && ok=0
  fi
  rm -rf "$tmp"
  return $ok
}

blas_setup() {
  local arch lib cache lapack
  arch=$(uname -m)-linux-gnu
  lib=/usr/lib/$arch
  cache=${XDG_CACHE_HOME:-$HOME/.cache}/dpsim/openblas-serial
  if [ -e "$lib/openblas-serial/libblas.so.3" ]; then
    BLAS_DIR[openblas]=$lib/openblas-serial
  elif [ -e "$cache/libblas.so.3" ]; then
    BLAS_DIR[openblas]=$cache
  elif blas_fetch libopenblas0-serial openblas-serial "$cache" && [ -e "$cache/libblas.so.3" ]; then
    BLAS_DIR[openblas]=$cache
  fi
  if [ -n "${BLAS_DIR[openblas]:-}" ]; then
    BLAS_PATH[openblas]=${BLAS_DIR[openblas]}
    BLASES+=(openblas)
  else
    echo "blas.sh: no OpenBLAS (libopenblas0-serial neither installed nor downloadable): NumPy on the reference BLAS only" >&2
  fi
  lapack=""
  cache=${XDG_CACHE_HOME:-$HOME/.cache}/dpsim/lapack-reference
  if [ -e "$lib/lapack/liblapack.so.3" ]; then
    lapack=$lib/lapack
  elif [ -e "$cache/liblapack.so.3" ] || { blas_fetch liblapack3 lapack "$cache" && [ -e "$cache/liblapack.so.3" ]; }; then
    lapack=$cache
  fi
  if [ ! -e "$lib/blas/libblas.so.3" ]; then
    echo "blas.sh: no reference BLAS ($lib/blas, Debian's libblas3)" >&2
  elif [ -z "$lapack" ]; then
    echo "blas.sh: no reference LAPACK (Debian's liblapack3, neither installed nor downloadable): no reference column" >&2
  else
    BLAS_DIR[reference]=$lib/blas
    BLAS_PATH[reference]=$lib/blas:$lapack
    BLASES+=(reference)
  fi
  [ ${#BLASES[@]} -gt 0 ] || { echo "blas.sh: no BLAS to run NumPy on" >&2; return 1; }
}

blas_run() { # NAME CMD…
  local name=$1; shift
  LD_LIBRARY_PATH=${BLAS_PATH[$name]}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} "$@"
}

blas_check() { # NAME PYTHON
  local name=$1 py=$2 got
  got=$(blas_run "$name" "$py" -c '
import os, re, sys
import numpy as np
a = np.ones((64, 64)); a @ a; np.linalg.solve(a + 64 * np.eye(64), a[0])
dirs = [os.path.realpath(d) for d in sys.argv[1].split(":")]
libs = sorted({l.split()[-1] for l in open("/proc/self/maps") if re.search(r"blas|lapack", os.path.basename(l.split()[-1]))})
bad = [l for l in libs if os.path.dirname(os.path.realpath(l)) not in dirs]
print("ok" if libs and not bad else "loaded " + (" ".join(bad) if bad else "no BLAS"))' "${BLAS_PATH[$name]}")
  if [ "$got" != ok ]; then
    echo "blas.sh: NumPy asked for $name (${BLAS_PATH[$name]}) $got" >&2
    return 1
  fi
}

# MEDIAN is an awk function for the scripts' summaries: med(x, k) is the
# median of x[1..k] (it sorts x in place).
MEDIAN='function med(x, k,   i, j, t) { for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
  return (k % 2) ? x[(k + 1) / 2] : (x[k / 2] + x[k / 2 + 1]) / 2 }'

# The iteration benchmarks' table (gtdp, dpp2): iter_header, then one
# iter_row per round and BLAS (its line is echoed and kept in ITER_ROWS),
# then iter_summary LABEL for the medians per BLAS.
declare -ga ITER_ROWS=()
iter_header() { printf '%-6s %-9s %14s %14s %14s %10s %10s\n' round numpy native_µs wasm_µs numpy_µs numpy/nat wasm/nat; ITER_ROWS=(); }
iter_row() { # ROUND BLAS NATIVE_NS WASM_NS NUMPY_µS
  local line
  line=$(awk -v r="$1" -v b="$2" -v n="$3" -v w="$4" -v p="$5" 'BEGIN {
    printf "%-6s %-9s %14.2f %14.2f %14.2f %10.2f %10.2f", r, b, n/1000, w/1000, p, p*1000/n, w/n }')
  echo "$line"
  ITER_ROWS+=("$line")
}
iter_summary() { # LABEL (prefixed to each median line)
  local b
  for b in "${BLASES[@]}"; do
    printf '%s\n' "${ITER_ROWS[@]}" | awk -v label="$1" -v b="$b" "$MEDIAN"'
      $2 == b { k++; a[k] = $6; w[k] = $7; n[k] = $3; p[k] = $5 }
      END { printf "median (%sNumPy on %s): native %.2f µs, NumPy %.2f µs, NumPy/native %.2fx (target ≥ 3 on openblas), wasm/native %.2fx (target ≤ 2)\n", label, b, med(n, k), med(p, k), med(a, k), med(w, k) }'
  done
}
