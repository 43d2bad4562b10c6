#!/bin/bash
# Run 213: the per-tensor kernel at 128 x 256 tiles
# (test/Examples/Inputs/fp8_gemm_128x256.mlir's @fp8_gemm_tensor, 4 stages,
# promoting in column halves; ab/w256) against the default's 128 x 128,
# with today's epilogue (warpgroups storing their own rows).
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/run213.log
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $L
timeout 60 python3 fp8-torch.py --library ab/w256/libfp8_gemm.so --kind tensor --check 3x5x7,1000x1000x1000,4095x4097x1023,2176x2048x256 --offsets 0,1 2>&1 | tail -1 | sed "s/^/w256 tensor: /" | tee -a $L
SH=4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384
for round in 1 2; do
  for v in aot-fp8/e4m3 ab/w256; do
    echo "== bench $v tensor round $round" | tee -a $L
    timeout 60 python3 fp8-torch.py --library $v/libfp8_gemm.so --kind tensor --bench $SH --runs 3 2>&1 | grep -E "^\| [0-9]|geomean" | tee -a $L
  done
done
