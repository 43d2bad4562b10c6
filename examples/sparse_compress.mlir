// 2:4 compression on the GPU: a dense M x K matrix A whose every group of
// four consecutive K elements of a row holds at most two non-zeros becomes
// the operands of examples/gemm_sparse.mlir:
//
//   Ac: M x 2 ceil(K/4), each group's two kept values in order;
//   E:  M x ceil(K/16) of i16, word j of a row holding groups 4j .. 4j + 3,
//       a nibble each, idx0 | idx1 << 2 (idx0 < idx1 the kept positions);
//   V:  M x ceil(K/128) of i32, per row and 128 columns of A, the groups
//       with more than two non-zeros (0 everywhere for a 2:4 matrix).
//
// A group with fewer than two non-zeros keeps zeros to make up two (its
// positions still increase); a group with more keeps its first two and is
// counted in V, so a matrix that is not 2:4 is reported, never compressed
// silently wrong (the host sums V). Elements past K read as zero.
//
// Each block takes 64 rows and 128 columns of A: the 64 kept values and 8
// words of each row, built in registers (tile.parallel over the values, and
// over the 32 groups of a row as 8 words x 4 nibbles, summed into words by
// tile.reduce), then copied out (tile.copy drops what lies past the edges).
// The loads of A are clamped into the matrix and the clamped-out elements
// replaced by zero, so any M, K and view is safe.

!gA = memref<?x?xf16>
!gAc = memref<?x?xf16>
!gE = memref<?x?xi16>
!gV = memref<?x?xi32>
!gCol = memref<?xi32, strided<[?], offset: ?>>
!fVal = memref<64x64xf16, #tile.mem<fragment>>
!fNib = memref<64x8x4xf32, #tile.mem<fragment>>
!fWordF = memref<64x8xf32, #tile.mem<fragment>>
!fWord = memref<64x8xi16, #tile.mem<fragment>>
!fRowF = memref<64xf32, #tile.mem<fragment>>
!fRow = memref<64xi32, #tile.mem<fragment>>

