#!/usr/bin/env bash
# Warp specialization against the occupancy rule (128 x 128 tiles of one or
# two consumer warpgroups, BK 32 / 64, 2-4 stages, tile.warp_specialize
# true / false) and every variant of examples/gemm_hopper.space, each on
# the sweep, with every time saved (tile-tune-time --save-timings).
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}
SWEEP="2048x2048x2048,4096x4096x4096,8192x8192x8192,4096x4096x256,4096x4096x1024,4096x4096x16384,8192x8192x1024,8192x8192x16384,1024x8192x8192,8192x1024x8192,5120x5120x5120,6144x6144x6144,16384x4096x4096,4096x14336x4096,2048x8192x2048"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv
echo "== ws rule"
timeout 280 ./tile-tune-time tune-ws --shapes "$SWEEP" --cache $OUT/ws.cache --save-timings $OUT/ws-timings.txt --runs 3 --target-ms 15 | grep -v "variants, best"
echo "== main space"
timeout 280 ./tile-tune-time tune --shapes "$SWEEP" --cache $OUT/main.cache --save-timings $OUT/main-timings.txt --runs 3 --target-ms 15 | grep -v "variants, best"
echo "== cuBLAS and the example on the sweep"
timeout 200 ./tile-gemm-bench --library=aot/bf16/libgemm.so --dtype=bf16 --shapes="$SWEEP" --runs=3 | grep "^| [0-9]"
