#!/bin/bash
# Run 173: the alternating-tiles (ping-pong) bf16 GEMM, 64 x 256 and 128 x
# 128 at 4 stages, against the example: speed, and ncu stall samples.
# Libraries: test/Examples/Inputs/gemm_alternate.mlir in bf16 (alt/a64.so),
# the same at 128 x 128 tiles (alt/a128.so), examples/gemm.mlir in bf16
# (alt/ex.so), each through tile-compile --chip sm_90a (262b4cc).
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/log; : > $L
log() { echo "$@" | tee -a $L; }
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee -a $L
S=4096x4096x256,4096x4096x1024,4096x4096x4096,8192x8192x8192,2048x2048x2048
for v in a64 a128; do log "== check $v"; timeout 120 ./tile-gemm-bench --library=alt/$v.so --dtype=bf16 --check --shapes=1x1x1,129x65x33,1000x1000x1000,4095x4097x1023 2>&1 | tail -5 | tee -a $L; done
for round in 1 2; do for v in ex a64 a128; do
  log "== bench $v round $round"
  timeout 90 ./tile-gemm-bench --library=alt/$v.so --dtype=bf16 --shapes=$S --runs=5 2>&1 | grep -E "^\| [0-9]|geomean" | tee -a $L
done; done
for v in a64 ex; do
  n=ncu-alt-$v
  timeout 150 ncu --clock-control none --kernel-name regex:gemm_kernel_tma --launch-skip 3 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --section SpeedOfLight \
    -o $OUT/$n ./tile-gemm-bench --library=alt/$v.so --dtype=bf16 --shapes=4096x4096x1024 --runs=1 > /dev/null 2>&1
  ncu -i $OUT/$n.ncu-rep --page details 2>&1 > $OUT/$n-details.txt
  ncu -i $OUT/$n.ncu-rep --page source --print-source sass --csv > $OUT/$n-sass.csv 2>&1
  gzip -f $OUT/$n-sass.csv; rm -f $OUT/$n.ncu-rep
done
