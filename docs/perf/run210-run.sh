#!/bin/bash
# Run 210: the new default (block-wise through tensor stores; two 128-byte
# staging buffers where they hold a tile row) against ab/old (the example
# with HEAD's decisions written on its copies: 64-byte panels, block-wise
# register path), three kinds, two rounds.
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/run210.log
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $L
SH=4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384
for round in 1 2; do
  for kind in tensor rowwise blockwise; do
    for v in ab/old aot-fp8/e4m3; do
      echo "== bench $v $kind round $round" | tee -a $L
      timeout 60 python3 fp8-torch.py --library $v/libfp8_gemm.so --kind $kind --bench $SH --runs 3 2>&1 | grep -E "^\| [0-9]|geomean" | tee -a $L
    done
  done
done
