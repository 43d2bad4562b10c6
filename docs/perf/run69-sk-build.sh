#!/bin/bash
# Builds the split-K libraries for run 69 into build-gpu/sk.
set -e
cd /work/main
D=build-gpu/sk; mkdir -p $D
TC="build/bin/tile-compile --chip sm_90a --rpath \$ORIGIN/.."
python3 scripts/gemm-variant.py --dtype bf16 /tmp/gemm_bf16.mlir
$TC examples/gemm.mlir -o $D/gemm_f16.so
$TC /tmp/gemm_bf16.mlir -o $D/gemm_bf16.so
$TC /tmp/gemm_bf16.mlir --pipeline-options "split-k=false" -o $D/gemm_bf16_nosplit.so
$TC test/Examples/Inputs/gemm_bias_relu.mlir -o $D/bias_relu.so
$TC test/Examples/Inputs/gemm_f32_out.mlir -o $D/f32.so
ls -la $D
