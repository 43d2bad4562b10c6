#!/bin/bash
# Builds build-gpu/fa (run 168) and build-gpu/p (run 169). "24" libraries:
# lib/Transforms/WarpSpecializeOccupancy.h with kProducerRegisters = 24
# (the producer warpgroup's setmaxnreg.dec; consumers then get 240); "40":
# the committed value (consumers 232).
set -e
ROOT=$(cd "$(dirname "$0")/../.." && pwd); cd $ROOT
TC=build/bin/tile-compile; S=/tmp/fa; mkdir -p $S /tmp/g
H=lib/Transforms/WarpSpecializeOccupancy.h
python3 scripts/fa-variant.py --head-dim 64 --block-n 128 $S/base128.mlir
python3 scripts/fa-variant.py --head-dim 64 --block-n 64 $S/base64.mlir
python3 scripts/fa-variant.py --block-n 128 $S/d128.mlir
python3 scripts/fa-variant.py --block-n 128 --input examples/flash_attention_gqa.mlir $S/gqa128.mlir
sed 's/xf16/xbf16/g' examples/gemm.mlir > /tmp/g/gemm_bf16.mlir
# Four consumer warpgroups: 256 query rows, 64-key blocks, 512 threads.
sed -e 's/!sQ = memref<128x64/!sQ = memref<256x64/' \
    -e 's/!fAcc = memref<128x64/!fAcc = memref<256x64/' \
    -e 's/!fS = memref<128x64/!fS = memref<256x64/' \
    -e 's/!fP = memref<128x64/!fP = memref<256x64/' \
    -e 's/!fRow = memref<128xf32/!fRow = memref<256xf32/' \
    -e 's/%c128 = arith.constant 128 : index/%c128 = arith.constant 256 : index/' \
    -e 's/tile.parallel (%i, %j) in \[128,/tile.parallel (%i, %j) in [256,/' \
    -e 's/tile.parallel (%i) in \[128\]/tile.parallel (%i) in [256]/' \
    -e 's/threads(256)/threads(512)/' $S/base64.mlir > $S/m256n64t512.mlir
fa() { mkdir -p $2; $TC $1 -o $2/lib.so --header $2/flash_attention.h --chip sm_90a --rpath "$3"; }
mk() { # tag
  for s in base128:d64 d128:d128 gqa128:gqa; do
    fa $S/${s%%:*}.mlir build-gpu/p/$1/${s##*:} '$ORIGIN/../../..'
  done
  mkdir -p build-gpu/p/$1/gemm build-gpu/p/$1/fp8
  $TC /tmp/g/gemm_bf16.mlir -o build-gpu/p/$1/gemm/libgemm.so --header build-gpu/p/$1/gemm/gemm.h --chip sm_90a --rpath '$ORIGIN/../../..'
  $TC examples/fp8_gemm.mlir -o build-gpu/p/$1/fp8/libfp8_gemm.so --header build-gpu/p/$1/fp8/fp8_gemm.h --chip sm_90a --rpath '$ORIGIN/../../..'
}
fa $S/base128.mlir build-gpu/fa/base '$ORIGIN/../..'
mk r40
sed -i 's/kProducerRegisters = kAddressRegisters;/kProducerRegisters = 24;/' $H
ninja -C build bin/tile-compile
fa $S/m256n64t512.mlir build-gpu/fa/w4 '$ORIGIN/../..'
fa $S/base128.mlir build-gpu/fa/p24 '$ORIGIN/../..'
mk r24
git checkout $H; ninja -C build bin/tile-compile
cp build/bin/tile-gemm-bench build-gpu/
