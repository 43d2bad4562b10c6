#!/usr/bin/env python3
"""Run 136: energy per FlashAttention forward at D64, D256 and GQA (32 query
heads over 8), ours against cuDNN (SDPA), as run 133."""
# Rewritten onto scripts/gpu_power.py after the run (the same phases,
# sampling and table; the inline original that produced the log is in git
# history, commit f9a1641).
import importlib.util
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from gpu_power import PowerLog  # noqa: E402

spec = importlib.util.spec_from_file_location(
    "run133", os.path.join(here, "run133-power-fa.py"))
run133 = importlib.util.module_from_spec(spec)
spec.loader.exec_module(run133)

with PowerLog(sys.argv[1]) as log:
    run133.attention(log, "aot-fa/nc-f16-d64/libflash_attention.so",
                     "flash_attention_fwd", (4, 16, 16, 4096, 64), "D64")
    run133.attention(log, "fa256/lib.so", "flash_attention_fwd",
                     (4, 16, 16, 4096, 256), "D256")
    run133.attention(log, "fagqa/lib.so", "flash_attention_gqa_fwd",
                     (1, 32, 8, 4096, 128), "GQA 32/8")
log.print_table()
