#!/usr/bin/env bash
# Run 114: FlashAttention with f32 exp2 as ex2.approx.ftz (one MUFU.EX2
# instead of four instructions) and in-thread reductions as balanced
# trees. x115/V.so: both; x115/V-x.so: the trees alone (exact-exp2=1);
# x113/nc.so and aot-fa/*: the build before both. Checks first, then
# rounds alternating the builds.
cd "$(dirname "${BASH_SOURCE[0]}")"
export PATH="$PATH:/usr/local/cuda/bin"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,serial,clocks.max.sm,driver_version --format=csv
A="--check --check-shapes=1:2:1,1:2:77,1:2:129,2:3:1000,1:2:4096 --offset=0,8,1"
echo "== check d128"; timeout 200 python3 fa-sdpa.py --library x115/d128.so $A 2>&1 | grep -E "FAIL|checks pass|rror|max"
echo "== check c"; timeout 200 python3 fa-sdpa.py --library x115/c.so --causal $A 2>&1 | grep -E "FAIL|checks pass|rror"
echo "== check d64"; timeout 200 python3 fa-sdpa.py --library x115/d64.so --head-dim 64 $A 2>&1 | grep -E "FAIL|checks pass|rror"
echo "== check cd64"; timeout 200 python3 fa-sdpa.py --library x115/cd64.so --causal --head-dim 64 $A 2>&1 | grep -E "FAIL|checks pass|rror"
echo "== check bf"; timeout 200 python3 fa-sdpa.py --library x115/bf.so --dtype bf16 $A 2>&1 | grep -E "FAIL|checks pass|rror"
echo "== check d256"; timeout 200 python3 fa-sdpa.py --library x115/d256.so --head-dim 256 $A 2>&1 | grep -E "FAIL|checks pass|rror"
G="python3 fa-sdpa.py --function flash_attention_gqa_fwd --kv-group 4"
echo "== check gqa"; timeout 200 $G --library x115/gqa.so --check --check-shapes 1:4:1,1:8:129,2:8:1000,1:32:4096,1:4:77 --offset 0,8,1 2>&1 | grep -E "FAIL|checks pass|rror"
B() { echo "== bench $1 round $2"; shift 2; timeout 200 python3 fa-sdpa.py "$@" --bench --iters=20 2>&1 | grep "^| [0-9]"; }
S="--shapes=16:16:1024,4:16:4096,1:32:16384"
for round in 1 2; do
  B d128-old $round --library x113/nc.so $S
  B d128-tree $round --library x115/d128-x.so $S
  B d128-both $round --library x115/d128.so $S
  B d64-old $round --library aot-fa/nc-f16-d64/libflash_attention.so --head-dim 64 $S
  B d64-tree $round --library x115/d64-x.so --head-dim 64 $S
  B d64-both $round --library x115/d64.so --head-dim 64 $S
  B c-old $round --library aot-fa/causal-f16-d128/libflash_attention.so --causal $S
  B c-both $round --library x115/c.so --causal $S
  B cd64-old $round --library aot-fa/causal-f16-d64/libflash_attention.so --causal --head-dim 64 $S
  B cd64-both $round --library x115/cd64.so --causal --head-dim 64 $S
done
B bf-old 1 --library aot-fa/nc-bf16-d128/libflash_attention.so --dtype bf16 $S
B bf-both 1 --library x115/bf.so --dtype bf16 $S
B d256-both 1 --library x115/d256.so --head-dim 256 --shapes=4:16:4096,1:16:16384
B gqa-tree 1 --library x115/gqa-x.so --function flash_attention_gqa_fwd --kv-group 4 --shapes=4:32:4096,1:32:16384
B gqa-both 1 --library x115/gqa.so --function flash_attention_gqa_fwd --kv-group 4 --shapes=4:32:4096,1:32:16384
