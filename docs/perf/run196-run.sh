#!/bin/bash
# Run 196: where our FP8 per-tensor kernel's time goes, one tile per block:
# 132 tiles (1536 x 1408, 12 x 11 tiles of 128 x 128) and 264 tiles
# (3072 x 1408) at K = 1024 ... 32768, ours against cuBLASLt; ncu durations,
# SM cycles and tensor-pipe activity per launch. time(K) = fixed + K/128 x
# per-block: the slope is the main loop's cost per K block, the intercept
# the tile's fixed cost (prologue, epilogue).
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/run196.log
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $L
LIB=aot-fp8/e4m3/libfp8_gemm.so
M=gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_active.avg,smsp__inst_executed.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__cluster_dim_x,launch__cluster_dim_y,launch__block_size
SH="1536x1408x1024,1536x1408x4096,1536x1408x16384,1536x1408x32768,3072x1408x1024,3072x1408x4096,3072x1408x16384"
echo "== bench" | tee -a $L
timeout 150 python3 fp8-torch.py --library $LIB --kind tensor --bench $SH --runs 3 2>&1 | tee -a $L
for s in ${SH//,/ }; do
  echo "== ncu per-tensor $s (ours and cuBLASLt)" | tee -a $L
  timeout 60 ncu --clock-control none --kernel-name "regex:fp8_gemm_tensor|nvjet|sm90" --launch-skip 2 --launch-count 4 --metrics $M \
    python3 fp8-torch.py --library $LIB --kind tensor --bench $s --runs 1 --target-ms 5 2>&1 | grep -E "^  [A-Za-z_0-9]+|gpu__time|sm__|inst_executed|launch__|==ERR|Error" | tee -a $L
done
