#!/usr/bin/env bash
# The tuner on this machine: examples/gemm_hopper.space (25 variants) timed
# on the sweep by tile-tune-time (interleaved rounds, random data
# throughout; 7 rounds), every time saved. run96-tuned-run.sh then runs
# the library built from this cache on the same machine.
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}
SWEEP="2048x2048x2048,4096x4096x4096,8192x8192x8192,4096x4096x256,4096x4096x1024,4096x4096x16384,8192x8192x1024,8192x8192x16384,1024x8192x8192,8192x1024x8192,5120x5120x5120,6144x6144x6144,16384x4096x4096,4096x14336x4096,2048x8192x2048"
nvidia-smi --query-gpu=name,serial,clocks.sm,clocks.max.sm,driver_version --format=csv
timeout 400 ./tile-tune-time tune --shapes "$SWEEP" --runs 7 --cache $OUT/tune.cache --save-timings $OUT/timings.txt | grep -v "variants, best"
