// FlashAttention forward (non-causal, f16, D = 128) with the key loop
// rotated by one block (FlashAttention-3's intra-warpgroup overlap): an
// iteration issues Q K^T of key block kb and P V of block kb - 1, both
// left in flight, waits for Q K^T only (the second gemm's wait), computes
// block kb's softmax while P V runs, then waits for P V (tile.mma_wait 0),
// rescales the output and converts the new P. Experiment of docs/perf.md
// run 99.

!gQKV = memref<?x?x128xf16>
!sQ = memref<128x128xf16, #gpu.address_space<workgroup>>
!sKV = memref<64x128xf16, #gpu.address_space<workgroup>>
!fAcc = memref<128x128xf32, #tile.mem<fragment>>
!fS = memref<128x64xf32, #tile.mem<fragment>>
!fP = memref<128x64xf16, #tile.mem<fragment>>
!fRow = memref<128xf32, #tile.mem<fragment>>

func.func @flash_attention_fwd(%Q: !gQKV {tile.shape = ["BH", "S", "128"]},
                               %K: !gQKV {tile.shape = ["BH", "S", "128"]},
                               %V: !gQKV {tile.shape = ["BH", "S", "128"]},
                               %O: !gQKV {tile.shape = ["BH", "S", "128"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %BH = memref.dim %Q, %c0 : !gQKV
  %S = memref.dim %Q, %c1 : !gQKV
  %num_q_blocks = arith.ceildivui %S, %c128 : index
  %num_kv_blocks = arith.ceildivui %S, %c64 : index

  tile.kernel @flash_attention_fwd_kernel blocks(%bx, %bh)
      in [%num_q_blocks, %BH] threads(256) {
    %zero = arith.constant 0.0 : f32
    %neg_inf = arith.constant 0xFF800000 : f32
    %qk_scale = arith.constant 0.12751743082459868 : f32
    %Qs = tile.alloc : !sQ
    %Ks = tile.alloc : !sKV
    %Vs = tile.alloc : !sKV
    %K0s = tile.alloc : !sKV
    %Vls = tile.alloc : !sKV
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
    tile.copy %K[%bh, %c0, %c0], %K0s : !gQKV to !sKV
    tile.gemm %Qs, %K0s, %scores transpose_b clear_accum policy <full_row>
        : !sQ, !sKV, !fS
    %k_end0 = arith.addi %c0, %c64 : index
    %past_end0 = arith.cmpi ugt, %k_end0, %S : index
    scf.if %past_end0 {
      tile.parallel (%i, %j) in [128, 64] {
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
    tile.parallel (%i, %j) in [128, 64] {
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
    tile.parallel (%i, %j) in [128, 64] {
      %p = memref.load %scores[%i, %j] : !fS
      %p16 = arith.truncf %p : f32 to f16
      memref.store %p16, %P[%i, %j] : !fP
    }

    scf.for %kb = %c1 to %num_kv_blocks step %c1 {
      %k0 = arith.muli %kb, %c64 : index
      %kbp = arith.subi %kb, %c1 : index
      %v0 = arith.muli %kbp, %c64 : index
      tile.copy %K[%bh, %k0, %c0], %Ks : !gQKV to !sKV
      tile.copy %V[%bh, %v0, %c0], %Vs : !gQKV to !sKV
      tile.gemm %Qs, %Ks, %scores transpose_b clear_accum policy <full_row>
          {mma_groups_in_flight = 1 : i64} : !sQ, !sKV, !fS
      tile.gemm %P, %Vs, %acc_o policy <full_row>
          {mma_groups_in_flight = 1 : i64} : !fP, !sKV, !fAcc
      %k_end1 = arith.addi %k0, %c64 : index
      %past_end1 = arith.cmpi ugt, %k_end1, %S : index
      scf.if %past_end1 {
        tile.parallel (%i, %j) in [128, 64] {
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
      tile.parallel (%i, %j) in [128, 64] {
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
      tile.mma_wait 0
      tile.parallel (%i, %j) in [128, 128] {
        %o = memref.load %acc_o[%i, %j] : !fAcc
        %si = memref.load %scale[%i] : !fRow
        %r = arith.mulf %o, %si : f32
        memref.store %r, %acc_o[%i, %j] : !fAcc
      }
      tile.parallel (%i, %j) in [128, 64] {
        %p = memref.load %scores[%i, %j] : !fS
        %p16 = arith.truncf %p : f32 to f16
        memref.store %p16, %P[%i, %j] : !fP
      }
    } {tile.num_stages = 2 : i64}

    // The last key block's P V.
    %last = arith.subi %num_kv_blocks, %c1 : index
    %vl = arith.muli %last, %c64 : index
    tile.copy %V[%bh, %vl, %c0], %Vls : !gQKV to !sKV
    tile.gemm %P, %Vls, %acc_o policy <full_row> : !fP, !sKV, !fAcc

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
