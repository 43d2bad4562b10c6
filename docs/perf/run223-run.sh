#!/bin/bash
# Run 223: the default FP8 kernels at shapes whose 128 x 128 tiles fill
# whole rounds of 132 blocks (8448 = 66 x 128 rows: 66 x 64 = 4224 tiles, 32
# rounds) beside the bar shapes (4096 tiles, 31.03 rounds): how much of the
# 8192 gap is the last, nearly empty round.
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/run223.log
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $L
SH=8192x8192x4096,8448x8192x4096,8192x8192x8192,8448x8192x8192
for round in 1 2; do
  for kind in tensor rowwise; do
    echo "== bench $kind round $round" | tee -a $L
    timeout 90 python3 fp8-torch.py --library aot-fp8/e4m3/libfp8_gemm.so --kind $kind --bench $SH --runs 3 2>&1 | grep -E "^\| [0-9]|geomean" | tee -a $L
  done
done
