#!/usr/bin/env bash
# Run 110: the producer issues the last values after the loop's stages
# (x110) against issuing them before (x109) and the division-only build
# (x108): checks, sanitizers, speed.
cd "$(dirname "${BASH_SOURCE[0]}")"
export PATH="$PATH:/usr/local/cuda/bin"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,serial,clocks.max.sm,driver_version --format=csv
A="--check --check-shapes=1:2:1,1:2:77,1:2:129,2:3:1000,1:2:4096 --offset=0,8,1"
echo "== check nc"; timeout 200 python3 fa-sdpa.py --library x110/nc.so $A 2>&1 | grep -E "FAIL|checks pass|rror"
echo "== check c"; timeout 200 python3 fa-sdpa.py --library x110/c.so --causal $A 2>&1 | grep -E "FAIL|checks pass|rror"
echo "== check d64"; timeout 200 python3 fa-sdpa.py --library x110/d64.so --head-dim 64 $A 2>&1 | grep -E "FAIL|checks pass|rror"
echo "== check cd64"; timeout 200 python3 fa-sdpa.py --library x110/cd64.so --causal --head-dim 64 $A 2>&1 | grep -E "FAIL|checks pass|rror"
for t in memcheck racecheck synccheck; do echo "== $t nc"; compute-sanitizer --tool $t --kernel-name kns=flash_attention python3 fa-sdpa.py --library x110/nc.so --check --check-shapes 1:2:300 --offset 0,1 2>&1 | grep -E "SUMMARY|checks pass|rror" | head -5; done
B() { echo "== bench $1 round $2"; shift 2; timeout 200 python3 fa-sdpa.py "$@" --bench --iters=20 2>&1 | grep "^| [0-9]"; }
for round in 1 2 3; do
  for x in x108 x109 x110; do B nc-$x $round --library $x/nc.so --shapes=16:16:1024,4:16:4096; done
  for x in x108 x109 x110; do B d64-$x $round --library $x/d64.so --head-dim 64 --shapes=16:16:1024,4:16:4096; done
done
for round in 1 2; do
  for x in x108 x109 x110; do B c-$x $round --library $x/c.so --causal --shapes=4:16:4096; done
  for x in x109 x110; do B cd64-$x $round --library $x/cd64.so --causal --head-dim 64 --shapes=4:16:4096; done
done
