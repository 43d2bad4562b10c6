#!/usr/bin/env bash
# The kernels behind the compiler's default decisions (docs/design.md 3.1),
# built here for the GPU machine next to scripts/gpu-bundle.sh's bundle, and
# the command that measures them there.
#
#   BUILD_DIR=build bash scripts/gpu-defaults.sh build   # here, after
#                                                        # gpu-bundle.sh
#   bash build-gpu/gpu-defaults.sh run                   # there ($OUT/log)
#
# build: compiles with tile-compile (sm_90a, cubins) into
# build-gpu/defaults/<name>/lib.so (+ lib.h):
#   example-bf16        examples/gemm.mlir in bf16, as shipped (the
#                       compiler's defaults)
#   example-bf16-nows   the same with tile.warp_specialize = false
#   example-bf16-noclu  the same with tile.cluster = 1 (no clusters)
#   example-bf16-g1     the same with tile.launch_group = 1 (row-major)
#   bk32-bf16           128x256x32 tiles with 8 stages (fits CDNA's LDS at
#                       2 stages)
#   old-bf16            the former example's tiles (128x128x32, 128 threads,
#                       4 stages): the occupancy rule leaves it unspecialized
#   old-bf16-ws         the same with tile.warp_specialize = true
#   f32out, biasrelu, bmm   test/Examples/Inputs/gemm_{f32_out,bias_relu,
#                       batched}.mlir
#   fa-d64, fa-d64-ws   FlashAttention D = 64 (scripts/fa-variant.py) as
#                       the compiler decides, and forced specialized
#   tune/               tile-tune --compile-only of examples/gemm_tunable.mlir
#                       over examples/gemm_hopper.space (bf16)
# run: the GEMM variants against cuBLAS on SWEEP (tile-gemm-bench, same
# process), correctness of each (tile-gemm-bench --check, fp64 CPU
# reference, offsets 1 and 8), the f32, bias + ReLU and batched kernels
# against torch (scripts/gemm-torch.py: check on odd shapes and offsets,
# then speed), the tuner's timing phase on SWEEP (tile-tune-time, the cache
# in $OUT/gemm.cache), FlashAttention D = 64 both ways (scripts/fa-sdpa.py).
set -euo pipefail

SWEEP="${SWEEP:-2048x2048x2048,4096x4096x4096,8192x8192x8192,4096x4096x256,4096x4096x1024,4096x4096x16384,8192x8192x1024,8192x8192x16384,1024x8192x8192,8192x1024x8192,5120x5120x5120,6144x6144x6144,16384x4096x4096,4096x14336x4096,2048x8192x2048}"
CHECK="1x1x1,3x5x7,129x65x33,1000x1000x1000,4095x4097x1023,1x4096x4096,8192x16x4096"

