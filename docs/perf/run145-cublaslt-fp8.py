#!/usr/bin/env python3
"""Run 145: cuBLASLt's FP8 per-tensor GEMM (torch._scaled_mm, e4m3, bf16
out, use_fast_accum off), called a few times for ncu to profile one."""
import torch
M = N = K = 4096
A = (torch.randn(M, K, device="cuda") * 0.5).to(torch.float8_e4m3fn)
B = (torch.randn(N, K, device="cuda") * 0.5).to(torch.float8_e4m3fn)
s = torch.ones((), device="cuda")
for _ in range(5):
    torch._scaled_mm(A, B.t(), scale_a=s, scale_b=s, out_dtype=torch.bfloat16)
torch.cuda.synchronize()
