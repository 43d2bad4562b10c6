#!/usr/bin/env python3
"""Run 107: warp-stall samples of one FlashAttention launch (ncu --page
source --print-source sass --csv) summed over regions of the SASS, the
regions given as instruction index ranges (read off the listing)."""
import csv
import sys

REGIONS = [("setup, producer", 0, 300), ("Q, K, V edge copies", 300, 2100),
           ("first block: Q K^T, softmax", 2100, 3900),
           ("key loop", 3900, 4950), ("last block: P V", 4950, 4974),
           ("normalization O / l", 4974, 5980), ("O store", 5980, 6137),
           ("rest (producer)", 6137, None)]
for path in sys.argv[1:]:
    rows = list(csv.reader(open(path)))
    hdr, data = rows[1], rows[2:]
    col = hdr.index("Warp Stall Sampling (All Samples)")
    samples = [int(r[col] or 0) for r in data]
    total = sum(samples)
    print(f"{path}: {total} samples, {len(data)} instructions")
    for name, a, b in REGIONS:
        s = sum(samples[a:b])
        print(f"  {name:30s} {s:7d} {100 * s / total:5.1f} %")
