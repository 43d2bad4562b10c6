#!/usr/bin/env bash
# tile-rotate-loops, first form (edge copies inside the prologue's and
# epilogue's tests), run 100 in three device calls, on the bundle of
# `gpu-bundle.sh --no-build --fa-only` plus libraries from tile-compile:
# fa-ex64 / fa-cex64 (the shipped examples, BN = 64), fa-nr128 / fa-cnr128 /
# fa-cd64nr / fa-ncd64nr (fa-variant.py --block-n 128 with tile.rotate =
# false), fa-pp128 / fa-cpp128 (rotated, tile.pingpong = true), fa-hand
# (examples/flash_attention_rotated.mlir).
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
case "${1:-a}" in
a) # 100a: the matrix, rotated; the ping-pong and hand-rotated kernels checked
  nvidia-smi --query-gpu=name,serial,clocks.max.sm,driver_version --format=csv
  bash fa-matrix.sh 2>&1 | tail -60
  for lib in fa-pp128 fa-cpp128 fa-hand; do
    echo "== check $lib"
    timeout 200 python3 fa-sdpa.py --library=$lib/libflash_attention.so --check --check-shapes=1:2:1,1:2:77,1:2:129,2:3:1000,1:2:4096 --offset=0,8,1 2>&1 | tail -1
  done ;;
b) # 100b: speed, three rounds alternating
  for round in 1 2 3; do
    for lib in fa-ex64 fa-nr128 aot-fa/nc-f16-d128 fa-hand fa-pp128 fa-cex64 fa-cnr128 aot-fa/causal-f16-d128 fa-cpp128; do
      echo "== bench $lib round $round"
      timeout 100 python3 fa-sdpa.py --library=$lib/libflash_attention.so --bench --shapes=4:16:4096,1:32:16384 --iters=20 2>&1 | grep "^| [0-9]"
    done
  done ;;
c) # 100c: D = 64, rotated against kept
  for round in 1 2 3; do
    for lib in fa-cd64nr aot-fa/causal-f16-d64 fa-ncd64nr aot-fa/nc-f16-d64; do
      echo "== bench $lib round $round"
      timeout 100 python3 fa-sdpa.py --library=$lib/libflash_attention.so --bench --shapes=4:16:4096,1:32:16384 --iters=20 2>&1 | grep "^| [0-9]"
    done
  done ;;
esac
