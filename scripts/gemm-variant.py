#!/usr/bin/env python3
"""Writes a variant of examples/gemm.mlir with other tile sizes.

usage: gemm-variant.py BM BN BK THREADS NUM_STAGES OUT.mlir

Used to sweep tile configurations on the GPU (see docs/perf.md): the block
computes a BM x BN tile of C, stepping K by BK with THREADS threads and a
NUM_STAGES-deep software pipeline (1 = not pipelined).
"""
import sys, re
bm, bn, bk, threads, stages, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
import os
s = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'examples', 'gemm.mlir')).read()
s = s.replace('!sA = memref<128x32xf16', f'!sA = memref<{bm}x{bk}xf16').replace('!sB = memref<32x128xf16', f'!sB = memref<{bk}x{bn}xf16').replace('!fC = memref<128x128xf32', f'!fC = memref<{bm}x{bn}xf32')
s = s.replace('%c32 = arith.constant 32 : index', f'%c32 = arith.constant {bk} : index\n  %cBM = arith.constant {bm} : index\n  %cBN = arith.constant {bn} : index')
s = s.replace('%gx = arith.ceildivui %N, %c128', '%gx = arith.ceildivui %N, %cBN').replace('%gy = arith.ceildivui %M, %c128', '%gy = arith.ceildivui %M, %cBM')
s = s.replace('threads(128)', f'threads({threads})')
s = s.replace('%m0 = arith.muli %by, %c128', '%m0 = arith.muli %by, %cBM').replace('%n0 = arith.muli %bx, %c128', '%n0 = arith.muli %bx, %cBN')
import re
s = re.sub(r'\{tile\.num_stages = \d+ : i64\}', f'{{tile.num_stages = {stages} : i64}}', s)
open(out, 'w').write(s)
