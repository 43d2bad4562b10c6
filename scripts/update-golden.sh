#!/usr/bin/env bash
# Regenerates test/Examples/Golden (see test/Examples/golden.test): the
# PTX of both examples for sm_90a and sm_80 (+ptx70) and the gfx942 ISA,
# their SHA-256 sums, and the two PTX files kept whole. A change that
# alters them must be deliberate: run this, explain the difference in the
# commit, and re-measure on a GPU (docs/perf.md).
#
#   bash scripts/update-golden.sh [path/to/tile-opt]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
opt="${1:-$root/build/bin/tile-opt}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
for ex in gemm flash_attention; do
  "$opt" "$root/examples/$ex.mlir" --tile-to-nvvm="chip=sm_90a format=isa" \
    --tile-emit-binary="prefix=$out/sm90a_" -o /dev/null
  "$opt" "$root/examples/$ex.mlir" \
    --tile-to-nvvm="chip=sm_80 features=+ptx70 format=isa" \
    --tile-emit-binary="prefix=$out/sm80_" -o /dev/null
  "$opt" "$root/examples/$ex.mlir" --tile-to-rocdl="chip=gfx942 format=isa" \
    --tile-emit-binary="prefix=$out/gfx942_" -o /dev/null
done 2>/dev/null
golden="$root/test/Examples/Golden"
(cd "$out" && sha256sum -- *) > "$golden/SHA256SUMS"
cp "$out/sm90a_gemm_kernel_tma_module.ptx" "$out/sm80_gemm_kernel_module.ptx" \
  "$golden/"
echo "update-golden: $(wc -l < "$golden/SHA256SUMS") files summed in $golden"
