// The production segmented scan's agents, below the public API (one binary with
// test_segmented_scan.cu, a file of its own so that the two compile in parallel): tiles
// stalled so that the lookback must wait for them, in both agents; the pipelined agent at
// every size for every form (head flags, keys of three widths, CSR and begin/end offsets
// with gaps, left alone or copied), its thread items scanned in groups, its headless tiles. Every result is
// compared exactly with the CPU reference, with the output poisoned before the call.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "onepass/segmented_scan.cuh"
#include "support/segmented_scan_checks.cuh"
#include "support/segmented_scan_reference.hpp"
#include "support/test_support.cuh"

namespace onepass::test {
namespace {

// --- stalled tiles ----------------------------------------------------------------------
// One segment (every tile looks back through stalled AGGREGATEs) and long segments (some
// tiles publish PREFIX at once, others wait): the launch alone, with stall_some_tiles,
// for head flags and for int32 keys, then the offsets form's dispatch with begin/end
// arrays with gaps.
template <class T, class Tuning = void>
void check_stalled(long long n, segment_distribution d, unsigned salt) {
  const auto values = random_vector<T>(n, salt);
  const auto offsets = csr_offsets(segment_lengths(d, n, salt + 1));
  const auto flags = head_flags_of(offsets, n);
  const auto want = reference_segmented_scan(values, flags, kind::inclusive, T{}, plus{});
  device_buffer<T> in(values), out(n);
  device_buffer<std::uint8_t> d_flags(flags);
  device_buffer<int> d_keys(keys_of<int>(offsets, n, salt + 2));
  using plan = onepass::detail::segmented_scan_plan_for<T, Tuning>;
  // Sized for the offsets form, the largest of the three (head flags and keys use its start).
  device_buffer<unsigned char> ws(static_cast<long long>(plan::offsets_workspace_bytes(n)));
  const workspace w{ws.get(), static_cast<std::size_t>(ws.size())};
  out.poison();
  onepass::detail::segmented_scan_launch<false, Tuning>(in.get(), n, out.get(),
                                                        onepass::detail::flag_heads<std::uint8_t>{d_flags.get()}, T{},
                                                        plus{}, w, nullptr, false, stall_some_tiles{salt});
  ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  expect_equal(want, out.download(), std::string("stalled ") + distribution_name(d));
  out.poison();
  onepass::detail::segmented_scan_launch<false, Tuning>(
      in.get(), n, out.get(), onepass::detail::key_heads<int, equal_to>{d_keys.get(), equal_to{}}, T{}, plus{}, w,
      nullptr, false, stall_some_tiles{salt});
  ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  expect_equal(want, out.download(), std::string("stalled by key ") + distribution_name(d));
  // Begin/end arrays with gaps: a gap's kind crosses tiles as the tag of their descriptors
  // (one trimmed segment leaves gaps many tiles long before and after it).
  const auto ranges = with_gaps(offsets, salt + 3);
  const auto want_gaps = reference_over_poison(values, ranges.begin, ranges.end, kind::inclusive, T{});
  device_buffer<long long> b(ranges.begin), e(ranges.end);
  const segment_offsets<long long> segs{b.get(), e.get(), static_cast<index_t>(ranges.begin.size())};
  out.poison();
  onepass::detail::segmented_scan_offsets_dispatch<false, Tuning>(in.get(), n, out.get(), segs, T{}, plus{}, w,
                                                                  nullptr, stall_some_tiles{salt});
  ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  expect_equal(want_gaps, out.download(), std::string("stalled begin/end with gaps ") + distribution_name(d));
}

TEST(SegmentedScanStress, StalledTilesAreWaitedFor) {
  ONEPASS_REQUIRE_GPU();
  const long long n = std::min<long long>(3000000, max_test_items());
  check_stalled<int>(n, segment_distribution::one_segment, 1);
  check_stalled<int>(n, segment_distribution::power_law, 2);
  check_stalled<double>(n, segment_distribution::one_segment, 3);
}

TEST(SegmentedScanStress, StalledTilesAreWaitedForByThePipelinedAgent) {
  ONEPASS_REQUIRE_GPU();
  const long long n = std::min<long long>(3000000, max_test_items());
  check_stalled<int, pipelined_everywhere<int>>(n, segment_distribution::one_segment, 4);
  check_stalled<int, pipelined_everywhere<int>>(n, segment_distribution::power_law, 5);
  check_stalled<double, pipelined_everywhere<double>>(n, segment_distribution::one_segment, 6);
  check_stalled<double, pipelined_everywhere<double>>(n, segment_distribution::uniform_1_1000, 7);
}

// --- the pipelined agent ----------------------------------------------------------------
// Head flags, scan by key (int32, 16-bit and 1-byte keys, held in registers for a step), CSR
// offsets and begin/end offsets with gaps through the pipelined agent at every size,
// inclusive and exclusive, workspace style.
template <class T, class Tuning = pipelined_everywhere<T>>
void check_pipelined(long long n, segment_distribution d, kind k, std::uint64_t seed) {
  using plan = onepass::detail::segmented_scan_plan<T, Tuning>;
  const bool exclusive = k == kind::exclusive;
  const T init = exclusive ? static_cast<T>(3) : T{};
  const auto values = random_vector<T>(n, seed);
  const auto offsets = csr_offsets(segment_lengths(d, n, seed + 1));
  const auto flags = head_flags_of(offsets, n);
  const auto want = reference_segmented_scan(values, flags, k, init, plus{});
  device_buffer<T> in(values), out(n);
  device_buffer<std::uint8_t> d_flags(flags);
  device_buffer<long long> d_offsets(offsets);
  device_buffer<unsigned char> ws(static_cast<long long>(plan::offsets_workspace_bytes(n)));
  const workspace w{ws.get(), static_cast<std::size_t>(ws.size())};
  const auto run = [&](auto&& call) {
    out.poison();
    fill_with_stale_descriptors(ws);  // the kernel or the memset must clear it
    if (exclusive)
      call(std::true_type{});
    else
      call(std::false_type{});
    ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  };

  run([&](auto ex) {
    onepass::detail::segmented_scan_dispatch<decltype(ex)::value, Tuning>(
        in.get(), n, out.get(), onepass::detail::flag_heads<std::uint8_t>{d_flags.get()}, init, plus{}, w, nullptr);
  });
  expect_equal(want, out.download(), label<T>("pipelined flags", n, d, k));

  // Scan by key: equal neighbours across the threads', warps' and tiles' edges (the key
  // before a lane's first item is its lower lane's last, or for lane 0 a load).
  device_buffer<int> d_keys(keys_of<int>(offsets, n, seed + 3));
  run([&](auto ex) {
    onepass::detail::segmented_scan_dispatch<decltype(ex)::value, Tuning>(
        in.get(), n, out.get(), onepass::detail::key_heads<int, equal_to>{d_keys.get(), equal_to{}}, init, plus{}, w,
        nullptr);
  });
  expect_equal(want, out.download(), label<T>("pipelined by key", n, d, k));
  device_buffer<short> d_short_keys(keys_of<short>(offsets, n, seed + 4));
  run([&](auto ex) {
    onepass::detail::segmented_scan_dispatch<decltype(ex)::value, Tuning>(
        in.get(), n, out.get(), onepass::detail::key_heads<short, equal_to>{d_short_keys.get(), equal_to{}}, init,
        plus{}, w, nullptr);
  });
  expect_equal(want, out.download(), label<T>("pipelined by 16-bit key", n, d, k));
  device_buffer<std::uint8_t> d_byte_keys(keys_of<std::uint8_t>(offsets, n, seed + 5));
  run([&](auto ex) {
    onepass::detail::segmented_scan_dispatch<decltype(ex)::value, Tuning>(
        in.get(), n, out.get(), onepass::detail::key_heads<std::uint8_t, equal_to>{d_byte_keys.get(), equal_to{}},
        init, plus{}, w, nullptr);
  });
  expect_equal(want, out.download(), label<T>("pipelined by 1-byte key", n, d, k));

  const auto csr = csr_segments(d_offsets.get(), static_cast<index_t>(offsets.size()) - 1);
  run([&](auto ex) {
    onepass::detail::segmented_scan_offsets_dispatch<decltype(ex)::value, Tuning>(in.get(), n, out.get(), csr, init,
                                                                                   plus{}, w, nullptr);
  });
  expect_equal(want, out.download(), label<T>("pipelined offsets", n, d, k));

  // Gaps: items in no segment keep the poison.
  const auto ranges = with_gaps(offsets, seed + 2);
  const auto want_gaps = reference_over_poison(values, ranges.begin, ranges.end, k, init);
  device_buffer<long long> b(ranges.begin), e(ranges.end);
  const segment_offsets<long long> segs{b.get(), e.get(), static_cast<index_t>(ranges.begin.size())};
  run([&](auto ex) {
    onepass::detail::segmented_scan_offsets_dispatch<decltype(ex)::value, Tuning>(in.get(), n, out.get(), segs, init,
                                                                                   plus{}, w, nullptr);
  });
  expect_equal(want_gaps, out.download(), label<T>("pipelined gaps", n, d, k));

  // In place: the items in gaps keep the input, items in segments get their scan though
  // the array they are read from is written a tile at a time around them.
  device_buffer<T> data(values);
  const auto want_in_place = reference_over_input(values, ranges.begin, ranges.end, k, init);
  fill_with_stale_descriptors(ws);
  if (exclusive)
    onepass::detail::segmented_scan_offsets_dispatch<true, Tuning>(data.get(), n, data.get(), segs, init, plus{}, w,
                                                                   nullptr);
  else
    onepass::detail::segmented_scan_offsets_dispatch<false, Tuning>(data.get(), n, data.get(), segs, init, plus{}, w,
                                                                    nullptr);
  ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  expect_equal(want_in_place, data.download(), label<T>("pipelined gaps in place", n, d, k));

  // Gap items copied from the input (gaps_copied): the in-place result, out of place, and
  // in place again.
  segment_offsets<long long> copied = segs;
  copied.gaps = gap_items::copied;
  run([&](auto ex) {
    onepass::detail::segmented_scan_offsets_dispatch<decltype(ex)::value, Tuning>(in.get(), n, out.get(), copied,
                                                                                   init, plus{}, w, nullptr);
  });
  expect_equal(want_in_place, out.download(), label<T>("pipelined gaps copied", n, d, k));
  data.upload(values);
  fill_with_stale_descriptors(ws);
  if (exclusive)
    onepass::detail::segmented_scan_offsets_dispatch<true, Tuning>(data.get(), n, data.get(), copied, init, plus{}, w,
                                                                   nullptr);
  else
    onepass::detail::segmented_scan_offsets_dispatch<false, Tuning>(data.get(), n, data.get(), copied, init, plus{},
                                                                    w, nullptr);
  ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  expect_equal(want_in_place, data.download(), label<T>("pipelined gaps copied in place", n, d, k));
}

template <class T>
class SegmentedScanPipelined : public ::testing::Test {};
using SegmentedScanPipelinedTypes = ::testing::Types<std::int32_t, float, long long, double>;
TYPED_TEST_SUITE(SegmentedScanPipelined, SegmentedScanPipelinedTypes);

TYPED_TEST(SegmentedScanPipelined, EveryDistributionAndSizeAgainstTheReference) {
  ONEPASS_REQUIRE_GPU();
  using T = TypeParam;
  std::uint64_t seed = 3000;
  for (long long n : segmented_sizes<T>())
    for (segment_distribution d : all_segment_distributions()) {
      if (!worth_running(n, d)) continue;
      check_pipelined<T>(n, d, kind::inclusive, ++seed);
      check_pipelined<T>(n, d, kind::exclusive, ++seed);
    }
}

// The pipelined agent's step A scanning a thread's items in groups of four
// (tuning::thread_scan_order::grouped, scan_thread_segments_grouped): every form through
// check_pipelined, and head flags with a non-commutative operator (the groups' carries
// must stay on the left). Production does so for double values in the offsets forms.
template <class T>
struct pipelined_grouped {
  static constexpr tuning::segmented_scan_tuning value = [] {
    auto t = pipelined_everywhere<T>::value;
    t.pipeline_thread_scan = tuning::thread_scan_order::grouped;
    return t;
  }();
};

TEST(SegmentedScanPipelined, ThreadItemsScannedInGroups) {
  using order = tuning::thread_scan_order;
  static_assert(tuning::default_segmented_scan_tuning<double>::value.pipeline_thread_scan ==
                    order::grouped_for_offsets &&
                    tuning::default_segmented_scan_tuning<long long>::value.pipeline_thread_scan == order::in_order &&
                    tuning::default_segmented_scan_tuning<float>::value.pipeline_thread_scan == order::in_order,
                "double values scan step A in groups in the offsets forms; the other types in order");
  ONEPASS_REQUIRE_GPU();
  std::uint64_t seed = 5000;
  for (long long n : {1ll, 33ll, 2047ll, 2049ll, 100003ll, 1000003ll}) {
    if (n > max_test_items()) continue;
    for (segment_distribution d : all_segment_distributions()) {
      check_pipelined<double, pipelined_grouped<double>>(n, d, kind::inclusive, ++seed);
      check_pipelined<double, pipelined_grouped<double>>(n, d, kind::exclusive, ++seed);
      check_pipelined<int, pipelined_grouped<int>>(n, d, kind::exclusive, ++seed);

      using Tuning = pipelined_grouped<affine>;
      using plan = onepass::detail::segmented_scan_plan<affine, Tuning>;
      const auto values = random_vector<affine>(n, ++seed);
      const auto flags = head_flags_of(csr_offsets(segment_lengths(d, n, ++seed)), n);
      device_buffer<affine> in(values), out(n);
      device_buffer<std::uint8_t> d_flags(flags);
      device_buffer<unsigned char> ws(static_cast<long long>(plan::workspace_bytes(n)));
      const workspace w{ws.get(), static_cast<std::size_t>(ws.size())};
      out.poison();
      onepass::detail::segmented_scan_dispatch<false, Tuning>(
          in.get(), n, out.get(), onepass::detail::flag_heads<std::uint8_t>{d_flags.get()}, affine{1, 0}, compose{},
          w, nullptr);
      ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
      expect_equal(reference_segmented_scan(values, flags, kind::inclusive, affine{1, 0}, compose{}), out.download(),
                   label<affine>("pipelined grouped, compose", n, d, kind::inclusive));
    }
  }
}

// The pipelined agent's headless-tile path (tuning::segmented_scan_tuning::
// pipeline_headless_min_segment_items): tiles in which no item begins a segment or a gap
// are reduced and scanned as plain values. Taken by the offsets forms wherever it can be
// (a distance of 1 item: Headless) or never, every form through check_pipelined, on
// long segments (one segment, power-law and uniform lengths: headless tiles inside
// segments and, with gaps, inside gaps many tiles long) beside short ones, and CSR
// offsets with a non-commutative operator (the headless tiles' value scan must keep the
// order). Production takes it where heads lie 4 pipeline tiles apart or more.
template <class T, bool Headless>
struct pipelined_headless {
  static constexpr tuning::segmented_scan_tuning value = [] {
    auto t = tuning::default_segmented_scan_tuning<T>::value;  // double: grouped in the offsets forms
    t.pipeline_min_tiles_per_block = 0;
    t.pipeline_headless_min_segment_items = Headless ? 1 : 0;
    return t;
  }();
};

TEST(SegmentedScanPipelined, HeadlessTilesScannedAsValues) {
  static_assert(tuning::default_segmented_scan_tuning<double>::value.pipeline_headless_min_segment_items == 8192 &&
                    tuning::default_segmented_scan_tuning<int>::value.pipeline_headless_min_segment_items == 16384,
                "production: heads 4 pipeline tiles apart");
  ONEPASS_REQUIRE_GPU();
  std::uint64_t seed = 6000;
  for (long long n : {1ll, 33ll, 2047ll, 2049ll, 4097ll, 100003ll, 1000003ll}) {
    if (n > max_test_items()) continue;
    for (segment_distribution d : {segment_distribution::one_segment, segment_distribution::power_law,
                                   segment_distribution::uniform_1_1000, segment_distribution::all_1}) {
      check_pipelined<double, pipelined_headless<double, true>>(n, d, kind::inclusive, ++seed);
      check_pipelined<double, pipelined_headless<double, true>>(n, d, kind::exclusive, ++seed);
      check_pipelined<long long, pipelined_headless<long long, true>>(n, d, kind::inclusive, ++seed);
      check_pipelined<int, pipelined_headless<int, true>>(n, d, kind::exclusive, ++seed);
      check_pipelined<float, pipelined_headless<float, false>>(n, d, kind::inclusive, ++seed);
      check_pipelined<long long, pipelined_headless<long long, false>>(n, d, kind::exclusive, ++seed);

      using Tuning = pipelined_headless<affine, true>;
      using plan = onepass::detail::segmented_scan_plan<affine, Tuning>;
      const auto values = random_vector<affine>(n, ++seed);
      const auto offsets = csr_offsets(segment_lengths(d, n, ++seed));
      device_buffer<affine> in(values), out(n);
      device_buffer<long long> d_offsets(offsets);
      device_buffer<unsigned char> ws(static_cast<long long>(plan::offsets_workspace_bytes(n)));
      const workspace w{ws.get(), static_cast<std::size_t>(ws.size())};
      out.poison();
      onepass::detail::segmented_scan_offsets_dispatch<false, Tuning>(
          in.get(), n, out.get(), csr_segments(d_offsets.get(), static_cast<index_t>(offsets.size()) - 1),
          affine{1, 0}, compose{}, w, nullptr);
      ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
      expect_equal(reference_segmented_scan(values, head_flags_of(offsets, n), kind::inclusive, affine{1, 0}, compose{}),
                   out.download(), label<affine>("pipelined headless CSR, compose", n, d, kind::inclusive));
    }
  }
}

}  // namespace
}  // namespace onepass::test
