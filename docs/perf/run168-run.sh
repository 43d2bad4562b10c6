#!/bin/bash
# Run 168: head dimension 64 FlashAttention with four consumer warpgroups
# (256 query rows, 64-key blocks, 512 threads, producer at 24 registers)
# against the 128 x 128 kernel with the producer at 40 (as committed) and
# at 24 registers; cuDNN in the same process.
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/log; : > $L
log() { echo "$@" | tee -a $L; }
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader | tee -a $L
A="--check --offset=0,8,1"
CS="--check-shapes=1:2:1,1:2:77,1:2:129,2:3:1000,1:2:4096"
for v in w4 p24; do
  timeout 120 python3 fa-sdpa.py --library fa/$v/lib.so $A $CS > $OUT/check-$v.log 2>&1
  log "check $v: $(grep -E 'FAIL|checks pass|rror' $OUT/check-$v.log | head -3)"
done
S="--shapes=16:16:1024,4:16:4096,1:32:16384"
for round in 1 2; do
  for v in base w4 p24; do
    log "== bench $v round $round"
    timeout 100 python3 fa-sdpa.py --library fa/$v/lib.so $S --bench --iters=20 2>&1 | grep "^| [0-9]" | tee -a $L
  done
done
log "== done $(date -u)"
