#!/usr/bin/env python3
"""FP8 GEMMs with scales (examples/fp8_gemm.mlir) of a compiled tile-mlir
library against torch._scaled_mm (cuBLASLt) in one process on the GPU
machine: correctness on freshly quantized random inputs (odd shapes, views
at offsets, a NaN-poisoned result, an fp64 reference) and speed (CUDA
events, median of timed runs).

  LD_LIBRARY_PATH=build-gpu python3 scripts/fp8-torch.py --library=LIB \
      --kind=tensor|rowwise|blockwise [--function=NAME] [--a-dtype=e4m3|e5m2] \
      [--check=SHAPES] [--offsets=0,16,1] [--bench=SHAPES] [--runs=5] \
      [--target-ms=100] [--quantize=LIB2] [--out-dtype=bf16|f16|f32]

FP8_FAST_ACCUM=1 in the environment calls torch._scaled_mm with
use_fast_accum=True (cuBLASLt's kernels that sum in the tensor core's
accumulator without promotion); the default is off.

Kinds (the host function, fp8_gemm_<kind> unless --function; every argument
a memref descriptor pointer; A[M,K], B[N,K] fp8, K-contiguous; C[M,N] bf16):
  tensor     F(A, B, sa[1], sb[1], C): C = (A sa) (B sb)^T
  rowwise    F(A, B, sa[M], sb[N], C): C[i,j] = sa[i] sb[j] sum_k A[i,k] B[j,k]
  blockwise  F(A, B, sa[M,KB], sb[NB,KB], C), KB = ceil(K/128),
             NB = ceil(N/128): C[i,j] = sum over K blocks kb of
             sa[i,kb] sb[j/128,kb] sum_{k in kb} A[i,k] B[j,k]
A is float8_e4m3fn or float8_e5m2 (--a-dtype; the library must have been
compiled for that type), B float8_e4m3fn. Inputs are random normals with
rows and 128-column blocks of different magnitudes, quantized as users do:
scale = amax / fp8 max per tensor, per row, or per 1 x 128 group of A and
128 x 128 block of B (DeepSeek-V3 style); the f32 scales are dequantization
factors (value ~ fp8 * scale).

SHAPES: MxNxK, comma-separated. --check runs every shape at every offset
(each operand, C included, a view `offset` elements into its allocation) on
a NaN-poisoned C and compares it with the fp64 product of the dequantized
inputs. A check passes when
  - every element of C was written (unwritten: NaN left in C);
  - its relative Frobenius error is at most 2 max(torch's, u / 2) (u: C's
    unit roundoff, --out-dtype bf16 (default), f16 or f32), torch's
    being that of torch._scaled_mm with the same scales on the same inputs
    (M, N, K zero-padded to multiples of 16 where needed, scales with 1s,
    C sliced). Where this torch refuses the scales (block-wise ones, in
    older torch or cuBLASLt) or its result is not finite or more than 4x
    further from the product than max(the fp32 product's error, u / 2,
    2^-13: FP8 accumulation) (this torch's block-wise mode with K under
    one block), torch's error is replaced by that of the fp32 product of
    the dequantized inputs rounded to C's type, and the line says which
    was used;
  - and |C - ref| <= 2 u |ref| + 2 max|C_torch - ref| + 1e-6 max|ref|
    elementwise: C's rounding of each element, or twice torch's worst
    error (out of tolerance: the count of elements beyond it).
Each line also prints the max abs error over max|ref|.
With --kind blockwise, --check also calls the function with A's scales one
K block short, which the host code must refuse (an error naming
"ceil(K/128)", C untouched).
--quantize LIB2 checks LIB2's fp8_quantize (examples/fp8_quantize.mlir:
bf16 X[M,K] -> e4m3 Q[M,K] and f32 S[M,KB], one scale per 1 x 128 group)
on the --check shapes: S equal to torch's amax / 448 and Q equal to
torch's rounding of X * (448 / amax) to e4m3 (at most one element in 10^4
one e4m3 step away, f32 rounding of the product), Q and S poisoned first;
then, with --kind blockwise, the chain: LIB2's Q and S as A and its scales
into LIB's block-wise GEMM against the fp64 product of the dequantized
inputs, the error within 2x torch._scaled_mm's on the same Q and S.
--bench times our call (descriptors built once) against torch._scaled_mm
with the same scaling (for block-wise, per-tensor where torch refuses
block-wise scales; the table says which), alternating, median of --runs
timed runs after a warmup; TFLOP/s = 2MNK / time, ratio = torch time / ours,
then the geomean ratio. The last line says how many checks passed; the exit
status is 0 only if all of them did.
"""
import argparse
import math
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpu_torch import Library, at_offset, time_pair  # noqa: E402

