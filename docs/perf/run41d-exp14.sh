#!/usr/bin/env bash
# Session 15, run 41d: ncu of one launch of alternating vs one-consumer vs example kernels at 4096^3.
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}"
{
for n in alt128 noalt128 example-bf16; do
  echo "== ncu $n"
  timeout 150 ncu --kernel-name regex:gemm_kernel --launch-skip 1 --launch-count 1 \
    --section SpeedOfLight --section WarpStateStats --section LaunchStats --metrics sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active \
    ./tile-gemm-bench --library=defaults/$n/lib.so --dtype=bf16 --shapes=4096x4096x4096 --runs=1 --no-cublas 2>&1 | grep -v "^==PROF==" | tail -70
done
} 2>&1 | tee $OUT/exp14.log
