// A hand-written CUDA version of the kernel tile-mlir compiles from
// examples/gemm.mlir (128x128x32 tile, 4 warps of 64x64, 4-stage cp.async
// pipeline, A in 64-byte swizzled rows, B in rows padded by 16 bytes,
// ldmatrix + mma.sync m16n8k16 bf16), with the same name and ABI as the
// compiled kernel, so that tile-gemm-bench runs it next to cuBLAS. It is an
// experiment, not part of the build: it measured what each difference
// between the compiled kernel and a plain hand-written one costs (run 14 in
// docs/perf.md), which led to the vectorized epilogue and to
// tile-specialize-bounds. Assumes M % 128 == N % 128 == K % 32 == 0.
//
//   nvcc -cubin -arch=sm_90a -O3 [options] mma_probe.cu -o probe.cubin
//
// Options (each adds one trait of the compiled kernel, or changes the
// schedule):
//   -DPREFETCH=1  fragments of the next k step loaded before the barrier
//                 (double-buffered fragments, CUTLASS-style); default 1
//   -DSTAGES=N    pipeline depth (default 4)
//   -DE_EPI       scalar, per-element masked epilogue stores
//   -DE_CHK       a uniform in-bounds test per copy and iteration, with a
//                 masked (zero-filling) fallback
//   -DE_PRED      the predicated loop form of tile-inject-pipeline (no
//                 prologue: the loop runs STAGES - 1 more iterations)
//   -DE_SWZB      B in 128-byte swizzled column panels instead of padded rows
#include <cuda_bf16.h>
#include <stdint.h>
typedef __nv_bfloat16 T;
#define MEMREF(name)                                                           \
  T *name##Allocated, T *name, long long name##Offset, long long name##Rows,   \
      long long name##Cols, long long name##Stride0, long long name##Stride1

#ifndef PREFETCH
#define PREFETCH 1
#endif
#ifndef STAGES
#define STAGES 4
#endif
#ifdef E_SWZB
enum { BM = 128, BN = 128, BK = 32, BNP = BN };
// byte offset of (k row, 16B chunk c) of B: panels of 64 columns (128 B).
__device__ __forceinline__ int bOff(int r, int c) {
  return (c >> 3) * (BK * 128) + r * 128 + (((c & 7) ^ (r & 7)) << 4);
}
#else
enum { BM = 128, BN = 128, BK = 32, BNP = BN + 8 };
__device__ __forceinline__ int bOff(int r, int c) { return (r * BNP + c * 8) * 2; }
#endif

__device__ __forceinline__ void cpAsync(uint32_t dst, const void *src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst),
               "l"(src));
}
__device__ __forceinline__ void commit() {
  asm volatile("cp.async.commit_group;\n" ::);
}
template <int N> __device__ __forceinline__ void waitGroup() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}
__device__ __forceinline__ void ldsm4(uint32_t addr, uint32_t *r) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}
__device__ __forceinline__ void ldsm4t(uint32_t addr, uint32_t *r) {
  asm volatile(
      "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
      : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
      : "r"(addr));
}
__device__ __forceinline__ void mma(float *c, const uint32_t *a,
                                    const uint32_t *b) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
               "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
               : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
                 "r"(b[1]));
}

extern "C" __global__ void __launch_bounds__(128)
    gemm_kernel(MEMREF(A), MEMREF(B), MEMREF(C)) {
  extern __shared__ __align__(1024) unsigned char smem[];
  const int K = (int)ACols, N = (int)BCols;
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int wm = warp >> 1, wn = warp & 1;
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  const uint32_t sA = (uint32_t)__cvta_generic_to_shared(smem);
  const uint32_t sB = sA + STAGES * BM * BK * 2;
  const int kt = K / BK;

  // Global -> shared: 4 chunks of A and 4 of B per thread.
  const T *gA[4], *gB[4];
  uint32_t dA[4], dB[4];
  for (int i = 0; i < 4; ++i) {
    int c = tid + 128 * i;
    int ar = c >> 2, ac = c & 3;
    gA[i] = A + (long long)(m0 + ar) * AStride0 + ac * 8;
    dA[i] = (ar * BK + ((ac ^ ((ar >> 1) & 3)) * 8)) * 2;
    int br = c >> 4, bc = c & 15;
    gB[i] = B + (long long)br * BStride0 + n0 + bc * 8;
    dB[i] = bOff(br, bc);
  }
  auto loadStage = [&](int k) {
    int s = k % STAGES;
#ifdef E_CHK
    if (!((m0 + BM <= ARows) && (k * BK + BK <= K) && (K % 8 == 0))) {
      for (int i = 0; i < 4; ++i) {
        int c = tid + 128 * i; int ar = c >> 2, ac = c & 3;
        bool in = m0 + ar < ARows && k * BK + ac * 8 < K;
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(sA + s * BM * BK * 2 + dA[i]), "l"(in ? gA[i] + k * BK : A), "r"(in ? 16 : 0));
      }
    } else
#endif
    {
    for (int i = 0; i < 4; ++i)
      cpAsync(sA + s * BM * BK * 2 + dA[i], gA[i] + k * BK);
    }
#ifdef E_CHK
    if (!((n0 + BN <= N) && (k * BK + BK <= K) && (N % 8 == 0))) {
      for (int i = 0; i < 4; ++i) {
        int c = tid + 128 * i; int br = c >> 4, bc = c & 15;
        bool in = k * BK + br < K && n0 + bc * 8 < N;
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(sB + s * BK * BNP * 2 + dB[i]), "l"(in ? gB[i] + (long long)k * BK * BStride0 : B), "r"(in ? 16 : 0));
      }
      return;
    }
