#!/usr/bin/env python3
"""FlashAttention forward of a compiled tile-mlir library against torch's
scaled_dot_product_attention (cuDNN), in one process on the GPU machine.

The library is examples/flash_attention.mlir, the causal
examples/flash_attention_causal.mlir (--causal) or a variant of either
(scripts/fa-variant.py: --dtype, --head-dim) compiled with tile-compile;
its host function flash_attention_fwd(Q, K, V, O) (causal:
flash_attention_causal_fwd) takes [B*H, S, D] memref descriptors
(tile_memref_3d) and launches on the legacy default stream, which torch's
events also time. Run with the tile runtime on the library path:

  LD_LIBRARY_PATH=build-gpu python3 scripts/fa-sdpa.py --library=LIB \
      [--causal] [--dtype=f16|bf16] [--head-dim=64|128|256] \
      [--check] [--bench] [--shapes=B:H:S,...] \
      [--function=NAME --kv-group=G]

--kv-group G (grouped-query attention, examples/flash_attention_gqa.mlir
with --function flash_attention_gqa_fwd): K and V have H / G heads, the
references are SDPA with enable_gqa.

--causal, --dtype and --head-dim must be the library's: the head dimension
is static in the library's types (a call with another one fails with an
argument error naming the dimension). They default to what the header
tile-compile wrote next to the library (flash_attention.h, as in the
bundle's aot-fa/<variant>/) says, and an option that disagrees with it is
an error; without a header: non-causal, f16, 128.

--check: fresh random Q, K, V (standard normal) per shape (views --offset
elements into their allocations), O poisoned with NaN; O against an fp32
reference (SDPA on fp32 inputs, is_causal with --causal), next to the
f16/bf16 SDPA (cuDNN where it takes the problem: not S = 1) result's own
error against the same reference; passes when every element was written
and ||O - ref|| / ||ref|| is at most twice SDPA's. --bench: median of 5
timed runs of N calls each (CUDA events), tile-mlir and cuDNN SDPA
(is_causal with --causal) alternating, TFLOP/s with 4 B H S^2 D FLOPs
(half that causal). The last line says how many checks passed.
"""
import argparse
import ctypes
import os
import re
import statistics
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpu_torch import at_offset, time_ms  # noqa: E402

DTYPES = {"f16": torch.float16, "bf16": torch.bfloat16}



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


def from_header(library):
    """(causal, dtype, head dim) from flash_attention.h beside the library,
    or None."""
    header = os.path.join(os.path.dirname(os.path.abspath(library)),
                          "flash_attention.h")
    if not os.path.exists(header):
        return None
    text = open(header).read()
    types = set(re.findall(r"memref<\?x\?x(\d+)x(bf16|f16)>", text))
    names = set(re.findall(r"^void (flash_attention\w*)\(", text, re.M))
    if len(types) != 1 or len(names) != 1:
        sys.exit(f"fa-sdpa.py: error: {header} declares no single "
                 "flash_attention function of [BH, S, D] tensors")
    (d, dtype), = types
    name, = names
    return name == "flash_attention_causal_fwd", dtype, int(d)


def library_problem(args):
    """Fills in --causal, --dtype and --head-dim from the header, and checks
    the given ones against it."""
    found = from_header(args.library)
    if found is None:
        args.causal = bool(args.causal)
        args.dtype = args.dtype or "f16"
        args.head_dim = args.head_dim or 128
        print("fa-sdpa: no flash_attention.h beside the library: assuming "
              f"{describe_problem(args)}", flush=True)
        return
    for name, value in zip(("causal", "dtype", "head_dim"), found):
        given = getattr(args, name)
        if given is not None and given != value:
            sys.exit(f"fa-sdpa.py: error: --{name.replace('_', '-')} "
                     f"{given} but the library's header says {value}")
        setattr(args, name, value)


def load(path, causal, function=None):
    lib = ctypes.CDLL(path)
    fn = getattr(lib, function or ("flash_attention_causal_fwd" if causal
                                   else "flash_attention_fwd"))
    fn.argtypes = [ctypes.POINTER(Memref3)] * 4
    fn.restype = None
    rt = ctypes.CDLL("libtile_cuda_runtime.so")
    rt.tileRtGetError.restype = ctypes.c_int
    rt.tileRtGetErrorMessage.restype = ctypes.c_char_p
    return fn, rt


def call(fn, rt, q, k, v, o):
    """Calls the library on [B, H, S, D] tensors viewed as [B*H, S, D] (K
    and V may have fewer heads: grouped-query attention)."""
    args = [describe(x.reshape(x.shape[0] * x.shape[1], x.shape[2],
                               x.shape[3])) for x in (q, k, v, o)]
    fn(*[ctypes.byref(a) for a in args])
    status = rt.tileRtGetError()
    if status != 0:
        raise RuntimeError("tile runtime: " +
                           rt.tileRtGetErrorMessage().decode())


def sdpa(q, k, v, causal, **kw):
    """SDPA; with fewer key/value heads than query heads, grouped-query
    attention (enable_gqa)."""
    if k.shape[1] != q.shape[1]:
        kw["enable_gqa"] = True
    return F.scaled_dot_product_attention(q, k, v, is_causal=causal, **kw)


def sdpa_cudnn(q, k, v, causal):
    from torch.nn.attention import SDPBackend, sdpa_kernel
    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
        return sdpa(q, k, v, causal)


