#!/usr/bin/env bash
# Prepares build-gpu/, everything the GPU machine needs to check and benchmark
# the tile-mlir GEMM and FlashAttention kernels, on this machine (no GPU
# needed here; the GPU machine has neither MLIR nor LLVM):
#
#   1. builds tile-compile, tile-extract-kernel, tile-gemm-bench,
#      tile-fa-bench, libtile_cuda_runtime.so and the runtime tests
#      (incrementally, in BUILD_DIR);
#   2. compiles examples/gemm.mlir ahead of time with tile-compile (--chip
#      $CHIP, a cubin where ptxas is found, else PTX) into the libraries the
#      hosts call: aot/f16/libgemm.so (the example), aot/bf16/libgemm.so and
#      aot/f16-64x256/libgemm.so (scripts/gemm-variant.py --dtype=bf16, and
#      64 256 32 256 4), each with its gemm.h; then builds the example host
#      (examples/gemm_host.c) as plain C against aot/f16 and the runtime, as
#      gemm-host, with the runpath $ORIGIN/aot/f16:$ORIGIN: the same binary
#      runs the other libraries through LD_LIBRARY_PATH=aot/<variant>;
#   3. for the harnesses' direct launches (tile-gemm-bench --cubin: the
#      --overhead baseline and A/B runs of two kernels), the example's kernel
#      alone with its launch information (tile-extract-kernel, PIPELINE),
#      gemm_{f16,bf16}.cubin and .info, and its PTX (PTX_PIPELINE); if the C
#      API cannot run the pipeline, tile-opt runs it and tile-extract-kernel
#      only extracts the result; examples/flash_attention.mlir the same way,
#      giving fa.cubin, fa.info and fa.ptx for tile-fa-bench;
#   4. the FlashAttention libraries of scripts/fa-matrix.sh:
#      aot-fa/<variant>/libflash_attention.so and flash_attention.h
#      (tile-compile, like aot/) for <variant> = {nc,causal}-{f16,bf16}-
#      d{128,64}: examples/flash_attention.mlir (nc-f16-d128),
#      examples/flash_attention_causal.mlir (causal-f16-d128) and their
#      scripts/fa-variant.py variants (FA_VARIANT_ARGS, default
#      "--block-n 128": the Hopper tile; the examples keep BN = 64, which
#      fits every target, AMD's 64 KiB of LDS included; FA_VARIANT_ARGS= for
#      the examples' own tiles), each with fa-host, examples/fa_host.c built
#      for it (runpath $ORIGIN and the bundle);
#   5. with nvcc, builds bench/reference_gemm.cu, a stand-in kernel with the
#      same ABI, as ref_gemm_{f16,bf16}.cubin: it validates the harness on
#      the GPU independently of the compiler;
#   4b. the FP8 GEMM libraries of scripts/fp8-run.sh: aot-fp8/<variant>/
#      libfp8_gemm.so (tile-compile of examples/fp8_gemm.mlir) for
#      <variant> = e4m3 (the example, $CHIP), e5m2a (A in f8E5M2, $CHIP),
#      f16out and f32out (C in f16, f32) and sm89 (the example for sm_89 as PTX, mma.sync, which the driver
#      compiles for the GPU at hand); aot-fp8/quantize/libfp8_quantize.so
#      (examples/fp8_quantize.mlir) and aot-fp8/rs/libfp8_rs.so
#      (test/Examples/Inputs/fp8_rs.mlir, wgmma's RS form);
#   6. copies the programs, libtile_cuda_runtime.so, gpu-run.sh, fa-matrix.sh,
#      fp8-run.sh, fp8-torch.py, fa-sdpa.py, gpu_torch.py and gpu_power.py
#      into the bundle, checks that nothing needs MLIR or
#      LLVM libraries and that the bundle stays under 60 MiB, and writes
#      MANIFEST.
#
# Then run it on the GPU machine with the device tool:
#   carry ["build-gpu"], command "bash build-gpu/gpu-run.sh"
# (gpu-run.sh logs to $OUT/log and prints a summary table last), or for
# FlashAttention's matrix (correctness, sanitizers, speed against cuDNN):
#   carry ["build-gpu"], command "bash build-gpu/fa-matrix.sh"
# (logs to $OUT/fa-matrix.log).
#
# Usage: scripts/gpu-bundle.sh [--reference-only] [--allow-missing-tile]
#                               [--no-build] [--fa-only] [--fp8-only]
#   --reference-only      do not compile the tile-mlir kernels (GEMM and
#                         FlashAttention)
#   --allow-missing-tile  keep going when they do not compile (the bundle then
#                         checks the harness with the reference kernels only,
#                         and runs whichever tile-mlir kernels compiled)
#   --no-build            use the programs already in BUILD_DIR
#   --fa-only             only what fa-matrix.sh needs: the FlashAttention
#                         libraries and hosts (step 4), the runtime and the
#                         scripts (no GEMM, no direct launches, no reference
#                         kernels)
#   --fp8-only            only what fp8-run.sh needs: the FP8 libraries (step
#                         4b), the runtime and the scripts
# Environment: BUILD_DIR (default <repo>/build), BUNDLE_DIR (default
#   <repo>/build-gpu), CHIP (default sm_90a), AOT_FORMAT (bin or isa; default
#   bin where ptxas is found), PIPELINE (default
#   builtin.module(tile-to-nvvm{chip=$CHIP persistent=false})), PTX_PIPELINE
#   (default the same with format=isa; none: no PTX),
#   NVCC (default nvcc on PATH or /usr/local/cuda/bin/nvcc), CC (default cc),
#   FA_VARIANTS (the FlashAttention variants to build, default all eight),
#   FA_VARIANT_ARGS (scripts/fa-variant.py options for all of them; default
#   "--block-n 128").
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
BUNDLE="${BUNDLE_DIR:-$ROOT/build-gpu}"
CHIP="${CHIP:-sm_90a}"
# (Not ${PIPELINE:-...}: the braces of the pass options would end it.)
# The direct launches use a grid of one block per C tile (tile-gemm-bench
# --tile): no persistent grid.
if [[ -z "${PIPELINE:-}" ]]; then
  PIPELINE="builtin.module(tile-to-nvvm{chip=$CHIP persistent=false})"
