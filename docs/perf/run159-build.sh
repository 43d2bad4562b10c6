#!/bin/bash
# Builds build-gpu/sp for runs 159 and 160: the sparse variants of
# run138-spvar.sh (tile.sparse_in_flight left to the compiler), the
# compressors and our dense GEMMs. Run 160's spold/ holds the same three
# variants compiled by the parent commit's tile-compile.
set -e
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd $ROOT
O=build-gpu/sp; mkdir -p $O /tmp/sp/src
TC=build/bin/tile-compile
mk() { # BM BN BK S DT
  n=sp_$1x$2_k$3_s$4; [ $5 = bf16 ] && n=${n}_bf16
  bash docs/perf/run138-spvar.sh $1 $2 $3 $4 0 $5 /tmp/sp/src/$n.mlir
  $TC /tmp/sp/src/$n.mlir -o $O/$n.so --chip sm_90a --rpath '$ORIGIN/..' > /tmp/sp/src/$n.log 2>&1 || echo "FAIL $n"
  echo "built $n"
}
mk 128 256 128 2 f16 &
mk 128 256 64 4 f16 ; wait
mk 128 256 64 5 f16 &
mk 256 128 128 3 f16 ; wait
mk 128 128 128 4 f16 &
mk 256 128 64 5 f16 ; wait
mk 128 256 128 2 bf16 &
mk 128 256 64 4 bf16 ; wait
mk 256 128 128 3 bf16 &
mk 128 256 64 5 bf16 ; wait
$TC examples/sparse_compress.mlir -o $O/compress_f16.so --chip sm_90a --rpath '$ORIGIN/..' &
sed 's/f16/bf16/g' examples/sparse_compress.mlir > /tmp/sp/src/compress_bf16.mlir
$TC /tmp/sp/src/compress_bf16.mlir -o $O/compress_bf16.so --chip sm_90a --rpath '$ORIGIN/..'; wait
$TC examples/gemm.mlir -o $O/dense_f16.so --chip sm_90a --rpath '$ORIGIN/..' &
sed 's/xf16/xbf16/g' examples/gemm.mlir > /tmp/sp/src/dense_bf16.mlir
$TC /tmp/sp/src/dense_bf16.mlir -o $O/dense_bf16.so --chip sm_90a --rpath '$ORIGIN/..'; wait
ls -la $O
