#!/bin/bash
# Run 215: is the 128 x 144 kernel's loss its epilogue? The 128 x 128
# tunable kernel storing through eight 32-byte panels (ab/t128p32, as the
# 144-wide one must: nine) against its default two 128-byte panels (ab/t128)
# and the 144-wide kernel (ab/t144), per-tensor, against _scaled_mm.
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/run215.log
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $L
timeout 100 python3 fp8-torch.py --library ab/t128p32/libfp8_gemm.so --function fp8_gemm --kind tensor --check 3x5x7,1000x1000x1000,4095x4097x1023,2304x2304x256 --offsets 0,1 2>&1 | grep -E "FAIL|passed" | tail -2 | sed "s/^/t128p32 check: /" | tee -a $L
SH=8192x8192x4096,8192x8192x8192,4096x4096x4096
for round in 1 2; do
  for v in t128 t128p32 t144; do
    echo "== bench $v round $round" | tee -a $L
    timeout 80 python3 fp8-torch.py --library ab/$v/libfp8_gemm.so --function fp8_gemm --kind tensor --bench $SH --runs 3 2>&1 | grep -E "^\| [0-9]|geomean" | tee -a $L
  done
done
M=gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__cycles_elapsed.avg.per_second,smsp__inst_executed.sum
for v in t128p32 t128 t144; do
  echo "== ncu $v 8192x8192x4096" | tee -a $L
  timeout 100 ncu --clock-control none --kernel-name "regex:fp8_gemm_kernel" --launch-skip 2 --launch-count 1 --metrics $M \
    python3 fp8-torch.py --library ab/$v/libfp8_gemm.so --function fp8_gemm --kind tensor --bench 8192x8192x4096 --runs 1 2>&1 | grep -E "__|fp8_gemm_kernel|==ERR" | tee -a $L
done
