#!/usr/bin/env python3
"""Prints the instruction sequence of the kernels in a cubin compactly, for
reading ptxas output on a machine without a disassembler: runs of ordinary
instructions are summarized by opcode, and HGMMA, WARPGROUP.ARRIVE /
WARPGROUP.DEPBAR n, BRA, SYNCS (mbarrier), BAR, F2FP, USETMAXREG and EXIT
are shown in place with their instruction index.

Opcodes are recognized by the low 12 bits of the instruction word, learned
from a cuobjdump listing (TABLE, e.g. docs/perf/run117-h200-d128-new.sass.gz,
which the GPU machine wrote).

Usage: sass-sequence.py TABLE.sass.gz X.cubin [FROM TO]
"""
import collections
import gzip
import re
import struct
import sys

KEEP = {"HGMMA", "BRA", "SYNCS", "BAR", "EXIT", "USETMAXREG", "F2FP"}


def opcode_table(path):
    """Low 12 bits of the first instruction word -> mnemonic."""
    table = {}
    pattern = re.compile(
        r"\s+/\*[0-9a-f]{4,}\*/\s+(\S.*?);?\s+/\* 0x([0-9a-f]{16}) \*/")
    for line in gzip.open(path, "rt"):
        m = pattern.match(line)
        if not m:
            continue
        words = m.group(1).split()
        op = words[1] if words[0].startswith("@") else words[0]
        table[int(m.group(2), 16) & 0xFFF] = op.split(".")[0]
    return table


def text_sections(data):
    """(name, bytes) of each ELF section."""
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
               for i in range(shnum)]
    names = headers[shstrndx]
    for h in headers:
        start = names[4] + h[0]
        name = data[start:data.index(b"\0", start)].decode()
        if name.startswith(".text."):
            yield name, data[h[4]:h[4] + h[5]]


def main():
    if len(sys.argv) not in (3, 5):
        sys.exit(__doc__)
    table = opcode_table(sys.argv[1])
    data = open(sys.argv[2], "rb").read()
    lo, hi = (int(sys.argv[3]), int(sys.argv[4])) if len(sys.argv) == 5 \
        else (0, 1 << 40)
    for name, body in text_sections(data):
        print(name)
        run, start = collections.Counter(), 0

        def flush(end):
            if run:
                print("  %5d-%5d  %s" % (start, end - 1, " ".join(
                    "%s=%d" % kv for kv in run.most_common(10))))
                run.clear()

        for offset in range(0, len(body), 16):
            index = offset // 16
            if not lo <= index <= hi:
                continue
            w0, w1 = struct.unpack_from("<QQ", body, offset)
            op = table.get(w0 & 0xFFF, "?%03x" % (w0 & 0xFFF))
            if op == "WARPGROUP":
                # DEPBAR sets bit 47; its group count is in the second word.
                op = ("WG.DEPBAR%d" % ((w1 >> 8) & 0xFF)
                      if (w0 >> 47) & 1 else "WG.ARRIVE")
            if op in KEEP or op.startswith("WG."):
                flush(index)
                print("  %5d        %s" % (index, op))
            else:
                if not run:
                    start = index
                run[op] += 1
        flush(min(len(body) // 16, hi + 1))


if __name__ == "__main__":
    main()
