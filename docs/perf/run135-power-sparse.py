#!/usr/bin/env python3
"""Run 135: energy per 2:4-sparse GEMM (dense-equivalent), against our dense GEMM and torch.mm. Each kernel runs alone,
back to back for PHASE seconds, while nvidia-smi samples SM clock and power
every 100 ms; per phase: calls per second, mean clock and power over its
last half (the power reading averages over about a second)."""
import subprocess, sys, time, os, csv
import torch
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpu_torch import Library
from sparse_torch import operands

PHASE = 5.0
out = sys.argv[1]
smi = subprocess.Popen(["nvidia-smi", "--query-gpu=timestamp,clocks.sm,power.draw,power.draw.instant,temperature.gpu",
                        "--format=csv,noheader,nounits", "-lms", "100"], stdout=open(out, "w"), stderr=subprocess.DEVNULL)
time.sleep(1.0)
phases = []
def run(name, fn, flop):
    for _ in range(5): fn()
    torch.cuda.synchronize()
    t0 = time.time(); n = 0
    while time.time() - t0 < PHASE:
        for _ in range(20): fn()
        n += 20
        torch.cuda.synchronize()
    t1 = time.time()
    phases.append((name, t0, t1, n, flop))
    time.sleep(1.5)
def measure():
  for M, N, K in [(8192, 8192, 8192), (4096, 4096, 4096)]:
    pruned, (values, meta, b, c) = operands(M, N, K, 0, torch.float16, torch.float16)
    dense = pruned.contiguous(); c2 = torch.empty_like(c); c3 = torch.empty_like(c)
    sparse = Library("sp/libgemm_sp.so", "gemm_sp").bind(values, meta, b, c)
    ours_dense = Library("aot/f16/libgemm.so", "gemm").bind(dense, b, c2)
    cublas = lambda: torch.mm(dense, b, out=c3)
    for r in range(2):
        run(f"sparse f16 {M}x{N}x{K}", sparse, 2.0 * M * N * K)
        run(f"ours dense f16 {M}x{N}x{K}", ours_dense, 2.0 * M * N * K)
        run(f"cublas dense f16 {M}x{N}x{K}", cublas, 2.0 * M * N * K)
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
