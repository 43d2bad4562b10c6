#!/usr/bin/env bash
# 128 x 128 tiles (two consumer warpgroups: tune/v4; one: tune-ws/v16)
# against the example (128 x 256, aot/bf16) and its tuner twin (tune/v12):
# checks, then two rounds of the sweep alternating.
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
SWEEP="2048x2048x2048,4096x4096x4096,8192x8192x8192,4096x4096x256,4096x4096x1024,4096x4096x16384,8192x8192x1024,8192x8192x16384,1024x8192x8192,8192x1024x8192,5120x5120x5120,6144x6144x6144,16384x4096x4096,4096x14336x4096,2048x8192x2048"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv
for lib in tune/v4.so tune-ws/v16.so; do
  echo "== check $lib"
  timeout 100 ./tile-gemm-bench --library=$lib --dtype=bf16 --check --shapes=1x1x1,3x5x7,129x65x33,1000x1000x1000,4095x4097x1023,5120x5120x5120 | tail -1
  timeout 60 ./tile-gemm-bench --library=$lib --dtype=bf16 --check --no-cublas --offset=1 --shapes=3x5x7,1000x1000x1000,4095x4097x1023 | tail -1
done
for round in 1 2; do
  for n in aot/bf16/libgemm.so tune/v4.so tune-ws/v16.so tune/v12.so; do
    echo "== bench $n round $round"
    timeout 150 ./tile-gemm-bench --library=$n --dtype=bf16 --shapes="$SWEEP" --runs=3 | grep "^| [0-9]"
  done
done
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv
