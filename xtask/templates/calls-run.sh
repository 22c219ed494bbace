#!/usr/bin/env bash
# Call overhead side by side (written by `cargo xtask bench-calls-bundle`): C
# (gcc -O2 against cuda.h, here), libcuda-sys linked and dynamic-loading,
# cudarc; each once a round in a rotated order, pinned to one core. Then
# `cargo xtask bench-calls results.txt` makes the table.
#   bash run.sh [ROUNDS]     default 11; CUDA_INCLUDE (default /usr/local/cuda/include)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rounds=${1:-11}
results=${BENCH_RESULTS:-$here/results.txt}
variants=(c rust-linked rust-dynamic cudarc)
libdir=/usr/local/nvidia/lib64
[ -e "$libdir/libcuda.so.1" ] || libdir=$(ldconfig -p | awk '$1 == "libcuda.so.1" { sub(/\/[^/]*$/, "", $NF); print $NF; exit }')
export LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
gcc -O2 -I"${CUDA_INCLUDE:-/usr/local/cuda/include}" "$here/call_overhead.c" -o "$here/bin/call_overhead-c" \
  -L"$libdir" -l:libcuda.so.1 || echo "the C variant did not compile" >&2
pin=
taskset -c 2 true 2>/dev/null && pin="taskset -c 2"
{
  sed 's/^/info /' "$here/info.txt"
  echo "info gpu $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)"
  echo "info cpu $(grep -m 1 'model name' /proc/cpuinfo | sed 's/.*: //')"
  echo "info rounds $rounds, pinned: ${pin:-no}, $(gcc --version | head -n 1) -O2"
} >"$results"
for ((r = 1; r <= rounds; r++)); do
  for ((k = 0; k < ${#variants[@]}; k++)); do
    v=${variants[$(((k + r) % ${#variants[@]}))]}
    out=$($pin "$here/bin/call_overhead-$v" 2>&1)
    rc=$?
    echo "status $r $v $rc"
    echo "$out" | sed -n "s/^bench \([a-z_0-9]*\) \([0-9.]*\)$/result $r $v \1 \2/p"
  done
done >>"$results"
grep -c '^result ' "$results" | sed 's/^/measurements: /'
grep '^status' "$results" | grep -v ' 0$' && exit 1
exit 0
