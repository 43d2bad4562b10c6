#!/bin/bash
# Run 176: where a kernel lets the next one launch: at its entry (run 175)
# or at its end (TILE_PDL_SIGNAL_AT_END at compile time), against plain
# launches; the bf16 sweep and the FP8 per-tensor example, three rounds.
cd "$(dirname "${BASH_SOURCE[0]}")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}
L=$OUT/log; : > $L
log() { echo "$@" | tee -a $L; }
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader | tee -a $L
log "== 5120^3 offset 1, plain launches"; timeout 150 ./tile-gemm-bench --library=ab/gemm-nopdl/libgemm.so --dtype=bf16 --check --shapes=5120x5120x5120 --offset=1 2>&1 | grep -E "vs|PASS|FAIL" | tee -a $L
log "== check gemm-end"; for off in 0 1; do timeout 150 ./tile-gemm-bench --library=ab/gemm-end/libgemm.so --dtype=bf16 --check --shapes=1x1x1,3x5x7,1000x1000x1000,4095x4097x1023,64x64x65536 --offset=$off 2>&1 | grep -E "summary" | tee -a $L; done
log "== check fp8-end"; timeout 120 python3 fp8-torch.py --library ab/fp8-end/libfp8_gemm.so --kind tensor --check "1x1x32,3x5x7,1000x1000x1000,4095x4097x1023" --offsets 0,1 2>&1 | grep -E "FAIL|checks passed" | tail -2 | tee -a $L
SW=2048x2048x2048,4096x4096x4096,8192x8192x8192,4096x4096x256,4096x4096x1024,4096x4096x16384,8192x8192x1024,8192x8192x16384,1024x8192x8192,8192x1024x8192,5120x5120x5120,6144x6144x6144,16384x4096x4096,4096x14336x4096,2048x8192x2048
FP8="4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384"
for round in 1 2 3; do
  for v in fp8-nopdl fp8 fp8-end; do
    log "== fp8 $v round $round"; timeout 90 python3 fp8-torch.py --library ab/$v/libfp8_gemm.so --kind tensor --bench "$FP8" --runs 5 2>&1 | grep -E "^\| [0-9]|geomean" | tee -a $L
  done
done
for round in 1 2; do for v in gemm-nopdl gemm gemm-end; do
  log "== sweep $v round $round"
  timeout 200 ./tile-gemm-bench --library=ab/$v/libgemm.so --dtype=bf16 --shapes=$SW --runs=5 2>&1 | grep -E "^\| [0-9]" | tee -a $L
done; done
log "== done $(date -u)"
