#!/usr/bin/env bash
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
timeout 300 python3 python-gpu.py --package "$PWD/python" --saxpy py/libsaxpy.so \
  --half py/libhalf.so --gemm aot/bf16/libgemm.so --gemm-dtype bf16 \
  2>&1 | tee "$OUT/python-bf16.log" | grep -v "^PASS"
