#!/bin/bash
# Run 153: FP8 promotion overlapped with the next K block's MMAs (two partial-sum
# sets, the consumer loop unrolled by two) at 128 x 128.
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/log; : > $L
log() { echo "$@" | tee -a $L; }
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee -a $L
date -u | tee -a $L
FP8="4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384"
CHECK="1x1x32,3x5x7,128x128x128,1000x1000x1000,4095x4097x1023,8192x16x4096"
for v in v0 v1 v2; do
  log "== check FP8 f8u/$v"
  timeout 120 python3 fp8-torch.py --library f8u/$v.so --kind tensor --function fp8_gemm --check "$CHECK" --offsets 0,16,1 2>&1 | grep -E "FAIL|checks passed|rror" | tail -4 | tee -a $L
done
for round in 1 2; do
  for v in f8u/v0 f8u/v1 f8u/v2 f8pp/v1 f8pp/v3 f8pp/v5 f8p0/v1; do
    log "== bench FP8 $v round $round"
    timeout 90 python3 fp8-torch.py --library $v.so --kind tensor --function fp8_gemm --bench "$FP8" --runs 5 2>&1 | grep -v "^benchmarking\|^|---" | tee -a $L
  done
done
for tool in memcheck racecheck synccheck; do
  log "== $tool FP8 f8u/v2"
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 python3 fp8-torch.py --library f8u/v2.so --kind tensor --function fp8_gemm --check 256x512x1024,129x300x700 --offsets 0,1 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|checks passed|rror" | tail -3 | tee -a $L
done
log "== done $(date -u)"
