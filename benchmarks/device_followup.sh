#!/usr/bin/env bash
# A second device call, while the machine of a first `device_snapshot.sh build-cuda ...` call is
# still warm (KPZ_REUSE keeps its /tmp/s): the 16-core host's build, the distributed puzzle's
# scaling there (run_portability.sh mpi-cpu), basics --scratch-levels on the 16-core CPU, and a
# launch-shape sweep of batched on the GPU (team size x vector length, for the lesson's shape).
# Here, before the call: cp benchmarks/device_followup.sh benchmarks/device_snapshot.sh .carry/
# The device command (carry [".carry"]): bash .carry/device_followup.sh
# Everything lands in $OUT/o.tgz with the first call's results.
source benchmarks/carried_mpi.sh .carry/mpi >/tmp/mpienv2.log 2>&1
SECONDS=0
KPZ_REUSE=1 KPZ_BUILD_TARGETS="kpuzzles kpuzzles-bench" timeout 400 bash .carry/device_snapshot.sh build mpi-cpu
cd /tmp/s || exit 1
OMP_NUM_THREADS=16 OMP_PROC_BIND=spread OMP_PLACES=cores timeout 60 build/openmp/framework/cli/kpuzzles bench basics \
  --scratch-levels 1 --json-file /tmp/o/basics-scratch-levels-cpu16.json >/tmp/o/basics-scratch-levels-cpu16.txt 2>&1
for ts in 1 2 4 8; do
  for vl in 8 16 32; do
    [ "$SECONDS" -gt 520 ] && break 2
    timeout 30 build/cuda/framework/cli/kpuzzles bench batched --team-size $ts --vector-length $vl --runs 10 \
      >"/tmp/o/batched-sweep-t$ts-v$vl.txt" 2>&1
  done
done
tar -czf "$OUT/o.tgz" -C /tmp o
