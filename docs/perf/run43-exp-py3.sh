#!/usr/bin/env bash
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
echo "=== python f16 (saxpy, half scalars, gemm f16, FlashAttention nc-f16-d128)"
timeout 300 python3 python-gpu.py --package "$PWD/python" --saxpy py/libsaxpy.so \
  --half py/libhalf.so --gemm aot/f16/libgemm.so --gemm-dtype f16 \
  --fa aot-fa/nc-f16-d128/libflash_attention.so 2>&1 | tee "$OUT/python-f16.log"
echo "=== python bf16 gemm"
timeout 200 python3 python-gpu.py --package "$PWD/python" --gemm aot/bf16/libgemm.so \
  --gemm-dtype bf16 2>&1 | grep -v PASS | tee "$OUT/python-bf16.log"
echo "=== C path"
for d in f16 bf16; do
timeout 120 ./tile-gemm-bench --library=aot/$d/libgemm.so --dtype=$d \
    --shapes=4096x4096x4096,8192x8192x8192 2>&1 | tail -2 | tee "$OUT/c-gemm-$d.log"
done
timeout 120 python3 fa-sdpa.py --library aot-fa/nc-f16-d128/libflash_attention.so \
  --bench --shapes=4:16:4096 2>&1 | tail -2 | tee "$OUT/fa-sdpa.log"
