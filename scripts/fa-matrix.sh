#!/usr/bin/env bash
# FlashAttention on the GPU machine: the whole correctness matrix of issue
# 14, the speed table and the sanitizers, for every FlashAttention library
# of the bundle scripts/gpu-bundle.sh makes (this script is copied into
# it). Device tool call:
#
#   carry ["build-gpu"], command "bash build-gpu/fa-matrix.sh"
#
# The libraries are aot-fa/<variant>/libflash_attention.so, <variant> =
# {nc,causal}-{f16,bf16}-d{128,64}: examples/flash_attention.mlir,
# examples/flash_attention_causal.mlir and their scripts/fa-variant.py
# variants, compiled with tile-compile for sm_90a; each directory also
# holds its header and fa-host (examples/fa_host.c built for it).
#
# Per variant (each step under a time limit, STEP_TIMEOUT seconds):
#   1. host:  fa-host, the C host of the examples: S = 1, 77, 129, 255,
#      1000, 2048 against a CPU fp64 reference, views at offsets 0, 1 and
#      8, O poisoned, and the mismatched-shape error path;
#   2. check: scripts/fa-sdpa.py --check, against SDPA in fp32 (is_causal
#      for the causal ones), error within twice SDPA's own in f16/bf16:
#      S = 1, 129, 1000, 4096 (CHECK_SHAPES), views at offsets 0, 8 and 1
#      (1: the kernel without tensor copies);
#   3. compute-sanitizer memcheck, racecheck and synccheck on fa-host with
#      one small problem per kernel (SAN_SHAPES: S = 129 with tensor
#      copies, S = 77 at offset 1 without), --kernel-name
#      kns=flash_attention;
#   4. bench: fa-sdpa.py --bench at B4 H16 S4096 (BENCH_SHAPES) against
#      cuDNN (is_causal for the causal ones) in the same process; TFLOP/s
#      with 4 B H S^2 D FLOPs, half that causal.
# Then the kernels' register counts (cuobjdump, when found) and a summary:
# the result of every step and the speed table. Everything goes to stdout
# and, when OUT is set, to $OUT/fa-matrix.log.
#
# Usage: bash build-gpu/fa-matrix.sh [REGEX]   (only the variants matching
#   REGEX, e.g. 'd128' or '^causal-f16')
# Environment: STEP_TIMEOUT (default 180), STEPS (default
#   "host check sanitize bench"), CHECK_SHAPES (B:H:S,...), CHECK_OFFSETS
#   (default 0,8,1), SAN_SHAPES (fa-host's BxHxS[@OFFSET],...),
#   BENCH_SHAPES (B:H:S,...), ITERS (fa-sdpa.py --iters, default 20).
# Exit status: 0 if every step that ran passed.
set -uo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
FILTER="${1:-.}"
STEP_TIMEOUT="${STEP_TIMEOUT:-180}"
STEPS="${STEPS:-host check sanitize bench}"
CHECK_SHAPES="${CHECK_SHAPES:-1:2:1,1:2:129,2:3:1000,1:2:4096}"
CHECK_OFFSETS="${CHECK_OFFSETS:-0,8,1}"
SAN_SHAPES="${SAN_SHAPES:-1x2x129,1x1x77@1}"
BENCH_SHAPES="${BENCH_SHAPES:-4:16:4096}"
ITERS="${ITERS:-20}"

if [[ -n "${OUT:-}" ]]; then
  mkdir -p "$OUT"
  exec > >(tee -a "$OUT/fa-matrix.log") 2>&1
  tee_pid=$!
fi
export PATH="$PATH:/usr/local/cuda/bin"
export LD_LIBRARY_PATH="$HERE:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

SUMMARY=()
SPEED=()
failed=0

# step NAME COMMAND...: runs COMMAND with a time limit and records the result.
step() {
  local name="$1"
  shift
  echo
  echo "=== $name"
  echo "\$ $*"
  local start status=0 result=PASS
  start=$(date +%s)
  timeout --kill-after=10 "$STEP_TIMEOUT" "$@" || status=$?
  if ((status == 124 || status == 137)); then
    result="TIMEOUT"
  elif ((status != 0)); then
    result="FAIL (exit $status)"
  fi
  [[ $result == PASS ]] || failed=1
  local seconds=$(($(date +%s) - start))
  echo "=== $name: $result in $seconds s"
  SUMMARY+=("$(printf '| %-34s | %-14s | %4s s |' "$name" "$result" "$seconds")")
}

