#!/usr/bin/env bash
# Runs the bundled libcuda-sys test binaries against this machine's NVIDIA
# driver (written by `cargo xtask gpu-bundle`; needs bash, no Rust: the
# bundle's own copy of xtask reads the results).
# Prints every test's output, then a summary table, last. Each test runs in its
# own process with LD_BIND_NOW=1 --test-threads=1; its result (libtest's JSON
# events, the reason a test gave for skipping) is kept as one JSON line in
# results.jsonl next to this file (or $GPU_RESULTS):
#   {"binary": .., "test": .., "outcome": "ok" | "failed" | "skipped", "reason": .., "seconds": ..}
#
#   bash run.sh
#
# Exit status: 0 no test failed; 1 a test failed; 2 no usable libcuda.so.1.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. <(grep -E '^[a-z_]+=' "$here/info.txt" | sed 's/^\([a-z_]*\)=\(.*\)$/\1=\x27\2\x27/')
results=${GPU_RESULTS:-$here/results.jsonl}
read_results() { "$here/xtask" gpu-results "$@"; }
if [ -d /usr/local/nvidia/lib64 ]; then
  export LD_LIBRARY_PATH=/usr/local/nvidia/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
export LD_BIND_NOW=1
export RUST_BACKTRACE=${RUST_BACKTRACE:-0}
# libtest's JSON output (`--format json`) is unstable: allowed on a stable toolchain's binaries.
export RUSTC_BOOTSTRAP=1

echo "== libcuda-sys GPU tests: CUDA $headers headers (CUDA_VERSION $cuda_version), features $features, commit $commit, built $built"
if command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader 2>&1 | sed 's/^/== GPU /'
  nvidia-smi 2>/dev/null | grep -o 'CUDA Version: [0-9.]*' | head -n 1 | sed 's/^/== driver /'
else
  echo "== nvidia-smi: not found"
fi

first=gpu_mempool
[ -e "$here/bin/$first" ] || first=$(ls "$here/bin" | head -n 1)
if [[ $features == *dynamic-loading* ]]; then
  # Nothing is linked: the binaries open libcuda.so.1 through the system loader.
  libcuda=$(ldconfig -p 2>/dev/null | awk '$1 == "libcuda.so.1" { print $NF; exit }')
  search=${LD_LIBRARY_PATH:-}
  for d in ${search//:/ }; do [ -e "$d/libcuda.so.1" ] && { libcuda=$d/libcuda.so.1; break; }; done
else
  libcuda=$(ldd "$here/bin/$first" | awk '$1 == "libcuda.so.1" { print $3 }')
fi
if [ -z "$libcuda" ] || [ "$libcuda" = "not" ]; then
  echo "== libcuda.so.1 does not resolve (LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}): install the NVIDIA driver or point LD_LIBRARY_PATH at its libcuda.so.1" >&2
  exit 2
fi
real=$(readlink -f "$libcuda")
case $real in
  "$here"/*) echo "== libcuda.so.1 resolves inside the bundle ($real): refusing" >&2; exit 2 ;;
esac
echo "== libcuda.so.1: $libcuda -> $real"
if [ "$real" = "$(readlink -f "$stand_in/libcuda.so.1" 2>/dev/null)" ]; then
  echo "== (that is the build's stand-in libcuda: every GPU test skips)"
fi

if [ -x "$here/report/mempool-report" ]; then
  # The report's own tests run this copy, not the one Cargo built.
  export MEMPOOL_REPORT_EXE=$here/report/mempool-report
  echo
  echo "=== mempool-report (the main job)"
  "$here/report/mempool-report"
  echo "(mempool-report exit status $?)"
fi

: >"$results"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
while IFS=$'\t' read -r bin kind needs built_exe; do
  exe=$here/bin/$bin
  if [ "$needs" != - ]; then
    exe= # reads the build tree: only where Cargo put it
    [ -x "$built_exe" ] && exe=$built_exe
  fi
  echo
  echo "=== $bin ($kind)"
  if ! "${exe:-$here/bin/$bin}" -Z unstable-options --format json --list >"$work/list" 2>&1; then
    cat "$work/list"
    read_results binary-failed "$bin" "$work/list" "$real" "$here/functions.txt" >>"$results"
    continue
  fi
  # One line per test: name, then the reason it is ignored (empty: it runs).
  read_results list "$work/list" >"$work/tests"
  if [ ! -s "$work/tests" ]; then
    echo "(no tests)"
    continue
  fi
  while IFS=$'\t' read -r t ignored; do
    if [ -n "$ignored" ]; then
      read_results outcome "$bin" "$t" skipped "$ignored" >>"$results"
      continue
    fi
    if [ -z "$exe" ]; then
      read_results outcome "$bin" "$t" skipped "reads the build tree ($needs): run it with cargo test where it was built" >>"$results"
      continue
    fi
    echo "--- $bin $t"
    start=$(date +%s%N)
    rm -f "$work/skips"
    LIBCUDA_SYS_SKIP_LOG=$work/skips timeout 600 "$exe" --exact "$t" --test-threads=1 \
      -Z unstable-options --format json --show-output >"$work/events" 2>"$work/stderr"
    rc=$?
    secs=$(awk -v n=$(( $(date +%s%N) - start )) 'BEGIN { printf "%.2f", n / 1e9 }')
    cat "$work/stderr"
    read_results run "$bin" "$t" "$rc" "$secs" "$work/events" "$work/skips" >>"$results"
  done <"$work/tests"
done <"$here/manifest.tsv"

echo
echo "=== summary: CUDA $headers headers, libcuda $real (results: $results)"
read_results table "$results"
