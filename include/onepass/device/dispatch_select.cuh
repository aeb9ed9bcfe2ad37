// onepass/device/dispatch_select.cuh — sizes the stream compaction's workspace, checks
// the arguments and launches: one memset (tile counter + descriptors) and one kernel (the
// pipelined agent, the split tile or the one-tile kernel: select_kernel_choice).
#pragma once

#include <cuda_runtime_api.h>

#include <limits>
#include <string>
#include <type_traits>

#include "onepass/agent/select.cuh"
#include "onepass/agent/select_pipeline.cuh"
#include "onepass/agent/select_split.cuh"
#include "onepass/detail/launch.cuh"
#include "onepass/tuning/select_tuning.cuh"

namespace onepass::detail {

template <class T, class Tuning = tuning::default_select_tuning<T>>
struct select_plan {
  static constexpr tuning::select_tuning tuning = Tuning::value;
  static_assert(tuning.split_tile_fits(), "tuning: the split tile must hold tile_items() items");
  static_assert(tuning.unique_items_per_thread == 0 || !tuning.split_selects,
                "tuning: unique's own shape is for rows whose selects keep the one-tile kernel");
  // The tile of a launch with this row (select_launch plans unique with for_unique()).
  static constexpr index_t tile_items = tuning.tile_items();
  // The smallest tile any call of the row launches (unique's may be smaller): the
  // workspace and the size limit count in it, so that one workspace serves all four calls.
  static constexpr index_t smallest_tile_items =
      tile_items < tuning.for_unique().tile_items() ? tile_items : tuning.for_unique().tile_items();
  // The split-tile kernel can run 4- and 8-byte items (on a 16-byte aligned input).
  static constexpr bool has_split_tile = tuning.register_rows > 0 && (sizeof(T) == 4 || sizeof(T) == 8);
  // Largest n whose tile count fits a one-dimensional grid, for every call.
  static constexpr index_t max_items = static_cast<index_t>(std::numeric_limits<int>::max()) * smallest_tile_items;

  static constexpr index_t num_tiles(index_t n) { return (n + tile_items - 1) / tile_items; }
  // Workspace layout: [tile counter, padded to 16 bytes][descriptors: 64-bit counts, one
  // per 32 bytes (select_tile_state)].
  static constexpr std::size_t counter_bytes = 16;
  // What a launch with this row uses of it (its own tile count).
  static constexpr std::size_t launch_workspace_bytes(index_t n) { return bytes_for(n, tile_items); }
  // What every call needs: as many descriptors as the smallest tile makes.
  static constexpr std::size_t workspace_bytes(index_t n) { return bytes_for(n, smallest_tile_items); }

