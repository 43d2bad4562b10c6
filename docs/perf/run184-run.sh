#!/bin/bash
# Run 184: block-wise FP8, the late consumer's scales read before the gemm
# (new) against reading them after it (old, HEAD's compiler).
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/run184.log
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $L
FP8="4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384"
echo "== check new blockwise" | tee -a $L
timeout 200 python3 fp8-torch.py --library r184/new.so --kind blockwise --check "1x1x32,3x5x7,128x128x128,1000x1000x1000,4095x4097x1023,8192x16x4096" --offsets 0,16,1 2>&1 | grep -E "FAIL|checks passed|rror" | tail -3 | tee -a $L
for kind in tensor rowwise; do
echo "== check new $kind" | tee -a $L
timeout 200 python3 fp8-torch.py --library r184/new.so --kind $kind --check "1x1x32,3x5x7,1000x1000x1000,4095x4097x1023" --offsets 0,1 2>&1 | grep -E "FAIL|checks passed|rror" | tail -3 | tee -a $L
done
for tool in memcheck racecheck synccheck; do
  echo "== $tool new blockwise" | tee -a $L
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 python3 fp8-torch.py --library r184/new.so --kind blockwise --check 129x65x300,3x5x7 --offsets 0,1 2>&1 | grep -E "FAIL|checks passed|rror|hazard" | tail -3 | tee -a $L
  echo "exit ${PIPESTATUS[0]}" | tee -a $L
done
for round in 1 2 3; do
  for v in old new; do
    echo "== bench $v blockwise round $round" | tee -a $L
    timeout 120 python3 fp8-torch.py --library r184/$v.so --kind blockwise --bench "$FP8" --runs 5 2>&1 | grep -v "^benchmarking\|^|---" | tee -a $L
  done
done
