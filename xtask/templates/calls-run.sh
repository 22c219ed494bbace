#!/usr/bin/env bash
# Call overhead of the CUDA driver API: C (compiled here with gcc -O2 against
# cuda.h, linked to libcuda; again with -fno-plt), libcuda-sys linked,
# libcuda-sys dynamic-loading, cudarc::driver::sys. Runs them in one go, interleaved over ROUNDS rounds
# (each round in a rotated order), prints a table of ns per call (median over
# rounds of each run's median over batches) with ratios to C, and writes every
# measurement to results.txt (for `cargo xtask bench-report`). Written by
# `cargo xtask bench-calls-bundle`.
#
#   bash run.sh [ROUNDS]          # default 5 (or BENCH_ROUNDS)
#
# Environment: BENCH_BATCH, BENCH_BATCHES, BENCH_WARMUP, BENCH_DEVICE (passed to
# each binary); CUDA_INCLUDE (default /usr/local/cuda/include); LIBCUDA_DIR (the
# directory of the driver's libcuda.so.1, default: /usr/local/nvidia/lib64, then
# ldconfig); CC (default gcc); BENCH_CPU (core to pin every run to, default 2); BENCH_RESULTS (default results.txt next to run.sh).
# Exit status: 0 measured; 1 a variant failed; 2 no driver or no device.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rounds=${1:-${BENCH_ROUNDS:-5}}
results=${BENCH_RESULTS:-$here/results.txt}
variants=(c c-noplt rust-linked rust-dynamic cudarc)
say() { echo "== $*"; }

libdir=${LIBCUDA_DIR:-}
if [ -z "$libdir" ]; then
  for d in /usr/local/nvidia/lib64 $(ldconfig -p 2>/dev/null | awk '$1 == "libcuda.so.1" { sub(/\/[^/]*$/, "", $NF); print $NF }') \
           /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/lib/wsl/lib; do
    if [ -e "$d/libcuda.so.1" ]; then libdir=$d; break; fi
  done
