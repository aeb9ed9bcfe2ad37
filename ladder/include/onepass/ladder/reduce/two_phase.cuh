// onepass/ladder/reduce/two_phase.cuh — id "two_phase": partials, then one block.
//
// Kernel 1: each of up to 1024 blocks reduces one contiguous chunk of the input and writes
// its value to the workspace. Kernel 2: one block reduces those partials and writes
// init op (partials). No atomics: the order of combination depends only on n, so floats
// are reproducible. The cost over one pass is a second launch and the small partials
// array; the grid-sized chunks also read with plain 4- or 8-byte loads, not 128-bit ones.
#pragma once

#include "onepass/ladder/reduce/common.cuh"

namespace onepass::ladder {
namespace detail {
constexpr int two_phase_threads = 256;
constexpr index_t two_phase_max_blocks = 1024;

constexpr index_t two_phase_blocks(index_t n) {
  const index_t per_thread_chunks = (n + two_phase_threads - 1) / two_phase_threads;
  return per_thread_chunks < two_phase_max_blocks ? per_thread_chunks : two_phase_max_blocks;
}

template <class T, class Op>
__global__ void __launch_bounds__(two_phase_threads) two_phase_partials(const T* in, index_t n, T* partials, Op op) {
  const index_t blocks = gridDim.x, b = blockIdx.x;
  const auto v = block_reduce_range<two_phase_threads>(in, n * b / blocks, n * (b + 1) / blocks, op);
  if (threadIdx.x == 0) partials[b] = v.value;  // every chunk holds >= 1 item (blocks <= n)
}

template <class T, class Op>
__global__ void __launch_bounds__(two_phase_threads) two_phase_final(const T* partials, index_t count, T init,
                                                                    T* out, Op op) {
  const auto v = block_reduce_range<two_phase_threads>(partials, 0, count, op);
  if (threadIdx.x == 0) *out = v.valid ? op(init, v.value) : init;
}
}  // namespace detail

struct two_phase {
  static constexpr const char* id = "two_phase";
  static constexpr const char* summary = "block partials to memory, then one block reduces them (two launches)";
  static constexpr bool commutative_only = true;
  static constexpr bool deterministic = true;

  template <class T, class Op = plus>
  static std::size_t workspace_bytes(index_t n) {
    return static_cast<std::size_t>(detail::two_phase_blocks(n)) * sizeof(T);
  }

  template <class T, class Op>
  static void run_unchecked(const T* in, index_t n, T* out, T init, Op op, workspace ws, cudaStream_t stream) {
    const index_t blocks = detail::two_phase_blocks(n);
    T* partials = static_cast<T*>(ws.data);
    if (blocks > 0)
      onepass::detail::launch(detail::two_phase_partials<T, Op>, dim3(static_cast<unsigned>(blocks)),
                              detail::two_phase_threads, 0, stream, in, n, partials, op);
    onepass::detail::launch(detail::two_phase_final<T, Op>, 1, detail::two_phase_threads, 0, stream,
                            static_cast<const T*>(partials), blocks, init, out, op);
  }
};

}  // namespace onepass::ladder
