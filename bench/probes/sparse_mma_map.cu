// One-hot map of mma.sp.sync m16n8k32 f16 (selector 0), which led to the
// layout sparse_mma_probe.cu checks (docs/perf.md, run 59). Not part of the
// build:
//
//   nvcc -gencode arch=compute_90a,code=sm_90a -o map sparse_mma_map.cu
//
// Step 1: with one metadata word in every lane, which logical K each
// compressed A slot of rows 0 and 15 multiplies (A one-hot, B[k][0] = k + 1).
// Step 2: with every group (0, 1), which rows change when lane L's nibble p
// becomes (2, 3) (A all ones): lanes 4g and 4g + 1 govern rows g (nibbles
// 0-3) and g + 8 (nibbles 4-7); lanes 4g + 2 and 4g + 3 nothing.
#include <cstdio>
#include <cstdint>
#include <cuda_fp16.h>

__global__ void probe(const __half *a, const __half *b, const uint32_t *meta,
                      float *d) {
  int lane = threadIdx.x, g = lane / 4, t = lane % 4;
  auto A = [&](int r, int c) { return a[r * 16 + c]; };
  __half2 a0 = __halves2half2(A(g, 2 * t), A(g, 2 * t + 1));
  __half2 a1 = __halves2half2(A(g + 8, 2 * t), A(g + 8, 2 * t + 1));
  __half2 a2 = __halves2half2(A(g, 2 * t + 8), A(g, 2 * t + 9));
  __half2 a3 = __halves2half2(A(g + 8, 2 * t + 8), A(g + 8, 2 * t + 9));
  auto B = [&](int k, int n) { return b[n * 32 + k]; };
  __half2 b0 = __halves2half2(B(2 * t, g), B(2 * t + 1, g));
  __half2 b1 = __halves2half2(B(2 * t + 8, g), B(2 * t + 9, g));
  __half2 b2 = __halves2half2(B(2 * t + 16, g), B(2 * t + 17, g));
  __half2 b3 = __halves2half2(B(2 * t + 24, g), B(2 * t + 25, g));
  uint32_t e = meta[lane];
  float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 "
               "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, "
               "{%0,%1,%2,%3}, %12, 0x0;"
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
               : "r"(*(uint32_t *)&a0), "r"(*(uint32_t *)&a1),
                 "r"(*(uint32_t *)&a2), "r"(*(uint32_t *)&a3),
                 "r"(*(uint32_t *)&b0), "r"(*(uint32_t *)&b1),
                 "r"(*(uint32_t *)&b2), "r"(*(uint32_t *)&b3), "r"(e));
  d[g * 8 + 2 * t] = d0;
  d[g * 8 + 2 * t + 1] = d1;
  d[(g + 8) * 8 + 2 * t] = d2;
  d[(g + 8) * 8 + 2 * t + 1] = d3;
}

static __half *da, *db;
static uint32_t *dm;
static float *dd;
static void run(const float *a, const float *b, const uint32_t *m, float *out) {
  __half ha[256], hb[256];
  for (int i = 0; i < 256; ++i) {
    ha[i] = __float2half(a[i]);
    hb[i] = __float2half(b[i]);
  }
  cudaMemcpy(da, ha, 512, cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb, 512, cudaMemcpyHostToDevice);
  cudaMemcpy(dm, m, 128, cudaMemcpyHostToDevice);
  probe<<<1, 32>>>(da, db, dm, dd);
  cudaMemcpy(out, dd, 512, cudaMemcpyDeviceToHost);
}

int main() {
  cudaMalloc(&da, 512);
  cudaMalloc(&db, 512);
  cudaMalloc(&dm, 128);
  cudaMalloc(&dd, 512);
  float a[256], b[256], out[128];
  uint32_t m[32];
  // B[k][0] = k + 1, other columns 0.
  for (int i = 0; i < 256; ++i) b[i] = 0;
  for (int k = 0; k < 32; ++k) b[0 * 32 + k] = (float)(k + 1);
  // Step 1: uniform metadata, group j's pair = pairs[j % 6].
  static const int pairs[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
  uint32_t W = 0;
  for (int j = 0; j < 8; ++j)
    W |= (uint32_t)(pairs[j % 6][0] | pairs[j % 6][1] << 2) << (4 * j);
  for (int l = 0; l < 32; ++l) m[l] = W;
  printf("step 1: metadata word 0x%08x in every lane\n", W);
  for (int r = 0; r < 16; r += 15) {
    printf("row %d slots ->", r);
    for (int s = 0; s < 16; ++s) {
      for (int i = 0; i < 256; ++i) a[i] = 0;
      a[r * 16 + s] = 1;
      run(a, b, m, out);
      int found = 0;
      for (int rr = 0; rr < 16; ++rr)
        if (out[rr * 8] != 0) {
          printf(" s%d:(r%d,k%g)", s, rr, out[rr * 8] - 1);
          ++found;
        }
      if (!found) printf(" s%d:none", s);
    }
    printf("\n");
  }
  // Step 2: all lanes (0,1) everywhere (0x44444444); lane L's nibble p set
  // to (2,3) (0xE): which rows' sums change (A all ones).
  for (int i = 0; i < 256; ++i) a[i] = 1;
  for (int l = 0; l < 32; ++l) m[l] = 0x44444444u;
  float base[128];
  run(a, b, m, base);
  printf("step 2: base row sums:");
  for (int r = 0; r < 16; ++r) printf(" %g", base[r * 8]);
  printf("\n");
  for (int L = 0; L < 32; ++L) {
    printf("lane %2d:", L);
    for (int p = 0; p < 8; ++p) {
      for (int l = 0; l < 32; ++l) m[l] = 0x44444444u;
      m[L] = (m[L] & ~(0xFu << (4 * p))) | (0xEu << (4 * p));
      run(a, b, m, out);
      printf(" n%d:", p);
      int any = 0;
      for (int r = 0; r < 16; ++r)
        if (out[r * 8] != base[r * 8]) {
          printf("r%d%+g", r, out[r * 8] - base[r * 8]);
          any = 1;
        }
      if (!any) printf("-");
    }
    printf("\n");
  }
  cudaError_t err = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(err));
  return 0;
}
