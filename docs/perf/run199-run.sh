#!/bin/bash
# Run 199: after runs 197-198's epilogue changes, the one-tile-per-block K
# sweep of run 196 again (ncu cycles: the main loop's slope and a second
# tile's fixed cost), then A/B of the per-tensor and row-wise kernels at 6
# stages (ab/s6) and without turns (ab/nopp, tile.pingpong = false)
# against the example (ab/new).
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/run199.log
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $L
M=gpu__time_duration.sum,sm__cycles_elapsed.max,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
for s in 1536x1408x4096 1536x1408x16384 1536x1408x32768 3072x1408x4096 3072x1408x16384; do
  echo "== ncu per-tensor $s (new, and cuBLASLt)" | tee -a $L
  timeout 60 ncu --clock-control none --kernel-name "regex:fp8_gemm_tensor|nvjet" --launch-skip 2 --launch-count 4 --metrics $M \
    python3 fp8-torch.py --library ab/new/libfp8_gemm.so --kind tensor --bench $s --runs 1 --target-ms 5 2>&1 | grep -E "^  [A-Za-z_0-9]+|gpu__time|sm__|inst_executed|==ERR|Error" | tee -a $L
done
SH=4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384
for round in 1 2; do
  for v in new s6 nopp; do
    for kind in tensor rowwise; do
      echo "== bench $v $kind round $round" | tee -a $L
      timeout 60 python3 fp8-torch.py --library ab/$v/libfp8_gemm.so --kind $kind --bench $SH --runs 3 2>&1 | grep -E "^\||geomean" | tee -a $L
    done
  done
done
echo "== check s6 and nopp" | tee -a $L
for v in s6 nopp; do
  timeout 60 python3 fp8-torch.py --library ab/$v/libfp8_gemm.so --kind tensor --check 129x65x300,1000x1000x1000,4095x4097x1023,2176x2048x256 --offsets 0,1 2>&1 | tail -1 | tee -a $L
done
