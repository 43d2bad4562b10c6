// RUN: tile-opt %s -split-input-file -tile-plan-pipes -verify-diagnostics

// A pipe's full barriers count one arrival per tensor copy of a hand-off:
// hand-offs issuing different numbers of copies cannot share them.
!g = memref<?x?xf16>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
module attributes {tile.target = #tile.target<"sm_90a">} {
  func.func @tma_copies_per_hand_off(%A: !g, %s: index) {
    %c0 = arith.constant 0 : index
    tile.kernel @k blocks(%bx) in [1] threads(128) {
      %p = tile.pipe.create : !tile.pipe<2>
      %as = tile.alloc : !sA
      %bs = tile.alloc : !sA
      // expected-note @below {{the other hand-off}}
      tile.pipe.produce_acquire %p[%s] : !tile.pipe<2>
      tile.copy async tma %A[%c0, %c0], %as : !g to !sA
      tile.copy async tma %A[%c0, %c0], %bs : !g to !sA
      tile.pipe.produce_commit %p[%s] : !tile.pipe<2>
      // expected-error @below {{'tile.pipe.produce_acquire' op fills its slot with 1 tensor copies, but another hand-off of the pipe with 2 tensor copies: a pipe's barriers expect as many arrivals per hand-off}}
      tile.pipe.produce_acquire %p[%s] : !tile.pipe<2>
      tile.copy async tma %A[%c0, %c0], %as : !g to !sA
      tile.pipe.produce_commit %p[%s] : !tile.pipe<2>
    }
    return
  }
}

// -----

// A tensor copy outside a pipe has no barrier to complete on.
!g = memref<?x?xf16>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
module attributes {tile.target = #tile.target<"sm_90a">} {
  func.func @tma_without_pipe(%A: !g) {
    %c0 = arith.constant 0 : index
    tile.kernel @k blocks(%bx) in [1] threads(128) {
      %as = tile.alloc : !sA
      // expected-error @below {{a tensor copy (tma) must fill a pipe slot: expected a tile.pipe.produce_acquire before it}}
      tile.copy async tma %A[%c0, %c0], %as : !g to !sA
    }
    return
  }
}

// -----

// Tensor copies on a chip without them.
!g = memref<?x?xf16>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
module attributes {tile.target = #tile.target<"sm_80">} {
  func.func @tma_on_sm80(%A: !g, %s: index) {
    %c0 = arith.constant 0 : index
    tile.kernel @k blocks(%bx) in [1] threads(128) {
      %p = tile.pipe.create : !tile.pipe<2>
      %as = tile.alloc : !sA
      tile.pipe.produce_acquire %p[%s] : !tile.pipe<2>
      // expected-error @below {{'tile.copy' op is a tensor copy (tma), which needs a chip with tensor copies; sm_80 has none}}
      tile.copy async tma %A[%c0, %c0], %as : !g to !sA
      tile.pipe.produce_commit %p[%s] : !tile.pipe<2>
    }
    return
  }
}

// -----

// Copy-engine copies arrive on the slot's barrier at the hand-off's
// commit, which their threads must execute.
!g = memref<?x?xf16>
!sA = memref<2x128x64xf16, #gpu.address_space<workgroup>>
!vA = memref<128x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
module attributes {tile.target = #tile.target<"sm_90a">} {
  func.func @mixed_pipe_commit_elsewhere(%A: !g) {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    tile.kernel @k blocks(%bx) in [1] threads(256) {
      %pipe = tile.pipe.create : <2>
      %as = tile.alloc : !sA
      %bs = tile.alloc : !sA
      %a = memref.subview %as[%c0, 0, 0] [1, 128, 64] [1, 1, 1] : !sA to !vA
      %b = memref.subview %bs[%c0, 0, 0] [1, 128, 64] [1, 1, 1] : !sA to !vA
      tile.pipe.produce_acquire %pipe[%c0] : <2>
      tile.copy async tma %A[%c0, %c0], %a : !g to !vA
      tile.ws [0] {
        // expected-error @below {{'tile.copy' op fills a slot of a pipe of tensor copies, but its threads do not commit the hand-off: copy-engine copies arrive on the slot's barrier at the commit}}
        tile.copy async %A[%c128, %c0], %b : !g to !vA
      }
      tile.pipe.produce_commit %pipe[%c0] : <2>
      tile.pipe.consume_wait %pipe[%c0] in_flight(0) : <2>
      tile.pipe.consume_release %pipe[%c0] : <2>
    }
    return
  }
}

// -----

// Copy-engine groups are per thread: the consumer region cannot wait for
// the producer region's cp.async copies.
module attributes {tile.target = #tile.target<"sm_90a">} {
  func.func @cp_async_between_regions() {
    %c0 = arith.constant 0 : index
    tile.kernel @k blocks(%bx) in [1] threads(256) {
      %pipe = tile.pipe.create : <2>
      tile.ws [0] {
        tile.pipe.produce_acquire %pipe[%c0] : <2>
        // expected-note @below {{the copies are committed here}}
        tile.pipe.produce_commit %pipe[%c0] : <2>
      }
      tile.ws [1] {
        // expected-error @below {{'tile.pipe.consume_wait' op waits for copies that other warps issue: a hand-off between tile.ws regions needs tensor copies ('tile.copy async tma')}}
        tile.pipe.consume_wait %pipe[%c0] in_flight(0) : <2>
        tile.pipe.consume_release %pipe[%c0] : <2>
      }
    }
    return
  }
}
