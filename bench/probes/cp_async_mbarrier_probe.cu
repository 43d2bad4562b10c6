// Does compute-sanitizer's racecheck see the hand-off of cp.async copies
// through `cp.async.mbarrier.arrive.noinc`? The 2:4-sparse GEMM with a K
// step of 64 copies its metadata rows (8 bytes each, too narrow for a
// tensor copy) with cp.async on the producer warpgroup, which signals the
// slot's full barrier that way, and racecheck reports the copies against
// the consumers' reads (docs/perf.md run 160). This is the same hand-off
// alone: 128 producer threads each copy one 8-byte row into a ring slot and
// arrive without increment on the slot's full barrier (count 128); 128
// consumer threads wait on it, read a row, and release the slot (one
// arrival per warp, count 4), either at once or, with -DDEFERRED, one step
// later (as the sparse GEMM does with its MMAs in flight). The result is
// checked on the host.
//
//   nvcc -arch=sm_90a -O3 [-DDEFERRED] cp_async_mbarrier_probe.cu -o probe
//   compute-sanitizer --tool racecheck ./probe
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr int kSlots = 4, kRows = 128, kSteps = 64;

__device__ uint32_t smem(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ void wait(uint64_t *bar, uint32_t parity) {
  asm volatile("{\n.reg .pred p;\nW: mbarrier.try_wait.parity.shared.b64 p, "
               "[%0], %1;\n@!p bra W;\n}" ::"r"(smem(bar)),
               "r"(parity)
               : "memory");
}

__global__ void probe(const uint64_t *in, uint64_t *out) {
  __shared__ alignas(16) uint64_t ring[kSlots][kRows];
  __shared__ alignas(8) uint64_t full[kSlots], empty[kSlots];
  int t = threadIdx.x;
  if (t == 0)
    for (int s = 0; s < kSlots; ++s) {
      asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(smem(&full[s])),
                   "r"(kRows));
      asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(smem(&empty[s])),
                   "r"(kRows / 32));
    }
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  __syncthreads();
  if (t < kRows) { // producer
    for (int k = 0; k < kSteps; ++k) {
      int s = k % kSlots, round = k / kSlots;
      if (round > 0)
        wait(&empty[s], (round - 1) & 1);
      asm volatile(
          "cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(smem(&ring[s][t])),
          "l"(in + k * kRows + t)
          : "memory");
      asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" ::"r"(
                       smem(&full[s]))
                   : "memory");
    }
  } else { // consumer
    int row = t - kRows;
    uint64_t sum = 0;
    for (int k = 0; k < kSteps; ++k) {
      int s = k % kSlots;
      wait(&full[s], (k / kSlots) & 1);
      sum += ring[s][row] * (k + 1);
      __syncwarp();
#ifdef DEFERRED
      int released = k - 1;
#else
      int released = k;
#endif
      if (released >= 0 && (t & 31) == 0)
        asm volatile("mbarrier.arrive.shared.b64 _, [%0];" ::"r"(
                         smem(&empty[released % kSlots]))
                     : "memory");
    }
    out[row] = sum;
  }
}

int main() {
  std::vector<uint64_t> in(kSteps * kRows), out(kRows), want(kRows, 0);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = (i * 2654435761u) & 0xffff;
  for (int k = 0; k < kSteps; ++k)
    for (int r = 0; r < kRows; ++r)
      want[r] += in[k * kRows + r] * (k + 1);
  uint64_t *dIn, *dOut;
  cudaMalloc(&dIn, in.size() * 8);
  cudaMalloc(&dOut, out.size() * 8);
  cudaMemcpy(dIn, in.data(), in.size() * 8, cudaMemcpyHostToDevice);
  probe<<<1, 2 * kRows>>>(dIn, dOut);
  cudaError_t err = cudaDeviceSynchronize();
  cudaMemcpy(out.data(), dOut, out.size() * 8, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int r = 0; r < kRows; ++r)
    wrong += out[r] != want[r];
  printf("probe: %s, %d of %d rows wrong\n", cudaGetErrorString(err), wrong,
         kRows);
  return err != cudaSuccess || wrong;
}
