#!/usr/bin/env bash
# Session 16, run 42c: shared-memory bank conflicts and stalls of the
# example's epilogue at 4096x4096x256 (ncu, one launch).
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}"
{
for n in new-ex; do
  echo "== ncu $n"
  timeout 200 ncu --kernel-name regex:gemm_kernel --launch-skip 1 --launch-count 1 \
    --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis_Tables \
    --metrics sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__inst_executed_op_shared_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,smsp__inst_executed.sum,gpu__time_duration.sum \
    ./tile-gemm-bench --library=defaults/$n/lib.so --dtype=bf16 --shapes=4096x4096x256 --runs=1 --no-cublas 2>&1 | grep -v "^==PROF==" | tail -90
done
echo "== source-level stalls"
timeout 200 ncu --kernel-name regex:gemm_kernel --launch-skip 1 --launch-count 1 --section SourceCounters --import-source no -o $OUT/k256 -f \
    ./tile-gemm-bench --library=defaults/new-ex/lib.so --dtype=bf16 --shapes=4096x4096x256 --runs=1 --no-cublas > /dev/null 2>&1
timeout 100 ncu -i $OUT/k256.ncu-rep --page source --csv --print-source sass 2>/dev/null > $OUT/k256-sass.csv
ls -la $OUT
} 2>&1 | tee $OUT/exp16.log
