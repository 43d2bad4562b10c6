#!/bin/bash
# Run 208: which block-wise checks failed in run 207 (tensor-store
# epilogue), against the register path (ab/reg) and 128-byte panels
# (ab/p128) on the same shapes and offsets; sanitizers on the block-wise
# kernel only (kns filter).
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/run208.log
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $L
SH=1x1x32,3x5x7,128x128x128,1000x1000x1000,4095x4097x1023,8192x16x4096,2176x2048x256,4224x4224x64
for v in aot-fp8/e4m3 ab/reg ab/p128; do
  timeout 150 python3 fp8-torch.py --library $v/libfp8_gemm.so --kind blockwise --check $SH --offsets 0,16,1 2>&1 | grep -E "FAIL|checks passed|Error|error" | sed "s|^|$v: |" | tee -a $L
done
for tool in memcheck racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool --kernel-name kns=fp8_gemm python3 fp8-torch.py --library aot-fp8/e4m3/libfp8_gemm.so --kind blockwise --check 129x65x300,2176x2048x256 --offsets 0 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|checks passed|hazard|rror" | head -6 | sed "s/^/$tool blockwise: /" | tee -a $L
done
