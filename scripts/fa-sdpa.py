#!/usr/bin/env python3
"""FlashAttention forward of a compiled tile-mlir library against torch's
scaled_dot_product_attention (cuDNN), in one process on the GPU machine.

The library is examples/flash_attention.mlir (or a variant) compiled with
tile-compile; its host function flash_attention_fwd(Q, K, V, O) takes
[B*H, S, D] f16 memref descriptors (tile_memref_3d) and launches on the
legacy default stream, which torch's events also time. Run with the tile
runtime on the library path:

  LD_LIBRARY_PATH=build-gpu python3 scripts/fa-sdpa.py --library=LIB \
      [--check] [--bench] [--shapes=B:H:S,...]

--check: fresh random Q, K, V (standard normal) per shape (views --offset
elements into their allocations), O poisoned with NaN; O against an fp32 reference (SDPA on fp32 inputs), next to the f16
SDPA (cuDNN) result's own error against the same reference; passes when
every element was written and ||O - ref|| / ||ref|| is at most twice
SDPA's. --bench: median of 5 timed runs of N calls each (CUDA events),
tile-mlir and cuDNN SDPA alternating, TFLOP/s with 4 B H S^2 D FLOPs.
"""
import argparse
import ctypes
import statistics
import sys

import torch
import torch.nn.functional as F

D = 128


class Memref3(ctypes.Structure):
    _fields_ = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p),
                ("offset", ctypes.c_int64), ("sizes", ctypes.c_int64 * 3),
                ("strides", ctypes.c_int64 * 3)]


def describe(t):
    """The memref descriptor of a [BH, S, D] tensor (a view at any offset:
    the data pointer is the view's, the offset field 0)."""
    m = Memref3()
    m.allocated = m.aligned = t.data_ptr()
    m.offset = 0
    for i in range(3):
        m.sizes[i] = t.shape[i]
        m.strides[i] = t.stride(i)
    return m


def load(path):
    lib = ctypes.CDLL(path)
    fn = lib.flash_attention_fwd
    fn.argtypes = [ctypes.POINTER(Memref3)] * 4
    fn.restype = None
    rt = ctypes.CDLL("libtile_cuda_runtime.so")
    rt.tileRtGetError.restype = ctypes.c_int
    rt.tileRtGetErrorMessage.restype = ctypes.c_char_p
    return fn, rt


def call(fn, rt, q, k, v, o):
    """Calls the library on [B, H, S, D] tensors viewed as [B*H, S, D]."""
    b, h, s, d = q.shape
    args = [describe(x.reshape(b * h, s, d)) for x in (q, k, v, o)]
    fn(*[ctypes.byref(a) for a in args])
    status = rt.tileRtGetError()
    if status != 0:
        raise RuntimeError("tile runtime: " +
                           rt.tileRtGetErrorMessage().decode())


def sdpa_cudnn(q, k, v):
    from torch.nn.attention import SDPBackend, sdpa_kernel
    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
        return F.scaled_dot_product_attention(q, k, v)


def sdpa_f16(q, k, v):
    """SDPA's own f16 result for the error comparison: cuDNN where it takes
    the problem (aligned, S > 1), else torch's default choice."""
    try:
        if q.data_ptr() % 16 == 0:
            return sdpa_cudnn(q, k, v)
    except RuntimeError:
        pass
    return F.scaled_dot_product_attention(q.contiguous(), k.contiguous(),
                                          v.contiguous())


def at_offset(t, offset):
    """`t` copied into a view `offset` elements into a larger allocation."""
    if offset == 0:
        return t
    buf = torch.empty(t.numel() + offset, device=t.device, dtype=t.dtype)
    view = buf[offset:].view(t.shape)
    view.copy_(t)
    return view


def check(fn, rt, shapes, seed, offset):
    torch.manual_seed(seed)
    ok = True
    for b, h, s in shapes:
        q, k, v = (at_offset(torch.randn(b, h, s, D, device="cuda",
                                         dtype=torch.float16), offset)
                   for _ in range(3))
        o = at_offset(torch.full_like(q, float("nan")), offset)
        call(fn, rt, q, k, v, o)
        torch.cuda.synchronize()
        ref = F.scaled_dot_product_attention(q.float(), k.float(), v.float())
        mine = o.float()
        theirs = sdpa_f16(q, k, v).float()
        unwritten = int(torch.isnan(mine).sum())
        err = float((mine - ref).norm() / ref.norm())
        sdpa_err = float((theirs - ref).norm() / ref.norm())
        passed = unwritten == 0 and err <= 2 * sdpa_err + 1e-6
        ok &= passed
        print(f"check B={b} H={h} S={s} D={D} f16 offset {offset}: "
              f"unwritten {unwritten}, "
              f"||O-ref||/||ref|| {err:.2e} (SDPA f16 {sdpa_err:.2e}): "
              f"{'PASS' if passed else 'FAIL'}", flush=True)
    return ok


def time_ms(run, iters):
    start, end = (torch.cuda.Event(enable_timing=True) for _ in range(2))
    start.record()
    for _ in range(iters):
        run()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / iters


def bench(fn, rt, shapes, iters, offset):
    print(f"| B H S (D=128, f16, non-causal, offset {offset}) | tile-mlir "
          "TFLOP/s | cuDNN TFLOP/s | ratio | tile-mlir ms | cuDNN ms |")
    for b, h, s in shapes:
        q, k, v = (at_offset(torch.randn(b, h, s, D, device="cuda",
                                         dtype=torch.float16), offset)
                   for _ in range(3))
        o = at_offset(torch.empty_like(q), offset)
        mine = lambda: call(fn, rt, q, k, v, o)
        theirs = lambda: sdpa_cudnn(q, k, v)
        for run in (mine, theirs):
            for _ in range(5):
                run()
        torch.cuda.synchronize()
        ours, cudnn = [], []
        for _ in range(5):
            ours.append(time_ms(mine, iters))
            cudnn.append(time_ms(theirs, iters))
        ours, cudnn = statistics.median(ours), statistics.median(cudnn)
        flops = 4.0 * b * h * s * s * D
        print(f"| {b} {h} {s} | {flops / ours / 1e9:.1f} | "
              f"{flops / cudnn / 1e9:.1f} | {cudnn / ours:.2f} | {ours:.4f} | "
              f"{cudnn:.4f} |", flush=True)


def parse_shapes(text):
    return [tuple(int(x) for x in item.split(":")) for item in text.split(",")]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--library", required=True)
    p.add_argument("--check", action="store_true")
    p.add_argument("--bench", action="store_true")
    p.add_argument("--check-shapes",
                   default="1:2:1,1:2:129,2:3:1000,1:2:4096")
    p.add_argument("--shapes", default="4:16:4096,4:16:1024")
    p.add_argument("--iters", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--offset", type=int, default=0,
                   help="views this many elements into their allocations")
    args = p.parse_args()
    fn, rt = load(args.library)
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}"
          f", library {args.library}")
    ok = True
    if args.check:
        ok = check(fn, rt, parse_shapes(args.check_shapes), args.seed,
                   args.offset)
    if args.bench:
        bench(fn, rt, parse_shapes(args.shapes), args.iters, args.offset)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
