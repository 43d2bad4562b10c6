#!/usr/bin/env bash
# Run 115: FlashAttention on a persistent grid (tile.persistent = 132)
# now that its consumers do not spill (the exponential as one MUFU.EX2,
# the per-tile values of aa9cc27): x116/pV.so against x115/V.so (one block
# per tile, the same build otherwise). Checks, then rounds alternating.
cd "$(dirname "${BASH_SOURCE[0]}")"
export PATH="$PATH:/usr/local/cuda/bin"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,serial,clocks.max.sm,driver_version --format=csv
A="--check --check-shapes=1:2:1,1:2:77,1:2:129,2:3:1000,1:2:4096,3:5:600 --offset=0,8,1"
echo "== check pd128"; timeout 200 python3 fa-sdpa.py --library x116/pd128.so $A 2>&1 | grep -E "FAIL|checks pass|rror"
echo "== check pc"; timeout 200 python3 fa-sdpa.py --library x116/pc.so --causal $A 2>&1 | grep -E "FAIL|checks pass|rror"
echo "== check pd64"; timeout 200 python3 fa-sdpa.py --library x116/pd64.so --head-dim 64 $A 2>&1 | grep -E "FAIL|checks pass|rror"
echo "== check pcd64"; timeout 200 python3 fa-sdpa.py --library x116/pcd64.so --causal --head-dim 64 $A 2>&1 | grep -E "FAIL|checks pass|rror"
B() { echo "== bench $1 round $2"; shift 2; timeout 200 python3 fa-sdpa.py "$@" --bench --iters=20 2>&1 | grep "^| [0-9]"; }
S="--shapes=16:16:1024,4:16:4096,1:32:16384"
for round in 1 2; do
  B d128 $round --library x115/d128.so $S
  B pd128 $round --library x116/pd128.so $S
  B d64 $round --library x115/d64.so --head-dim 64 $S
  B pd64 $round --library x116/pd64.so --head-dim 64 $S
  B c $round --library x115/c.so --causal $S
  B pc $round --library x116/pc.so --causal $S
  B cd64 $round --library x115/cd64.so --causal --head-dim 64 $S
  B pcd64 $round --library x116/pcd64.so --causal --head-dim 64 $S
done
B bf 1 --library x115/bf.so --dtype bf16 $S
B pbf 1 --library x116/pbf.so --dtype bf16 $S
G="--function flash_attention_gqa_fwd --kv-group 4 --shapes=4:32:4096,1:32:16384"
B gqa 1 --library x115/gqa.so $G
B pgqa 1 --library x116/pgqa.so $G
