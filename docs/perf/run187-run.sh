#!/bin/bash
# Run 187: ncu source counters of the per-tensor whole-tile kernel and the
# last-wave-split tail kernel at 8192^3 (why the tail kernel moves 22 % more
# L2 bytes, run 186).
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader > $OUT/device.txt
prof() {
  local name=$1 lib=$2 regex=$3
  timeout 250 ncu --clock-control none --kernel-name "regex:$regex" --launch-skip 4 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section LaunchStats --section Occupancy \
    --metrics lts__t_bytes.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_l1.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_atom.sum,lts__t_sectors_op_red.sum,smsp__inst_executed.sum \
    -o $OUT/$name python3 fp8-torch.py --library $lib --kind tensor --bench 8192x8192x8192 --runs 1 --target-ms 5 > $OUT/$name-run.txt 2>&1
  ncu -i $OUT/$name.ncu-rep --page details > $OUT/$name-details.txt 2>&1
  ncu -i $OUT/$name.ncu-rep --page source --print-source sass --csv > $OUT/$name-sass.csv 2>&1
  gzip -f $OUT/$name-sass.csv; rm -f $OUT/$name.ncu-rep
}
prof ncu-pt-whole r185/ptwhole.so "fp8_gemm_tensor_kernel_tma"
prof ncu-pt-tail r185/split.so "fp8_gemm_tensor_kernel_tail_tma"
ls -la $OUT
