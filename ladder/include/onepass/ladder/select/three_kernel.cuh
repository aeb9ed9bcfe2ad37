// onepass/ladder/select/three_kernel.cuh — id "three_kernel": the textbook stream
// compaction in three steps: flag, scan, scatter.
//
//   1. a kernel writes flags[i] = 1 where item i is kept, else 0 (64-bit, so the offsets
//      of step 2 cannot overflow);
//   2. the library's own exclusive scan (onepass::exclusive_scan, in place) turns the flags
//      into offsets: offsets[i] = the number of kept items before i;
//   3. a kernel decides again whether item i is kept (recomputing is cheaper than keeping
//      the flags: the scan overwrote them) and writes it to out[offsets[i]], or, for a
//      partition, to out_rejected[i - offsets[i]] (the rejected items before i). The thread
//      of the last item writes the count, offsets[n-1] + its own flag.
// Every item is read twice (unique also reads the item before, mostly from cache), and
// each item's 8-byte flag crosses device memory four times (written, read and rewritten
// by the scan, read): against one read of each item and one write of each kept item for
// the single pass, a fraction of the bandwidth, plus the launches of the scan.
//
// Not in place: in step 3 the threads write out[offsets[i]] in whatever order the blocks
// run, so with out == in a kept item can land on in[j] before the thread of item j has
// read it (and unique reads in[i - 1] as well). run_select refuses out == in for it.
#pragma once

#include <climits>

#include "onepass/ladder/select/common.cuh"
#include "onepass/scan.cuh"

namespace onepass::ladder {
namespace detail {
constexpr int three_kernel_threads = 256;

// One thread per item; past 2^31 - 1 blocks the kernels loop over the rest.
inline unsigned three_kernel_blocks(index_t n) {
  const index_t blocks = (n + three_kernel_threads - 1) / three_kernel_threads;
  return static_cast<unsigned>(blocks < INT_MAX ? blocks : INT_MAX);
}

// Whether item i (whose value is `item`) is kept.
template <class Job>
__device__ ONEPASS_FORCEINLINE bool three_kernel_keeps(const Job& job, const typename Job::value_type& item,
                                                       index_t i) {
  if constexpr (Job::needs_previous) {
    return job.keep(item, i, i > 0 ? job.in[i - 1] : item);
  } else {
    return job.keep(item, i, item);
  }
}

template <class Job>
__global__ void __launch_bounds__(three_kernel_threads) three_kernel_flags(Job job, index_t n, index_t* flags) {
  const index_t stride = static_cast<index_t>(gridDim.x) * three_kernel_threads;
  for (index_t i = static_cast<index_t>(blockIdx.x) * three_kernel_threads + threadIdx.x; i < n; i += stride)
    flags[i] = three_kernel_keeps(job, job.in[i], i) ? 1 : 0;
}

template <class Job>
__global__ void __launch_bounds__(three_kernel_threads)
    three_kernel_scatter(Job job, index_t n, const index_t* offsets, typename Job::value_type* out,
                         typename Job::value_type* out_rejected, index_t* count_out) {
  const index_t stride = static_cast<index_t>(gridDim.x) * three_kernel_threads;
  for (index_t i = static_cast<index_t>(blockIdx.x) * three_kernel_threads + threadIdx.x; i < n; i += stride) {
    const auto item = job.in[i];
    const bool keep = three_kernel_keeps(job, item, i);
    const index_t before = offsets[i];  // kept items before i
    if (keep) {
      out[before] = item;
    } else if (out_rejected != nullptr) {
      out_rejected[i - before] = item;
    }
    if (i == n - 1) *count_out = before + (keep ? 1 : 0);
  }
}
}  // namespace detail

struct three_kernel {
  static constexpr const char* id = "three_kernel";
  static constexpr const char* summary = "flags, the library's exclusive scan of them, then a scatter (three steps)";
  static constexpr bool in_place = false;
  static constexpr bool index_predicates = true;

  // Workspace: [flags, then offsets: n index_t][the scan's workspace], 16-byte aligned.
  static std::size_t offsets_bytes(index_t n) {
    return detail::round_up_16(static_cast<std::size_t>(n) * sizeof(index_t));
  }
  template <class T, class Pred = no_predicate>
  static std::size_t workspace_bytes(index_t n) {
    return n == 0 ? 0 : offsets_bytes(n) + onepass::scan_workspace_bytes<index_t>(n);
  }

  template <class Job>
  static void run_unchecked(const Job& job, index_t n, typename Job::value_type* out,
                            typename Job::value_type* out_rejected, index_t* count_out, workspace ws,
                            cudaStream_t stream) {
    if (n == 0) {
      ONEPASS_CUDA_TRY(cudaMemsetAsync(count_out, 0, sizeof(index_t), stream));
      return;
    }
    auto* offsets = static_cast<index_t*>(ws.data);
    const workspace scan_ws{static_cast<unsigned char*>(ws.data) + offsets_bytes(n), ws.bytes - offsets_bytes(n)};
    const unsigned blocks = detail::three_kernel_blocks(n);
    onepass::detail::launch(detail::three_kernel_flags<Job>, blocks, detail::three_kernel_threads, 0, stream, job, n,
                            offsets);
    onepass::exclusive_scan(offsets, n, offsets, index_t{0}, plus{}, scan_ws, stream);
    onepass::detail::launch(detail::three_kernel_scatter<Job>, blocks, detail::three_kernel_threads, 0, stream, job,
                            n, static_cast<const index_t*>(offsets), out, out_rejected, count_out);
  }
};

}  // namespace onepass::ladder
