#!/usr/bin/env bash
# Run 129: 3 stages against 4 for the bf16 GEMM (128 x 256) with the 32-bit
# decode of abe8c21: correctness (CPU reference, offsets 1 and 8),
# memcheck / racecheck / synccheck, and tile-tune-time against 4 stages.
cd "$(dirname "${BASH_SOURCE[0]}")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}
nvidia-smi --query-gpu=name,serial,driver_version,clocks.max.sm --format=csv
lib=bs/v0.so
echo "== check 3 stages"
timeout 120 ./tile-gemm-bench --library=$lib --dtype=bf16 --check --shapes=1x1x1,3x5x7,129x65x33,1000x1000x1000,4095x4097x1023,5000x5000x512,5120x5120x5120 | tail -1
for off in 1 8; do
  timeout 100 ./tile-gemm-bench --library=$lib --dtype=bf16 --check --no-cublas --offset=$off --shapes=1x1x1,3x5x7,1000x1000x1000,4095x4097x1023 | tail -1
done
for tool in memcheck racecheck synccheck; do
  echo "== $tool 3 stages"
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 ./tile-gemm-bench --check --no-cublas --library=$lib --dtype=bf16 --shapes=256x512x1024,129x300x700 2>&1 | tail -2
done
echo "== sanitizers, FP8 5 stages"
for tool in memcheck racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool --kernel-regex kns=fp8_gemm --error-exitcode 3 python3 fp8-torch.py --library fp8s5/v2.so --kind tensor --function fp8_gemm --check 256x512x1024,129x300x700 --offsets 0,1 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|checks passed" | tail -3
done
echo "== tune bf16 3 vs 4 stages"
timeout 150 ./tile-tune-time bs --shapes 4096x4096x4096,8192x8192x8192,4096x4096x1024,5120x5120x5120 --runs 7 --cache $OUT/bs.cache --save-timings $OUT/bs-timings.txt | grep -v "variants, best"
cat $OUT/bs-timings.txt
