#!/bin/bash
# Run 219: bf16 GEMM at 128 x 192 tiles (wgmma m64n192, a width that is not
# a power of two; ab/bf16-192) against the example's 128 x 256 (ab/bf16-256,
# examples/gemm_tunable.mlir -D BM=128 BN=256 BK=64 THREADS=256 STAGES=4),
# against torch.mm (cuBLAS) in one process: where 128 x 256 tiles fill the
# GPU's 132 multiprocessors badly (5120^3: 800 tiles, 6.06 rounds).
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/run219.log
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $L
timeout 120 python3 gemm-torch.py --library ab/bf16-192/libgemm.so --dtype bf16 --check 1x1x8,3x5x7,1000x1000x1000,4095x4097x1023,300x8192x128,5120x5120x512 --offsets 0,1,8 2>&1 | grep -E "FAIL|passed" | tail -3 | sed "s/^/bf16-192 check: /" | tee -a $L
SH=5120x5120x5120,6144x6144x6144,4096x4096x4096,8192x8192x8192,4096x4096x512,8192x8192x1024
for round in 1 2; do
  for v in bf16-192 bf16-256; do
    echo "== bench $v round $round" | tee -a $L
    timeout 90 python3 gemm-torch.py --library ab/$v/libgemm.so --dtype bf16 --bench $SH --runs 3 2>&1 | grep -E "^\| [0-9]|geomean" | tee -a $L
  done
done
