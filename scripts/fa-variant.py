#!/usr/bin/env python3
"""Writes a variant of examples/flash_attention.mlir (or of the causal
examples/flash_attention_causal.mlir): another element type, head dimension
or key block size.

usage: fa-variant.py [--input FILE] [--causal] [--dtype f16|bf16]
                     [--head-dim D] [--block-n BN] OUT.mlir

The source's sizes are read from its types, not assumed: D and BN from
`!sKV = memref<BNxDx...>`, BM from `!sQ = memref<BMxDx...>`. Then:

--head-dim D (64, 128 or 256): the global tensors [BH, S, D], the shared
tiles Q [BM, D], K and V [BN, D], the accumulator [BM, D], the host
function's `tile.shape` names and the softmax constant qk_scale = log2(e) /
sqrt(D) (0.12751743082459868 for 128, 0.18033688011112042 for 64,
0.09016844005556021 for 256) follow; so do
the bounds of each `tile.parallel` over the accumulator (its body touches
!fAcc).

--block-n BN (64 or 128): K and V tiles [BN, D], the score and probability
fragments [BM, BN], the bounds of each `tile.parallel` over the scores (its
body touches !fS), and the index constants marked `// BN` and
`// BN - 1` in the source.

--dtype bf16: every `f16` not preceded by `b` and not followed by a letter
or digit becomes `bf16` (Q, K, V, O, the shared tiles and P; comments
change too, harmlessly); f32 stays.

--causal: the input is examples/flash_attention_causal.mlir (unless --input
names another file).

The first line of the output says how it was made. Every substitution must
apply: a source that no longer has what a substitution looks for is an
error, not a silent copy. Used by scripts/gpu-bundle.sh (the FlashAttention
libraries of scripts/fa-matrix.sh) and the lit test
test/Conversion/ptxas-fa-variants.mlir.
"""
import argparse
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..", "examples")


def fail(message):
    sys.exit(f"fa-variant.py: error: {message}")


def sub_once(pattern, repl, text, what):
    new, count = re.subn(pattern, repl, text)
    if count == 0:
        fail(f"the source has no {what} (the example changed?)")
    return new


def sizes(s):
    kv = re.search(r"!sKV = memref<(\d+)x(\d+)x", s)
    q = re.search(r"!sQ = memref<(\d+)x(\d+)x", s)
    if not kv or not q:
        fail("the source has no '!sKV = memref<BNxDx...>' and "
             "'!sQ = memref<BMxDx...>' (the example changed?)")
    bn, d = int(kv.group(1)), int(kv.group(2))
    bm = int(q.group(1))
    if int(q.group(2)) != d:
        fail("!sQ and !sKV disagree on the head dimension")
    return bm, bn, d


def parallel_ops(s):
    """(start, end, bounds text, body) of every 2-D tile.parallel."""
    ops = []
    for m in re.finditer(r"tile\.parallel \(%\w+, %\w+\) in \[(\d+), (\d+)\]"
                         r" \{", s):
        depth, i = 1, m.end()
        while depth:
            if i == len(s):
                fail("unbalanced braces after a tile.parallel")
            depth += {"{": 1, "}": -1}.get(s[i], 0)
            i += 1
        ops.append((m, s[m.end():i]))
    return ops


def set_parallel_bounds(s, fragment, rows, cols):
    """The 2-D tile.parallel ops whose body touches FRAGMENT get the bounds
    [rows, cols]; there must be at least one."""
    found = 0
    for m, body in reversed(parallel_ops(s)):
        if f": {fragment}" not in body:
            continue
        found += 1
        head = m.group(0)
        new_head = re.sub(r"in \[\d+, \d+\]", f"in [{rows}, {cols}]", head)
        s = s[:m.start()] + new_head + s[m.end():]
    if not found:
        fail(f"the source has no tile.parallel over {fragment}")
    return s


