"""What the torch harnesses on the GPU machine share (scripts/fa-sdpa.py,
scripts/gemm-torch.py): views at odd offsets and CUDA-event timing."""
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
