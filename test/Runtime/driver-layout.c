//===- driver-layout.c - runtime/driver.h against cuda.h ----------*- C -*-===//
//
// The tile runtime declares the part of the CUDA driver API it uses itself
// (runtime/driver.h), to build without CUDA. This program prints the sizes,
// field offsets and constants the runtime relies on; it is compiled once with
// the toolkit's cuda.h and once with driver.h, and the outputs must match.
//
//===----------------------------------------------------------------------===//

// clang-format off
// REQUIRES: cuda-headers
// RUN: %cc -std=c11 -Wall -Wextra -Werror -DUSE_CUDA_H -I%cuda_include %s -o %t.cuda
// RUN: %cc -std=c11 -Wall -Wextra -Werror %tile_runtime_cflags %s -o %t.tile
// RUN: %t.cuda > %t.cuda.txt
// RUN: %t.tile > %t.tile.txt
// RUN: diff %t.cuda.txt %t.tile.txt
// RUN: FileCheck %s --input-file=%t.tile.txt
// CHECK: sizeof(CUlaunchConfig) 56
// CHECK: sizeof(CUtensorMap) 128
// clang-format on

#ifdef USE_CUDA_H
#include <cuda.h>
#else
#include "driver.h"
#endif

#include <stddef.h>
#include <stdio.h>

#define SIZE(type) printf("sizeof(" #type ") %zu\n", sizeof(type))
#define ALIGN(type) printf("alignof(" #type ") %zu\n", _Alignof(type))
#define OFFSET(type, field)                                                    \
  printf("offsetof(" #type ", " #field ") %zu\n", offsetof(type, field))
#define VALUE(name) printf(#name " %lld\n", (long long)(name))

int main(void) {
  SIZE(CUresult);
  SIZE(CUdevice);
  SIZE(CUdeviceptr);
  SIZE(CUcontext);
  SIZE(CUstream);
  SIZE(CUlaunchAttributeValue);
  SIZE(CUlaunchAttribute);
  OFFSET(CUlaunchAttribute, id);
  OFFSET(CUlaunchAttribute, value);
  OFFSET(CUlaunchAttributeValue, clusterDim.x);
  OFFSET(CUlaunchAttributeValue, clusterDim.y);
  OFFSET(CUlaunchAttributeValue, clusterDim.z);
  OFFSET(CUlaunchAttributeValue, clusterSchedulingPolicyPreference);
  OFFSET(CUlaunchAttributeValue, programmaticStreamSerializationAllowed);
  SIZE(CUlaunchConfig);
  OFFSET(CUlaunchConfig, gridDimX);
  OFFSET(CUlaunchConfig, blockDimZ);
  OFFSET(CUlaunchConfig, sharedMemBytes);
  OFFSET(CUlaunchConfig, hStream);
  OFFSET(CUlaunchConfig, attrs);
  OFFSET(CUlaunchConfig, numAttrs);
  SIZE(CUtensorMap);
  ALIGN(CUtensorMap);
  VALUE(CUDA_SUCCESS);
  VALUE(CUDA_ERROR_INVALID_VALUE);
  VALUE(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  VALUE(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  VALUE(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  VALUE(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  VALUE(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  VALUE(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
  VALUE(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
  VALUE(CU_FUNC_ATTRIBUTE_NUM_REGS);
  VALUE(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
  VALUE(CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED);
  VALUE(CU_JIT_INFO_LOG_BUFFER);
  VALUE(CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES);
  VALUE(CU_JIT_ERROR_LOG_BUFFER);
  VALUE(CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES);
  VALUE(CU_JIT_OPTIMIZATION_LEVEL);
  VALUE(CU_EVENT_DEFAULT);
  VALUE(CU_EVENT_DISABLE_TIMING);
  VALUE(CU_STREAM_NON_BLOCKING);
  VALUE(CU_MEM_ATTACH_GLOBAL);
  VALUE(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION);
  VALUE(CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE);
  VALUE(CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION);
  VALUE(CU_CLUSTER_SCHEDULING_POLICY_SPREAD);
  return 0;
}
