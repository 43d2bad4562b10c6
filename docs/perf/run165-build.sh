#!/bin/bash
# Builds build-gpu/fa64 (run 165: D64 FlashAttention tiles), build-gpu/fa
# (run 166: exponentials on the FMA pipe; needs run166-exp2-emulation.patch
# applied) and build-gpu/bw4, bw5 (block-wise FP8 at 4 and 5 stages).
set -e
ROOT=$(cd "$(dirname "$0")/../.." && pwd); cd $ROOT
TC=build/bin/tile-compile; S=/tmp/fa; mkdir -p $S
python3 scripts/fa-variant.py --head-dim 64 --block-n 128 $S/base128.mlir
python3 scripts/fa-variant.py --head-dim 64 --block-n 64 $S/base64.mlir
python3 scripts/fa-variant.py --block-n 128 $S/d128.mlir
# 256 query rows: Q, the accumulators and the row statistics.
sed -e 's/!sQ = memref<128x64/!sQ = memref<256x64/' \
    -e 's/!fAcc = memref<128x64/!fAcc = memref<256x64/' \
    -e 's/!fS = memref<128x64/!fS = memref<256x64/' \
    -e 's/!fP = memref<128x64/!fP = memref<256x64/' \
    -e 's/!fRow = memref<128xf32/!fRow = memref<256xf32/' \
    -e 's/%c128 = arith.constant 128 : index/%c128 = arith.constant 256 : index/' \
    -e 's/tile.parallel (%i, %j) in \[128,/tile.parallel (%i, %j) in [256,/' \
    -e 's/tile.parallel (%i) in \[128\]/tile.parallel (%i) in [256]/' \
    $S/base64.mlir > $S/m256n64.mlir
sed 's/tile.num_stages = 2/tile.num_stages = 3/' $S/m256n64.mlir > $S/m256n64s3.mlir
for v in base128 base64 m256n64 m256n64s3; do
  mkdir -p build-gpu/fa64/$v
  $TC $S/$v.mlir -o build-gpu/fa64/$v/lib.so --header build-gpu/fa64/$v/flash_attention.h --chip sm_90a --rpath '$ORIGIN/../..'
done
for src in base128:d64 d128:d128; do
  s=${src%%:*}; t=${src##*:}
  for n in 0 4 8; do
    mkdir -p build-gpu/fa/$t-e$n
    $TC $S/$s.mlir -o build-gpu/fa/$t-e$n/lib.so --header build-gpu/fa/$t-e$n/flash_attention.h --chip sm_90a --rpath '$ORIGIN/../..' --pipeline-options "exp2-emulate-every=$n"
  done
done
mkdir -p build-gpu/bw4 build-gpu/bw5
git show 6793d1c:examples/fp8_gemm.mlir > $S/fp8_bw4.mlir
sed 's/} {tile.num_stages = 4 : i64}/} {tile.num_stages = 5 : i64}/' $S/fp8_bw4.mlir > $S/fp8_bw5.mlir
$TC $S/fp8_bw4.mlir -o build-gpu/bw4/libfp8_gemm.so --header build-gpu/bw4/fp8_gemm.h --chip sm_90a --rpath '$ORIGIN/..'
$TC $S/fp8_bw5.mlir -o build-gpu/bw5/libfp8_gemm.so --header build-gpu/bw5/fp8_gemm.h --chip sm_90a --rpath '$ORIGIN/..'
