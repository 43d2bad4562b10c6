#!/bin/bash
# Run 193: cuBLASLt's FP8 per-tensor kernel against ours in the L2 counters of
# run 192 (lookups per delivered sector, requests, fabric traffic), at
# 8192x8192x4096 and 8192^3, one process, both kernels profiled from the
# same bench loop; then the bench alone.
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/run193.log
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $L
LIB=aot-fp8/e4m3/libfp8_gemm.so
ls -la aot-fp8/e4m3 | tee -a $L
M=lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_bytes.sum,dram__bytes_read.sum,gpu__time_duration.sum,smsp__inst_executed.sum,l1tex__m_xbar2l1tex_read_sectors.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__cluster_dim_x,launch__block_size
for s in 8192x8192x4096 8192x8192x8192 4096x4096x4096; do
  echo "== ncu per-tensor $s (ours and cuBLASLt)" | tee -a $L
  timeout 240 ncu --clock-control none --kernel-name "regex:fp8_gemm_tensor|nvjet" --launch-skip 2 --launch-count 8 --metrics $M \
    python3 fp8-torch.py --library $LIB --kind tensor --bench $s --runs 1 --target-ms 5 2>&1 | grep -E "^  [A-Za-z_0-9]+|lts__|gpu__time|inst_executed|l1tex__|dram__|sm__pipe|launch__|==ERR|Error" | tee -a $L
done
echo "== bench" | tee -a $L
timeout 200 python3 fp8-torch.py --library $LIB --kind tensor --bench 4096x4096x4096,8192x8192x8192,8192x8192x4096 --runs 3 2>&1 | tee -a $L
