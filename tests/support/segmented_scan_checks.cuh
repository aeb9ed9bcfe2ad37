// What the production segmented scan's tests share (test_segmented_scan.cu: the public
// API; test_segmented_scan_4byte.cu and _8byte.cu: the public API on every value type;
// test_segmented_scan_agents.cu: stalled tiles and the pipelined agent at every size; four
// files so that they compile in parallel): the sizes, the check and its label, the
// reference over a poisoned output, the tuning that runs the pipelined agent everywhere,
// and the three forms checked on one input (check_all_forms).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "onepass/segmented_scan.cuh"
#include "support/segmented_scan_reference.hpp"
#include "support/test_support.cuh"

namespace onepass::test {

// 0, 1, the warp edges, the tile edges, a few tiles, random sizes, and one large size.
template <class T>
std::vector<long long> segmented_sizes() {
  // Both agents' tiles: one tile per block, and the pipelined agent's.
  const long long tile = onepass::detail::segmented_scan_plan<T>::tile_items;
  const long long pipe = onepass::detail::segmented_scan_plan<T>::pipeline_tile_items;
  std::mt19937_64 rng(17);
  const auto random_size = [&rng] { return 1 + static_cast<long long>(rng() % 200000); };
  return capped_sorted_sizes({0, 1, 31, 32, 33, tile - 1, tile, tile + 1, 5 * tile + 7, pipe - 1, pipe, pipe + 1,
                              7 * pipe + 5, (1ll << 24) + 3, random_size(), random_size(), random_size()});
}

// The big size runs for a few distributions only (time); the rest see every other size.
inline bool worth_running(long long n, segment_distribution d) {
  return n < (1ll << 24) || d == segment_distribution::power_law || d == segment_distribution::all_1;
}

template <class T>
void expect_equal(const std::vector<T>& want, const std::vector<T>& got, const std::string& what) {
  ASSERT_EQ(want.size(), got.size()) << what;
  const std::string diff = first_difference(want, got);
  EXPECT_TRUE(diff.empty()) << what << ": " << diff;
}

template <class T>
std::string label(const char* form, long long n, segment_distribution d, kind k) {
  return std::string(form) + " " + type_name<T>() + " n=" + std::to_string(n) + " " + distribution_name(d) + " " +
         kind_name(k);
}

// The reference over begin/end ranges as a poisoned `out` must end: items in no segment
// keep device_buffer's poison (0xA5 bytes).
template <class T>
std::vector<T> reference_over_poison(const std::vector<T>& values, const std::vector<long long>& begin,
                                     const std::vector<long long>& end, kind k, T init) {
  std::vector<T> want(values.size());
  std::memset(want.data(), 0xA5, want.size() * sizeof(T));
  reference_segmented_scan(values, begin, end, k, init, plus{}, want);
  return want;
}

// The same where items in no segment hold the input: an in-place scan's result, and any
// scan's with gap_items::copied.
template <class T>
std::vector<T> reference_over_input(const std::vector<T>& values, const std::vector<long long>& begin,
                                    const std::vector<long long>& end, kind k, T init) {
  std::vector<T> want = values;
  reference_segmented_scan(values, begin, end, k, init, plus{}, want);
  return want;
}

// The dispatcher runs the pipelined agent (agent/segmented_scan_pipeline.cuh) only with
// several tiles per resident block, and only where the tuning row asks for it (4- and
// 8-byte values, scan by key included); this tuning runs it at every size for every form,
// with the row's pipeline shape, so that the tile edges, the partial last tile and a
// prologue with empty stages are exercised.
template <class T>
struct pipelined_everywhere {
  static constexpr tuning::segmented_scan_tuning value = [] {
    auto t = tuning::segmented_scan_tuning_for_size(sizeof(T));
    t.pipelined = true;
    t.pipeline_min_tiles_per_block = 0;
    return t;
  }();
};

// The default tuning with gaps marked as heads in runs of 256 segments a warp whatever
// the segments' lengths (tuning::segmented_scan_tuning's gaps_as_heads_long_segment_items
// at 0): the marking's shape before 2026-12-02, which production still takes where
// segments average fewer than 64 items (docs/perf/segmented_scan.md, "Runs of 32 adopted").
template <class T>
struct gaps_as_heads_runs_of_256 {
  static constexpr tuning::segmented_scan_tuning value = [] {
    auto t = tuning::default_segmented_scan_tuning<T>::value;
    t.gaps_as_heads_long_segment_items = 0;
    return t;
  }();
};

// Runs the three forms (flags, CSR offsets, keys) on one input, simple style, and checks
// each against the reference.
template <class T, class Op>
void check_all_forms(long long n, segment_distribution d, kind k, T init, Op op, std::uint64_t seed) {
  const auto values = random_vector<T>(n, seed);
  const auto offsets = csr_offsets(segment_lengths(d, n, seed + 1));
  const auto flags = head_flags_of(offsets, n);
  const auto keys = keys_of<int>(offsets, n, seed + 2);
  const auto want = reference_segmented_scan(values, flags, k, init, op);
  const bool exclusive = k == kind::exclusive;
  const index_t segments = static_cast<index_t>(offsets.size()) - 1;

  device_buffer<T> in(values), out(n);
  device_buffer<std::uint8_t> d_flags(flags);
  device_buffer<long long> d_offsets(offsets);
  device_buffer<int> d_keys(keys);

  if (exclusive) {
    segmented_exclusive_scan(in.get(), d_flags.get(), n, out.get(), init, op);
  } else {
    segmented_inclusive_scan(in.get(), d_flags.get(), n, out.get(), op);
  }
  ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  expect_equal(want, out.download(), label<T>("flags", n, d, k));

  out.poison();
  const auto csr = csr_segments(d_offsets.get(), segments);
  if (exclusive) {
    segmented_exclusive_scan(in.get(), n, csr, out.get(), init, op);
  } else {
    segmented_inclusive_scan(in.get(), n, csr, out.get(), op);
  }
  ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  expect_equal(want, out.download(), label<T>("offsets", n, d, k));

  out.poison();
  if (exclusive) {
    exclusive_scan_by_key(d_keys.get(), in.get(), n, out.get(), init, op);
  } else {
    inclusive_scan_by_key(d_keys.get(), in.get(), n, out.get(), op);
  }
  ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  expect_equal(want, out.download(), label<T>("keys", n, d, k));
}

}  // namespace onepass::test
