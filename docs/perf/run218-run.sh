#!/bin/bash
# Run 218: where the per-tensor kernel in clusters of two (ab/c2,
# tile.cluster = 2) waits, against the default (aot-fp8/e4m3), 4096^3:
# ncu's warp state statistics (stall reasons per issued instruction).
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/run218.log
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $L
for v in aot-fp8/e4m3 ab/c2; do
  echo "== ncu warp states $v 4096x4096x4096" | tee -a $L
  timeout 150 ncu --clock-control none --kernel-name "regex:fp8_gemm_tensor" --launch-skip 2 --launch-count 1 --section WarpStateStats --section SchedulerStats --metrics gpu__time_duration.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active \
    python3 fp8-torch.py --library $v/libfp8_gemm.so --kind tensor --bench 4096x4096x4096 --runs 1 2>&1 | grep -vE "^\| |PROF|^geomean|^==WARNING" | tee -a $L
done
