// Calls to_bf16 (bf16_trunc.ll) on values that test rounding to nearest
// even, subnormals, overflow and NaN (test/Runtime/bf16-support.test).
#include <math.h>
#include <stdio.h>

void to_bf16(float value, unsigned short *out);

int main(void) {
  const float values[] = {1.0f,      1.00390625f, 1.01171875f, -3.14159f,
                          1e-40f,    3.4e38f,     -0.0f,       NAN};
  for (unsigned i = 0; i < sizeof(values) / sizeof(values[0]); ++i) {
    unsigned short bits = 0xdead;
    to_bf16(values[i], &bits);
    printf("%u: 0x%04x\n", i, bits);
  }
  return 0;
}
