#!/bin/bash
# Run 150: is the first of three identical FP8 libraries slower because of
# its file or its place in the manifest? f8s is f8 with v3.so and v5.so
# swapped (the two are the same kernel).
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/log; : > $L
nvidia-smi --query-gpu=name,serial,driver_version --format=csv,noheader | tee -a $L
for pass in 1 2; do
  for d in f8 f8s; do
    echo "== $d pass $pass" | tee -a $L
    timeout 100 ./tile-tune-time $d --shapes 8192x8192x8192,8192x8192x4096 --runs 9 --cache $OUT/c.cache --save-timings $OUT/t.txt > /dev/null 2>&1
    grep "BN=256" $OUT/t.txt | sort | tee -a $L
  done
done
