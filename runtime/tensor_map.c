//===- tensor_map.c - TMA tensor maps of the mgpu ABI -------------*- C -*-===//
//
// mgpuTensorMapEncodeTiled and mgpuTensorMapEncodeTiledMemref (tile_mgpu.h).
// nvgpu.tma.create.descriptor lowers to the memref variant, whose result the
// kernel receives as a pointer: like upstream, the 128-byte CUtensorMap is
// copied to device global memory and its device address returned. Upstream
// makes one allocation and one copy per call and never frees them; here maps
// are kept per device in a table keyed by their 128 bytes, so a host function
// called again with the same tensors reuses its maps (a map is read-only, so
// equal bytes mean the same map), and new maps are carved from 8 KiB blocks.
// The copy goes through a page-locked staging buffer: cuMemcpyHtoD from
// page-locked memory has completed when it returns, so a kernel launched
// afterwards on any stream sees the map.
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include "driver.h"
#include "tile_mgpu.h"
#include "tile_runtime.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  kMapBytes = sizeof(CUtensorMap),
  kMapsPerBlock = 64,
  kMaxTensorRank = 5,
};

_Static_assert(sizeof(CUtensorMap) == 128, "CUtensorMap is 128 bytes");

//===----------------------------------------------------------------------===//
// Device copies of tensor maps
//===----------------------------------------------------------------------===//

typedef struct MapSlot {
  CUtensorMap map;
  CUdeviceptr address; // 0: empty slot
} MapSlot;

typedef struct MapCache {
  MapSlot *slots; // open addressing, `capacity` a power of two
  size_t capacity, count;
  CUdeviceptr block; // the device block new maps go to
  unsigned blockUsed;
  void *staging; // page-locked, kMapBytes
} MapCache;

static MapCache caches[kTileMaxDevices];
static pthread_mutex_t cachesLock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t hashMap(const CUtensorMap *map) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (int i = 0; i < 16; ++i) {
    hash ^= map->opaque[i];
    hash *= 0x100000001b3ull;
    hash ^= hash >> 29;
  }
  return hash;
}

static MapSlot *findSlot(MapSlot *slots, size_t capacity,
                         const CUtensorMap *map) {
  size_t mask = capacity - 1;
  for (size_t i = hashMap(map) & mask;; i = (i + 1) & mask) {
    if (!slots[i].address || memcmp(&slots[i].map, map, kMapBytes) == 0)
      return &slots[i];
  }
}

/// Makes room for one more map; returns 0 on success.
static int reserveSlot(MapCache *cache) {
  if ((cache->count + 1) * 4 <= cache->capacity * 3)
    return 0;
  size_t capacity = cache->capacity ? cache->capacity * 2 : 64;
  MapSlot *slots = calloc(capacity, sizeof(MapSlot));
  if (!slots)
    return 1;
  for (size_t i = 0; i < cache->capacity; ++i)
    if (cache->slots[i].address)
      *findSlot(slots, capacity, &cache->slots[i].map) = cache->slots[i];
  free(cache->slots);
  cache->slots = slots;
  cache->capacity = capacity;
  return 0;
}

/// The device address of a copy of `map` (in the current context, the
/// primary context of `device`), or 0 after recording an error for `api`.
static CUdeviceptr deviceCopy(const char *api, int device,
                              const CUtensorMap *map) {
  CUdeviceptr address = 0;
  pthread_mutex_lock(&cachesLock);
  MapCache *cache = &caches[device];
  MapSlot *slot =
      cache->capacity ? findSlot(cache->slots, cache->capacity, map) : NULL;
  if (slot && slot->address) {
    address = slot->address;
    goto done;
  }
  if (reserveSlot(cache)) {
    tileRecordError(TILE_RT_ERROR_OUT_OF_MEMORY, "%s: tensor map table", api);
    goto done;
  }
  CUresult result = CUDA_SUCCESS;
  if (!cache->staging) {
    result = tileCu.cuMemAllocHost(&cache->staging, kMapBytes);
    if (result != CUDA_SUCCESS) {
      cache->staging = NULL;
      tileRecordError(result, "%s: cuMemAllocHost(%d bytes)", api,
                      (int)kMapBytes);
      goto done;
    }
  }
  if (!cache->block || cache->blockUsed == kMapsPerBlock) {
    CUdeviceptr block = 0;
    result = tileCu.cuMemAlloc(&block, (size_t)kMapsPerBlock * kMapBytes);
    if (result != CUDA_SUCCESS) {
      tileRecordError(result, "%s: cuMemAlloc(%d bytes for tensor maps)", api,
                      (int)(kMapsPerBlock * kMapBytes));
      goto done;
    }
    cache->block = block;
    cache->blockUsed = 0;
  }
  CUdeviceptr target = cache->block + (CUdeviceptr)cache->blockUsed * kMapBytes;
  memcpy(cache->staging, map, kMapBytes);
  result = tileCu.cuMemcpyHtoD(target, cache->staging, kMapBytes);
  if (result != CUDA_SUCCESS) {
    tileRecordError(result, "%s: cuMemcpyHtoD(tensor map, %d bytes)", api,
                    (int)kMapBytes);
    goto done;
  }
  ++cache->blockUsed;
  slot = findSlot(cache->slots, cache->capacity, map);
  slot->map = *map;
  slot->address = target;
  ++cache->count;
  address = target;
done:
  pthread_mutex_unlock(&cachesLock);
  return address;
}

