#!/bin/bash
# Run 146: ring slots carried through the loop (tile-carry-ring-positions):
# FP8 per-tensor and bf16 GEMMs at 3, 5 and 6 stages against 4, the sparse
# GEMM at 3 stages; correctness and sanitizers of the new kernels.
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/log; : > $L
log() { echo "$@" | tee -a $L; }
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee -a $L
date -u | tee -a $L
F8CHECK="v1 v2"; F8BENCH="v0 v1 v2 v3"; F8SAN=v2; BFCHECK="v0 v3 v4"; BFSAN=v4
FP8="4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384"
BF="2048x2048x2048,4096x4096x4096,8192x8192x8192,4096x4096x1024,8192x8192x1024,5120x5120x5120"
log "== tune-time FP8"
timeout 170 ./tile-tune-time f8 --shapes "$FP8" --runs 7 --cache $OUT/f8.cache --save-timings $OUT/f8-timings.txt 2>&1 | grep -v "variants, best" | tail -3 | tee -a $L
cat $OUT/f8-timings.txt >> $L
log "== tune-time bf16"
timeout 170 ./tile-tune-time bf --shapes "$BF" --runs 7 --cache $OUT/bf.cache --save-timings $OUT/bf-timings.txt 2>&1 | grep -v "variants, best" | tail -3 | tee -a $L
cat $OUT/bf-timings.txt >> $L
CHECK="1x1x32,3x5x7,128x128x128,1000x1000x1000,4095x4097x1023,8192x16x4096"
for v in $F8CHECK; do
  log "== check FP8 $v"
  timeout 120 python3 fp8-torch.py --library f8/$v.so --kind tensor --function fp8_gemm --check "$CHECK" --offsets 0,16,1 2>&1 | tail -2 | tee -a $L
done
for v in $F8BENCH; do
  log "== bench FP8 $v"
  timeout 90 python3 fp8-torch.py --library f8/$v.so --kind tensor --function fp8_gemm --bench "$FP8" --runs 5 2>&1 | grep -v "^benchmarking" | tee -a $L
done
for v in $BFCHECK; do
  log "== check bf16 $v"
  timeout 120 ./tile-gemm-bench --library=bf/$v.so --dtype=bf16 --check --shapes=1x1x1,3x5x7,129x65x33,1000x1000x1000,4095x4097x1023,5000x5000x512 2>&1 | tail -1 | tee -a $L
  for off in 1 8; do
    timeout 100 ./tile-gemm-bench --library=bf/$v.so --dtype=bf16 --check --no-cublas --offset=$off --shapes=1x1x1,3x5x7,1000x1000x1000,4095x4097x1023 2>&1 | tail -1 | tee -a $L
  done
done
for tool in memcheck racecheck synccheck; do
  log "== $tool bf16 $BFSAN"
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 ./tile-gemm-bench --check --no-cublas --library=bf/$BFSAN.so --dtype=bf16 --shapes=256x512x1024,129x300x700 2>&1 | tail -2 | tee -a $L
  log "== $tool FP8 $F8SAN"
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 python3 fp8-torch.py --library f8/$F8SAN.so --kind tensor --function fp8_gemm --check 256x512x1024,129x300x700 --offsets 0,1 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|checks passed|rror" | tail -3 | tee -a $L
done
log "== sparse"
for v in sp_256x128_k128_s3 sp_example; do
  timeout 100 python3 sparse-torch.py --library sp/$v.so --dtype f16 --out f16 --bench 4096x4096x4096,8192x8192x8192 --dense-library sp/dense_f16.so --runs 7 2>&1 | grep -E 'bench|own|rror|TFLOP' | sed "s/^/$v: /" | tee -a $L
done
timeout 120 python3 sparse-torch.py --library sp/sp_256x128_k128_s3.so --compressor sp/compress_f16.so --dtype f16 --out f16 --check 256x512x4096,4095x4097x1023,1000x1000x1000,3x5x7,17x40x130 --offsets 0,1 > $OUT/spc.log 2>&1
log "sparse check: PASS $(grep -c PASS $OUT/spc.log) FAIL $(grep -c FAIL $OUT/spc.log) $(grep -E 'FAIL|rror' $OUT/spc.log | head -3)"
log "== done $(date -u)"
