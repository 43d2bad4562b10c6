#!/bin/bash
# Run 179: FP8 per-tensor with 256-wide K blocks, the two promotion spans of a
# block issued together (TILE_SPAN_OVERLAP) against the example's default.
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/log; : > $L
log() { echo "$@" | tee -a $L; }
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee -a $L
FP8="4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384"
for v in v1 v2 v3; do
  log "== check $v"
  timeout 120 python3 fp8-torch.py --library x1/$v.so --kind tensor --function fp8_gemm --check "1x1x32,3x5x7,1000x1000x1000,4095x4097x1023,8192x16x4096" --offsets 0,1 2>&1 | grep -E "FAIL|checks passed|rror" | tail -3 | tee -a $L
done
for round in 1 2 3; do
  for v in v0 v1 v2 v3; do
    log "== bench $v round $round"
    timeout 90 python3 fp8-torch.py --library x1/$v.so --kind tensor --function fp8_gemm --bench "$FP8" --runs 5 2>&1 | grep -v "^benchmarking\|^|---" | tee -a $L
  done
done