//===----------------------------------------------------------------------===//
// Encoding
//===----------------------------------------------------------------------===//

/// CUtensorMapDataType: element sizes and names of the types with whole-byte
/// elements (CU_TENSOR_MAP_DATA_TYPE_UINT8 ... TFLOAT32_FTZ).
static const struct {
  int bytes;
  const char *name;
} kDataTypes[] = {
    // clang-format off
    {1, "u8"}, {2, "u16"}, {4, "u32"}, {4, "i32"}, {8, "u64"}, {8, "i64"},
    {2, "f16"}, {4, "f32"}, {8, "f64"}, {2, "bf16"}, {4, "f32 (ftz)"},
    {4, "tf32"}, {4, "tf32 (ftz)"},
    // clang-format on
};
enum { kNumDataTypes = sizeof(kDataTypes) / sizeof(kDataTypes[0]) };

static const char *dataTypeName(int type) {
  return type >= 0 && type < kNumDataTypes ? kDataTypes[type].name : "?";
}

/// Appends "[a, b, ...]" of `count` values to `out`.
static void formatList(char *out, size_t size, const uint64_t *values,
                       const uint32_t *values32, unsigned count) {
  size_t used = 0;
  for (unsigned i = 0; i < count && used < size; ++i) {
    unsigned long long value = values ? values[i] : values32[i];
    int n = snprintf(out + used, size - used, "%s%llu", i ? ", " : "[", value);
    used = n < 0 ? size : used + (size_t)n;
  }
  if (used < size)
    snprintf(out + used, size - used, count ? "]" : "[]");
}

/// cuTensorMapEncodeTiled with its error recorded for `api`; returns 0 on
/// success. The arrays are non-NULL and hold `rank` (strides: rank - 1)
/// entries.
static int encodeTiled(const char *api, CUtensorMap *map, int dataType,
                       unsigned rank, void *address, const uint64_t *dims,
                       const uint64_t *strides, const uint32_t *box,
                       const uint32_t *elementStrides, int interleave,
                       int swizzle, int l2Promotion, int oobFill) {
  if (!tileCu.cuTensorMapEncodeTiled) {
    tileRecordErrorMessage(TILE_RT_ERROR_DRIVER_SYMBOL,
                           "%s: the CUDA driver has no cuTensorMapEncodeTiled "
                           "(CUDA 12.0 or newer is needed): %s",
                           api, tileRtErrorString(TILE_RT_ERROR_DRIVER_SYMBOL));
    return 1;
  }
  CUresult result = tileCu.cuTensorMapEncodeTiled(
      map, dataType, rank, address, dims, strides, box, elementStrides,
      interleave, swizzle, l2Promotion, oobFill);
  if (result == CUDA_SUCCESS)
    return 0;
  char dimsText[128], stridesText[128], boxText[128];
  formatList(dimsText, sizeof(dimsText), dims, NULL, rank);
  formatList(stridesText, sizeof(stridesText), strides, NULL,
             rank > 0 ? rank - 1 : 0);
  formatList(boxText, sizeof(boxText), NULL, box, rank);
  tileRecordError(result,
                  "%s: cuTensorMapEncodeTiled(%s, address %p, dims %s, byte "
                  "strides %s, box %s (innermost first), interleave %d, "
                  "swizzle %d, L2 promotion %d, OOB fill %d)",
                  api, dataTypeName(dataType), address, dimsText, stridesText,
                  boxText, interleave, swizzle, l2Promotion, oobFill);
  return 1;
}

