// The causal FlashAttention forward of examples/flash_attention_causal.mlir
// with its key block as a parameter, for tile-tune (docs/tuner.md):
//
//   ${BN}  keys per block (64 or 128): the K and V tiles [BN, 128], the
//          score and probability fragments [128, BN]
//
// As for examples/flash_attention_tunable.mlir: 64-key blocks fit every
// target, 128-key blocks need 96 KiB of shared memory (sm_90a only).
// examples/flash_attention_tunable.space searches both. With -D BN=64 this
// compiles to the example's PTX; the module differs only in computing its
// constant BN - 1 from BN.

// Global tensors [B*H, S, D].
!gQKV = memref<?x?x128xf16>
// Shared tiles: Q [BM, D], K and V [BN, D].
!sQ = memref<128x128xf16, #gpu.address_space<workgroup>>
!sKV = memref<${BN}x128xf16, #gpu.address_space<workgroup>>
// Register fragments spread over the block.
!fAcc = memref<128x128xf32, #tile.mem<fragment>> // acc_o  [BM, D]
!fS = memref<128x${BN}xf32, #tile.mem<fragment>>    // scores [BM, BN]
!fP = memref<128x${BN}xf16, #tile.mem<fragment>>    // P      [BM, BN]
!fRow = memref<128xf32, #tile.mem<fragment>>     // per-row statistics [BM]

