#!/usr/bin/env python3
"""Run 132: energy per GEMM, ours (the bf16 example) against cuBLAS, each
kernel alone for 5 s, twice, at 8192^3 and 4096^3 (scripts/gpu_power.py)."""
# Rewritten onto scripts/gpu_power.py after the run (the same phases,
# sampling and table; the inline original that produced the log is in git
# history, commit f9a1641).
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpu_power import PowerLog  # noqa: E402
from gpu_torch import Library  # noqa: E402

with PowerLog(sys.argv[1]) as log:
    for M, N, K in [(8192, 8192, 8192), (4096, 4096, 4096)]:
        A = torch.randn(M, K, device="cuda").to(torch.bfloat16)
        B = torch.randn(K, N, device="cuda").to(torch.bfloat16)
        C = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
        C2 = torch.empty_like(C)
        ours = Library("aot/bf16/libgemm.so", "gemm").bind(A, B, C)
        for _ in range(2):
            log.phase(f"ours {M}x{N}x{K}", ours, 2.0 * M * N * K)
            log.phase(f"cublas {M}x{N}x{K}",
                      lambda: torch.mm(A, B, out=C2), 2.0 * M * N * K)
log.print_table()
