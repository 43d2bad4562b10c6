#!/usr/bin/env bash
# Run 124: where the default D128 FlashAttention's time goes now (ncu
# source counters and warp states, one launch, B4 H16 S4096 and B1 H16
# S16384), and the SASS listing of its kernel.
cd "$(dirname "${BASH_SOURCE[0]}")"
export PATH="$PATH:/usr/local/cuda/bin"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,serial,clocks.max.sm,driver_version --format=csv
for s in 4:16:4096 1:16:16384; do
  n=fa-${s//:/-}
  echo "== ncu $n"
  timeout 200 ncu --clock-control none --kernel-name regex:flash_attention_fwd_kernel_tma --launch-skip 2 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --section SpeedOfLight --section LaunchStats \
    --metrics sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active \
    -o $OUT/$n python3 fa-sdpa.py --library exp/d128/lib.so --bench --shapes=$s --iters=2 2>&1 | grep -v "^==PROF==" | tail -3
  ncu -i $OUT/$n.ncu-rep --page details 2>&1 | tail -90 > $OUT/$n-details.txt
  ncu -i $OUT/$n.ncu-rep --page source --print-source sass --csv > $OUT/$n-sass.csv 2>&1
  gzip -f $OUT/$n-sass.csv
  rm -f $OUT/$n.ncu-rep
  grep -E "Duration|Throughput|gmma|pipe_xu|issue_active|Issue Slots|Warp Cycles|No Eligible" $OUT/$n-details.txt | head -20
done
ls -la $OUT
