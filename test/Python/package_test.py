"""Driven by package.test: the tile_mlir package without (or with) a GPU."""

import json
import os
import sys

import numpy

import tile_mlir

out = sys.argv[1]
repo = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
gpu = os.path.exists("/dev/nvidia0")


def expect(exception_type, call):
    try:
        call()
    except exception_type as e:
        print("%s: %s" % (type(e).__name__, e))
    else:
        print("no %s" % exception_type.__name__)


print("version", tile_mlir.version())
lib = tile_mlir.compile(os.path.join(repo, "examples", "tutorial",
                                     "saxpy.mlir"),
                        work_dir=os.path.join(out, "saxpy"))
print(repr(lib).replace(out, "OUT"))
print("table", json.dumps(lib.signatures["functions"][0], sort_keys=False))

x = numpy.arange(1000, dtype=numpy.float32)
y = numpy.ones(1000, dtype=numpy.float32)
expect(TypeError, lambda: lib.saxpy(2.0, x))
expect(TypeError, lambda: lib.saxpy(2.0, x.astype(numpy.float64), y))
expect(TypeError, lambda: lib.saxpy(2.0, x, y.reshape(10, 100)))
expect(TypeError, lambda: lib.saxpy("two", x, y))
expect(TypeError, lambda: lib.saxpy(2.0, [1.0], y))


class Producer:
    """Any object with __dlpack__ (here over a NumPy array)."""

    def __init__(self, array):
        self.array = array

    def __dlpack__(self, stream=None):
        return self.array.__dlpack__()

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


expect(TypeError, lambda: lib.saxpy(2.0, Producer(x.astype(numpy.int32)), y))

expected = 2 * x + y
try:
    lib.saxpy(2.0, x, y)
    assert numpy.array_equal(y, expected), "wrong result"
    print("call ok: y = 2 x + y")
except tile_mlir.TileError as e:
    assert not gpu, e
    print("call TileError %d: %s" % (e.code, e))

y2 = numpy.ones(1000, dtype=numpy.float32)
try:
    lib.saxpy(2.0, Producer(x), y2)
    assert numpy.array_equal(y2, expected), "wrong result"
    print("dlpack call ok")
except tile_mlir.TileError as e:
    assert not gpu, e
    print("dlpack call TileError %d: %s" % (e.code, e))

text = """
func.func @scale(%x: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  tile.kernel @scale_kernel blocks(%b) in [%c1] threads(128) {
    %t = tile.alloc : memref<128xf32, #tile.mem<fragment>>
    tile.copy %x[%b], %t : memref<?xf32> to memref<128xf32, #tile.mem<fragment>>
    tile.copy %t, %x[%b] : memref<128xf32, #tile.mem<fragment>> to memref<?xf32>
  }
  return
}
"""
lib2 = tile_mlir.compile(text, work_dir=os.path.join(out, "text"))
print("text module:", repr(lib2).replace(out, "OUT"))

# A bound in tile.shape: the package checks it before the call, the
# compiled host code at the call (here called without the package).
text3 = text.replace("@scale(%x: memref<?xf32>)",
                     '@clip(%x: memref<?xf32> {tile.shape = ["N<=4096"]})')
lib3 = tile_mlir.compile(text3, work_dir=os.path.join(out, "bounded"))
print("bounded:", lib3.clip.signature,
      json.dumps(lib3.signatures["functions"][0]["args"][0]["bounds"]))
expect(ValueError, lambda: lib3.clip(numpy.zeros(5000, numpy.float32)))
import ctypes  # noqa: E402
from tile_mlir._args import descriptor_of  # noqa: E402
raw = ctypes.CDLL(lib3.path)
raw.clip.argtypes = [ctypes.c_void_p]
data = numpy.zeros(5000, numpy.float32)
desc = descriptor_of(data.ctypes.data, (5000,), (1,))
raw.clip(ctypes.addressof(desc))
raw.tileRtGetErrorMessage.restype = ctypes.c_char_p
print("host check:", raw.tileRtGetErrorMessage().decode())

# A derived size ("ceil(N/128)", as FP8 block scales have): checked by the
# package before the call and by the host code at the call.
text4 = text.replace("@scale(%x: memref<?xf32>)",
                     '@blocks(%x: memref<?xf32> {tile.shape = ["N"]}, '
                     '%s: memref<?xf32> {tile.shape = ["ceil(N/128)"]})')
lib4 = tile_mlir.compile(text4, work_dir=os.path.join(out, "derived"))
print("derived:", lib4.blocks.signature)
expect(ValueError, lambda: lib4.blocks(numpy.zeros(300, numpy.float32),
                                       numpy.zeros(2, numpy.float32)))
raw4 = ctypes.CDLL(lib4.path)
raw4.blocks.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
raw4.tileRtGetErrorMessage.restype = ctypes.c_char_p
xs, ss = numpy.zeros(300, numpy.float32), numpy.zeros(2, numpy.float32)
dx = descriptor_of(xs.ctypes.data, (300,), (1,))
ds = descriptor_of(ss.ctypes.data, (2,), (1,))
raw4.blocks(ctypes.addressof(dx), ctypes.addressof(ds))
print("derived host check:", raw4.tileRtGetErrorMessage().decode())
# A multiple of a named size ("4*H", grouped-query attention's heads).
text5 = text.replace("@scale(%x: memref<?xf32>)",
                     '@grouped(%x: memref<?xf32> {tile.shape = ["4*H"]}, '
                     '%s: memref<?xf32> {tile.shape = ["H"]})')
lib5 = tile_mlir.compile(text5, work_dir=os.path.join(out, "product"))
print("product:", lib5.grouped.signature)
expect(ValueError, lambda: lib5.grouped(numpy.zeros(12, numpy.float32),
                                        numpy.zeros(4, numpy.float32)))
expect(tile_mlir.CompileError,
       lambda: tile_mlir.compile("func.func @f() {\n  tile.nonsense\n}\n",
                                 work_dir=os.path.join(out, "bad")))
runtime = os.path.join(os.environ["TILE_MLIR_TOOLS"], "..", "lib",
                       "libtile_cuda_runtime.so")
expect(ValueError, lambda: tile_mlir.load(runtime))

# The tuner without a GPU: times from a table, as test/Tune/tune.test.
tune_inputs = os.path.join(repo, "test", "Tune", "Inputs")
tuned = tile_mlir.tune(
    os.path.join(repo, "examples", "gemm_tunable.mlir"),
    space=os.path.join(tune_inputs, "small.space"),
    shapes=[(4096, 4096, 4096), "4000x4096x4096", (1000, 1000, 1000)],
    defines={"BK": 32, "THREADS": 128, "STAGES": 3, "DTYPE": "f16"},
    format="isa", jobs=2, timings=os.path.join(tune_inputs, "timings.txt"),
    save_timings=os.path.join(out, "tune-timings.txt"),
    work_dir=os.path.join(out, "tune"))
print("tuned:", tuned.gemm.signature)
with open(os.path.join(out, "tune-timings.txt")) as saved:
    print("saved timings:", len([line for line in saved
                                 if not line.startswith("#")]))
print("tune log:", [line for line in tuned.tune_log.splitlines()
                    if line.startswith("winner")])
