#!/bin/bash
# Run 183: ncu of the block-scaled FP8 kernel (consumer one gemm late, the
# example as committed at 293b89d) and of cuBLASLt's block-wise kernel
# (torch._scaled_mm), one launch each at 8192x8192x4096, clocks free:
# duration, SM and memory throughput, stall samples per SASS instruction.
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader > $OUT/device.txt
prof() {
  local name=$1 regex=$2
  timeout 200 ncu --clock-control none --kernel-name "regex:$regex" --launch-skip 3 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --section SpeedOfLight --section MemoryWorkloadAnalysis --section LaunchStats --section Occupancy \
    --metrics lts__t_bytes.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_tensor_op_hmma.sum \
    -o $OUT/$name python3 fp8-torch.py --library nc/bw.so --kind blockwise --bench 8192x8192x4096 --runs 1 --target-ms 5 > $OUT/$name-run.txt 2>&1
  ncu -i $OUT/$name.ncu-rep --page details > $OUT/$name-details.txt 2>&1
  ncu -i $OUT/$name.ncu-rep --page source --print-source sass --csv > $OUT/$name-sass.csv 2>&1
  gzip -f $OUT/$name-sass.csv; rm -f $OUT/$name.ncu-rep
}
prof ncu-bw-ours fp8_gemm_blockwise_kernel_tma
prof ncu-bw-cublaslt nvjet
ls -la $OUT
