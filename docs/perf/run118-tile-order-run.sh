#!/usr/bin/env bash
# Run 118: causal FlashAttention on a persistent grid, its tiles longest
# first (tile.tile_order = "x-descending", sections of 8 rounds: r8/p*;
# one section: rall/p*) against the launch order (r8/l*) and one block per
# tile (r8/causal*), all from the same build.
cd "$(dirname "${BASH_SOURCE[0]}")"
export PATH="$PATH:/usr/local/cuda/bin"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,serial,clocks.max.sm,driver_version --format=csv
A="--check --check-shapes=1:2:1,1:2:77,1:2:129,2:3:1000,1:2:4096,3:5:600 --offset=0,8,1"
C() { echo "== check $1"; shift; timeout 150 python3 fa-sdpa.py "$@" $A 2>&1 | grep -E "FAIL|checks pass|rror"; }
C r8/pcausal --library exp/r8/pcausal/lib.so --causal
C r8/pcausal64 --library exp/r8/pcausal64/lib.so --causal --head-dim 64
C rall/pcausal --library exp/rall/pcausal/lib.so --causal
echo "== memcheck r8/pcausal"
timeout 200 compute-sanitizer --tool memcheck --kernel-name kns=flash_attention python3 fa-sdpa.py --library exp/r8/pcausal/lib.so --causal --check --check-shapes=1:2:129,2:3:300,1:1:1 --offset=0,1 2>&1 | grep -E "ERROR SUMMARY|checks pass|FAIL"
B() { echo "== bench $1"; shift; timeout 120 python3 fa-sdpa.py "$@" --bench --iters=20 2>&1 | grep "^| [0-9]"; }
S="--shapes=16:16:1024,8:16:2048,4:16:4096,1:32:16384"
for round in 1 2; do
  B "causal one-block $round" --library exp/r8/causal/lib.so --causal $S
  B "causal launch $round" --library exp/r8/lcausal/lib.so --causal $S
  B "causal r8 $round" --library exp/r8/pcausal/lib.so --causal $S
  B "causal rall $round" --library exp/rall/pcausal/lib.so --causal $S
done
B "causal64 one-block" --library exp/r8/causal64/lib.so --causal --head-dim 64 $S
B "causal64 launch" --library exp/r8/lcausal64/lib.so --causal --head-dim 64 $S
B "causal64 r8" --library exp/r8/pcausal64/lib.so --causal --head-dim 64 $S
B "causal64 rall" --library exp/rall/pcausal64/lib.so --causal --head-dim 64 $S
echo "== done"
