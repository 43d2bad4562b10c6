#!/bin/bash
# Run 147: tile-tune-time with the order of variants changing from round to
# round, on the FP8 space of run 146 (v3-v5 are one kernel).
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/log; : > $L
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee -a $L
date -u | tee -a $L
FP8="4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384"
for pass in 1 2; do
  echo "== tune-time FP8 pass $pass" | tee -a $L
  timeout 170 ./tile-tune-time f8 --shapes "$FP8" --runs 7 --cache $OUT/f8-$pass.cache --save-timings $OUT/f8-timings-$pass.txt 2>&1 | grep -v "variants, best" | tail -4 | tee -a $L
  cat $OUT/f8-timings-$pass.txt >> $L
done
echo "== done $(date -u)" | tee -a $L
