#!/usr/bin/env bash
# Kernels the new warp-specialization rule specializes by default (the old
# one did not): 128 x 128 tiles with K step 32, one warpgroup, 3 stages
# (wsnew/lib_32_128_3.so) and K step 64, two warpgroups, 3 stages
# (wsnew/lib_64_256_3.so), compiled with no attribute: checks, sanitizers,
# speed against cuBLAS.
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,serial,clocks.max.sm,driver_version --format=csv
for lib in wsnew/lib_32_128_3.so wsnew/lib_64_256_3.so; do
  echo "== check $lib"
  timeout 150 ./tile-gemm-bench --library=$lib --dtype=bf16 --check --shapes=1x1x1,3x5x7,129x65x33,1000x1000x1000,4095x4097x1023,5000x5000x512,2048x2048x2048,64x64x65536,512x512x16384 | tail -1
  for off in 1 8; do
    timeout 100 ./tile-gemm-bench --library=$lib --dtype=bf16 --check --no-cublas --offset=$off --shapes=3x5x7,1000x1000x1000,4095x4097x1023,5000x5000x512 | tail -1
  done
  for tool in memcheck racecheck synccheck; do
    echo "== $tool $lib"
    timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 ./tile-gemm-bench --library=$lib --dtype=bf16 --check --no-cublas --shapes=256x256x256,129x65x33,1024x1024x2048 2>&1 | tail -2
    echo "exit ${PIPESTATUS[0]}"
  done
  echo "== bench $lib"
  timeout 100 ./tile-gemm-bench --library=$lib --dtype=bf16 --shapes=2048x2048x2048,4096x4096x4096,8192x8192x8192 --runs=3 | grep "^| [0-9]"
done