FP8 = {"e4m3": torch.float8_e4m3fn, "e5m2": torch.float8_e5m2}
B_DTYPE = torch.float8_e4m3fn
GROUP = 128  # K extent of a scale group; also B's N extent (128 x 128).
NAMES = {"tensor": "per-tensor", "rowwise": "row-wise",
         "blockwise": "block-wise"}
REFUSED = set()  # (kind, why) torch refused scales, printed once
OUT_TYPES = {"bf16": (torch.bfloat16, 2.0 ** -8), "f16": (torch.float16, 2.0 ** -11),
             "f32": (torch.float32, 2.0 ** -24)}
# C's type and unit roundoff (--out-dtype).
OUT = {"dtype": torch.bfloat16, "eps": 2.0 ** -8}


def cdiv(a, b):
    return -(-a // b)


def expand(kind, s, rows, cols, block):
    """Scales `s` broadcast to the [rows, cols] tensor they scale (block:
    rows per block-wise scale, 1 for A's groups, GROUP for B's blocks)."""
    if kind == "tensor":
        return s.reshape(1, 1).expand(rows, cols)
    if kind == "rowwise":
        return s.reshape(rows, 1).expand(rows, cols)
    return s.repeat_interleave(block, 0)[:rows].repeat_interleave(
        GROUP, 1)[:, :cols]


def quantize(x, dtype, kind, block):
    """(fp8 tensor, f32 dequantization scales) of x [R, C]: scales [1],
    [R], or [ceil(R / block), ceil(C / GROUP)]."""
    fmax = torch.finfo(dtype).max
    r, c = x.shape
    if kind == "tensor":
        amax = x.abs().amax().reshape(1)
    elif kind == "rowwise":
        amax = x.abs().amax(1)
    else:
        rb, kb = cdiv(r, block), cdiv(c, GROUP)
        padded = torch.zeros(rb * block, kb * GROUP, device=x.device)
        padded[:r, :c] = x.abs()
        amax = padded.view(rb, block, kb, GROUP).amax((1, 3))
    s = (amax.float() / fmax).clamp_min(1e-30).contiguous()
    # Clamped: an e4m3fn overflow would be NaN, not saturate.
    q = (x / expand(kind, s, r, c, block)).clamp(-fmax, fmax).to(dtype)
    return q, s


def operands(args, shape):
    """Fresh quantized A, B and their scales for one problem."""
    m, n, k = shape

    def rand(r, c):
        rows = torch.randint(-3, 4, (r, 1), device="cuda").float().exp2()
        cols = torch.randint(-3, 4, (1, cdiv(c, GROUP)), device="cuda")
        cols = cols.float().exp2().repeat_interleave(GROUP, 1)[:, :c]
        # Magnitudes whose products' sums stay in f16's range.
        return torch.randn(r, c, device="cuda") * rows * cols / 16
    qa, sa = quantize(rand(m, k), FP8[args.a_dtype], args.kind, 1)
    qb, sb = quantize(rand(n, k), B_DTYPE, args.kind, GROUP)
    return qa, qb, sa, sb


def dequantized(kind, q, s, block, dtype):
    r, c = q.shape
    return q.float().to(dtype) * expand(kind, s, r, c, block).to(dtype)


def pad_to(t, rows, cols, fill=0.0):
    """t [R, C] at the top left of a `fill`ed [rows, cols] (fp8: zeros)."""
    if tuple(t.shape) == (rows, cols):
        return t
    fp8 = t.element_size() == 1
    src = t.view(torch.uint8) if fp8 else t
    out = torch.full((rows, cols), 0 if fp8 else fill, dtype=src.dtype,
                     device=t.device)
    out[:t.shape[0], :t.shape[1]] = src
    return out.view(t.dtype) if fp8 else out


def torch_run(kind, qa, qb, sa, sb, form=0):
    """torch._scaled_mm on the problem as a call returning C [M, N] bf16;
    operands zero-padded to multiples of 16 once, outside the call. form:
    which layout of B's block-wise scales (0: row stride KB; 1: KB rounded
    up to 4, what some torch versions ask)."""
    (m, k), n = qa.shape, qb.shape[0]
    mp, np_, kp = (cdiv(x, 16) * 16 for x in (m, n, k))
    a, bt = pad_to(qa, mp, kp), pad_to(qb, np_, kp).t()  # bt column-major
    if kind == "tensor":
        scale_a, scale_b = sa.reshape(()), sb.reshape(())
    elif kind == "rowwise":
        scale_a = pad_to(sa.view(m, 1), mp, 1, 1.0)
        scale_b = pad_to(sb.view(n, 1), np_, 1, 1.0).view(1, np_)
    else:
        # A's 1 x 128 scales (M, KB) outer-dim-major; B's 128 x 128 ones
        # given transposed, (NB, KB) row-major underneath.
        kb = sa.shape[1]
        scale_a = pad_to(sa, mp, kb, 1.0).t().contiguous().t()
        nb = sb.shape[0]
        buf = torch.zeros(nb, kb if form == 0 else cdiv(kb, 4) * 4,
                          device=sb.device)
        buf[:, :kb] = sb
        scale_b = buf[:, :kb].t()

    def run():
        return torch._scaled_mm(a, bt, scale_a=scale_a, scale_b=scale_b,
                                out_dtype=OUT["dtype"],
                                use_fast_accum=os.environ.get("FP8_FAST_ACCUM") == "1")[:m, :n]
    return run


def torch_scaled(kind, qa, qb, sa, sb):
    """torch._scaled_mm with the kind's own scales as a call, or None where
    this torch refuses them (the reason printed once; expected only of
    block-wise scales)."""
    why = ""
    for form in ((0, 1) if kind == "blockwise" else (0,)):
        try:
            run = torch_run(kind, qa, qb, sa, sb, form)
            run()
            torch.cuda.synchronize()
            return run
        except (RuntimeError, TypeError, ValueError) as e:
            why = (str(e).strip().splitlines() or [type(e).__name__])[0]
    if (kind, why) not in REFUSED:
        REFUSED.add((kind, why))
        print(f"note: torch._scaled_mm refused {NAMES[kind]} scales: {why}",
              flush=True)
    return None


def check(lib, args, shapes, offset):
    passed = 0
    for shape in shapes:
        m, n, k = shape
        qa, qb, sa, sb = operands(args, shape)
        c = torch.full((m, n), float("nan"), device="cuda",
                       dtype=OUT["dtype"])
        c = at_offset(c, offset)
        lib(*[at_offset(t, offset) for t in (qa, qb, sa, sb)], c)
        torch.cuda.synchronize()
        deq = [dequantized(args.kind, qa, sa, 1, torch.float64),
               dequantized(args.kind, qb, sb, GROUP, torch.float64)]
        ref = deq[0] @ deq[1].t()
        ref_norm = float(ref.norm().clamp_min(1e-30))
        # The fp32 product of the dequantized inputs rounded to C's type:
        # the basis where torch has no _scaled_mm for these scales, or where
        # its result is not finite or far off it (this torch's block-wise
        # mode with K under one block), which would loosen the limit. Far
        # off: more than 4x the larger of the basis's error, C's rounding
        # and the tensor cores' FP8 accumulation (about 14 bits, 2^-13: what
        # an f32 C of any FP8 GEMM, torch's own included, carries).
        deq32 = [t.float() for t in deq]
        basis = (deq32[0] @ deq32[1].t()).to(OUT["dtype"])
        basis_err = float((basis.double() - ref).norm()) / ref_norm
        run = torch_scaled(args.kind, qa, qb, sa, sb)
        theirs = run() if run is not None else None
        off = None
        if theirs is not None:
            off = float((theirs.double() - ref).norm()) / ref_norm
        if off is not None and math.isfinite(off) and \
                off <= 4 * max(basis_err, OUT["eps"] / 2, 2.0 ** -13):
            used = f"_scaled_mm {NAMES[args.kind]}"
        else:
            used = (f"fp32 -> {str(OUT['dtype']).split('.')[-1]}, "
                    + (f"no {NAMES[args.kind]} _scaled_mm" if run is None
                       else f"_scaled_mm {NAMES[args.kind]} off "
                            f"({off:.1e})"))
            theirs = basis
        ref_max = float(ref.abs().max().clamp_min(1e-30))
        torch_err = float((theirs.double() - ref).norm()) / ref_norm
        got = c.double()
        diff = (got - ref).abs()
        # bf16's rounding of each element, or twice torch's worst error
        # (elements that cancel to near zero keep the error of the sum).
        torch_max = float((theirs.double() - ref).abs().max())
        tol = 2 * OUT["eps"] * ref.abs() + 2 * torch_max + 1e-6 * ref_max
        unwritten = int(torch.isnan(got).sum())
        bad = int((~(diff <= tol)).sum()) - unwritten
        err = float(diff.nan_to_num().norm()) / ref_norm
        max_err = float(diff.nan_to_num().max()) / ref_max
        budget = 2 * max(torch_err, OUT["eps"] / 2)
        # A non-finite error (C's type overflowing) proves nothing.
        ok = (unwritten == 0 and bad == 0 and err <= budget and
              math.isfinite(torch_err))
        passed += ok
        print(f"check {args.kind} {args.a_dtype} {'x'.join(map(str, shape))}"
              f" offset {offset}: unwritten {unwritten}, out of tolerance "
              f"{bad}, rel err {err:.2e} (torch {torch_err:.2e} [{used}], "
              f"limit {budget:.2e}), max err {max_err:.2e}: "
              f"{'PASS' if ok else 'FAIL'}", flush=True)
    return passed, len(shapes)


def check_refused_scales(lib, args):
    """A block-wise call whose scales have the wrong block count is refused
    by the host code (an error status, nothing launched)."""
    m, n, k = 256, 256, 384
    qa, qb, sa, sb = operands(args, (m, n, k))
    c = torch.zeros(m, n, device="cuda", dtype=OUT["dtype"])
    try:
        lib(qa, qb, sa[:, :-1].contiguous(), sb, c)
        why = "accepted"
    except RuntimeError as e:
        why = str(e)
    ok = "must be ceil(K/128)" in why and bool((c == 0).all())
    print(f"refused scales (sa with KB - 1 columns): {why}: "
          f"{'PASS' if ok else 'FAIL'}", flush=True)
    return ok


def bench(lib, args, shapes):
    ratios = []
    for i, shape in enumerate(shapes):
        m, n, k = shape
        qa, qb, sa, sb = operands(args, shape)
        c = torch.empty(m, n, device="cuda", dtype=OUT["dtype"])
        mine = lib.bind(qa, qb, sa, sb, c)
        theirs = torch_scaled(args.kind, qa, qb, sa, sb)
        used = NAMES[args.kind]
        if theirs is None:
            one = torch.ones(1, device="cuda")
            theirs = torch_run("tensor", qa, qb, one, one)
            used = f"per-tensor ({used} refused)"
        if i == 0:  # after torch_scaled's first note, outside the table
            print(f"| {args.kind} {args.function} ({args.a_dtype} x e4m3 ->"
                  " bf16) | tile-mlir TFLOP/s | torch TFLOP/s | ratio | "
                  "torch scales |\n|---|---|---|---|---|")
        flops = 2.0 * m * n * k
        ours, ref = time_pair(mine, theirs, args.runs, args.target_ms)
        ratios.append(ref / ours)
        print(f"| {'x'.join(map(str, shape))} | {flops / ours / 1e9:.1f} | "
              f"{flops / ref / 1e9:.1f} | {ref / ours:.3f} | {used} |",
              flush=True)
    geo = 1.0
    for r in ratios:
        geo *= r
    geo **= 1.0 / len(ratios)
    print(f"geomean ratio {geo:.3f} over {len(ratios)} shapes, lowest "
          f"{min(ratios):.3f}", flush=True)


def check_quantize(qlib, lib, args, shapes, offset):
    """fp8_quantize against torch's own quantization, then (block-wise
    LIB) the quantize -> GEMM chain."""
    passed = 0
    fmax = torch.finfo(torch.float8_e4m3fn).max
    for shape in shapes:
        m, n, k = shape
        kb = cdiv(k, GROUP)
        x = (torch.randn(m, k, device="cuda") *
             torch.randint(-3, 4, (m, 1), device="cuda").float().exp2())
        x = x.to(torch.bfloat16)
        q = torch.full((m, k), 0x7f, dtype=torch.uint8, device="cuda")
        q = at_offset(q.view(torch.float8_e4m3fn), offset)
        s = at_offset(torch.full((m, kb), float("nan"), device="cuda"), offset)
        qlib(at_offset(x, offset), q, s)
        torch.cuda.synchronize()
        # torch's quantization, the same f32 operations.
        xf = torch.zeros(m, kb * GROUP, device="cuda")
        xf[:, :k] = x.float()
        amax = xf.abs().view(m, kb, GROUP).amax(2).clamp_min(1e-12)
        # Tensor by tensor: IEEE division (torch divides by a Python
        # scalar as a product with its reciprocal).
        fmax_t = torch.full_like(amax, fmax)
        s_ref = torch.div(amax, fmax_t)
        inv = torch.div(fmax_t, amax).repeat_interleave(GROUP, 1)[:, :k]
        q_ref = (x.float() * inv).to(torch.float8_e4m3fn)
        s_ok = bool(torch.equal(s, s_ref))
        qd, qr = q.float(), q_ref.float()
        diff = int((qd != qr).sum())
        steps = (qd - qr).abs() / qr.abs().clamp_min(2.0 ** -9)
        q_ok = diff <= max(1, m * k // 10000) and bool((steps <= 0.125).all())
        ok = s_ok and q_ok
        line = (f"quantize {'x'.join(map(str, (m, k)))} offset {offset}: "
                f"scales {'equal' if s_ok else 'DIFFER'}, {diff} of {m * k} "
                f"elements differ")
        if ok and lib is not None and args.kind == "blockwise":
            qb, sb = quantize(torch.randn(n, k, device="cuda"), B_DTYPE,
                              "blockwise", GROUP)
            c = at_offset(torch.full((m, n), float("nan"), device="cuda",
                                     dtype=torch.bfloat16), offset)
            qa, sa = q.contiguous(), s.contiguous()
            lib(at_offset(qa, offset), at_offset(qb, offset),
                at_offset(sa, offset), at_offset(sb, offset), c)
            torch.cuda.synchronize()
            ref = (dequantized("blockwise", qa, sa, 1, torch.float64) @
                   dequantized("blockwise", qb, sb, GROUP, torch.float64).t())
            run = torch_scaled("blockwise", qa, qb, sa, sb)
            theirs = run() if run is not None else (
                ref.float().to(torch.bfloat16))
            norm = float(ref.norm().clamp_min(1e-30))
            err = float((c.double() - ref).nan_to_num(1e30).norm()) / norm
            terr = float((theirs.double() - ref).norm()) / norm
            unwritten = int(torch.isnan(c.double()).sum())
            ok = unwritten == 0 and err <= 2 * max(terr, 2.0 ** -9)
            line += (f"; chain {m}x{n}x{k}: unwritten {unwritten}, rel err "
                     f"{err:.2e} (torch {terr:.2e})")
        passed += ok
        print(f"{line}: {'PASS' if ok else 'FAIL'}", flush=True)
    return passed, len(shapes)


def parse_shapes(text):
    shapes = [tuple(int(x) for x in item.split("x"))
              for item in text.split(",") if item]
    for s in shapes:
        if len(s) != 3:
            sys.exit(f"shape {'x'.join(map(str, s))} is not MxNxK")
    return shapes


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--library", required=True)
    p.add_argument("--kind", choices=list(NAMES), default="tensor")
    p.add_argument("--function", default=None)
    p.add_argument("--a-dtype", choices=list(FP8), default="e4m3")
    p.add_argument("--out-dtype", choices=list(OUT_TYPES), default="bf16")
    p.add_argument("--check", default="")
    p.add_argument("--offsets", default="0,16,1")
    p.add_argument("--bench", default="")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--target-ms", type=float, default=100.0)
    p.add_argument("--quantize", default=None,
                   help="library with fp8_quantize (examples/fp8_quantize.mlir)")
    args = p.parse_args()
    args.function = args.function or f"fp8_gemm_{args.kind}"
    OUT["dtype"], OUT["eps"] = OUT_TYPES[args.out_dtype]
    torch.manual_seed(0)
    torch.backends.cuda.matmul.allow_tf32 = False  # the fp32 fallback
    lib = Library(args.library, args.function)
    passed = total = 0
    if args.check and args.quantize:
        qlib = Library(args.quantize, "fp8_quantize")
        for offset in (int(x) for x in args.offsets.split(",")):
            p_, t_ = check_quantize(qlib, lib, args, parse_shapes(args.check),
                                    offset)
            passed, total = passed + p_, total + t_
    elif args.check:
        for offset in (int(x) for x in args.offsets.split(",")):
            p_, t_ = check(lib, args, parse_shapes(args.check), offset)
            passed, total = passed + p_, total + t_
        if args.kind == "blockwise":
            passed, total = passed + check_refused_scales(lib, args), total + 1
    if args.bench:
        bench(lib, args, parse_shapes(args.bench))
    if args.check:
        print(f"{passed} of {total} checks passed")
        if passed != total:
            sys.exit(1)


if __name__ == "__main__":
    main()
