#!/bin/bash
# Run 189: the split tail kernel with its two tensor stores' staging buffers
# at one offset (tile-allocate-shared) against the same kernel before
# (old.so: staging side by side) and the per-tensor kernel with its last
# wave kept whole; ncu of the tail kernel at 8192^3; the three sanitizers on
# the split path.
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/run189.log
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $L
SPLIT="1000x2170x8000,1024x2176x4736,8192x16x4096,64x64x16384"
for kind in tensor rowwise; do
  echo "== check new.so $kind" | tee -a $L
  timeout 200 python3 fp8-torch.py --library r189/new.so --kind $kind --check "1x1x32,3x5x7,128x128x128,4095x4097x1023,$SPLIT" --offsets 0,16,1 2>&1 | grep -E "FAIL|checks passed|rror" | tee -a $L
done
BENCH="4096x4096x4096,8192x8192x8192,8192x8192x4096,1000x2170x8000"
for round in 1 2 3; do
  for v in old new ptwhole; do
    echo "== bench $v tensor round $round" | tee -a $L
    timeout 100 python3 fp8-torch.py --library r189/$v.so --kind tensor --bench "$BENCH" --runs 5 2>&1 | grep -v "^benchmarking\|^|---" | tee -a $L
  done
done
for v in old new; do
  echo "== bench $v rowwise" | tee -a $L
  timeout 100 python3 fp8-torch.py --library r189/$v.so --kind rowwise --bench "$BENCH" --runs 5 2>&1 | grep -v "^benchmarking\|^|---" | tee -a $L
done
prof() {
  local name=$1 lib=$2 regex=$3 count=$4
  echo "== ncu $name" | tee -a $L
  timeout 150 ncu --clock-control none --kernel-name "regex:$regex" --launch-skip 4 --launch-count $count \
    --section SpeedOfLight --section LaunchStats \
    --metrics lts__t_bytes.sum,lts__t_sectors_op_read.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,dram__bytes_read.sum \
    python3 fp8-torch.py --library $lib --kind tensor --bench 8192x8192x8192 --runs 1 --target-ms 5 2>&1 | grep -E "^  [a-z_]+_kernel|Duration|Elapsed Cycles|SM Frequency|lts__t_bytes|lts__t_sectors_op_read|hmma_cycles|inst_executed.sum|dram__bytes_read|Dynamic Shared|Registers Per" | tee -a $L
}
prof new-tail r189/new.so "fp8_gemm_tensor_kernel" 4
prof old-tail r189/old.so "fp8_gemm_tensor_kernel" 4
prof whole r189/ptwhole.so "fp8_gemm_tensor_kernel" 2
for tool in memcheck synccheck racecheck; do
  echo "== $tool new.so tensor" | tee -a $L
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 python3 fp8-torch.py --library r189/new.so --kind tensor --check 1024x2176x4736,8192x16x4096 --offsets 0,1 2>&1 | grep -E "FAIL|checks passed|rror|hazard" | tee -a $L
  echo "exit ${PIPESTATUS[0]}" | tee -a $L
done
