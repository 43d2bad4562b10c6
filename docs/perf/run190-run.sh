#!/bin/bash
# Run 190: the final build of this session. The FP8 per-tensor and row-wise
# kernels with the last-wave split's new bound (split-tail-min-share: at
# 8192^3 the whole-tile kernel runs) against run 189's library (old);
# examples/gemm.mlir's tail kernel, whose f32 partial sums now leave
# through tensor stores sharing the whole tiles' staging, checked where the
# last wave is split; then fp8-run.sh.
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/run190.log
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $L
TAIL="5120x5120x5120,2176x2048x8000,2100x2000x4000,129x300x777,1x1x1"
echo "== check gemm_f16 tail shapes" | tee -a $L
timeout 200 python3 gemm-torch.py --library r190/gemm_f16.so --kind gemm --function gemm --dtype f16 --check "$TAIL" --offsets 0,1,8 2>&1 | grep -E "FAIL|checks passed|rror" | tee -a $L
echo "== bench gemm_f16" | tee -a $L
timeout 100 python3 gemm-torch.py --library r190/gemm_f16.so --kind gemm --function gemm --dtype f16 --bench "5120x5120x5120,2176x2048x8000,4096x4096x4096" --runs 5 2>&1 | grep -v "^benchmarking\|^|---" | tee -a $L
for tool in racecheck synccheck memcheck; do
  echo "== $tool gemm_f16 tail" | tee -a $L
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 python3 gemm-torch.py --library r190/gemm_f16.so --kind gemm --function gemm --dtype f16 --check 2100x2000x4000 --offsets 0,1 2>&1 | grep -E "FAIL|checks passed|Race reported.*gemm_kernel|ERROR SUMMARY|RACECHECK SUMMARY|Target application" | tee -a $L
  echo "exit ${PIPESTATUS[0]}" | tee -a $L
done
BENCH="4096x4096x4096,8192x8192x8192,8192x8192x4096,1000x2170x8000"
for round in 1 2; do
  for v in old new; do
    for kind in tensor rowwise; do
      echo "== bench fp8_$v $kind round $round" | tee -a $L
      timeout 100 python3 fp8-torch.py --library r190/fp8_$v.so --kind $kind --bench "$BENCH" --runs 5 2>&1 | grep -v "^benchmarking\|^|---" | tee -a $L
    done
  done
done