def with_head_dim(s, bm, bn, d_old, d):
    s = sub_once(rf"!gQKV = memref<\?x\?x{d_old}x", f"!gQKV = memref<?x?x{d}x",
                 s, f"'!gQKV = memref<?x?x{d_old}x...>'")
    s = sub_once(rf"!sQ = memref<{bm}x{d_old}x", f"!sQ = memref<{bm}x{d}x", s,
                 "'!sQ' of the head dimension")
    s = sub_once(rf"!sKV = memref<{bn}x{d_old}x", f"!sKV = memref<{bn}x{d}x",
                 s, "'!sKV' of the head dimension")
    s = sub_once(rf"!fAcc = memref<{bm}x{d_old}xf32",
                 f"!fAcc = memref<{bm}x{d}xf32", s, "'!fAcc = memref<...>'")
    s = sub_once(rf'tile\.shape = \["BH", "S", "{d_old}"\]',
                 f'tile.shape = ["BH", "S", "{d}"]', s, "tile.shape names")
    scale = repr(math.log2(math.e) / math.sqrt(d))
    s = sub_once(r"(%qk_scale = arith\.constant )[0-9.eE+-]+( : f32)",
                 rf"\g<1>{scale}\g<2>", s, "'%qk_scale = arith.constant'")
    return set_parallel_bounds(s, "!fAcc", bm, d)


def with_constant(s, mark, old, new, name):
    """The index constant OLD marked `// MARK` becomes NEW, and its SSA
    name (%c64, say) NAME throughout, so that no %c64 holds 128."""
    m = re.search(rf"(?m)(%\w+)( = arith\.constant ){old}( : index *"
                  rf"// {re.escape(mark)})$", s)
    if not m:
        fail(f"the source has no index constant {old} marked '// {mark}' "
             "(the example changed?)")
    if re.search(rf"{re.escape(name)}\b", s):
        fail(f"the source already uses {name}")
    s = s[:m.start()] + f"{m.group(1)}{m.group(2)}{new}{m.group(3)}" + \
        s[m.end():]
    return re.sub(rf"{re.escape(m.group(1))}\b", name, s)


def with_block_n(s, bm, bn_old, d, bn):
    s = sub_once(rf"!sKV = memref<{bn_old}x{d}x", f"!sKV = memref<{bn}x{d}x",
                 s, "'!sKV = memref<BNx...>'")
    s = sub_once(rf"!fS = memref<{bm}x{bn_old}xf32",
                 f"!fS = memref<{bm}x{bn}xf32", s, "'!fS = memref<...>'")
    s = sub_once(rf"!fP = memref<{bm}x{bn_old}x", f"!fP = memref<{bm}x{bn}x",
                 s, "'!fP = memref<...>'")
    s = with_constant(s, "BN", bn_old, bn, "%cBN")
    if "// BN - 1" in s:
        s = with_constant(s, "BN - 1", bn_old - 1, bn - 1, "%cBNm1")
    return set_parallel_bounds(s, "!fS", bm, bn)


def with_dtype(s, dtype):
    if dtype == "f16":
        return s
    s, count = re.subn(r"(?<!b)f16(?![A-Za-z0-9])", dtype, s)
    if count == 0:
        fail("the source has no f16 to replace")
    return s


def main():
    parser = argparse.ArgumentParser(
        description="Writes a variant of a FlashAttention example.")
    parser.add_argument("--input", help="the source (default: the example, "
                        "or the causal one with --causal)")
    parser.add_argument("--causal", action="store_true",
                        help="start from examples/flash_attention_causal.mlir")
    parser.add_argument("--dtype", choices=["f16", "bf16"], default="f16")
    parser.add_argument("--head-dim", type=int, choices=[64, 128, 256])
    parser.add_argument("--block-n", type=int, choices=[64, 128])
    parser.add_argument("out", metavar="OUT.mlir")
    opts = parser.parse_args()
    source = opts.input or os.path.join(
        EXAMPLES, "flash_attention_causal.mlir" if opts.causal
        else "flash_attention.mlir")
    with open(source) as f:
        s = f.read()
    bm, bn, d = sizes(s)
    if opts.head_dim and opts.head_dim != d:
        s = with_head_dim(s, bm, bn, d, opts.head_dim)
        d = opts.head_dim
    if opts.block_n and opts.block_n != bn:
        s = with_block_n(s, bm, bn, d, opts.block_n)
    s = with_dtype(s, opts.dtype)
    made = " ".join(a for a in sys.argv[1:-1])
    banner = (f"// Generated by scripts/fa-variant.py {made} from "
              f"{os.path.relpath(source, os.path.join(HERE, '..'))}\n"
              f"// (BM = {bm}, BN = {opts.block_n or bn}, D = {d}, "
              f"{opts.dtype}); the comments below are the source's.\n")
    with open(opts.out, "w") as f:
        f.write(banner + s)


if __name__ == "__main__":
    main()
