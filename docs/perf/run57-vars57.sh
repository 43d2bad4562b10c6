#!/usr/bin/env bash
# Session 26, run 57: launch-order groups and clusters on the H200 sweep.
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}"
SWEEP="2048x2048x2048,4096x4096x4096,8192x8192x8192,4096x4096x256,4096x4096x1024,4096x4096x16384,8192x8192x1024,8192x8192x16384,1024x8192x8192,8192x1024x8192,5120x5120x5120,6144x6144x6144,16384x4096x4096,4096x14336x4096,2048x8192x2048"
for n in clu2 clu2g16; do
  echo "== check $n"
  timeout 60 ./tile-gemm-bench --library=defaults/$n/lib.so --dtype=bf16 --check --shapes=3x5x7,129x65x33,1000x1000x1000,4095x4097x1023,8192x16x4096 | tail -1
done
for n in new-ex clu2 g4 g16 g2 clu2g16 new-ex; do
  echo "== bench $n"
  timeout 120 ./tile-gemm-bench --library=defaults/$n/lib.so --dtype=bf16 --shapes="$SWEEP" --runs=5 | grep "^|"
done
