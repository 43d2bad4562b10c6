#!/bin/bash
# Builds build-gpu/p/new for run 170 (the working tree with the stmatrix
# epilogue); build-gpu/p/r40/{gemm,fp8} are run168-build.sh's "40" ones
# (the compiler before it, as committed).
set -e
ROOT=$(cd "$(dirname "$0")/../.." && pwd); cd $ROOT
TC=build/bin/tile-compile; N=build-gpu/p/new; R='$ORIGIN/../../..'
mkdir -p /tmp/g $N/gemm $N/gemm16 $N/fp8 $N/sp
sed 's/xf16/xbf16/g' examples/gemm.mlir > /tmp/g/gemm_bf16.mlir
$TC /tmp/g/gemm_bf16.mlir -o $N/gemm/libgemm.so --header $N/gemm/gemm.h --chip sm_90a --rpath "$R"
$TC examples/gemm.mlir -o $N/gemm16/libgemm.so --header $N/gemm16/gemm.h --chip sm_90a --rpath "$R"
$TC examples/fp8_gemm.mlir -o $N/fp8/libfp8_gemm.so --header $N/fp8/fp8_gemm.h --chip sm_90a --rpath "$R"
$TC examples/gemm_sparse.mlir -o $N/sp/sp_f16.so --chip sm_90a --rpath "$R"
$TC examples/sparse_compress.mlir -o $N/sp/compress_f16.so --chip sm_90a --rpath "$R"
cp $N/gemm16/libgemm.so $N/sp/dense_f16.so
cp scripts/sparse-torch.py build/bin/tile-gemm-bench build-gpu/
