#!/usr/bin/env bash
# Run 107: where a FlashAttention block's time goes (ncu source counters,
# one launch at S 1024 and S 16384, same number of blocks).
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" PYTHONUNBUFFERED=1
for s in 16:16:1024 1:16:16384; do
  n=fa-${s//:/-}
  echo "== ncu $n"
  timeout 240 ncu --clock-control none --kernel-name regex:flash_attention_fwd_kernel_tma --launch-skip 2 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --section SpeedOfLight --section LaunchStats \
    --metrics sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active \
    -o $OUT/$n python3 fa-sdpa.py --library x106/nc.so --bench --shapes=$s --iters=2 2>&1 | grep -v "^==PROF==" | tail -5
  ncu -i $OUT/$n.ncu-rep --page details 2>&1 | tail -80 > $OUT/$n-details.txt
  ncu -i $OUT/$n.ncu-rep --page source --print-source sass --csv > $OUT/$n-sass.csv 2>&1
  ls -la $OUT
done
