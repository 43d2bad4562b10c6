// FlashAttention forward (non-causal), written at tile granularity.
//
//   Q, K, V, O: [B*H, S, D] f16 in global memory (batch and heads flattened
//   into the leading dimension), D = 128. O = softmax(Q K^T / sqrt(D)) V.
//
// Each thread block computes BM = 128 query rows of one (batch, head) pair:
// the grid is (ceil(S / BM), B*H). The block keeps its Q tile in shared
// memory and walks over the keys BN = 64 at a time, in a loop marked for a
// 2-stage software pipeline (the K and V copies of step k+1 overlap the math
// of step k). The softmax is computed online: every row keeps a running
// maximum m and a running sum l of exponentials, and the output accumulator
// is rescaled whenever the maximum grows, so the [S, S] score matrix never
// exists in memory.
//
// Exponentials use base 2: exp(x / sqrt(D)) = exp2(x * log2(e) / sqrt(D)),
// so the softmax scale and the change of base fold into one constant,
// qk_scale = log2(e) / sqrt(128) = 0.12751743082459868.
//
// 256 threads (8 warps). The gemms use the `full_row` warp policy: each warp
// owns whole rows (16 of the 128) of the score and output tiles, which keeps
// the row reductions of the softmax inside a warp. tile-check-resources
// estimates 115 registers per thread for the register tiles and 64 KiB of
// shared memory as written: Q (32 KiB), K and V (16 KiB each). The 2-stage
// pipeline will double-buffer K and V, for 96 KiB in all.
//
// On sm_90a the K and V copies become tensor copies (TMA) when the tensors
// allow them, and the compiler gives them a producer warpgroup issuing them
// while the kernel's two warpgroups compute (384 threads launched;
// tile-warp-specialize's default, docs/design.md 5.5; the kernel opts out
// with `tile.warp_specialize = false`). Other chips and the fall-back
// kernel have no producer warpgroup.
//
// On sm_90a, whose MMAs run asynchronously, the compiler also rotates the
// key loop by one block (tile-rotate-loops, FlashAttention-3's overlap):
// iteration kb issues Q K^T of block kb and P V of block kb - 1 together
// and computes block kb's softmax while P V runs, with block 0's scores
// before the loop and the last P V after it (two more 16 KiB tiles for
// their keys and values). `tile.rotate = false` on the loop keeps it as
// written.
//
// Sequence lengths need not be multiples of the block sizes: copies read
// zeros past the end of S and drop writes past it, and keys past the end are
// masked to -inf before the softmax so they get probability 0.

// Global tensors [B*H, S, D].
!gQKV = memref<?x?x128xf16>
// Shared tiles: Q [BM, D], K and V [BN, D].
!sQ = memref<128x128xf16, #gpu.address_space<workgroup>>
!sKV = memref<64x128xf16, #gpu.address_space<workgroup>>
// Register fragments spread over the block.
!fAcc = memref<128x128xf32, #tile.mem<fragment>> // acc_o  [BM, D]
!fS = memref<128x64xf32, #tile.mem<fragment>>    // scores [BM, BN]
!fP = memref<128x64xf16, #tile.mem<fragment>>    // P      [BM, BN]
!fRow = memref<128xf32, #tile.mem<fragment>>     // per-row statistics [BM]

// The host function. `tile.shape` names the dimensions: all four tensors
// are [BH, S, 128]; a call whose tensors disagree is reported to the caller
// through the tile runtime before anything is launched.
func.func @flash_attention_fwd(%Q: !gQKV {tile.shape = ["BH", "S", "128"]},
                               %K: !gQKV {tile.shape = ["BH", "S", "128"]},
                               %V: !gQKV {tile.shape = ["BH", "S", "128"]},
                               %O: !gQKV {tile.shape = ["BH", "S", "128"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index   // BN
  %c128 = arith.constant 128 : index // BM
  %BH = memref.dim %Q, %c0 : !gQKV
  %S = memref.dim %Q, %c1 : !gQKV
  %num_q_blocks = arith.ceildivui %S, %c128 : index
  %num_kv_blocks = arith.ceildivui %S, %c64 : index

  tile.kernel @flash_attention_fwd_kernel blocks(%bx, %bh)
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

    // Empty softmax state: no keys seen yet.
    tile.fill %acc_o, %zero : !fAcc
    tile.fill %l, %zero : !fRow
    tile.fill %m_new, %neg_inf : !fRow

    scf.for %kb = %c0 to %num_kv_blocks step %c1 {
      // 1. Stage the next BN keys and values in shared memory.
      %k0 = arith.muli %kb, %c64 : index
      tile.copy %K[%bh, %k0, %c0], %Ks : !gQKV to !sKV
      tile.copy %V[%bh, %k0, %c0], %Vs : !gQKV to !sKV

      // 2. scores = Q K^T (K is stored [BN, D], hence transpose_b).
      tile.gemm %Qs, %Ks, %scores transpose_b clear_accum policy <full_row>
          : !sQ, !sKV, !fS

      // 3. Keys past the end of the sequence were read as zeros: mask them
      //    to -inf so that they get probability 0. Only the last block can
      //    reach past S (k0 + BN > S); the others skip the mask. (The
      //    causal kernel masks keys k0 + j > q0 + i instead.)
      %k_end = arith.addi %k0, %c64 : index
      %past_end = arith.cmpi ugt, %k_end, %S : index
      scf.if %past_end {
        tile.parallel (%i, %j) in [128, 64] {
          %key = arith.addi %k0, %j : index
          %in_bounds = arith.cmpi ult, %key, %S : index
          %s = memref.load %scores[%i, %j] : !fS
          %masked = arith.select %in_bounds, %s, %neg_inf : f32
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
      tile.parallel (%i, %j) in [128, 64] {
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
