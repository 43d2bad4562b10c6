#!/usr/bin/env bash
# Prepares build-gpu/, everything the GPU machine needs to check and benchmark
# the tile-mlir GEMM and FlashAttention kernels, on this machine (no GPU
# needed here):
#
#   1. builds tile-gemm-bench, tile-fa-bench, tile-gemm-host,
#      tile-gemm-host-cubin and the runtime tests (incrementally, in
#      BUILD_DIR);
#   2. compiles examples/gemm.mlir for f16 and bf16 through the C API
#      (tile-gemm-host --compile-only --emit-cubin --emit-launch-info: the
#      bf16 variant is the example with f16 replaced by bf16), giving
#      gemm_{f16,bf16}.cubin and gemm_{f16,bf16}.info (dynamic shared memory,
#      block size); if the C API cannot run the pipeline, tile-opt runs it
#      and tile-gemm-host only extracts the result; the PTX is kept too, as
#      gemm_{f16,bf16}.ptx (PTX_PIPELINE: a pipeline whose gpu.binary holds
#      PTX; "none" skips it); and examples/flash_attention.mlir the same way
#      (same pipelines, tile-gemm-host --mlir=... --no-substitution
#      --kernel=flash_attention_fwd_kernel), giving fa.cubin, fa.info and
#      fa.ptx for tile-fa-bench;
#   3. with nvcc, builds bench/reference_gemm.cu, a stand-in kernel with the
#      same ABI, as ref_gemm_{f16,bf16}.cubin: it validates the harness on
#      the GPU independently of the compiler;
#   4. copies the MLIR-free programs (bench, host --cubin build, runtime
#      tests) and gpu-run.sh into the bundle, checks that none needs MLIR or
#      LLVM libraries (the GPU machine has neither) and that the bundle stays
#      under 60 MiB, and writes MANIFEST.
#
# Then run it on the GPU machine with the device tool:
#   carry ["build-gpu"], command "bash build-gpu/gpu-run.sh"
# (gpu-run.sh logs to $OUT/log and prints a summary table last.)
#
# Usage: scripts/gpu-bundle.sh [--reference-only] [--allow-missing-tile]
#                               [--no-build]
#   --reference-only      do not compile the tile-mlir kernels (GEMM and
#                         FlashAttention)
#   --allow-missing-tile  keep going when they do not compile (the bundle then
#                         checks the harness with the reference kernels only,
#                         and runs whichever tile-mlir kernels compiled)
#   --no-build            use the programs already in BUILD_DIR/bin
# Environment: BUILD_DIR (default <repo>/build), BUNDLE_DIR (default
#   <repo>/build-gpu), CHIP (default sm_90a), PIPELINE (default
#   builtin.module(tile-to-nvvm{chip=$CHIP})), PTX_PIPELINE (default
#   builtin.module(tile-to-nvvm{chip=$CHIP format=isa}); none: no PTX),
#   NVCC (default nvcc on PATH or /usr/local/cuda/bin/nvcc).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
BUNDLE="${BUNDLE_DIR:-$ROOT/build-gpu}"
CHIP="${CHIP:-sm_90a}"
# (Not ${PIPELINE:-...}: the braces of the pass options would end it.)
if [[ -z "${PIPELINE:-}" ]]; then
  PIPELINE="builtin.module(tile-to-nvvm{chip=$CHIP})"
fi
if [[ -z "${PTX_PIPELINE:-}" ]]; then
  PTX_PIPELINE="builtin.module(tile-to-nvvm{chip=$CHIP format=isa})"
fi
[[ $PTX_PIPELINE == none ]] && PTX_PIPELINE=""
MAX_BUNDLE_MIB=60

reference_only=0
allow_missing_tile=0
no_build=0
for arg in "$@"; do
  case "$arg" in
    --reference-only) reference_only=1 ;;
    --allow-missing-tile) allow_missing_tile=1 ;;
    --no-build) no_build=1 ;;
    -h|--help) sed -n '2,44p' "$0"; exit 0 ;;
    *) echo "gpu-bundle: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done

log() { echo "gpu-bundle: $*"; }
die() { echo "gpu-bundle: error: $*" >&2; exit 1; }

# --- 1. Build ----------------------------------------------------------------
TARGETS=(tile-opt tile-gemm-bench tile-fa-bench tile-gemm-host
         tile-gemm-host-cubin tile-runtime-gpu-test tile-runtime-errors-test)
if ((no_build)); then
  log "--no-build: using the programs in $BUILD_DIR/bin"