fi
if [[ -z "${PTX_PIPELINE:-}" ]]; then
  PTX_PIPELINE="builtin.module(tile-to-nvvm{chip=$CHIP format=isa persistent=false})"
fi
[[ $PTX_PIPELINE == none ]] && PTX_PIPELINE=""
if [[ -z "${AOT_FORMAT:-}" ]]; then
  AOT_FORMAT=isa
  if command -v ptxas >/dev/null || [[ -x /usr/local/cuda/bin/ptxas ]]; then
    AOT_FORMAT=bin
  fi
fi
MAX_BUNDLE_MIB=60

reference_only=0
allow_missing_tile=0
no_build=0
fa_only=0
fp8_only=0
for arg in "$@"; do
  case "$arg" in
    --fa-only) fa_only=1 ;;
    --fp8-only) fa_only=1 fp8_only=1 ;;
    --reference-only) reference_only=1 ;;
    --allow-missing-tile) allow_missing_tile=1 ;;
    --no-build) no_build=1 ;;
    -h|--help) sed -n '2,70p' "$0"; exit 0 ;;
    *) echo "gpu-bundle: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done

log() { echo "gpu-bundle: $*"; }
# joined ITEMS...: the items separated by "; ".
joined() { local IFS=$'\x1f'; local text="$*"; echo "${text//$'\x1f'/; }"; }
die() { echo "gpu-bundle: error: $*" >&2; exit 1; }

# --- 1. Build ----------------------------------------------------------------
TARGETS=(tile-opt tile-compile tile-extract-kernel tile-gemm-bench
         tile-fa-bench TileCudaRuntime tile-runtime-gpu-test
         tile-runtime-errors-test)
((fa_only)) && TARGETS=(tile-opt tile-compile TileCudaRuntime)
if ((no_build)); then
  log "--no-build: using the programs in $BUILD_DIR"
