#!/bin/bash
# Run 198: examples/gemm.mlir (f16, and bf16 through gemm-variant.py) with
# each consumer warpgroup storing its own rows (store_barrier): checks at odd
# shapes, offsets and split tails; racecheck, synccheck and memcheck; then
# A/B against the same source with `tile.warpgroup_stores = false`.
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/run198.log
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $L
CHK=1x1x1,128x128x32,129x300x777,1000x1000x1000,4095x4097x1023,2100x2000x4000,2176x2048x8000,5120x5120x5120
for d in f16 bf16; do
  echo "== check new-$d" | tee -a $L
  timeout 120 python3 gemm-torch.py --library abg/new-$d/libgemm.so --dtype $d --check $CHK --offsets 0,1,8 2>&1 | grep -vE "^check .*PASS" | tail -5 | tee -a $L
done
for tool in racecheck synccheck; do
  echo "== $tool new-bf16 2176x2048x512" | tee -a $L
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 python3 gemm-torch.py --library abg/new-bf16/libgemm.so --dtype bf16 --check 2176x2048x512 --offsets 0 2>&1 | tail -2 | tee -a $L
done
echo "== memcheck new-bf16" | tee -a $L
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 python3 gemm-torch.py --library abg/new-bf16/libgemm.so --dtype bf16 --check 1000x1000x1000,2100x2000x4000 --offsets 0,1 2>&1 | tail -2 | tee -a $L
SH=4096x4096x4096,8192x8192x8192,4096x4096x256,8192x8192x1024,5120x5120x5120,2048x2048x2048
for round in 1 2; do
  for v in new old; do
    for d in bf16 f16; do
      echo "== bench $v-$d round $round" | tee -a $L
      timeout 60 python3 gemm-torch.py --library abg/$v-$d/libgemm.so --dtype $d --bench $SH --runs 3 2>&1 | grep -E "^\||geomean" | tee -a $L
    done
  done
done
