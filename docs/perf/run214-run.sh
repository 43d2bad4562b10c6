#!/bin/bash
# Run 214: 128 x 144 FP8 tiles (wgmma m64n144k32, the accumulator's layout
# padded to 256 columns; tensor stores of 32-byte panels): the tunable
# per-tensor example at BN=144 (ab/t144) against BN=128 (ab/t128) and the
# example (aot-fp8/e4m3), against _scaled_mm in one process.
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/run214.log
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $L
for v in t144 t128; do
  timeout 150 python3 fp8-torch.py --library ab/$v/libfp8_gemm.so --function fp8_gemm --kind tensor --check 1x1x32,3x5x7,128x128x128,1000x1000x1000,4095x4097x1023,8192x16x4096,2304x2304x256,300x8192x128,16x8200x256 --offsets 0,16,1 2>&1 | grep -E "FAIL|fail|passed|Error|error" | tail -4 | sed "s/^/$v check: /" | tee -a $L
done
SH=8192x8192x4096,8192x8192x8192,4096x4096x4096,4096x7168x16384
for round in 1 2; do
  for v in ab/t144 ab/t128; do
    echo "== bench $v round $round" | tee -a $L
    timeout 80 python3 fp8-torch.py --library $v/libfp8_gemm.so --function fp8_gemm --kind tensor --bench $SH --runs 3 2>&1 | grep -E "^\| [0-9]|geomean" | tee -a $L
  done
  echo "== bench aot-fp8/e4m3 round $round" | tee -a $L
  timeout 80 python3 fp8-torch.py --library aot-fp8/e4m3/libfp8_gemm.so --kind tensor --bench $SH --runs 3 2>&1 | grep -E "^\| [0-9]|geomean" | tee -a $L
done
echo "== tile-tune-time BN=128/144 (STAGES=5)" | tee -a $L
timeout 200 ./tile-tune-time tune214 --shapes 8192x8192x4096,8192x8192x8192,4096x4096x4096,4096x7168x16384 --cache $OUT/run214-tune.cache --save-timings $OUT/run214-timings.txt 2>&1 | tail -8 | tee -a $L
cat $OUT/run214-timings.txt | tee -a $L
echo "== memcheck t144" | tee -a $L
timeout 120 compute-sanitizer --tool memcheck python3 fp8-torch.py --library ab/t144/libfp8_gemm.so --function fp8_gemm --kind tensor --check 4095x4097x1023,300x8192x128 --offsets 0,1 2>&1 | grep -E "ERROR SUMMARY|passed|FAIL" | tail -3 | tee -a $L
echo "== racecheck t144" | tee -a $L
timeout 150 compute-sanitizer --tool racecheck python3 fp8-torch.py --library ab/t144/libfp8_gemm.so --function fp8_gemm --kind tensor --check 600x1000x512 --offsets 0 2>&1 | grep -E "RACECHECK SUMMARY|hazard|passed|FAIL" | tail -3 | tee -a $L
M=gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum,sm__cycles_elapsed.avg.per_second
for v in t144 t128; do
  echo "== ncu $v 8192x8192x4096" | tee -a $L
  timeout 100 ncu --clock-control none --kernel-name "regex:fp8_gemm_kernel|nvjet" --launch-skip 2 --launch-count 2 --metrics $M \
    python3 fp8-torch.py --library ab/$v/libfp8_gemm.so --function fp8_gemm --kind tensor --bench 8192x8192x4096 --runs 1 2>&1 | grep -E "__|fp8_gemm_kernel|nvjet|==ERR" | tee -a $L
done
