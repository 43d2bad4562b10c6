#!/usr/bin/env bash
# Run 108: exact divisions through shared reciprocals (a1e106a) and a
# persistent FlashAttention (tile.persistent = 132): checks, sanitizers.
# (aot-fa/persist-f16-d128 is aot-fa/nc-f16-d128 with x108/ncp.so as its
# library.)
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,serial,clocks.max.sm,driver_version --format=csv
CHECK_SHAPES=1:2:1,1:2:77,1:2:129,2:3:1000,1:2:4096 CHECK_OFFSETS=0,8,1 STEPS="host check sanitize" bash fa-matrix.sh 2>&1 | tail -45
A="--check --check-shapes=1:2:1,1:2:77,1:2:129,2:3:1000,1:2:4096 --offset=0,8,1"
echo "== check d256"; timeout 200 python3 fa-sdpa.py --library x108/d256.so --head-dim 256 $A 2>&1 | grep -E "FAIL|checks pass|rror"
echo "== check gqa"; timeout 200 python3 fa-sdpa.py --library x108/gqa.so --function flash_attention_gqa_fwd --kv-group 4 --check --check-shapes 1:4:1,1:8:129,2:8:1000,1:32:4096,1:4:77 --offset 0,8,1 2>&1 | grep -E "FAIL|checks pass|rror"
