// Calls the tuned library's gemm on null M x K, K x N and M x N operands,
// for each "MxNxK" shape on the command line, and prints the runtime's
// error message: the variant's argument check names the variant the
// dispatcher called ("gemm__v1: argument #0 ... is a null pointer").
#include "g.h"
#include "tile_runtime.h"

#include <stdio.h>

int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    long long m, n, k;
    if (sscanf(argv[i], "%lldx%lldx%lld", &m, &n, &k) != 3)
      return 2;
    tile_memref_2d a = {0, 0, 0, {m, k}, {k, 1}};
    tile_memref_2d b = {0, 0, 0, {k, n}, {n, 1}};
    tile_memref_2d c = {0, 0, 0, {m, n}, {n, 1}};
    gemm(&a, &b, &c);
    printf("%s: %s\n", argv[i], tileRtGetErrorMessage());
  }
  return 0;
}
