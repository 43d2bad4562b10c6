#!/bin/bash
# Run 142: sparse kernels of three and four stages compiled without any
# attribute (MMAs in flight by the compiler's decision): checks, sanitizers, speed.
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
L=${OUT:-/tmp}/log; : > $L
log() { echo "$@" | tee -a $L; }
nvidia-smi --query-gpu=name,serial,driver_version --format=csv,noheader | tee -a $L
check() { timeout 150 python3 sparse-torch.py --library sp/$1.so --compressor sp/compress_$2.so --dtype $2 --out $2 --check 256x512x4096,256x256x16384,4095x4097x1023,1000x1000x1000,1x32x8,3x5x7,17x40x130,128x128x64 --offsets 0,1,8 > /tmp/c.log 2>&1
  log "check $1: PASS $(grep -c PASS /tmp/c.log) FAIL $(grep -c FAIL /tmp/c.log) $(grep -E 'FAIL|rror' /tmp/c.log | head -3)"; }
san() { timeout 150 compute-sanitizer --tool $2 python3 sparse-torch.py --library sp/$1.so --out f16 --check 256x512x1024,129x300x700 --offsets 0,1 > /tmp/s.log 2>&1; log "$2 $1: rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|Race reported' /tmp/s.log | tail -1) PASS $(grep -c PASS /tmp/s.log) FAIL $(grep -c FAIL /tmp/s.log)"; }
bench() { timeout 100 python3 sparse-torch.py --library sp/$1.so --dtype $2 --out $2 --bench 4096x4096x4096,8192x8192x8192 --dense-library sp/dense_$2.so --runs 7 2>&1 | grep -E 'own dense|rror' | sed "s/^/$1: /" | tee -a $L; }
for v in def_256x128_k128_s3 def_128x128_k128_s4; do check $v f16; check ${v}_bf16 bf16; done
for v in def_256x128_k128_s3 def_128x128_k128_s4; do for t in memcheck racecheck synccheck; do san $v $t; done; done
for v in sp_128x256_k128_s2_if0 def_256x128_k128_s3 def_128x128_k128_s4; do bench $v f16; done
for v in sp_128x256_k128_s2_if0_bf16 def_256x128_k128_s3_bf16; do bench $v bf16; done
log "== done"
