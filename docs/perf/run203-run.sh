#!/bin/bash
# Run 203: run 196's K sweep (ncu cycles, one launch each) on the no-turn
# default: 132 tiles one per block (1536x1408) and two per block
# (3072x1408) at K = 4096 and 16384, ours and cuBLASLt's, for the main
# loop's cost per K block and a second tile's fixed cost.
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/run203.log
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $L
M=gpu__time_duration.sum,sm__cycles_elapsed.max,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
for kind in tensor rowwise; do
for s in 1536x1408x4096 1536x1408x16384 3072x1408x4096 3072x1408x16384; do
  echo "== ncu $kind $s (ours, and cuBLASLt)" | tee -a $L
  timeout 60 ncu --clock-control none --kernel-name "regex:fp8_gemm_$kind|nvjet" --launch-skip 2 --launch-count 4 --metrics $M \
    python3 fp8-torch.py --library aot-fp8/e4m3/libfp8_gemm.so --kind $kind --bench $s --runs 1 --target-ms 5 2>&1 | grep -E "^  [A-Za-z_0-9]+|gpu__time|sm__|inst_executed|==ERR|Error" | tee -a $L
done
done
