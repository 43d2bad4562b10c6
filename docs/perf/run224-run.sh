#!/bin/bash
# Run 224: the dynamic shared memory's address, which the wgmma descriptors
# start from, computed once per kernel in a form ptxas cannot fold (the
# symbol times %nctaid.y, 1 in these one-dimensional grids; a working-tree
# experiment, TILE_HOIST_SMEM) instead of rematerialized by ptxas in every
# K block (S2UR SR_CgaCtaId and the arithmetic after it, run 220): ab/hoist
# against the default (aot-fp8/e4m3): checks, sanitizers, A/B two rounds.
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/run224.log
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $L
P=ab/hoist/libfp8_gemm.so
for kind in tensor rowwise blockwise; do
  timeout 120 python3 fp8-torch.py --library $P --kind $kind --check 1x1x32,3x5x7,128x128x128,1000x1000x1000,4095x4097x1023,8192x16x4096,2176x2048x256,4224x4224x64 --offsets 0,16,1 2>&1 | tail -2 | sed "s/^/hoist $kind: /" | tee -a $L
done
for tool in racecheck synccheck; do
  for kind in tensor rowwise; do
    timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 python3 fp8-torch.py --library $P --kind $kind --check 129x65x300,2176x2048x256 --offsets 0 > $OUT/san.txt 2>&1
    echo "$tool $kind: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san.txt | tail -1)" | tee -a $L
  done
done
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 python3 fp8-torch.py --library $P --kind tensor --check 4095x4097x1023,300x8192x128 --offsets 0,1 > $OUT/san.txt 2>&1
echo "memcheck tensor: exit $? $(grep -E 'ERROR SUMMARY' $OUT/san.txt | tail -1)" | tee -a $L
SH=4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384
for round in 1 2; do
  for kind in tensor rowwise; do
    for v in ab/hoist aot-fp8/e4m3; do
      echo "== bench $v $kind round $round" | tee -a $L
      timeout 60 python3 fp8-torch.py --library $v/libfp8_gemm.so --kind $kind --bench $SH --runs 3 2>&1 | grep -E "^\| [0-9]|geomean" | tee -a $L
    done
  done
done
