// A stand-in for the kernel tile-mlir compiles from examples/gemm.mlir, with
// the same name and ABI, to validate the benchmark harness, the runtime and
// the GPU scripts independently of the compiler (scripts/gpu-bundle.sh builds
// it with nvcc when nvcc is available):
//
//   nvcc -cubin -arch=sm_90a -DTILE_REF_BF16 reference_gemm.cu -o ref_bf16.cubin
//
// gemm_kernel(A, B, C): C = A B for row-major A (M x K), B (K x N), C (M x N)
// of f16 (default) or bf16 (-DTILE_REF_BF16), f32 accumulation, each memref
// passed as an MLIR memref descriptor (allocated, aligned, offset, size0,
// size1, stride0, stride1). Grid (ceil(N / 128), ceil(M / 128)), 128 threads,
// 32 KiB of dynamic shared memory (f32 tiles of A and B); edges are masked.
// Plain FMA code: correct, not fast.

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#ifdef TILE_REF_BF16
typedef __nv_bfloat16 T;
__device__ float toFloat(T x) { return __bfloat162float(x); }
__device__ T fromFloat(float x) { return __float2bfloat16_rn(x); }
#else
typedef __half T;
__device__ float toFloat(T x) { return __half2float(x); }
__device__ T fromFloat(float x) { return __float2half_rn(x); }
#endif

#define MEMREF(name)                                                           \
  T *name##Allocated, T *name, long long name##Offset, long long name##Rows,   \
      long long name##Cols, long long name##Stride0, long long name##Stride1

enum { BM = 128, BN = 128, BK = 32, TM = 8, TN = 16 };

extern "C" __global__ void __launch_bounds__(128)
    gemm_kernel(MEMREF(A), MEMREF(B), MEMREF(C)) {
  extern __shared__ float smem[];
  float *As = smem;           // [BM][BK]
  float *Bs = smem + BM * BK; // [BK][BN]
  const long long M = ARows, K = ACols, N = BCols;
  const long long m0 = (long long)blockIdx.y * BM,
                  n0 = (long long)blockIdx.x * BN;
  const int tid = threadIdx.x;
  const int tr = tid / (BN / TN), tc = tid % (BN / TN); // 16 x 8 threads
  float acc[TM][TN] = {};

  for (long long k0 = 0; k0 < K; k0 += BK) {
    for (int e = tid; e < BM * BK; e += blockDim.x) {
      long long i = m0 + e / BK, k = k0 + e % BK;
      As[e] = i < M && k < K
                  ? toFloat(A[AOffset + i * AStride0 + k * AStride1])
                  : 0.0f;
    }
    for (int e = tid; e < BK * BN; e += blockDim.x) {
      long long k = k0 + e / BN, j = n0 + e % BN;
      Bs[e] = k < K && j < N
                  ? toFloat(B[BOffset + k * BStride0 + j * BStride1])
                  : 0.0f;
    }
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk) {
      float a[TM], b[TN];
      for (int r = 0; r < TM; ++r)
        a[r] = As[(tr * TM + r) * BK + kk];
      for (int c = 0; c < TN; ++c)
        b[c] = Bs[kk * BN + tc * TN + c];
      for (int r = 0; r < TM; ++r)
        for (int c = 0; c < TN; ++c)
          acc[r][c] += a[r] * b[c];
    }
    __syncthreads();
  }

  for (int r = 0; r < TM; ++r) {
    long long i = m0 + tr * TM + r;
    for (int c = 0; c < TN; ++c) {
      long long j = n0 + tc * TN + c;
      if (i < M && j < N)
        C[COffset + i * CStride0 + j * CStride1] = fromFloat(acc[r][c]);
    }
  }
}
