"""Session 17: the two-chip library (tile-compile --chip sm_80,sm_90a) on
the H100 through the Python package: it must take the sm_90a image; a
library of sm_80 and sm_86 images must refuse the device."""
import os, statistics, sys
import torch
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tile_mlir as tm
from gpu_torch import at_offset, time_ms
ok = []
lib = tm.load("py/libgemm2.so")
one = tm.load("aot/f16/libgemm.so")
print(lib)
torch.manual_seed(0)
for (m, n, k) in ((1, 1, 1), (1000, 1000, 1000), (4095, 4097, 1023)):
    for off in (0, 1):
        a = at_offset(torch.randn(m, k, device="cuda").half(), off)
        b = at_offset(torch.randn(k, n, device="cuda").half(), off)
        c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.half)
        lib.gemm(a, b, c)
        ref = a.double() @ b.double()
        err = float((c.double() - ref).norm() / max(ref.norm(), 1e-30))
        cub = float(((a @ b).double() - ref).norm() / max(ref.norm(), 1e-30))
        good = bool(torch.isfinite(c).all()) and err <= 2 * cub + 1e-6
        ok.append(good)
        print("%s two-chip gemm %dx%dx%d offset %d: error %.3g (cuBLAS %.3g)"
              % ("PASS" if good else "FAIL", m, n, k, off, err, cub))
a = torch.randn(4096, 4096, device="cuda").half()
b = torch.randn(4096, 4096, device="cuda").half()
c = torch.empty(4096, 4096, device="cuda", dtype=torch.half)
for f in (lib.gemm, one.gemm):
    f(a, b, c)
t2, t1 = [], []
for _ in range(5):
    t2.append(time_ms(lambda: lib.gemm(a, b, c), 20))
    t1.append(time_ms(lambda: one.gemm(a, b, c), 20))
print("speed 4096^3 f16: two-chip library %.3f ms, sm_90a library %.3f ms"
      % (statistics.median(t2), statistics.median(t1)))
lib8 = tm.load("py/libgemm8x.so")
try:
    lib8.gemm(a, b, c)
    print("FAIL sm_80,sm_86 library ran on the H100")
    ok.append(False)
except tm.TileError as e:
    print("PASS sm_80,sm_86 library refuses the H100: TileError %d: %s" % (e.code, e))
    ok.append(True)
print("multichip: %d of %d checks passed" % (sum(ok), len(ok)))
