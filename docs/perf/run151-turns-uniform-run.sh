#!/bin/bash
# Run 151: consumer warpgroups taking turns (tile.alternate_tiles, tile.pingpong)
# with the roles' uniform warp index (descriptors in uniform registers).
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/log; : > $L
log() { echo "$@" | tee -a $L; }
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee -a $L
date -u | tee -a $L
SWEEP="2048x2048x2048,4096x4096x4096,8192x8192x8192,4096x4096x256,4096x4096x1024,4096x4096x16384,8192x8192x1024,8192x8192x16384,1024x8192x8192,8192x1024x8192,5120x5120x5120,6144x6144x6144,16384x4096x4096,4096x14336x4096,2048x8192x2048"
FP8="4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384"
for v in alt/v0 alt/v2 alt64/v0; do
  log "== check bf16 $v"
  timeout 120 ./tile-gemm-bench --library=$v.so --dtype=bf16 --check --shapes=1x1x1,3x5x7,129x65x33,1000x1000x1000,4095x4097x1023,5000x5000x512 2>&1 | tail -1 | tee -a $L
  timeout 100 ./tile-gemm-bench --library=$v.so --dtype=bf16 --check --no-cublas --offset=1 --shapes=3x5x7,1000x1000x1000,4095x4097x1023 2>&1 | tail -1 | tee -a $L
done
CHECK="1x1x32,3x5x7,128x128x128,1000x1000x1000,4095x4097x1023,8192x16x4096"
for v in v0 v2 v4; do
  log "== check FP8 f8pp/$v"
  timeout 120 python3 fp8-torch.py --library f8pp/$v.so --kind tensor --function fp8_gemm --check "$CHECK" --offsets 0,16,1 2>&1 | tail -2 | tee -a $L
done
for round in 1 2; do
  for v in ex/v0 alt/v0 alt/v1 alt/v2 altn/v0 alt64/v0 alt64/v1; do
    log "== bench bf16 $v round $round"
    timeout 150 ./tile-gemm-bench --library=$v.so --dtype=bf16 --shapes="$SWEEP" --runs=5 2>&1 | grep "^| [0-9]" | tee -a $L
  done
  for v in v0 v1 v2 v3 v4 v5; do
    log "== bench FP8 f8pp/$v round $round"
    timeout 90 python3 fp8-torch.py --library f8pp/$v.so --kind tensor --function fp8_gemm --bench "$FP8" --runs 5 2>&1 | grep -v "^benchmarking" | tee -a $L
  done
done
for tool in memcheck racecheck synccheck; do
  log "== $tool bf16 alt/v0"
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 ./tile-gemm-bench --check --no-cublas --library=alt/v0.so --dtype=bf16 --shapes=256x512x1024,129x300x700 2>&1 | tail -2 | tee -a $L
  log "== $tool FP8 f8pp/v0"
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 python3 fp8-torch.py --library f8pp/v0.so --kind tensor --function fp8_gemm --check 256x512x1024,129x300x700 --offsets 0,1 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|checks passed|rror" | tail -3 | tee -a $L
done
log "== done $(date -u)"
