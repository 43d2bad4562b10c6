#!/usr/bin/env python3
"""Run 133: energy per FlashAttention forward, ours against cuDNN (SDPA),
B4 H16 S4096 D128 f16, non-causal and causal, each kernel alone for 5 s,
twice (scripts/gpu_power.py). Run 136 reuses `attention`."""
# Rewritten onto scripts/gpu_power.py after the run (the same phases,
# sampling and table; the inline original that produced the log is in git
# history, commit f9a1641).
import os
import sys

import torch
from torch.nn.attention import SDPBackend, sdpa_kernel

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpu_power import PowerLog  # noqa: E402
from gpu_torch import Library  # noqa: E402


def attention(log, path, function, shape, label, causal=False):
    """Two rounds of our library's forward and cuDNN's on random f16
    inputs of `shape` (B, H_q, H_kv, S, D): H_kv < H_q is grouped-query."""
    B, HQ, HKV, S, D = shape
    q = torch.randn(B, HQ, S, D, device="cuda", dtype=torch.float16)
    k, v = (torch.randn(B, HKV, S, D, device="cuda", dtype=torch.float16)
            for _ in range(2))
    o = torch.empty_like(q)
    ours = Library(path, function).bind(
        q.view(B * HQ, S, D), k.view(B * HKV, S, D), v.view(B * HKV, S, D),
        o.view(B * HQ, S, D))
    options = {"enable_gqa": True} if HKV != HQ else {}

    def theirs():
        with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
            torch.nn.functional.scaled_dot_product_attention(
                q, k, v, is_causal=causal, **options)
    flop = 4.0 * B * HQ * S * S * D / (2 if causal else 1)
    for _ in range(2):
        log.phase(f"ours {label}", ours, flop, warmup=3, batch=5)
        log.phase(f"cudnn {label}", theirs, flop, warmup=3, batch=5)


if __name__ == "__main__":
    with PowerLog(sys.argv[1]) as log:
        attention(log, "aot-fa/nc-f16-d128/libflash_attention.so",
                  "flash_attention_fwd", (4, 16, 16, 4096, 128),
                  "nc-f16-d128")
        attention(log, "aot-fa/causal-f16-d128/libflash_attention.so",
                  "flash_attention_causal_fwd", (4, 16, 16, 4096, 128),
                  "causal-f16-d128", causal=True)
    log.print_table()
