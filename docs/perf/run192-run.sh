#!/bin/bash
# Run 192: where the split tail kernel's extra L2 sectors come from (per-tensor
# FP8 at 8192^3): L2 sectors by source (the SMs' TEX unit, the fabric
# between the two L2 partitions), whole-tile kernel (fp8_new: the split is
# not picked at 8192^3 now) against the tail kernel (fp8_old).
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/run192.log
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $L
M=lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_op_read.sum,gpu__time_duration.sum,smsp__inst_executed.sum,l1tex__m_xbar2l1tex_read_sectors.sum,lts__t_sectors_srcnode_gpc.sum
for v in new old; do
  echo "== ncu fp8_$v tensor 8192^3" | tee -a $L
  timeout 200 ncu --clock-control none --kernel-name "regex:fp8_gemm_tensor_kernel" --launch-skip 4 --launch-count 2 --metrics $M \
    python3 fp8-torch.py --library r190/fp8_$v.so --kind tensor --bench 8192x8192x8192 --runs 1 --target-ms 5 2>&1 | grep -E "^  [a-z_]+_kernel|lts__|gpu__time|inst_executed|l1tex__" | tee -a $L
done
