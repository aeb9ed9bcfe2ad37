// onepass/device/dispatch_radix_sort.cuh — sizes the production radix sort's workspace,
// checks the arguments and launches: one memset and the histogram kernel, then per pass
// and portion one memset (counter + descriptors) and one onesweep kernel.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <limits>
#include <type_traits>

#include "onepass/agent/radix_sort.cuh"
#include "onepass/detail/cluster.cuh"
#include "onepass/detail/launch.cuh"
#include "onepass/radix_sort_options.cuh"
#include "onepass/tuning/radix_sort_tuning.cuh"

namespace onepass::detail {

template <class Key, class Value, class Tuning = tuning::default_radix_sort_tuning<Key, Value>>
struct radix_sort_plan {
  using tuning_type = Tuning;
  static constexpr tuning::radix_sort_tuning tuning = Tuning::value;
  static constexpr int items_per_thread = tuning.onesweep_items_per_thread;
  static constexpr index_t tile_items = tuning.onesweep_tile_items();
  static constexpr index_t portion_items = tuning.portion_items;
  static_assert(portion_items <= lookback::count_state<radix_digits>::max_count, "tuning: descriptor counts are 30-bit");
  static constexpr int max_passes = (radix_key<Key>::bits + radix_digit_bits - 1) / radix_digit_bits;
  static constexpr bool with_values = has_values<Value>;
  // The histogram block's counters (every pass, every copy) within what any GPU gives a
  // block (the kernel itself checks that copies are a power of two <= 32; the dispatcher
  // halves them on GPUs that give less).
  static_assert(radix_histogram_shared_bytes<max_passes, tuning.histogram_counter_copies> <=
                    largest_max_shared_bytes_per_block,
                "tuning: the histogram's counters (passes x 256 x copies x 4 bytes) exceed 227 KiB");

  static constexpr index_t portions(index_t n) { return (n + portion_items - 1) / portion_items; }
  static constexpr index_t portion_tiles(index_t items) { return (items + tile_items - 1) / tile_items; }
  static constexpr std::size_t round_up(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

  // Workspace: [digit counts of every pass][the histogram's finished-block count, 16
  // bytes][every pass's digit starts for the first portion][digit starts, two later
  // portions' worth][tile counter, 16 bytes][descriptors][alternate keys][alternate
  // values]; the alternate buffers only for the copy style (the double-buffer style
  // ping-pongs between the caller's buffers). The counts and the block count are zeroed
  // together.
  static constexpr std::size_t counts_bytes = static_cast<std::size_t>(max_passes) * radix_digits * 8;
  static constexpr std::size_t zeroed_bytes = counts_bytes + 16;
  static constexpr std::size_t first_starts_bytes =
      static_cast<std::size_t>(max_passes) * radix_digits * sizeof(index_t);
  static constexpr std::size_t histogram_bytes(index_t /*n*/) {
    return round_up(zeroed_bytes + first_starts_bytes + 2 * radix_digits * sizeof(index_t));
  }
  static constexpr std::size_t counter_bytes = 16;
  // With tiny-, small-, medium- or plain-sort switches (tuning.tiny_sort_max_items,
  // small_sort_max_items, medium_sort_max_items, plain_sort_max_items), room for those
  // shapes' descriptors too: the same workspace serves whichever shape sorts n keys, on
  // whichever GPU.
  static constexpr std::size_t lookback_bytes(index_t n) {
    const index_t most = n < portion_items ? n : portion_items;
    std::size_t bytes =
        round_up(counter_bytes + radix_digits * lookback::count_state<radix_digits>::bytes(portion_tiles(most)));
    bytes = with_room_for<::onepass::tuning::radix_tiny_sort_tuning<Tuning>, tuning.tiny_sort_max_items>(bytes, n);
    bytes = with_room_for<::onepass::tuning::radix_small_sort_tuning<Tuning>, tuning.small_sort_max_items>(bytes, n);
    bytes = with_room_for<::onepass::tuning::radix_medium_sort_tuning<Tuning>, tuning.medium_sort_max_items>(bytes, n);
    bytes = with_room_for<::onepass::tuning::radix_plain_sort_tuning<Tuning>, tuning.plain_sort_max_items>(bytes, n);
    return bytes;
  }
  // The larger of `bytes` and Shape's descriptors for n keys where the public calls sort n
  // keys with Shape (n <= Most; Most 0: never).
  template <class Shape, long long Most>
  static constexpr std::size_t with_room_for(std::size_t bytes, index_t n) {
    if constexpr (Most > 0) {
      if (n <= Most) {
        const std::size_t shape = radix_sort_plan<Key, Value, Shape>::lookback_bytes(n);
        return shape > bytes ? shape : bytes;
      }
    }
    return bytes;
  }
  static constexpr std::size_t alternate_bytes(index_t n) {
    std::size_t bytes = round_up(static_cast<std::size_t>(n) * sizeof(Key));
    if constexpr (with_values) bytes += round_up(static_cast<std::size_t>(n) * sizeof(Value));
    return bytes;
  }
  static constexpr std::size_t workspace_bytes(index_t n, bool double_buffer) {
    return n <= 0 ? 0 : histogram_bytes(n) + lookback_bytes(n) + (double_buffer ? 0 : alternate_bytes(n));
  }
};

template <class Key, class Value, class Tuning>
using radix_sort_plan_for =
    radix_sort_plan<Key, Value,
                    std::conditional_t<std::is_void_v<Tuning>, tuning::default_radix_sort_tuning<Key, Value>, Tuning>>;

inline int radix_pass_count(radix_bit_range range) { return radix_pass_count(range.begin, range.end); }

inline radix_pass radix_pass_of(radix_bit_range range, int p) { return radix_pass_of(range.begin, range.end, p); }

// The passes' buffers: pass p reads `keys_in` (p == 0) or what pass p - 1 wrote, and
// writes even_keys (p even) or odd_keys (p odd); values alike.
template <class Key, class Value>
struct radix_pass_buffers {
  const Key* keys_in;
  Key* even_keys;
  Key* odd_keys;
  const Value* values_in;
  Value* even_values;
  Value* odd_values;

