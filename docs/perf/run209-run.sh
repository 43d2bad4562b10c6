#!/bin/bash
# Run 209: racecheck's hardware exception of run 208 (block-wise, tensor-
# store epilogue) narrowed by shape and by path: the register path
# (ab/old's block-wise kernel) and the per-tensor kernel at the same
# shapes; then fp8-run.sh on the new default (block-wise through tensor
# stores, two 128-byte staging buffers where they hold a tile row).
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/run209.log
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $L
for vk in aot-fp8/e4m3:blockwise ab/old:blockwise aot-fp8/e4m3:tensor; do
  v=${vk%%:*}; kind=${vk##*:}
  for s in 129x65x300 2176x2048x256; do
    echo "== racecheck $v $kind $s" | tee -a $L
    timeout 100 compute-sanitizer --tool racecheck --kernel-name kns=fp8_gemm python3 fp8-torch.py --library $v/libfp8_gemm.so --kind $kind --check $s --offsets 0 2>&1 | grep -E "RACECHECK SUMMARY|ERROR SUMMARY|checks passed|Internal|hazard|illegal" | head -4 | tee -a $L
  done
done
echo "== racecheck without the kernel filter, default blockwise 129x65x300" | tee -a $L
timeout 100 compute-sanitizer --tool racecheck python3 fp8-torch.py --library aot-fp8/e4m3/libfp8_gemm.so --kind blockwise --check 129x65x300 --offsets 0 2>&1 | grep -E "RACECHECK SUMMARY|ERROR SUMMARY|checks passed|Internal|illegal" | head -4 | tee -a $L
timeout 420 bash fp8-run.sh > $OUT/fp8-run.out 2>&1
cp $OUT/fp8-run.out $OUT/run209-fp8-run.log 2>/dev/null
sed -n '/=== summary/,$p' $OUT/fp8-run.out | tee -a $L
