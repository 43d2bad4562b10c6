/*===- expect.h - Checks of the C API test programs ---------------*- C -*-===*\
|*                                                                            *|
|* EXPECT(cond) reports a failed condition with its line and counts it in     *|
|* `failures`, which the program's main returns.                              *|
\*===----------------------------------------------------------------------===*/

#ifndef TILE_TEST_CAPI_EXPECT_H
#define TILE_TEST_CAPI_EXPECT_H

#include <stdio.h>

static int failures = 0;
#define EXPECT(cond)                                                           \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "FAILED line %d: %s\n", __LINE__, #cond);                \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

#endif // TILE_TEST_CAPI_EXPECT_H
