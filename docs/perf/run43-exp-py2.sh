#!/usr/bin/env bash
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
echo "=== python f16 (saxpy, half scalars, gemm f16, FlashAttention nc-f16-d128)"
timeout 300 python3 python-gpu.py --package "$PWD/python" --saxpy py/libsaxpy.so \
  --half py/libhalf.so --gemm aot/f16/libgemm.so --gemm-dtype f16 \
  --fa aot-fa/nc-f16-d128/libflash_attention.so 2>&1 | tee "$OUT/python-f16.log"
echo "=== C path f16 again, same machine state"
timeout 120 ./tile-gemm-bench --library=aot/f16/libgemm.so --dtype=f16 \
    --shapes=4096x4096x4096,8192x8192x8192 2>&1 | tail -3 | tee "$OUT/c-gemm-f16.log"
echo "=== compute-sanitizer memcheck on the package's calls (saxpy, half)"
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 240 "$SAN" --tool memcheck --error-exitcode 3 python3 python-gpu.py \
  --package "$PWD/python" --saxpy py/libsaxpy.so --half py/libhalf.so 2>&1 \
  | tail -4 | tee "$OUT/sanitizer.log"
echo "sanitizer exit ${PIPESTATUS[0]}"
