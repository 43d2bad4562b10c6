#!/bin/bash
# Run 164: FP8 per-tensor at the new default (128 x 128, 5 stages, turns)
# over launch groups 4 / 8 / 16 and clusters of 1 / 2 (examples/
# fp8_gemm_tunable.mlir, tile-tune --compile-only), two rounds in one
# process; the cluster variants checked.
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/log; : > $L
log() { echo "$@" | tee -a $L; }
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader | tee -a $L
FP8="4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384"
for round in 1 2; do
  for v in 2 0 4 3 1 5; do
    log "== bench g/v$v $(grep "^variant $v " g/manifest.txt | cut -d' ' -f3) round $round"
    timeout 90 python3 fp8-torch.py --library g/v$v.so --kind tensor --function fp8_gemm --bench "$FP8" --runs 5 2>&1 | grep -E "geomean|^\| [0-9]" | tee -a $L
  done
done
for v in 3; do
  timeout 120 python3 fp8-torch.py --library g/v$v.so --kind tensor --function fp8_gemm --check "1x1x32,3x5x7,1000x1000x1000,4095x4097x1023,128x128x128,8192x16x4096" --offsets 0,16,1 > /tmp/c.log 2>&1
  log "check g/v$v: PASS $(grep -c PASS /tmp/c.log) FAIL $(grep -c FAIL /tmp/c.log)"
done
log "== done $(date -u)"
