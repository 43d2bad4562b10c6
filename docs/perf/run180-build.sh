#!/bin/bash
# Run 180's libraries, built on the development machine by the working tree
# that became the tile.consumer_late commit (its compiler for all three).
#   old.so:    ef76bc2's examples/fp8_gemm.mlir (B's block scale a scalar in
#              the consumer: the consumer stays in place)
#   new.so:    the new examples/fp8_gemm.mlir (consumer one gemm late, turns)
#   noturn.so: the new example with tile.pingpong = false on the block-wise
#              kernel
TC=build/bin/tile-compile
git show ef76bc2:examples/fp8_gemm.mlir > /tmp/fp8_old.mlir
$TC /tmp/fp8_old.mlir -o old.so --chip sm_90a --rpath '$ORIGIN/..'
$TC examples/fp8_gemm.mlir -o new.so --chip sm_90a --rpath '$ORIGIN/..'
python3 - <<'PY'
s = open("examples/fp8_gemm.mlir").read()
old = "  tile.kernel @fp8_gemm_blockwise_kernel blocks(%bx, %by) in [%gx, %gy]\n      threads(256) {"
s = s.replace(old, old[:-2] + " attributes {tile.pingpong = false} {")
open("/tmp/fp8_noturn.mlir", "w").write(s)
PY
$TC /tmp/fp8_noturn.mlir -o noturn.so --chip sm_90a --rpath '$ORIGIN/..'
