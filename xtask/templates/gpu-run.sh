#!/usr/bin/env bash
# Runs the bundled libcuda-sys test binaries against this machine's NVIDIA
# driver (written by `cargo xtask gpu-bundle`; needs bash, no Rust). Each
# binary runs whole, with LD_BIND_NOW=1; it passes or fails by its exit
# status, and the tests that could not run here say so in skips.jsonl (one
# JSON line each, from testkit::skip). The summary comes last.
#
#   bash run.sh        exit status: 0 every binary passed, 1 one failed
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ -d /usr/local/nvidia/lib64 ] && export LD_LIBRARY_PATH=/usr/local/nvidia/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# The binding crates' tests link libcurand.so.10 (curand/) and libnvrtc.so.13
# (the docs' recipe), which loads libnvrtc-builtins: the toolkit's, last.
[ -d /usr/local/cuda/lib64 ] && export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}/usr/local/cuda/lib64
export LD_BIND_NOW=1 LIBCUDA_SYS_SKIP_LOG=$here/skips.jsonl
: >"$LIBCUDA_SYS_SKIP_LOG"
sed 's/^/== /' "$here/info.txt"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader 2>&1 | sed 's/^/== GPU /'

echo "=== the report (the main job)"
"$here/bin/report"
echo "(exit status $?)"
passed=() failed=()
for exe in "$here"/bin/*; do
  name=$(basename "$exe")
  [ "$name" = report ] && continue
  echo "=== $name"
  if MEMPOOL_REPORT_EXE=$here/bin/report "$exe" --test-threads=1; then passed+=("$name"); else failed+=("$name ($?)"); fi
done

# Built without a driver, the binaries were linked against the crate's
# stand-in: run each again with it first on the library path, as `cargo test`
# runs them on the machine that built them; the stand-in must hand every call
# over to this driver. A dynamic-loading bundle has no stand-in of its own:
# STAND_IN=<a linked bundle>/stand-in runs it through that one, which it must
# look through to this driver.
through=()
stand_in=${STAND_IN:-$here/stand-in}
if [ -f "$stand_in/libcuda.so.1" ]; then
  for exe in "$here"/bin/*; do
    name=$(basename "$exe")
    [ "$name" = report ] && continue
    echo "=== $name, through the stand-in"
    if LD_LIBRARY_PATH=$stand_in${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} MEMPOOL_REPORT_EXE=$here/bin/report "$exe" --test-threads=1; then
      through+=("$name"); else failed+=("$name through the stand-in ($?)"); fi
  done
fi

echo
echo "=== summary"
echo "passed: ${passed[*]:-none}"
[ -f "$stand_in/libcuda.so.1" ] && echo "passed through the stand-in: ${through[*]:-none}"
echo "FAILED: ${failed[*]:-none}"
left_out=$(sed -n 's/^left_out=//p' "$here/info.txt")
echo "not bundled (they read the build tree): ${left_out:-none}"
echo "skipped tests: $(wc -l <"$LIBCUDA_SYS_SKIP_LOG")"
cat "$LIBCUDA_SYS_SKIP_LOG"
echo "binaries: ${#passed[@]} passed, ${#through[@]} passed through the stand-in, ${#failed[@]} failed"
[ ${#failed[@]} = 0 ]
