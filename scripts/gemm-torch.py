#!/usr/bin/env python3
"""GEMM-shaped functions of a compiled tile-mlir library against torch
(cuBLAS) in one process on the GPU machine: correctness on fresh random
inputs (odd shapes, views at offsets, a NaN-poisoned result, an fp64
reference) and speed (CUDA events, median of timed runs).

  LD_LIBRARY_PATH=build-gpu python3 scripts/gemm-torch.py --library=LIB \
      --kind=gemm|bias_relu|bmm_nt [--function=NAME] [--dtype=bf16|f16] \
      [--out-dtype=bf16|f16|f32] [--check=SHAPES] [--offsets=0,1,8] \
      [--bench=SHAPES] [--same-bits]

Kinds (the host function's arguments, each a memref descriptor pointer):
  gemm       F(A[M,K], B[K,N], C[M,N]); torch: A @ B (out_dtype=f32 for an
             f32 C where torch has it, else the input type)
  bias_relu  F(A[M,K], B[K,N], bias[N], C[M,N]); torch: addmm + relu
  bmm_nt     F(A[b,M,K], B[b,N,K], C[b,M,N]); torch: bmm(A, B^T)
SHAPES: MxNxK (bmm_nt: bxMxNxK), comma-separated. --check passes when every
element of C was written and |C - ref| <= eps |ref| + 1e-6 K + 1e-5
elementwise against an fp64 reference (eps: twice the output type's unit
roundoff; the K term the f32 accumulation). The last line says how many
checks passed.
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpu_torch import Library, at_offset, time_pair  # noqa: E402

DTYPES = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}


def operands(kind, shape, dtype, out_dtype, offset, poison):
    """(inputs, C) for one problem, fresh random inputs."""
    def rand(*size):
        return at_offset(torch.randn(*size, device="cuda").to(dtype), offset)
    fill = float("nan") if poison else 0.0
    if kind == "bmm_nt":
        b, m, n, k = shape
        ins = [rand(b, m, k), rand(b, n, k)]
        c = torch.full((b, m, n), fill, device="cuda", dtype=out_dtype)
    else:
        m, n, k = shape
        ins = [rand(m, k), rand(k, n)]
        if kind == "bias_relu":
            ins.append(rand(n))
        c = torch.full((m, n), fill, device="cuda", dtype=out_dtype)
    return ins, at_offset(c, offset)


def reference(kind, ins):
    d = [t.double() for t in ins]
    if kind == "bmm_nt":
        return torch.bmm(d[0], d[1].transpose(1, 2))
    out = d[0] @ d[1]
    return torch.relu(out + d[2]) if kind == "bias_relu" else out


def torch_run(kind, ins, out_dtype):
    """What torch (cuBLAS) runs for the same problem."""
    a, b = ins[0], ins[1]
    if kind == "bmm_nt":
        bt = b.transpose(1, 2)
        return lambda: torch.bmm(a, bt)
    if kind == "bias_relu":
        bias = ins[2]
        return lambda: torch.relu_(torch.addmm(bias, a, b))
    if out_dtype == torch.float32 and a.dtype != torch.float32:
        try:
            torch.mm(a[:16, :16], b[:16, :16], out_dtype=torch.float32)
            return lambda: torch.mm(a, b, out_dtype=torch.float32)
        except (TypeError, RuntimeError):
            pass
    return lambda: torch.mm(a, b)


def check(lib, args, shapes, offset):
    dtype, out_dtype = DTYPES[args.dtype], DTYPES[args.out_dtype]
    passed = 0
    for shape in shapes:
        ins, c = operands(args.kind, shape, dtype, out_dtype, offset, True)
        lib(*ins, c)
        torch.cuda.synchronize()
        ref = reference(args.kind, ins)
        got = c.double()
        k = shape[-1]
        # The output type's rounding (twice its unit roundoff) plus the f32
        # accumulation over K (inputs are exact in f32, products too).
        eps = {torch.float32: 1e-6, torch.float16: 2.0 ** -10,
               torch.bfloat16: 2.0 ** -8}[out_dtype]
        tol = eps * ref.abs() + 1e-6 * k + 1e-5
        unwritten = int(torch.isnan(got).sum())
        bad = int((~((got - ref).abs() <= tol)).sum()) - unwritten
        ok = unwritten == 0 and bad == 0
        same = ""
        if args.same_bits:
            # Run to run, the same inputs give the same bits (split-K's
            # fixed order of partial sums).
            again = torch.full_like(c, float("nan"))
            lib(*ins, again)
            torch.cuda.synchronize()
            bits = torch.equal(again.view(torch.int16 if again.element_size()
                                          == 2 else torch.int32),
                               c.view(torch.int16 if c.element_size() == 2
                                      else torch.int32))
            same = f", same bits run to run: {'yes' if bits else 'NO'}"
            ok = ok and bits
        passed += ok
        err = float((got - ref).nan_to_num().norm() / ref.norm().clamp_min(1e-30))
        print(f"check {args.kind} {'x'.join(map(str, shape))} offset {offset}"
              f": unwritten {unwritten}, out of tolerance {bad}, rel err "
              f"{err:.2e}{same}: {'PASS' if ok else 'FAIL'}", flush=True)
    return passed, len(shapes)


def bench(lib, args, shapes):
    dtype, out_dtype = DTYPES[args.dtype], DTYPES[args.out_dtype]
    print(f"| {args.kind} {args.function} ({args.dtype} -> {args.out_dtype})"
          " | tile-mlir TFLOP/s | torch TFLOP/s | ratio |")
    ratios = []
    for shape in shapes:
        ins, c = operands(args.kind, shape, dtype, out_dtype, 0, False)
        mine = lib.bind(*ins, c)
        theirs = torch_run(args.kind, ins, out_dtype)
        flops = 2.0
        for size in shape:
            flops *= size
        ours, ref = time_pair(mine, theirs, args.runs, args.target_ms)
        ratios.append(ref / ours)
        print(f"| {'x'.join(map(str, shape))} | {flops / ours / 1e9:.1f} | "
              f"{flops / ref / 1e9:.1f} | {ref / ours:.3f} |", flush=True)
    geo = 1.0
    for r in ratios:
        geo *= r
    geo **= 1.0 / len(ratios)
    print(f"geomean ratio {geo:.3f} over {len(ratios)} shapes, lowest "
          f"{min(ratios):.3f}", flush=True)


def parse_shapes(text):
    return [tuple(int(x) for x in item.split("x")) for item in text.split(",")
            if item]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--library", required=True)
    p.add_argument("--kind", choices=["gemm", "bias_relu", "bmm_nt"],
                   default="gemm")
    p.add_argument("--function", default=None)
    p.add_argument("--dtype", choices=["f16", "bf16"], default="bf16")
    p.add_argument("--out-dtype", choices=list(DTYPES), default=None)
    p.add_argument("--check", default="")
    p.add_argument("--offsets", default="0,1,8")
    p.add_argument("--bench", default="")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--target-ms", type=float, default=100.0)
    p.add_argument("--same-bits", action="store_true",
                   help="also run each check twice and require the same bits")
    args = p.parse_args()
    args.function = args.function or {"gemm": "gemm", "bias_relu":
                                      "gemm_bias_relu",
                                      "bmm_nt": "bmm_nt"}[args.kind]
    args.out_dtype = args.out_dtype or args.dtype
    lib = Library(args.library, args.function)
    passed = total = 0
    if args.check:
        for offset in (int(x) for x in args.offsets.split(",")):
            p_, t_ = check(lib, args, parse_shapes(args.check), offset)
            passed, total = passed + p_, total + t_
    if args.bench:
        bench(lib, args, parse_shapes(args.bench))
    if args.check:
        print(f"{passed} of {total} checks passed")
        if passed != total:
            sys.exit(1)


if __name__ == "__main__":
    main()
