#!/bin/bash
# Run 182: the block-scaled kernel (consumer one gemm late) at 5 stages (the
# example) and 6, one process, three rounds.
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/log; : > $L
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee -a $L
FP8="4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384"
echo "== check bw6" | tee -a $L
timeout 200 python3 fp8-torch.py --library s6/bw6.so --kind blockwise --check "1x1x32,3x5x7,1000x1000x1000,4095x4097x1023,8192x16x4096" --offsets 0,1 2>&1 | grep -E "FAIL|checks passed|rror" | tail -3 | tee -a $L
for round in 1 2 3; do
  for v in bw5 bw6; do
    echo "== bench $v round $round" | tee -a $L
    timeout 120 python3 fp8-torch.py --library s6/$v.so --kind blockwise --bench "$FP8" --runs 5 2>&1 | grep -E "geomean|^\| [0-9]" | tee -a $L
  done
done
