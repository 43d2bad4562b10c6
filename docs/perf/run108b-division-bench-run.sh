#!/usr/bin/env bash
# Run 108b: speed of exact shared-reciprocal divisions (x108) against the
# build before them (x106), and of the persistent kernel (x108/ncp).
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,serial,clocks.max.sm,driver_version --format=csv
S=16:16:1024,4:16:4096,1:32:16384
B() { echo "== bench $1 round $2"; shift 2; timeout 200 python3 fa-sdpa.py "$@" --bench --iters=20 2>&1 | grep "^| [0-9]"; }
for round in 1 2; do
  B nc-old $round --library x106/nc.so --shapes=$S
  B nc-new $round --library x108/nc.so --shapes=$S
  B nc-persist $round --library x108/ncp.so --shapes=$S
  B c-old $round --library x106/c.so --causal --shapes=4:16:4096,1:32:16384
  B c-new $round --library x108/c.so --causal --shapes=4:16:4096,1:32:16384
  B d64-old $round --library x106/d64.so --head-dim 64 --shapes=4:16:4096,1:32:16384
  B d64-new $round --library x108/d64.so --head-dim 64 --shapes=4:16:4096,1:32:16384
done
B d256-new 1 --library x108/d256.so --head-dim 256 --shapes=4:16:4096,1:16:16384
B gqa-new 1 --library x108/gqa.so --function flash_attention_gqa_fwd --kv-group 4 --shapes=4:32:4096,1:32:16384
B bf16-new 1 --library x108/bf16.so --dtype bf16 --shapes=4:16:4096,1:32:16384