build() {
  local root build_dir out
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  build_dir="${BUILD_DIR:-$root/build}"
  out="$root/build-gpu"
  [[ -d $out ]] || { echo "gpu-defaults: run scripts/gpu-bundle.sh first" >&2; exit 1; }
  local tmp="$out/defaults/src"
  mkdir -p "$tmp"
  local variant="python3 $root/scripts/gemm-variant.py"
  local fa="python3 $root/scripts/fa-variant.py"
  $variant --dtype bf16 "$tmp/example-bf16.mlir"
  sed 's/threads(256) {/threads(256) attributes {tile.warp_specialize = false} {/' \
    "$tmp/example-bf16.mlir" > "$tmp/example-bf16-nows.mlir"
  sed 's/threads(256) {/threads(256) attributes {tile.cluster = 1} {/' \
    "$tmp/example-bf16.mlir" > "$tmp/example-bf16-noclu.mlir"
  $variant --dtype bf16 --group-m 1 "$tmp/example-bf16-g1.mlir"
  $variant --dtype bf16 128 256 32 256 8 "$tmp/bk32-bf16.mlir"
  $variant --dtype bf16 128 128 32 128 4 "$tmp/old-bf16.mlir"
  sed 's/threads(128) {/threads(128) attributes {tile.warp_specialize = true} {/' \
    "$tmp/old-bf16.mlir" > "$tmp/old-bf16-ws.mlir"
  cp "$root/test/Examples/Inputs/gemm_f32_out.mlir" "$tmp/f32out.mlir"
  cp "$root/test/Examples/Inputs/gemm_bias_relu.mlir" "$tmp/biasrelu.mlir"
  cp "$root/test/Examples/Inputs/gemm_batched.mlir" "$tmp/bmm.mlir"
  $fa --head-dim 64 "$tmp/fa-d64.mlir"
  sed 's/threads(256) {/threads(256) attributes {tile.warp_specialize = true} {/' \
    "$tmp/fa-d64.mlir" > "$tmp/fa-d64-ws.mlir"
  for src in "$tmp"/*.mlir; do
    local name
    name="$(basename "$src" .mlir)"
    mkdir -p "$out/defaults/$name"
    local header=lib.h
    [[ $name == fa-* ]] && header=flash_attention.h
    echo "gpu-defaults: $name"
    "$build_dir/bin/tile-compile" "$src" --chip sm_90a --format bin \
      -o "$out/defaults/$name/lib.so" --header "$out/defaults/$name/$header" \
      --rpath '$ORIGIN/../..'
  done
  # The tuner's variants (examples/gemm_hopper.space), timed there by
  # tile-tune-time into a cache that tile-compile --tuned builds from here.
  "$build_dir/bin/tile-tune" "$root/examples/gemm_tunable.mlir" \
    --space "$root/examples/gemm_hopper.space" -D DTYPE=bf16 --chip sm_90a \
    --shapes "$SWEEP" --compile-only --work-dir "$out/defaults/tune"
  cp "$build_dir/bin/tile-tune-time" "$out/"
  cp "$root/scripts/gpu-defaults.sh" "$root/scripts/gemm-torch.py" \
    "$root/scripts/gpu_torch.py" "$out/"
  rm -rf "$tmp"
  du -sh "$out"
}

run() {
  cd "$(dirname "${BASH_SOURCE[0]}")"
  export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}"
  local log="${OUT:-.}/defaults.log"
  {
    nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv
    local d
    for name in example-bf16 example-bf16-nows example-bf16-g1 bk32-bf16 \
                old-bf16 old-bf16-ws; do
      d=defaults/$name
      echo "== check $name"
      ./tile-gemm-bench --library=$d/lib.so --dtype=bf16 --check --shapes="$CHECK" | tail -3
      for off in 1 8; do
        ./tile-gemm-bench --library=$d/lib.so --dtype=bf16 --check --no-cublas \
          --offset=$off --shapes=129x65x33,1000x1000x1000 | tail -1
      done
    done
    for name in example-bf16 example-bf16-nows example-bf16-g1 bk32-bf16 \
                old-bf16 old-bf16-ws; do
      echo "== bench $name"
      ./tile-gemm-bench --library=defaults/$name/lib.so --dtype=bf16 \
        --shapes="$SWEEP" --runs=5
    done
    echo "== f32 out"
    python3 gemm-torch.py --library=defaults/f32out/lib.so --kind=gemm \
      --function=gemm_f32 --out-dtype=f32 --check=1x1x1,3x5x7,129x65x33,1000x1000x1000,4095x4097x1023 \
      --bench=4096x4096x4096,8192x8192x8192
    echo "== bias relu"
    python3 gemm-torch.py --library=defaults/biasrelu/lib.so --kind=bias_relu \
      --check=1x1x1,3x5x7,129x65x33,1000x1000x1000,4095x4097x1023 \
      --bench=4096x4096x4096,8192x8192x8192
    echo "== batched"
    python3 gemm-torch.py --library=defaults/bmm/lib.so --kind=bmm_nt \
      --check=1x1x1x1,2x3x5x7,3x129x65x33,2x1000x1000x1000 \
      --bench=16x1024x1024x1024,8x4096x4096x4096
    echo "== tuner"
    ./tile-tune-time defaults/tune --shapes "$SWEEP" --cache "${OUT:-.}/gemm.cache"
    for name in fa-d64 fa-d64-ws; do
      echo "== FA $name"
      python3 fa-sdpa.py --library=defaults/$name/lib.so --check --check-shapes=1:2:1,1:2:129,2:4:1000 --offset=0,1
      python3 fa-sdpa.py --library=defaults/$name/lib.so --bench --shapes=4:16:4096
    done
  } 2>&1 | tee "$log"
}

# sweep NAME...: check (odd shapes, offsets 1 and 8, memcheck) and time on
# SWEEP each library build-gpu/defaults/NAME/lib.so (e.g. tuned: the
# tile-compile --tuned library of the cache run wrote).
sweep() {
  cd "$(dirname "${BASH_SOURCE[0]}")"
  export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}"
  local log="${OUT:-.}/sweep.log" name lib
  {
    nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv
    for name in "$@"; do
      lib=defaults/$name/lib.so
      echo "== check $name"
      ./tile-gemm-bench --library=$lib --dtype=bf16 --check \
        --shapes="$CHECK,1000x1000x1000,2047x1025x513" | tail -2
      for off in 1 8; do
        ./tile-gemm-bench --library=$lib --dtype=bf16 --check --no-cublas \
          --offset=$off --shapes=129x65x33,1000x1000x1000,4095x4097x1023 | tail -1
      done
      compute-sanitizer --tool memcheck --error-exitcode 1 ./tile-gemm-bench \
        --library=$lib --dtype=bf16 --check --no-cpu-ref \
        --shapes=129x65x33,300x520x200 | tail -2
    done
    for name in "$@"; do
      echo "== bench $name"
      ./tile-gemm-bench --library=defaults/$name/lib.so --dtype=bf16 \
        --shapes="$SWEEP" --runs=5 | grep '^|'
    done
  } 2>&1 | tee "$log"
}

case "${1:-}" in
build) build ;;
run) run ;;
sweep) shift; sweep "$@" ;;
*) echo "usage: gpu-defaults.sh build|run|sweep NAME..." >&2; exit 2 ;;
esac
