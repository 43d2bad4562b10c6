#!/usr/bin/env bash
# Session 15, run 41b: consumer warpgroups alternating tiles
# (tile.alternate_tiles) against the example, same process.
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}"
SWEEP="2048x2048x2048,4096x4096x4096,8192x8192x8192,4096x4096x256,4096x4096x1024,4096x4096x16384,8192x8192x1024,8192x8192x16384,1024x8192x8192,8192x1024x8192,5120x5120x5120,6144x6144x6144,16384x4096x4096,4096x14336x4096,2048x8192x2048"
CHECK="1x1x1,3x5x7,129x65x33,1000x1000x1000,4095x4097x1023,1x4096x4096,8192x16x4096,2047x1025x513"
{
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv
date -u
for n in alt128 alt64; do
  echo "== quick $n"
  timeout 60 ./tile-gemm-bench --library=defaults/$n/lib.so --dtype=bf16 --shapes=2048x2048x2048,4096x4096x256,4096x4096x4096 --runs=3 | grep '^|'
done
for n in alt128 alt64 alt128s5 old-bf16; do
  lib=defaults/$n/lib.so
  echo "== check $n"
  timeout 120 ./tile-gemm-bench --library=$lib --dtype=bf16 --check --shapes="$CHECK" | tail -2
  for off in 1 8; do
    timeout 60 ./tile-gemm-bench --library=$lib --dtype=bf16 --check --no-cublas --offset=$off --shapes=129x65x33,1000x1000x1000,4095x4097x1023 | tail -1
  done
done
for n in alt128 alt64; do
  for tool in memcheck racecheck synccheck; do
    echo "== $tool $n"
    timeout 200 compute-sanitizer --tool $tool --error-exitcode 1 ./tile-gemm-bench --library=defaults/$n/lib.so --dtype=bf16 --check --no-cpu-ref --no-cublas --shapes=129x65x33,1536x2304x128 | tail -2
    echo "rc=$?"
  done
done
for n in alt128 alt64 example-bf16 alt128s5 old-bf16 noalt128; do
  echo "== bench $n"
  timeout 70 ./tile-gemm-bench --library=defaults/$n/lib.so --dtype=bf16 --shapes="$SWEEP" --runs=5 | grep '^|'
done
} 2>&1 | tee $OUT/exp11.log
