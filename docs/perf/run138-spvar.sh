#!/bin/bash
# run138-spvar.sh BM BN BK STAGES INFLIGHT DTYPE OUT: examples/gemm_sparse.mlir at other
# tiles, K step and stages; INFLIGHT=1 adds tile.sparse_in_flight = true (run 138).
BM=$1 BN=$2 BK=$3 S=$4 IF=$5 DT=$6 OUT=$7
BKA=$((BK/2)); BKE=$((BK/16))
THREADS=256
sed -e "s/memref<128x64xf16, #gpu/memref<${BM}x${BKA}xf16, #gpu/" \
    -e "s/memref<128x8xi16, #gpu/memref<${BM}x${BKE}xi16, #gpu/" \
    -e "s/memref<128x256xf16, #gpu/memref<${BK}x${BN}xf16, #gpu/" \
    -e "s/memref<128x256xf32, #tile.mem/memref<${BM}x${BN}xf32, #tile.mem/" \
    -e "s/%BM = arith.constant 128/%BM = arith.constant ${BM}/" \
    -e "s/%BN = arith.constant 256/%BN = arith.constant ${BN}/" \
    -e "s/%BK = arith.constant 128/%BK = arith.constant ${BK}/" \
    -e "s/%BKA = arith.constant 64/%BKA = arith.constant ${BKA}/" \
    -e "s/%BKE = arith.constant 8/%BKE = arith.constant ${BKE}/" \
    -e "s/tile.num_stages = 2/tile.num_stages = ${S}/" \
    examples/gemm_sparse.mlir > $OUT
if [ "$IF" = 1 ]; then sed -i 's/threads(256) {/threads(256) attributes {tile.sparse_in_flight = true} {/' $OUT; fi
if [ "$DT" = bf16 ]; then sed -i 's/xf16/xbf16/g' $OUT; fi
