/*===- host_common.h - What the examples' C hosts share -------------------===*
 *
 * Helpers of examples/gemm_host.c and examples/fa_host.c: a clock, a small
 * random generator, and f16/bf16 values through the tile runtime's
 * conversions. Header-only (static functions), so each host still builds
 * with one `cc` command; include it after tile_runtime.h.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILE_EXAMPLES_HOST_COMMON_H
#define TILE_EXAMPLES_HOST_COMMON_H

#include "tile_runtime.h"

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/// A NaN in f16 and bf16: what outputs are poisoned with before a call.
static const uint16_t kPoison = 0xffff;

/// Seconds on the monotonic clock.
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static uint64_t splitmix64(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// An f16 (bf16 when `bf16`) value as a float.
static float toFloat(int bf16, uint16_t bits) {
  return bf16 ? tileRtBF16ToFloat(bits) : tileRtHalfToFloat(bits);
}

/// Values uniform in [-range, range], rounded to the element type.
static void fillRandom(uint16_t *data, size_t count, double range, int bf16,
                       uint64_t *state) {
  for (size_t i = 0; i < count; ++i) {
    double unit = (double)(splitmix64(state) >> 11) * 0x1.0p-52 - 1;
    float value = (float)(unit * range);
    data[i] = bf16 ? tileRtFloatToBF16(value) : tileRtFloatToHalf(value);
  }
}

#endif // TILE_EXAMPLES_HOST_COMMON_H