def sdpa_low(q, k, v, causal):
    """SDPA's own f16/bf16 result for the error comparison: cuDNN where it
    takes the problem (aligned, S > 1), else torch's default choice."""
    try:
        if q.data_ptr() % 16 == 0:
            return sdpa_cudnn(q, k, v, causal)
    except RuntimeError:
        pass
    # Copies, not .contiguous(): a view at an odd offset is contiguous but
    # misaligned, which torch's other SDPA kernels fault on.
    return sdpa(q.clone(), k.clone(), v.clone(), causal)


def describe_problem(args):
    return (f"D={args.head_dim} {args.dtype} "
            f"{'causal' if args.causal else 'non-causal'}")


def check(fn, rt, shapes, args, offset):
    """(checks passed, checks run) at one offset."""
    dtype, d = DTYPES[args.dtype], args.head_dim
    passed_count = 0
    for b, h, s in shapes:
        q, k, v = (at_offset(torch.randn(b, h // (i and args.kv_group or 1), s,
                                         d, device="cuda", dtype=dtype),
                             offset)
                   for i in range(3))
        o = at_offset(torch.full_like(q, float("nan")), offset)
        call(fn, rt, q, k, v, o)
        torch.cuda.synchronize()
        ref = sdpa(q.float(), k.float(), v.float(), args.causal)
        mine = o.float()
        theirs = sdpa_low(q, k, v, args.causal).float()
        unwritten = int(torch.isnan(mine).sum())
        err = float((mine - ref).norm() / ref.norm())
        sdpa_err = float((theirs - ref).norm() / ref.norm())
        passed = unwritten == 0 and err <= 2 * sdpa_err + 1e-6
        passed_count += passed
        print(f"check B={b} H={h} S={s} {describe_problem(args)} offset "
              f"{offset}: unwritten {unwritten}, ||O-ref||/||ref|| "
              f"{err:.2e} (SDPA {args.dtype} {sdpa_err:.2e}): "
              f"{'PASS' if passed else 'FAIL'}", flush=True)
    return passed_count, len(shapes)


def bench(fn, rt, shapes, args):
    dtype, d, offset = DTYPES[args.dtype], args.head_dim, args.offsets[0]
    iters = args.iters
    print(f"| B H S ({describe_problem(args)}, offset {offset}) | tile-mlir "
          "TFLOP/s | cuDNN TFLOP/s | ratio | tile-mlir ms | cuDNN ms |")
    for b, h, s in shapes:
        q, k, v = (at_offset(torch.randn(b, h // (i and args.kv_group or 1), s,
                                         d, device="cuda", dtype=dtype),
                             offset)
                   for i in range(3))
        o = at_offset(torch.empty_like(q), offset)
        mine = lambda: call(fn, rt, q, k, v, o)
        theirs = lambda: sdpa_cudnn(q, k, v, args.causal)
        try:
            theirs()
        except RuntimeError:
            # cuDNN refuses the problem (GQA on some versions): torch's
            # own choice of SDPA kernel.
            theirs = lambda: sdpa(q, k, v, args.causal)
            print("(SDPA reference: torch's default backend, cuDNN refused)",
                  flush=True)
        for run in (mine, theirs):
            for _ in range(5):
                run()
        torch.cuda.synchronize()
        ours, cudnn = [], []
        for _ in range(5):
            ours.append(time_ms(mine, iters))
            cudnn.append(time_ms(theirs, iters))
        ours, cudnn = statistics.median(ours), statistics.median(cudnn)
        flops = 4.0 * b * h * s * s * d / (2 if args.causal else 1)
        print(f"| {b} {h} {s} | {flops / ours / 1e9:.1f} | "
              f"{flops / cudnn / 1e9:.1f} | {cudnn / ours:.2f} | {ours:.4f} | "
              f"{cudnn:.4f} |", flush=True)


def parse_shapes(text):
    return [tuple(int(x) for x in item.split(":")) for item in text.split(",")]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--library", required=True)
    p.add_argument("--causal", action="store_const", const=True,
                   help="the library is the causal example (or a variant)")
    p.add_argument("--dtype", choices=sorted(DTYPES))
    p.add_argument("--head-dim", type=int, choices=[64, 128, 256])
    p.add_argument("--check", action="store_true")
    p.add_argument("--bench", action="store_true")
    p.add_argument("--check-shapes",
                   default="1:2:1,1:2:129,2:3:1000,1:2:4096")
    p.add_argument("--shapes", default="4:16:4096,4:16:1024")
    p.add_argument("--iters", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--function", default=None,
                   help="the host function (default: the example's)")
    p.add_argument("--kv-group", type=int, default=1,
                   help="query heads per key/value head (grouped-query "
                   "attention: K and V get H / G heads)")
    p.add_argument("--offset", default="0",
                   help="views this many elements into their allocations; "
                   "a list (0,8,1) repeats the checks at each, the "
                   "benchmark uses the first")
    args = p.parse_args()
    try:
        args.offsets = [int(x) for x in args.offset.split(",")]
    except ValueError:
        p.error(f"bad --offset '{args.offset}'")
    if any(x < 0 for x in args.offsets):
        p.error("--offset must be non-negative")
    library_problem(args)
    fn, rt = load(args.library, args.causal, args.function)
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}"
          f", library {args.library} ({describe_problem(args)})")
    passed, run = 0, 0
    if args.check:
        torch.manual_seed(args.seed)
        for offset in args.offsets:
            ok, n = check(fn, rt, parse_shapes(args.check_shapes), args,
                          offset)
            passed, run = passed + ok, run + n
        print(f"fa-sdpa: {passed} of {run} checks pass "
              f"({describe_problem(args)}, offsets {args.offset})")
    if args.bench:
        bench(fn, rt, parse_shapes(args.shapes), args)
    return 0 if passed == run else 1


if __name__ == "__main__":
    sys.exit(main())
