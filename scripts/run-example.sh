#!/usr/bin/env bash
# The main job: compile the examples through the whole tile-mlir pipeline,
# host side included, and call them from C. Without an argument:
# examples/gemm.mlir, then FlashAttention, examples/flash_attention.mlir and
# its causal variant examples/flash_attention_causal.mlir; with one, that
# file only. For each:
#
#   1. tile IR -> pipelining, layouts (printed for the GEMM: the IR after
#      layout inference; the FlashAttention examples are long, so only its
#      size is printed for them)
#   2. -> tile-to-nvvm: PTX and a cubin for sm_90a (written to
#      build/example/<name>/)
#   3. -> tile-compile: a shared library exporting the example's host
#      function (argument checks, grid, launch) and its C header; then the
#      example's C host, compiled against them and the tile runtime (cc,
#      nothing else): examples/gemm_host.c for gemm(A, B, C), which checks
#      odd and ~1000^3 shapes against a CPU reference, and
#      examples/fa_host.c for flash_attention_fwd / flash_attention_causal_fwd
#      (Q, K, V, O), which checks S = 1, 129, 1000, ... on views against a
#      CPU fp64 reference of (causal) attention; both check that mismatched
#      shapes are an error that launches nothing. Without a GPU each host
#      reports the runtime's error (exit status 3): compiled and linked
#      only.
#
# Needs no GPU. CHIP (default sm_90a) is the target; CC the C compiler.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
CHIP="${CHIP:-sm_90a}"
BIN="$BUILD_DIR/bin"
if (($#)); then
  EXAMPLES=("$1")
else
  EXAMPLES=("$ROOT/examples/gemm.mlir" "$ROOT/examples/flash_attention.mlir"
            "$ROOT/examples/flash_attention_causal.mlir")
fi

bash "$ROOT/scripts/setup.sh" >&2

# A cubin where ptxas is found, else PTX (the driver compiles it).
FORMAT=isa
if command -v ptxas >/dev/null || [[ -x /usr/local/cuda/bin/ptxas ]]; then
  FORMAT=bin
fi

# run_example FILE: steps 1 to 3 for one example; prints the host's
# outcome and returns 0 (ran and passed, or no GPU), else the host's exit
# status (which ends the script).
run_example() {
  local example="$1" name
  name="$(basename "$example" .mlir)"
  local out="$BUILD_DIR/example/$name"
  mkdir -p "$out"
  echo "#### $example"
  echo "== 1. software pipelining and layout inference"
  if [[ $name == gemm ]]; then
    "$BIN/tile-opt" "$example" --tile-pipeline-planning \
      --tile-inject-pipeline --tile-layout-inference
  else
    "$BIN/tile-opt" "$example" --tile-pipeline-planning \
      --tile-inject-pipeline --tile-layout-inference -o "$out/layouts.mlir"
    echo "   $out/layouts.mlir: $(wc -l <"$out/layouts.mlir") lines"
  fi

  echo
  echo "== 2. tile-to-nvvm{chip=$CHIP}: PTX and cubin"
  "$BIN/tile-opt" "$example" --tile-to-nvvm="chip=$CHIP format=isa" \
    --tile-emit-binary="prefix=$out/" -o /dev/null
  "$BIN/tile-opt" "$example" --tile-to-nvvm="chip=$CHIP format=bin" \
    --tile-emit-binary="prefix=$out/" -o /dev/null
  local f
  for f in "$out"/*.ptx; do
    echo "   $f: $(grep -c 'mma.sync' "$f") mma.sync," \
      "$(grep -c 'wgmma.mma_async' "$f") wgmma, $(grep -c 'ldmatrix' "$f")" \
      "ldmatrix, $(grep -c 'cp.async.cg' "$f") cp.async," \
      "$(grep -c 'cp.async.bulk.tensor' "$f") tensor copies"
  done
  ls -l "$out"/*.cubin | awk '{print "   " $NF ": " $5 " bytes"}'

  echo
  echo "== 3. tile-compile: the host side too, as a C library; the C host"
  local lib host source defines=()
  case "$name" in
    gemm*) lib=gemm ;;
    *) lib=flash_attention ;;
  esac
  "$BIN/tile-compile" "$example" -o "$out/lib$lib.so" \
    --header "$out/$lib.h" --chip "$CHIP" --format "$FORMAT"
  echo "   $out/lib$lib.so ($FORMAT), $out/$lib.h:"
  sed -n '/^\/\* func\.func/,/);$/p' "$out/$lib.h" | sed 's/^/     /'
  if grep -q 'void gemm(tile_memref_2d \*arg0, tile_memref_2d \*arg1, tile_memref_2d \*arg2);' \
       "$out/$lib.h"; then
    source="$ROOT/examples/gemm_host.c"
    host=gemm-host
    grep -q 'memref<?x?xbf16>' "$out/$lib.h" && defines=(-DGEMM_DTYPE_BF16)
  elif grep -qE '^void flash_attention(_causal)?_fwd\((tile_memref_3d \*arg[0-3](, |\);)){4}' \
         "$out/$lib.h"; then
    source="$ROOT/examples/fa_host.c"
    host=fa-host
    grep -q '^void flash_attention_causal_fwd' "$out/$lib.h" &&
      defines+=(-DFA_CAUSAL)
    grep -q 'memref<?x?x[0-9]*xbf16>' "$out/$lib.h" &&
      defines+=(-DFA_DTYPE_BF16)
    local d
    d="$(sed -n 's/.*memref<?x?x\([0-9]*\)xb\{0,1\}f16>.*/\1/p' \
      "$out/$lib.h" | head -n 1)"
    defines+=("-DFA_HEAD_DIM=$d")
  else
    echo "   (neither gemm(A, B, C) nor flash_attention_fwd(Q, K, V, O) in" \
      "$example: no C host applies)"
    return 0
  fi
  local host_cc=("${CC:-cc}" -std=c11 -O2 -Wall -Wextra -pedantic
    "${defines[@]}" -I"$out" -I"$ROOT/runtime/include" "$source"
    -o "$out/$host" -L"$out" -l"$lib" -L"$BUILD_DIR/lib"
    -ltile_cuda_runtime -lm -Wl,-rpath,"$out:$BUILD_DIR/lib")
  echo "   \$ ${host_cc[*]}"
  "${host_cc[@]}"
  echo "   \$ $out/$host"
  local status=0
  "$out/$host" || status=$?
  case $status in
    0) echo "== $name: the kernel ran and every check passed." ;;
    3) echo "== $name: no GPU here, compiled and linked only (the host's" \
         "exit status 3)."
       no_gpu=1 ;;
    *) echo "== $name: the host failed (exit status $status)"
       return "$status" ;;
  esac
  echo
}

no_gpu=0
# (Not `run_example ... || ...`: that would turn off errexit inside it.)
for example in "${EXAMPLES[@]}"; do
  run_example "$example"
done
if ((no_gpu)); then
  echo "== done: no GPU here; every example compiled and linked, and its host"
  echo "   checked that bad shapes are reported. On a GPU machine the same"
  echo "   programs run and check the kernels; see docs/perf.md for the"
  echo "   results measured on H100/H200."
else
  echo "== done: every example ran and passed its checks."
fi
