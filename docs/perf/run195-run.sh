#!/bin/bash
# Run 195: SASS of the per-tensor FP8 kernel as built (orig) and with its
# wgmma descriptors formed as mov.b64 {low, hi} from one hi register (v_hi,
# a PTX rewrite): UMOVs per QGMMA.
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
OUT=${OUT:-/tmp}
which cuobjdump nvdisasm
for v in orig v_hi; do
  cuobjdump -sass r195/$v.cubin > $OUT/$v.sass 2>&1 || nvdisasm r195/$v.cubin > $OUT/$v.sass 2>&1
  echo "$v: $(grep -c QGMMA $OUT/$v.sass) QGMMA, $(grep -c 'UMOV' $OUT/$v.sass) UMOV, $(grep -cE '^\s+/\*[0-9a-f]{4}\*/' $OUT/$v.sass) instructions"
done
