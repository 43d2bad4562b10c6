#!/usr/bin/env bash
# The FP8 GEMMs of examples/fp8_gemm.mlir on the GPU machine, from the bundle
# scripts/gpu-bundle.sh makes (--fp8-only for a bundle of just these), with
# scripts/fp8-torch.py against torch._scaled_mm (cuBLASLt) in one process:
#
#   carry ["build-gpu"], command "bash build-gpu/fp8-run.sh"
#
# Steps (each under a time limit; a step whose library is missing is skipped):
#   1. correctness, aot-fp8/e4m3 (e4m3 x e4m3, bf16 out), per-tensor,
#      row-wise and block-wise scales: CHECK_SHAPES at byte offsets 0, 16 and
#      1 (1: the fall-back kernel, no tensor copies);
#   2. the same for aot-fp8/e5m2a (A in e5m2, B in e4m3), offsets 0 and 1;
#   2a. C in f16 and in f32 (aot-fp8/f16out, f32out), every scale kind,
#      offsets 0 and 1;
#   2b. the quantization kernel (aot-fp8/quantize, examples/fp8_quantize.mlir)
#      against torch's own 1 x 128 quantization, and the chain quantize ->
#      block-wise GEMM, offsets 0 and 1; the RS-form GEMM (aot-fp8/rs) with
#      per-tensor scales;
#   3. the sm_89 library (mma.sync m16n8k32 from PTX the driver compiles for
#      this GPU): every scale kind on CHECK_SHAPES at offsets 0 and 1, and
#      its speed at 4096^3;
#   4. compute-sanitizer memcheck (offsets 0 and 1) on small shapes of each
#      scale kind, racecheck and synccheck on per-tensor and block-wise
#      scales (aot-fp8/e4m3);
#   5. speed against torch._scaled_mm, every scale kind, BENCH_SHAPES.
# Logs to stdout and $OUT/fp8-run.log; a summary table comes last. Exit
# status 0 if every step that ran passed.
#
# Environment: STEP_TIMEOUT (seconds, default 300), CHECK_SHAPES,
# BENCH_SHAPES, SKIP_SANITIZER=1, ONLY (an extended regular expression: only
# the steps whose names match it run).
set -uo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$HERE" || exit 2
if [[ -n "${OUT:-}" ]]; then
  mkdir -p "$OUT"
  exec > >(tee -a "$OUT/fp8-run.log") 2>&1
fi
export LD_LIBRARY_PATH="$HERE:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH="$PATH:/usr/local/cuda/bin"

STEP_TIMEOUT="${STEP_TIMEOUT:-300}"
CHECK_SHAPES="${CHECK_SHAPES:-1x1x32,3x5x7,128x128x128,1000x1000x1000,4095x4097x1023,8192x16x4096}"
SANITIZER_SHAPES="129x65x300,3x5x7"
BENCH_SHAPES="${BENCH_SHAPES:-4096x4096x4096,8192x8192x8192,8192x8192x4096,4096x7168x16384}"
ONLY="${ONLY:-}"
KINDS=(tensor rowwise blockwise)

names=() results=()
step() {
  local name="$1"
  shift
  if [[ -n $ONLY && ! $name =~ $ONLY ]]; then
    return
  fi
  echo
  echo "=== $name: $*"
  local start=$SECONDS status
  timeout "$STEP_TIMEOUT" "$@"
  status=$?
  names+=("$name")
  if ((status == 0)); then
    results+=("PASS ($((SECONDS - start)) s)")
  elif ((status == 124)); then
    results+=("TIMEOUT")
  else
    results+=("FAIL ($status)")
  fi
}

FP8_TORCH=(python3 "$HERE/fp8-torch.py")

echo "=== device"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total \
  --format=csv,noheader
python3 -c 'import torch; print("torch", torch.__version__, "cuda",
  torch.version.cuda, torch.cuda.get_device_name())'

lib() { echo "$HERE/aot-fp8/$1/libfp8_gemm.so"; }

if [[ -f $(lib e4m3) ]]; then
  for kind in "${KINDS[@]}"; do
    step "check-e4m3-$kind" "${FP8_TORCH[@]}" --library "$(lib e4m3)" --kind "$kind" \
      --check "$CHECK_SHAPES" --offsets 0,16,1
  done
fi
if [[ -f $(lib e5m2a) ]]; then
  for kind in "${KINDS[@]}"; do
    step "check-e5m2a-$kind" "${FP8_TORCH[@]}" --library "$(lib e5m2a)" \
      --kind "$kind" --a-dtype e5m2 --check "$CHECK_SHAPES" --offsets 0,1
  done
fi
for out in f16 f32; do
  [[ -f $(lib ${out}out) ]] || continue
  for kind in "${KINDS[@]}"; do
    step "check-$out-out-$kind" "${FP8_TORCH[@]}" --library "$(lib ${out}out)" \
      --kind "$kind" --out-dtype "$out" --check "$CHECK_SHAPES" --offsets 0,1
  done
done
if [[ -f $HERE/aot-fp8/quantize/libfp8_quantize.so && -f $(lib e4m3) ]]; then
  step "quantize-chain" "${FP8_TORCH[@]}" --library "$(lib e4m3)" \
    --kind blockwise --quantize "$HERE/aot-fp8/quantize/libfp8_quantize.so" \
    --check "$CHECK_SHAPES" --offsets 0,1
fi
if [[ -f $HERE/aot-fp8/rs/libfp8_rs.so ]]; then
  step "check-rs" "${FP8_TORCH[@]}" --library "$HERE/aot-fp8/rs/libfp8_rs.so" \
    --function fp8_rs --kind tensor --check "$CHECK_SHAPES" --offsets 0,1
fi
if [[ -f $(lib sm89) ]]; then
  for kind in "${KINDS[@]}"; do
    step "check-sm89-$kind" "${FP8_TORCH[@]}" --library "$(lib sm89)" --kind "$kind" \
      --check "$CHECK_SHAPES" --offsets 0,1
  done
  step "bench-sm89" "${FP8_TORCH[@]}" --library "$(lib sm89)" --kind tensor \
    --bench 4096x4096x4096 --runs 3
fi
if [[ -f $(lib e4m3) && -z ${SKIP_SANITIZER:-} ]]; then
  for kind in "${KINDS[@]}"; do
    step "memcheck-$kind" compute-sanitizer --tool memcheck --error-exitcode 9 \
      python3 "$HERE/fp8-torch.py" --library "$(lib e4m3)" --kind "$kind" \
      --check "$SANITIZER_SHAPES" --offsets 0,1
  done
  # The per-tensor kernel promotes one K block late (partial sums in
  # flight, releases deferred); the block-wise one scales each K block one
  # gemm late (tile.consumer_late: its product in flight, releases
  # deferred).
  for tool in racecheck synccheck; do
    for kind in tensor blockwise; do
      step "$tool-$kind" compute-sanitizer --tool "$tool" --error-exitcode 9 \
        python3 "$HERE/fp8-torch.py" --library "$(lib e4m3)" --kind "$kind" \
        --check 129x65x300 --offsets 0
    done
  done
fi
if [[ -f $(lib e4m3) ]]; then
  for kind in "${KINDS[@]}"; do
    step "bench-$kind" "${FP8_TORCH[@]}" --library "$(lib e4m3)" --kind "$kind" \
      --bench "$BENCH_SHAPES"
  done
fi

echo
echo "=== summary"
status=0
for i in "${!names[@]}"; do
  printf '%-24s %s\n' "${names[$i]}" "${results[$i]}"
  [[ ${results[$i]} == PASS* ]] || status=1
done
exit $status
