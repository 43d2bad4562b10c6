#!/bin/bash
# Run 211: consumer warpgroups started apart (experiment: the second
# warpgroup of a consumer region sleeps N ns before its tile loop,
# `stagger_ns = N` on the kernels: ab/st300, ab/st600, ab/st1200) against
# the default; and fp8-torch.py's fp32 basis where torch's block-wise
# result is not finite (4224x4224x64).
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/run211.log
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $L
timeout 60 python3 fp8-torch.py --library aot-fp8/e4m3/libfp8_gemm.so --kind blockwise --check 4224x4224x64,1000x1000x1000 --offsets 0,1 2>&1 | grep -E "check|passed" | tee -a $L
for v in st600 st1200; do
  for kind in tensor rowwise blockwise; do
    timeout 60 python3 fp8-torch.py --library ab/$v/libfp8_gemm.so --kind $kind --check 3x5x7,1000x1000x1000,2176x2048x256,4095x4097x1023 --offsets 0,1 2>&1 | tail -1 | sed "s/^/$v $kind: /" | tee -a $L
  done
done
SH=4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384
for round in 1 2; do
  for kind in tensor rowwise; do
    for v in aot-fp8/e4m3 ab/st300 ab/st600 ab/st1200; do
      echo "== bench $v $kind round $round" | tee -a $L
      timeout 60 python3 fp8-torch.py --library $v/libfp8_gemm.so --kind $kind --bench $SH --runs 3 2>&1 | grep -E "^\| [0-9]|geomean" | tee -a $L
    done
  done
done
for v in aot-fp8/e4m3 ab/st600; do
  echo "== bench $v blockwise" | tee -a $L
  timeout 60 python3 fp8-torch.py --library $v/libfp8_gemm.so --kind blockwise --bench $SH --runs 3 2>&1 | grep -E "^\| [0-9]|geomean" | tee -a $L
done
