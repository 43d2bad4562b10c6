#!/bin/bash
# Run 207: the block-wise kernel's epilogue through tensor stores (its
# fragment-to-fragment copy of the scales converts no layout, so it no
# longer keeps the register path): checks and sanitizers on the new
# default, then A/B against the register path (ab/reg), 128-byte store
# panels (ab/p128), no turns for the block-wise consumers (ab/nopp) and
# both (ab/nopp128).
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH=$PWD PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp}
L=$OUT/run207.log
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,clocks.max.sm --format=csv,noheader | tee $L
D=aot-fp8/e4m3/libfp8_gemm.so
timeout 120 python3 fp8-torch.py --library $D --kind blockwise --check 1x1x32,3x5x7,128x128x128,1000x1000x1000,4095x4097x1023,8192x16x4096,2176x2048x256,4224x4224x64 --offsets 0,16,1 2>&1 | tail -1 | sed "s/^/default blockwise: /" | tee -a $L
for v in p128 nopp nopp128; do
  timeout 60 python3 fp8-torch.py --library ab/$v/libfp8_gemm.so --kind blockwise --check 3x5x7,1000x1000x1000,4095x4097x1023,4224x4224x64 --offsets 0,1 2>&1 | tail -1 | sed "s/^/$v blockwise: /" | tee -a $L
  timeout 60 python3 fp8-torch.py --library ab/$v/libfp8_gemm.so --kind tensor --check 3x5x7,1000x1000x1000,4095x4097x1023,4224x4224x64 --offsets 0,1 2>&1 | tail -1 | sed "s/^/$v tensor: /" | tee -a $L
done
for tool in memcheck racecheck synccheck; do
  timeout 120 compute-sanitizer --tool $tool --kernel-name regex:fp8_gemm python3 fp8-torch.py --library $D --kind blockwise --check 129x65x300,4224x4224x64 --offsets 0 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|checks passed|hazard" | head -4 | sed "s/^/$tool blockwise: /" | tee -a $L
done
SH=4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384
for round in 1 2; do
  for vk in aot-fp8/e4m3:blockwise ab/reg:blockwise ab/nopp:blockwise ab/nopp128:blockwise ab/p128:blockwise aot-fp8/e4m3:tensor ab/p128:tensor aot-fp8/e4m3:rowwise ab/p128:rowwise; do
    v=${vk%%:*}; kind=${vk##*:}
    echo "== bench $v $kind round $round" | tee -a $L
    timeout 60 python3 fp8-torch.py --library $v/libfp8_gemm.so --kind $kind --bench $SH --runs 3 2>&1 | grep -E "^\| [0-9]|geomean" | tee -a $L
  done
done
