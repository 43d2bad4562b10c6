#!/bin/bash
# Run 185: block-wise FP8 with its K loop split (split-K where the grid
# leaves SMs idle, the last wave split along K) against run 184's early
# scales alone; the per-tensor kernel with its last wave kept whole.
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/run185.log
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $L
FP8="4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384"
SPLIT="1000x2170x8000,1024x2176x4736,8192x16x4096,64x64x16384,1000x1000x1000"
for kind in blockwise tensor rowwise; do
  echo "== check split.so $kind" | tee -a $L
  timeout 300 python3 fp8-torch.py --library r185/split.so --kind $kind --check "1x1x32,3x5x7,128x128x128,4095x4097x1023,$SPLIT" --offsets 0,16,1 2>&1 | grep -E "FAIL|checks passed|rror" | tail -4 | tee -a $L
done
for round in 1 2 3; do
  for v in early split; do
    echo "== bench $v blockwise round $round" | tee -a $L
    timeout 120 python3 fp8-torch.py --library r185/$v.so --kind blockwise --bench "$FP8,1000x2170x8000,8192x16x4096" --runs 5 2>&1 | grep -v "^benchmarking\|^|---" | tee -a $L
  done
  for v in split ptwhole; do
    echo "== bench $v tensor round $round" | tee -a $L
    timeout 120 python3 fp8-torch.py --library r185/$v.so --kind tensor --bench "$FP8" --runs 5 2>&1 | grep -v "^benchmarking\|^|---" | tee -a $L
  done
done
for tool in memcheck synccheck racecheck; do
  echo "== $tool split.so blockwise" | tee -a $L
  timeout 300 compute-sanitizer --tool $tool --error-exitcode 9 python3 fp8-torch.py --library r185/split.so --kind blockwise --check 1024x2176x4736,8192x16x4096 --offsets 0,1 2>&1 | grep -E "FAIL|checks passed|rror|hazard" | tail -3 | tee -a $L
  echo "exit ${PIPESTATUS[0]}" | tee -a $L
done