elif [[ ! -f "$BUILD_DIR/build.ninja" ]]; then
  log "$BUILD_DIR is not configured: running scripts/setup.sh"
  BUILD_DIR="$BUILD_DIR" SETUP_TARGETS="${TARGETS[*]}" bash "$ROOT/scripts/setup.sh"
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
LIB="$BUILD_DIR/lib"

rm -rf "$BUNDLE"
mkdir -p "$BUNDLE"
cp "$LIB/libtile_cuda_runtime.so" "$BUNDLE/"

tile_ok=0
compiled_with=()
same_kernels=()
# failed WHAT LOG: records a kernel that did not compile.
failed() {
  tail -n 20 "$2" >&2
  log "error: $1 did not compile (see $(basename "$2"))"
  compiled_with+=("$1: FAILED")
  tile_ok=0
}

# --- 2. The AOT libraries and the example host -------------------------------
# library NAME [VARIANT_ARGS...]: aot/NAME/{libgemm.so,gemm.h}.
library() {
  local name="$1" dir="$BUNDLE/aot/$1" source="$ROOT/examples/gemm.mlir"
  shift
  mkdir -p "$dir"
  if (($#)); then
    source="$dir/gemm.mlir"
    python3 "$ROOT/scripts/gemm-variant.py" "$@" "$source" || return 1
  fi
  "$BIN/tile-compile" "$source" -o "$dir/libgemm.so" --header "$dir/gemm.h" \
    --chip "$CHIP" --format "$AOT_FORMAT" --runtime-dir "$LIB"
}

if ((reference_only)); then
  log "--reference-only: not compiling the tile-mlir kernels"
elif ((fa_only)); then
  tile_ok=1
else
  tile_ok=1
  for variant in "f16" "bf16 --dtype=bf16" "f16-64x256 64 256 32 256 4"; do
    read -r -a args <<<"$variant"
    clog="$BUNDLE/compile_aot_${args[0]}.log"
    log "tile-compile: aot/${args[0]}/libgemm.so ($CHIP, format=$AOT_FORMAT)"
    if library "${args[@]}" >"$clog" 2>&1; then
      compiled_with+=("aot/${args[0]}: tile-compile")
    else
      failed "aot/${args[0]}" "$clog"
      rm -rf "$BUNDLE/aot/${args[0]}"
    fi
  done
  if [[ -f $BUNDLE/aot/f16/libgemm.so ]]; then
    # The host, as a user builds it: the header, the library, the runtime.
    log "building gemm-host (examples/gemm_host.c) against aot/f16"
    "${CC:-cc}" -std=c11 -O2 -pedantic -Wall -Wextra -Werror \
      -I"$BUNDLE/aot/f16" -I"$ROOT/runtime/include" \
      "$ROOT/examples/gemm_host.c" -o "$BUNDLE/gemm-host" \
      -L"$BUNDLE/aot/f16" -lgemm -L"$BUNDLE" -ltile_cuda_runtime -lm \
      -Wl,-rpath,'$ORIGIN/aot/f16:$ORIGIN'
  fi
fi

# --- 3. Kernels alone, for direct launches -----------------------------------
# extract SOURCE KERNEL NAME LOG: NAME.cubin and NAME.info (PIPELINE), through
# the C API or, failing that, tile-opt; NAME.ptx (PTX_PIPELINE).
extract() {
  local source="$1" kernel="$2" name="$3" clog="$4"
  if "$BIN/tile-extract-kernel" "$source" --kernel="$kernel" \
       --pipeline="$PIPELINE" --binary="$BUNDLE/$name.cubin" \
       --launch-info="$BUNDLE/$name.info" >"$clog" 2>&1; then
    compiled_with+=("$name: C API")
  elif log "the C API failed ($(basename "$clog")); trying tile-opt" &&
       "$BIN/tile-opt" "$source" --pass-pipeline="$PIPELINE" \
         -o "$BUNDLE/$name.compiled.mlir" >>"$clog" 2>&1 &&
       "$BIN/tile-extract-kernel" "$BUNDLE/$name.compiled.mlir" \
         --kernel="$kernel" --pipeline='builtin.module()' \
         --binary="$BUNDLE/$name.cubin" --launch-info="$BUNDLE/$name.info" \
         >>"$clog" 2>&1; then
    compiled_with+=("$name: tile-opt")
  else
    rm -f "$BUNDLE/$name.cubin" "$BUNDLE/$name.info" \
      "$BUNDLE/$name.compiled.mlir"
    failed "$name" "$clog"
    return 0
  fi
  rm -f "$BUNDLE/$name.compiled.mlir"
  grep -F "$kernel:" "$clog" || true
  if [[ -n "$PTX_PIPELINE" ]]; then
    "$BIN/tile-extract-kernel" "$source" --kernel="$kernel" \
      --pipeline="$PTX_PIPELINE" --binary="$BUNDLE/$name.ptx" >>"$clog" 2>&1 ||
      log "warning: no PTX for $name (see $(basename "$clog"))"
  fi
}

if ((!reference_only && !fa_only)); then
  for dtype in f16 bf16; do
    log "extracting gemm_kernel ($dtype) with $PIPELINE"
    source="$ROOT/examples/gemm.mlir"
    if [[ $dtype == bf16 ]]; then
      source="$BUNDLE/gemm_bf16.source.mlir"
      python3 "$ROOT/scripts/gemm-variant.py" --dtype=bf16 "$source"
    fi
    extract "$source" gemm_kernel "gemm_$dtype" "$BUNDLE/compile_$dtype.log"
    rm -f "$BUNDLE/gemm_bf16.source.mlir"
  done
  # tile-gemm-bench --overhead compares a library's gemm() with launches of
  # this file: is it the library's kernel, byte for byte? (MANIFEST)
  for dtype in f16 bf16; do
    [[ -f $BUNDLE/gemm_$dtype.cubin && -f $BUNDLE/aot/$dtype/libgemm.so ]] ||
      continue
    if python3 - "$BUNDLE/gemm_$dtype.cubin" "$BUNDLE/aot/$dtype/libgemm.so" <<'PY'
import sys
sys.exit(open(sys.argv[1], "rb").read() not in open(sys.argv[2], "rb").read())
PY
    then
      same_kernels+=("gemm_$dtype.cubin = aot/$dtype's")
    else
      same_kernels+=("gemm_$dtype.cubin differs from aot/$dtype's")
    fi
  done
  log "extracting flash_attention_fwd_kernel with $PIPELINE"
  extract "$ROOT/examples/flash_attention.mlir" flash_attention_fwd_kernel fa \
    "$BUNDLE/compile_fa.log"
fi

# --- 4. The FlashAttention libraries and hosts (fa-matrix.sh) ----------------
# fa_library VARIANT: aot-fa/VARIANT/{libflash_attention.so,flash_attention.h,
# fa-host}; VARIANT is {nc,causal}-{f16,bf16}-d{128,64}.
fa_library() {
  local name="$1" dir="$BUNDLE/aot-fa/$1" kind dtype d
  IFS=- read -r kind dtype d <<<"$name"
  d="${d#d}"
  local args=(--dtype "$dtype" --head-dim "$d") defines=(-DFA_HEAD_DIM="$d")
  [[ $kind == causal ]] && args+=(--causal) defines+=(-DFA_CAUSAL)
  [[ $dtype == bf16 ]] && defines+=(-DFA_DTYPE_BF16)
  local extra
  read -r -a extra <<<"${FA_VARIANT_ARGS---block-n 128}"
  mkdir -p "$dir"
  python3 "$ROOT/scripts/fa-variant.py" "${args[@]}" "${extra[@]}" \
    "$dir/flash_attention.mlir" || return 1
  "$BIN/tile-compile" "$dir/flash_attention.mlir" \
    -o "$dir/libflash_attention.so" --header "$dir/flash_attention.h" \
    --chip "$CHIP" --format "$AOT_FORMAT" --runtime-dir "$LIB" || return 1
  "${CC:-cc}" -std=c11 -O2 -pedantic -Wall -Wextra -Werror "${defines[@]}" \
    -I"$dir" -I"$ROOT/runtime/include" "$ROOT/examples/fa_host.c" \
    -o "$dir/fa-host" -L"$dir" -lflash_attention -L"$BUNDLE" \
    -ltile_cuda_runtime -lm -Wl,-rpath,'$ORIGIN:$ORIGIN/../..'
}

FA_VARIANTS="${FA_VARIANTS:-nc-f16-d128 causal-f16-d128 nc-bf16-d128
  causal-bf16-d128 nc-f16-d64 causal-f16-d64 nc-bf16-d64 causal-bf16-d64}"
((fp8_only)) && FA_VARIANTS=""
if ((!reference_only)); then
  for variant in $FA_VARIANTS; do
    [[ $variant =~ ^(nc|causal)-(f16|bf16)-d(64|128)$ ]] ||
      die "bad FlashAttention variant '$variant'"
    clog="$BUNDLE/compile_fa_$variant.log"
    log "tile-compile: aot-fa/$variant/libflash_attention.so ($CHIP," \
      "format=$AOT_FORMAT, ${FA_VARIANT_ARGS---block-n 128}) and fa-host"
    if fa_library "$variant" >"$clog" 2>&1; then
      compiled_with+=("aot-fa/$variant: tile-compile")
    else
      failed "aot-fa/$variant" "$clog"
      rm -rf "$BUNDLE/aot-fa/$variant"
    fi
  done

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

# --- 4b. The FP8 GEMM libraries (fp8-run.sh) ---------------------------------
# fp8_library VARIANT: aot-fp8/VARIANT/{libfp8_gemm.so,fp8_gemm.h}.
fp8_library() {
  local dir="$BUNDLE/aot-fp8/$1" source="$ROOT/examples/fp8_gemm.mlir"
  local chip="$CHIP" format="$AOT_FORMAT" name=fp8_gemm
  mkdir -p "$dir"
  case "$1" in
    quantize) source="$ROOT/examples/fp8_quantize.mlir" name=fp8_quantize ;;
    rs) source="$ROOT/test/Examples/Inputs/fp8_rs.mlir" name=fp8_rs ;;
    e5m2a)
      source="$dir/fp8_gemm.mlir"
      sed -e 's/^!gA = memref<?x?xf8E4M3FN>/!gA = memref<?x?xf8E5M2>/' \
        -e 's/^!sA = memref<128x128xf8E4M3FN,/!sA = memref<128x128xf8E5M2,/' \
        "$ROOT/examples/fp8_gemm.mlir" >"$source"
      grep -q 'f8E5M2>$' "$source" || return 1 ;;
    sm89) chip=sm_89 format=isa ;;
    f16out|f32out)
      source="$dir/fp8_gemm.mlir"
      sed -e "s/^!gC = memref<?x?xbf16>/!gC = memref<?x?x${1%out}>/" \
        "$ROOT/examples/fp8_gemm.mlir" >"$source"
      grep -q "^!gC = memref<?x?x${1%out}>" "$source" || return 1 ;;
  esac
  "$BIN/tile-compile" "$source" -o "$dir/lib$name.so" \
    --header "$dir/$name.h" --chip "$chip" --format "$format" \
    --runtime-dir "$LIB"
}

