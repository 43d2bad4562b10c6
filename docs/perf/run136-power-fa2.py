#!/usr/bin/env python3
"""Run 136: energy per FlashAttention forward at D64, D256 and GQA, ours against cuDNN (SDPA).
As power.py: each kernel alone for PHASE seconds, nvidia-smi every 100 ms."""
import subprocess, sys, time, os, csv
import torch
from torch.nn.attention import SDPBackend, sdpa_kernel
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpu_torch import Library

PHASE = 5.0
out = sys.argv[1]
smi = subprocess.Popen(["nvidia-smi", "--query-gpu=timestamp,clocks.sm,power.draw,power.draw.instant,temperature.gpu",
                        "--format=csv,noheader,nounits", "-lms", "100"], stdout=open(out, "w"), stderr=subprocess.DEVNULL)
time.sleep(1.0)
phases = []
def run(name, fn, flop):
    for _ in range(3): fn()
    torch.cuda.synchronize()
    t0 = time.time(); n = 0
    while time.time() - t0 < PHASE:
        for _ in range(5): fn()
        n += 5
        torch.cuda.synchronize()
    t1 = time.time()
    phases.append((name, t0, t1, n, flop))
    time.sleep(1.5)
def measure():
  cases = [("aot-fa/nc-f16-d64/libflash_attention.so", "flash_attention_fwd", (4, 16, 16, 4096, 64), "D64"),
           ("fa256/lib.so", "flash_attention_fwd", (4, 16, 16, 4096, 256), "D256"),
           ("fagqa/lib.so", "flash_attention_gqa_fwd", (1, 32, 8, 4096, 128), "GQA 32/8")]
  for path, fn, (B, HQ, HKV, S, D), label in cases:
    q = torch.randn(B, HQ, S, D, device="cuda", dtype=torch.float16)
    k, v = (torch.randn(B, HKV, S, D, device="cuda", dtype=torch.float16) for _ in range(2))
    o = torch.empty_like(q)
    lib = Library(path, fn)
    ours = lib.bind(q.view(B * HQ, S, D), k.view(B * HKV, S, D), v.view(B * HKV, S, D), o.view(B * HQ, S, D))
    kw = {"enable_gqa": True} if HKV != HQ else {}
    def theirs():
        with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
            torch.nn.functional.scaled_dot_product_attention(q, k, v, **kw)
    flop = 4.0 * B * HQ * S * S * D
    for r in range(2):
        run(f"ours {label}", ours, flop)
        run(f"cudnn {label}", theirs, flop)
try:
    measure()
finally:
    time.sleep(0.5)
    smi.terminate(); smi.wait()
rows = []
for r in csv.reader(open(out)):
    try:
        ts = time.mktime(time.strptime(r[0].strip().split(".")[0], "%Y/%m/%d %H:%M:%S")) + float("0." + r[0].strip().split(".")[1])
        rows.append((ts, float(r[1]), float(r[2]), float(r[3]) if r[3].strip() not in ("[N/A]", "N/A") else float("nan"), float(r[4])))
    except Exception:
        pass
print("| phase | TFLOP/s | SM MHz | W (avg) | W (instant) | TFLOP/J |")
print("|---|---|---|---|---|---|")
for name, t0, t1, n, flop in phases:
    sel = [x for x in rows if t0 + (t1 - t0) / 2 <= x[0] <= t1]
    if not sel:
        print(name, "no samples"); continue
    mhz = sum(x[1] for x in sel) / len(sel); w = sum(x[2] for x in sel) / len(sel)
    wi = sum(x[3] for x in sel) / len(sel)
    tf = n * flop / (t1 - t0) / 1e12
    print(f"| {name} | {tf:.1f} | {mhz:.0f} | {w:.0f} | {wi:.0f} | {tf / w:.3f} |")
