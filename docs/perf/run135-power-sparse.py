#!/usr/bin/env python3
"""Run 135: energy per 2:4-sparse GEMM (dense-equivalent), against our dense
GEMM and torch.mm on the pruned A, f16, each kernel alone for 5 s, twice
(scripts/gpu_power.py)."""
# Rewritten onto scripts/gpu_power.py after the run (the same phases,
# sampling and table; the inline original that produced the log is in git
# history, commit f9a1641).
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpu_power import PowerLog  # noqa: E402
from gpu_torch import Library  # noqa: E402
from sparse_torch import operands  # noqa: E402

with PowerLog(sys.argv[1]) as log:
    for M, N, K in [(8192, 8192, 8192), (4096, 4096, 4096)]:
        pruned, (values, meta, b, c) = operands(M, N, K, 0, torch.float16,
                                                torch.float16)
        dense = pruned.contiguous()
        c2, c3 = torch.empty_like(c), torch.empty_like(c)
        sparse = Library("sp/libgemm_sp.so", "gemm_sp").bind(values, meta, b,
                                                             c)
        ours_dense = Library("aot/f16/libgemm.so", "gemm").bind(dense, b, c2)
        flop = 2.0 * M * N * K
        for _ in range(2):
            log.phase(f"sparse f16 {M}x{N}x{K}", sparse, flop)
            log.phase(f"ours dense f16 {M}x{N}x{K}", ours_dense, flop)
            log.phase(f"cublas dense f16 {M}x{N}x{K}",
                      lambda: torch.mm(dense, b, out=c3), flop)
log.print_table()
