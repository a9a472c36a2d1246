#!/usr/bin/env bash
# On the GPU machine: run benchmarks/run_portability.sh on a snapshot of one commit, so that
# uncommitted edits in the session's working tree (which travels with every device call) do not
# leak into a measurement. Here, before the call:
#   git archive <commit> -o .carry/src.tar[.gz] (.carry/ is ignored; carry it, with the Kokkos and
#                                                Kokkos Kernels archives and a googletest copy)
# The device command:
#   KPZ_COMMIT=<commit> bash .carry/device_snapshot.sh build test-cuda gpu:conv1d cpu:conv1d
# (copy this file into .carry/). KPZ_REUSE=1 keeps the previous call's build on a machine that is
# still warm; KPZ_EXTRA='commands' runs after the steps. Everything lands in $OUT/o.tgz (a device
# call returns at most 8 files).
R=$PWD
if [ -z "${KPZ_REUSE:-}" ] || [ ! -d /tmp/s/build ]; then
  rm -rf /tmp/s /tmp/o && mkdir -p /tmp/s /tmp/o && tar -xf "$(ls .carry/src.tar .carry/src.tar.gz 2>/dev/null | head -1)" -C /tmp/s
fi
mkdir -p /tmp/o
cd /tmp/s || exit 1
rm -f .carry
ln -s "$R/.carry" .carry
export KPZ_COMMIT="${KPZ_COMMIT:-snapshot}"
bash benchmarks/run_portability.sh /tmp/o "$@" 2>&1 | tee /tmp/o/console.log
if [ -n "${KPZ_EXTRA:-}" ]; then
  echo "== extra"
  bash -c "$KPZ_EXTRA" 2>&1 | tee /tmp/o/extra.log
fi
tar -czf "$OUT/o.tgz" -C /tmp o
