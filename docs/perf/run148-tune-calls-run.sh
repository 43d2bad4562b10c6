#!/bin/bash
# Run 148: why identical kernels time 2-4 % apart in tile-tune-time (run
# 147): every variant's run sized from a calibration round in turn (the
# default now) against one fixed call count for all (--iters 30).
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/log; : > $L
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee -a $L
date -u | tee -a $L
FP8="4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384"
for pass in 1 2; do
  for mode in calibrated iters30; do
    opt=""; [ $mode = iters30 ] && opt="--iters 30"
    echo "== tune-time FP8 $mode pass $pass" | tee -a $L
    timeout 170 ./tile-tune-time f8 --shapes "$FP8" --runs 7 $opt --cache $OUT/f8-$mode-$pass.cache --save-timings $OUT/t.txt 2>&1 | grep -v "variants, best" | tail -1 | tee -a $L
    grep -v "^#" $OUT/t.txt >> $L
  done
done
echo "== done $(date -u)" | tee -a $L
