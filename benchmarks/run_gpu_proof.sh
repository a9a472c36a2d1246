#!/usr/bin/env bash
# The GPU proof in one call: build the `cuda` preset, run the whole test suite on CUDA, the
# worked examples with --reference, the reference tests under compute-sanitizer, and every
# puzzle's benchmark. Logs and JSON go to the folder given as $1 (default: gpu-proof/).
#
#   KPZ_KOKKOS_ARCHIVE    Kokkos source archive (default: .carry/kokkos-5.0.2.tar.gz)
#   KPZ_GTEST_SOURCE_DIR  GoogleTest sources when none is installed (default: .carry/googletest)
#   KPZ_PUZZLES           puzzles to benchmark (default: all that have a benchmark)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "${1:-$root/gpu-proof}" && cd "${1:-$root/gpu-proof}" && pwd)
cd "$root"
export KPZ_KOKKOS_ARCHIVE=${KPZ_KOKKOS_ARCHIVE:-$root/.carry/kokkos-5.0.2.tar.gz}
gtest=${KPZ_GTEST_SOURCE_DIR:-$root/.carry/googletest}
status=0
step() { echo "== $*"; }

step configure
cmake --preset cuda -DKPZ_GTEST_SOURCE_DIR="$gtest" >"$out/configure.log" 2>&1 ||
  { tail -40 "$out/configure.log"; exit 1; }
step build
start=$(date +%s)
cmake --build --preset cuda >"$out/build.log" 2>&1 ||
  { grep -m10 -B2 -A8 'error' "$out/build.log"; exit 1; }
echo "built in $(( $(date +%s) - start )) s"
kp=build/cuda/framework/cli/kpuzzles
"$kp" doctor | tee "$out/doctor.txt"

step "tests on CUDA"
ctest --preset cuda >"$out/ctest.log" 2>&1 || status=1
tail -25 "$out/ctest.log"

step "worked examples (reference)"
for p in $("$kp" list --json | python3 -c 'import json,sys; print(" ".join(sorted({e["puzzle"] for e in json.load(sys.stdin)["exercises"]})))'); do
  "$kp" run "$p" --help | sed -n 's/^  --\([a-z-]*\) .*/\1/p' | while read -r v; do
    "$kp" run "$p" --"$v" --reference >>"$out/worked.log" 2>&1 || { echo "FAILED: $p --$v"; exit 1; }
  done || status=1
done
grep -E '^(conv1d|out:|expected:|PASS|FAIL)' "$out/worked.log" | head -60

step "compute-sanitizer (memcheck, racecheck)"
ctest --preset cuda-sanitizer >"$out/sanitizer.log" 2>&1 || status=1
tail -12 "$out/sanitizer.log"

step benchmarks
for p in ${KPZ_PUZZLES:-$("$kp" list --json | python3 -c 'import json,sys; print(" ".join(sorted({e["puzzle"] for e in json.load(sys.stdin)["exercises"]})))')}; do
  "$kp" bench "$p" --json >"$out/bench-$p.json" 2>"$out/bench-$p.err" || { cat "$out/bench-$p.err"; continue; }
  python3 "$root/benchmarks/print_bench.py" "$out/bench-$p.json"
done
exit $status
