#!/bin/bash
# Run 204: the tile's epilogue one tile late (tile.epilogue_late, the new
# default of the per-tensor and row-wise kernels) against the same example
# with tile.epilogue_late = false (ab/old, the previous default): fp8-run.sh
# on the new default (every check and the sanitizers), extra checks of
# blocks taking several tiles and of one-K-block tiles, two rounds of A/B
# at the bar shapes, then run 203's K sweep on the new kernels.
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/run204.log
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $L
echo "== fp8-run.sh" | tee -a $L
timeout 300 bash fp8-run.sh 2>&1 | tail -40 | tee -a $L
echo "== extra checks (new default)" | tee -a $L
for kind in tensor rowwise; do
  timeout 60 python3 fp8-torch.py --library aot-fp8/e4m3/libfp8_gemm.so --kind $kind --check 1x1x32,3x5x7,128x128x128,2176x2048x256,2176x2048x100,4224x4224x64,1000x1000x1000,4095x4097x1023,8192x16x4096 --offsets 0,16,1 2>&1 | tail -3 | sed "s/^/$kind: /" | tee -a $L
done
echo "== racecheck / synccheck, blocks of several tiles, one K block" | tee -a $L
for tool in racecheck synccheck; do
  timeout 120 compute-sanitizer --tool $tool python3 fp8-torch.py --library aot-fp8/e4m3/libfp8_gemm.so --kind tensor --check 4224x4224x64 --offsets 0 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|hazard|pass|FAIL" | tail -3 | sed "s/^/$tool: /" | tee -a $L
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
for kind in tensor; do
for s in 1536x1408x4096 3072x1408x4096; do
  echo "== ncu $kind $s (new, and cuBLASLt)" | tee -a $L
  timeout 60 ncu --clock-control none --kernel-name "regex:fp8_gemm_$kind|nvjet" --launch-skip 2 --launch-count 4 --metrics $M \
    python3 fp8-torch.py --library aot-fp8/e4m3/libfp8_gemm.so --kind $kind --bench $s --runs 1 --target-ms 5 2>&1 | grep -E "^  [A-Za-z_0-9]+|gpu__time|sm__|==ERR|Error" | tee -a $L
done
done
