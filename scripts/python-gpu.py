#!/usr/bin/env python3
"""The Python package (python/tile_mlir) on the GPU machine, with torch.

Loads libraries compiled ahead of time here (tile-compile embeds their
function tables; the GPU machine has no MLIR) and calls them on torch
tensors and NumPy arrays:

  python3 scripts/python-gpu.py --package DIR --saxpy LIB --gemm LIB \
      [--gemm-dtype f16|bf16] [--fa LIB] [--softmax LIB] \
      [--pad-copy LIB] [--no-speed]

--package is the directory holding tile_mlir/. Checks, each printed as
PASS or FAIL:
  - saxpy (docs/tutorial.md) on CUDA tensors of sizes 1, 1000, 4097 (views
    at offsets 1 and 8), on NumPy arrays (copied in and out), on a side
    stream, and its argument errors (TypeError before the call, TileError
    from the host code's size checks);
  - the GEMM on fresh random inputs (1x1x1, 3x5x7, 1000^3, 4095x4097x1023,
    views at offset 1 and 8, C poisoned with NaN) against an fp64
    reference, the error within 2x cuBLAS's own;
  - FlashAttention (B4 H16 S1000 D128, views) against SDPA in fp32;
  - the softmax example (examples/softmax.mlir: out-of-bounds columns read
    as -inf, the copy's padding) on R x N from 1x1 to 4097x1000, views at
    offsets 1 and 8, Y poisoned with NaN, against an fp64 reference, the
    error within 2x torch.softmax's; N past the kernel's bound refused;
  - test/Runtime/Inputs/pad_copy.mlir (a pipelined asynchronous copy
    padding with 7.0) on R x C from 1x1 to 1000x1000, views at offsets 1
    and 8: Y is X padded to whole tiles with 7.0, bit for bit.
--no-speed skips the timings (for runs under compute-sanitizer).
Speed: median of 5 runs of N back-to-back calls between CUDA events, the
package's call against torch.mm (cuBLAS) alternating, at 4096^3 and 8192^3;
and the package's call overhead against a raw ctypes call of the same
function with prebuilt descriptors (the C host's cost), on a 1x1x1 GEMM.
"""
import argparse
import ctypes
import os
import statistics
import sys
import time

import numpy
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpu_torch import at_offset, time_ms  # noqa: E402

results = []


def check(name, ok, detail=""):
    results.append(ok)
    print("%s %s %s" % ("PASS" if ok else "FAIL", name, detail), flush=True)


def expect(name, exception, run):
    try:
        run()
    except exception as e:
        check(name, True, "(%s: %s)" % (type(e).__name__, e))
        return
    except Exception as e:  # noqa: BLE001
        check(name, False, "(%s: %s)" % (type(e).__name__, e))
        return
    check(name, False, "(no exception)")


def saxpy_checks(tm, path):
    lib = tm.load(path)
    print(lib, flush=True)
    for n in (1, 1000, 4097):
        for offset in (0, 1, 8):
            x = at_offset(torch.randn(n, device="cuda"), offset)
            y = at_offset(torch.randn(n, device="cuda"), offset)
            ref = (2.5 * x.double() + y.double()).float()
            lib.saxpy(2.5, x, y)
            torch.cuda.synchronize()
            check("saxpy torch n=%d offset=%d" % (n, offset),
                  torch.allclose(y, ref, rtol=1e-6, atol=1e-6))
    x = numpy.random.rand(5000).astype(numpy.float32)
    y = numpy.random.rand(5000).astype(numpy.float32)
    ref = 0.5 * x.astype(numpy.float64) + y
    lib.saxpy(0.5, x, y)
    check("saxpy numpy", numpy.allclose(y, ref, rtol=1e-6))
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        x = torch.ones(1 << 20, device="cuda")
        y = torch.zeros(1 << 20, device="cuda")
        lib.saxpy(3.0, x, y)
        z = y * 2
    side.synchronize()
    check("saxpy side stream", bool((z == 6).all()))
    x = torch.ones(10, device="cuda")
    expect("saxpy wrong dtype", TypeError,
           lambda: lib.saxpy(1.0, x.double(), x.double()))
    expect("saxpy sizes differ", ValueError,
           lambda: lib.saxpy(1.0, x, torch.ones(11, device="cuda")))


def half_checks(tm, path):
    """16-bit float scalars (test/CAPI/Inputs/half_scalars.mlir): x = alpha
    x + beta with alpha an f16 and beta a bf16, passed as their bits."""
    lib = tm.load(path)
    print(lib, flush=True)
    x = torch.randn(1000, device="cuda", dtype=torch.float16)
    ref = (x.float() * 1.5 + 0.25).half()
    lib.scale(x, 1.5, 0.25)
    torch.cuda.synchronize()
    check("f16/bf16 scalars", torch.allclose(x.float(), ref.float(),
                                             rtol=2e-3, atol=2e-3))