if ((!reference_only)) && { ((fp8_only)) || ((!fa_only)); }; then
  for variant in e4m3 e5m2a f16out f32out sm89 quantize rs; do
    clog="$BUNDLE/compile_fp8_$variant.log"
    log "tile-compile: aot-fp8/$variant"
    if fp8_library "$variant" >"$clog" 2>&1; then
      compiled_with+=("aot-fp8/$variant: tile-compile")
    else
      failed "aot-fp8/$variant" "$clog"
      rm -rf "$BUNDLE/aot-fp8/$variant"
    fi
  done
fi

# --- 5. Reference kernels ----------------------------------------------------
NVCC="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
if ((fa_only)); then
  log "--fa-only: no reference kernels"
elif [[ -x "$NVCC" ]]; then
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
if ((!fa_only)) && ! compgen -G "$BUNDLE/*gemm_*.cubin" >/dev/null &&
   ! compgen -G "$BUNDLE/aot/*/libgemm.so" >/dev/null; then
  die "neither tile-mlir nor reference kernels: nothing to run"
fi

# --- 6. Programs, run scripts, checks ----------------------------------------
PROGRAMS=(tile-gemm-bench tile-fa-bench tile-runtime-gpu-test
          tile-runtime-errors-test)
((fa_only)) && PROGRAMS=()
for program in "${PROGRAMS[@]}"; do
  cp "$BIN/$program" "$BUNDLE/"
