#!/usr/bin/env python3
"""Writes a variant of examples/gemm.mlir: other tile sizes, another type.

usage: gemm-variant.py [--dtype f16|bf16] [--group-m G] [--persistent P]
                       [--input FILE] [BM BN BK THREADS NUM_STAGES] OUT.mlir

Tile sizes (all five or none): the block computes a BM x BN tile of C,
stepping K by BK with THREADS threads and a NUM_STAGES-deep software pipeline
(1 = not pipelined). Used to sweep tile configurations on the GPU (see
docs/perf.md) and, by bench/CMakeLists.txt and scripts/gpu-bundle.sh, to
build the 64x256-tile library the example host runs unchanged.

--group-m G: the kernel's launch order, `tile.launch_group = G` (G rows of
C tiles per group; 1: row-major). Without it the compiler chooses
(tile-launch-order: groups of 8 for the example).

--persistent P: at most P blocks (one wave on a GPU with P multiprocessors
running one block each) loop over the C tiles: block b computes tiles b,
b + grid, b + 2 grid, ... (in the launch order above), so a block's next
tile starts while it finishes the previous one (with warp specialization,
its producer loads the next tile's stages during the epilogue). Any P is
correct; P is a tuning choice (132 on an H100 SXM).

--smem-epilogue: C goes from the accumulator to a shared tile, then from
there to global memory (16-byte row-contiguous stores instead of the
accumulator layout's 4-byte pieces); costs a BM x BN tile of shared memory.

--dtype bf16: the element type of A, B and C (and of the shared-memory
tiles) becomes bf16. The example is written for f16: every `f16` not
preceded by `b` and not followed by a letter or digit becomes `bf16`
(comments change too, harmlessly); f32 (the accumulator) stays.

Every substitution must apply: a source that no longer has the text a
substitution looks for is an error, not a silent copy.
"""
import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def fail(message):
    sys.exit(f"gemm-variant.py: error: {message}")


def replace(text, old, new):
    if old not in text:
        fail(f"the source has no '{old}' (examples/gemm.mlir changed?)")
    return text.replace(old, new)


def with_tiles(s, bm, bn, bk, threads, stages):
    def sub(pattern, new, what):
        nonlocal s
        s, count = re.subn(pattern, new, s)
        if count != 1:
            fail(f"the source has no single {what} (examples/gemm.mlir "
                 "changed?)")
    sub(r"!sA = memref<\d+x\d+x", f"!sA = memref<{bm}x{bk}x", "!sA type")
    sub(r"!sB = memref<\d+x\d+x", f"!sB = memref<{bk}x{bn}x", "!sB type")
    sub(r"!fC = memref<\d+x\d+x", f"!fC = memref<{bm}x{bn}x", "!fC type")
    for name, value in (("BM", bm), ("BN", bn), ("BK", bk)):
        sub(rf"%{name} = arith.constant \d+ : index",
            f"%{name} = arith.constant {value} : index", f"%{name} constant")
    sub(r"threads\(\d+\)", f"threads({threads})", "threads(...)")
    sub(r"\{tile\.num_stages = \d+ : i64\}",
        f"{{tile.num_stages = {stages} : i64}}", "tile.num_stages attribute")
    return s


def with_launch_group(s, group):
    """The kernel's launch order, chosen by the compiler
    (tile-launch-order) unless given: tile.launch_group = GROUP (1: the
    row-major order)."""
    s, count = re.subn(r"(tile\.kernel @\w+ blocks\(%bx, %by\) in "
                       r"\[%gx, %gy\] threads\(\d+\))",
                       rf"\1 attributes {{tile.launch_group = {group} : i64}}",
                       s)
    if count != 1:
        fail("the source has no single 'tile.kernel @... blocks(%bx, %by) "
             "in [%gx, %gy] threads(N)' (examples/gemm.mlir changed?)")
    return s


