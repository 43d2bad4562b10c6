#!/usr/bin/env bash
# Run 127: why the FP8 per-tensor GEMM at 128 x 128 tiles is 30 % slower
# with 5 stages than with 4 (run 126): ncu of one launch of each at 4096^3.
cd "$(dirname "${BASH_SOURCE[0]}")"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}
for v in 4 8; do
  n=fp8-v$v
  echo "== ncu $n"
  timeout 200 ncu --clock-control none --kernel-name regex:fp8_gemm_kernel_tma --launch-skip 3 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --section SpeedOfLight --section LaunchStats --section MemoryWorkloadAnalysis \
    --metrics sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active \
    -o $OUT/$n ./tile-tune-time ncu$v --shapes 4096x4096x4096 --iters 2 --runs 1 --warmup 2 2>&1 | grep -v "^==PROF==" | tail -3
  ncu -i $OUT/$n.ncu-rep --page details 2>&1 | tail -120 > $OUT/$n-details.txt
  ncu -i $OUT/$n.ncu-rep --page source --print-source sass --csv > $OUT/$n-sass.csv 2>&1
  gzip -f $OUT/$n-sass.csv
  rm -f $OUT/$n.ncu-rep
  grep -E "Duration|Throughput|gmma|issue_active|Issue Slots|Warp Cycles|No Eligible|Stall" $OUT/$n-details.txt | head -30
done
