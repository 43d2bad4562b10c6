#!/bin/bash
# Run 205: the late epilogue with tile-unroll-loops keeping it out of the K
# loop's body (the first two K blocks of an even count run alone) against
# tile.epilogue_late = false (ab/old): checks, the three sanitizers at a
# shape whose blocks take several tiles, A/B in two rounds, ncu cycles at
# one and two tiles a block.
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/run205.log
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $L
for kind in tensor rowwise; do
  timeout 90 python3 fp8-torch.py --library aot-fp8/e4m3/libfp8_gemm.so --kind $kind --check 1x1x32,3x5x7,128x128x128,2176x2048x256,2176x2048x100,4224x4224x64,4224x4224x384,1000x1000x1000,4095x4097x1023,8192x16x4096 --offsets 0,16,1 2>&1 | tail -1 | sed "s/^/$kind: /" | tee -a $L
  timeout 60 python3 fp8-torch.py --library aot-fp8/e5m2a/libfp8_gemm.so --kind $kind --a-dtype e5m2 --check 2176x2048x384,4095x4097x1023 --offsets 0,1 2>&1 | tail -1 | sed "s/^/$kind e5m2: /" | tee -a $L
done
for tool in memcheck racecheck synccheck; do
  for kind in tensor rowwise; do
    timeout 120 compute-sanitizer --tool $tool --kernel-name regex:fp8_gemm python3 fp8-torch.py --library aot-fp8/e4m3/libfp8_gemm.so --kind $kind --check 2176x2048x384,4224x4224x64 --offsets 0 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|checks passed" | tail -2 | sed "s/^/$tool $kind: /" | tee -a $L
  done
done
SH=4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384
for round in 1 2; do
  for v in aot-fp8/e4m3 ab/old; do
    for kind in tensor rowwise; do
      echo "== bench $v $kind round $round" | tee -a $L
      timeout 60 python3 fp8-torch.py --library $v/libfp8_gemm.so --kind $kind --bench $SH --runs 3 2>&1 | grep -E "^\||geomean" | tee -a $L
    done
  done
done
M=gpu__time_duration.sum,sm__cycles_elapsed.max,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active
for v in aot-fp8/e4m3 ab/old; do
for s in 1536x1408x4096 3072x1408x4096; do
  echo "== ncu $v $s" | tee -a $L
  timeout 60 ncu --clock-control none --kernel-name "regex:fp8_gemm_tensor" --launch-skip 1 --launch-count 2 --metrics $M \
    python3 fp8-torch.py --library $v/libfp8_gemm.so --kind tensor --bench $s --runs 1 --target-ms 5 2>&1 | grep -E "^  [A-Za-z_0-9]+|sm__cycles|sm__pipe|==ERR|Error" | tee -a $L
done
done
