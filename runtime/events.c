//===- events.c - Events of the tile runtime ----------------------*- C -*-===//
//
// tileRtEvent* of tile_runtime.h: CUDA events on the default stream (the
// HIP backend has none yet).
//
//===----------------------------------------------------------------------===//

#include "context.h"

#include <stdlib.h>

//===----------------------------------------------------------------------===//
// Events
//===----------------------------------------------------------------------===//

int tileRtEventCreate(TileRtContext *ctx, TileRtEvent **event) {
  CHECK_CTX(ctx, "tileRtEventCreate");
  CHECK_CUDA_ONLY(ctx, "tileRtEventCreate");
  CHECK_ARG(ctx, event, "tileRtEventCreate: NULL event pointer");
  *event = NULL;
  TileRtEvent *result = calloc(1, sizeof(TileRtEvent));
  if (!result)
    return tileFail(ctx, TILE_RT_ERROR_OUT_OF_MEMORY, "tileRtEventCreate");
  CUresult r = tileCu.cuEventCreate(&result->event, CU_EVENT_DEFAULT);
  if (r != CUDA_SUCCESS) {
    free(result);
    return tileFail(ctx, r, "cuEventCreate");
  }
  *event = result;
  return TILE_RT_SUCCESS;
}

int tileRtEventDestroy(TileRtContext *ctx, TileRtEvent *event) {
  CHECK_CTX(ctx, "tileRtEventDestroy");
  CHECK_CUDA_ONLY(ctx, "tileRtEventDestroy");
  if (!event)
    return TILE_RT_SUCCESS;
  CUresult r = tileCu.cuEventDestroy(event->event);
  free(event);
  CHECK_CU(ctx, r, "cuEventDestroy");
  return TILE_RT_SUCCESS;
}

int tileRtEventRecord(TileRtContext *ctx, TileRtEvent *event) {
  CHECK_CTX(ctx, "tileRtEventRecord");
  CHECK_CUDA_ONLY(ctx, "tileRtEventRecord");
  CHECK_ARG(ctx, event, "tileRtEventRecord: NULL event");
  CHECK_CU(ctx, tileCu.cuEventRecord(event->event, NULL), "cuEventRecord");
  return TILE_RT_SUCCESS;
}

int tileRtEventSynchronize(TileRtContext *ctx, TileRtEvent *event) {
  CHECK_CTX(ctx, "tileRtEventSynchronize");
  CHECK_CUDA_ONLY(ctx, "tileRtEventSynchronize");
  CHECK_ARG(ctx, event, "tileRtEventSynchronize: NULL event");
  CHECK_CU(ctx, tileCu.cuEventSynchronize(event->event), "cuEventSynchronize");
  return TILE_RT_SUCCESS;
}

int tileRtEventElapsedMs(TileRtContext *ctx, TileRtEvent *start,
                         TileRtEvent *end, float *ms) {
  CHECK_CTX(ctx, "tileRtEventElapsedMs");
  CHECK_CUDA_ONLY(ctx, "tileRtEventElapsedMs");
  CHECK_ARG(ctx, start && end && ms, "tileRtEventElapsedMs: NULL argument");
  *ms = 0;
  CHECK_CU(ctx, tileCu.cuEventElapsedTime(ms, start->event, end->event),
           "cuEventElapsedTime");
  return TILE_RT_SUCCESS;
}
