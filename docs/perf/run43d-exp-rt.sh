#!/usr/bin/env bash
# The runtime of b1d2d1a (HIP behind the mgpu ABI) on the CUDA path.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD
OUT=${OUT:-/tmp/out}
timeout 300 python3 python-gpu.py --package "$PWD/python" --saxpy py/libsaxpy.so \
  --half py/libhalf.so --gemm aot/f16/libgemm.so --gemm-dtype f16 \
  --fa aot-fa/nc-f16-d128/libflash_attention.so 2>&1 | tee "$OUT/python-f16.log" | grep -v "^PASS"
timeout 200 python3 multichip.py 2>&1 | tee "$OUT/multichip.log" | tail -3
timeout 120 ./tile-gemm-bench --check --library=aot/bf16/libgemm.so --dtype=bf16 \
  --shapes=1x1x1,3x5x7,1000x1000x1000,4095x4097x1023 2>&1 | tail -6 | tee "$OUT/check.log"
