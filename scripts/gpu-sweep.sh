#!/usr/bin/env bash
# GEMM variant sweeps: build variants here, check and time them on the GPU
# machine against cuBLAS in the same process (tile-gemm-bench).
#
#   scripts/gpu-sweep.sh add NAME [--ws] [--input FILE] [VARIANT ARGS...]
#       (here, after scripts/gpu-bundle.sh) writes the variant with
#       scripts/gemm-variant.py VARIANT ARGS (e.g. --dtype=bf16 --group-m 8
#       --persistent 132 128 256 64 256 4), or takes FILE as is, and
#       compiles it for sm_90a with tile-compile (--ws: tile-to-nvvm
#       warp-specialize=1) into $BUNDLE/sweep/NAME/libgemm.so. A NAME
#       starting with f16- is run with --dtype=f16, else bf16.
#   bash build-gpu/gpu-sweep.sh run [REGEX]
#       (on the GPU machine, from the repository root) for every variant
#       (matching REGEX): --check over the shapes below, --check at offsets
#       1 and 8 (views at odd and aligned starts), then the benchmark;
#       logs to $OUT/sweep.log.
#   bash build-gpu/gpu-sweep.sh sanitize [REGEX]
#       compute-sanitizer memcheck, racecheck and synccheck on a small
#       problem with edge tiles, per variant; logs to $OUT/sanitize.log.
# Environment: BUILD_DIR (default <repo>/build), BUNDLE_DIR (default
#   <repo>/build-gpu), CHECK_SHAPES, BENCH_SHAPES, SAN_SHAPES, STEP_TIMEOUT
#   (seconds per program run, default 150: a hung kernel fails its step).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CHECK_SHAPES="${CHECK_SHAPES:-1024x1024x1024,1000x1000x1000,4095x4097x1023,3x5x7,1x4096x4096,8192x16x4096,4096x4096x512,256x256x64,4096x4096x4096,2000x3000x700}"
BENCH_SHAPES="${BENCH_SHAPES:-4096x4096x4096,8192x8192x8192,4096x4096x512}"
SAN_SHAPES="${SAN_SHAPES:-300x600x200}"

usage() {
  sed -n '2,24p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  exit 2
}

dtype_of() {
  case "$1" in f16-*) echo f16 ;; *) echo bf16 ;; esac
}

cmd_add() {
  local name="$1"; shift
  local ws=0 input=""
  while [[ $# -gt 0 ]]; do
    case "$1" in
      --ws) ws=1; shift ;;
      --input) input="$2"; shift 2 ;;
      *) break ;;
    esac
  done
  local build="${BUILD_DIR:-$ROOT/build}"
  local bundle="${BUNDLE_DIR:-$ROOT/build-gpu}"
  local dir="$bundle/sweep/$name"
  mkdir -p "$dir"
  if [[ -n "$input" ]]; then
    cp "$input" "$dir/gemm.mlir"
  else
    python3 "$ROOT/scripts/gemm-variant.py" "$@" "$dir/gemm.mlir"
  fi
  local opts=()
  if [[ $ws == 1 ]]; then
    opts=(--pipeline-options "warp-specialize=1")
  fi
  "$build/bin/tile-compile" "$dir/gemm.mlir" -o "$dir/libgemm.so" \
    --chip sm_90a --format bin --runtime-dir "$build/lib" "${opts[@]}"
  cp "${BASH_SOURCE[0]}" "$bundle/gpu-sweep.sh"
  echo "gpu-sweep: added $dir"
}

# Runs "$@" with the bundle's runtime on the library path, logging to $log;
# the status of the command, not of tee, is returned.
logged() {
  local status=0
  timeout "${STEP_TIMEOUT:-150}" "$@" 2>&1 | tee -a "$log" ||
    status=${PIPESTATUS[0]}
  if [[ $status == 124 ]]; then
    echo "TIMEOUT after ${STEP_TIMEOUT:-150} s: $*" | tee -a "$log"
  fi
  return "$status"
}

# Calls "$3 NAME DTYPE DIR" for every variant whose name matches $1,
# logging to $OUT/$2; fails if one of the calls failed.
for_each_variant() {
  local regex="$1" logname="$2" step="$3" bundle out failed=0
  bundle="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
  out="${OUT:-$bundle/out}"
  mkdir -p "$out"
  log="$out/$logname"
  export LD_LIBRARY_PATH="$bundle${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  BENCH="$bundle/tile-gemm-bench"
  for dir in "$bundle"/sweep/*/; do
    local name
    name="$(basename "$dir")"
    [[ "$name" =~ $regex ]] || continue
    "$step" "$name" "$(dtype_of "$name")" "$dir" || failed=1
  done
  return "$failed"
}

run_variant() {
  local name="$1" dtype="$2" dir="$3" failed=0
  local bench=("$BENCH" --library="$dir/libgemm.so" --dtype="$dtype")
  echo "=== sweep $name check ($dtype)" | tee -a "$log"
  logged "${bench[@]}" --check --shapes="$CHECK_SHAPES" || failed=1
  echo "=== sweep $name check offset 1, 8" | tee -a "$log"
  for offset in 1 8; do
    logged "${bench[@]}" --check --offset=$offset \
      --shapes=1000x1000x1000,4095x4097x1023 || failed=1
  done
  echo "=== sweep $name bench ($dtype)" | tee -a "$log"
  logged "${bench[@]}" --shapes="$BENCH_SHAPES" || failed=1
  return "$failed"
}

sanitize_variant() {
  local name="$1" dtype="$2" dir="$3" failed=0
  for tool in memcheck racecheck synccheck; do
    echo "=== sanitize $name $tool ($dtype)" | tee -a "$log"
    logged compute-sanitizer --tool "$tool" --error-exitcode 3 \
      "$BENCH" --library="$dir/libgemm.so" --dtype="$dtype" --check \
      --no-cublas --shapes="$SAN_SHAPES" ||
      { echo "sanitize $name $tool: FAILED" | tee -a "$log"; failed=1; }
  done
  return "$failed"
}

[[ $# -ge 1 ]] || usage
command="$1"; shift
case "$command" in
  add) [[ $# -ge 1 ]] || usage; cmd_add "$@" ;;
  run) for_each_variant "${1:-.}" sweep.log run_variant ;;
  sanitize) for_each_variant "${1:-.}" sanitize.log sanitize_variant ;;
  *) usage ;;
esac
