#!/usr/bin/env python3
"""The 2:4-sparse GEMM of test/Examples/Inputs/gemm_sparse.mlir on torch
tensors (GPU machine): a random f16 A pruned to 2:4 along K (the two
largest of each group of four kept), compressed here into the kept values
Ac [M, 2 ceil(K/4)] and the metadata E [M, ceil(K/16)] of docs/design.md
5.7, then C = A B checked against an fp64 product of the pruned A
(poisoned C, views at offsets), and timed against torch.mm of the dense
pruned A (and cuSPARSELt's to_sparse_semi_structured where torch has it).

  python3 sparse-torch.py --library LIB [--check 1x32x8,...] [--offsets 0,1]
                          [--bench 4096x4096x4096,...] [--dtype f16|bf16]
                          [--out f32|f16|bf16] [--dense-library LIB]
                          [--compressor LIB] [--semi]

With --dense-library (a dense GEMM C = A B of the same element types, e.g.
examples/gemm.mlir, function `gemm`), --bench also times it on the dense
pruned A: the ratio the 2:4 sparse GEMM gains over our own dense one.
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


DTYPES = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}


def operands(m, n, k, offset, dtype, out, device="cuda"):
    kp = (k + 15) // 16 * 16  # whole metadata words; the pad is zeros
    a = torch.randn(m, kp, device=device, dtype=torch.float32)
    a[:, k:] = 0
    a = a.to(dtype)
    pruned, keep = prune(a)
    values, meta = compress(pruned, keep)
    values = values[:, :(k + 3) // 4 * 2].contiguous()
    meta = meta[:, :(k + 15) // 16].contiguous()
    b = torch.randn(k, n, device=device).to(dtype)
    c = torch.full((m, n), float("nan"), device=device, dtype=out)
    return (pruned[:, :k], [at_offset(values, offset), at_offset(meta, offset),
                            at_offset(b, offset), at_offset(c, offset)])


def expand(ac, e, k):
    """The dense M x k matrix that values `ac` and metadata `e` describe."""
    m = ac.shape[0]
    groups = (k + 3) // 4
    g = torch.arange(groups, device=ac.device)
    words = e.to(torch.int32) & 0xFFFF
    nib = (words[:, g // 4] >> (4 * (g % 4))) & 15  # [m, groups]
    pos = torch.stack([nib & 3, nib >> 2], dim=2)  # [m, groups, 2]
    vals = torch.zeros(m, 2 * groups, dtype=ac.dtype, device=ac.device)
    vals[:, :ac.shape[1]] = ac
    dense = torch.zeros(m, groups, 4, dtype=ac.dtype, device=ac.device)
    dense.scatter_(2, pos, vals.view(m, groups, 2))
    ordered = bool((pos[..., 0] < pos[..., 1]).all())
    return dense.view(m, 4 * groups)[:, :k], ordered


def check_compressor(comp, text, offset, dtype):
    """compress_2to4 on a pruned random A: no violation, the expansion of
    its output equal to A; then A with a third non-zero planted in every
    7th full group: exactly those counted."""
    m, n, k = map(int, text.split("x"))
    kp = (k + 3) // 4 * 4
    a = torch.randn(m, kp, device="cuda").to(dtype)
    a[:, k:] = 0
    pruned, _ = prune(a)
    pruned = pruned[:, :k].contiguous()
    kc, ke, kv = (k + 3) // 4 * 2, (k + 15) // 16, (k + 127) // 128

    def run(dense):
        ac = torch.full((m, kc), float("nan"), device="cuda", dtype=dtype)
        e = torch.full((m, ke), 0x5555, device="cuda", dtype=torch.int16)
        v = torch.full((m, kv), -1, device="cuda", dtype=torch.int32)
        views = [at_offset(t, offset) for t in (dense, ac, e, v)]
        comp(*views)
        torch.cuda.synchronize()
        return views[1], views[2], views[3]

    ac, e, v = run(pruned)
    back, ordered = expand(ac, e, k)
    differ = int((back != pruned).sum())
    ok = int(v.sum()) == 0 and bool((v >= 0).all()) and differ == 0 and ordered
    # Not 2:4: a third non-zero in every 7th group of four full columns.
    bad = pruned.clone()
    full = k // 4
    planted = 0
    if full:
        grid = bad[:, :4 * full].view(m, full, 4)
        pick = (torch.arange(m * full, device="cuda").view(m, full) % 7) == 3
        zero_pos = (grid == 0).to(torch.int8).argmax(dim=2)
        has_zero = (grid == 0).any(dim=2)
        pick &= has_zero
        rows, cols = pick.nonzero(as_tuple=True)
        grid[rows, cols, zero_pos[rows, cols]] = 0.5
        planted = int(pick.sum())
    _, _, v2 = run(bad)
    counted = int(v2.sum())
    ok &= counted == planted
    print(f"compress {text} offset {offset}: violations {int(v.sum())}, "
          f"{differ} elements differ expanded, positions increasing "
          f"{ordered}; not 2:4: {planted} planted, {counted} counted: "
          f"{'PASS' if ok else 'FAIL'}", flush=True)
    return ok


def semi_bench(text, args, mine, dense, b, flops):
    """torch.mm on to_sparse_semi_structured(A) (cuSPARSELt or CUTLASS,
    named), against our sparse GEMM in the same process."""
    from torch.sparse import SparseSemiStructuredTensor, \
        to_sparse_semi_structured
    for backend in ("cusparselt", "cutlass"):
        SparseSemiStructuredTensor._FORCE_CUTLASS = backend == "cutlass"
        try:
            sa = to_sparse_semi_structured(dense)
            torch.mm(sa, b)
            torch.cuda.synchronize()
        except Exception as e:  # noqa: BLE001 (torch raises several kinds)
            print(f"bench {text} {args.dtype}: to_sparse_semi_structured "
                  f"({backend}) refused: {str(e).splitlines()[0][:160]}",
                  flush=True)
            continue
        ours, theirs = time_pair(mine, lambda: torch.mm(sa, b), args.runs,
                                 100.0)
        print(f"bench {text} {args.dtype}: tile-mlir sparse "
              f"{flops / ours / 1e9:.1f}, torch semi-structured ({backend}) "
              f"{flops / theirs / 1e9:.1f} TFLOP/s, ratio {theirs / ours:.3f}",
              flush=True)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--library", required=True)
    p.add_argument("--function", default="gemm_sp")
    p.add_argument("--check", default="")
    p.add_argument("--offsets", default="0")
    p.add_argument("--bench", default="")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--dtype", default="f16", choices=["f16", "bf16"])
    p.add_argument("--out", default="f32", choices=["f32", "f16", "bf16"])
    p.add_argument("--dense-library", default="")
    p.add_argument("--dense-function", default="gemm")
    p.add_argument("--compressor", default="",
                   help="a library of examples/sparse_compress.mlir: check "
                   "compress_2to4 on the --check shapes")
    p.add_argument("--semi", action="store_true",
                   help="also time torch.mm on to_sparse_semi_structured")
    args = p.parse_args()
    lib = Library(args.library, args.function)
    dtype, out = DTYPES[args.dtype], DTYPES[args.out]
    torch.manual_seed(0)
    failed = 0
    if args.compressor:
        comp = Library(args.compressor, "compress_2to4")
        for text in filter(None, args.check.split(",")):
            for offset in map(int, args.offsets.split(",")):
                failed += not check_compressor(comp, text, offset, dtype)
    for text in filter(None, args.check.split(",")):
        m, n, k = map(int, text.split("x"))
        for offset in map(int, args.offsets.split(",")):
            pruned, ins = operands(m, n, k, offset, dtype, out)
            lib(*ins)
            torch.cuda.synchronize()
            c = ins[3]
            ref = pruned.double() @ ins[2].double()
            # f32 results: accumulation order; 16-bit ones: one rounding.
            rel = 1e-5 if out == torch.float32 else (
                1e-3 if out == torch.float16 else 8e-3)
            tol = rel * ref.abs() + 1e-6 * k + 1e-4
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
        pruned, ins = operands(m, n, k, 0, dtype, out)
        dense = pruned.contiguous()
        b = ins[2]
        mine = lib.bind(*ins)
        ours, ref = time_pair(mine, lambda: torch.mm(dense, b), args.runs,
                              100.0)
        flops = 2.0 * m * n * k
        print(f"bench {text} {args.dtype}: tile-mlir sparse "
              f"{flops / ours / 1e9:.1f} TFLOP/s (dense-equivalent), torch.mm "
              f"dense {flops / ref / 1e9:.1f}, ratio {ref / ours:.3f}",
              flush=True)
        if args.dense_library:
            dlib = Library(args.dense_library, args.dense_function)
            c = torch.empty(m, n, device="cuda", dtype=dtype)
            ours2, theirs = time_pair(mine, dlib.bind(dense, b, c), args.runs,
                                      100.0)
            print(f"bench {text} {args.dtype}: tile-mlir sparse "
                  f"{flops / ours2 / 1e9:.1f}, tile-mlir dense "
                  f"{flops / theirs / 1e9:.1f} TFLOP/s, sparse over own dense "
                  f"{theirs / ours2:.3f}", flush=True)
        if args.semi:
            semi_bench(text, args, mine, dense, b, flops)
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
