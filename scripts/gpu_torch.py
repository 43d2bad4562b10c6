"""What the torch harnesses on the GPU machine share (scripts/fa-sdpa.py,
scripts/gemm-torch.py, scripts/fp8-torch.py): views at odd offsets,
CUDA-event timing (one call against another), and calls of a compiled
library's functions on tensors (memref descriptors by pointer, errors
through the tile runtime)."""
import ctypes
import statistics

import torch


def at_offset(t, offset):
    """`t` copied into a view `offset` elements into a larger allocation."""
    if offset == 0:
        return t
    buf = torch.empty(t.numel() + offset, device=t.device, dtype=t.dtype)
    view = buf[offset:].view(t.shape)
    view.copy_(t)
    return view


def time_ms(run, iters):
    """Milliseconds per call of `run`, over `iters` back-to-back calls
    between two CUDA events."""
    start, end = (torch.cuda.Event(enable_timing=True) for _ in range(2))
    start.record()
    for _ in range(iters):
        run()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / iters



def time_pair(mine, theirs, runs, target_ms):
    """Median milliseconds per call of `mine` and of `theirs`, alternating
    over `runs` timed runs of enough back-to-back calls (about `target_ms`
    of `theirs`) that launches do not decide it, after a warmup."""
    for run in (mine, theirs):
        for _ in range(3):
            run()
    torch.cuda.synchronize()
    once = time_ms(theirs, 3)
    iters = max(10, min(2000, int(target_ms / max(once, 1e-3))))
    ours, ref = [], []
    for _ in range(runs):
        ours.append(time_ms(mine, iters))
        ref.append(time_ms(theirs, iters))
    return statistics.median(ours), statistics.median(ref)

def memref_type(rank):
    class Memref(ctypes.Structure):
        _fields_ = [("allocated", ctypes.c_void_p),
                    ("aligned", ctypes.c_void_p), ("offset", ctypes.c_int64),
                    ("sizes", ctypes.c_int64 * rank),
                    ("strides", ctypes.c_int64 * rank)]
    return Memref


MEMREFS = {rank: memref_type(rank) for rank in (1, 2, 3)}


def describe(t):
    m = MEMREFS[t.dim()]()
    m.allocated = m.aligned = t.data_ptr()
    m.offset = 0
    for i in range(t.dim()):
        m.sizes[i] = t.shape[i]
        m.strides[i] = t.stride(i)
    return m


class Library:
    def __init__(self, path, function):
        self.lib = ctypes.CDLL(path)
        self.fn = getattr(self.lib, function)
        self.fn.restype = None
        self.rt = ctypes.CDLL("libtile_cuda_runtime.so")
        self.rt.tileRtGetError.restype = ctypes.c_int
        self.rt.tileRtGetErrorMessage.restype = ctypes.c_char_p

    def __call__(self, *tensors):
        self.bind(*tensors)()

    def bind(self, *tensors):
        """A call of the function on `tensors` with its descriptors built
        once (what a timed loop repeats)."""
        descs = [describe(t) for t in tensors]
        refs = [ctypes.byref(d) for d in descs]
        fn, rt = self.fn, self.rt

        def call():
            fn(*refs)
            if rt.tileRtGetError() != 0:
                raise RuntimeError("tile runtime: " +
                                   rt.tileRtGetErrorMessage().decode())
        call.keep = descs
        return call
