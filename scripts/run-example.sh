#!/usr/bin/env bash
# The main job: builds tile-mlir (through setup.sh), then compiles the GEMM
# example (or the .mlir file given as $1) as far as the tile pipeline goes
# today, prints the result and says which stage was reached.
#
# Stages, and where the project is:
#   1. parse + verify the tile IR                        done
#   2. tile-check-resources (shared memory, registers)   done
#   3. warp specialization, pipelining, layout inference,
#      lowering to gpu/nvgpu/nvvm                        planned
#   4. PTX / cubin (gpu-module-to-binary, ptxas)         planned
#   5. run on a GPU when nvidia-smi shows one            planned
#
# BUILD_DIR overrides the build directory.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
EXAMPLE="${1:-$ROOT/examples/gemm.mlir}"
TILE_OPT="$BUILD_DIR/bin/tile-opt"

# The pass pipeline, as one string. It grows as passes land, e.g. later:
#   builtin.module(tile-check-resources, tile-to-nvvm{chip=sm_90a},
#                  gpu-module-to-binary{format=bin})
PIPELINE="builtin.module(tile-check-resources)"
# The last stage the pipeline above reaches (printed at the end).
STAGE="tile IR parsed, verified and resource-checked (stage 2 of 5)"

bash "$ROOT/scripts/setup.sh" >&2

echo "== tile-opt --pass-pipeline='$PIPELINE' $EXAMPLE"
OUTPUT="$("$TILE_OPT" --pass-pipeline="$PIPELINE" "$EXAMPLE")"
echo "$OUTPUT"

echo
echo "== Kernels (from tile-check-resources):"
echo "$OUTPUT" | sed -n 's/.*tile\.kernel @\([A-Za-z0-9_$.]*\).*tile\.fragment_registers = \([0-9]*\).*tile\.shared_memory_bytes = \([0-9]*\).*/   \1: \3 bytes of shared memory as written (before pipeline buffering), about \2 registers per thread for register tiles/p'
echo "== Reached: $STAGE"
echo "   Not yet: lowering to GPU code (gpu/nvgpu/nvvm, PTX, cubin) is planned;"
echo "   nothing is compiled to a GPU binary or executed yet."
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  echo "   A GPU is visible ($(nvidia-smi -L | head -n 1)), but there is no"
  echo "   lowering to run on it yet."
else
  echo "   No GPU visible here (nvidia-smi shows none)."
fi
