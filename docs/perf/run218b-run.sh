#!/bin/bash
# Run 218b: the stall reasons (ncu, warps stalled per issued instruction)
# of the per-tensor kernel alone and in clusters of two, 4096^3.
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/run218b.log
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $L
for v in aot-fp8/e4m3 ab/c2; do
  echo "== ncu stalls $v 4096x4096x4096" | tee -a $L
  timeout 150 ncu --clock-control none --kernel-name "regex:fp8_gemm_tensor" --launch-skip 2 --launch-count 1 --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio",gpu__time_duration.sum \
    python3 fp8-torch.py --library $v/libfp8_gemm.so --kind tensor --bench 4096x4096x4096 --runs 1 2>&1 | grep -E "__" | tee -a $L
done
