"""docs/tutorial.md, section 3: the saxpy kernel called from Python.

Compiles examples/tutorial/saxpy.mlir with tile-compile (through the
tile_mlir package, python/tile_mlir) and calls it on NumPy arrays, which
the package copies to the GPU and back. Arguments that do not fit the
signature raise TypeError or ValueError before anything is copied; without
a GPU the call raises
tile_mlir.TileError with the runtime's message, and this script exits 3.
"""
import sys

import numpy

import tile_mlir

lib = tile_mlir.compile("examples/tutorial/saxpy.mlir", chip="sm_90a")
print(lib.saxpy.signature)

x = numpy.arange(1000, dtype=numpy.float32)
y = numpy.ones(1000, dtype=numpy.float32)
try:
    lib.saxpy(2.0, x, y[:999])
except ValueError as e:
    print("mismatched lengths:", e)
try:
    lib.saxpy(2.0, x, y)
except tile_mlir.TileError as e:
    print("no GPU (%s): compiled and loaded only" % e)
    sys.exit(3)
print("saxpy of 1000 elements: %d wrong" % numpy.count_nonzero(y != 2 * x + 1))
