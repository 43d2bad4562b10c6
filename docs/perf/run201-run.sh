#!/bin/bash
# Run 201: the no-turn default (run 200) against clusters of two
# (ab/c2: tile.cluster = 2, the shared operand multicast), 6 stages (ab/s6)
# and both (ab/c2s6), every scale kind; checks of the variants.
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/run201.log
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $L
SH=4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384
for round in 1 2; do
  for v in aot-fp8/e4m3 ab/c2 ab/s6 ab/c2s6; do
    for kind in tensor rowwise blockwise; do
      echo "== bench $v $kind round $round" | tee -a $L
      timeout 60 python3 fp8-torch.py --library $v/libfp8_gemm.so --kind $kind --bench $SH --runs 3 2>&1 | grep -E "^\||geomean" | tee -a $L
    done
  done
done
echo "== checks" | tee -a $L
for v in c2 s6 c2s6; do
  for kind in tensor rowwise blockwise; do
    timeout 60 python3 fp8-torch.py --library ab/$v/libfp8_gemm.so --kind $kind --check 129x65x300,1000x1000x1000,4095x4097x1023,2176x2048x256 --offsets 0,1 2>&1 | tail -1 | sed "s/^/$v $kind: /" | tee -a $L
  done
done
