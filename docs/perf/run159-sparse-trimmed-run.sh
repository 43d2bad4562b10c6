#!/bin/bash
# Run 159: the 2:4-sparse GEMM's consumer loop trimmed (tile.unroll = 2 written
# by tile-plan-pipes, unrolled after the lowering; run159-sparse-trim.patch):
# variants' speed, checks, sanitizers.
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
L=${OUT:-/tmp}/log; : > $L
log() { echo "$@" | tee -a $L; }
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader | tee -a $L
date -u | tee -a $L
bench() { # lib dtype [extra]
  timeout 120 python3 sparse-torch.py --library sp/$1.so --dtype $2 --out $2 --bench 4096x4096x4096,8192x8192x8192 --dense-library sp/dense_$2.so --runs 7 $3 2>&1 | grep -E 'bench|own|rror|TFLOP' | sed "s/^/$1: /" | tee -a $L
}
check() { # lib dtype
  timeout 150 python3 sparse-torch.py --library sp/$1.so --compressor sp/compress_$2.so --dtype $2 --out $2 --check 256x512x4096,256x256x16384,4095x4097x1023,1000x1000x1000,1x32x8,3x5x7,17x40x130,128x128x64 --offsets 0,1,8 > /tmp/c.log 2>&1
  log "check $1: PASS $(grep -c PASS /tmp/c.log) FAIL $(grep -c FAIL /tmp/c.log) $(grep -E 'FAIL|rror' /tmp/c.log | head -3)"
}
san() { timeout 150 compute-sanitizer --tool $2 --error-exitcode 3 python3 sparse-torch.py --library sp/$1.so --out f16 --check 256x512x1024,129x300x700 --offsets 0,1 > /tmp/s.log 2>&1; log "$2 $1: rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|Race reported' /tmp/s.log | tail -1) PASS $(grep -c PASS /tmp/s.log) FAIL $(grep -c FAIL /tmp/s.log)"; }
log "== bench round 1 f16"
for v in sp_128x256_k128_s2 sp_128x256_k64_s4 sp_128x256_k64_s5 sp_256x128_k128_s3 sp_256x128_k64_s5 sp_128x128_k128_s4; do bench $v f16; done
log "== checks"
for v in sp_128x256_k64_s4 sp_128x256_k64_s5 sp_256x128_k64_s5 sp_256x128_k128_s3; do check $v f16; done
check sp_128x256_k64_s4_bf16 bf16
log "== sanitizers"
for t in memcheck racecheck synccheck; do san sp_128x256_k64_s4 $t; done
san sp_256x128_k64_s5 racecheck
log "== bench bf16"
for v in sp_128x256_k128_s2_bf16 sp_128x256_k64_s4_bf16 sp_128x256_k64_s5_bf16 sp_256x128_k128_s3_bf16; do bench $v bf16; done
log "== bench round 2 f16"
for v in sp_128x256_k128_s2 sp_128x256_k64_s4 sp_128x256_k64_s5 sp_256x128_k64_s5; do bench $v f16; done
log "== torch semi-structured"
bench sp_128x256_k64_s4 f16 --semi
log "== done $(date -u)"
