// onepass/ladder/select/cub.cuh — cub::DeviceSelect::If and ::Unique and
// cub::DevicePartition::If from the CUDA toolkit, the peer, id "cub".
//
// A partition is CUB's three-way partition with a second predicate that never holds: the
// rejected items go to its "unselected" output in input order, which is onepass's
// partition. (CUB's two-way DevicePartition::If writes the rejected items reversed, after
// the selected ones in the same array. The three-way call's documentation says "reverse
// order" too, but its code and its own example write input order; the ladder test checks
// it.) Its count is two numbers, kept in the workspace; the first is copied to count_out
// on the stream.
//
// CUB calls a selection functor with the item alone: predicates that read the index are
// refused (index_predicates = false), and so is out == in (CUB's in-place select is
// another call, with another contract).
#pragma once

#include <cub/device/device_partition.cuh>
#include <cub/device/device_select.cuh>

#include <algorithm>
#include <type_traits>

#include "onepass/ladder/cub_operator.cuh"
#include "onepass/ladder/select/common.cuh"

namespace onepass::ladder {
namespace detail {
// The three-way partition's second predicate.
struct selects_nothing {
  template <class T>
  ONEPASS_HD bool operator()(const T& /*item*/) const {
    return false;
  }
};

// Calls f with a functor of type Pred for a size query (CUB never calls it then), so the
// query and the run instantiate the same CUB code; a Pred that cannot be made without a
// value (a lambda with captures) or that CUB cannot call is replaced by selects_nothing
// (the sizes depend on the item type and n only).
template <class T, class Pred, class F>
void with_query_predicate(F&& f) {
  if constexpr (std::is_default_constructible_v<Pred> && std::is_invocable_v<const Pred&, const T&> &&
                !std::is_invocable_v<const Pred&, const T&, index_t>) {
    f(Pred{});
  } else {
    f(selects_nothing{});
  }
}
}  // namespace detail

struct cub_select {
  static constexpr const char* id = "cub";
  static constexpr const char* summary =
      "cub::DeviceSelect::If / Unique, cub::DevicePartition::If three-way (CUDA toolkit), the peer";
  static constexpr bool in_place = false;
  static constexpr bool index_predicates = false;

  // Workspace: [the partition's two counts: 16 bytes][CUB's temporary storage, the
  // largest of the three calls'] (CUB aligns its own pieces within it).
  static constexpr std::size_t counts_bytes = 16;

  template <class T, class Pred = no_predicate>
  static std::size_t workspace_bytes(index_t n) {
    if (n == 0) return 0;
    const T* in = nullptr;
    T* out = nullptr;
    index_t* count = nullptr;
    std::size_t select_bytes = 0, unique_bytes = 0, partition_bytes = 0;
    ONEPASS_CUDA_TRY(cub::DeviceSelect::Unique(nullptr, unique_bytes, in, out, count, n));
    detail::with_query_predicate<T, Pred>([&](auto pred) {
      ONEPASS_CUDA_TRY(cub::DeviceSelect::If(nullptr, select_bytes, in, out, count, n, pred));
      detail::with_cub_count(n, [&](auto items) {
        ONEPASS_CUDA_TRY(cub::DevicePartition::If(nullptr, partition_bytes, in, out, out, out, count, items, pred,
                                                  detail::selects_nothing{}));
      });
    });
    return counts_bytes + std::max({select_bytes, unique_bytes, partition_bytes});
  }

  template <class T, class Pred>
  static void run_unchecked(const onepass::detail::select_if_job<T, Pred>& job, index_t n, T* out, T* out_rejected,
                            index_t* count_out, workspace ws, cudaStream_t stream) {
    if (n == 0) {
      ONEPASS_CUDA_TRY(cudaMemsetAsync(count_out, 0, sizeof(index_t), stream));
      return;
    }
    auto* counts = static_cast<index_t*>(ws.data);
    void* temp = static_cast<unsigned char*>(ws.data) + counts_bytes;
    std::size_t bytes = ws.bytes - counts_bytes;
    if (out_rejected == nullptr) {
      ONEPASS_CUDA_TRY(cub::DeviceSelect::If(temp, bytes, job.in, out, count_out, n, job.pred, stream));
      return;
    }
    // The second part's output is never written (its predicate never holds).
    detail::with_cub_count(n, [&](auto items) {
      ONEPASS_CUDA_TRY(cub::DevicePartition::If(temp, bytes, job.in, out, out_rejected, out_rejected, counts, items,
                                                job.pred, detail::selects_nothing{}, stream));
    });
    ONEPASS_CUDA_TRY(cudaMemcpyAsync(count_out, counts, sizeof(index_t), cudaMemcpyDeviceToDevice, stream));
  }

  template <class T, class Eq>
  static void run_unchecked(const onepass::detail::unique_job<T, Eq>& job, index_t n, T* out, T* /*out_rejected*/,
                            index_t* count_out, workspace ws, cudaStream_t stream) {
    static_assert(std::is_same_v<Eq, equal_to>, "cub::DeviceSelect::Unique compares with ==, as onepass::equal_to");
    if (n == 0) {
      ONEPASS_CUDA_TRY(cudaMemsetAsync(count_out, 0, sizeof(index_t), stream));
      return;
    }
    std::size_t bytes = ws.bytes - counts_bytes;
    ONEPASS_CUDA_TRY(cub::DeviceSelect::Unique(static_cast<unsigned char*>(ws.data) + counts_bytes, bytes, job.in,
                                               out, count_out, n, stream));
  }
};

}  // namespace onepass::ladder
