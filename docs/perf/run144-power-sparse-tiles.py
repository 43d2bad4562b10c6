#!/usr/bin/env python3
"""Run 144: sustained (at the power limit) 2:4-sparse GEMM, the example's
128 x 256 tiles (2 stages, MMAs completed every step) against 256 x 128
with 3 stages (MMAs in flight by the compiler's decision), and our dense
GEMM, f16, through scripts/gpu_power.py."""
import importlib.util
import os
import sys

import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from gpu_power import PowerLog  # noqa: E402
from gpu_torch import Library  # noqa: E402

spec = importlib.util.spec_from_file_location(
    "sparse_torch", os.path.join(here, "sparse-torch.py"))
sparse_torch = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sparse_torch)

with PowerLog(sys.argv[1]) as log:
    for M, N, K in [(8192, 8192, 8192), (4096, 4096, 4096)]:
        pruned, (values, meta, b, c) = sparse_torch.operands(
            M, N, K, 0, torch.float16, torch.float16)
        dense, c2 = pruned.contiguous(), torch.empty_like(c)
        example = Library("sp/sp_128x256_k128_s2_if0.so",
                          "gemm_sp").bind(values, meta, b, c)
        wide = Library("sp/def_256x128_k128_s3.so",
                       "gemm_sp").bind(values, meta, b, c)
        ours_dense = Library("sp/dense_f16.so", "gemm").bind(dense, b, c2)
        flop = 2.0 * M * N * K
        for _ in range(2):
            log.phase(f"sparse 128x256 S2 {M}x{N}x{K}", example, flop)
            log.phase(f"sparse 256x128 S3 {M}x{N}x{K}", wide, flop)
            log.phase(f"ours dense {M}x{N}x{K}", ours_dense, flop)
log.print_table()
