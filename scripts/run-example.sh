#!/usr/bin/env bash
# The main job: compile examples/gemm.mlir (or the file given as $1) through
# the whole tile-mlir pipeline, host side included, and call it from C.
#
#   1. tile IR -> pipelining, layouts (printed: the IR after layout inference)
#   2. -> tile-to-nvvm: PTX and a cubin for sm_90a (written to build/example/)
#   3. -> tile-compile: a shared library exporting gemm(A, B, C) (the host
#      function of the example: argument checks, grid, launch) and its C
#      header; then the C host examples/gemm_host.c, compiled against them
#      and the tile runtime (cc, nothing else), allocates, fills, calls
#      gemm and checks the result against a CPU reference on odd and ~1000^3
#      shapes, and checks that mismatched shapes are an error that launches
#      nothing. Without a GPU the host reports the runtime's error (exit
#      status 3): compiled and linked only.
#
# Needs no GPU. CHIP (default sm_90a) is the target; CC the C compiler.
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
echo "== 3. tile-compile: the host side too, as a C library; the C host"
# A cubin where ptxas is found, else PTX (the driver compiles it).
FORMAT=isa
if command -v ptxas >/dev/null || [[ -x /usr/local/cuda/bin/ptxas ]]; then
  FORMAT=bin
fi
"$BIN/tile-compile" "$EXAMPLE" -o "$OUT_DIR/libgemm.so" \
  --header "$OUT_DIR/gemm.h" --chip "$CHIP" --format "$FORMAT"
echo "   $OUT_DIR/libgemm.so ($FORMAT), $OUT_DIR/gemm.h:"
sed -n '/^\/\* func\.func/,/);$/p' "$OUT_DIR/gemm.h" | sed 's/^/     /'
if ! grep -q 'void gemm(tile_memref_2d \*arg0, tile_memref_2d \*arg1, tile_memref_2d \*arg2);' \
     "$OUT_DIR/gemm.h"; then
  echo "   (no gemm(A, B, C) in $EXAMPLE: examples/gemm_host.c does not apply)"
  exit 0
fi
dtype_flag=()
grep -q 'memref<?x?xbf16>' "$OUT_DIR/gemm.h" && dtype_flag=(-DGEMM_DTYPE_BF16)
host_cc=("${CC:-cc}" -std=c11 -O2 -Wall -Wextra -pedantic "${dtype_flag[@]}"
  -I"$OUT_DIR" -I"$ROOT/runtime/include" "$ROOT/examples/gemm_host.c"
  -o "$OUT_DIR/gemm-host" -L"$OUT_DIR" -lgemm -L"$BUILD_DIR/lib"
  -ltile_cuda_runtime -lm -Wl,-rpath,"$OUT_DIR:$BUILD_DIR/lib")
echo "   \$ ${host_cc[*]}"
"${host_cc[@]}"
echo "   \$ $OUT_DIR/gemm-host"
set +e
"$OUT_DIR/gemm-host"
status=$?
set -e
case $status in
  0) echo "== done: the kernel ran and every check passed." ;;
  3) echo "== done: no GPU here, compiled and linked only (the host's exit"
     echo "   status 3). On a GPU machine the same program runs and checks the"
     echo "   kernel; see docs/perf.md for the results measured on H100/H200." ;;
  *) echo "== the host failed (exit status $status)"; exit "$status" ;;
esac
