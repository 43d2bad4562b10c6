#!/usr/bin/env bash
# Run 111: the persistent FlashAttention (tile.persistent = 132) with its
# one-time copies handed off per tile (x111/ncp) against the one-block-
# per-tile kernel (x110/nc): checks, sanitizers, speed.
cd "$(dirname "${BASH_SOURCE[0]}")"
export PATH="$PATH:/usr/local/cuda/bin"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,serial,clocks.max.sm,driver_version --format=csv
A="--check --check-shapes=1:2:1,1:2:77,1:2:129,2:3:1000,1:2:4096,3:5:600 --offset=0,8,1"
echo "== check ncp"; timeout 200 python3 fa-sdpa.py --library x111/ncp.so $A 2>&1 | grep -E "FAIL|checks pass|rror"
for t in memcheck racecheck synccheck; do echo "== $t ncp"; timeout 300 compute-sanitizer --tool $t --kernel-name kns=flash_attention python3 fa-sdpa.py --library x111/ncp.so --check --check-shapes 1:2:300,2:3:1000 --offset 0,1 2>&1 | grep -E "SUMMARY|checks pass|rror" | head -5; done
B() { echo "== bench $1 round $2"; shift 2; timeout 200 python3 fa-sdpa.py "$@" --bench --iters=20 2>&1 | grep "^| [0-9]"; }
for round in 1 2; do
  B nc-x110 $round --library x110/nc.so --shapes=16:16:1024,4:16:4096,1:32:16384
  B ncp-x111 $round --library x111/ncp.so --shapes=16:16:1024,4:16:4096,1:32:16384
done
