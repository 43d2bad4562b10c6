#!/usr/bin/env bash
# The tuner's library from the interleaved timing of run 92 (pass 1's
# cache) against the example: checks, memcheck, then two rounds of the
# sweep alternating.
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
SWEEP="2048x2048x2048,4096x4096x4096,8192x8192x8192,4096x4096x256,4096x4096x1024,4096x4096x16384,8192x8192x1024,8192x8192x16384,1024x8192x8192,8192x1024x8192,5120x5120x5120,6144x6144x6144,16384x4096x4096,4096x14336x4096,2048x8192x2048"
lib=tuned/lib.so
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv
echo "== check tuned"
timeout 150 ./tile-gemm-bench --library=$lib --dtype=bf16 --check --shapes=1x1x1,3x5x7,129x65x33,1000x1000x1000,4095x4097x1023,5000x5000x512,5120x5120x5120,8192x8192x8192,4096x14336x4096 | tail -1
for off in 1 8; do
  timeout 100 ./tile-gemm-bench --library=$lib --dtype=bf16 --check --no-cublas --offset=$off --shapes=1x1x1,3x5x7,1000x1000x1000,4095x4097x1023,5120x5120x5120 | tail -1
done
for tool in memcheck racecheck synccheck; do
  echo "== $tool tuned"
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 ./tile-gemm-bench --library=$lib --dtype=bf16 --check --no-cublas --shapes=256x256x256,129x65x33,1024x1024x1024 2>&1 | tail -2
  echo "exit ${PIPESTATUS[0]}"
done
for round in 1 2; do
  for n in tuned/lib.so aot/bf16/libgemm.so; do
    echo "== bench $n round $round"
    timeout 150 ./tile-gemm-bench --library=$n --dtype=bf16 --shapes="$SWEEP" --runs=5 | grep "^| [0-9]"
  done
done
