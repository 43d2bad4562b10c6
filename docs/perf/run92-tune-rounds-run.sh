#!/usr/bin/env bash
# The tuner's timing in interleaved rounds (tile-tune-time after f6c4481):
# examples/gemm_hopper.space compiled with the warp-specialization rule
# of run 90, timed on the sweep with the defaults (5 rounds of 25 ms
# runs), every time saved; then the same again, to see how the winners
# hold from one timing to the next.
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}
SWEEP="2048x2048x2048,4096x4096x4096,8192x8192x8192,4096x4096x256,4096x4096x1024,4096x4096x16384,8192x8192x1024,8192x8192x16384,1024x8192x8192,8192x1024x8192,5120x5120x5120,6144x6144x6144,16384x4096x4096,4096x14336x4096,2048x8192x2048"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv
for pass in 1 2; do
  echo "== timing pass $pass"
  timeout 280 ./tile-tune-time tune --shapes "$SWEEP" --cache $OUT/tune$pass.cache --save-timings $OUT/timings$pass.txt | grep -v "variants, best"
done
