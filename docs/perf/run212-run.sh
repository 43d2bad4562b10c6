#!/bin/bash
# Run 212: fp8-torch.py's basis where torch's block-wise result is off
# (4224x4224x64); ncu of the per-tensor kernel, clusters of two (ab/c2)
# and cuBLASLt's at 4096^3 and 8192x8192x4096: L2 throughput against its
# peak, L2 -> SM sectors, the tensor pipe, DRAM.
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/run212.log
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $L
timeout 60 python3 fp8-torch.py --library aot-fp8/e4m3/libfp8_gemm.so --kind blockwise --check 4224x4224x64,1000x1000x1000,128x128x128 --offsets 0,1 2>&1 | grep -E "check|passed" | tee -a $L
M=gpu__time_duration.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__m_xbar2l1tex_read_sectors.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__cycles_elapsed.avg.per_second,launch__cluster_dim_x,launch__grid_size
for v in aot-fp8/e4m3 ab/c2; do
  for s in 4096x4096x4096 8192x8192x4096; do
    echo "== ncu $v $s" | tee -a $L
    timeout 120 ncu --clock-control none --kernel-name "regex:fp8_gemm_tensor|nvjet" --launch-skip 2 --launch-count 4 --metrics $M \
      python3 fp8-torch.py --library $v/libfp8_gemm.so --kind tensor --bench $s --runs 1 2>&1 | grep -E "__|fp8_gemm|nvjet|==ERR" | tee -a $L
  done
done
# Launch groups of 4 and 16 grid rows (ab/lg4, ab/lg16) against the
# default's 8, per-tensor, two rounds.
SH=4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384
for round in 1 2; do
  for v in aot-fp8/e4m3 ab/lg4 ab/lg16; do
    echo "== bench $v tensor round $round" | tee -a $L
    timeout 60 python3 fp8-torch.py --library $v/libfp8_gemm.so --kind tensor --bench $SH --runs 3 2>&1 | grep -E "^\| [0-9]|geomean" | tee -a $L
  done
done
