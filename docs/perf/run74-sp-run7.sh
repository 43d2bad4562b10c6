#!/bin/bash
# Session 28, run 74: the sparse GEMM at 256 x 128 tiles, 3 stages.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
S=sparse2
echo "== checks sp256 f16"
timeout 150 python3 sparse-torch.py --library sp6/sp256.so --compressor $S/libsparse_compress.so --out f16 --check 256x512x4096,17x40x130,4095x4097x1023,1000x1000x1000,3x5x7,64x64x8192 --offsets 0,1 > /tmp/c.log 2>&1; echo "PASS $(grep -c PASS /tmp/c.log) FAIL $(grep -c FAIL /tmp/c.log)"; grep -E 'FAIL|rror' /tmp/c.log | head -5
echo "== checks shipped (with its split-K pair) f16"
timeout 150 python3 sparse-torch.py --library sp6/shipped.so --compressor $S/libsparse_compress.so --out f16 --check 64x64x8192,256x256x16384,1000x1000x1000 --offsets 0,1 > /tmp/c.log 2>&1; echo "PASS $(grep -c PASS /tmp/c.log) FAIL $(grep -c FAIL /tmp/c.log)"
for v in f16 bf16; do
  if [ $v = f16 ]; then L=sp6/sp256.so; SL=$S/libgemm_sparse.so; D=$S/dense_f16.so; else L=sp6/sp256_bf16.so; SL=$S/libgemm_sparse_bf16.so; D=$S/dense_bf16.so; fi
  echo "== bench $v: 256x128, shipped 128x256, 256x128"
  for X in $L $SL $L; do timeout 150 python3 sparse-torch.py --library $X --dtype $v --out $v --bench 4096x4096x4096,8192x8192x8192 --dense-library $D --runs 7 2>&1 | grep -E 'own dense|rror'; done
done
echo "== racecheck sp256"
timeout 120 compute-sanitizer --tool racecheck python3 sparse-torch.py --library sp6/sp256.so --out f16 --check 512x256x1024 > /tmp/r.log 2>&1; grep -E "SUMMARY|PASS|FAIL" /tmp/r.log | tail -2
