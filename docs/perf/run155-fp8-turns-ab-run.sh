#!/bin/bash
# Run 155: turns with the promotion inside (ppa) and after (f8upp, ppb5) the turn.
# turn's MMAs, uniform warp index; against the same without turns.
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/log; : > $L
log() { echo "$@" | tee -a $L; }
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee -a $L
FP8="4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384"
CHECK="1x1x32,3x5x7,128x128x128,1000x1000x1000,4095x4097x1023,8192x16x4096"
log "== check ppb5/v0"
timeout 120 python3 fp8-torch.py --library ppb5/v0.so --kind tensor --function fp8_gemm --check "$CHECK" --offsets 0,1 2>&1 | grep -E "FAIL|checks passed|rror" | tail -4 | tee -a $L
for round in 1 2; do
  for v in ppa/v0 f8upp/v1 ppb5/v0 f8pp/v5; do
    log "== bench FP8 $v round $round"
    timeout 90 python3 fp8-torch.py --library $v.so --kind tensor --function fp8_gemm --bench "$FP8" --runs 5 2>&1 | grep -v "^benchmarking\|^|---" | tee -a $L
  done
done
log "== done $(date -u)"