func.func @compress_2to4(%A: !gA {tile.shape = ["M", "K"]},
                         %Ac: !gAc {tile.shape = ["M", "2*ceil(K/4)"]},
                         %E: !gE {tile.shape = ["M", "ceil(K/16)"]},
                         %V: !gV {tile.shape = ["M", "ceil(K/128)"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %BM = arith.constant 64 : index
  %BK = arith.constant 128 : index
  %M = memref.dim %A, %c0 : !gA
  %K = memref.dim %A, %c1 : !gA
  %gx = arith.ceildivui %K, %BK : index
  %gy = arith.ceildivui %M, %BM : index
  tile.kernel @compress_2to4_kernel blocks(%bx, %by) in [%gx, %gy]
      threads(256) {
    %vals = tile.alloc : !fVal
    %nib = tile.alloc : !fNib
    %bad = tile.alloc : !fNib
    %wordf = tile.alloc : !fWordF
    %word = tile.alloc : !fWord
    %badw = tile.alloc : !fWordF
    %badr = tile.alloc : !fRowF
    %badi = tile.alloc : !fRow
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %c8 = arith.constant 8 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %i2 = arith.constant 2 : i32
    %i3 = arith.constant 3 : i32
    %i4 = arith.constant 4 : i32
    %zf = arith.constant 0.0 : f16
    %Ml = arith.subi %M, %c1 : index
    %Kl = arith.subi %K, %c1 : index
    %m0 = arith.muli %by, %BM : index
    %k0 = arith.muli %bx, %BK : index
    // Value j of a row: the (j mod 2)-th kept value of group j / 2.
    tile.parallel (%i, %j) in [64, 64] {
      %r = arith.addi %m0, %i : index
      %rin = arith.cmpi ult, %r, %M : index
      %rc = arith.minui %r, %Ml : index
      %g = arith.divui %j, %c2 : index
      %s = arith.remui %j, %c2 : index
      %g4 = arith.muli %g, %c4 : index
      %cb = arith.addi %k0, %g4 : index
      %col0 = arith.addi %cb, %c0 : index
      %in0 = arith.cmpi ult, %col0, %K : index
      %cc0 = arith.minui %col0, %Kl : index
      %v0 = memref.load %A[%rc, %cc0] : !gA
      %ok0 = arith.andi %rin, %in0 : i1
      %x0 = arith.select %ok0, %v0, %zf : f16
      %col1 = arith.addi %cb, %c1 : index
      %in1 = arith.cmpi ult, %col1, %K : index
      %cc1 = arith.minui %col1, %Kl : index
      %v1 = memref.load %A[%rc, %cc1] : !gA
      %ok1 = arith.andi %rin, %in1 : i1
      %x1 = arith.select %ok1, %v1, %zf : f16
      %col2 = arith.addi %cb, %c2 : index
      %in2 = arith.cmpi ult, %col2, %K : index
      %cc2 = arith.minui %col2, %Kl : index
      %v2 = memref.load %A[%rc, %cc2] : !gA
      %ok2 = arith.andi %rin, %in2 : i1
      %x2 = arith.select %ok2, %v2, %zf : f16
      %col3 = arith.addi %cb, %c3 : index
      %in3 = arith.cmpi ult, %col3, %K : index
      %cc3 = arith.minui %col3, %Kl : index
      %v3 = memref.load %A[%rc, %cc3] : !gA
      %ok3 = arith.andi %rin, %in3 : i1
      %x3 = arith.select %ok3, %v3, %zf : f16
      %n0 = arith.cmpf une, %x0, %zf : f16
      %n1 = arith.cmpf une, %x1, %zf : f16
      %n2 = arith.cmpf une, %x2, %zf : f16
      %n3 = arith.cmpf une, %x3, %zf : f16
      // The first non-zero (4: none) and the next one after it (4: none).
      %f3 = arith.select %n3, %i3, %i4 : i32
      %f2 = arith.select %n2, %i2, %f3 : i32
      %f1 = arith.select %n1, %i1, %f2 : i32
      %first = arith.select %n0, %i0, %f1 : i32
      %after3 = arith.cmpi ult, %first, %i3 : i32
      %a3 = arith.andi %n3, %after3 : i1
      %after2 = arith.cmpi ult, %first, %i2 : i32
      %a2 = arith.andi %n2, %after2 : i1
      %after1 = arith.cmpi ult, %first, %i1 : i32
      %a1 = arith.andi %n1, %after1 : i1
      %s3 = arith.select %a3, %i3, %i4 : i32
      %s2 = arith.select %a2, %i2, %s3 : i32
      %second = arith.select %a1, %i1, %s2 : i32
      // Fewer than two non-zeros: zero positions fill in, idx0 < idx1.
      %none = arith.cmpi eq, %first, %i4 : i32
      %lone = arith.cmpi eq, %second, %i4 : i32
      %last = arith.cmpi eq, %first, %i3 : i32
      %lonelast = arith.andi %lone, %last : i1
      %p0 = arith.select %lonelast, %i2, %first : i32
      %idx0 = arith.select %none, %i0, %p0 : i32
      %p1 = arith.select %lone, %i3, %second : i32
      %idx1 = arith.select %none, %i1, %p1 : i32
      %odd = arith.cmpi ne, %s, %c0 : index
      %idx = arith.select %odd, %idx1, %idx0 : i32
      %is0 = arith.cmpi eq, %idx, %i0 : i32
      %is1 = arith.cmpi eq, %idx, %i1 : i32
      %is2 = arith.cmpi eq, %idx, %i2 : i32
      %y2 = arith.select %is2, %x2, %x3 : f16
      %y1 = arith.select %is1, %x1, %y2 : f16
      %y = arith.select %is0, %x0, %y1 : f16
      memref.store %y, %vals[%i, %j] : !fVal
    }
    // Group c of word w of a row: its nibble, shifted into place (exact in
    // f32: the words are sums of disjoint nibbles), and whether it holds
    // more than two non-zeros.
    tile.parallel (%i, %w, %c) in [64, 8, 4] {
      %r = arith.addi %m0, %i : index
      %rin = arith.cmpi ult, %r, %M : index
      %rc = arith.minui %r, %Ml : index
      %w16 = arith.muli %w, %c16 : index
      %c4c = arith.muli %c, %c4 : index
      %wc = arith.addi %w16, %c4c : index
      %cb = arith.addi %k0, %wc : index
      %col0 = arith.addi %cb, %c0 : index
      %in0 = arith.cmpi ult, %col0, %K : index
      %cc0 = arith.minui %col0, %Kl : index
      %v0 = memref.load %A[%rc, %cc0] : !gA
      %ok0 = arith.andi %rin, %in0 : i1
      %x0 = arith.select %ok0, %v0, %zf : f16
      %col1 = arith.addi %cb, %c1 : index
      %in1 = arith.cmpi ult, %col1, %K : index
      %cc1 = arith.minui %col1, %Kl : index
      %v1 = memref.load %A[%rc, %cc1] : !gA
      %ok1 = arith.andi %rin, %in1 : i1
      %x1 = arith.select %ok1, %v1, %zf : f16
      %col2 = arith.addi %cb, %c2 : index
      %in2 = arith.cmpi ult, %col2, %K : index
      %cc2 = arith.minui %col2, %Kl : index
      %v2 = memref.load %A[%rc, %cc2] : !gA
      %ok2 = arith.andi %rin, %in2 : i1
      %x2 = arith.select %ok2, %v2, %zf : f16
      %col3 = arith.addi %cb, %c3 : index
      %in3 = arith.cmpi ult, %col3, %K : index
      %cc3 = arith.minui %col3, %Kl : index
      %v3 = memref.load %A[%rc, %cc3] : !gA
      %ok3 = arith.andi %rin, %in3 : i1
      %x3 = arith.select %ok3, %v3, %zf : f16
      %n0 = arith.cmpf une, %x0, %zf : f16
      %n1 = arith.cmpf une, %x1, %zf : f16
      %n2 = arith.cmpf une, %x2, %zf : f16
      %n3 = arith.cmpf une, %x3, %zf : f16
      // The first non-zero (4: none) and the next one after it (4: none).
      %f3 = arith.select %n3, %i3, %i4 : i32
      %f2 = arith.select %n2, %i2, %f3 : i32
      %f1 = arith.select %n1, %i1, %f2 : i32
      %first = arith.select %n0, %i0, %f1 : i32
      %after3 = arith.cmpi ult, %first, %i3 : i32
      %a3 = arith.andi %n3, %after3 : i1
      %after2 = arith.cmpi ult, %first, %i2 : i32
      %a2 = arith.andi %n2, %after2 : i1
      %after1 = arith.cmpi ult, %first, %i1 : i32
      %a1 = arith.andi %n1, %after1 : i1
      %s3 = arith.select %a3, %i3, %i4 : i32
      %s2 = arith.select %a2, %i2, %s3 : i32
      %second = arith.select %a1, %i1, %s2 : i32
      // Fewer than two non-zeros: zero positions fill in, idx0 < idx1.
      %none = arith.cmpi eq, %first, %i4 : i32
      %lone = arith.cmpi eq, %second, %i4 : i32
      %last = arith.cmpi eq, %first, %i3 : i32
      %lonelast = arith.andi %lone, %last : i1
      %p0 = arith.select %lonelast, %i2, %first : i32
      %idx0 = arith.select %none, %i0, %p0 : i32
      %p1 = arith.select %lone, %i3, %second : i32
      %idx1 = arith.select %none, %i1, %p1 : i32
      %hi = arith.shli %idx1, %i2 : i32
      %nibble = arith.ori %idx0, %hi : i32
      %ci = arith.index_cast %c4c : index to i32
      %shifted = arith.shli %nibble, %ci : i32
      %nf = arith.uitofp %shifted : i32 to f32
      memref.store %nf, %nib[%i, %w, %c] : !fNib
      %u0 = arith.extui %n0 : i1 to i32
      %u1 = arith.extui %n1 : i1 to i32
      %u2 = arith.extui %n2 : i1 to i32
      %u3 = arith.extui %n3 : i1 to i32
      %t01 = arith.addi %u0, %u1 : i32
      %t23 = arith.addi %u2, %u3 : i32
      %count = arith.addi %t01, %t23 : i32
      %over = arith.cmpi ugt, %count, %i2 : i32
      %one = arith.constant 1.0 : f32
      %none0 = arith.constant 0.0 : f32
      %b = arith.select %over, %one, %none0 : f32
      memref.store %b, %bad[%i, %w, %c] : !fNib
    }
    tile.reduce <sum> %nib, %wordf dim 2 clear : !fNib to !fWordF
    tile.reduce <sum> %bad, %badw dim 2 clear : !fNib to !fWordF
    tile.reduce <sum> %badw, %badr dim 1 clear : !fWordF to !fRowF
    tile.parallel (%i, %w) in [64, 8] {
      %f = memref.load %wordf[%i, %w] : !fWordF
      %u = arith.fptoui %f : f32 to i32
      %h = arith.trunci %u : i32 to i16
      memref.store %h, %word[%i, %w] : !fWord
    }
    tile.parallel (%i) in [64] {
      %f = memref.load %badr[%i] : !fRowF
      %n = arith.fptoui %f : f32 to i32
      memref.store %n, %badi[%i] : !fRow
    }
    %a0 = arith.muli %bx, %c64 : index
    %e0 = arith.muli %bx, %c8 : index
    tile.copy %vals, %Ac[%m0, %a0] : !fVal to !gAc
    tile.copy %word, %E[%m0, %e0] : !fWord to !gE
    %col = memref.subview %V[0, %bx] [%M, 1] [1, 1] : !gV to !gCol
    tile.copy %badi, %col[%m0] : !fRow to !gCol
  }
  return
}
