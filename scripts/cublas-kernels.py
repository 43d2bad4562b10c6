"""Which kernels cuBLAS runs for torch.mm at each shape, and how long each
takes (torch's profiler, CUDA time per call): what a tile configuration
has to beat, shape by shape.

  python3 cublas-kernels.py --shapes 2048x2048x2048,5120x5120x5120 [--dtype bf16]
"""
import argparse

import torch
from torch.profiler import ProfilerActivity, profile


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--shapes", required=True,
                        help="comma-separated MxNxK")
    parser.add_argument("--dtype", default="bf16", choices=["bf16", "f16"])
    parser.add_argument("--iters", type=int, default=20)
    args = parser.parse_args()
    dtype = torch.bfloat16 if args.dtype == "bf16" else torch.float16
    print("| shape | kernel | calls | us per call |")
    print("|---|---|---|---|")
    for shape in args.shapes.split(","):
        m, n, k = (int(x) for x in shape.split("x"))
        a = torch.randn(m, k, device="cuda", dtype=dtype)
        b = torch.randn(k, n, device="cuda", dtype=dtype)
        c = torch.empty(m, n, device="cuda", dtype=dtype)
        for _ in range(5):
            torch.mm(a, b, out=c)
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(args.iters):
                torch.mm(a, b, out=c)
            torch.cuda.synchronize()
        for event in prof.key_averages():
            if event.device_type != torch.autograd.DeviceType.CUDA:
                continue
            total = getattr(event, "device_time_total",
                            getattr(event, "cuda_time_total", 0))
            calls = event.count
            print(f"| {shape} | {event.key[:90]} | {calls} | "
                  f"{total / max(calls, 1):.1f} |")


if __name__ == "__main__":
    main()