has_step() { [[ " $STEPS " == *" $1 "* ]]; }

echo "fa-matrix: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
[[ -f $HERE/MANIFEST ]] && sed -n '1,8p' "$HERE/MANIFEST"
variants=()
for dir in "$HERE"/aot-fa/*/; do
  name="$(basename "$dir")"
  [[ -f $dir/libflash_attention.so && $name =~ $FILTER ]] && variants+=("$name")
done
if ((${#variants[@]} == 0)); then
  echo "fa-matrix: error: no aot-fa/<variant>/libflash_attention.so matches" \
    "'$FILTER' in $HERE (did scripts/gpu-bundle.sh build them?)"
  exit 2
fi
echo "variants: ${variants[*]}"
SANITIZER="$(command -v compute-sanitizer || true)"

for name in "${variants[@]}"; do
  dir="$HERE/aot-fa/$name"
  # The library's problem: the header tile-compile wrote beside it.
  dtype=f16
  grep -q 'memref<?x?x[0-9]*xbf16>' "$dir/flash_attention.h" && dtype=bf16
  if has_step host; then
    step "$name host" env LD_LIBRARY_PATH="$dir:$LD_LIBRARY_PATH" \
      "$dir/fa-host" --dtype="$dtype"
  fi
  if has_step check; then
    step "$name check" python3 "$HERE/fa-sdpa.py" \
      --library="$dir/libflash_attention.so" --check \
      --check-shapes="$CHECK_SHAPES" --offset="$CHECK_OFFSETS"
  fi
  if has_step sanitize; then
    if [[ -z $SANITIZER ]]; then
      echo "=== $name sanitizers: SKIPPED (no compute-sanitizer)"
      SUMMARY+=("$(printf '| %-34s | %-14s | %4s s |' "$name sanitizers" SKIPPED -)")
    else
      for tool in memcheck racecheck synccheck; do
        step "$name $tool" env LD_LIBRARY_PATH="$dir:$LD_LIBRARY_PATH" \
          "$SANITIZER" --tool "$tool" --error-exitcode 9 \
          --kernel-name kns=flash_attention "$dir/fa-host" \
          --dtype="$dtype" --shape="$SAN_SHAPES"
      done
    fi
  fi
  if has_step bench; then
    bench_log="$(mktemp)"
    step "$name bench" bash -c 'set -o pipefail
      python3 "$1" --library="$2" --bench \
      --shapes="$3" --iters="$4" | tee "$5"' _ "$HERE/fa-sdpa.py" \
      "$dir/libflash_attention.so" "$BENCH_SHAPES" "$ITERS" "$bench_log"
    while read -r line; do
      SPEED+=("$(printf '| %-16s | %s' "$name" "${line#| }")")
    done < <(grep -E '^\| [0-9]' "$bench_log")
    rm -f "$bench_log"
  fi
done

if command -v cuobjdump >/dev/null; then
  echo
  echo "=== registers per thread (cuobjdump --dump-resource-usage)"
  for name in "${variants[@]}"; do
    echo "$name: $(cuobjdump --dump-resource-usage \
      "$HERE/aot-fa/$name/libflash_attention.so" 2>&1 |
      grep -oE 'Function [A-Za-z0-9_]+|REG:[0-9]+' | paste -sd ' ')"
  done
fi

echo
echo "=== summary"
printf '| %-34s | %-14s | %6s |\n' step result time
printf '%s\n' "${SUMMARY[@]}"
if ((${#SPEED[@]})); then
  echo
  echo "| variant          | B H S | tile-mlir TFLOP/s | cuDNN TFLOP/s | ratio | tile-mlir ms | cuDNN ms |"
  printf '%s\n' "${SPEED[@]}"
fi
if ((failed)); then
  echo "fa-matrix: FAILED"
else
  echo "fa-matrix: all steps passed"
fi
# Let tee write the end of the log before the machine packs $OUT.
if [[ -n "${tee_pid:-}" ]]; then
  exec 1>&- 2>&-
  wait "$tee_pid" 2>/dev/null
fi
exit "$failed"
