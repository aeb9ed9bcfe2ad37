// onepass/device/dispatch_segmented_scan.cuh — sizes the segmented scan's workspace,
// checks the arguments and launches: one memset (tile counter, descriptors and, for the
// offsets form, the error word and the two head bitmaps), for the offsets form one small
// kernel that checks the offsets and marks the bitmaps, and one lookback kernel. Head
// flags on the pipelined kernel skip the memset: that kernel, launched cooperatively,
// clears its own counter and descriptors (tuning: pipeline_clears_workspace).
#pragma once

#include <cuda_runtime_api.h>

#include <limits>
#include <string>
#include <type_traits>

#include "onepass/agent/segmented_scan.cuh"
#include "onepass/agent/segmented_scan_pipeline.cuh"
#include "onepass/detail/launch.cuh"
#include "onepass/segments.cuh"
#include "onepass/tuning/segmented_scan_tuning.cuh"


namespace onepass::detail {

template <class T, class Tuning = tuning::default_segmented_scan_tuning<T>>
struct segmented_scan_plan {
  static constexpr tuning::segmented_scan_tuning tuning = Tuning::value;
  static constexpr index_t tile_items = tuning.tile_items();
  static_assert(tuning.items_per_thread >= 1 && tuning.items_per_thread <= 32,
                "tuning: a thread's heads are one 32-bit mask");
  // Largest n whose tile count fits a one-dimensional grid.
  static constexpr index_t max_items = static_cast<index_t>(std::numeric_limits<int>::max()) * tile_items;