def gemm_checks(tm, path, dtype):
    lib = tm.load(path)
    print(lib, flush=True)
    tdt = {"f16": torch.float16, "bf16": torch.bfloat16}[dtype]
    for (m, n, k) in ((1, 1, 1), (3, 5, 7), (1000, 1000, 1000),
                      (4095, 4097, 1023), (128, 128, 64)):
        for offset in (0, 1, 8):
            a = at_offset(torch.randn(m, k, device="cuda").to(tdt), offset)
            b = at_offset(torch.randn(k, n, device="cuda").to(tdt), offset)
            c = at_offset(torch.full((m, n), float("nan"), device="cuda",
                                     dtype=tdt), offset)
            lib.gemm(a, b, c)
            ref = a.double() @ b.double()
            ours = (c.double() - ref).norm() / max(ref.norm(), 1e-30)
            theirs = ((a @ b).double() - ref).norm() / max(ref.norm(), 1e-30)
            ok = bool(torch.isfinite(c).all()) and \
                float(ours) <= 2 * float(theirs) + 1e-6
            check("gemm %dx%dx%d offset=%d" % (m, n, k, offset), ok,
                  "(error %.3g, cuBLAS %.3g)" % (ours, theirs))
    a = torch.randn(64, 32, device="cuda").to(tdt)
    expect("gemm K mismatch", ValueError,
           lambda: lib.gemm(a, torch.randn(33, 64, device="cuda").to(tdt),
                            torch.empty(64, 64, device="cuda", dtype=tdt)))
    lib.synchronize()
    # Speed against cuBLAS, alternating.
    for size in (4096, 8192):
        a = torch.randn(size, size, device="cuda").to(tdt)
        b = torch.randn(size, size, device="cuda").to(tdt)
        c = torch.empty(size, size, device="cuda", dtype=tdt)
        iters = 20 if size == 4096 else 5
        ours, theirs = [], []
        for _ in range(3):
            lib.gemm(a, b, c)
            torch.mm(a, b)
        for _ in range(5):
            ours.append(time_ms(lambda: lib.gemm(a, b, c), iters))
            theirs.append(time_ms(lambda: torch.mm(a, b, out=c), iters))
        t, r = statistics.median(ours), statistics.median(theirs)
        flops = 2.0 * size ** 3
        print("speed gemm %s %d^3: package %.3f ms (%.0f TFLOP/s), cuBLAS "
              "%.3f ms (%.0f TFLOP/s), ratio %.3f" % (
                  dtype, size, t, flops / t / 1e9, r, flops / r / 1e9, r / t),
              flush=True)
    # Call overhead: the package against a raw ctypes call (the C path).
    a = torch.randn(1, 1, device="cuda").to(tdt)
    c = torch.empty(1, 1, device="cuda", dtype=tdt)
    from tile_mlir._args import descriptor_type
    raw = ctypes.CDLL(lib.path).gemm
    desc = descriptor_type(2)
    raw.argtypes = [ctypes.POINTER(desc)] * 3
    raw.restype = None
    descs = []
    for t in (a, a, c):
        d = desc()
        d.allocated = d.aligned = t.data_ptr()
        d.sizes[0], d.sizes[1] = t.shape
        d.strides[0], d.strides[1] = t.stride()
        descs.append(d)
    refs = [ctypes.byref(d) for d in descs]
    for name, run in (("package", lambda: lib.gemm(a, a, c)),
                      ("raw ctypes", lambda: raw(*refs))):
        for _ in range(100):
            run()
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(2000):
            run()
        torch.cuda.synchronize()
        print("overhead %s: %.1f us per call (1x1x1 GEMM, host time)"
              % (name, (time.perf_counter() - start) / 2000 * 1e6),
              flush=True)


def fa_checks(tm, path):
    lib = tm.load(path)
    print(lib, flush=True)
    name = next(iter(lib.functions))
    fn = lib.functions[name]
    causal = "causal" in name
    b, h, s, d = 4, 16, 1000, 128
    for offset in (0, 8):
        q, k, v = (at_offset(torch.randn(b * h, s, d, device="cuda",
                                         dtype=torch.float16), offset)
                   for _ in range(3))
        o = at_offset(torch.full((b * h, s, d), float("nan"), device="cuda",
                                 dtype=torch.float16), offset)
        fn(q, k, v, o)
        ref = torch.nn.functional.scaled_dot_product_attention(
            q.float(), k.float(), v.float(), is_causal=causal)
        low = torch.nn.functional.scaled_dot_product_attention(
            q, k, v, is_causal=causal)
        ours = (o.float() - ref).norm() / ref.norm()
        theirs = (low.float() - ref).norm() / ref.norm()
        check("%s S=%d offset=%d" % (name, s, offset),
              bool(torch.isfinite(o).all()) and
              float(ours) <= 2 * float(theirs) + 1e-6,
              "(error %.3g, SDPA %.3g)" % (ours, theirs))
    s = 4096
    q, k, v, o = (torch.randn(b * h, s, d, device="cuda", dtype=torch.float16)
                  for _ in range(4))
    q4, k4, v4 = (x.view(b, h, s, d) for x in (q, k, v))
    from torch.nn.attention import SDPBackend, sdpa_kernel
    ours, theirs = [], []
    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
        for _ in range(3):
            fn(q, k, v, o)
            torch.nn.functional.scaled_dot_product_attention(
                q4, k4, v4, is_causal=causal)
        for _ in range(5):
            ours.append(time_ms(lambda: fn(q, k, v, o), 10))
            theirs.append(time_ms(
                lambda: torch.nn.functional.scaled_dot_product_attention(
                    q4, k4, v4, is_causal=causal), 10))
    t, r = statistics.median(ours), statistics.median(theirs)
    flops = 4.0 * b * h * s * s * d / (2 if causal else 1)
    print("speed %s B4 H16 S4096 D128 f16: package %.3f ms (%.0f TFLOP/s), "
          "cuDNN %.3f ms (%.0f TFLOP/s), ratio %.3f" % (
              name, t, flops / t / 1e9, r, flops / r / 1e9, r / t),
          flush=True)


