#!/usr/bin/env python3
"""Run 134: energy per FP8 per-tensor GEMM, ours against cuBLASLt
(_scaled_mm), e4m3, bf16 out, each kernel alone for 5 s, twice
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

with PowerLog(sys.argv[1]) as log:
    for M, N, K in [(8192, 8192, 8192), (4096, 4096, 4096)]:
        A = (torch.randn(M, K, device="cuda") * 0.5).to(torch.float8_e4m3fn)
        B = (torch.randn(N, K, device="cuda") * 0.5).to(torch.float8_e4m3fn)
        sa = torch.ones(1, device="cuda")
        sb = torch.ones(1, device="cuda")
        C = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
        ours = Library("aot-fp8/e4m3/libfp8_gemm.so",
                       "fp8_gemm_tensor").bind(A, B, sa, sb, C)
        s0, s1 = sa.reshape(()), sb.reshape(())

        def theirs():
            torch._scaled_mm(A, B.t(), scale_a=s0, scale_b=s1,
                             out_dtype=torch.bfloat16)
        for _ in range(2):
            log.phase(f"ours fp8 {M}x{N}x{K}", ours, 2.0 * M * N * K)
            log.phase(f"cublaslt fp8 {M}x{N}x{K}", theirs, 2.0 * M * N * K)
log.print_table()