done
cp "$ROOT/scripts/gpu-run.sh" "$BUNDLE/gpu-run.sh"
cp "$ROOT/scripts/fa-matrix.sh" "$ROOT/scripts/fa-sdpa.py" \
  "$ROOT/scripts/gpu_torch.py" "$ROOT/scripts/gpu_power.py" \
  "$ROOT/scripts/fp8-run.sh" \
  "$ROOT/scripts/fp8-torch.py" "$BUNDLE/"
# The GPU machine has no MLIR or LLVM: nothing may need them, and everything
# must resolve inside the bundle (or the system).
for file in "$BUNDLE"/tile-* "$BUNDLE"/gemm-host "$BUNDLE"/aot/*/libgemm.so \
            "$BUNDLE"/aot-fa/*/libflash_attention.so "$BUNDLE"/aot-fa/*/fa-host \
            "$BUNDLE"/aot-fp8/*/libfp8_*.so \
            "$BUNDLE/libtile_cuda_runtime.so"; do
  [[ -f $file ]] || continue
  if ldd "$file" | grep -E 'MLIR|LLVM|not found'; then
    die "$(basename "$file") needs libraries the GPU machine does not have"
  fi
done
# (ldd's output is captured first: with pipefail, grep -q exiting at the
# first match can fail the pipeline through ldd's SIGPIPE.)
if [[ -x $BUNDLE/gemm-host ]] &&
   [[ $(ldd "$BUNDLE/gemm-host") != *"libtile_cuda_runtime.so => $BUNDLE/"* ]]; then
  die "gemm-host does not find the bundle's libtile_cuda_runtime.so"
