#!/bin/bash
# Run 179's libraries, built on the development machine from ef76bc2's
# compiler plus an experiment (not kept): in Wgmma.cpp's promotion by spans,
# with TILE_SPAN_OVERLAP set, a gemm of two spans issued both spans into two
# sets of partial sums, then waited for one group (wgmma.wait_group 1),
# added the first, waited for all and added the second.
# fp8_bk.mlir is examples/fp8_gemm_tunable.mlir with the K block as ${BK}.
TC=build/bin/tile-compile
$TC examples/fp8_gemm_tunable.mlir -o v0.so --chip sm_90a --rpath '$ORIGIN/..' -D BN=128 -D STAGES=5 -D PINGPONG=true
TILE_SPAN_OVERLAP=1 $TC fp8_bk.mlir -o v1.so --chip sm_90a --rpath '$ORIGIN/..' -D BN=128 -D BK=256 -D STAGES=3 -D PINGPONG=false
TILE_SPAN_OVERLAP=1 $TC fp8_bk.mlir -o v2.so --chip sm_90a --rpath '$ORIGIN/..' -D BN=128 -D BK=256 -D STAGES=3 -D PINGPONG=true
$TC fp8_bk.mlir -o v3.so --chip sm_90a --rpath '$ORIGIN/..' -D BN=128 -D BK=256 -D STAGES=3 -D PINGPONG=false
