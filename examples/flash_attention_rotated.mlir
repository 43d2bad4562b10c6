// FlashAttention forward (non-causal, f16, D = 128) with the key loop
// rotated by one block, FlashAttention-3's overlap of the softmax with the
// tensor cores inside one warpgroup.
//
//   Q, K, V, O: [B*H, S, D] f16 (batch and heads flattened), D = 128;
//   O = softmax(Q K^T / sqrt(D)) V, computed online as in
//   examples/flash_attention.mlir (see there for the softmax and the masks).
//
// Each thread block computes BM = 128 query rows and walks over the keys
// BN = 128 at a time. Block 0's scores and probabilities P are computed
// before the loop. Iteration kb then
//
//   1. copies key block kb and value block kb - 1 (one pipeline stage: the
//      producer warpgroup loads them while the previous iteration computes);
//   2. issues S = Q K_kb^T and O += P V_(kb-1), both left running
//      (`mma_groups_in_flight = 1`: the second gemm waits for the first,
//      not for itself);
//   3. computes block kb's softmax from S (row maximum, rescale factor,
//      exponentials, row sums) while the tensor cores run P V;
//   4. waits for P V (`tile.mma_wait 0`), rescales O by the new maximum and
//      converts the new probabilities into P.
//
// P and O stay untouched while P V runs (step 3 writes only S and the row
// vectors), as asynchronous MMAs require; the last value block's P V comes
// after the loop. For sm_90a (tensor copies, a producer warpgroup and its
// register budgets); on sm_80 the tiles of a 128-key block need more
// registers than a thread has, and examples/flash_attention.mlir is the
// kernel to use there. The rotation is written by hand here: the compiler does
// not rotate loops yet (docs/design.md 5.5), and docs/perf.md run 99
// compares this kernel with examples/flash_attention.mlir.

!gQKV = memref<?x?x128xf16>
!sQ = memref<128x128xf16, #gpu.address_space<workgroup>>
!sKV = memref<128x128xf16, #gpu.address_space<workgroup>>
!fAcc = memref<128x128xf32, #tile.mem<fragment>>
!fS = memref<128x128xf32, #tile.mem<fragment>>
!fP = memref<128x128xf16, #tile.mem<fragment>>
!fRow = memref<128xf32, #tile.mem<fragment>>