def softmax_checks(tm, path, speed):
    lib = tm.load(path)
    print(lib, flush=True)
    for (r, n) in ((1, 1), (5, 7), (3, 1024), (1000, 513), (4097, 1000),
                   (64, 100)):
        for offset in (0, 1, 8):
            # Scaled so that exp() of unshifted values would overflow.
            x = at_offset((torch.randn(r, n, device="cuda") * 20).half(),
                          offset)
            y = at_offset(torch.full((r, n), float("nan"), device="cuda",
                                     dtype=torch.float16), offset)
            lib.softmax(x, y)
            ref = torch.softmax(x.double(), dim=1)
            ours = (y.double() - ref).norm() / ref.norm()
            theirs = (torch.softmax(x.float(), dim=1).half().double()
                      - ref).norm() / ref.norm()
            check("softmax %dx%d offset=%d" % (r, n, offset),
                  bool(torch.isfinite(y).all()) and
                  float(ours) <= 2 * float(theirs) + 1e-6,
                  "(error %.3g, torch %.3g)" % (ours, theirs))
    x = torch.randn(4, 1025, device="cuda", dtype=torch.float16)
    expect("softmax N past its bound", ValueError,
           lambda: lib.softmax(x, torch.empty_like(x)))
    lib.synchronize()
    if not speed:
        return
    x = torch.randn(16384, 1024, device="cuda", dtype=torch.float16)
    y = torch.empty_like(x)
    ours, theirs = [], []
    for _ in range(3):
        lib.softmax(x, y)
        torch.softmax(x, dim=1)
    for _ in range(5):
        ours.append(time_ms(lambda: lib.softmax(x, y), 20))
        theirs.append(time_ms(lambda: torch.softmax(x, dim=1, out=y), 20))
    t, r = statistics.median(ours), statistics.median(theirs)
    gbs = 2.0 * x.numel() * 2 / 1e6
    print("speed softmax 16384x1024 f16: package %.4f ms (%.0f GB/s), torch "
          "%.4f ms (%.0f GB/s), ratio %.3f" % (t, gbs / t, r, gbs / r, r / t),
          flush=True)


def pad_copy_checks(tm, path):
    lib = tm.load(path)
    print(lib, flush=True)
    for (r, c) in ((1, 1), (5, 7), (64, 64), (100, 130), (1000, 1000)):
        for offset in (0, 1, 8):
            x = at_offset(torch.randn(r, c, device="cuda").half(), offset)
            rt, ct = -(-r // 64) * 64, -(-c // 64) * 64
            y = at_offset(torch.full((rt, ct), float("nan"), device="cuda",
                                     dtype=torch.float16), offset)
            lib.pad_copy(x, y)
            ref = torch.full((rt, ct), 7.0, device="cuda",
                             dtype=torch.float16)
            ref[:r, :c] = x
            check("pad_copy %dx%d offset=%d" % (r, c, offset),
                  bool(torch.equal(y, ref)))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--package", required=True)
    p.add_argument("--saxpy")
    p.add_argument("--gemm")
    p.add_argument("--gemm-dtype", default="f16")
    p.add_argument("--fa")
    p.add_argument("--half")
    p.add_argument("--softmax")
    p.add_argument("--pad-copy")
    p.add_argument("--no-speed", action="store_true")
    args = p.parse_args()
    sys.path.insert(0, args.package)
    import tile_mlir as tm
    torch.manual_seed(0)
    numpy.random.seed(0)
    if args.saxpy:
        saxpy_checks(tm, args.saxpy)
    if args.half:
        half_checks(tm, args.half)
    if args.gemm:
        gemm_checks(tm, args.gemm, args.gemm_dtype)
    if args.fa:
        fa_checks(tm, args.fa)
    if args.softmax:
        softmax_checks(tm, args.softmax, not args.no_speed)
    if args.pad_copy:
        pad_copy_checks(tm, args.pad_copy)
    print("python-gpu: %d of %d checks passed" % (sum(results), len(results)))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
