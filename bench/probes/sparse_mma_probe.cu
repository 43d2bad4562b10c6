// Probes of the 2:4 sparse MMA's metadata on the GPU (issue "2:4
// structured-sparse GEMM"; docs/design.md, "2:4 sparse operands"; results
// in docs/perf.md, run 59). Not part of the build:
//
//   nvcc -gencode arch=compute_90a,code=sm_90a -o probe sparse_mma_probe.cu
//   ./probe          # random A, B and metadata against a host reference
//
// mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 (also with
// .sp::ordered_metadata, which ptxas advises) with random compressed A (16 x
// 16 values standing for 16 x 32), random 2:4 metadata and random B (32 x
// 8), compared exactly (small integers) with a host product under the
// layout the probe checks: lane 4g + i (sparsity selector 0; 4g + 2 + i
// with selector 1), i in {0, 1}, supplies the 32-bit word whose bits 0-15
// hold row g's groups 4i..4i+3 (K 16i .. 16i + 15) and bits 16-31 row
// g + 8's; a group's nibble is idx0 | idx1 << 2 (idx0 < idx1, the K
// offsets in the group of its two kept values, which are the group's two
// compressed values in order). sparse_mma_map.cu found it by one-hot
// probing.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cuda_fp16.h>

__global__ void probe(const __half *a, const __half *b, const uint32_t *meta,
                      float *d, int selector) {
  int lane = threadIdx.x, g = lane / 4, t = lane % 4;
  // A: 16 x 16 compressed, row-major; fragment of a dense m16n8k16 A.
  auto A = [&](int r, int c) { return a[r * 16 + c]; };
  __half2 a0 = __halves2half2(A(g, 2 * t), A(g, 2 * t + 1));
  __half2 a1 = __halves2half2(A(g + 8, 2 * t), A(g + 8, 2 * t + 1));
  __half2 a2 = __halves2half2(A(g, 2 * t + 8), A(g, 2 * t + 9));
  __half2 a3 = __halves2half2(A(g + 8, 2 * t + 8), A(g + 8, 2 * t + 9));
  // B: 32 x 8 (K x N), stored column-major b[n * 32 + k].
  auto B = [&](int k, int n) { return b[n * 32 + k]; };
  __half2 b0 = __halves2half2(B(2 * t, g), B(2 * t + 1, g));
  __half2 b1 = __halves2half2(B(2 * t + 8, g), B(2 * t + 9, g));
  __half2 b2 = __halves2half2(B(2 * t + 16, g), B(2 * t + 17, g));
  __half2 b3 = __halves2half2(B(2 * t + 24, g), B(2 * t + 25, g));
  uint32_t e = meta[lane];
  float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  uint32_t ua0 = *(uint32_t *)&a0, ua1 = *(uint32_t *)&a1,
           ua2 = *(uint32_t *)&a2, ua3 = *(uint32_t *)&a3;
  uint32_t ub0 = *(uint32_t *)&b0, ub1 = *(uint32_t *)&b1,
           ub2 = *(uint32_t *)&b2, ub3 = *(uint32_t *)&b3;
  if (selector == 0)
    asm volatile("mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, "
                 "{%0,%1,%2,%3}, %12, 0x0;"
                 : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
                 : "r"(ua0), "r"(ua1), "r"(ua2), "r"(ua3), "r"(ub0),
                   "r"(ub1), "r"(ub2), "r"(ub3), "r"(e));
  else if (selector == 1)
    asm volatile("mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, "
                 "{%0,%1,%2,%3}, %12, 0x1;"
                 : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
                 : "r"(ua0), "r"(ua1), "r"(ua2), "r"(ua3), "r"(ub0),
                   "r"(ub1), "r"(ub2), "r"(ub3), "r"(e));
  else
    asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, "
                 "{%0,%1,%2,%3}, %12, 0x0;"
                 : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
                 : "r"(ua0), "r"(ua1), "r"(ua2), "r"(ua3), "r"(ub0),
                   "r"(ub1), "r"(ub2), "r"(ub3), "r"(e));
  // D: 16 x 8, c0,c1: (g, 2t..), c2,c3: (g + 8, 2t..).
  d[g * 8 + 2 * t] = d0;
  d[g * 8 + 2 * t + 1] = d1;
  d[(g + 8) * 8 + 2 * t] = d2;
  d[(g + 8) * 8 + 2 * t + 1] = d3;
}


