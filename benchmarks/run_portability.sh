#!/usr/bin/env bash
# One source, two machines: on the GPU machine, build the `openmp` and `cuda` presets, run the
# tests on CUDA, and run every puzzle's benchmark on the H100 and on the host's 16-core CPU
# (OMP_NUM_THREADS=16 OMP_PROC_BIND=spread OMP_PLACES=cores). Idempotent: each step rebuilds
# only what is missing, so a device call can run some steps and the next call the rest.
#
#   benchmarks/run_portability.sh OUTDIR STEP...
#     build          configure and build both presets (Kokkos Kernels in-tree from the archive)
#     build-cuda     the `cuda` preset alone (for test-cuda and gpu: when device time is short)
#     build-openmp   the `openmp` preset alone (for cpu: and mpi-cpu without a GPU build)
#     test-cuda      ctest --preset cuda, and `kpuzzles check --reference --space cuda`
#     test-cpu       the test suite on the 16-core CPU (OpenMP) and `check --reference`
#     barrier        kpz_barrier_cost on both machines (what one team_barrier costs)
#     gpu:P[,P...]   `kpuzzles bench P` on the H100 (N = 2^28 unless the bench defines sizes)
#     cpu:P[,P...]   `kpuzzles bench P --size 2^26` on the 16-core CPU
#
#   KPZ_KOKKOS_ARCHIVE         Kokkos source archive (default: .carry/kokkos-5.0.2.tar.gz)
#   KPZ_KOKKOSKERNELS_ARCHIVE  Kokkos Kernels archive (default: .carry/kokkos-kernels-*.tar.gz)
#   KPZ_GTEST_SOURCE_DIR       GoogleTest sources when none is installed (default: .carry/googletest)
#   KPZ_BUILD_TARGETS          build only these targets (default: everything); benches need
#                              kpuzzles-bench (`kpuzzles bench` hands over to it), checks kpuzzles
#   KPZ_COMMIT                 the commit the tree is (when it is a copy without .git)
#   KPZ_CMAKE_ARGS             more configure arguments (benchmarks/carried_mpi.sh: the carried MPI)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "${1:?usage: run_portability.sh OUTDIR STEP...}" && cd "$1" && pwd)
shift
cd "$root"
export KPZ_KOKKOS_ARCHIVE=${KPZ_KOKKOS_ARCHIVE:-$root/.carry/kokkos-5.0.2.tar.gz}
kk=${KPZ_KOKKOSKERNELS_ARCHIVE:-$(ls "$root"/.carry/kokkos-kernels-*.tar.gz 2>/dev/null | head -1)}
gtest=${KPZ_GTEST_SOURCE_DIR:-$root/.carry/googletest}
status=0
t0=$(date +%s)
step() { echo "== $* ($(( $(date +%s) - t0 )) s)"; }
cpu_env=(env OMP_NUM_THREADS=16 OMP_PROC_BIND=spread OMP_PLACES=cores)
# The presets leave the generator to CMake (make where Ninja is missing); the GPU machine has
# Ninja, and `-- -k 0` below is Ninja's "keep going".
export CMAKE_GENERATOR=${CMAKE_GENERATOR:-Ninja}

configure_and_build() {  # preset
  local extra=(-DKPZ_GTEST_SOURCE_DIR="$gtest")
  [ -n "$kk" ] && extra+=(-DKPZ_KOKKOSKERNELS_ARCHIVE="$kk")
  # KPZ_CMAKE_ARGS: more configure arguments (benchmarks/carried_mpi.sh sets the carried MPI's).
  # shellcheck disable=SC2206
  [ -n "${KPZ_CMAKE_ARGS:-}" ] && extra+=(${KPZ_CMAKE_ARGS})
  if [ ! -f "build/$1/build.ninja" ]; then
    cmake --preset "$1" "${extra[@]}" >"$out/configure-$1.log" 2>&1 || { tail -30 "$out/configure-$1.log"; return 1; }
  fi
  local s=$(date +%s)
  # KPZ_BUILD_TARGETS (space-separated) limits the build, e.g. for a quick check of one piece.
  # shellcheck disable=SC2086
  cmake --build --preset "$1" ${KPZ_BUILD_TARGETS:+--target $KPZ_BUILD_TARGETS} -- -k 0 >"$out/build-$1.log" 2>&1 || { grep -m10 -B2 -A8 'error' "$out/build-$1.log"; return 1; }
  echo "$1 built in $(( $(date +%s) - s )) s"
}

