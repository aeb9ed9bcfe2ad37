// onepass/ladder/cub_operator.cuh — onepass's operators as CUB's peers must receive them.
#pragma once

#include <cuda/functional>
#include <cuda/std/functional>
#include <limits>

#include "onepass/detail/config.cuh"
#include "onepass/functional.cuh"

namespace onepass::ladder {
namespace detail {
// CUB chooses its tuned policies (tile shape, lookback delay) only when the operator is
// one of CCCL's own functors; with any other functor, onepass::plus included, it falls
// back to a generic policy (docs/perf/scan.md has the measured difference). The peer
// must run as fast as a CUB user's InclusiveSum does, so onepass's operators are handed
// to CUB as their CCCL twins (the scan and reduce peers alike), which compute the same thing.
template <class Op>
struct cub_operator {
  static Op from(Op op) { return op; }
};
template <>
struct cub_operator<plus> {
  static ::cuda::std::plus<> from(plus) { return {}; }
};
template <>
struct cub_operator<maximum> {
  static ::cuda::maximum<> from(maximum) { return {}; }
};
template <>
struct cub_operator<minimum> {
  static ::cuda::minimum<> from(minimum) { return {}; }
};

// Calls f with n as an int when it fits, as a CUB user would pass it (CUB then uses
// 32-bit offsets), else as a 64-bit count.
template <class F>
void with_cub_count(index_t n, F&& f) {
  if (n <= std::numeric_limits<int>::max()) {
    f(static_cast<int>(n));
  } else {
    f(n);
  }
}
}  // namespace detail

}  // namespace onepass::ladder