#endif
    for (int i = 0; i < 4; ++i) {
      cpAsync(sB + s * BK * BNP * 2 + dB[i], gB[i] + (long long)k * BK * BStride0);
    }
  };
  // ldmatrix addresses (stage 0), per m tile / n pair, per k step.
  uint32_t aAddr[4][2], bAddr[4][2];
  for (int mi = 0; mi < 4; ++mi)
    for (int ks = 0; ks < 2; ++ks) {
      int r = wm * 64 + mi * 16 + (lane & 7) + 8 * ((lane >> 3) & 1);
      int ch = ks * 2 + (lane >> 4);
      aAddr[mi][ks] = sA + (r * BK + ((ch ^ ((r >> 1) & 3)) * 8)) * 2;
    }
  for (int np = 0; np < 4; ++np)
    for (int ks = 0; ks < 2; ++ks) {
      int kr = ks * 16 + (lane & 7) + 8 * ((lane >> 3) & 1);
      int nc = wn * 64 + np * 16 + 8 * (lane >> 4);
      bAddr[np][ks] = sB + bOff(kr, nc >> 3);
    }
  auto loadFrags = [&](int s, int ks, uint32_t (*a)[4], uint32_t (*b)[4]) {
    for (int mi = 0; mi < 4; ++mi)
      ldsm4(aAddr[mi][ks] + s * BM * BK * 2, a[mi]);
    for (int np = 0; np < 4; ++np)
      ldsm4t(bAddr[np][ks] + s * BK * BNP * 2, b[np]);
  };
  float acc[4][8][4] = {};
  auto mmaStep = [&](uint32_t (*a)[4], uint32_t (*b)[4]) {
    for (int mi = 0; mi < 4; ++mi)
      for (int ni = 0; ni < 8; ++ni)
        mma(acc[mi][ni], a[mi], &b[ni >> 1][(ni & 1) * 2]);
  };

#ifndef E_PRED
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < kt)
      loadStage(s);
    commit();
  }
#endif
#ifdef E_PRED
  for (int it = 0; it < kt + STAGES - 1; ++it) {
    waitGroup<STAGES - 2>();
    __syncthreads();
    if (it < kt)
      loadStage(it);
    commit();
    int k = it - (STAGES - 1);
    if (k >= 0) {
      int s = k % STAGES;
      uint32_t fa[2][4][4], fb[2][4][4];
      loadFrags(s, 0, fa[0], fb[0]);
      loadFrags(s, 1, fa[1], fb[1]);
      mmaStep(fa[0], fb[0]);
      mmaStep(fa[1], fb[1]);
    }
  }
#elif PREFETCH
  uint32_t fa[2][4][4], fb[2][4][4];
  waitGroup<STAGES - 2>();
  __syncthreads();
  loadFrags(0, 0, fa[0], fb[0]);
  for (int k = 0; k < kt; ++k) {
    int s = k % STAGES;
    loadFrags(s, 1, fa[1], fb[1]);
    if (k + STAGES - 1 < kt)
      loadStage(k + STAGES - 1);
    commit();
    mmaStep(fa[0], fb[0]);
    waitGroup<STAGES - 2>();
    __syncthreads();
    loadFrags((k + 1) % STAGES, 0, fa[0], fb[0]);
    mmaStep(fa[1], fb[1]);
  }
#else
  for (int k = 0; k < kt; ++k) {
    waitGroup<STAGES - 2>();
    __syncthreads();
    if (k + STAGES - 1 < kt)
      loadStage(k + STAGES - 1);
    commit();
    int s = k % STAGES;
    uint32_t fa[2][4][4], fb[2][4][4];
    loadFrags(s, 0, fa[0], fb[0]);
    loadFrags(s, 1, fa[1], fb[1]);
    mmaStep(fa[0], fb[0]);
    mmaStep(fa[1], fb[1]);
  }
#endif
  waitGroup<0>();
  // Epilogue: bf16 pairs.
  int g = lane >> 2, t = lane & 3;
  for (int mi = 0; mi < 4; ++mi)
    for (int ni = 0; ni < 8; ++ni)
      for (int h = 0; h < 2; ++h) {
        int r = m0 + wm * 64 + mi * 16 + g + 8 * h;
        int c = n0 + wn * 64 + ni * 8 + 2 * t;
#ifdef E_EPI
        if (r < (int)CRows && c < (int)CCols)
          C[(long long)r * CStride0 + c] = __float2bfloat16_rn(acc[mi][ni][2 * h]);
        if (r < (int)CRows && c + 1 < (int)CCols)
          C[(long long)r * CStride0 + c + 1] = __float2bfloat16_rn(acc[mi][ni][2 * h + 1]);
#else
        __nv_bfloat162 v = __floats2bfloat162_rn(acc[mi][ni][2 * h],
                                                 acc[mi][ni][2 * h + 1]);
        *(__nv_bfloat162 *)(C + (long long)r * CStride0 + c) = v;
#endif
      }
}
