// Brackets nested thousands deep overflow the stack of the MLIR 22 parser,
// which recurses for each level of attributes, types and regions (found by
// tile-pass-fuzzer: an array attribute of about 7000 nested `[`, a stack
// overflow under ASan; about 10000 crash the release build). tile-opt and
// tileModuleCreateParse (tile-compile) reject nesting deeper than 512
// levels before parsing, at the first bracket too deep; comments and
// strings do not count, nor the `>` of `->` and `>=`.

// RUN: %python -c "print('module attributes {x.a = ' + '[' * 600 + ']' * 600 + '} {}')" > %t.deep.mlir
// RUN: not tile-opt %t.deep.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEEP
// DEEP: deep.mlir:1:537: error: brackets nested more than 512 deep are not supported (the MLIR parser would run out of stack)
// DEEP-NOT: error
// RUN: not tile-compile %t.deep.mlir -o %t.so 2>&1 | FileCheck %s --check-prefix=COMPILE
// COMPILE: deep.mlir:1:537: error: brackets nested more than 512 deep
// COMPILE: tile-compile: error: '{{.*}}' is not valid: parsing and verifying it failed

// 20000 levels: one error, no crash.
// RUN: %python -c "print('func.func @f() attributes {x.a = ' + '[' * 20000 + '} {')" > %t.deeper.mlir
// RUN: not tile-opt %t.deeper.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEEPER
// DEEPER-COUNT-1: error: brackets nested more than 512 deep
// DEEPER-NOT: Stack dump

// 512 levels and the arrows of affine maps are fine.
// RUN: %python -c "print('module attributes {x.a = ' + '[' * 510 + ']' * 510 + '} {}')" > %t.ok.mlir
// RUN: tile-opt %t.ok.mlir -o /dev/null
// RUN: tile-opt %s -o /dev/null
#map = affine_map<(d0) -> (d0 floordiv 2)>
#set = affine_set<(d0) : (d0 - 1 >= 0)>
// [[[[[[ in a comment
func.func @fine() attributes {x.b = "((((((((", x.m = #map, x.s = #set} {
  return
}
