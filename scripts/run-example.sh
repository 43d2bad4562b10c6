#!/usr/bin/env bash
# The main job: compile examples/gemm.mlir (or the file given as $1) through
# the whole tile-mlir pipeline and, where a GPU is visible, run and check it.
#
#   1. tile IR -> pipelining, layouts (printed: the IR after layout inference)
#   2. -> tile-to-nvvm: PTX and a cubin for sm_90a (written to build/example/)
#   3. -> if nvidia-smi shows a GPU: run the cubin through the C runtime at
#      1000x1000x1000 and check it against a CPU reference
#      (examples/gemm_host.c).
#
# Needs no GPU: without one it stops after step 2.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
EXAMPLE="${1:-$ROOT/examples/gemm.mlir}"
CHIP="${CHIP:-sm_90a}"
BIN="$BUILD_DIR/bin"
OUT_DIR="$BUILD_DIR/example"

bash "$ROOT/scripts/setup.sh" >&2
mkdir -p "$OUT_DIR"

echo "== 1. $EXAMPLE after software pipelining and layout inference"
"$BIN/tile-opt" "$EXAMPLE" --tile-pipeline-planning --tile-inject-pipeline \
  --tile-layout-inference

echo
echo "== 2. tile-to-nvvm{chip=$CHIP}: PTX and cubin"
"$BIN/tile-opt" "$EXAMPLE" --tile-to-nvvm="chip=$CHIP format=isa" \
  --tile-emit-binary="prefix=$OUT_DIR/" -o /dev/null
"$BIN/tile-opt" "$EXAMPLE" --tile-to-nvvm="chip=$CHIP format=bin" \
  --tile-emit-binary="prefix=$OUT_DIR/" -o /dev/null
for f in "$OUT_DIR"/*.ptx; do
  echo "   $f: $(grep -c 'mma.sync' "$f") mma.sync, $(grep -c 'ldmatrix' "$f") ldmatrix, $(grep -c 'cp.async.cg' "$f") cp.async"
done
ls -l "$OUT_DIR"/*.cubin | awk '{print "   " $NF ": " $5 " bytes"}'

echo
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  echo "== 3. running on $(nvidia-smi -L | head -n 1)"
  "$BIN/tile-gemm-host" --mlir="$EXAMPLE" --shape=1000x1000x1000 --dtype=f16
else
  echo "== 3. no GPU visible here (nvidia-smi shows none): compiled only."
  echo "   On a GPU machine the same command runs the kernel and checks it;"
  echo "   see docs/perf.md for the results measured on an H200."
fi
