#!/bin/bash
# Session 28, run 68: sparse GEMM with the MMA group left in flight (tile.sparse_in_flight).
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
S=sparse2
for v in f16 bf16; do
  if [ $v = f16 ]; then L=sp5/inflight.so; C=$S/libsparse_compress.so; SL=$S/libgemm_sparse.so; D=$S/dense_f16.so; else L=sp5/inflight_bf16.so; C=$S/libsparse_compress_bf16.so; SL=$S/libgemm_sparse_bf16.so; D=$S/dense_bf16.so; fi
  echo "== checks inflight $v"
  timeout 150 python3 sparse-torch.py --library $L --compressor $C --dtype $v --out $v --check 256x512x4096,256x256x16384,17x40x130,4095x4097x1023,1000x1000x1000,1x32x8,3x5x7,128x128x64 --offsets 0,1,8 > /tmp/c.log 2>&1; echo "PASS $(grep -c PASS /tmp/c.log) FAIL $(grep -c FAIL /tmp/c.log)"; grep -E 'FAIL|rror' /tmp/c.log | head -5
  echo "== bench $v: inflight, then shipped"
  timeout 150 python3 sparse-torch.py --library $L --dtype $v --out $v --bench 4096x4096x4096,8192x8192x8192 --dense-library $D --runs 7 2>&1 | grep -E 'bench|rror'
  timeout 150 python3 sparse-torch.py --library $SL --dtype $v --out $v --bench 4096x4096x4096,8192x8192x8192 --dense-library $D --runs 7 2>&1 | grep -E 'bench|rror'
  timeout 150 python3 sparse-torch.py --library $L --dtype $v --out $v --bench 4096x4096x4096,8192x8192x8192 --dense-library $D --runs 7 2>&1 | grep -E 'bench|rror'
done
echo "== racecheck inflight f16"
timeout 150 compute-sanitizer --tool racecheck --racecheck-report hazard python3 sparse-torch.py --library sp5/inflight.so --out f16 --check 256x512x1024 > /tmp/r.log 2>&1; grep -E "SUMMARY|PASS|FAIL" /tmp/r.log | tail -3
echo "== synccheck inflight f16"
timeout 100 compute-sanitizer --tool synccheck python3 sparse-torch.py --library sp5/inflight.so --out f16 --check 256x512x1024 > /tmp/r.log 2>&1; grep -E "SUMMARY|PASS|FAIL" /tmp/r.log | tail -3