def with_persistent_blocks(s, blocks):
    """A grid of min(BLOCKS, tiles) blocks, each looping over tiles with a
    stride of the grid; the pipelined K loop runs once per tile."""
    header = re.search(r"( *)tile\.kernel @(\w+) blocks\(%bx, %by\) "
                       r"in \[%gx, %gy\]", s)
    allocs = None
    for allocs in re.finditer(r"( *%\w+ = tile\.alloc : !\w+\n)", s):
        pass
    end = re.search(r"\n  }\n  return\n}", s)
    if not header or not allocs or not end:
        fail("the source has no 'tile.kernel @... blocks(%bx, %by) in "
             "[%gx, %gy]', tile.alloc and kernel end "
             "(examples/gemm.mlir changed?)")
    indent = header.group(1)
    grid = (
        f"{indent}// Persistent blocks: at most {blocks}, looping over the "
        "tiles.\n"
        f"{indent}%numTiles = arith.muli %gx, %gy : index\n"
        f"{indent}%cBlocks = arith.constant {blocks} : index\n"
        f"{indent}%gridMin = arith.minui %numTiles, %cBlocks : index\n"
        f"{indent}%grid = arith.maxui %gridMin, %c1 : index\n"
        f"{indent}%waves = arith.ceildivui %numTiles, %grid : index\n"
        f"{indent}tile.kernel @{header.group(2)} blocks(%pb) in [%grid]")
    loop = (
        "    scf.for %wave = %c0 to %waves step %c1 {\n"
        "    %waveStart = arith.muli %wave, %grid : index\n"
        "    %tileId = arith.addi %waveStart, %pb : index\n"
        "    %tileValid = arith.cmpi ult, %tileId, %numTiles : index\n"
        "    scf.if %tileValid {\n"
        "    %by = arith.divui %tileId, %gx : index\n"
        "    %bx = arith.remui %tileId, %gx : index\n")
    s = s[:end.start()] + "\n    }\n    }" + s[end.start():]
    s = s.replace(allocs.group(1), allocs.group(1) + loop, 1)
    return s.replace(header.group(0), grid, 1)


def with_smem_epilogue(s):
    """Stages C in a shared tile of the accumulator's shape."""
    fc = re.search(r"!fC = memref<(\d+)x(\d+)xf32", s)
    if not fc:
        fail("the source has no '!fC = memref<...xf32' (examples/gemm.mlir "
             "changed?)")
    s = replace(s, fc.group(0),
                f"!sC = memref<{fc.group(1)}x{fc.group(2)}xf16, "
                "#gpu.address_space<workgroup>>\n" + fc.group(0))
    s = replace(s, "    %acc = tile.alloc : !fC\n",
                "    %acc = tile.alloc : !fC\n    %Cs = tile.alloc : !sC\n")
    return replace(s, "tile.copy %acc, %C[%m0, %n0] : !fC to !gC",
                   "tile.copy %acc, %Cs : !fC to !sC\n"
                   "    tile.copy %Cs, %C[%m0, %n0] : !sC to !gC")


def with_dtype(s, dtype):
    if dtype == "f16":
        return s
    s, count = re.subn(r"(?<!b)f16(?![A-Za-z0-9])", dtype, s)
    if count == 0:
        fail("the source has no f16 to replace")
    return s


def main():
    parser = argparse.ArgumentParser(
        description="Writes a variant of examples/gemm.mlir.")
    parser.add_argument("--dtype", choices=["f16", "bf16"], default="f16")
    parser.add_argument("--input",
                        default=os.path.join(HERE, "..", "examples",
                                             "gemm.mlir"))
    parser.add_argument("--group-m", type=int, default=0, metavar="G",
                        help="tile.launch_group = G on the kernel (1: "
                        "row-major); 0 leaves the choice to the compiler")
    parser.add_argument("--persistent", type=int, default=0, metavar="P",
                        help="at most P blocks, each looping over C tiles; "
                        "0 launches a block per tile")
    parser.add_argument("--smem-epilogue", action="store_true",
                        help="stage C in shared memory before storing it")
    parser.add_argument("args", nargs="+",
                        help="[BM BN BK THREADS NUM_STAGES] OUT.mlir")
    opts = parser.parse_args()
    *tiles, out = opts.args
    if len(tiles) not in (0, 5):
        parser.error("give all five of BM BN BK THREADS NUM_STAGES, or none")
    try:
        tiles = [int(t) for t in tiles]
    except ValueError:
        parser.error("BM BN BK THREADS NUM_STAGES must be integers")
    if any(t < 1 for t in tiles):
        parser.error("BM BN BK THREADS NUM_STAGES must be positive")
    with open(opts.input) as f:
        s = f.read()
    if tiles:
        s = with_tiles(s, *tiles)
    if opts.group_m < 0:
        parser.error("--group-m must be non-negative")
    if opts.group_m and opts.persistent:
        parser.error("--persistent blocks walk the tiles row by row: "
                     "--group-m does not apply to them")
    if opts.group_m:
        s = with_launch_group(s, opts.group_m)
    if opts.smem_epilogue:
        s = with_smem_epilogue(s)
    if opts.persistent < 0:
        parser.error("--persistent must be non-negative")
    if opts.persistent:
        s = with_persistent_blocks(s, opts.persistent)
    s = with_dtype(s, opts.dtype)
    with open(out, "w") as f:
        f.write(s)


if __name__ == "__main__":
    main()
