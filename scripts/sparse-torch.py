#!/usr/bin/env python3
"""The 2:4-sparse GEMM of test/Examples/Inputs/gemm_sparse.mlir on torch
tensors (GPU machine): a random f16 A pruned to 2:4 along K (the two
largest of each group of four kept), compressed here into the kept values
Ac [M, ceil(K/2)] and the metadata E [M, ceil(K/16)] of docs/design.md
5.7, then C = A B checked against an fp64 product of the pruned A
(poisoned C, views at offsets), and timed against torch.mm of the dense
pruned A (and cuSPARSELt's to_sparse_semi_structured where torch has it).

  python3 sparse-torch.py --library LIB [--check 1x32x8,...] [--offsets 0,1]
                          [--bench 4096x4096x4096,...]
"""
import argparse

import torch

from gpu_torch import Library, at_offset, time_pair


def prune(a):
    """`a` (M x K, K a multiple of 4) with the two largest of every group
    of four along K kept, the others zero."""
    m, k = a.shape
    g = a.view(m, k // 4, 4)
    keep = g.abs().topk(2, dim=2).indices.sort(dim=2).values
    mask = torch.zeros_like(g, dtype=torch.bool).scatter_(2, keep, True)
    return (g * mask).view(m, k), keep


def compress(a, keep):
    """Kept values [M, K/2] and metadata [M, K/16] (i16 words of four
    nibbles idx0 | idx1 << 2) of a pruned `a` with positions `keep`."""
    m, k = a.shape
    g = a.view(m, k // 4, 4)
    values = torch.gather(g, 2, keep).reshape(m, k // 2)
    nib = (keep[..., 0] | (keep[..., 1] << 2)).to(torch.int32)  # [m, k/4]
    nib = nib.view(m, k // 16, 4)
    words = nib[..., 0] | nib[..., 1] << 4 | nib[..., 2] << 8 | nib[..., 3] << 12
    words = torch.where(words >= 1 << 15, words - (1 << 16), words)
    return values.contiguous(), words.to(torch.int16).contiguous()


def operands(m, n, k, offset, device="cuda"):
    kp = (k + 15) // 16 * 16  # whole metadata words; the pad is zeros
    a = torch.randn(m, kp, device=device, dtype=torch.float32)
    a[:, k:] = 0
    a = a.half()
    pruned, keep = prune(a)
    values, meta = compress(pruned, keep)
    values = values[:, :(k + 1) // 2].contiguous()
    meta = meta[:, :(k + 15) // 16].contiguous()
    b = torch.randn(k, n, device=device).half()
    c = torch.full((m, n), float("nan"), device=device)
    return (pruned[:, :k], [at_offset(values, offset), at_offset(meta, offset),
                            at_offset(b, offset), at_offset(c, offset)])


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--library", required=True)
    p.add_argument("--function", default="gemm_sp")
    p.add_argument("--check", default="")
    p.add_argument("--offsets", default="0")
    p.add_argument("--bench", default="")
    p.add_argument("--runs", type=int, default=5)
    args = p.parse_args()
    lib = Library(args.library, args.function)
    torch.manual_seed(0)
    failed = 0
    for text in filter(None, args.check.split(",")):
        m, n, k = map(int, text.split("x"))
        for offset in map(int, args.offsets.split(",")):
            pruned, ins = operands(m, n, k, offset)
            lib(*ins)
            torch.cuda.synchronize()
            c = ins[3]
            ref = pruned.double() @ ins[2].double()
            tol = 1e-5 * ref.abs() + 1e-6 * k + 1e-4
            unwritten = int(torch.isnan(c).sum())
            bad = int((~((c.double() - ref).abs() <= tol)).sum()) - unwritten
            ok = unwritten == 0 and bad == 0
            failed += not ok
            err = float((c.double() - ref).nan_to_num().norm() /
                        ref.norm().clamp_min(1e-30))
            print(f"check {text} offset {offset}: unwritten {unwritten}, out "
                  f"of tolerance {bad}, rel err {err:.2e}: "
                  f"{'PASS' if ok else 'FAIL'}", flush=True)
    for text in filter(None, args.bench.split(",")):
        m, n, k = map(int, text.split("x"))
        pruned, ins = operands(m, n, k, 0)
        dense = pruned.contiguous()
        b = ins[2]
        ours, ref = time_pair(lib.bind(*ins), lambda: torch.mm(dense, b),
                              args.runs, 100.0)
        flops = 2.0 * m * n * k
        print(f"bench {text}: tile-mlir sparse {flops / ours / 1e9:.1f} "
              f"TFLOP/s (dense-equivalent), torch.mm dense "
              f"{flops / ref / 1e9:.1f}, ratio {ref / ours:.3f}", flush=True)
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
