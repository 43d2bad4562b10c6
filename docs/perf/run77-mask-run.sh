#!/bin/bash
# Session 28, run 77: causal FlashAttention with the mask on every block (tile-specialize-masks) against the hand-split example.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
F="timeout 200 python3 fa-sdpa.py --causal"
CS=1:2:1,1:2:77,1:2:129,2:3:1000,1:2:4096
for v in plain_f16 plain_bf16; do
  dt=${v#plain_}
  echo "== checks $v"; $F --library mask/$v.so --dtype $dt --check --check-shapes $CS --offset 0,8,1 2>&1 | grep -E "FAIL|checks pass|rror"
done
echo "== bench: plain, hand-split, plain, hand-split (f16); plain, hand-split (bf16)"
for L in plain_f16 split_f16 plain_f16 split_f16; do $F --library mask/$L.so --dtype f16 --bench --shapes 4:16:4096,1:16:16384 2>&1 | grep -E "^\| [0-9]|rror" | sed "s/^/$L /"; done
for L in plain_bf16 split_bf16; do $F --library mask/$L.so --dtype bf16 --bench --shapes 4:16:4096 2>&1 | grep -E "^\| [0-9]|rror" | sed "s/^/$L /"; done
echo "== memcheck, synccheck plain f16"
timeout 150 compute-sanitizer --tool memcheck python3 fa-sdpa.py --causal --library mask/plain_f16.so --dtype f16 --check --check-shapes 1:2:129,1:2:300 --offset 0,1 2>&1 | grep -E "ERROR SUMMARY|checks pass"
timeout 150 compute-sanitizer --tool synccheck python3 fa-sdpa.py --causal --library mask/plain_f16.so --dtype f16 --check --check-shapes 1:2:256 2>&1 | grep -E "ERROR SUMMARY|checks pass"
timeout 150 compute-sanitizer --tool racecheck python3 fa-sdpa.py --causal --library mask/plain_f16.so --dtype f16 --check --check-shapes 1:2:256 > /tmp/rc.log 2>&1; grep -E "RACECHECK SUMMARY|checks pass" /tmp/rc.log; echo "hazards in our kernel: $(grep -c 'at flash_attention' /tmp/rc.log)"