  static constexpr index_t num_tiles(index_t n) { return (n + tile_items - 1) / tile_items; }
  // The pipelined agent's tiles (its own shape; the descriptors cover either agent's).
  static constexpr index_t pipeline_tile_items = tuning.pipeline_tile_items();
  static constexpr index_t num_pipeline_tiles(index_t n) { return (n + pipeline_tile_items - 1) / pipeline_tile_items; }
  static constexpr index_t num_descriptors(index_t n) {
    return tuning.pipelined && num_pipeline_tiles(n) > num_tiles(n) ? num_pipeline_tiles(n) : num_tiles(n);
  }
  static constexpr std::size_t round16(std::size_t b) { return (b + 15) / 16 * 16; }
  // Workspace layout: [tile counter (8 bytes), error word (8 bytes)][descriptors, padded
  // to 16 bytes] and, for the offsets form, [begins bitmap][ends bitmap], each padded to
  // 16 bytes, then 16 bytes for the word that says whether any ends bit is set. One memset
  // clears it all.
  static constexpr std::size_t counter_bytes = 16;
  // Every form's descriptors hold the value alone (forms with gaps carry the head's kind
  // as a tag in the same words: segment_descriptor).
  static constexpr std::size_t descriptor_bytes(index_t n) {
    return round16(segment_descriptor<T, false>::state::bytes(num_descriptors(n)));
  }
  static constexpr std::size_t bitmap_bytes(index_t n) {
    return round16(static_cast<std::size_t>((n + 31) / 32) * sizeof(std::uint32_t));
  }
  static constexpr std::size_t workspace_bytes(index_t n) { return n <= 0 ? 0 : counter_bytes + descriptor_bytes(n); }
  static constexpr std::size_t offsets_workspace_bytes(index_t n) {
    return n <= 0 ? 0 : workspace_bytes(n) + 2 * bitmap_bytes(n) + 16;
  }
};

template <class T, class Tuning>
using segmented_scan_plan_for =
    segmented_scan_plan<T, std::conditional_t<std::is_void_v<Tuning>, tuning::default_segmented_scan_tuning<T>, Tuning>>;

// The deterministic segmented scan (determinism::run_to_run and gpu_to_gpu, for items
// that are not integers): the one-tile kernel looking back in the fixed order, at a shape
// that no tuning row sets, since the bits depend on it: 32 items a thread (4 for items
// over 8 bytes), 256 threads for items of up to 4 bytes and 128 for larger ones (32 KiB
// tiles of 4- and 8-byte items), groups of 256 tiles. Every head source and alignment runs
// it: a thread holds the same items whatever the loads' width. The offsets form's marking
// keeps the tuning's choices: they place the same heads, so they do not change the bits.
template <class T>
struct deterministic_segmented_scan_tuning {
  static constexpr tuning::segmented_scan_tuning value = [] {
    tuning::segmented_scan_tuning t = tuning::default_segmented_scan_tuning<T>::value;
    t.block_threads = sizeof(T) <= 4 ? 256 : 128;
    t.items_per_thread = sizeof(T) <= 8 ? 32 : 4;
    t.min_blocks_per_sm = sizeof(T) <= 4 ? 3 : 0;  // a register cap: not part of the order
    t.lookback_backoff_ns = 32;
    t.pipelined = false;
    t.fixed_order_tiles_per_lane = 8;
    return t;
  }();
};

// Whether a segmented scan of T asked for `d` runs in the fixed order: items that are not
// integers, asked for run_to_run or gpu_to_gpu. Integers are exact on every path.
template <class T>
constexpr bool segmented_scan_in_fixed_order(determinism d) {
  return d != determinism::not_guaranteed && !std::is_integral_v<T>;
}

// Two ranges of different types share no byte.
template <class A, class B>
void check_no_overlap(const A* a, index_t na, const B* b, index_t nb, const char* a_name, const char* b_name) {
  if (na == 0 || nb == 0) return;
  const auto x = reinterpret_cast<std::uintptr_t>(a);
  const auto y = reinterpret_cast<std::uintptr_t>(b);
  const auto xl = static_cast<std::uintptr_t>(na) * sizeof(A);
  const auto yl = static_cast<std::uintptr_t>(nb) * sizeof(B);
  if (x < y + yl && y < x + xl)
    throw invalid_argument(a_name, std::string("overlaps '") + b_name + "', which the scan writes");
}

template <class T, class Tuning = void>
void check_segmented_scan_args(const T* in, index_t n, T* out) {
  static_assert(std::is_trivially_copyable_v<T>, "scanned values must be trivially copyable");
  check_count(n);
  if (n > segmented_scan_plan_for<T, Tuning>::max_items)
    throw invalid_argument("n", "is " + std::to_string(n) + ", more than the " +
                                    std::to_string(segmented_scan_plan_for<T, Tuning>::max_items) +
                                    " items one segmented scan supports");
  check_pointer(in, n, "in");
  check_pointer(out, n, "out");
  check_no_partial_overlap(in, out, n, "in", "out");
}

template <class T>
void check_segmented_scan_memory(const T* in, index_t n, T* out) {
  check_device_accessible(in, n, "in");
  check_device_accessible(out, n, "out");
}

// The head source's own input: checked on the host, then its memory.
template <class T, class Flag>
void check_heads(const flag_heads<Flag>& h, index_t n, const T* out) {
  check_pointer(h.flags, n, "head_flags");
  check_no_overlap(h.flags, n, out, n, "head_flags", "out");
}
template <class T, class Key, class Eq>
void check_heads(const key_heads<Key, Eq>& h, index_t n, const T* out) {
  check_pointer(h.keys, n, "keys");
  check_no_overlap(h.keys, n, out, n, "keys", "out");
}
template <class Flag>
void check_heads_memory(const flag_heads<Flag>& h, index_t n) {
  check_device_accessible(h.flags, n, "head_flags");
}
template <class Key, class Eq>
void check_heads_memory(const key_heads<Key, Eq>& h, index_t n) {
  check_device_accessible(h.keys, n, "keys");
}
// 128-bit loads of the heads' own input: flags check per thread on the device; keys move
// with the values, so the keys must be aligned too.
template <class Flag>
bool heads_vector_aligned(const flag_heads<Flag>&) {
  return true;
}
// Scan by key's source: the pipelined agent takes it only where the tuning says so.
template <class Heads>
inline constexpr bool is_key_heads = false;
template <class Key, class Eq>
inline constexpr bool is_key_heads<key_heads<Key, Eq>> = true;

template <class Key, class Eq>
bool heads_vector_aligned(const key_heads<Key, Eq>& h) {
  return is_vector_aligned(h.keys);
}
inline bool heads_vector_aligned(const bitmap_heads&) { return true; }
template <class Offset>
bool heads_vector_aligned(const csr_bitmap_heads<Offset>&) {
  return true;
}

template <class Offset>
void check_segment_offsets_args(const segment_offsets<Offset>& segments) {
  static_assert(std::is_integral_v<Offset>, "segment offsets must be integers");
  check_count(segments.count, "segments.count");
  check_pointer(segments.begin, segments.count, "segments.begin");
  check_pointer(segments.end, segments.count, "segments.end");
  if (segments.gaps != gap_items::untouched && segments.gaps != gap_items::copied)
    throw invalid_argument("segments.gaps", "is " + std::to_string(static_cast<int>(segments.gaps)) +
                                                ", neither gap_items::untouched nor gap_items::copied");
}
template <class Offset>
void check_segment_offsets_memory(const segment_offsets<Offset>& segments) {
  check_device_accessible(segments.begin, segments.count, "segments.begin");
  check_device_accessible(segments.end, segments.count, "segments.end");
}

// Whether the offsets forms' scan takes the pipelined kernel's headless-tile path: their
// heads (one a segment, two with gaps: its begin and a gap after it) lie at least
// min_items apart on average (tuning::segmented_scan_tuning::pipeline_headless_min_segment_items;
// 0 = never). Head flags and scan by key pass no count (0) and never take it.
constexpr bool headless_tiles_pay(index_t n, index_t known_segments, bool has_gaps, long long min_items) {
  const index_t heads_at_most = (has_gaps ? 2 : 1) * known_segments;
  return min_items > 0 && heads_at_most > 0 && n / heads_at_most >= min_items;
}

// The launch alone, for callers that have checked the arguments (requires n > 0, the
// workspace cleared as the plan says when the source is the offsets form's bitmaps).
// known_segments: the offsets form's segment count (0 where the host does not know it).
template <bool Exclusive, class Tuning = void, class T, class Heads, class Op, class Delay = no_delay>
void segmented_scan_launch(const T* in, index_t n, T* out, const Heads& heads, T init, Op op, const workspace& ws,
                           cudaStream_t stream, bool workspace_cleared = false, Delay delay = {},
                           index_t known_segments = 0) {
  using plan = segmented_scan_plan_for<T, Tuning>;
  constexpr int threads = plan::tuning.block_threads;
  constexpr int items = plan::tuning.items_per_thread;
  constexpr int min_blocks = plan::tuning.min_blocks_per_sm;
  constexpr int V = items % vector_width<T> == 0 ? vector_width<T> : 1;
  constexpr int fixed_order = plan::tuning.fixed_order_tiles_per_lane;
  static_assert(fixed_order == 0 || !plan::tuning.pipelined, "the fixed order is the one-tile kernel's");
  auto* base = static_cast<unsigned char*>(ws.data);
  const auto clear_workspace = [&] {
    if (!workspace_cleared) ONEPASS_CUDA_TRY(cudaMemsetAsync(base, 0, plan::workspace_bytes(n), stream));
  };
  lookback::tile_counter counter(base);
  segment_tile_state<T, Heads> state(base + plan::counter_bytes);
  const dim3 grid(static_cast<unsigned>(plan::num_tiles(n)));
  // The L2 prefetch distance in tiles of `tile_items` (either agent's).
  const auto prefetch_tiles_of = [&](index_t tile_items) {
    return l2_prefetch_tiles(tile_items * static_cast<index_t>(sizeof(T)), plan::tuning.l2_prefetch_bytes,
                             plan::tuning.l2_prefetch_min_input_bytes, n * static_cast<index_t>(sizeof(T)),
                             is_vector_aligned(in));
  };
  // 128-bit accesses need the values (and keys) 16-byte aligned; otherwise coalesced scalars.
  const bool aligned = is_vector_aligned(in) && is_vector_aligned(out) && heads_vector_aligned(heads);
  if constexpr (plan::tuning.pipelined && Heads::pipelined && 16 % sizeof(T) == 0 &&
                (plan::tuning.pipeline_by_key_min_blocks_per_sm > 0 || !is_key_heads<Heads>)) {
    constexpr int pipeline_threads = plan::tuning.pipeline_block_threads;
    constexpr int pipeline_items = plan::tuning.pipeline_items_per_thread;
    // The offsets form's sources are the ones with gaps or a window.
    constexpr bool offsets_form = Heads::has_gaps || Heads::has_window;
    // With pipeline_clears_workspace the kernel clears its descriptors itself, after a
    // cooperative launch. Not for the offsets form: the memset of its bitmaps has cleared
    // the descriptors already, and its kernels stay as measured (their register budget is
    // tight).
    constexpr bool clears = plan::tuning.pipeline_clears_workspace && !offsets_form;
    // Scan by key's keys wait in registers for a step: its own register cap.
    constexpr int pipeline_min_blocks = is_key_heads<Heads> ? plan::tuning.pipeline_by_key_min_blocks_per_sm
                                                            : plan::tuning.pipeline_min_blocks_per_sm;
    // Step A's thread scan in groups of four (tuning::thread_scan_order): in every form, or
    // in the offsets form only.
    constexpr auto order = plan::tuning.pipeline_thread_scan;
    constexpr bool grouped_thread_scan = order == tuning::thread_scan_order::grouped ||
                                         (order == tuning::thread_scan_order::grouped_for_offsets && offsets_form);
    constexpr int shared_bytes = pipeline_layout<T, pipeline_threads, pipeline_items>::shared_bytes;
    // Launches the kernel with or without its headless-tile path; false where it does not
    // run (one tile per block below).
    const auto launch_pipelined = [&](auto headless_tiles) {
      constexpr auto kernel =
          segmented_scan_pipeline_kernel<T, Heads, Op, pipeline_threads, pipeline_items, Exclusive, Delay,
                                         plan::tuning.pipeline_lookback_tiles_per_lane, pipeline_min_blocks, clears,
                                         grouped_thread_scan, decltype(headless_tiles)::value>;
      // With few tiles per resident block the pipeline never fills (a block claims three
      // tiles up front): one tile per block then (as the plain scan).
      const index_t resident = aligned ? resident_blocks<kernel>(pipeline_threads, shared_bytes) : 0;
      const index_t tiles = plan::num_pipeline_tiles(n);
      if (resident == 0 || tiles < plan::tuning.pipeline_min_tiles_per_block * resident) return false;
      const dim3 persistent(static_cast<unsigned>(tiles < resident ? tiles : resident));
      if constexpr (clears) {
        // The grid fits on the device at once; the kernel clears its own descriptors.
        // Refused (fewer SMs than the device reports): one tile per block below.
        return try_launch_cooperative(kernel, persistent, pipeline_threads, shared_bytes, stream, in, out, n, heads,
                                      init, op, state, counter, plan::tuning.lookback_backoff_ns, delay,
                                      prefetch_tiles_of(plan::pipeline_tile_items));
      } else {
        clear_workspace();
        launch(kernel, persistent, pipeline_threads, shared_bytes, stream, in, out, n, heads, init, op, state,
               counter, plan::tuning.lookback_backoff_ns, delay, prefetch_tiles_of(plan::pipeline_tile_items));
        return true;
      }
    };
    // The headless-tile path where the host knows the heads are far apart: the offsets
    // forms, whose segment count is an argument (headless_tiles_pay).
    constexpr long long headless_min = plan::tuning.pipeline_headless_min_segment_items;
    bool launched;
    if constexpr (offsets_form && headless_min > 0)  // (else the headless kernel is not instantiated)
      launched = headless_tiles_pay(n, known_segments, Heads::has_gaps, headless_min)
                     ? launch_pipelined(std::true_type{})
                     : launch_pipelined(std::false_type{});
    else
      launched = launch_pipelined(std::false_type{});
    if (launched) return;
  }
  clear_workspace();
  const index_t prefetch_tiles = prefetch_tiles_of(plan::tile_items);
  if (aligned) {
    launch(segmented_scan_kernel<T, Heads, Op, threads, items, V, Exclusive, Delay, min_blocks, fixed_order>, grid,
           threads, 0, stream, in, out, n, heads, init, op, state, counter, plan::tuning.lookback_backoff_ns, delay,
           prefetch_tiles);
  } else {
    launch(segmented_scan_kernel<T, Heads, Op, threads, items, 1, Exclusive, Delay, min_blocks, fixed_order>, grid,
           threads, 0, stream, in, out, n, heads, init, op, state, counter, plan::tuning.lookback_backoff_ns, delay,
           prefetch_tiles);
  }
}

// Head flags and scan by key: checks everything, then launches.
// determinism: a fixed order runs with deterministic_segmented_scan_tuning, whatever
// Tuning says.
template <bool Exclusive, class Tuning = void, class T, class Heads, class Op, class Delay = no_delay>
void segmented_scan_dispatch(const T* in, index_t n, T* out, const Heads& heads, T init, Op op, const workspace& ws,
                             cudaStream_t stream, Delay delay = {}, determinism d = determinism::not_guaranteed) {
  if constexpr (!std::is_integral_v<T>) {
    if (segmented_scan_in_fixed_order<T>(d))
      return segmented_scan_dispatch<Exclusive, deterministic_segmented_scan_tuning<T>>(in, n, out, heads, init, op,
                                                                                       ws, stream, delay);
  }
  check_segmented_scan_args<T, Tuning>(in, n, out);
  check_heads(heads, n, out);
  check_workspace(ws, segmented_scan_plan_for<T, Tuning>::workspace_bytes(n));
  check_segmented_scan_memory(in, n, out);
  check_heads_memory(heads, n);
  if (n == 0) return;
  segmented_scan_launch<Exclusive, Tuning>(in, n, out, heads, init, op, ws, stream, false, delay);
}

template <bool Exclusive, class Tuning = void, class T, class Heads, class Op>
void segmented_scan_allocating(const T* in, index_t n, T* out, const Heads& heads, T init, Op op,
                               cudaStream_t stream, determinism d = determinism::not_guaranteed) {
  if constexpr (!std::is_integral_v<T>) {
    if (segmented_scan_in_fixed_order<T>(d))
      return segmented_scan_allocating<Exclusive, deterministic_segmented_scan_tuning<T>>(in, n, out, heads, init, op,
                                                                                         stream);
  }
  // Every check before the allocation: bad input allocates nothing and writes nothing.
  check_segmented_scan_args<T, Tuning>(in, n, out);
  check_heads(heads, n, out);
  check_segmented_scan_memory(in, n, out);
  check_heads_memory(heads, n);
  if (n == 0) return;
  workspace ws{nullptr, segmented_scan_plan_for<T, Tuning>::workspace_bytes(n)};
  ONEPASS_CUDA_TRY(cudaMallocAsync(&ws.data, ws.bytes, stream));
  try {
    segmented_scan_launch<Exclusive, Tuning>(in, n, out, heads, init, op, ws, stream);
  } catch (...) {
    (void)cudaFreeAsync(ws.data, stream);
    throw;
  }
  ONEPASS_CUDA_TRY(cudaFreeAsync(ws.data, stream));
}

// --- the offsets form ---------------------------------------------------------------------

// CSR offsets (one array of boundaries): each offset is read once by the marking, and
// the scan needs only the begins bitmap (csr_bitmap_heads), so half the bitmap bytes are
// cleared, marked and read.
template <class Offset>
bool is_csr(const segment_offsets<Offset>& segments) {
  return segments.end == segments.begin + 1;
}

// One block per `blocks` needed, at most as many as fit at once (the kernel strides).
template <auto Kernel, int Threads, class Offset>
void launch_marking(const segment_offsets<Offset>& segments, index_t n, index_t blocks, std::uint32_t* begins,
                    std::uint32_t* ends, unsigned long long* error, unsigned* gaps_found, cudaStream_t stream) {
  const index_t cap = resident_blocks<Kernel>(Threads, 0);
  launch(Kernel, dim3(static_cast<unsigned>(blocks < cap ? blocks : cap)), Threads, 0, stream, segments.begin,
         segments.end, segments.count, n, begins, ends, error, gaps_found);
}

// The marking kernel at a shape: Threads a block, SegmentsPerLane a lane, a window of
// WindowWords bitmap words a warp, a __launch_bounds__ minimum of MinBlocksPerSm.
// GapsAsHeads (begin/end arrays, for an inclusive scan whose gap items are copied): every
// gap item is marked in `begins` as a segment of its own and nothing in an `ends` bitmap
// (mark_segments_kernel's GapsAsHeads); `ends` then holds the gaps too long for one warp's
// stores, listed in pieces (its first 16 bytes cleared), which the next kernel sets a warp
// a piece (none can be that long below 32 * listed_range_words items, and then it is not
// launched).
template <int Threads, int SegmentsPerLane, int WindowWords, int MinBlocksPerSm, class Offset,
          bool GapsAsHeads = false>
void launch_mark_segments_shaped(const segment_offsets<Offset>& segments, index_t n, std::uint32_t* begins,
                                 std::uint32_t* ends, unsigned long long* error, unsigned* gaps_found,
                                 cudaStream_t stream) {
  if (segments.count == 0) return;
  constexpr index_t per_block = static_cast<index_t>(Threads) * SegmentsPerLane;
  const index_t blocks = (segments.count + per_block - 1) / per_block;
  if constexpr (GapsAsHeads) {
    launch_marking<mark_segments_kernel<Threads, SegmentsPerLane, WindowWords, MinBlocksPerSm, false, true, Offset>,
                   Threads>(segments, n, blocks, begins, ends, error, nullptr, stream);
    if (n > 32 * listed_range_words) {
      // A warp a piece: a grid for the most pieces n can be listed in, at most one wave
      // (its blocks stride over the list), so that small inputs launch a few blocks.
      constexpr int fill_threads = 256;
      constexpr index_t pieces_per_block = fill_threads / 32;
      const index_t wanted = (max_listed_pieces(n) + pieces_per_block - 1) / pieces_per_block;
      const index_t wave = resident_blocks<set_listed_words_kernel<fill_threads>>(fill_threads, 0);
      launch(set_listed_words_kernel<fill_threads>, dim3(static_cast<unsigned>(wanted < wave ? wanted : wave)),
             fill_threads, 0, stream, begins, reinterpret_cast<const unsigned long long*>(ends));
    }
  } else if (is_csr(segments)) {
    launch_marking<mark_segments_kernel<Threads, SegmentsPerLane, WindowWords, MinBlocksPerSm, true, false, Offset>,
                   Threads>(segments, n, blocks, begins, ends, error, gaps_found, stream);
  } else {
    launch_marking<mark_segments_kernel<Threads, SegmentsPerLane, WindowWords, MinBlocksPerSm, false, false, Offset>,
                   Threads>(segments, n, blocks, begins, ends, error, gaps_found, stream);
  }
}

// Production's shape (segmented_scan_tuning_sweep's "marking" mode, docs/perf): runs of 256
// segments a warp, a window of 512 words (16 KiB of items: runs whose segments average up
// to 64 items), 58 registers for begin/end arrays (4 blocks per SM), 42 for CSR. (Gaps as
// heads on long segments: another shape, mark_offsets.)
template <class Offset, bool GapsAsHeads = false>
void launch_mark_segments(const segment_offsets<Offset>& segments, index_t n, std::uint32_t* begins,
                          std::uint32_t* ends, unsigned long long* error, unsigned* gaps_found,
                          cudaStream_t stream) {
  launch_mark_segments_shaped<256, 8, 512, 4, Offset, GapsAsHeads>(segments, n, begins, ends, error, gaps_found,
                                                                   stream);
}

// Whether a scan of `segments` marks their gap items as heads: inclusive scans of begin/end
// arrays whose gap items are copied (a one-item segment's inclusive scan is its input; its
// exclusive scan would be `init`), where the tuning asks for it.
template <class T, class Tuning, class Offset>
bool marks_gaps_as_heads(const segment_offsets<Offset>& segments, bool exclusive) {
  return segmented_scan_plan_for<T, Tuning>::tuning.copied_gaps_as_heads && !exclusive && !is_csr(segments) &&
         segments.gaps == gap_items::copied;
}

// Turns the error word into the exception a caller reads: the first bad segment, what is
// wrong with it, and the offsets involved (read back from the device).
template <class Offset>
[[noreturn]] void throw_segment_error(const segment_offsets<Offset>& segments, index_t n,
                                      unsigned long long encoded) {
  const unsigned long long x = ~encoded;
  const auto s = static_cast<index_t>(x >> 8);
  const auto problem = static_cast<segment_problem>(x & 0xff);
  Offset b{}, e{}, next{};
  ONEPASS_CUDA_TRY(cudaMemcpy(&b, segments.begin + s, sizeof(Offset), cudaMemcpyDefault));
  ONEPASS_CUDA_TRY(cudaMemcpy(&e, segments.end + s, sizeof(Offset), cudaMemcpyDefault));
  const std::string at = "[" + std::to_string(s) + "]";
  switch (problem) {
    case segment_problem::begin_out_of_range:
      throw invalid_argument("segments.begin", at + " is " + std::to_string(b) + ", outside [0, n = " +
                                                   std::to_string(n) + "]");
    case segment_problem::end_out_of_range:
      throw invalid_argument("segments.end", at + " is " + std::to_string(e) + ", outside [0, n = " +
                                                 std::to_string(n) + "]");
    case segment_problem::end_before_begin:
      throw invalid_argument("segments.end", at + " is " + std::to_string(e) + ", less than segments.begin" + at +
                                                 " = " + std::to_string(b));
    default:
      ONEPASS_CUDA_TRY(cudaMemcpy(&next, segments.begin + s + 1, sizeof(Offset), cudaMemcpyDefault));
      throw invalid_argument("segments.begin", "[" + std::to_string(s + 1) + "] is " + std::to_string(next) +
                                                   ", less than segments.end" + at + " = " + std::to_string(e) +
                                                   ": segments must be in order and must not overlap");
  }
}

// Waits for the marking kernel's error word (device memory, written on `stream`) and
// throws the first bad segment's error if it is set.
template <class Offset>
void throw_if_segment_error(const unsigned long long* error, const segment_offsets<Offset>& segments, index_t n,
                            cudaStream_t stream) {
  unsigned long long found = 0;
  ONEPASS_CUDA_TRY(cudaMemcpyAsync(&found, error, sizeof(found), cudaMemcpyDeviceToHost, stream));
  ONEPASS_CUDA_TRY(cudaStreamSynchronize(stream));
  if (found != 0) throw_segment_error(segments, n, found);
}

// Synchronous check of the offsets (a small kernel, then a wait on `stream`).
template <class Offset>
void check_segment_offsets_sync(const segment_offsets<Offset>& segments, index_t n, cudaStream_t stream) {
  check_count(n);
  check_segment_offsets_args(segments);
  check_segment_offsets_memory(segments);
  if (segments.count == 0) return;
  unsigned long long* error = nullptr;
  ONEPASS_CUDA_TRY(cudaMallocAsync(&error, sizeof(unsigned long long), stream));
  try {
    ONEPASS_CUDA_TRY(cudaMemsetAsync(error, 0, sizeof(unsigned long long), stream));
    launch_mark_segments(segments, n, nullptr, nullptr, error, nullptr, stream);
    throw_if_segment_error(error, segments, n, stream);
  } catch (...) {
    (void)cudaFreeAsync(error, stream);
    throw;
  }
  ONEPASS_CUDA_TRY(cudaFreeAsync(error, stream));
}

// The offsets form's workspace beyond the lookback's: the error word (in the counter's
// 16 bytes) and the bitmaps.
template <class T, class Tuning>
struct offsets_workspace {
  using plan = segmented_scan_plan_for<T, Tuning>;
  unsigned char* base;
  index_t n;
  unsigned long long* error() const { return reinterpret_cast<unsigned long long*>(base + 8); }
  std::uint32_t* begins() const { return reinterpret_cast<std::uint32_t*>(base + plan::workspace_bytes(n)); }
  std::uint32_t* ends() const { return begins() + plan::bitmap_bytes(n) / sizeof(std::uint32_t); }
  // After the ends bitmap: whether the marking set any of its bits (bitmap_heads).
  unsigned* gaps_found() const { return ends() + plan::bitmap_bytes(n) / sizeof(std::uint32_t); }
};

// The offsets form's first half: clear the workspace, check and mark the segments
// (requires n > 0 and segments.count > 0), for the scan scan_marked_offsets<exclusive>
// runs next. One bitmap for CSR offsets and for gaps marked as heads
// (marks_gaps_as_heads), two for other begin/end arrays. Gaps marked as heads take
// shorter runs on long segments where the tuning asks (gaps_as_heads_long_segment_items).
template <class T, class Tuning, class Offset>
void mark_offsets(const segment_offsets<Offset>& segments, index_t n, const workspace& ws, cudaStream_t stream,
                  bool exclusive) {
  using plan = segmented_scan_plan_for<T, Tuning>;
  const offsets_workspace<T, Tuning> w{static_cast<unsigned char*>(ws.data), n};
  const bool csr = is_csr(segments);
  const bool gaps_as_heads = marks_gaps_as_heads<T, Tuning>(segments, exclusive);
  // Gaps as heads: the long gaps' list, in the `ends` bitmap's place, has its count cleared.
  ONEPASS_CUDA_TRY(cudaMemsetAsync(w.base, 0,
                                   csr             ? plan::workspace_bytes(n) + plan::bitmap_bytes(n)
                                   : gaps_as_heads ? plan::workspace_bytes(n) + plan::bitmap_bytes(n) + 16
                                                   : plan::offsets_workspace_bytes(n),
                                   stream));
  constexpr tuning::segmented_scan_tuning tune = plan::tuning;
  if constexpr (tune.gaps_as_heads_long_segment_items > 0) {
    if (gaps_as_heads && n / segments.count >= tune.gaps_as_heads_long_segment_items) {
      constexpr int window = tune.gaps_as_heads_long_window_words;
      // Two bitmaps of the window a warp (the heads and the gaps' toggles): 32 KiB of
      // shared memory a block, as production's 256 threads at 512 words.
      static_assert(window == 512 || window == 1024 || window == 2048, "512, 1024 or 2048 words");
      constexpr int threads = 256 * 512 / window;
      launch_mark_segments_shaped<threads, tune.gaps_as_heads_long_segments_per_lane, window, 4, Offset, true>(
          segments, n, w.begins(), w.ends(), w.error(), nullptr, stream);
      return;
    }
  }
  if (gaps_as_heads)
    launch_mark_segments<Offset, true>(segments, n, w.begins(), w.ends(), w.error(), nullptr, stream);
  else
    launch_mark_segments(segments, n, w.begins(), csr ? nullptr : w.ends(), w.error(), csr ? nullptr : w.gaps_found(),
                         stream);
}

// The second half: the scan on the marked bitmaps. Bad offsets found by the marking make
// it write nothing.
template <bool Exclusive, class Tuning, class T, class Offset, class Op, class Delay>
void scan_marked_offsets(const T* in, index_t n, T* out, const segment_offsets<Offset>& segments, T init, Op op,
                         const workspace& ws, cudaStream_t stream, Delay delay) {
  const offsets_workspace<T, Tuning> w{static_cast<unsigned char*>(ws.data), n};
  const auto scan_with = [&](const auto& heads) {
    using heads_t = std::decay_t<decltype(heads)>;
    if (segments.gaps == gap_items::copied)
      segmented_scan_launch<Exclusive, Tuning>(in, n, out, gaps_copied<heads_t>{heads}, init, op, ws, stream, true,
                                               delay, segments.count);
    else
      segmented_scan_launch<Exclusive, Tuning>(in, n, out, heads, init, op, ws, stream, true, delay,
                                               segments.count);
  };
  if (is_csr(segments))
    scan_with(csr_bitmap_heads<Offset>{w.begins(), segments.begin, segments.begin + segments.count, w.error()});
  else if (marks_gaps_as_heads<T, Tuning>(segments, Exclusive))
    // Every item is in a segment now: the begins bitmap stands for both, so there is no gap
    // (b | b, b & ~b), and every item is written. `gaps_found` only chooses between the two
    // bitmaps, equal here: the error word stands in for it, as it is cleared too.
    segmented_scan_launch<Exclusive, Tuning>(
        in, n, out, bitmap_heads{w.begins(), w.begins(), w.error(), reinterpret_cast<const unsigned*>(w.error())},
        init, op, ws, stream, true, delay, segments.count);
  else
    scan_with(bitmap_heads{w.begins(), w.ends(), w.error(), w.gaps_found()});
}

// No segment at all: every item is in none. Copied gap items make out a copy of in;
// otherwise nothing is written.
template <class T, class Offset>
void scan_no_segments(const T* in, index_t n, T* out, const segment_offsets<Offset>& segments, cudaStream_t stream) {
  if (segments.gaps == gap_items::copied && in != out && n > 0)
    ONEPASS_CUDA_TRY(
        cudaMemcpyAsync(out, in, static_cast<std::size_t>(n) * sizeof(T), cudaMemcpyDeviceToDevice, stream));
}

// The offsets form's launch: clear the workspace, mark (and check) the segments, scan.
template <bool Exclusive, class Tuning = void, class T, class Offset, class Op, class Delay = no_delay>
void segmented_scan_offsets_launch(const T* in, index_t n, T* out, const segment_offsets<Offset>& segments, T init,
                                   Op op, const workspace& ws, cudaStream_t stream, Delay delay = {}) {
  if (segments.count == 0) return scan_no_segments(in, n, out, segments, stream);
  mark_offsets<T, Tuning>(segments, n, ws, stream, Exclusive);
  scan_marked_offsets<Exclusive, Tuning>(in, n, out, segments, init, op, ws, stream, delay);
}

template <class T, class Tuning = void, class Offset>
void check_segmented_scan_offsets(const T* in, index_t n, T* out, const segment_offsets<Offset>& segments) {
  check_segmented_scan_args<T, Tuning>(in, n, out);
  check_segment_offsets_args(segments);
}

template <bool Exclusive, class Tuning = void, class T, class Offset, class Op, class Delay = no_delay>
void segmented_scan_offsets_dispatch(const T* in, index_t n, T* out, const segment_offsets<Offset>& segments, T init,
                                     Op op, const workspace& ws, cudaStream_t stream, Delay delay = {},
                                     determinism d = determinism::not_guaranteed) {
  if constexpr (!std::is_integral_v<T>) {
    if (segmented_scan_in_fixed_order<T>(d))
      return segmented_scan_offsets_dispatch<Exclusive, deterministic_segmented_scan_tuning<T>>(
          in, n, out, segments, init, op, ws, stream, delay);
  }
  check_segmented_scan_offsets<T, Tuning>(in, n, out, segments);
  check_workspace(ws, segmented_scan_plan_for<T, Tuning>::offsets_workspace_bytes(n));
  check_segmented_scan_memory(in, n, out);
  check_segment_offsets_memory(segments);
  if (n == 0) return;
  segmented_scan_offsets_launch<Exclusive, Tuning>(in, n, out, segments, init, op, ws, stream, delay);
}

// Simple style: bad offsets throw before anything is written. The marking kernel checks
// them as it marks, so the call waits for its error word between marking and scanning
// (one pass over the offsets, not a separate checking pass before the marking).
template <bool Exclusive, class Tuning = void, class T, class Offset, class Op>
void segmented_scan_offsets_allocating(const T* in, index_t n, T* out, const segment_offsets<Offset>& segments,
                                       T init, Op op, cudaStream_t stream,
                                       determinism d = determinism::not_guaranteed) {
  if constexpr (!std::is_integral_v<T>) {
    if (segmented_scan_in_fixed_order<T>(d))
      return segmented_scan_offsets_allocating<Exclusive, deterministic_segmented_scan_tuning<T>>(in, n, out, segments,
                                                                                                 init, op, stream);
  }
  check_segmented_scan_offsets<T, Tuning>(in, n, out, segments);
  check_segmented_scan_memory(in, n, out);
  if (n == 0) {  // no workspace: the offsets must still all be [0, 0)
    check_segment_offsets_sync(segments, n, stream);
    return;
  }
  check_segment_offsets_memory(segments);
  if (segments.count == 0) return scan_no_segments(in, n, out, segments, stream);
  workspace ws{nullptr, segmented_scan_plan_for<T, Tuning>::offsets_workspace_bytes(n)};
  ONEPASS_CUDA_TRY(cudaMallocAsync(&ws.data, ws.bytes, stream));
  try {
    mark_offsets<T, Tuning>(segments, n, ws, stream, Exclusive);
    throw_if_segment_error(offsets_workspace<T, Tuning>{static_cast<unsigned char*>(ws.data), n}.error(), segments,
                           n, stream);
    scan_marked_offsets<Exclusive, Tuning>(in, n, out, segments, init, op, ws, stream, no_delay{});
  } catch (...) {
    (void)cudaFreeAsync(ws.data, stream);
    throw;
  }
  ONEPASS_CUDA_TRY(cudaFreeAsync(ws.data, stream));
}

}  // namespace onepass::detail