fi
[ -n "$libdir" ] && export LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=$work/bin
mkdir -p "$bin"
cp "$here"/bin/* "$bin"/

cc=${CC:-gcc}
inc=${CUDA_INCLUDE:-/usr/local/cuda/include}
c_status="not built"
if [ -n "$libdir" ]; then
  link=(-L"$libdir" -l:libcuda.so.1)
else
  link=(-L/usr/local/cuda/lib64/stubs -lcuda)
fi
# c: plain -O2, calls through the PLT; c-noplt: -fno-plt, through the GOT as rustc does.
if "$cc" -O2 -I"$inc" "$here/call_overhead.c" -o "$bin/call_overhead-c" "${link[@]}" 2>"$work/cc.log" &&
   "$cc" -O2 -fno-plt -I"$inc" "$here/call_overhead.c" -o "$bin/call_overhead-c-noplt" "${link[@]}" 2>>"$work/cc.log"; then
  c_status="$("$cc" --version | head -n 1) -O2 (c) and -O2 -fno-plt (c-noplt), -I$inc"
else
  c_status="compile failed: $(grep -m 1 -E 'error|cannot' "$work/cc.log" | cut -c1-200)"
fi

gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)
driver_cuda=$(nvidia-smi 2>/dev/null | grep -o 'CUDA Version: [0-9.]*' | head -n 1 | awk '{ print $3 }')
{
  echo "# libcuda-sys call overhead: raw results of .bench-bundle/run.sh (cargo xtask bench-report reads this file)"
  echo "info date $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "info host $(uname -n)"
  echo "info cpu $(grep -m 1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //') ($(nproc) cores)"
  echo "info gpu ${gpu:-unknown (no nvidia-smi)}"
  echo "info driver_cuda ${driver_cuda:-unknown}"
  echo "info libcuda $([ -n "$libdir" ] && readlink -f "$libdir/libcuda.so.1" || echo none)"
  while IFS= read -r line; do echo "info bundle_${line%%=*} ${line#*=}"; done <"$here/info.txt"
  echo "info c_compiler $c_status"
  echo "info rounds $rounds"
  echo "info batch ${BENCH_BATCH:-1000} batches ${BENCH_BATCHES:-200} warmup ${BENCH_WARMUP:-20} device ${BENCH_DEVICE:-0}"
} >"$results"

say "libcuda.so.1 from ${libdir:-nowhere (no driver found)}; GPU: ${gpu:-unknown}; C: $c_status"
nodriver=0 failed=0
cpu=${BENCH_CPU:-2}
pin=
if command -v taskset >/dev/null && taskset -c "$cpu" true 2>/dev/null; then
  pin="taskset -c $cpu"
fi
echo "info pinned ${pin:-no (taskset unavailable)}" >>"$results"
say "each run pinned: ${pin:-no}"
for ((r = 1; r <= rounds; r++)); do
  n=${#variants[@]}
  for ((k = 0; k < n; k++)); do
    v=${variants[$(((k + r - 1) % n))]}
    exe=$bin/call_overhead-$v
    if [ ! -x "$exe" ]; then
      echo "status $r $v missing" >>"$results"
      continue
    fi
    # Pinned to one core: a process otherwise lands on a fast or a slow core
    # (or NUMA node) for its whole run, which shows as two modes 40% apart.
    $pin "$exe" >"$work/out" 2>"$work/err"
    rc=$?
    # The loader's "libcuda.so.1: cannot open shared object file": no driver either.
    if [ "$rc" = 127 ] && grep -q 'libcuda.so.1' "$work/err"; then rc=2; fi
    first_error=$(head -n 1 "$work/err" | cut -c1-240)
    echo "status $r $v $rc $first_error" >>"$results"
    sed -n 's/^bench \([a-z_0-9]*\) \([0-9.]*\)$/result '"$r $v"' \1 \2/p' "$work/out" >>"$results"
    sed -n 's/^# \(.*\)$/detail '"$r $v"' \1/p' "$work/out" >>"$results"
    case $rc in
      0) printf '   round %d %-13s ok\n' "$r" "$v" ;;
      2) nodriver=$((nodriver + 1)); printf '   round %d %-13s no driver: %s\n' "$r" "$v" "$first_error" ;;
      *) failed=$((failed + 1)); printf '   round %d %-13s FAILED (exit %d): %s\n' "$r" "$v" "$rc" "$first_error" ;;
    esac
  done
  if [ "$r" = 1 ] && ! grep -q '^result ' "$results"; then
    break # nothing ran: no driver, no use repeating
  fi
done

echo
if ! grep -q '^result ' "$results"; then
  say "no measurement: no usable driver or GPU here (each variant's first error is in $results)"
  grep '^status ' "$results" | sed 's/^/   /'
  [ "$failed" = 0 ] && exit 2
  exit 1
fi
say "ns per call, median over $rounds rounds (each: median over ${BENCH_BATCHES:-200} batches of ${BENCH_BATCH:-1000} calls); ratio to C"
awk -v order="${variants[*]}" '
  $1 == "result" {
    key = $4 SUBSEP $3
    if (!($4 in seen)) { seen[$4] = 1; benches[++nb] = $4 }
    # insertion sort: the values of one key stay in order
    m = ++n[key]
    while (m > 1 && v[key, m - 1] > $5 + 0) { v[key, m] = v[key, m - 1]; m-- }
    v[key, m] = $5 + 0
  }
  END {
    nv = split(order, vs, " ")
    printf "   %-22s", "call"; for (i = 1; i <= nv; i++) printf "%20s", vs[i]; printf "\n"
    for (j = 1; j <= nb; j++) {
      b = benches[j]
      for (i = 1; i <= nv; i++) {
        key = b SUBSEP vs[i]; m = n[key]
        med[i] = m ? (m % 2 ? v[key, (m + 1) / 2] : (v[key, m / 2] + v[key, m / 2 + 1]) / 2) : -1
      }
      printf "   %-22s", b
      for (i = 1; i <= nv; i++) {
        if (med[i] < 0) printf "%20s", "-"
        else if (i == 1 || med[1] <= 0) printf "%20.2f", med[i]
        else printf "%20s", sprintf("%.2f (%.2fx)", med[i], med[i] / med[1])
      }
      printf "\n"
    }
  }' "$results"
echo
say "raw results: $results"
say "copy it back and run: cargo xtask bench-report --calls results.txt --name <gpu>"
[ "$failed" = 0 ] || exit 1
exit 0
