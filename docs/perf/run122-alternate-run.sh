#!/usr/bin/env bash
# Run 122: consumer warpgroups taking tiles in turn (tile.alternate_tiles)
# at 6940df5 against the bf16 example, on the sweep.
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
SWEEP="2048x2048x2048,4096x4096x4096,8192x8192x8192,4096x4096x256,4096x4096x1024,4096x4096x16384,8192x8192x1024,8192x8192x16384,1024x8192x8192,8192x1024x8192,5120x5120x5120,6144x6144x6144,16384x4096x4096,4096x14336x4096,2048x8192x2048"
nvidia-smi --query-gpu=name,serial,clocks.max.sm,driver_version --format=csv
for v in a128s4 a64; do
  echo "== check $v"
  timeout 100 ./tile-gemm-bench --library=g/$v/libgemm.so --dtype=bf16 --check --shapes=1x1x1,3x5x7,129x65x33,1000x1000x1000,4095x4097x1023,4096x4096x1024 | tail -1
done
for round in 1 2; do
  for v in ex a128s4 a128s5 a128s3 a64; do
    echo "== bench $v round $round"
    timeout 120 ./tile-gemm-bench --library=g/$v/libgemm.so --dtype=bf16 --shapes="$SWEEP" --runs=5 | grep "^| [0-9]"
  done
done
echo "== done"
