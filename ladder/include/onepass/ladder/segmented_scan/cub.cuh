// onepass/ladder/segmented_scan/cub.cuh — cub::DeviceScan::InclusiveScanByKey /
// ExclusiveScanByKey from the CUDA toolkit, the peer, id "cub". By key only: CUB has no
// head-flag or offsets form of a segmented scan.
#pragma once

#include <cub/device/device_scan.cuh>

#include <cuda/std/functional>

#include "onepass/ladder/cub_operator.cuh"
#include "onepass/ladder/segmented_scan/common.cuh"

namespace onepass::ladder {
namespace detail {
// onepass::equal_to as CUB's own default, ::cuda::std::equal_to<> (both compare with ==),
// so CUB runs as its users' calls do (see cub_operator).
template <class Eq>
struct cub_equality {
  static Eq from(Eq eq) { return eq; }
};
template <>
struct cub_equality<equal_to> {
  static ::cuda::std::equal_to<> from(equal_to) { return {}; }
};
}  // namespace detail

struct cub_scan_by_key {
  static constexpr const char* id = "cub";
  static constexpr const char* summary =
      "cub::DeviceScan::InclusiveScanByKey / ExclusiveScanByKey (CUDA toolkit), the peer; by key only";
  static constexpr bool has_flags = false, has_offsets = false, has_by_key = true, has_begin_end = false;

  // CUB's scratch depends on its tuning, which depends on the types of the call, so the
  // query makes a call of the same types (operator and equality included; sizes do not
  // depend on their values); both kinds are asked and the larger answer is used. The
  // query needs the CUDA runtime (CUB reads the device's architecture).
  template <class T, class Key = int, class Op = plus, class Eq = equal_to>
  static std::size_t workspace_bytes(index_t n) {
    if (n <= 0) return 0;
    const auto op = detail::cub_operator<Op>::from(Op{});
    const auto eq = detail::cub_equality<Eq>::from(Eq{});
    const Key* keys = nullptr;
    const T* in = nullptr;
    T* out = nullptr;
    std::size_t inclusive = 0, exclusive = 0;
    detail::with_cub_count(n, [&](auto count) {
      ONEPASS_CUDA_TRY(cub::DeviceScan::InclusiveScanByKey(nullptr, inclusive, keys, in, out, op, count, eq));
      ONEPASS_CUDA_TRY(cub::DeviceScan::ExclusiveScanByKey(nullptr, exclusive, keys, in, out, op, T{}, count, eq));
    });
    return inclusive > exclusive ? inclusive : exclusive;
  }

  template <class Key, class T, class Op, class Eq>
  static void run_by_key(const Key* keys, const T* in, index_t n, T* out, scan_kind kind, T init, Op op, Eq eq,
                         workspace ws, cudaStream_t stream) {
    detail::check_segmented_scan_values(id, no_limit, in, n, out);
    const onepass::detail::key_heads<Key, Eq> heads{keys, eq};
    onepass::detail::check_heads(heads, n, out);
    onepass::detail::check_workspace(ws, workspace_bytes<T, Key, Op, Eq>(n));
    onepass::detail::check_segmented_scan_memory(in, n, out);
    onepass::detail::check_heads_memory(heads, n);
    if (n == 0) return;
    std::size_t bytes = ws.bytes;
    const auto cub_op = detail::cub_operator<Op>::from(op);
    const auto cub_eq = detail::cub_equality<Eq>::from(eq);
    detail::with_cub_count(n, [&](auto count) {
      if (kind == scan_kind::inclusive) {
        ONEPASS_CUDA_TRY(
            cub::DeviceScan::InclusiveScanByKey(ws.data, bytes, keys, in, out, cub_op, count, cub_eq, stream));
      } else {
        ONEPASS_CUDA_TRY(cub::DeviceScan::ExclusiveScanByKey(ws.data, bytes, keys, in, out, cub_op, init, count,
                                                             cub_eq, stream));
      }
    });
  }
};

}  // namespace onepass::ladder
