// onepass/ladder/reduce/common.cuh — what every variant of the reduce teaching ladder shares.
//
// A variant is a struct with
//   static constexpr const char* id;         // the registry name, e.g. "atomic_shared"
//   static constexpr const char* summary;    // one line for --list and the docs
//   static constexpr bool commutative_only;  // true: combines items out of element order
//                                            // (or in timing order), so op must be commutative
//   static constexpr bool deterministic;     // true: the same bits every run (floats too)
//   template <class T, class Op = plus> static std::size_t workspace_bytes(index_t n);
//   template <class T, class Op>
//   static void run_unchecked(const T* in, index_t n, T* out, T init, Op op, workspace ws,
//                             cudaStream_t stream);
// and is called through onepass::ladder::run_reduce<Variant>(...), which checks the
// arguments and the workspace first, and refuses a non-commutative op (see
// onepass::is_commutative) where the variant needs a commutative one.
//
// Semantics are those of onepass::reduce: *out = init op in[0] op ... op in[n-1]; n == 0
// gives init; `out` is one item of device memory. Variants are workspace-style: they
// never allocate.
#pragma once

#include <string>

#include "onepass/block/block_reduce.cuh"
#include "onepass/detail/launch.cuh"
#include "onepass/detail/maybe.cuh"
#include "onepass/device/dispatch_reduce.cuh"
#include "onepass/functional.cuh"
#include "onepass/ladder/common.cuh"

namespace onepass::ladder {

template <class Variant, class T, class Op>
void run_reduce(const T* in, index_t n, T* out, T init, Op op, workspace ws, cudaStream_t stream) {
  onepass::detail::check_reduce_args(in, n, out);
  if (Variant::commutative_only && !is_commutative_v<Op>)
    throw invalid_argument("op", std::string("is not known to be commutative, which the ") + Variant::id +
                                     " variant needs (it combines in whatever order the atomics run; "
                                     "specialise onepass::is_commutative for a commutative functor)");
  onepass::detail::check_workspace(ws, Variant::template workspace_bytes<T, Op>(n));
  onepass::detail::check_reduce_memory(in, n, out);
  Variant::run_unchecked(in, n, out, init, op, ws, stream);
}

namespace detail {
#if defined(__CUDACC__)
// *out = init: the starting value the atomic rungs combine into.
template <class T>
__global__ void store_one(T* out, T value) {
  *out = value;
}

// The atomic rungs' launch: *out = init first (their kernels combine into it), then
// kernel(in, n, out, op) on ceil(n / Threads) blocks, at most max_blocks (the kernels
// loop over the rest).
template <int Threads, class T, class Op>
void launch_combining_into_out(void (*kernel)(const T*, index_t, T*, Op), const T* in, index_t n, T* out, T init,
                               Op op, index_t max_blocks, cudaStream_t stream) {
  onepass::detail::launch(store_one<T>, 1, 1, 0, stream, out, init);
  if (n == 0) return;
  const index_t blocks = (n + Threads - 1) / Threads;
  onepass::detail::launch(kernel, dim3(static_cast<unsigned>(blocks < max_blocks ? blocks : max_blocks)), Threads, 0,
                          stream, in, n, out, op);
}

// The block's value over items [begin, end): thread t folds items begin + t, + Threads,
// ... (coalesced loads, so the order is thread-major: a commutative op is needed), then
// onepass::block_reduce combines the threads. Every thread gets the value; `valid` is
// false for an empty range.
template <int Threads, class T, class Op>
__device__ onepass::detail::maybe<T> block_reduce_range(const T* in, index_t begin, index_t end, Op op) {
  using onepass::detail::maybe;
  const onepass::detail::maybe_op<Op> mop{op};
  maybe<T> mine = onepass::detail::nothing<T>();
  for (index_t i = begin + threadIdx.x; i < end; i += Threads) mine = mop(mine, {in[i], true});
  using reduce_t = block_reduce<maybe<T>, Threads>;
  __shared__ typename reduce_t::storage storage;
  return reduce_t(storage).reduce(mine, mop);
}
#endif
}  // namespace detail

}  // namespace onepass::ladder
