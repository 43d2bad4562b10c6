#!/bin/bash
# Run 169: the producer warpgroup at 24 registers (consumers 240) against
# 40 (consumers 232, as committed): FlashAttention D64, D128 and GQA
# (128-key blocks), the bf16 GEMM example, FP8 per-tensor; references in
# the same process, rounds alternating.
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/log; : > $L
log() { echo "$@" | tee -a $L; }
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader | tee -a $L
A="--check --offset=0,8,1"
CS="--check-shapes=1:2:1,1:2:77,1:2:129,2:3:1000,1:2:4096"
for v in d64 d128; do
  timeout 120 python3 fa-sdpa.py --library p/r24/$v/lib.so $A $CS > $OUT/check-$v.log 2>&1
  log "check r24 $v: $(grep -E 'FAIL|checks pass|rror' $OUT/check-$v.log | head -3)"
done
timeout 120 python3 fa-sdpa.py --library p/r24/gqa/lib.so --function flash_attention_gqa_fwd --kv-group 4 $A --check-shapes=1:4:1,1:4:77,1:8:129,2:4:1000,1:4:4096 > $OUT/check-gqa.log 2>&1
log "check r24 gqa: $(grep -E 'FAIL|checks pass|rror' $OUT/check-gqa.log | head -3)"
timeout 120 ./tile-gemm-bench --library=p/r24/gemm/libgemm.so --dtype=bf16 --check --shapes=1x1x1,129x65x33,1000x1000x1000,4095x4097x1023 > $OUT/check-gemm.log 2>&1
log "check r24 gemm: rc=$? $(grep -ciE 'fail|mismatch' $OUT/check-gemm.log) failure lines"
timeout 120 python3 fp8-torch.py --library p/r24/fp8/libfp8_gemm.so --kind tensor --check "1x1x32,3x5x7,1000x1000x1000,4095x4097x1023" --offsets 0,1 > $OUT/check-fp8.log 2>&1
log "check r24 fp8: PASS $(grep -c PASS $OUT/check-fp8.log) FAIL $(grep -c FAIL $OUT/check-fp8.log)"
S="--shapes=16:16:1024,4:16:4096,1:32:16384"
G="4096x4096x4096,8192x8192x8192,4096x4096x1024,2048x2048x2048,2048x8192x2048,4096x14336x4096"
for round in 1 2; do
  for t in r40 r24; do
    for v in d64 d128; do
      log "== bench $t $v round $round"
      timeout 100 python3 fa-sdpa.py --library p/$t/$v/lib.so $S --bench --iters=20 2>&1 | grep "^| [0-9]" | tee -a $L
    done
    log "== bench $t gqa round $round"
    timeout 100 python3 fa-sdpa.py --library p/$t/gqa/lib.so --function flash_attention_gqa_fwd --kv-group 4 --shapes=4:32:4096,1:32:16384 --bench --iters=20 2>&1 | grep "^| [0-9]" | tee -a $L
    log "== bench $t gemm round $round"
    timeout 100 ./tile-gemm-bench --library=p/$t/gemm/libgemm.so --dtype=bf16 --shapes=$G --runs=5 2>&1 | grep "^| [0-9]" | tee -a $L
    log "== bench $t fp8 round $round"
    timeout 90 python3 fp8-torch.py --library p/$t/fp8/libfp8_gemm.so --kind tensor --bench "4096x4096x4096,8192x8192x8192,8192x8192x4096" --runs 5 2>&1 | grep -E "geomean|^\| [0-9]" | tee -a $L
  done
done
log "== done $(date -u)"
