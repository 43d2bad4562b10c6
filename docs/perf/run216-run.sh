#!/bin/bash
# Run 216: tensor stores whose staging buffers hold the whole tile (the FP8
# examples' two 128-byte panels) write every panel before one fence and one
# barrier, then store them all (aot-fp8/e4m3, the new default), against a
# fence, barrier and store per panel (ab/old, the same example compiled
# by 5b87828's compiler); then fp8-run.sh on the new default.
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/run216.log
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $L
SH=4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384
for round in 1 2; do
  for kind in tensor rowwise; do
    for v in aot-fp8/e4m3 ab/old; do
      echo "== bench $v $kind round $round" | tee -a $L
      timeout 60 python3 fp8-torch.py --library $v/libfp8_gemm.so --kind $kind --bench $SH --runs 3 2>&1 | grep -E "^\| [0-9]|geomean" | tee -a $L
    done
  done
done
for v in aot-fp8/e4m3 ab/old; do
  echo "== bench $v blockwise" | tee -a $L
  timeout 60 python3 fp8-torch.py --library $v/libfp8_gemm.so --kind blockwise --bench $SH --runs 3 2>&1 | grep -E "^\| [0-9]|geomean" | tee -a $L
done
timeout 250 bash fp8-run.sh > $OUT/fp8-run.out 2>&1
cp $OUT/fp8-run.out $OUT/run216-fp8-run.log 2>/dev/null
sed -n '/=== summary/,$p' $OUT/fp8-run.out | tee -a $L
