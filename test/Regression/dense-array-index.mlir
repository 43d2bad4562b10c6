// A dense array attribute of index elements (`array<index: ...>`, directly or
// through a type alias) crashes the MLIR 22 parser, which asks the index type
// for its bit width (found by tile-fuzz: crash-7302d17d10). tile-opt rejects
// it with a located error before parsing; other element types, comments and
// strings that mention such an array are left to the parser. tile-compile
// and C API hosts that parse with tileModuleCreateParse* get the same check.

// RUN: not tile-opt %s --split-input-file 2>&1 | FileCheck %s
// C API hosts get the same check through tileModuleCreateParse*
// (tile-c/Parse.h), as tile-compile does:
// RUN: printf 'func.func private @d()\000!i = index\nfunc.func @f() attributes {a = array<!i: 3>} {\n  return\n}\n' > %t.nul.mlir
// RUN: not tile-opt %t.nul.mlir 2>&1 | FileCheck %s --check-prefix=NUL
// NUL: nul.mlir:2:38: error: expected integer or float type, got: '!i'
// RUN: not tile-compile %s -o %t.so 2>&1 | FileCheck %s --check-prefix=COMPILE
// COMPILE: dense-array-index.mlir:[[# @LINE + 6]]:22: error: expected integer or float type, got: 'index'
// COMPILE: error: expected integer or float type, got: '!alias'
// COMPILE: tile-compile: error: '{{.*}}' is not valid: parsing and verifying it failed

// CHECK: dense-array-index.mlir:[[# @LINE + 2]]:22: error: expected integer or float type, got: 'index'
func.func @direct() attributes {
  tile.stage = array<index: 0, 1>} {
  return
}

// -----

!idx = index
!alias = !idx
// CHECK: dense-array-index.mlir:[[# @LINE + 1]]:42: error: expected integer or float type, got: '!alias'
func.func @alias() attributes {a = array<!alias: 3>} {
  return
}

// -----

// An alias that is not defined parses to no type, which the dense array
// parser dereferences (found by tile-pass-fuzzer in CI).
// CHECK: dense-array-index.mlir:[[# @LINE + 1]]:46: error: undefined type alias '!nowhere' in a dense array
func.func @undefined() attributes {a = array<!nowhere: 3>} {
  return
}

// -----

// The guard reads tokens as the MLIR lexer does: an alias defined after an op
// on the same line, and a line break or a comment between `array<` and the
// type (found by tile-pass-fuzzer in CI, with a NUL byte before the alias,
// which the lexer skips like a space: see the printf RUN line).
func.func private @decl()!idx2 = index
!alias2 = !idx2
// CHECK: dense-array-index.mlir:[[# @LINE + 3]]:3: error: expected integer or float type, got: '!alias2'
func.func @spread() attributes {a = array<
  // the element type
  !alias2: 3>} {
  return
}

// -----

// `!alias3= 3` inside the array is no definition, but the guard takes every
// `!name =` as a possible one and reports the array if any of them makes
// it index (found by tile-pass-fuzzer, mutating the case above).
!idx3 = index
!alias3 = !idx3
// CHECK: dense-array-index.mlir:[[# @LINE + 1]]:46: error: expected integer or float type, got: '!alias3'
func.func @redefined() attributes {a = array<!alias3= 3>} {
  return
}

// -----

// CHECK-NOT: error
// array<index: 1> in a comment is fine.
func.func @fine() attributes {a = array<i64: 1>, b = "array<index: 1>",
                              c = array<f32: 1.0>} {
  return
}
