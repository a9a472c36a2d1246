#!/usr/bin/env bash
# The GPU check when the `cuda` preset was built on another machine (no GPU there, nvcc and the
# same CUDA version): runs the prebuilt reference test executables, `kpuzzles check --reference`
# on CUDA and the benchmarks, and writes logs and JSON to $2. Saves the device time of a build.
#
#   benchmarks/run_prebuilt_gpu.sh BIN_DIR OUT_DIR [bench arguments ...]
#
# BIN_DIR holds `kpuzzles` and any kpz_test_<puzzle>_reference executables; each extra argument
# is one benchmark command line for kpuzzles, e.g. "bench reduce --sweep 1".
set -uo pipefail
bin=$(cd "$1" && pwd)
out=$(mkdir -p "$2" && cd "$2" && pwd)
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
export KPZ_SOURCE_DIR="$root" KPZ_STATE_FILE="$out/kpuzzles-state.json"
status=0
step() { echo "== $*"; }

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/device.txt"
"$bin/kpuzzles" doctor >"$out/doctor.txt" 2>&1

for t in "$bin"/kpz_test_*_reference; do
  [ -x "$t" ] || continue
  step "$(basename "$t") on CUDA"
  if "$t" --gtest_brief=1 >"$out/$(basename "$t").log" 2>&1; then tail -1 "$out/$(basename "$t").log"
  else tail -30 "$out/$(basename "$t").log"; status=1; fi
done

step "every reference variant on CUDA"
"$bin/kpuzzles" check --reference >"$out/check.log" 2>&1 || status=1
tail -1 "$out/check.log"

n=0
for cmd in "$@"; do
  n=$((n + 1))
  step "kpuzzles $cmd"
  # shellcheck disable=SC2086  # each argument is a command line
  "$bin/kpuzzles" $cmd --json-file "$out/bench-$n.json" >"$out/bench-$n.txt" 2>&1 || status=1
  head -80 "$out/bench-$n.txt"
done
exit $status
