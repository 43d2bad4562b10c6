//===- float16.c - f16 and bf16 conversions of the tile runtime ---*- C -*-===//
//
// tileRtFloatToHalf and friends (tile_runtime.h): IEEE binary16 and bfloat16
// conversions for hosts that fill and check 16-bit buffers.
//
//===----------------------------------------------------------------------===//

#include "tile_runtime.h"

#include <string.h>

static uint32_t floatBits(float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof(bits));
  return bits;
}

static float bitsFloat(uint32_t bits) {
  float value;
  memcpy(&value, &bits, sizeof(value));
  return value;
}

uint16_t tileRtFloatToHalf(float value) {
  uint32_t x = floatBits(value);
  uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
  uint32_t abs = x & 0x7fffffff;
  if (abs > 0x7f800000) // NaN: keep it quiet and NaN
    return (uint16_t)(sign | 0x7e00 | ((abs >> 13) & 0x3ff));
  if (abs >= 0x477ff000) // >= 65520 rounds to infinity
    return (uint16_t)(sign | 0x7c00);
  if (abs < 0x38800000) {  // below the smallest normal half, 2^-14
    if (abs <= 0x33000000) // <= 2^-25 rounds to zero
      return sign;
    uint32_t exponent = abs >> 23;
    uint32_t mantissa = (abs & 0x7fffff) | 0x800000;
    uint32_t shift = 126 - exponent; // 14..24
    uint32_t result = mantissa >> shift;
    uint32_t rest = mantissa & ((1u << shift) - 1);
    uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (result & 1)))
      ++result;
    return (uint16_t)(sign | result);
  }
  uint32_t result = (abs - 0x38000000) >> 13; // rebias 127 -> 15
  uint32_t rest = abs & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (result & 1)))
    ++result;
  return (uint16_t)(sign | result);
}

float tileRtHalfToFloat(uint16_t bits) {
  uint32_t sign = (uint32_t)(bits & 0x8000) << 16;
  uint32_t exponent = (bits >> 10) & 0x1f;
  uint32_t mantissa = bits & 0x3ff;
  if (exponent == 0) {
    if (mantissa == 0)
      return bitsFloat(sign);
    exponent = 113; // normalize the subnormal
    while (!(mantissa & 0x400)) {
      mantissa <<= 1;
      --exponent;
    }
    mantissa &= 0x3ff;
    return bitsFloat(sign | (exponent << 23) | (mantissa << 13));
  }
  if (exponent == 31)
    return bitsFloat(sign | 0x7f800000 | (mantissa << 13));
  return bitsFloat(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

uint16_t tileRtFloatToBF16(float value) {
  uint32_t x = floatBits(value);
  if ((x & 0x7fffffff) > 0x7f800000)
    return (uint16_t)((x >> 16) | 0x40);
  x += 0x7fff + ((x >> 16) & 1);
  return (uint16_t)(x >> 16);
}

float tileRtBF16ToFloat(uint16_t bits) {
  return bitsFloat((uint32_t)bits << 16);
}

// LLVM lowers bf16 values in x86-64 host code (a bf16 scalar argument of a
// compiled host function, passed on or stored for a launch) through the
// compiler support routine __truncsfbf2, which libgcc has only from GCC 13
// on: without it, linking a library whose host code has bf16 scalars fails
// with an undefined reference. The runtime, which that host code links
// against anyway, provides it (weak, as upstream MLIR's runner utilities
// do). A bf16 result travels in the
// low 16 bits of xmm0, as a float's bits (GCC 12 has no __bf16 type).
#if defined(__x86_64__)
float __truncsfbf2(float value) __attribute__((weak));
float __truncsfbf2(float value) { return bitsFloat(tileRtFloatToBF16(value)); }

#endif
