#!/bin/bash
# Run 165: head dimension 64 FlashAttention at 256 query rows and 64-key
# blocks (2 and 3 stages) against 128 x 128 and 128 x 64, cuDNN in the same
# process; block-wise FP8 at 5 stages checked and against 4.
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/log; : > $L
log() { echo "$@" | tee -a $L; }
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader | tee -a $L
A="--check --offset=0,8,1"
CS="--check-shapes=1:2:1,1:2:77,1:2:129,2:3:1000,1:2:4096"
for v in m256n64 m256n64s3; do
  timeout 120 python3 fa-sdpa.py --library fa64/$v/lib.so $A $CS > /tmp/c.log 2>&1
  log "check $v: $(grep -E 'FAIL|checks pass|rror' /tmp/c.log | head -3)"
done
S="--shapes=16:16:1024,4:16:4096,1:32:16384"
for round in 1 2; do
  for v in base128 base64 m256n64 m256n64s3; do
    log "== bench d64 $v round $round"
    timeout 100 python3 fa-sdpa.py --library fa64/$v/lib.so $S --bench --iters=20 2>&1 | grep "^| [0-9]" | tee -a $L
  done
done
FP8="4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384"
timeout 150 python3 fp8-torch.py --library bw5/libfp8_gemm.so --kind blockwise --check "1x1x32,3x5x7,1000x1000x1000,4095x4097x1023,128x128x128,8192x16x4096" --offsets 0,16,1 > /tmp/c.log 2>&1
log "check bw5: PASS $(grep -c PASS /tmp/c.log) FAIL $(grep -c FAIL /tmp/c.log)"
for t in memcheck racecheck synccheck; do
  timeout 120 compute-sanitizer --tool $t --error-exitcode 3 python3 fp8-torch.py --library bw5/libfp8_gemm.so --kind blockwise --check 129x65x300,1000x1000x1000 --offsets 0,1 > /tmp/r.log 2>&1
  log "$t bw5: rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/r.log | head -2)"
done
for round in 1 2; do
  for v in bw4 bw5; do
    log "== bench blockwise $v round $round"
    timeout 90 python3 fp8-torch.py --library $v/libfp8_gemm.so --kind blockwise --bench "$FP8" --runs 5 2>&1 | grep -E "geomean|^\| [0-9]" | tee -a $L
  done
done
log "== done $(date -u)"
