#!/usr/bin/env bash
# Run 125: does a third stage recover the split schedule (run 121) at D64?
# One block per tile: o2 / o3 the defaults' lowering with 2 / 3 stages,
# s2 / s3 the split schedule (docs/perf/run121-split-stage.patch).
cd "$(dirname "${BASH_SOURCE[0]}")"
export PATH="$PATH:/usr/local/cuda/bin"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,serial,clocks.max.sm,driver_version --format=csv
A="--check --offset=0,8,1 --check-shapes=1:2:1,1:2:77,1:2:129,2:3:1000,1:2:4096"
for v in o3d64 s3d64; do echo "== check $v"; timeout 100 python3 fa-sdpa.py --library exp/$v/lib.so --head-dim 64 $A 2>&1 | grep -E "FAIL|checks pass|rror" | head -3; done
B() { echo "== bench $1"; shift; timeout 100 python3 fa-sdpa.py "$@" --bench --iters=20 2>&1 | grep "^| [0-9]"; }
S="--shapes=16:16:1024,4:16:4096,1:32:16384"
for round in 1 2; do
  for v in d64 o2d64 o3d64 sd64 s3d64; do B "$v $round" --library exp/$v/lib.so --head-dim 64 $S; done
done
echo "== done"
