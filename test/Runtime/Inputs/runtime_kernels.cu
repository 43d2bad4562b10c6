// Kernels of the runtime GPU test (test/Runtime/gpu.c), which embeds their
// PTX. Regenerate with:
//   nvcc --ptx -arch=compute_75 runtime_kernels.cu -o - | sed 's/^\.version .*/.version 7.5/'

// Writes value(i, j) = i * 1000 + j to every element of a rank-2 f32 memref
// passed as an MLIR memref descriptor (7 parameters).
extern "C" __global__ void fill_memref(float *allocated, float *aligned,
                                       long long offset, long long size0,
                                       long long size1, long long stride0,
                                       long long stride1) {
  long long i = blockIdx.y * (long long)blockDim.y + threadIdx.y;
  long long j = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < size0 && j < size1)
    aligned[offset + i * stride0 + j * stride1] = (float)(i * 1000 + j);
}

// Uses all of its dynamic shared memory (`words` 32-bit words): each thread
// writes its words, the block reads them back in reverse order, and
// out[blockIdx.x] gets the sum of all words (words * (words - 1) / 2).
extern "C" __global__ void shared_sum(unsigned *out, unsigned words) {
  extern __shared__ unsigned smem[];
  for (unsigned w = threadIdx.x; w < words; w += blockDim.x)
    smem[w] = w;
  __syncthreads();
  unsigned sum = 0;
  for (unsigned w = threadIdx.x; w < words; w += blockDim.x)
    sum += smem[words - 1 - w];
  atomicAdd(&out[blockIdx.x], sum);
}

// shared_sum with 64 bytes of static shared memory as well: with 48 KiB of
// dynamic shared memory it needs the dynamic limit raised (48 KiB minus the
// static part by default). out[blockIdx.x] gets words * (words - 1) / 2 + 120.
extern "C" __global__ void shared_sum_static(unsigned *out, unsigned words) {
  __shared__ unsigned bias[16];
  extern __shared__ unsigned smem[];
  if (threadIdx.x < 16)
    bias[threadIdx.x] = threadIdx.x;
  for (unsigned w = threadIdx.x; w < words; w += blockDim.x)
    smem[w] = w;
  __syncthreads();
  unsigned sum = 0;
  for (unsigned w = threadIdx.x; w < words; w += blockDim.x)
    sum += smem[words - 1 - w];
  if (threadIdx.x < 16)
    sum += bias[15 - threadIdx.x];
  atomicAdd(&out[blockIdx.x], sum);
}
