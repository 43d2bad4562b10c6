#!/usr/bin/env bash
# Run 106: grouped ping-pong turns on the rotated key loop (tile.pingpong),
# and the per-block fixed cost of FlashAttention against S at fixed work.
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,serial,clocks.max.sm,driver_version --format=csv
A="--check --check-shapes=1:2:1,1:2:77,1:2:129,2:3:1000,1:2:4096 --offset=0,8,1"
echo "== check ncpp"; timeout 200 python3 fa-sdpa.py --library x106/ncpp.so $A 2>&1 | grep -E "FAIL|checks pass|rror"
echo "== check cpp"; timeout 200 python3 fa-sdpa.py --library x106/cpp.so --causal $A 2>&1 | grep -E "FAIL|checks pass|rror"
echo "== check d64pp"; timeout 200 python3 fa-sdpa.py --library x106/d64pp.so --head-dim 64 $A 2>&1 | grep -E "FAIL|checks pass|rror"
echo "== check cd64pp"; timeout 200 python3 fa-sdpa.py --library x106/cd64pp.so --causal --head-dim 64 $A 2>&1 | grep -E "FAIL|checks pass|rror"
for t in racecheck synccheck; do echo "== $t ncpp"; compute-sanitizer --tool $t --kernel-name regex:flash_attention python3 fa-sdpa.py --library x106/ncpp.so --check --check-shapes=1:2:300 2>&1 | grep -E "SUMMARY|checks pass"; done
for round in 1 2; do
  for v in nc ncpp; do echo "== bench $v round $round"; timeout 200 python3 fa-sdpa.py --library x106/$v.so --bench --shapes=4:16:4096,1:32:16384 --iters=20 2>&1 | grep "^| [0-9]"; done
  for v in c cpp; do echo "== bench $v round $round"; timeout 200 python3 fa-sdpa.py --library x106/$v.so --causal --bench --shapes=4:16:4096,1:32:16384 --iters=20 2>&1 | grep "^| [0-9]"; done
  for v in d64 d64pp; do echo "== bench $v round $round"; timeout 200 python3 fa-sdpa.py --library x106/$v.so --head-dim 64 --bench --shapes=4:16:4096,1:32:16384 --iters=20 2>&1 | grep "^| [0-9]"; done
  for v in cd64 cd64pp; do echo "== bench $v round $round"; timeout 200 python3 fa-sdpa.py --library x106/$v.so --causal --head-dim 64 --bench --shapes=4:16:4096,1:32:16384 --iters=20 2>&1 | grep "^| [0-9]"; done
done
echo "== sweep nc (BH*S fixed)"; timeout 200 python3 fa-sdpa.py --library x106/nc.so --bench --shapes=16:16:1024,8:16:2048,4:16:4096,2:16:8192,1:16:16384,1:8:32768 --iters=20 2>&1 | grep "^| [0-9]"
