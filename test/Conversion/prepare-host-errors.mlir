// RUN: tile-opt %s -split-input-file --tile-prepare-host -verify-diagnostics

// expected-error @+1 {{'func.func' op argument #0: 'tile.shape' must be an array of one string per dimension of a ranked memref}}
func.func @wrong_rank(%A: memref<?x?xf16> {tile.shape = ["M"]}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op argument #0: 'tile.shape' must be an array of one string per dimension of a ranked memref}}
func.func @not_memref(%A: i32 {tile.shape = ["M"]}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op argument #0: 'tile.shape' dimension 1 is empty (use "?" for no constraint)}}
func.func @empty(%A: memref<?x?xf16> {tile.shape = ["M", ""]}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op argument #0: 'tile.shape' dimension 0 is 32 but the type's is 16}}
func.func @static_mismatch(%A: memref<16x?xf16> {tile.shape = ["32", "K"]}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op argument #0: 'tile.shape' dimension 0 is a negative size}}
func.func @negative(%A: memref<?xf16> {tile.shape = ["-4"]}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op argument #0: 'tile.shape' dimension 0 has a bound that is not a non-negative decimal number}}
func.func @bad_bound(%A: memref<?xf16> {tile.shape = ["N<=many"]}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op argument #0: 'tile.shape' dimension 0 has a bound that is not a non-negative decimal number}}
func.func @negative_bound(%A: memref<?xf16> {tile.shape = ["N<=-1"]}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op argument #0: 'tile.shape' dimension 1 has a bound but no name (write "N<=4096")}}
func.func @unnamed_bound(%A: memref<?x?xf16> {tile.shape = ["M", "<=64"]}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op argument #0: 'tile.shape' dimension 0 is not a name, a size, "?", "NAME<=BOUND", "FACTOR*NAME" or "[FACTOR*]ceil(NAME/DIVISOR)"}}
func.func @other_comparison(%A: memref<?xf16> {tile.shape = ["N>=4"]}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op argument #0: 'tile.shape' dimension 0 is at most 64 but the type's is 128}}
func.func @static_over_bound(%A: memref<128xf16> {tile.shape = ["N<=64"]}) {
  return
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k_module {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  // expected-error @+1 {{'func.func' op launches kernels from more than one block}}
  func.func @blocks(%c: i1) {
    %c1 = arith.constant 1 : index
    cf.cond_br %c, ^a, ^b
  ^a:
    gpu.launch_func @k_module::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  ^b:
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k_module {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @async() {
    %c1 = arith.constant 1 : index
    %t = gpu.wait async
    // expected-error @+1 {{'gpu.launch_func' op is asynchronous; tile-prepare-host launches on the tile runtime's stream itself (use runtime=false to keep it)}}
    %t2 = gpu.launch_func async [%t] @k_module::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.wait [%t2]
    return
  }
}

// -----

// The checks change the argument types of a host function that launches
// kernels: a use other than a call cannot follow.
module attributes {gpu.container_module} {
  gpu.module @k_module {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @host(%A: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k_module::@k blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1)
    return
  }
  func.func @user() {
    // expected-error @+1 {{'func.constant' op uses host function 'host' other than by func.call; tile-prepare-host changes its memref argument types to check them}}
    %f = func.constant @host : (memref<8xf32>) -> ()
    return
  }
}

// -----

// A derived size divides a name of the function's dimensions by a positive
// number.
// expected-error @+1 {{'func.func' op argument #1: 'tile.shape' dimension 1 is derived from 'KK', which names no dimension of the function's arguments}}
func.func @unknown_quotient(%A: memref<?x?xf16> {tile.shape = ["M", "K"]},
                            %S: memref<?x?xf32> {tile.shape = ["M", "ceil(KK/128)"]}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op argument #0: 'tile.shape' dimension 0 is not "FACTOR*NAME" with a name}}
func.func @product_no_name(%S: memref<?xf32> {tile.shape = ["4*H/2"]}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op argument #0: 'tile.shape' dimension 0 is derived from 'H', which names no dimension of the function's arguments}}
func.func @product_unknown(%S: memref<?xf32> {tile.shape = ["4*H"]}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op argument #0: 'tile.shape' dimension 0 is not "ceil(NAME/DIVISOR)" with a positive divisor}}
func.func @zero_divisor(%S: memref<?xf32> {tile.shape = ["ceil(K/0)"]}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op argument #0: 'tile.shape' dimension 0 is not "FACTOR*NAME" or "FACTOR*ceil(NAME/DIVISOR)" with a positive factor}}
func.func @zero_factor(%S: memref<?xf32> {tile.shape = ["0*ceil(K/4)"]}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op argument #0: 'tile.shape' dimension 0 is not "ceil(NAME/DIVISOR)" with a positive divisor}}
func.func @no_divisor(%S: memref<?xf32> {tile.shape = ["ceil(K)"]}) {
  return
}