fi
for host in "$BUNDLE"/aot-fa/*/fa-host; do
  [[ -x $host ]] || continue
  deps="$(ldd "$host")"
  [[ $deps == *"libtile_cuda_runtime.so => $BUNDLE/"* &&
     $deps == *"libflash_attention.so => $(dirname "$host")/"* ]] ||
    die "$host does not find its library and the bundle's runtime"
done

bundle_kib=$(du -sk "$BUNDLE" | cut -f1)
((bundle_kib < MAX_BUNDLE_MIB * 1024)) ||
  die "bundle is $((bundle_kib / 1024)) MiB (limit $MAX_BUNDLE_MIB MiB)"

{
  echo "tile-mlir GPU bundle"
  echo "created: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname)"
  echo "commit: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)$(
    git -C "$ROOT" diff --quiet 2>/dev/null || echo ' (with local changes)')"
  echo "chip: $CHIP, libraries: format=$AOT_FORMAT"
  echo "pipeline: $PIPELINE"
  echo "tile-mlir kernels: $(joined "${compiled_with[@]:-none}")"
  echo "kernels for direct launches: $(joined "${same_kernels[@]:-none}")"
  echo
  (cd "$BUNDLE" && find . -type f ! -name MANIFEST | sed 's|^\./||' | sort |
    xargs sha256sum --)
} >"$BUNDLE/MANIFEST"

log "bundle $BUNDLE ($((bundle_kib / 1024)) MiB):"
(cd "$BUNDLE" && find . -type f | sed 's|^\./||' | sort | xargs ls -l)
log "run it on the GPU machine with the device tool:"
run_script=gpu-run.sh
((fa_only)) && run_script=fa-matrix.sh
((fp8_only)) && run_script=fp8-run.sh
log "  carry [\"$(basename "$BUNDLE")\"], command \"bash $(basename "$BUNDLE")/$run_script\""
((fa_only)) || log "  (FlashAttention's matrix: bash $(basename "$BUNDLE")/fa-matrix.sh)"