elif [[ ! -f "$BUILD_DIR/build.ninja" ]]; then
  log "$BUILD_DIR is not configured: running scripts/setup.sh"
  BUILD_DIR="$BUILD_DIR" bash "$ROOT/scripts/setup.sh"
fi
if ((!no_build)); then
  log "building ${TARGETS[*]}"
  # Builds share the machine: serialize them on the lock when flock exists.
  if command -v flock >/dev/null; then
    flock /tmp/tile-build.lock ninja -C "$BUILD_DIR" "${TARGETS[@]}"
  else
    ninja -C "$BUILD_DIR" "${TARGETS[@]}"
  fi
fi
BIN="$BUILD_DIR/bin"

rm -rf "$BUNDLE"
mkdir -p "$BUNDLE"

# --- 2. tile-mlir kernels ----------------------------------------------------
# compile_with_capi DTYPE: the whole pipeline through the C API.
compile_with_capi() {
  "$BIN/tile-gemm-host" --dtype="$1" --pipeline="$PIPELINE" \
    --compile-only --emit-cubin="$BUNDLE/gemm_$1.cubin" \
    --emit-launch-info="$BUNDLE/gemm_$1.info"
}
# compile_with_tile_opt DTYPE: tile-opt runs the pipeline on the source the
# host writes (after the bf16 substitution); the host then only extracts the
# binary and launch configuration from tile-opt's output (empty pipeline).
compile_with_tile_opt() {
  local source="$BUNDLE/gemm_$1.source.mlir" compiled="$BUNDLE/gemm_$1.mlir"
  "$BIN/tile-gemm-host" --dtype="$1" --emit-source="$source" \
    --pipeline='builtin.module()' --compile-only >/dev/null 2>&1
  [[ -f $source ]] || return 1
  "$BIN/tile-opt" "$source" --pass-pipeline="$PIPELINE" -o "$compiled" &&
    "$BIN/tile-gemm-host" --dtype="$1" --no-substitution --mlir="$compiled" \
      --pipeline='builtin.module()' --compile-only \
      --emit-cubin="$BUNDLE/gemm_$1.cubin" \
      --emit-launch-info="$BUNDLE/gemm_$1.info"
  local status=$?
  rm -f "$source" "$compiled"
  return $status
}

tile_ok=0
compiled_with=()
if ((reference_only)); then
  log "--reference-only: not compiling the tile-mlir kernels"
else
  tile_ok=1
  for dtype in f16 bf16; do
    log "compiling examples/gemm.mlir ($dtype) with $PIPELINE"
    clog="$BUNDLE/compile_$dtype.log"
    if compile_with_capi "$dtype" >"$clog" 2>&1; then
      compiled_with+=("$dtype: C API")
    elif log "the C API failed (compile_$dtype.log); trying tile-opt" &&
         compile_with_tile_opt "$dtype" >>"$clog" 2>&1; then
      compiled_with+=("$dtype: tile-opt")
    else
      tail -n 20 "$clog" >&2
      log "error: $dtype did not compile (see $clog)"
      rm -f "$BUNDLE/gemm_$dtype.cubin" "$BUNDLE/gemm_$dtype.info"
      compiled_with+=("$dtype: FAILED")
      tile_ok=0
      continue
    fi
    grep '^compiled' "$clog" || true
    if [[ -n "$PTX_PIPELINE" ]]; then
      "$BIN/tile-gemm-host" --dtype="$dtype" --pipeline="$PTX_PIPELINE" \
        --compile-only --emit-cubin="$BUNDLE/gemm_$dtype.ptx" \
        >>"$clog" 2>&1 ||
        log "warning: no PTX for $dtype (see compile_$dtype.log)"
    fi
  done

  # FlashAttention: the same pipelines; the example is f16 (no substitution)
  # and its kernel is flash_attention_fwd_kernel. The launch information
  # keeps kernel=, shared_bytes= and block= (tile-gemm-host's tile= line is
  # the GEMM's C tile: dropped).
  FA_SOURCE="$ROOT/examples/flash_attention.mlir"
  FA_KERNEL=flash_attention_fwd_kernel
  fa_host() {
    "$BIN/tile-gemm-host" --no-substitution --kernel="$FA_KERNEL" \
      --compile-only "$@"
  }
  log "compiling examples/flash_attention.mlir with $PIPELINE"
  clog="$BUNDLE/compile_fa.log"
  if fa_host --mlir="$FA_SOURCE" --pipeline="$PIPELINE" \
       --emit-cubin="$BUNDLE/fa.cubin" --emit-launch-info="$BUNDLE/fa.info" \
       >"$clog" 2>&1; then
    compiled_with+=("fa: C API")
  elif log "the C API failed (compile_fa.log); trying tile-opt" &&
       "$BIN/tile-opt" "$FA_SOURCE" --pass-pipeline="$PIPELINE" \
         -o "$BUNDLE/fa.compiled.mlir" >>"$clog" 2>&1 &&
       fa_host --mlir="$BUNDLE/fa.compiled.mlir" --pipeline='builtin.module()' \
         --emit-cubin="$BUNDLE/fa.cubin" --emit-launch-info="$BUNDLE/fa.info" \
         >>"$clog" 2>&1; then
    compiled_with+=("fa: tile-opt")
  else
    tail -n 20 "$clog" >&2
    log "error: examples/flash_attention.mlir did not compile (see $clog)"
    rm -f "$BUNDLE/fa.cubin" "$BUNDLE/fa.info"
    compiled_with+=("fa: FAILED")
    tile_ok=0
  fi
  rm -f "$BUNDLE/fa.compiled.mlir"
  if [[ -f $BUNDLE/fa.info ]]; then
    grep '^compiled' "$clog" || true
    sed -i '/^tile=/d' "$BUNDLE/fa.info"
    if [[ -n "$PTX_PIPELINE" ]]; then
      fa_host --mlir="$FA_SOURCE" --pipeline="$PTX_PIPELINE" \
        --emit-cubin="$BUNDLE/fa.ptx" >>"$clog" 2>&1 ||
        log "warning: no PTX for flash_attention (see compile_fa.log)"
    fi
  fi

  if ((!tile_ok)); then
    if ((allow_missing_tile)); then
      log "warning: not every tile-mlir kernel compiled; the bundle runs" \
          "what did, and checks the harness with the reference kernels"
    else
      die "the tile-mlir kernels did not compile (--allow-missing-tile or" \
          "--reference-only to bundle anyway)"
    fi
  fi