int main() {
  srand(7);
  __half ha[256], hb[256];
  float fa[256], fb[256];
  for (int i = 0; i < 256; ++i) {
    fa[i] = (float)(rand() % 9 - 4);
    fb[i] = (float)(rand() % 9 - 4);
    ha[i] = __float2half(fa[i]);
    hb[i] = __float2half(fb[i]);
  }
  // Row metadata: per row 8 groups, each a pair i0 < i1 of {0..3}.
  static const int pairs[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
  uint32_t rowMeta[16];
  for (int r = 0; r < 16; ++r) {
    uint32_t w = 0;
    for (int j = 0; j < 8; ++j) {
      int p = rand() % 6;
      w |= (uint32_t)(pairs[p][0] | pairs[p][1] << 2) << (4 * j);
    }
    rowMeta[r] = w;
  }
  // Host reference: dense A (16 x 32) from compressed values and the row
  // metadata (group j's values are compressed slots 2j, 2j+1 at K 4j+i0,
  // 4j+i1), times B.
  float ref[128] = {0};
  for (int r = 0; r < 16; ++r) {
    float dense[32] = {0};
    for (int j = 0; j < 8; ++j) {
      int nib = (rowMeta[r] >> (4 * j)) & 15;
      dense[4 * j + (nib & 3)] = fa[r * 16 + 2 * j];
      dense[4 * j + (nib >> 2)] = fa[r * 16 + 2 * j + 1];
    }
    for (int n = 0; n < 8; ++n)
      for (int k = 0; k < 32; ++k)
        ref[r * 8 + n] += dense[k] * fb[n * 32 + k];
  }
  __half *da, *db;
  uint32_t *dm;
  float *dd;
  cudaMalloc(&da, 512);
  cudaMalloc(&db, 512);
  cudaMalloc(&dm, 128);
  cudaMalloc(&dd, 512);
  cudaMemcpy(da, ha, 512, cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb, 512, cudaMemcpyHostToDevice);
  // Hypotheses for which lanes hold which row's word.
  // The mapping probe2 found: lane 4g + i (selector 0; 4g + 2 + i with
  // selector 1) holds row g's groups 4i..4i+3 in bits 0-15 and row g+8's in
  // bits 16-31.
  const char *names[] = {"sel0 (.sp)", "sel1 (.sp)", "sel0 (.sp::ordered_metadata)"};
  const int selectors[] = {0, 1, 2};
  for (int h = 0; h < 3; ++h) {
    int first = h == 1 ? 2 : 0;
    uint32_t m[32];
    for (int lane = 0; lane < 32; ++lane) {
      int g = lane / 4, t = lane % 4, i = t - first;
      m[lane] = 0x44444444u;
      if (i == 0 || i == 1)
        m[lane] = ((rowMeta[g] >> (16 * i)) & 0xFFFFu) |
                  (((rowMeta[g + 8] >> (16 * i)) & 0xFFFFu) << 16);
    }
    cudaMemcpy(dm, m, 128, cudaMemcpyHostToDevice);
    cudaMemset(dd, 0, 512);
    probe<<<1, 32>>>(da, db, dm, dd, selectors[h]);
    cudaError_t err = cudaDeviceSynchronize();
    float out[128];
    cudaMemcpy(out, dd, 512, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < 128; ++i)
      bad += out[i] != ref[i];
    printf("%-32s: %s, %d of 128 wrong%s\n", names[h], cudaGetErrorString(err),
           bad, bad ? "" : "  <== MATCH");
  }
  return 0;
}
