#!/bin/bash
# Run 200: the default without turns for per-tensor and row-wise FP8
# (tile-warp-specialize keeps them only for consumer_late gemms): the full
# fp8-run.sh (checks, sm_89, sanitizers, bench) on the new default, then A/B
# against ab/pp (tile.pingpong = true: the old default for per-tensor and
# row-wise) and ab/nopp (tile.pingpong = false: the block-wise kernel
# without turns), and row-wise with its scales copied before the main
# loop: ab/rwe (both vectors) and ab/rwa (A's only). SASS opcode counts of
# cubins compiled here.
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/run200.log
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $L
OUT=$OUT bash fp8-run.sh > /dev/null 2>&1
grep -E "PASS|FAIL" $OUT/fp8-run.log | tail -32 | tee -a $L
SH=4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384
for round in 1 2; do
  for v in aot-fp8/e4m3 ab/pp ab/nopp; do
    for kind in tensor rowwise blockwise; do
      echo "== bench $v $kind round $round" | tee -a $L
      timeout 60 python3 fp8-torch.py --library $v/libfp8_gemm.so --kind $kind --bench $SH --runs 3 2>&1 | grep -E "^\||geomean" | tee -a $L
    done
  done
  for v in ab/rwe ab/rwa; do
    echo "== bench $v rowwise round $round" | tee -a $L
    timeout 60 python3 fp8-torch.py --library $v/libfp8_gemm.so --kind rowwise --bench $SH --runs 3 2>&1 | grep -E "^\||geomean" | tee -a $L
  done
done
echo "== checks" | tee -a $L
for v in rwe rwa; do
  timeout 60 python3 fp8-torch.py --library ab/$v/libfp8_gemm.so --kind rowwise --check 129x65x300,1000x1000x1000,4095x4097x1023,2176x2048x256 --offsets 0,1 2>&1 | tail -1 | tee -a $L
done
for v in pp nopp; do
  timeout 60 python3 fp8-torch.py --library ab/$v/libfp8_gemm.so --kind blockwise --check 129x65x300,1000x1000x1000,2176x2048x256 --offsets 0,1 2>&1 | tail -1 | tee -a $L
done
echo "== sass opcode counts" | tee -a $L
for c in ab/sass/*.cubin; do
  cuobjdump -sass $c > $OUT/$(basename $c .cubin).sass 2>&1
  echo "-- $c: $(grep -cE '^\s+/\*[0-9a-f]{4}\*/' $OUT/$(basename $c .cubin).sass) instructions" | tee -a $L
  grep -oE '^\s+/\*[0-9a-f]{4}\*/\s+(@!?U?P[0-9T] )?[A-Z0-9]+' $OUT/$(basename $c .cubin).sass | awk '{print $NF}' | sort | uniq -c | sort -rn | head -25 | tr '\n' ' ' | tee -a $L; echo | tee -a $L
done
