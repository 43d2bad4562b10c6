// The kernels of check-resources-registers.mlir compiled to cubins: those
// the register check accepts at its limits assemble with ptxas (a wgmma
// m64n64k16 with 64 registers, a 256x128 accumulator in the 128 registers
// of two blocks of 256 threads, a consumer budget of 160 for m64n256k16);
// those it rejects never reach ptxas, which failed on them with
// "Insufficient registers".
// REQUIRES: ptxas
// RUN: tile-opt %S/check-resources-registers.mlir -split-input-file --tile-to-nvvm="format=bin" -verify-diagnostics -o /dev/null
