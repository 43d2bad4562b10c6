#!/bin/bash
# Run 181: fp8-run.sh on the bundle of the tile.consumer_late working tree
# (every scale kind, e5m2 A, f16/f32 out, quantize chain, RS, sm_89,
# sanitizers, speed), then the block-wise kernel three ways in one process:
# inplace (tile.consumer_late = false), fold (B's scale multiplied into A's
# scale fragment in the source, as run 180's new), new (the example as
# committed: B's scalar passed through a fragment by tile-fuse-consumer).
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $OUT/ab.log
OUT=$OUT STEP_TIMEOUT=200 bash fp8-run.sh > /dev/null 2>&1
tail -40 $OUT/fp8-run.log
FP8="4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384"
for v in fold new; do
  echo "== check $v blockwise" | tee -a $OUT/ab.log
  timeout 200 python3 fp8-torch.py --library ab/$v.so --kind blockwise --check "1x1x32,3x5x7,1000x1000x1000,4095x4097x1023,8192x16x4096" --offsets 0,1 2>&1 | grep -E "FAIL|checks passed|rror" | tail -3 | tee -a $OUT/ab.log
done
for round in 1 2 3; do
  for v in inplace fold new; do
    echo "== bench $v blockwise round $round" | tee -a $OUT/ab.log
    timeout 120 python3 fp8-torch.py --library ab/$v.so --kind blockwise --bench "$FP8" --runs 5 2>&1 | grep -v "^benchmarking\|^|---" | tee -a $OUT/ab.log
  done
done