for s in "$@"; do
  case "$s" in
    build)
      step build
      nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
      lscpu | grep -E 'Model name|^CPU\(s\)|Thread|NUMA node\(s\)|L3' | tee "$out/cpu.txt"
      configure_and_build cuda || exit 1
      configure_and_build openmp || exit 1
      echo "commit ${KPZ_COMMIT:-$(git -C "$root" rev-parse --short HEAD 2>/dev/null)}" | tee "$out/commit.txt"
      ;;
    build-cuda)
      step build-cuda
      nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
      configure_and_build cuda || exit 1
      echo "commit ${KPZ_COMMIT:-$(git -C "$root" rev-parse --short HEAD 2>/dev/null)}" | tee "$out/commit.txt"
      ;;
    build-openmp)
      step build-openmp
      lscpu | grep -E 'Model name|^CPU\(s\)|Thread|NUMA node\(s\)|L3' | tee "$out/cpu.txt"
      configure_and_build openmp || exit 1
      echo "commit ${KPZ_COMMIT:-$(git -C "$root" rev-parse --short HEAD 2>/dev/null)}" | tee "$out/commit.txt"
      ;;
    test-cuda)
      step "tests on CUDA"
      ctest --preset cuda -j4 >"$out/ctest-cuda.log" 2>&1 || status=1
      tail -15 "$out/ctest-cuda.log"
      build/cuda/framework/cli/kpuzzles check --reference --space cuda >"$out/check-cuda.log" 2>&1 || status=1
      tail -3 "$out/check-cuda.log"
      ;;
    test-cpu)
      step "tests on the 16-core CPU"
      # One test at a time: two test programs of 16 threads each, bound to the same 16 cores
      # (OMP_PROC_BIND=spread), spin in each other's way at every team barrier: a run with -j2
      # printed nothing for 600 s.
      "${cpu_env[@]}" ctest --preset openmp -j1 --timeout 240 >"$out/ctest-cpu16.log" 2>&1 || status=1
      tail -8 "$out/ctest-cpu16.log"
      "${cpu_env[@]}" build/openmp/framework/cli/kpuzzles check --reference >"$out/check-cpu16.log" 2>&1 || status=1
      tail -3 "$out/check-cpu16.log"
      ;;
    barrier)
      step "team_barrier cost"
      build/cuda/kpz_barrier_cost --json "$out/barrier-h100.json" || status=1
      "${cpu_env[@]}" build/openmp/kpz_barrier_cost --json "$out/barrier-cpu16.json" || status=1
      ;;
    gpu:*|cpu:*)
      machine=${s%%:*}
      IFS=, read -r -a puzzles <<<"${s#*:}"
      for p in "${puzzles[@]}"; do
        step "bench $p on $machine"
        local_start=$(date +%s)
        if [ "$machine" = gpu ]; then
          timeout 300 build/cuda/framework/cli/kpuzzles bench "$p" --json-file "$out/$p-h100.json" >"$out/$p-h100.txt" 2>&1 || status=1
          cat "$out/$p-h100.txt"
        else
          # 2^26 elements (every bench takes --size); a bench that refuses it (exit 2) runs on its
          # own defaults.
          timeout 300 "${cpu_env[@]}" build/openmp/framework/cli/kpuzzles bench "$p" --size 67108864 \
            --json-file "$out/$p-cpu16.json" >"$out/$p-cpu16.txt" 2>&1
          rc=$?
          if [ "$rc" -eq 2 ]; then
            timeout 300 "${cpu_env[@]}" build/openmp/framework/cli/kpuzzles bench "$p" \
              --json-file "$out/$p-cpu16.json" >"$out/$p-cpu16.txt" 2>&1
            rc=$?
          fi
          [ "$rc" -eq 0 ] || status=1
          cat "$out/$p-cpu16.txt"
        fi
        echo "($p on $machine: $(( $(date +%s) - local_start )) s)"
      done
      ;;
    test-mpi)
      # The distributed puzzle on the GPU: its tests (1-4 ranks sharing the GPU) and every
      # reference with its rank counts. Needs a build with MPI (benchmarks/carried_mpi.sh).
      step "distributed tests on CUDA"
      ctest --preset cuda -R '^distributed' >"$out/ctest-mpi-cuda.log" 2>&1 || status=1
      tail -8 "$out/ctest-mpi-cuda.log"
      build/cuda/framework/cli/kpuzzles check distributed --reference --space cuda >"$out/check-mpi-cuda.log" 2>&1 || status=1
      tail -3 "$out/check-mpi-cuda.log"
      ;;
    mpi-gpu|mpi-cpu)
      # Scaling of the distributed puzzle: mpiexec starts kpuzzles-bench's ranks directly
      # (KPZ_RANK_PROCESS: each runs its part). GPU: 1 and 2 ranks sharing it. CPU: ranks x
      # threads = 16 cores, each rank bound to its own cores; strong scaling at 2^26 elements in
      # all (the bench's most: input and output 512 MiB, past the 16-core host's L3), weak at
      # 2^22 per rank (2^26 on 16 ranks). GPU: strong 2^26, weak 2^25 per rank.
      step "distributed scaling: $s"
      preset=$([ "$s" = mpi-gpu ] && echo cuda || echo openmp)
      mpiexec=$(grep -m1 '^MPIEXEC_EXECUTABLE' "build/$preset/CMakeCache.txt" 2>/dev/null | cut -d= -f2)
      [ -n "$mpiexec" ] || { echo "no MPI in this build"; status=1; continue; }
      export KPZ_RANK_PROCESS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
      if [ "$s" = mpi-gpu ]; then
        for r in 1 2; do
          for mode in "--size 67108864" "--per-rank-size 33554432"; do
            tag=$([ "${mode#--per}" != "$mode" ] && echo weak || echo strong)
            timeout 200 "$mpiexec" --oversubscribe -n $r -x KPZ_RANK_PROCESS build/cuda/framework/cli/kpuzzles-bench \
              bench distributed $mode --json-file "$out/distributed-$tag-r$r-gpu.json" >"$out/distributed-$tag-r$r-gpu.txt" 2>&1 || status=1
            tail -12 "$out/distributed-$tag-r$r-gpu.txt"
          done
        done
      else
        for r in 1 2 4 8 16; do
          t=$(( 16 / r ))
          for mode in "--size 67108864" "--per-rank-size 4194304"; do
            tag=$([ "${mode#--per}" != "$mode" ] && echo weak || echo strong)
            run_ranks() {  # binding
              timeout 200 "$mpiexec" --oversubscribe -n $r --map-by "slot:PE=$t" --bind-to "$1" -x KPZ_RANK_PROCESS \
                -x OMP_NUM_THREADS=$t -x OMP_PROC_BIND=spread -x OMP_PLACES=cores \
                build/openmp/framework/cli/kpuzzles-bench bench distributed $mode \
                --json-file "$out/distributed-$tag-r$r-cpu16.json" >"$out/distributed-$tag-r$r-cpu16.txt" 2>&1
            }
            # Binding each rank to its cores may be refused (a container's view of the CPUs):
            # then unbound, and the table says so.
            run_ranks core || { echo "(binding refused: unbound)" >>"$out/distributed-$tag-r$r-cpu16.txt"; run_ranks none; } || status=1
            tail -12 "$out/distributed-$tag-r$r-cpu16.txt"
          done
        done
      fi
      unset KPZ_RANK_PROCESS
      ;;
    *) echo "unknown step '$s'"; exit 2 ;;
  esac
done
step done
exit $status
