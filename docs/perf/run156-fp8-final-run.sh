#!/bin/bash
# Run 156: the working tree's compiler (tile-unroll-loops, additions after
# the issue, uniform warp index with turns): FP8 128 x 128 with and without
# turns at 4-6 stages, the alternating bf16 GEMM; checks and sanitizers.
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/log; : > $L
log() { echo "$@" | tee -a $L; }
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee -a $L
date -u | tee -a $L
FP8="4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384"
CHECK="1x1x32,3x5x7,128x128x128,1000x1000x1000,4095x4097x1023,8192x16x4096"
for v in v0 v2 v4 v5; do
  log "== check FP8 fin/$v"
  timeout 120 python3 fp8-torch.py --library fin/$v.so --kind tensor --function fp8_gemm --check "$CHECK" --offsets 0,16,1 2>&1 | grep -E "FAIL|checks passed|rror" | tail -4 | tee -a $L
done
log "== check bf16 falt/v0"
timeout 120 ./tile-gemm-bench --library=falt/v0.so --dtype=bf16 --check --shapes=1x1x1,3x5x7,129x65x33,1000x1000x1000,4095x4097x1023,5000x5000x512 2>&1 | tail -1 | tee -a $L
timeout 100 ./tile-gemm-bench --library=falt/v0.so --dtype=bf16 --check --no-cublas --offset=1 --shapes=3x5x7,1000x1000x1000,4095x4097x1023 2>&1 | tail -1 | tee -a $L
for round in 1 2; do
  for v in fin/v0 fin/v1 fin/v2 fin/v3 fin/v4 fin/v5 f8pp/v5; do
    log "== bench FP8 $v round $round"
    timeout 90 python3 fp8-torch.py --library $v.so --kind tensor --function fp8_gemm --bench "$FP8" --runs 5 2>&1 | grep -v "^benchmarking\|^|---" | tee -a $L
  done
done
for tool in memcheck racecheck synccheck; do
  log "== $tool FP8 fin/v4"
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 python3 fp8-torch.py --library fin/v4.so --kind tensor --function fp8_gemm --check 256x512x1024,129x300x700 --offsets 0,1 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|checks passed|rror" | tail -3 | tee -a $L
  log "== $tool bf16 falt/v0"
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 ./tile-gemm-bench --check --no-cublas --library=falt/v0.so --dtype=bf16 --shapes=256x512x1024,129x300x700 2>&1 | tail -2 | tee -a $L
done
log "== done $(date -u)"
