#!/usr/bin/env python3
"""Writes a PTX kernel whose warpgroup promotes FP8 partial sums from two
alternating register sets (run 131 of docs/perf.md, ptxas only, no GPU):
each K block's four m64n128k32 e4m3 wgmmas go into one set while the other
set's sums are added to the f32 accumulator.

usage: run131-double-partials.py wait1|wait0 OUT.ptx
  wait1: issue into the next set, wait_group 1 (the previous set's group is
         done), add the previous set;
  wait0: wait_group 0, issue into the next set, add the previous set.
Then: ptxas -arch=sm_90a -v OUT.ptx -o OUT.cubin (C7514 says whether ptxas
serializes the wgmmas), and scripts/sass-sequence.py for the waits.
"""
import sys


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("wait1", "wait0"):
        sys.exit(__doc__)
    mode, out = sys.argv[1], sys.argv[2]
    lines = []
    emit = lines.append

    def regs(p):
        return "{" + ", ".join(f"%{p}{i}" for i in range(64)) + "}"

    def issue(p):
        emit("  wgmma.fence.sync.aligned;")
        for k in range(4):
            emit("  wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 "
                 f"{regs(p)}, %da, %db, {0 if k == 0 else 1}, 1, 1;")
            emit("  add.s64 %da, %da, 2;\n  add.s64 %db, %db, 2;")
        emit("  wgmma.commit_group.sync.aligned;")

    def promote(p):
        for i in range(64):
            emit(f"  add.f32 %m{i}, %m{i}, %{p}{i};")

    def step(nxt, prev):
        if mode == "wait1":
            issue(nxt)
            emit("  wgmma.wait_group.sync.aligned 1;")
        else:
            emit("  wgmma.wait_group.sync.aligned 0;")
            issue(nxt)
        promote(prev)

    emit(".version 8.7\n.target sm_90a\n.address_size 64\n")
    emit(".visible .entry k(.param .u64 out, .param .u64 da, "
         ".param .u64 db, .param .u32 n)\n{")
    emit("  .reg .f32 %m<64>;\n  .reg .f32 %pa<64>;\n  .reg .f32 %pb<64>;")
    emit("  .reg .b64 %da, %db, %o, %addr;\n  .reg .b32 %n, %i, %t;\n"
         "  .reg .pred %p;")
    emit("  ld.param.u64 %da, [da];\n  ld.param.u64 %db, [db];\n"
         "  ld.param.u64 %o, [out];\n  ld.param.u32 %n, [n];")
    for i in range(64):
        emit(f"  mov.f32 %m{i}, 0f00000000;")
    issue("pa")
    emit("  mov.u32 %i, 0;\nLOOP:")
    step("pb", "pa")
    step("pa", "pb")
    emit("  add.u32 %i, %i, 1;\n  setp.lt.u32 %p, %i, %n;\n  @%p bra LOOP;")
    emit("  wgmma.wait_group.sync.aligned 0;")
    promote("pa")
    emit("  mov.u32 %t, %tid.x;\n  mul.wide.u32 %addr, %t, 256;\n"
         "  add.s64 %o, %o, %addr;")
    for i in range(64):
        emit(f"  st.global.f32 [%o+{4 * i}], %m{i};")
    emit("  ret;\n}")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