fi

# --- 3. Reference kernels ----------------------------------------------------
NVCC="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
if [[ -x "$NVCC" ]]; then
  for dtype in f16 bf16; do
    define=()
    [[ $dtype == bf16 ]] && define=(-DTILE_REF_BF16)
    log "building the reference kernel ($dtype) with $NVCC"
    "$NVCC" -cubin -arch="$CHIP" "${define[@]}" \
      "$ROOT/bench/reference_gemm.cu" -o "$BUNDLE/ref_gemm_$dtype.cubin"
    printf 'kernel=gemm_kernel\ndtype=%s\nshared_bytes=32768\nblock=128,1,1\ntile=128x128\n' \
      "$dtype" >"$BUNDLE/ref_gemm_$dtype.info"
  done
else
  log "warning: no nvcc: no reference kernels"
fi
if ! compgen -G "$BUNDLE/*gemm_*.cubin" >/dev/null; then
  die "neither tile-mlir nor reference kernels: nothing to run"
fi

# --- 4. Programs, run script, checks -----------------------------------------
PROGRAMS=(tile-gemm-bench tile-fa-bench tile-gemm-host-cubin
          tile-runtime-gpu-test tile-runtime-errors-test)
for program in "${PROGRAMS[@]}"; do
  cp "$BIN/$program" "$BUNDLE/"
  # The GPU machine has no MLIR or LLVM: nothing may need them.
  if ldd "$BUNDLE/$program" | grep -E 'MLIR|LLVM|not found'; then
    die "$program needs libraries the GPU machine does not have"
  fi
done
cp "$ROOT/scripts/gpu-run.sh" "$BUNDLE/gpu-run.sh"

bundle_kib=$(du -sk "$BUNDLE" | cut -f1)
((bundle_kib < MAX_BUNDLE_MIB * 1024)) ||
  die "bundle is $((bundle_kib / 1024)) MiB (limit $MAX_BUNDLE_MIB MiB)"

{
  echo "tile-mlir GPU bundle"
  echo "created: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname)"
  echo "commit: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)$(
    git -C "$ROOT" diff --quiet 2>/dev/null || echo ' (with local changes)')"
  echo "chip: $CHIP"
  echo "pipeline: $PIPELINE"
  echo "tile-mlir kernels: ${compiled_with[*]:-none}"
  echo
  (cd "$BUNDLE" && sha256sum -- * | grep -v ' MANIFEST$')
} >"$BUNDLE/MANIFEST"

log "bundle $BUNDLE ($((bundle_kib / 1024)) MiB):"
ls -l "$BUNDLE"
log "run it on the GPU machine with the device tool:"
log "  carry [\"$(basename "$BUNDLE")\"], command \"bash $(basename "$BUNDLE")/gpu-run.sh\""
