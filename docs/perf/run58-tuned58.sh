#!/usr/bin/env bash
# Session 26, run 58: the tuner's library with quarter-octave classes.
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}"
SWEEP="2048x2048x2048,4096x4096x4096,8192x8192x8192,4096x4096x256,4096x4096x1024,4096x4096x16384,8192x8192x1024,8192x8192x16384,1024x8192x8192,8192x1024x8192,5120x5120x5120,6144x6144x6144,16384x4096x4096,4096x14336x4096,2048x8192x2048"
lib=defaults/tuned3/lib.so
echo "== check tuned3"
timeout 120 ./tile-gemm-bench --library=$lib --dtype=bf16 --check --shapes=1x1x1,3x5x7,129x65x33,1000x1000x1000,4095x4097x1023,1x4096x4096,8192x16x4096,2047x1025x513,5000x5000x512,4097x4096x300 | tail -2
for off in 1 8; do
  timeout 60 ./tile-gemm-bench --library=$lib --dtype=bf16 --check --no-cublas --offset=$off --shapes=1x1x1,3x5x7,129x65x33,1000x1000x1000,4095x4097x1023,5000x3000x700 | tail -1
done
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 1 ./tile-gemm-bench --library=$lib --dtype=bf16 --check --no-cpu-ref --shapes=129x65x33,300x520x200,2048x2048x256,5000x600x128 | tail -2
echo "== 5120^3 per variant"
for v in 1 3 5; do
  echo "-- v$v"; timeout 60 ./tile-gemm-bench --library=defaults/tune/v$v.so --dtype=bf16 --shapes=5120x5120x5120,6144x6144x6144 --runs=7 | grep "^| [0-9]"
done
for n in tuned3 new-ex; do
  echo "== bench $n"
  timeout 200 ./tile-gemm-bench --library=defaults/$n/lib.so --dtype=bf16 --shapes="$SWEEP" --runs=7 | grep "^|"
done