func.func @flash_attention_fwd(%Q: !gQKV {tile.shape = ["BH", "S", "128"]},
                               %K: !gQKV {tile.shape = ["BH", "S", "128"]},
                               %V: !gQKV {tile.shape = ["BH", "S", "128"]},
                               %O: !gQKV {tile.shape = ["BH", "S", "128"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cBN = arith.constant 128 : index   // BN
  %c128 = arith.constant 128 : index
  %BH = memref.dim %Q, %c0 : !gQKV
  %S = memref.dim %Q, %c1 : !gQKV
  %num_q_blocks = arith.ceildivui %S, %c128 : index
  %num_kv_blocks = arith.ceildivui %S, %cBN : index

  tile.kernel @flash_attention_fwd_kernel blocks(%bx, %bh)
      in [%num_q_blocks, %BH] threads(256) {
    %zero = arith.constant 0.0 : f32
    %neg_inf = arith.constant 0xFF800000 : f32
    %qk_scale = arith.constant 0.12751743082459868 : f32
    %Qs = tile.alloc : !sQ
    %Ks = tile.alloc : !sKV
    %Vs = tile.alloc : !sKV
    %Edge = tile.alloc : !sKV  // key block 0, then the last value block
    %acc_o = tile.alloc : !fAcc
    %scores = tile.alloc : !fS
    %P = tile.alloc : !fP
    %m_prev = tile.alloc : !fRow
    %m_new = tile.alloc : !fRow
    %l = tile.alloc : !fRow
    %scale = tile.alloc : !fRow
    %row_sum = tile.alloc : !fRow
    %q0 = arith.muli %bx, %c128 : index
    tile.copy %Q[%bh, %q0, %c0], %Qs : !gQKV to !sQ
    tile.fill %acc_o, %zero : !fAcc
    tile.fill %l, %zero : !fRow
    tile.fill %m_new, %neg_inf : !fRow

    // Key block 0: its scores and P (the output is still zero).
    tile.copy %K[%bh, %c0, %c0], %Edge : !gQKV to !sKV
    tile.gemm %Qs, %Edge, %scores transpose_b clear_accum policy <full_row>
        : !sQ, !sKV, !fS
    %k_end0 = arith.addi %c0, %cBN : index
    %past_end0 = arith.cmpi ugt, %k_end0, %S : index
    scf.if %past_end0 {
      tile.parallel (%i, %j) in [128, 128] {
        %key = arith.addi %c0, %j : index
        %in_bounds = arith.cmpi ult, %key, %S : index
        %s = memref.load %scores[%i, %j] : !fS
        %masked = arith.select %in_bounds, %s, %neg_inf : f32
        memref.store %masked, %scores[%i, %j] : !fS
      }
    }
    tile.copy %m_new, %m_prev : !fRow to !fRow
    tile.reduce <max> %scores, %m_new dim 1 : !fS to !fRow
    tile.parallel (%i) in [128] {
      %mp = memref.load %m_prev[%i] : !fRow
      %mn = memref.load %m_new[%i] : !fRow
      %diff = arith.subf %mp, %mn : f32
      %arg = arith.mulf %diff, %qk_scale : f32
      %s = math.exp2 %arg : f32
      memref.store %s, %scale[%i] : !fRow
    }
    tile.parallel (%i, %j) in [128, 128] {
      %s = memref.load %scores[%i, %j] : !fS
      %mn = memref.load %m_new[%i] : !fRow
      %s_scaled = arith.mulf %s, %qk_scale : f32
      %m_scaled = arith.mulf %mn, %qk_scale : f32
      %x = arith.subf %s_scaled, %m_scaled : f32
      %p = math.exp2 %x : f32
      memref.store %p, %scores[%i, %j] : !fS
    }
    tile.reduce <sum> %scores, %row_sum dim 1 clear : !fS to !fRow
    tile.parallel (%i) in [128] {
      %li = memref.load %l[%i] : !fRow
      %si = memref.load %scale[%i] : !fRow
      %ri = memref.load %row_sum[%i] : !fRow
      %rescaled = arith.mulf %li, %si : f32
      %sum = arith.addf %rescaled, %ri : f32
      memref.store %sum, %l[%i] : !fRow
    }
    tile.parallel (%i, %j) in [128, 128] {
      %p = memref.load %scores[%i, %j] : !fS
      %p16 = arith.truncf %p : f32 to f16
      memref.store %p16, %P[%i, %j] : !fP
    }

    scf.for %kb = %c1 to %num_kv_blocks step %c1 {
      %k0 = arith.muli %kb, %cBN : index
      %kbp = arith.subi %kb, %c1 : index
      %v0 = arith.muli %kbp, %cBN : index
      // 1. Key block kb and value block kb - 1.
      tile.copy %K[%bh, %k0, %c0], %Ks : !gQKV to !sKV
      tile.copy %V[%bh, %v0, %c0], %Vs : !gQKV to !sKV
      // 2. S = Q K_kb^T and O += P V_(kb-1), both issued before either is
      //    waited for; the second gemm's wait completes the first.
      tile.gemm %Qs, %Ks, %scores transpose_b clear_accum policy <full_row>
          {mma_groups_in_flight = 1 : i64} : !sQ, !sKV, !fS
      tile.gemm %P, %Vs, %acc_o policy <full_row>
          {mma_groups_in_flight = 1 : i64} : !fP, !sKV, !fAcc
      // 3. Block kb's softmax while P V runs: S and the row vectors only.
      %k_end1 = arith.addi %k0, %cBN : index
      %past_end1 = arith.cmpi ugt, %k_end1, %S : index
      scf.if %past_end1 {
        tile.parallel (%i, %j) in [128, 128] {
          %key = arith.addi %k0, %j : index
          %in_bounds = arith.cmpi ult, %key, %S : index
          %s = memref.load %scores[%i, %j] : !fS
          %masked = arith.select %in_bounds, %s, %neg_inf : f32
          memref.store %masked, %scores[%i, %j] : !fS
        }
      }
      tile.copy %m_new, %m_prev : !fRow to !fRow
      tile.reduce <max> %scores, %m_new dim 1 : !fS to !fRow
      tile.parallel (%i) in [128] {
        %mp = memref.load %m_prev[%i] : !fRow
        %mn = memref.load %m_new[%i] : !fRow
        %diff = arith.subf %mp, %mn : f32
        %arg = arith.mulf %diff, %qk_scale : f32
        %s = math.exp2 %arg : f32
        memref.store %s, %scale[%i] : !fRow
      }
      tile.parallel (%i, %j) in [128, 128] {
        %s = memref.load %scores[%i, %j] : !fS
        %mn = memref.load %m_new[%i] : !fRow
        %s_scaled = arith.mulf %s, %qk_scale : f32
        %m_scaled = arith.mulf %mn, %qk_scale : f32
        %x = arith.subf %s_scaled, %m_scaled : f32
        %p = math.exp2 %x : f32
        memref.store %p, %scores[%i, %j] : !fS
      }
      tile.reduce <sum> %scores, %row_sum dim 1 clear : !fS to !fRow
      tile.parallel (%i) in [128] {
        %li = memref.load %l[%i] : !fRow
        %si = memref.load %scale[%i] : !fRow
        %ri = memref.load %row_sum[%i] : !fRow
        %rescaled = arith.mulf %li, %si : f32
        %sum = arith.addf %rescaled, %ri : f32
        memref.store %sum, %l[%i] : !fRow
      }
      // 4. P V is done: rescale O to the new maximum, then the new P.
      tile.mma_wait 0
      tile.parallel (%i, %j) in [128, 128] {
        %o = memref.load %acc_o[%i, %j] : !fAcc
        %si = memref.load %scale[%i] : !fRow
        %r = arith.mulf %o, %si : f32
        memref.store %r, %acc_o[%i, %j] : !fAcc
      }
      tile.parallel (%i, %j) in [128, 128] {
        %p = memref.load %scores[%i, %j] : !fS
        %p16 = arith.truncf %p : f32 to f16
        memref.store %p16, %P[%i, %j] : !fP
      }
    } {tile.num_stages = 2 : i64}

    // The last value block's P V.
    %last = arith.subi %num_kv_blocks, %c1 : index
    %vl = arith.muli %last, %cBN : index
    tile.copy %V[%bh, %vl, %c0], %Edge : !gQKV to !sKV
    tile.gemm %P, %Edge, %acc_o policy <full_row> : !fP, !sKV, !fAcc

    tile.parallel (%i, %j) in [128, 128] {
      %o = memref.load %acc_o[%i, %j] : !fAcc
      %li = memref.load %l[%i] : !fRow
      %r = arith.divf %o, %li : f32
      memref.store %r, %acc_o[%i, %j] : !fAcc
    }
    tile.copy %acc_o, %O[%bh, %q0, %c0] : !fAcc to !gQKV
  }
  return
}
