#!/usr/bin/env bash
# Run 123: the defaults of 6940df5 again: checks, the plain-mask causal
# kernel against the hand-split one (three rounds alternating), head
# dimension 256 and GQA against cuDNN.
cd "$(dirname "${BASH_SOURCE[0]}")"
export PATH="$PATH:/usr/local/cuda/bin"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,serial,clocks.max.sm,driver_version --format=csv
A="--check --offset=0,8,1"
CS="--check-shapes=1:2:1,1:2:77,1:2:129,2:3:1000,1:2:4096"
echo "== check d128"; timeout 100 python3 fa-sdpa.py --library exp/d128/lib.so $A $CS 2>&1 | grep -E "FAIL|checks pass|rror" | head -3
echo "== check causal"; timeout 100 python3 fa-sdpa.py --library exp/causal/lib.so --causal $A $CS 2>&1 | grep -E "FAIL|checks pass|rror" | head -3
echo "== check plain"; timeout 100 python3 fa-sdpa.py --library exp/plain/lib.so --causal $A $CS 2>&1 | grep -E "FAIL|checks pass|rror" | head -3
echo "== check d256"; timeout 100 python3 fa-sdpa.py --library exp/d256/lib.so --head-dim 256 $A $CS 2>&1 | grep -E "FAIL|checks pass|rror" | head -3
echo "== check gqa"; timeout 100 python3 fa-sdpa.py --library exp/gqa/lib.so --function flash_attention_gqa_fwd --kv-group 4 $A --check-shapes=1:4:1,1:4:77,1:8:129,2:4:1000,1:4:4096 2>&1 | grep -E "FAIL|checks pass|rror" | head -3
B() { echo "== bench $1"; shift; timeout 100 python3 fa-sdpa.py "$@" --bench --iters=20 2>&1 | grep "^| [0-9]"; }
S="--shapes=16:16:1024,8:16:2048,4:16:4096,1:32:16384"
for round in 1 2 3; do
  B "causal hand-split $round" --library exp/causal/lib.so --causal $S
  B "causal plain-mask $round" --library exp/plain/lib.so --causal $S
done
for round in 1 2; do
  B "d256 $round" --library exp/d256/lib.so --head-dim 256 --shapes=4:16:4096,1:32:16384
  B "gqa $round" --library exp/gqa/lib.so --function flash_attention_gqa_fwd --kv-group 4 --shapes=4:32:4096,1:32:16384
done
echo "== done"