// The host function. `tile.shape` names the dimensions: all four tensors
// are [BH, S, 128]; a call whose tensors disagree is reported to the caller
// through the tile runtime before anything is launched.
func.func @flash_attention_causal_fwd(%Q: !gQKV {tile.shape = ["BH", "S", "128"]},
                                      %K: !gQKV {tile.shape = ["BH", "S", "128"]},
                                      %V: !gQKV {tile.shape = ["BH", "S", "128"]},
                                      %O: !gQKV {tile.shape = ["BH", "S", "128"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cBN = arith.constant ${BN} : index   // BN
  %cBNm1 = arith.subi %cBN, %c1 : index // BN - 1
  %c128 = arith.constant 128 : index // BM
  %BH = memref.dim %Q, %c0 : !gQKV
  %S = memref.dim %Q, %c1 : !gQKV
  %num_q_blocks = arith.ceildivui %S, %c128 : index
  %num_kv_blocks = arith.ceildivui %S, %cBN : index

  tile.kernel @flash_attention_causal_fwd_kernel blocks(%bx, %bh)
      in [%num_q_blocks, %BH] threads(256) {
    %zero = arith.constant 0.0 : f32
    %neg_inf = arith.constant 0xFF800000 : f32
    %qk_scale = arith.constant 0.12751743082459868 : f32

    // On-chip buffers.
    %Qs = tile.alloc : !sQ
    %Ks = tile.alloc : !sKV
    %Vs = tile.alloc : !sKV
    %acc_o = tile.alloc : !fAcc     // unnormalized output rows
    %scores = tile.alloc : !fS      // S = Q K^T, then exp2 of it
    %P = tile.alloc : !fP           // probabilities, f16 A operand of P V
    %m_prev = tile.alloc : !fRow    // row maximum before this key block
    %m_new = tile.alloc : !fRow     // row maximum including this key block
    %l = tile.alloc : !fRow         // running row sum of exponentials
    %scale = tile.alloc : !fRow     // exp2((m_prev - m_new) * qk_scale)
    %row_sum = tile.alloc : !fRow   // row sum of this block's exponentials

    // Load the block's queries once; rows past S read as zeros.
    %q0 = arith.muli %bx, %c128 : index
    tile.copy %Q[%bh, %q0, %c0], %Qs : !gQKV to !sQ

    // Causal: the key blocks up to the one holding the block's last query
    // q0 + BM - 1, and not past the end of the sequence.
    %q_end = arith.addi %q0, %c128 : index
    %diag_blocks = arith.ceildivui %q_end, %cBN : index
    %num_blocks = arith.minui %num_kv_blocks, %diag_blocks : index

    // Empty softmax state: no keys seen yet.
    tile.fill %acc_o, %zero : !fAcc
    tile.fill %l, %zero : !fRow
    tile.fill %m_new, %neg_inf : !fRow

    scf.for %kb = %c0 to %num_blocks step %c1 {
      // 1. Stage the next BN keys and values in shared memory.
      %k0 = arith.muli %kb, %cBN : index
      tile.copy %K[%bh, %k0, %c0], %Ks : !gQKV to !sKV
      tile.copy %V[%bh, %k0, %c0], %Vs : !gQKV to !sKV

      // 2. scores = Q K^T (K is stored [BN, D], hence transpose_b).
      tile.gemm %Qs, %Ks, %scores transpose_b clear_accum policy <full_row>
          : !sQ, !sKV, !fS

      // 3. On the blocks that cross the diagonal (the last key k0 + BN - 1
      //    is past the first query q0), mask the keys k > q to -inf so that
      //    they get probability 0. Blocks below the diagonal skip this.
      %k_last = arith.addi %k0, %cBNm1 : index
      %on_diagonal = arith.cmpi ugt, %k_last, %q0 : index
      scf.if %on_diagonal {
        tile.parallel (%i, %j) in [128, ${BN}] {
          %key = arith.addi %k0, %j : index
          %query = arith.addi %q0, %i : index
          %visible = arith.cmpi ule, %key, %query : index
          %s = memref.load %scores[%i, %j] : !fS
          %masked = arith.select %visible, %s, %neg_inf : f32
          memref.store %masked, %scores[%i, %j] : !fS
        }
      }

      // 4. New row maximum: m_new = max(m_prev, rowmax(scores)). The reduce
      //    has no `clear`, so it combines with the previous maximum.
      tile.copy %m_new, %m_prev : !fRow to !fRow
      tile.reduce <max> %scores, %m_new dim 1 : !fS to !fRow

      // 5. Correction factor for everything accumulated so far:
      //    scale = exp2((m_prev - m_new) * qk_scale). It is 0 on the first
      //    block (m_prev = -inf) and 1 when the maximum did not change.
      tile.parallel (%i) in [128] {
        %mp = memref.load %m_prev[%i] : !fRow
        %mn = memref.load %m_new[%i] : !fRow
        %diff = arith.subf %mp, %mn : f32
        %arg = arith.mulf %diff, %qk_scale : f32
        %s = math.exp2 %arg : f32
        memref.store %s, %scale[%i] : !fRow
      }

      // 6. Probabilities relative to the new maximum:
      //    P = exp2(scores * qk_scale - m_new * qk_scale).
      //    The f32 values stay in `scores` for an accurate row sum; the f16
      //    copy in P feeds the tensor cores.
      tile.parallel (%i, %j) in [128, ${BN}] {
        %s = memref.load %scores[%i, %j] : !fS
        %mn = memref.load %m_new[%i] : !fRow
        %s_scaled = arith.mulf %s, %qk_scale : f32
        %m_scaled = arith.mulf %mn, %qk_scale : f32
        %x = arith.subf %s_scaled, %m_scaled : f32
        %p = math.exp2 %x : f32
        memref.store %p, %scores[%i, %j] : !fS
        %p16 = arith.truncf %p : f32 to f16
        memref.store %p16, %P[%i, %j] : !fP
      }

      // 7. Running denominator: l = l * scale + rowsum(P).
      tile.reduce <sum> %scores, %row_sum dim 1 clear : !fS to !fRow
      tile.parallel (%i) in [128] {
        %li = memref.load %l[%i] : !fRow
        %si = memref.load %scale[%i] : !fRow
        %ri = memref.load %row_sum[%i] : !fRow
        %rescaled = arith.mulf %li, %si : f32
        %sum = arith.addf %rescaled, %ri : f32
        memref.store %sum, %l[%i] : !fRow
      }

      // 8. Rescale the output rows to the new maximum, then acc_o += P V.
      tile.parallel (%i, %j) in [128, 128] {
        %o = memref.load %acc_o[%i, %j] : !fAcc
        %si = memref.load %scale[%i] : !fRow
        %r = arith.mulf %o, %si : f32
        memref.store %r, %acc_o[%i, %j] : !fAcc
      }
      tile.gemm %P, %Vs, %acc_o policy <full_row> : !fP, !sKV, !fAcc
    } {tile.num_stages = 2 : i64}

    // Normalize: O = acc_o / l.
    tile.parallel (%i, %j) in [128, 128] {
      %o = memref.load %acc_o[%i, %j] : !fAcc
      %li = memref.load %l[%i] : !fRow
      %r = arith.divf %o, %li : f32
      memref.store %r, %acc_o[%i, %j] : !fAcc
    }

    // Store the f16 result; the copy converts f32 -> f16 and drops rows
    // past S.
    tile.copy %acc_o, %O[%bh, %q0, %c0] : !fAcc to !gQKV
  }
  return
}
