#!/bin/bash
# Run 157: FP8 128 x 128 at 5 and 6 stages (promotion overlapping the next
# block's MMAs, commit 7627cd3) in clusters of two against single blocks.
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/log; : > $L
log() { echo "$@" | tee -a $L; }
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee -a $L
date -u | tee -a $L
FP8="4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384"
CHECK="1x1x32,3x5x7,128x128x128,1000x1000x1000,4095x4097x1023,8192x16x4096"
for v in v1 v3; do
  log "== check FP8 cl/$v"
  timeout 120 python3 fp8-torch.py --library cl/$v.so --kind tensor --function fp8_gemm --check "$CHECK" --offsets 0,16,1 2>&1 | grep -E "FAIL|checks passed|rror" | tail -4 | tee -a $L
done
for round in 1 2; do
  for v in cl/v0 cl/v1 cl/v2 cl/v3 f8pp/v5; do
    log "== bench FP8 $v round $round"
    timeout 90 python3 fp8-torch.py --library $v.so --kind tensor --function fp8_gemm --bench "$FP8" --runs 5 2>&1 | grep -v "^benchmarking\|^|---" | tee -a $L
  done
done
log "== done $(date -u)"
