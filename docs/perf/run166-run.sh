#!/bin/bash
# Run 166: FlashAttention (D64 and D128, 128 x 128 tiles) with every 4th or
# 8th exponential of a block computed by a polynomial on the FMA pipe,
# against all on MUFU, cuDNN in the same process; block-wise FP8 racecheck
# at 4 and 5 stages with the hazards' details.
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/log; : > $L
log() { echo "$@" | tee -a $L; }
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader | tee -a $L
A="--check --offset=0,8,1"
CS="--check-shapes=1:2:1,1:2:77,1:2:129,2:3:1000,1:2:4096"
for v in d64-e4 d64-e8 d128-e4 d128-e8; do
  timeout 120 python3 fa-sdpa.py --library fa/$v/lib.so $A $CS > /tmp/c.log 2>&1
  log "check $v: $(grep -E 'FAIL|checks pass|rror' /tmp/c.log | head -3)"
done
grep -E "err|max" /tmp/c.log | head -5 | tee -a $L
S="--shapes=16:16:1024,4:16:4096,1:32:16384"
for round in 1 2; do
  for v in d64-e0 d64-e4 d64-e8 d128-e0 d128-e4 d128-e8; do
    log "== bench $v round $round"
    timeout 100 python3 fa-sdpa.py --library fa/$v/lib.so $S --bench --iters=20 2>&1 | grep "^| [0-9]" | tee -a $L
  done
done
for v in bw4 bw5; do
  for sh in 129x65x300 1000x1000x1000; do
    for off in 0 1; do
      timeout 120 compute-sanitizer --tool racecheck --error-exitcode 3 python3 fp8-torch.py --library $v/libfp8_gemm.so --kind blockwise --check $sh --offsets $off > $OUT/race-$v-$sh-$off.log 2>&1
      log "racecheck $v $sh offset $off: rc=$? $(grep -E 'RACECHECK SUMMARY' $OUT/race-$v-$sh-$off.log)"
    done
  done
done
log "== done $(date -u)"