  Key* keys_to(int p) const { return p % 2 == 0 ? even_keys : odd_keys; }
  const Key* keys_from(int p) const { return p == 0 ? keys_in : keys_to(p - 1); }
  Value* values_to(int p) const { return p % 2 == 0 ? even_values : odd_values; }
  const Value* values_from(int p) const { return p == 0 ? values_in : values_to(p - 1); }
};

// The copy style's schedule over `passes` passes with one alternate buffer each: the
// last pass writes keys_out (with an odd number of passes the even passes write it, with
// an even number the odd ones). In place with an odd number of passes, pass 0 would read
// and write the same buffer: the input is first copied to the alternate buffer
// (*copy_keys_first / *copy_values_first set), and pass 0 reads that copy.
template <class Key, class Value>
radix_pass_buffers<Key, Value> copy_style_schedule(const Key* keys_in, Key* keys_out, Key* alt_keys,
                                                   const Value* values_in, Value* values_out, Value* alt_values,
                                                   int passes, bool* copy_keys_first, bool* copy_values_first) {
  const bool odd = passes % 2 == 1;
  radix_pass_buffers<Key, Value> b{keys_in, odd ? keys_out : alt_keys, odd ? alt_keys : keys_out,
                                   values_in, odd ? values_out : alt_values, odd ? alt_values : values_out};
  *copy_keys_first = odd && keys_in == keys_out;
  *copy_values_first = has_values<Value> && odd && values_in == values_out;
  if (*copy_keys_first) b.keys_in = alt_keys;
  if (*copy_values_first) b.values_in = alt_values;
  return b;
}

// The passes alone, for callers that have checked everything (n > 0, range.bits() > 0).
// The public calls (Tuning = void) sort at most the default tuning's tiny_sort_max_items
// keys with its tiny-sort shape, at most small_sort_max_items with its small-sort shape,
// at most medium_sort_max_items with its medium-sort shape, at most plain_sort_max_items
// on a GPU of more than plain_sort_min_dram_gbps with its plain shape; a tuning named
// explicitly is used as it is.
template <class Tuning = void, class Key, class Value, class Delay = no_delay>
void radix_sort_launch(const radix_pass_buffers<Key, Value>& buffers, index_t n, radix_bit_range range,
                       bool descending, const workspace& ws, cudaStream_t stream, Delay delay = {}) {
  using plan = radix_sort_plan_for<Key, Value, Tuning>;
  if constexpr (std::is_void_v<Tuning> && plan::tuning.tiny_sort_max_items > 0) {
    static_assert(plan::tuning.tiny_sort_max_items <= plan::tuning.small_sort_max_items,
                  "tiny sorts are a part of the small ones");
    using tiny = ::onepass::tuning::radix_tiny_sort_tuning<typename plan::tuning_type>;
    if (n <= plan::tuning.tiny_sort_max_items)
      return radix_sort_launch<tiny>(buffers, n, range, descending, ws, stream, delay);
  }
  if constexpr (std::is_void_v<Tuning> && plan::tuning.small_sort_max_items > 0) {
    using small = ::onepass::tuning::radix_small_sort_tuning<typename plan::tuning_type>;
    if (n <= plan::tuning.small_sort_max_items)
      return radix_sort_launch<small>(buffers, n, range, descending, ws, stream, delay);
  }
  if constexpr (std::is_void_v<Tuning> && plan::tuning.medium_sort_max_items > 0) {
    static_assert(plan::tuning.medium_sort_max_items >= plan::tuning.small_sort_max_items,
                  "medium sorts come after the small ones");
    using medium = ::onepass::tuning::radix_medium_sort_tuning<typename plan::tuning_type>;
    if (n <= plan::tuning.medium_sort_max_items)
      return radix_sort_launch<medium>(buffers, n, range, descending, ws, stream, delay);
  }
  if constexpr (std::is_void_v<Tuning> && plan::tuning.plain_sort_max_items > 0) {
    static_assert(plan::tuning.plain_sort_max_items >= plan::tuning.medium_sort_max_items,
                  "plain sorts come after the medium ones");
    using plain = ::onepass::tuning::radix_plain_sort_tuning<typename plan::tuning_type>;
    if (::onepass::tuning::radix_sorts_plain(plan::tuning, n, peak_dram_gbps()))
      return radix_sort_launch<plain>(buffers, n, range, descending, ws, stream, delay);
  }
  constexpr int threads = plan::tuning.onesweep_block_threads;
  const int passes = radix_pass_count(range);
  const index_t portions = plan::portions(n);
  auto* base = static_cast<unsigned char*>(ws.data);
  auto* hist = reinterpret_cast<unsigned long long*>(base);
  unsigned char* lookback_area = base + plan::histogram_bytes(n);

  auto* blocks_done = reinterpret_cast<unsigned*>(base + plan::counts_bytes);
  auto* first_starts = reinterpret_cast<index_t*>(base + plan::zeroed_bytes);  // 256 a pass
  index_t* starts = first_starts + plan::max_passes * radix_digits;          // two sets of 256

  // The histogram: the tuning's counter copies where the GPU gives a block their shared
  // memory, half as many where it gives less (the 99 KiB of sm_86, sm_89 and sm_120:
  // two-way bank conflicts where there were none). Both kernels' shared memory is settled
  // before anything is enqueued.
  constexpr int hist_threads = plan::tuning.histogram_block_threads;
  constexpr int copies = plan::tuning.histogram_counter_copies;
  constexpr int fewer_copies = copies > 1 ? copies / 2 : 1;
  constexpr int hist_shared = radix_histogram_shared_bytes<plan::max_passes, copies>;
  constexpr int fewer_hist_shared = radix_histogram_shared_bytes<plan::max_passes, fewer_copies>;
  constexpr auto hist_kernel = radix_histogram_kernel<Key, hist_threads, plan::max_passes, copies>;
  constexpr auto fewer_hist_kernel = radix_histogram_kernel<Key, hist_threads, plan::max_passes, fewer_copies>;
  const bool fewer = hist_shared > max_shared_bytes_per_block();
  if (fewer) {
    require_dynamic_shared<fewer_hist_kernel>(fewer_hist_shared, "the radix sort's histogram");
  } else {
    require_dynamic_shared<hist_kernel>(hist_shared, "the radix sort's histogram");
  }
  constexpr auto kernel = radix_onesweep_kernel<Key, Value, typename plan::tuning_type, Delay>;
  using onesweep = radix_onesweep_config<Key, Value, typename plan::tuning_type>;
  require_dynamic_shared<kernel>(onesweep::shared_bytes, "the radix sort's onesweep pass");

  ONEPASS_CUDA_TRY(cudaMemsetAsync(hist, 0, plan::zeroed_bytes, stream));
  {
    const index_t first_portion = n < plan::portion_items ? n : plan::portion_items;
    const index_t wanted = (first_portion + hist_threads * 16 - 1) / (hist_threads * 16);
    const index_t most = static_cast<index_t>(multiprocessor_count()) * plan::tuning.histogram_blocks_per_sm;
    const dim3 grid(static_cast<unsigned>(wanted < most ? wanted : most), static_cast<unsigned>(portions));
    launch(fewer ? fewer_hist_kernel : hist_kernel, grid, hist_threads, fewer ? fewer_hist_shared : hist_shared,
           stream, buffers.keys_in, n, plan::portion_items, range.begin, range.end, descending, hist, blocks_done,
           first_starts);
  }

  const index_t copy_blocks = resident_blocks<kernel>(threads, onesweep::shared_bytes);
  // Thread-block clusters (tuning.onesweep_cluster_blocks) where the GPU has them (sm_90+).
  constexpr int cluster_blocks = plan::tuning.onesweep_cluster_blocks;
  static_assert(cluster_blocks == 1 || cluster_blocks == 2, "tuning: onesweep clusters of 1 or 2 blocks");
  const bool clustered = cluster_blocks > 1 && supports_clusters();
  cudaLaunchAttribute cluster{};
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = static_cast<unsigned>(cluster_blocks);
  cluster.val.clusterDim.y = cluster.val.clusterDim.z = 1;
  for (int p = 0; p < passes; ++p) {
    const radix_pass pass = radix_pass_of(range, p);
    const Key* keys_src = buffers.keys_from(p);
    const Value* values_src = buffers.values_from(p);
    Key* keys_dst = buffers.keys_to(p);
    Value* values_dst = buffers.values_to(p);
    for (index_t q = 0; q < portions; ++q) {
      const index_t begin = q * plan::portion_items;
      const index_t items = n - begin < plan::portion_items ? n - begin : plan::portion_items;
      const index_t tiles = plan::portion_tiles(items);
      ONEPASS_CUDA_TRY(cudaMemsetAsync(
          lookback_area, 0, plan::counter_bytes + radix_digits * lookback::count_state<radix_digits>::bytes(tiles), stream));
      // Portion 0 reads the histogram's starts; portion q > 0 reads the starts portion q - 1
      // wrote and writes the other set.
      const index_t prefetch_tiles = l2_prefetch_tiles(
          static_cast<index_t>(plan::tuning.onesweep_tile_items()) * static_cast<index_t>(sizeof(Key)),
          plan::tuning.l2_prefetch_bytes, plan::tuning.l2_prefetch_min_input_bytes,
          items * static_cast<index_t>(sizeof(Key)), reinterpret_cast<std::uintptr_t>(keys_src + begin) % 16 == 0);
      const radix_portion portion{begin,
                                  items,
                                  n,
                                  copy_blocks,
                                  hist + static_cast<index_t>(p) * radix_digits,
                                  q == 0 ? first_starts + static_cast<index_t>(p) * radix_digits
                                         : starts + ((q - 1) % 2) * radix_digits,
                                  q + 1 == portions ? nullptr : starts + (q % 2) * radix_digits,
                                  prefetch_tiles};
      // In clusters, the grid is rounded up to whole clusters (the extra block returns).
      const index_t grid = clustered ? (tiles + cluster_blocks - 1) / cluster_blocks * cluster_blocks : tiles;
      launch_with_attribute(kernel, dim3(static_cast<unsigned>(grid)), dim3(threads), onesweep::shared_bytes, stream,
                            cluster, clustered, keys_src, keys_dst, values_src, values_dst, portion, pass, descending,
                            static_cast<void*>(lookback_area + plan::counter_bytes),
                            lookback::tile_counter(lookback_area), delay);
    }
  }
}

template <class Key, class Value>
void check_radix_sort_memory(const Key* keys_in, Key* keys_out, const Value* values_in, Value* values_out,
                             index_t n) {
  check_device_accessible(keys_in, n, "keys_in");
  check_device_accessible(keys_out, n, "keys_out");
  if constexpr (has_values<Value>) {
    check_device_accessible(values_in, n, "values_in");
    check_device_accessible(values_out, n, "values_out");
  } else {
    (void)values_in;
    (void)values_out;
  }
}

// Copies n items of src to dst on the stream, unless they are the same memory.
template <class T>
void copy_unless_same(const T* src, T* dst, index_t n, cudaStream_t stream) {
  if (src == dst || n == 0) return;
  ONEPASS_CUDA_TRY(
      cudaMemcpyAsync(dst, src, static_cast<std::size_t>(n) * sizeof(T), cudaMemcpyDeviceToDevice, stream));
}

// The copy style's launches alone, for callers that have checked everything (n > 0; ws
// holds workspace_bytes(n, false)). keys_in (and values_in) are left alone unless they
// are also the output.
template <class Tuning = void, class Key, class Value, class Delay = no_delay>
void radix_sort_copy_launch(const Key* keys_in, Key* keys_out, const Value* values_in, Value* values_out, index_t n,
                            radix_bit_range range, bool descending, const workspace& ws, cudaStream_t stream,
                            Delay delay = {}) {
  using plan = radix_sort_plan_for<Key, Value, Tuning>;
  if (range.bits() == 0) {  // nothing to compare: every key is equal, the order stays
    copy_unless_same(keys_in, keys_out, n, stream);
    if constexpr (has_values<Value>) copy_unless_same(values_in, values_out, n, stream);
    return;
  }
  auto* alternate = static_cast<unsigned char*>(ws.data) + plan::histogram_bytes(n) + plan::lookback_bytes(n);
  Key* alt_keys = reinterpret_cast<Key*>(alternate);
  Value* alt_values = nullptr;
  if constexpr (has_values<Value>)
    alt_values = reinterpret_cast<Value*>(alternate + plan::round_up(static_cast<std::size_t>(n) * sizeof(Key)));
  bool copy_keys = false, copy_values = false;
  const auto b = copy_style_schedule(keys_in, keys_out, alt_keys, values_in, values_out, alt_values,
                                     radix_pass_count(range), &copy_keys, &copy_values);
  if (copy_keys) copy_unless_same(keys_in, alt_keys, n, stream);
  if constexpr (has_values<Value>)
    if (copy_values) copy_unless_same(values_in, alt_values, n, stream);
  radix_sort_launch<Tuning>(b, n, range, descending, ws, stream, delay);
}

// Runs launches(workspace) on the caller's workspace, or (ws == nullptr, the simple
// style) on `needed` bytes allocated and freed in stream order around it.
template <class Launches>
void with_workspace(const workspace* ws, std::size_t needed, cudaStream_t stream, Launches&& launches) {
  if (ws) {
    launches(*ws);
    return;
  }
  workspace scratch{nullptr, needed};
  ONEPASS_CUDA_TRY(cudaMallocAsync(&scratch.data, needed, stream));
  try {
    launches(scratch);
  } catch (...) {
    (void)cudaFreeAsync(scratch.data, stream);
    throw;
  }
  ONEPASS_CUDA_TRY(cudaFreeAsync(scratch.data, stream));
}

// Copy style, checked: ws == nullptr is the simple style (stream-ordered allocation of
// the workspace).
template <class Tuning = void, class Key, class Value, class Delay = no_delay>
void radix_sort_copy_dispatch(const Key* keys_in, Key* keys_out, const Value* values_in, Value* values_out,
                              index_t n, const radix_sort_options& options, const workspace* ws,
                              cudaStream_t stream, Delay delay = {}) {
  using plan = radix_sort_plan_for<Key, Value, Tuning>;
  const radix_bit_range range = check_radix_options<Key>(options);
  check_radix_sort_args(keys_in, keys_out, values_in, values_out, n);
  const std::size_t needed = plan::workspace_bytes(n, false);
  if (ws) check_workspace(*ws, needed);
  check_radix_sort_memory(keys_in, keys_out, values_in, values_out, n);
  if (n == 0) return;
  const bool descending = options.order == sort_order::descending;
  with_workspace(ws, needed, stream, [&](const workspace& w) {
    radix_sort_copy_launch<Tuning>(keys_in, keys_out, values_in, values_out, n, range, descending, w, stream, delay);
  });
}

template <class T>
void check_double_buffer(const double_buffer<T>& b, index_t n, const char* name) {
  if (b.selector != 0 && b.selector != 1)
    throw invalid_argument(name, "has selector " + std::to_string(b.selector) + "; it must be 0 or 1");
  const std::string current = std::string(name) + ".current()", alternate = std::string(name) + ".alternate()";
  check_pointer(b.current(), n, current.c_str());
  check_pointer(b.alternate(), n, alternate.c_str());
  if (n > 0 && b.current() == b.alternate())
    throw invalid_argument(name, "has the same buffer twice; it needs two distinct buffers of n items");
  check_no_partial_overlap(b.current(), b.alternate(), n, current.c_str(), alternate.c_str());
}

// Double-buffer style: sorts between the two buffers of `keys` (and `values`); on return
// their selectors name the buffers holding the result. values == nullptr: keys only.
template <class Tuning = void, class Key, class Value, class Delay = no_delay>
void radix_sort_double_buffer_dispatch(double_buffer<Key>& keys, double_buffer<Value>* values, index_t n,
                                       const radix_sort_options& options, const workspace* ws,
                                       cudaStream_t stream, Delay delay = {}) {
  using plan = radix_sort_plan_for<Key, Value, Tuning>;
  static_check_radix_key<Key>();
  static_check_radix_value<Value>();
  const radix_bit_range range = check_radix_options<Key>(options);
  check_count(n);
  check_double_buffer(keys, n, "keys");
  if constexpr (has_values<Value>) {
    check_double_buffer(*values, n, "values");
    check_radix_sort_args<Key, Value>(keys.current(), keys.alternate(), values->current(), values->alternate(), n);
    const auto k = reinterpret_cast<std::uintptr_t>(keys.current());
    const auto v = reinterpret_cast<std::uintptr_t>(values->current());
    if (n > 0 && k < v + n * sizeof(Value) && v < k + n * sizeof(Key))
      throw invalid_argument("values", "has a buffer that overlaps one of 'keys'");
  }
  const std::size_t needed = plan::workspace_bytes(n, true);
  if (ws) check_workspace(*ws, needed);
  if constexpr (has_values<Value>)
    check_radix_sort_memory<Key, Value>(keys.current(), keys.alternate(), values->current(), values->alternate(), n);
  else
    check_radix_sort_memory<Key, Value>(keys.current(), keys.alternate(), nullptr, nullptr, n);
  const int passes = radix_pass_count(range);
  if (n == 0 || passes == 0) return;
  radix_pass_buffers<Key, Value> b{keys.current(), keys.alternate(), keys.current(), nullptr, nullptr, nullptr};
  if constexpr (has_values<Value>)
    b = {keys.current(), keys.alternate(), keys.current(), values->current(), values->alternate(), values->current()};
  with_workspace(ws, needed, stream, [&](const workspace& w) {
    radix_sort_launch<Tuning>(b, n, range, options.order == sort_order::descending, w, stream, delay);
  });
  keys.selector ^= passes & 1;
  if constexpr (has_values<Value>) values->selector ^= passes & 1;
}

template <class Index>
__global__ void radix_iota_kernel(Index* out, index_t n) {
  const index_t stride = static_cast<index_t>(gridDim.x) * blockDim.x;
  for (index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = static_cast<Index>(i);
}

}  // namespace onepass::detail
