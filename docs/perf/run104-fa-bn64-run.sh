#!/usr/bin/env bash
# Run 104: the shipped FlashAttention examples (BN = 64, D = 128; declined
# by tile-rotate-loops's default) against the same with tile.rotate = true:
# checks, then speed against cuDNN, three rounds alternating.
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,serial,clocks.max.sm,driver_version --format=csv
echo "== check ex64rot"; timeout 100 python3 fa-sdpa.py --library x104/ex64rot.so --dtype f16 --check --check-shapes 1:2:1,1:2:77,1:2:129,2:3:1000,1:2:4096 --offset 0,1 2>&1 | tail -1
echo "== check cex64rot"; timeout 100 python3 fa-sdpa.py --library x104/cex64rot.so --causal --dtype f16 --check --check-shapes 1:2:1,1:2:77,1:2:129,2:3:1000,1:2:4096 --offset 0,1 2>&1 | tail -1
for round in 1 2 3; do
  for lib in ex64 ex64rot; do
    echo "== bench $lib round $round"; timeout 100 python3 fa-sdpa.py --library x104/$lib.so --dtype f16 --bench --shapes 4:16:4096,1:32:16384 --iters=20 2>&1 | grep "^| [0-9]"
  done
  for lib in cex64 cex64rot; do
    echo "== bench $lib round $round"; timeout 100 python3 fa-sdpa.py --library x104/$lib.so --causal --dtype f16 --bench --shapes 4:16:4096,1:32:16384 --iters=20 2>&1 | grep "^| [0-9]"
  done
done
