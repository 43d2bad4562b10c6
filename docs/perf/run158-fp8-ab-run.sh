#!/bin/bash
# Run 158: the same-process A/B of run 157's GPU question: FP8 128 x 128 at
# 6 stages with fa19da3's schedule (f8pp/v3) against 7627cd3's (cl/v2, and
# cl/v0 at 5 stages), the example beside them, three rounds.
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/log; : > $L
log() { echo "$@" | tee -a $L; }
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee -a $L
FP8="4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384"
for round in 1 2 3; do
  for v in f8pp/v3 cl/v2 cl/v0 f8pp/v5; do
    log "== bench FP8 $v round $round"
    timeout 90 python3 fp8-torch.py --library $v.so --kind tensor --function fp8_gemm --bench "$FP8" --runs 5 2>&1 | grep -v "^benchmarking\|^|---" | tee -a $L
  done
done
log "== done $(date -u)"