 private:
  static constexpr std::size_t bytes_for(index_t n, index_t tile) {
    return n <= 0 ? 0 : counter_bytes + select_tile_state::bytes((n + tile - 1) / tile);
  }
};

// The row a job runs: unique's own (tuning::select_tuning::for_unique) for unique, the row
// itself for the others.
template <class Job, class Tuning>
struct select_job_tuning {
  static constexpr tuning::select_tuning value = Job::needs_previous ? Tuning::value.for_unique() : Tuning::value;
};

// Which kernel a call runs: the pipelined agent (agent/select_pipeline.cuh) where the row
// has one for this call, the input and outputs are 16-byte aligned and there are enough
// tiles for every resident block to fill its pipeline; else the split tile
// (agent/select_split.cuh) on an aligned input where the row has one for this job and the
// call allows it (a partition, or a select with split_selects); else the one-tile kernel
// (agent/select.cuh; 128-bit loads when aligned, scalar ones when not). The one decision,
// for select_launch and for the labels of the tuning sweep; host-side, tested without a
// GPU.
template <class Job, class Tuning>
struct select_kernel_choice {
  using plan = select_plan<typename Job::value_type, select_job_tuning<Job, Tuning>>;
  static constexpr tuning::select_tuning row = Tuning::value;  // the pipeline's fields
  // The same tile as the row's (for unique, at least as large as its own), so that one
  // workspace size serves every call.
  static_assert(row.pipeline_fits(), "tuning: the pipelined agent's tile must be tile_items() items");
  // Whether the pipelined agent is compiled for this job and row at all.
  static constexpr bool pipeline_compiled =
      row.pipeline_threads > 0 && (sizeof(typename Job::value_type) == 4 || sizeof(typename Job::value_type) == 8) &&
      !Job::reads_flags;
  // all_aligned: the input and every output 16-byte aligned; tiles_per_block: the call's
  // tiles over the pipelined agent's resident blocks.
  static constexpr bool pipelined(bool all_aligned, double tiles_per_block) {
    return pipeline_compiled && all_aligned && tiles_per_block >= row.pipeline_min_tiles_per_block;
  }
  // Whether the split tile is compiled for this job and row at all (a job that is never a
  // partition compiles it only when selects use it).
  static constexpr bool split_compiled =
      plan::has_split_tile && Job::split_tile && (plan::tuning.split_selects || Job::may_partition);
  static constexpr bool split_tile(bool aligned, bool partition) {
    return split_compiled && aligned && (partition || plan::tuning.split_selects);
  }
};

// Two ranges of n items share no byte (equal ranges overlap too).
template <class T>
void check_disjoint(const T* a, const T* b, long long n, const char* a_name, const char* b_name) {
  if (n == 0) return;
  const auto x = reinterpret_cast<std::uintptr_t>(a);
  const auto y = reinterpret_cast<std::uintptr_t>(b);
  const auto len = static_cast<std::uintptr_t>(n) * sizeof(T);
  if (x < y + len && y < x + len)
    throw invalid_argument(b_name, std::string("overlaps '") + a_name + "'; a partition's input and outputs " +
                                       "must not overlap");
}

// Host-side checks of the items and outputs (not count_out, not the job's own extra input).
template <class T>
void check_select_ranges(const T* in, index_t n, T* out, T* out_rejected) {
  static_assert(std::is_trivially_copyable_v<T>, "selected items must be trivially copyable");
  check_count(n);
  if (n > select_plan<T>::max_items)
    throw invalid_argument("n", "is " + std::to_string(n) + ", more than the " +
                                    std::to_string(select_plan<T>::max_items) + " items one call supports");
  check_pointer(in, n, "in");
  if (out_rejected == nullptr) {
    check_pointer(out, n, "out");
    check_no_partial_overlap(in, out, n, "in", "out");
  } else {
    check_pointer(out, n, "out_selected");
    check_pointer(out_rejected, n, "out_rejected");
    check_disjoint(in, out, n, "in", "out_selected");
    check_disjoint(in, out_rejected, n, "in", "out_rejected");
    check_disjoint(out, out_rejected, n, "out_selected", "out_rejected");
  }
}

inline void check_count_out(index_t* count_out) {
  if (count_out == nullptr) throw invalid_argument("count_out", "is null; the count is always written");
  check_pointer(count_out, 1, "count_out");
}

// Host-side checks of everything but the job's own extra input (see check_job).
template <class T>
void check_select_args(const T* in, index_t n, T* out, T* out_rejected, index_t* count_out) {
  check_select_ranges(in, n, out, out_rejected);
  check_count_out(count_out);
}

// partition's rejected side is an output like any other: null only when n == 0. (The
// dispatch reads out_rejected == nullptr as "a select", so partition checks it first.)
template <class T>
void check_partition_rejected(const T* out_rejected, index_t n) {
  check_count(n);
  check_pointer(out_rejected, n, "out_rejected");
}

// The job's extra input (select_flagged's flags), on the host and then on the device.
template <class Job>
void check_job(const Job&, index_t) {}
template <class T, class Flag>
void check_job(const select_flagged_job<T, Flag>& job, index_t n) {
  check_pointer(job.flags, n, "flags");
}
template <class Job>
void check_job_memory(const Job&, index_t) {}
template <class T, class Flag>
void check_job_memory(const select_flagged_job<T, Flag>& job, index_t n) {
  check_device_accessible(job.flags, n, "flags");
}

template <class T>
void check_select_ranges_memory(const T* in, index_t n, T* out, T* out_rejected) {
  check_device_accessible(in, n, "in");
  check_device_accessible(out, n, out_rejected == nullptr ? "out" : "out_selected");
  if (out_rejected != nullptr) check_device_accessible(out_rejected, n, "out_rejected");
}

template <class T>
void check_select_memory(const T* in, index_t n, T* out, T* out_rejected, index_t* count_out) {
  check_device_accessible(count_out, 1, "count_out");
  check_select_ranges_memory(in, n, out, out_rejected);
}

// The launch alone, for callers that have checked the arguments.
template <class Job, class Tuning = tuning::default_select_tuning<typename Job::value_type>, class Delay = no_delay>
void select_launch(const Job& job, index_t n, typename Job::value_type* out, typename Job::value_type* out_rejected,
                   index_t* count_out, const workspace& ws, cudaStream_t stream, Delay delay = {}) {
  using T = typename Job::value_type;
  using plan = select_plan<T, select_job_tuning<Job, Tuning>>;
  if (n == 0) {
    ONEPASS_CUDA_TRY(cudaMemsetAsync(count_out, 0, sizeof(index_t), stream));
    return;
  }
  constexpr int threads = plan::tuning.block_threads;
  constexpr int items = plan::tuning.items_per_thread;
  constexpr int V = vector_width<T>;
  static_assert(items % V == 0, "tuning: items_per_thread must be a multiple of the vector width");
  auto* base = static_cast<unsigned char*>(ws.data);
  lookback::tile_counter counter(base);
  select_tile_state state(base + plan::counter_bytes);
  const bool aligned = is_vector_aligned(job.in);
  const index_t tiles = plan::num_tiles(n);
  const dim3 grid(static_cast<unsigned>(tiles));
  const index_t prefetch_tiles = l2_prefetch_tiles(
      static_cast<index_t>(threads) * items * static_cast<index_t>(sizeof(T)), plan::tuning.l2_prefetch_bytes,
      plan::tuning.l2_prefetch_min_input_bytes, n * static_cast<index_t>(sizeof(T)), aligned);
  // The kernel: select_kernel_choice.
  using choice = select_kernel_choice<Job, Tuning>;
  if constexpr (choice::pipeline_compiled) {
    constexpr int p_threads = choice::row.pipeline_threads;
    constexpr int p_items = choice::row.pipeline_items;
    // A job that may partition is compiled both ways, the others as selects only.
    constexpr auto select_kernel_p = select_pipeline_kernel<Job, p_threads, p_items, false, Delay,
                                                            choice::row.pipeline_lookback_tiles_per_lane>;
    constexpr auto partition_kernel_p = select_pipeline_kernel<Job, p_threads, p_items, Job::may_partition, Delay,
                                                               choice::row.pipeline_lookback_tiles_per_lane>;
    const auto kernel = out_rejected != nullptr ? partition_kernel_p : select_kernel_p;
    using layout = select_pipeline_layout<T, p_threads, p_items>;
    const bool all_aligned = aligned && is_vector_aligned(out) &&
                             (out_rejected == nullptr || is_vector_aligned(out_rejected));
    const index_t p_tiles = layout::loads::num_tiles(n);
    const index_t resident =
        !all_aligned ? 0
        : out_rejected != nullptr ? resident_blocks<partition_kernel_p>(p_threads, layout::shared_bytes)
                                  : resident_blocks<select_kernel_p>(p_threads, layout::shared_bytes);
    if (resident > 0 && choice::pipelined(all_aligned, static_cast<double>(p_tiles) / resident)) {
      // The tile counter and this launch's descriptors (unique's one-tile row has smaller
      // tiles than the pipeline's).
      ONEPASS_CUDA_TRY(cudaMemsetAsync(base, 0, plan::counter_bytes + select_tile_state::bytes(p_tiles), stream));
      const index_t p_prefetch = l2_prefetch_tiles(layout::tile_bytes, plan::tuning.l2_prefetch_bytes,
                                                   plan::tuning.l2_prefetch_min_input_bytes,
                                                   n * static_cast<index_t>(sizeof(T)), aligned);
      const dim3 persistent(static_cast<unsigned>(p_tiles < resident ? p_tiles : resident));
      launch(kernel, persistent, p_threads, layout::shared_bytes, stream, job, n, out, out_rejected, count_out, state,
             counter, plan::tuning.lookback_backoff_ns, delay, p_prefetch);
      return;
    }
  }
  ONEPASS_CUDA_TRY(cudaMemsetAsync(base, 0, plan::launch_workspace_bytes(n), stream));
  if constexpr (choice::split_compiled) {
    if (choice::split_tile(aligned, out_rejected != nullptr)) {
      launch(select_split_kernel<Job, threads, plan::tuning.register_rows, plan::tuning.shared_items,
                                 plan::tuning.split_min_blocks_per_sm, Delay>,
             grid, threads, 0, stream, job, n, out, out_rejected, count_out, tiles, state, counter,
             plan::tuning.lookback_backoff_ns, delay, prefetch_tiles);
      return;
    }
  }
  constexpr bool vector_stores = plan::tuning.vector_stores;
  constexpr int min_blocks = plan::tuning.min_blocks_per_sm;
  if (aligned) {
    launch(select_kernel<Job, threads, items, V, Delay, vector_stores, min_blocks>, grid, threads, 0, stream, job, n, out,
           out_rejected, count_out, tiles, state, counter, plan::tuning.lookback_backoff_ns, delay, prefetch_tiles);
  } else {
    launch(select_kernel<Job, threads, items, 1, Delay, vector_stores, min_blocks>, grid, threads, 0, stream, job, n, out,
           out_rejected, count_out, tiles, state, counter, plan::tuning.lookback_backoff_ns, delay, prefetch_tiles);
  }
}

// Checks everything, then launches; ws == nullptr: the simple style (stream-ordered
// scratch allocated around the launch, after every check).
template <class Job>
void select_dispatch(const Job& job, index_t n, typename Job::value_type* out, typename Job::value_type* out_rejected,
                     index_t* count_out, const workspace* ws, cudaStream_t stream) {
  using T = typename Job::value_type;
  check_select_args(job.in, n, out, out_rejected, count_out);
  check_job(job, n);
  const std::size_t bytes = select_plan<T>::workspace_bytes(n);
  if (ws != nullptr) check_workspace(*ws, bytes);
  check_select_memory(job.in, n, out, out_rejected, count_out);
  check_job_memory(job, n);
  if (ws != nullptr || bytes == 0) {
    select_launch(job, n, out, out_rejected, count_out, ws != nullptr ? *ws : workspace{}, stream);
    return;
  }
  workspace scratch{nullptr, bytes};
  ONEPASS_CUDA_TRY(cudaMallocAsync(&scratch.data, bytes, stream));
  try {
    select_launch(job, n, out, out_rejected, count_out, scratch, stream);
  } catch (...) {
    (void)cudaFreeAsync(scratch.data, stream);
    throw;
  }
  ONEPASS_CUDA_TRY(cudaFreeAsync(scratch.data, stream));
}

// The conveniences: every check first, then one stream-ordered block holding the count
// and the workspace, the launch, the count copied back; synchronises the stream.
template <class Job>
index_t select_to_host(const Job& job, index_t n, typename Job::value_type* out,
                       typename Job::value_type* out_rejected, cudaStream_t stream) {
  using T = typename Job::value_type;
  check_select_ranges(job.in, n, out, out_rejected);
  check_job(job, n);
  check_select_ranges_memory(job.in, n, out, out_rejected);
  check_job_memory(job, n);
  constexpr std::size_t count_bytes = 16;  // keeps the workspace 16-byte aligned
  const std::size_t bytes = count_bytes + select_plan<T>::workspace_bytes(n);
  void* scratch = nullptr;
  ONEPASS_CUDA_TRY(cudaMallocAsync(&scratch, bytes, stream));
  auto* count = static_cast<index_t*>(scratch);
  index_t host = 0;
  try {
    const workspace ws{static_cast<unsigned char*>(scratch) + count_bytes, bytes - count_bytes};
    select_launch(job, n, out, out_rejected, count, ws, stream);
    ONEPASS_CUDA_TRY(cudaMemcpyAsync(&host, count, sizeof(index_t), cudaMemcpyDeviceToHost, stream));
  } catch (...) {
    (void)cudaFreeAsync(scratch, stream);
    throw;
  }
  ONEPASS_CUDA_TRY(cudaFreeAsync(scratch, stream));
  ONEPASS_CUDA_TRY(cudaStreamSynchronize(stream));
  return host;
}

}  // namespace onepass::detail
