// The MLIR 22 parser reports a string literal that runs to the end of its
// line right after a dialect type (here `!tile.pipe<2>`) and parses on from
// the next line: it resets its lexer to the error token, which starts at the
// end of the line, not at the quote. Upstream mlir-opt then exits 0 with the
// module (found by tile-capi-fuzzer: error-but-exit-0-a3a5c9ba6d). tile-opt
// records errors from the start of parsing and fails; tileModuleCreateParse
// (tile-compile) returns no module.

// RUN: rm -f %t.out
// RUN: not tile-opt %s --split-input-file -o %t.out 2>&1 | FileCheck %s
// RUN: not ls %t.out
// RUN: not tile-compile %s -o %t.so 2>&1 | FileCheck %s --check-prefix=COMPILE
// COMPILE: parse-error-exit-code.mlir:[[# @LINE + 8]]:6: error: expected '"' in string literal
// COMPILE: tile-compile: error: '{{.*}}' is not valid: parsing and verifying it failed

// In a kernel: the stray quote follows the pipe type of the line before.
// CHECK: parse-error-exit-code.mlir:[[# @LINE + 4]]:6: error: expected '"' in string literal
func.func @f(%i: index) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %p = tile.pipe.create : !tile.pipe<2>
  " x
  }
  return
}

// -----

// Any dialect type, anywhere.
// CHECK: parse-error-exit-code.mlir:[[# @LINE + 3]]:5: error: expected '"' in string literal
func.func @g() {
  %0 = llvm.mlir.zero : !llvm.ptr
  "x
  return
}
