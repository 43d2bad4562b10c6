// tile-opt fails (exit code 1, no output file) whenever an error was
// reported, even by a pass that did not signal failure (issue 10): here
// upstream gpu-module-to-binary, which reports an unknown format and
// returns without failing. Under -verify-diagnostics expected errors do not
// count.
//
// RUN: rm -f %t.out
// RUN: not tile-opt %s --gpu-module-to-binary="format=foo" -o %t.out 2>&1 | FileCheck %s
// RUN: not ls %t.out
// CHECK: error: Invalid format specified.
//
// RUN: tile-opt %s --gpu-module-to-binary="format=foo" --verify-diagnostics -o /dev/null

// expected-error @+1 {{Invalid format specified.}}
module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  }
}
