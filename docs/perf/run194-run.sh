#!/bin/bash
# Run 194: SASS source counters (instructions executed per SASS line) of our
# FP8 per-tensor kernel and cuBLASLt's at 4096^3, to see where ours executes
# its extra instructions (run 193: 42.4 M against 32.0 M).
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader > $OUT/device.txt
LIB=aot-fp8/e4m3/libfp8_gemm.so
prof() {
  local name=$1 regex=$2 skip=$3
  timeout 250 ncu --clock-control none --kernel-name "regex:$regex" --launch-skip $skip --launch-count 1 \
    --section SourceCounters --section WarpStateStats --section SpeedOfLight --section LaunchStats \
    --metrics smsp__inst_executed.sum \
    -o $OUT/$name python3 fp8-torch.py --library $LIB --kind tensor --bench 4096x4096x4096 --runs 1 --target-ms 5 > $OUT/$name-run.txt 2>&1
  ncu -i $OUT/$name.ncu-rep --page details > $OUT/$name-details.txt 2>&1
  ncu -i $OUT/$name.ncu-rep --page source --print-source sass --csv > $OUT/$name-sass.csv 2>&1
  gzip -f $OUT/$name-sass.csv; rm -f $OUT/$name.ncu-rep
}
prof ncu-ours "fp8_gemm_tensor" 2
prof ncu-cublaslt "nvjet" 2
ls -la $OUT
