#!/bin/bash
# Run 206: the opt-in late epilogue with its once-a-tile branch marked
# unlikely (llvm.expect: LLVM places the epilogue's code out of the K
# loop's body), ab/late, against the default (aot-fp8/e4m3, no late
# epilogue): checks, A/B in two rounds, ncu cycles at one and two tiles a
# block.
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/run206.log
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $L
for kind in tensor rowwise; do
  timeout 90 python3 fp8-torch.py --library ab/late/libfp8_gemm.so --kind $kind --check 3x5x7,2176x2048x256,4224x4224x64,4095x4097x1023 --offsets 0,1 2>&1 | tail -1 | sed "s/^/late $kind: /" | tee -a $L
done
SH=4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384
for round in 1 2; do
  for v in ab/late aot-fp8/e4m3; do
    for kind in tensor rowwise; do
      echo "== bench $v $kind round $round" | tee -a $L
      timeout 60 python3 fp8-torch.py --library $v/libfp8_gemm.so --kind $kind --bench $SH --runs 3 2>&1 | grep -E "^\||geomean" | tee -a $L
    done
  done
done
M=sm__cycles_elapsed.max
for v in ab/late aot-fp8/e4m3; do
for s in 1536x1408x4096 3072x1408x4096; do
  echo "== ncu $v $s" | tee -a $L
  timeout 60 ncu --clock-control none --kernel-name "regex:fp8_gemm_tensor" --launch-skip 1 --launch-count 2 --metrics $M \
    python3 fp8-torch.py --library $v/libfp8_gemm.so --kind tensor --bench $s --runs 1 --target-ms 5 2>&1 | grep -E "sm__cycles|==ERR|Error" | tee -a $L
done
done