void mgpuTensorMapEncodeTiled(struct CUtensorMap_st *tensorMap,
                              int tensorDataType, uint32_t tensorRank,
                              void *globalAddress, const uint64_t *globalDim,
                              const uint64_t *globalStrides,
                              const uint32_t *boxDim,
                              const uint32_t *elementStrides, int interleave,
                              int swizzle, int l2Promotion, int oobFill) {
  const char *api = "mgpuTensorMapEncodeTiled";
  if (!tensorMap || tensorRank < 1 || tensorRank > kMaxTensorRank ||
      !globalDim || !boxDim || !elementStrides ||
      (tensorRank > 1 && !globalStrides)) {
    tileRecordError(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "%s: NULL map or array, or rank %u not in [1, %d]", api,
                    tensorRank, (int)kMaxTensorRank);
    return;
  }
  TileScope scope;
  if (tileScopeEnter(&scope, api))
    return;
  encodeTiled(api, tensorMap, tensorDataType, tensorRank, globalAddress,
              globalDim, globalStrides, boxDim, elementStrides, interleave,
              swizzle, l2Promotion, oobFill);
  tileScopeExit(&scope);
}

void *mgpuTensorMapEncodeTiledMemref(int64_t tensorRank, void *descriptor,
                                     int tensorDataType, int interleave,
                                     int swizzle, int l2Promotion, int oobFill,
                                     int64_t *boxDims) {
  const char *api = "mgpuTensorMapEncodeTiledMemref";
  const MemRefDescriptor *memref = descriptor;
  if (!memref || !boxDims || tensorRank < 1 || tensorRank > kMaxTensorRank) {
    tileRecordError(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "%s: %s descriptor, %s box, rank %lld not in [1, %d]", api,
                    memref ? "a" : "NULL", boxDims ? "a" : "NULL",
                    (long long)tensorRank, (int)kMaxTensorRank);
    return NULL;
  }
  if (tensorDataType < 0 || tensorDataType >= kNumDataTypes) {
    tileRecordError(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "%s: unsupported tensor map data type %d", api,
                    tensorDataType);
    return NULL;
  }
  unsigned rank = (unsigned)tensorRank;
  int64_t elementBytes = kDataTypes[tensorDataType].bytes;
  const int64_t *sizes = memref->shape, *strides = memref->shape + rank;
  // The driver orders dimensions innermost first, memrefs outermost first.
  uint64_t dims[kMaxTensorRank], byteStrides[kMaxTensorRank];
  uint32_t box[kMaxTensorRank], elementStrides[kMaxTensorRank];
  for (unsigned i = 0; i < rank; ++i) {
    unsigned d = rank - 1 - i;
    if (sizes[d] < 1 || strides[d] < 1 || boxDims[d] < 1 || boxDims[d] > 256) {
      tileRecordError(TILE_RT_ERROR_INVALID_ARGUMENT,
                      "%s: dimension %u has size %lld, stride %lld and box "
                      "%lld (sizes and strides >= 1, box in [1, 256])",
                      api, d, (long long)sizes[d], (long long)strides[d],
                      (long long)boxDims[d]);
      return NULL;
    }
    dims[i] = (uint64_t)sizes[d];
    box[i] = (uint32_t)boxDims[d];
    elementStrides[i] = 1;
    if (i > 0)
      byteStrides[i - 1] = (uint64_t)strides[d] * (uint64_t)elementBytes;
  }
  if (strides[rank - 1] != 1) {
    tileRecordError(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "%s: the innermost stride is %lld (TMA needs 1)", api,
                    (long long)strides[rank - 1]);
    return NULL;
  }
  void *address = memref->aligned + memref->offset * elementBytes;

  TileScope scope;
  if (tileScopeEnter(&scope, api))
    return NULL;
  CUtensorMap map;
  memset(&map, 0, sizeof(map));
  CUdeviceptr result = 0;
  if (encodeTiled(api, &map, tensorDataType, rank, address, dims, byteStrides,
                  box, elementStrides, interleave, swizzle, l2Promotion,
                  oobFill) == 0)
    result = deviceCopy(api, tileDefaultDevice(), &map);
  tileScopeExit(&scope);
  return (void *)(uintptr_t)result;
}
