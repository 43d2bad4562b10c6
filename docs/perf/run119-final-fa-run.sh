#!/usr/bin/env bash
# Run 119: the session's final build (fe69253): FlashAttention persistent by
# default (causal: tile.tile_order = "x-descending") against the same
# kernels with tile.persistent = 0 (exp/o*), and the plain-mask causal
# kernel against the hand-split one; GQA and the plain-mask kernel checked.
cd "$(dirname "${BASH_SOURCE[0]}")"
export PATH="$PATH:/usr/local/cuda/bin"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,serial,clocks.max.sm,driver_version --format=csv
A="--check --offset=0,8,1"
echo "== check gqa"; timeout 150 python3 fa-sdpa.py --library exp/gqa/lib.so --function flash_attention_gqa_fwd --kv-group 4 $A --check-shapes=1:4:1,1:4:77,1:8:129,2:4:1000,1:4:4096 2>&1 | grep -E "FAIL|checks pass|rror"
echo "== check plain"; timeout 150 python3 fa-sdpa.py --library exp/plain/lib.so --causal $A --check-shapes=1:2:1,1:2:77,1:2:129,2:3:1000,1:2:4096 2>&1 | grep -E "FAIL|checks pass|rror"
echo "== memcheck gqa"; timeout 150 compute-sanitizer --tool memcheck --kernel-name kns=flash_attention python3 fa-sdpa.py --library exp/gqa/lib.so --function flash_attention_gqa_fwd --kv-group 4 --check --check-shapes=1:4:129,2:4:300 --offset=0,1 2>&1 | grep -E "ERROR SUMMARY|checks pass|FAIL"
B() { echo "== bench $1"; shift; timeout 120 python3 fa-sdpa.py "$@" --bench --iters=20 2>&1 | grep "^| [0-9]"; }
S="--shapes=16:16:1024,4:16:4096,1:32:16384"
for round in 1 2; do
  for v in d128 causal; do
    c=""; [[ $v == causal ]] && c=--causal
    B "$v default $round" --library exp/$v/lib.so $c $S
    B "$v one-block $round" --library exp/o$v/lib.so $c $S
  done
done
B "plain default" --library exp/plain/lib.so --causal $S
B "plain one-block" --library exp/oplain/lib.so --causal $S
for v in d64 causal64; do
  c=""; [[ $v == causal64 ]] && c=--causal
  B "$v default" --library exp/$v/lib.so $c --head-dim 64 $S
  B "$v one-block" --library exp/o$v/lib.so $c --head-dim 64 $S
done
B "bf16 default" --library exp/bf16/lib.so --dtype bf16 $S
B "bf16 one-block" --library exp/obf16/lib.so --dtype bf16 $S
GQ="--function flash_attention_gqa_fwd --kv-group 4 --shapes=4:32:4096,1:32:16384"
B "gqa default" --library exp/gqa/lib.so $GQ
B "gqa one-block" --library exp/ogqa/lib.so $GQ
echo "== done"
