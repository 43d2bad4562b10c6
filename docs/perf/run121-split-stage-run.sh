#!/usr/bin/env bash
# Run 121: the rotated loop with Q K^T completed before P V is issued and P V
# left in flight across the softmax (n*: persistent by default, m*: one block
# per tile) against the defaults of 6940df5 (exp/<v>).
cd "$(dirname "${BASH_SOURCE[0]}")"
export PATH="$PATH:/usr/local/cuda/bin"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,serial,clocks.max.sm,driver_version --format=csv
A="--check --offset=0,8,1 --check-shapes=1:2:1,1:2:77,1:2:129,2:3:1000,1:2:4096"
for v in nd128 md128; do echo "== check $v"; timeout 100 python3 fa-sdpa.py --library exp/$v/lib.so $A 2>&1 | grep -E "FAIL|checks pass|rror" | head -5; done
for v in ncausal mcausal; do echo "== check $v"; timeout 100 python3 fa-sdpa.py --library exp/$v/lib.so --causal $A 2>&1 | grep -E "FAIL|checks pass|rror" | head -5; done
for v in nd64 md64; do echo "== check $v"; timeout 100 python3 fa-sdpa.py --library exp/$v/lib.so --head-dim 64 $A 2>&1 | grep -E "FAIL|checks pass|rror" | head -5; done
B() { echo "== bench $1"; shift; timeout 100 python3 fa-sdpa.py "$@" --bench --iters=20 2>&1 | grep "^| [0-9]"; }
S="--shapes=16:16:1024,4:16:4096,1:32:16384"
for round in 1 2; do
  for v in d128 causal; do
    c=""; [[ $v == causal ]] && c=--causal
    B "$v old $round" --library exp/$v/lib.so $c $S
    B "$v new $round" --library exp/n$v/lib.so $c $S
    B "$v new-one-block $round" --library exp/m$v/lib.so $c $S
  done
done
for v in d64 causal64; do
  c=""; [[ $v == causal64 ]] && c=--causal
  for k in "" n m; do B "$v $k" --library exp/$k$v/lib.so $c --head-dim 64 $S; done
done
for k in "" n m; do B "bf16 $k" --library exp/${k}bf16/lib.so --dtype bf16 $S; done
GQ="--function flash_attention_gqa_fwd --kv-group 4 --shapes=4:32:4096,1:32:16384"
for k in "" n m; do B "gqa $k" --library exp/${k}gqa/lib.so $GQ; done
echo "== done"
