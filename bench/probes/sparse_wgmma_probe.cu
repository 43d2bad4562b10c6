// Probe of Hopper's sparse wgmma on the GPU (docs/perf.md, run 59). Not
// part of the build:
//
//   nvcc -gencode arch=compute_90a,code=sm_90a -o wgprobe sparse_wgmma_probe.cu
//
// wgmma (sm_90a), A in registers, B from shared memory (no swizzle,
// K-major): dense m64n8k16 to check the operand layouts, then sparse
// m64n8k32 with the metadata layout mma.sp uses per warp (lane 4g + i:
// bits 0-15 row 16w+g's groups 4i..4i+3, bits 16-31 row 16w+g+8's).
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cuda_fp16.h>

__device__ uint64_t descriptor(const void *smem, uint32_t lbo, uint32_t sbo) {
  uint32_t addr = (uint32_t)__cvta_generic_to_shared(smem);
  uint64_t d = 0;
  d |= (uint64_t)((addr >> 4) & 0x3FFF);
  d |= (uint64_t)((lbo >> 4) & 0x3FFF) << 16;
  d |= (uint64_t)((sbo >> 4) & 0x3FFF) << 32;
  return d; // base offset 0, no swizzle
}

// a: compressed (or dense) A, 64 rows x KA values row-major; b: K x 8
// stored n-major b[n * K + k]; meta per thread (128).
template <int K, bool Sparse>
__global__ void wg(const __half *a, const __half *b, const uint32_t *meta,
                   float *d) {
  __shared__ __align__(128) __half bs[32 * 8];
  int tid = threadIdx.x, w = tid / 32, lane = tid % 32, g = lane / 4,
      t = lane % 4;
  // B into the no-swizzle K-major layout: core matrix (k / 8) at 128 B
  // apart, row n at 16 B, k % 8 at 2 B.
  for (int i = tid; i < K * 8; i += 128) {
    int n = i / K, k = i % K;
    bs[(k / 8) * 64 + n * 8 + (k % 8)] = b[n * K + k];
  }
  asm volatile("fence.proxy.async.shared::cta;");
  __syncthreads();
  const int KA = Sparse ? K / 2 : K; // values per row of A as stored
  auto A = [&](int r, int c) { return a[r * KA + c]; };
  int r0 = 16 * w + g;
  __half2 a0 = __halves2half2(A(r0, 2 * t), A(r0, 2 * t + 1));
  __half2 a1 = __halves2half2(A(r0 + 8, 2 * t), A(r0 + 8, 2 * t + 1));
  __half2 a2 = __halves2half2(A(r0, 2 * t + 8), A(r0, 2 * t + 9));
  __half2 a3 = __halves2half2(A(r0 + 8, 2 * t + 8), A(r0 + 8, 2 * t + 9));
  uint64_t db = descriptor(bs, 128, 256);
  float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  uint32_t e = meta[tid];
  asm volatile("wgmma.fence.sync.aligned;");
  if (!Sparse)
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 0, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, %8, p, 1, 1, 0;\n}"
                 : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
                 : "r"(*(uint32_t *)&a0), "r"(*(uint32_t *)&a1),
                   "r"(*(uint32_t *)&a2), "r"(*(uint32_t *)&a3), "l"(db));
  else
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 0, 0;\n"
                 "wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, %8, %9, 0, p, 1, 1, 0;\n}"
                 : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
                 : "r"(*(uint32_t *)&a0), "r"(*(uint32_t *)&a1),
                   "r"(*(uint32_t *)&a2), "r"(*(uint32_t *)&a3), "l"(db),
                   "r"(e));
  asm volatile("wgmma.commit_group.sync.aligned;");
  asm volatile("wgmma.wait_group.sync.aligned 0;");
  d[r0 * 8 + 2 * t] = d0;
  d[r0 * 8 + 2 * t + 1] = d1;
  d[(r0 + 8) * 8 + 2 * t] = d2;
  d[(r0 + 8) * 8 + 2 * t + 1] = d3;
}

int main() {
  srand(11);
  const int M = 64;
  float fa[64 * 32], fb[32 * 8];
  __half ha[64 * 32], hb[32 * 8];
  for (int i = 0; i < 64 * 32; ++i) { fa[i] = (float)(rand() % 9 - 4); ha[i] = __float2half(fa[i]); }
  for (int i = 0; i < 32 * 8; ++i) { fb[i] = (float)(rand() % 9 - 4); hb[i] = __float2half(fb[i]); }
  __half *da, *db; uint32_t *dm; float *dd;
  cudaMalloc(&da, sizeof ha); cudaMalloc(&db, sizeof hb);
  cudaMalloc(&dm, 128 * 4); cudaMalloc(&dd, 64 * 8 * 4);
  cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice);
  float out[512];
  // Dense k16: A 64 x 16, B 16 x 8 (b[n * 16 + k]).
  {
    float ref[512] = {0};
    for (int r = 0; r < M; ++r)
      for (int n = 0; n < 8; ++n)
        for (int k = 0; k < 16; ++k)
          ref[r * 8 + n] += fa[r * 16 + k] * fb[n * 16 + k];
    cudaMemset(dd, 0, 2048);
    wg<16, false><<<1, 128>>>(da, db, dm, dd);
    cudaError_t err = cudaDeviceSynchronize();
    cudaMemcpy(out, dd, 2048, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < 512; ++i) bad += out[i] != ref[i];
    printf("dense m64n8k16: %s, %d of 512 wrong\n", cudaGetErrorString(err), bad);
  }
  // Sparse k32: A compressed 64 x 16, metadata per row (8 groups).
  static const int pairs[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
  uint32_t rowMeta[64];
  for (int r = 0; r < M; ++r) {
    uint32_t wd = 0;
    for (int j = 0; j < 8; ++j) {
      int p = rand() % 6;
      wd |= (uint32_t)(pairs[p][0] | pairs[p][1] << 2) << (4 * j);
    }
    rowMeta[r] = wd;
  }
  float ref[512] = {0};
  for (int r = 0; r < M; ++r) {
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
  uint32_t m[128];
  for (int tid = 0; tid < 128; ++tid) {
    int w = tid / 32, lane = tid % 32, g = lane / 4, i = lane % 4;
    int r = 16 * w + g;
    m[tid] = 0x44444444u;
    if (i < 2)
      m[tid] = ((rowMeta[r] >> (16 * i)) & 0xFFFFu) |
               (((rowMeta[r + 8] >> (16 * i)) & 0xFFFFu) << 16);
  }
  cudaMemcpy(dm, m, sizeof m, cudaMemcpyHostToDevice);
  cudaMemset(dd, 0, 2048);
  wg<32, true><<<1, 128>>>(da, db, dm, dd);
  cudaError_t err = cudaDeviceSynchronize();
  cudaMemcpy(out, dd, 2048, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < 512; ++i) bad += out[i] != ref[i];
  printf("sparse m64n8k32, mma.sp's metadata per warp: %s, %d of 512 wrong%s\n",
         cudaGetErrorString(err), bad, bad ? "" : "  <== MATCH");
  if (bad) {
    for (int i = 0; i < 16; ++i) printf("%g/%g ", out[i * 8], ref[i * 8]);
    printf("\n");
  }
  return 0;
}
