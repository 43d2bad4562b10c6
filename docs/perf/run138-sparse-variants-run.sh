#!/bin/bash
# Run 138: the 2:4 sparse GEMM with MMAs in flight at deeper pipelines.
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
L=${OUT:-/tmp}/log; : > $L
log() { echo "$@" | tee -a $L; }
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader | tee -a $L
date -u | tee -a $L
bench() { # lib dtype
  timeout 100 python3 sparse-torch.py --library sp/$1.so --dtype $2 --out $2 --bench 4096x4096x4096,8192x8192x8192 --dense-library sp/dense_$2.so --runs 7 2>&1 | grep -E 'bench|own|rror|TFLOP' | sed "s/^/$1: /" | tee -a $L
}
check() { # lib dtype
  timeout 120 python3 sparse-torch.py --library sp/$1.so --compressor sp/compress_$2.so --dtype $2 --out $2 --check 256x512x4096,256x256x16384,4095x4097x1023,1000x1000x1000,3x5x7,17x40x130 --offsets 0,1 > /tmp/c.log 2>&1
  log "check $1: PASS $(grep -c PASS /tmp/c.log) FAIL $(grep -c FAIL /tmp/c.log) $(grep -E 'FAIL|rror' /tmp/c.log | head -3)"
}
log "== bench round 1 f16"
for v in sp_128x256_k128_s2_if0 sp_128x128_k128_s4_if1 sp_128x256_k64_s4_if1 sp_128x256_k64_s5_if1 sp_256x128_k128_s3_if1 sp_128x128_k128_s4_if0 sp_128x256_k64_s4_if0 sp_256x128_k128_s3_if0 sp_128x256_k128_s2_if1; do bench $v f16; done
log "== checks f16"
for v in sp_128x128_k128_s4_if1 sp_128x256_k64_s4_if1 sp_128x256_k64_s5_if1 sp_256x128_k128_s3_if1; do check $v f16; done
log "== bench bf16"
for v in sp_128x256_k128_s2_if0_bf16 sp_128x128_k128_s4_if1_bf16 sp_128x256_k64_s4_if1_bf16 sp_128x256_k64_s5_if1_bf16; do bench $v bf16; done
log "== bench round 2 f16"
for v in sp_128x256_k128_s2_if0 sp_128x128_k128_s4_if1 sp_128x256_k64_s4_if1 sp_128x256_k64_s5_if1; do bench $v f16; done
log "== done $(date -u)"
