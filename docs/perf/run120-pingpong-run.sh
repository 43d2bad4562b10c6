#!/usr/bin/env bash
# Run 120: ping-pong turns (tile.pingpong = true; the rotated loop's two
# gemms one turn) against the defaults of 6940df5.
cd "$(dirname "${BASH_SOURCE[0]}")"
export PATH="$PATH:/usr/local/cuda/bin"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,serial,clocks.max.sm,driver_version --format=csv
A="--check --offset=0,8,1 --check-shapes=1:2:1,1:2:77,1:2:129,2:3:1000,1:2:4096"
echo "== check pd128"; timeout 100 python3 fa-sdpa.py --library exp/pd128/lib.so $A 2>&1 | grep -E "FAIL|checks pass|rror"
echo "== check pcausal"; timeout 100 python3 fa-sdpa.py --library exp/pcausal/lib.so --causal $A 2>&1 | grep -E "FAIL|checks pass|rror"
echo "== check pd64"; timeout 100 python3 fa-sdpa.py --library exp/pd64/lib.so --head-dim 64 $A 2>&1 | grep -E "FAIL|checks pass|rror"
B() { echo "== bench $1"; shift; timeout 100 python3 fa-sdpa.py "$@" --bench --iters=20 2>&1 | grep "^| [0-9]"; }
S="--shapes=16:16:1024,4:16:4096,1:32:16384"
for round in 1 2; do
  for v in d128 causal; do
    c=""; [[ $v == causal ]] && c=--causal
    B "$v default $round" --library exp/$v/lib.so $c $S
    B "$v pingpong $round" --library exp/p$v/lib.so $c $S
  done
done
for v in d64 causal64; do
  c=""; [[ $v == causal64 ]] && c=--causal
  B "$v default" --library exp/$v/lib.so $c --head-dim 64 $S
  B "$v pingpong" --library exp/p$v/lib.so $c --head-dim 64 $S
done
B "bf16 default" --library exp/bf16/lib.so --dtype bf16 $S
B "bf16 pingpong" --library exp/pbf16/lib.so --dtype bf16 $S
GQ="--function flash_attention_gqa_fwd --kv-group 4 --shapes=4:32:4096,1:32:16384"
B "gqa default" --library exp/gqa/lib.so $GQ
B "gqa pingpong" --library exp/pgqa/lib.so $GQ
echo "== done"
