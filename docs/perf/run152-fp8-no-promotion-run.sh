#!/bin/bash
# Run 152: what promotion costs: FP8 per-tensor without promotion (promote_k = 0)
# against the promoting kernels and _scaled_mm with and without fast accumulation.
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/log; : > $L
log() { echo "$@" | tee -a $L; }
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee -a $L
date -u | tee -a $L
FP8="4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384"
for round in 1 2; do
  for fast in 0 1; do
    for v in f8p0/v0 f8p0/v1 f8p0/v2 f8pp/v3 f8pp/v5; do
      log "== bench FP8 $v fast_accum=$fast round $round"
      FP8_FAST_ACCUM=$fast timeout 90 python3 fp8-torch.py --library $v.so --kind tensor --function fp8_gemm --bench "$FP8" --runs 5 2>&1 | grep -v "^benchmarking\|^|---" | tee -a $L
    done
  done
done
log "== check f8p0/v1 (no promotion: accuracy expected to differ at long K)"
timeout 120 python3 fp8-torch.py --library f8p0/v1.so --kind tensor --function fp8_gemm --check "128x128x128,1000x1000x1000,4095x4097x1023,8192x16x4096" --offsets 0 2>&1 | tail -5 | tee -a $L
log "== done $(date -u)"
