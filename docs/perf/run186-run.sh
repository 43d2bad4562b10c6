#!/bin/bash
# Run 186: ncu durations at 8192^3 of the whole-tile kernels against the
# last-wave-split path (tail kernel + its reduction), per-tensor and block-wise.
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/run186.log
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $L
prof() {
  local name=$1 lib=$2 kind=$3 regex=$4 count=$5
  echo "== $name" | tee -a $L
  timeout 200 ncu --clock-control none --kernel-name "regex:$regex" --launch-skip 4 --launch-count $count \
    --section SpeedOfLight --section LaunchStats \
    --metrics lts__t_bytes.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,dram__bytes_read.sum,lts__t_sector_hit_rate.pct \
    python3 fp8-torch.py --library $lib --kind $kind --bench 8192x8192x8192 --runs 1 --target-ms 5 2>&1 | grep -E "^  [a-z_]+_kernel|Duration|Elapsed Cycles|SM Frequency|lts__t_bytes|hmma_cycles|inst_executed.sum|dram__bytes_read|hit_rate|Grid Size|Registers Per|Block Limit Reg" | tee -a $L
}
prof pt-whole r185/ptwhole.so tensor "fp8_gemm_tensor_kernel" 2
prof pt-tail r185/split.so tensor "fp8_gemm_tensor_kernel" 4
prof bw-whole r185/early.so blockwise "fp8_gemm_blockwise_kernel" 2
prof bw-tail r185/split.so blockwise "fp8_gemm_blockwise_kernel" 4
