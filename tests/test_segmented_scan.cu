// The production segmented scan through its public API: head flags (uint8 and bool), segment
// offsets (CSR and begin/end with gaps, empty segments; gap items left alone or copied
// from the input), scan by key; inclusive and
// exclusive; sum, max and a non-commutative operator; six arithmetic types; every segment
// length distribution; sizes 0, 1, the warp and tile edges, random sizes and 2^24 + 3;
// the 128-bit and the scalar path; in place; both call styles, a non-default stream,
// CUDA-graph capture; bad offsets (nothing written, a clear error). Every result is
// compared exactly with the CPU reference, with the output poisoned before the call.
// Every value type on every form, distribution and size (the typed suite):
// test_segmented_scan_4byte.cu and test_segmented_scan_8byte.cu. Stalled tiles and the
// pipelined agent at every size: test_segmented_scan_agents.cu.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "onepass/segmented_scan.cuh"
#include "support/segmented_scan_checks.cuh"
#include "support/segmented_scan_reference.hpp"
#include "support/test_support.cuh"

namespace onepass::test {
namespace {

// The order of operands matters: composition of affine maps is not commutative.
TEST(SegmentedScan, NonCommutativeOperator) {
  ONEPASS_REQUIRE_GPU();
  for (long long n : segmented_sizes<affine>()) {
    if (n > (1 << 22)) continue;
    for (segment_distribution d : all_segment_distributions()) {
      check_all_forms<affine>(n, d, kind::inclusive, affine{1, 0}, compose{}, 300 + n);
      check_all_forms<affine>(n, d, kind::exclusive, affine{3, 5}, compose{}, 400 + n);
    }
  }
}

// The exercise from the material: [1,2,3 | 4,5 | 6] -> [1,3,6, 4,9, 6].
TEST(SegmentedScan, TheExerciseFromTheMaterial) {
  ONEPASS_REQUIRE_GPU();
  device_buffer<int> in(std::vector<int>{1, 2, 3, 4, 5, 6}), out(6);
  device_buffer<std::uint8_t> flags(std::vector<std::uint8_t>{1, 0, 0, 1, 0, 1});
  segmented_inclusive_scan(in.get(), flags.get(), 6, out.get());
  EXPECT_EQ(out.download(), (std::vector<int>{1, 3, 6, 4, 9, 6}));
  out.poison();
  segmented_exclusive_scan(in.get(), flags.get(), 6, out.get(), 0);
  EXPECT_EQ(out.download(), (std::vector<int>{0, 1, 3, 0, 4, 0}));
}

// bool and int flags; item 0 begins a segment whatever its flag says.
TEST(SegmentedScan, OtherFlagTypesAndAnUnsetFirstFlag) {
  ONEPASS_REQUIRE_GPU();
  const long long n = std::min<long long>(100003, max_test_items());
  const auto values = random_vector<int>(n, 5);
  auto flags8 = head_flags_of(csr_offsets(segment_lengths(segment_distribution::all_32, n, 6)), n);
  flags8[0] = 0;
  const auto want = reference_segmented_scan(values, flags8, kind::inclusive, 0, plus{});
  std::vector<char> as_bool_bytes(flags8.begin(), flags8.end());
  std::vector<int> as_int(flags8.begin(), flags8.end());
  for (auto& f : as_int) f *= -7;  // any nonzero value is a head
  device_buffer<int> in(values), out(n);
  device_buffer<std::uint8_t> f8(flags8);
  device_buffer<int> fi(as_int);
  device_buffer<bool> fb(n);
  {
    std::vector<char> bytes(as_bool_bytes);
    ONEPASS_CHECK_CUDA(cudaMemcpy(fb.get(), bytes.data(), bytes.size(), cudaMemcpyHostToDevice));
  }
  segmented_inclusive_scan(in.get(), f8.get(), n, out.get());
  expect_equal(want, out.download(), "uint8 flags");
  out.poison();
  segmented_inclusive_scan(in.get(), fb.get(), n, out.get());
  expect_equal(want, out.download(), "bool flags");
  out.poison();
  segmented_inclusive_scan(in.get(), fi.get(), n, out.get());
  expect_equal(want, out.download(), "int flags");
}

// The simple-style offsets call of kind k (init for exclusive scans).
template <class T>
void scan_offsets(const T* in, long long n, const segment_offsets<long long>& segs, T* out, kind k, T init) {
  if (k == kind::exclusive)
    segmented_exclusive_scan(in, n, segs, out, init);
  else
    segmented_inclusive_scan(in, n, segs, out);
}

// begin/end offsets with gaps before, between and after the segments, empty segments:
// items in no segment keep what out held.
template <class T>
void check_gaps(long long n, segment_distribution d, kind k, std::uint64_t seed) {
  const auto values = random_vector<T>(n, seed);
  const auto ranges = with_gaps(csr_offsets(segment_lengths(d, n, seed + 1)), seed + 2);
  const auto want = reference_over_poison(values, ranges.begin, ranges.end, k, T{2});
  device_buffer<T> in(values), out(n);
  device_buffer<long long> b(ranges.begin), e(ranges.end);
  const segment_offsets<long long> segs{b.get(), e.get(), static_cast<index_t>(ranges.begin.size())};
  scan_offsets(in.get(), n, segs, out.get(), k, T{2});
  expect_equal(want, out.download(), label<T>("gaps", n, d, k));
}

TEST(SegmentedScan, OffsetsWithGapsLeaveUncoveredItemsAlone) {
  ONEPASS_REQUIRE_GPU();
  std::uint64_t seed = 900;
  for (long long n : segmented_sizes<int>()) {
    if (n > (1 << 22)) continue;
    for (segment_distribution d : all_segment_distributions()) {
      check_gaps<int>(n, d, kind::inclusive, ++seed);
      check_gaps<double>(n, d, kind::exclusive, ++seed);
    }
  }
}

// The same with segments.gaps = gap_items::copied: out is the input with each segment's
// scan in place of its items. Begin/end arrays (both agents: sizes up to 2^22), CSR
// offsets whose window leaves items before and after it, in place, the workspace style,
// and misaligned pointers (the one-tile kernel's scalar path).
template <class T>
void check_gaps_copied(long long n, segment_distribution d, kind k, std::uint64_t seed) {
  const auto values = random_vector<T>(n, seed);
  const auto offsets = csr_offsets(segment_lengths(d, n, seed + 1));
  const auto ranges = with_gaps(offsets, seed + 2);
  const T init{3};
  device_buffer<T> in(values), out(n);
  device_buffer<long long> b(ranges.begin), e(ranges.end);
  const segment_offsets<long long> segs{b.get(), e.get(), static_cast<index_t>(ranges.begin.size()),
                                        gap_items::copied};
  const auto want = reference_over_input(values, ranges.begin, ranges.end, k, init);
  scan_offsets(in.get(), n, segs, out.get(), k, init);
  expect_equal(want, out.download(), label<T>("gaps copied", n, d, k));

  // In place: the same result.
  device_buffer<T> data(values);
  scan_offsets(data.get(), n, segs, data.get(), k, init);
  expect_equal(want, data.download(), label<T>("gaps copied in place", n, d, k));

  // CSR offsets over the middle of the array: the window's edges are copied.
  const long long lo = n / 5, hi = n - n / 7;
  std::vector<long long> window = {lo};
  for (long long x : csr_offsets(segment_lengths(d, hi - lo, seed + 3)))
    if (x > 0) window.push_back(lo + x);
  if (window.size() == 1) window.push_back(lo);  // an empty window: one empty segment
  device_buffer<long long> d_window(window);
  const std::vector<long long> begins(window.begin(), window.end() - 1), ends(window.begin() + 1, window.end());
  out.poison();
  scan_offsets(in.get(), n, csr_segments(d_window.get(), static_cast<index_t>(begins.size()), gap_items::copied),
               out.get(), k, init);
  expect_equal(reference_over_input(values, begins, ends, k, init), out.download(),
               label<T>("CSR window, gaps copied", n, d, k));
}

TEST(SegmentedScan, OffsetsWithGapsCopiedFromTheInput) {
  ONEPASS_REQUIRE_GPU();
  std::uint64_t seed = 5100;
  for (long long n : segmented_sizes<int>()) {
    if (n > (1 << 22)) continue;
    for (segment_distribution d : all_segment_distributions()) {
      check_gaps_copied<int>(n, d, kind::inclusive, ++seed);
      check_gaps_copied<int>(n, d, kind::exclusive, ++seed);
      check_gaps_copied<double>(n, d, kind::inclusive, ++seed);
      check_gaps_copied<double>(n, d, kind::exclusive, ++seed);
    }
  }
}

// Copied gap items on the paths the test above does not reach: no segment at all (out
// becomes a copy of in; in place, nothing changes), the workspace style on a stream,
// misaligned values (scalar loads and stores), and 2^24 + 3 items (the pipelined agent
// under the production tuning).
TEST(SegmentedScan, GapsCopiedWithoutSegmentsUnalignedAndLarge) {
  ONEPASS_REQUIRE_GPU();
  {
    const long long n = std::min<long long>(70001, max_test_items());
    const auto values = random_vector<int>(n, 61);
    device_buffer<int> in(values), out(n);
    device_buffer<long long> off(std::vector<long long>{0});
    segmented_inclusive_scan(in.get(), n, csr_segments(off.get(), 0, gap_items::copied), out.get());
    expect_equal(values, out.download(), "no segment, simple style");
    out.poison();
    const auto none = csr_segments(off.get(), 0, gap_items::copied);
    device_buffer<unsigned char> ws(static_cast<long long>(segmented_scan_workspace_bytes<int>(n, none)));
    segmented_exclusive_scan(in.get(), n, none, out.get(), 5, plus{},
                             workspace{ws.get(), static_cast<std::size_t>(ws.size())}, nullptr);
    ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
    expect_equal(values, out.download(), "no segment, workspace style");
    segmented_inclusive_scan(in.get(), n, csr_segments(off.get(), 0, gap_items::copied), in.get());
    expect_equal(values, in.download(), "no segment, in place");
  }
  std::uint64_t seed = 6200;
  for (long long n : {(1ll << 20) + 9, (1ll << 24) + 3}) {
    if (n > max_test_items()) continue;
    for (segment_distribution d : {segment_distribution::all_32, segment_distribution::with_empty,
                                   segment_distribution::power_law, segment_distribution::one_segment}) {
      const auto values = random_vector<int>(n + 1, ++seed);
      const std::vector<int> body(values.begin() + 1, values.end());
      seed += 2;
      const auto ranges = with_gaps(csr_offsets(segment_lengths(d, n, seed)), seed + 1);
      device_buffer<long long> b(ranges.begin), e(ranges.end);
      const segment_offsets<long long> segs{b.get(), e.get(), static_cast<index_t>(ranges.begin.size()),
                                            gap_items::copied};
      const auto want = reference_over_input(body, ranges.begin, ranges.end, kind::exclusive, 9);
      device_buffer<int> in(values), out(n + 1);
      // Misaligned: items start 4 bytes into the allocations.
      segmented_exclusive_scan(in.get() + 1, n, segs, out.get() + 1, 9);
      auto got = out.download();
      got.erase(got.begin());
      expect_equal(want, got, label<int>("gaps copied, misaligned", n, d, kind::exclusive));
      // Aligned, the workspace style on a stream of its own.
      device_buffer<int> aligned_in(body), aligned_out(n);
      device_buffer<unsigned char> ws(static_cast<long long>(segmented_scan_workspace_bytes<int>(n, segs)));
      cudaStream_t stream;
      ONEPASS_CHECK_CUDA(cudaStreamCreate(&stream));
      segmented_exclusive_scan(aligned_in.get(), n, segs, aligned_out.get(), 9, plus{},
                               workspace{ws.get(), static_cast<std::size_t>(ws.size())}, stream);
      ONEPASS_CHECK_CUDA(cudaStreamSynchronize(stream));
      ONEPASS_CHECK_CUDA(cudaStreamDestroy(stream));
      expect_equal(want, aligned_out.download(), label<int>("gaps copied, workspace style", n, d, kind::exclusive));
    }
  }
}

// The offsets form's marking kernel works on runs of 256 segments a warp (2048 a block)
// and builds a run's bitmap words in the warp's shared-memory window when its items span
// at most 512 words (else it marks global memory directly). Segments of one length around
// that limit (64 items), and around one word, over a few blocks' worth: CSR offsets (read
// once) and the same boundaries as separate begin and end arrays.
TEST(SegmentedScan, OffsetsMarkingAcrossChunksAndSpans) {
  ONEPASS_REQUIRE_GPU();
  constexpr long long chunk = 2048;
  for (long long length : {1ll, 31ll, 32ll, 33ll, 63ll, 64ll, 65ll, 1000ll}) {
    const long long n = std::min<long long>(chunk * length * 5 / 2 + 17, max_test_items());
    const auto values = random_vector<int>(n, static_cast<std::uint64_t>(length));
    std::vector<long long> offsets;
    for (long long b = 0; b < n; b += length) offsets.push_back(b);
    offsets.push_back(n);
    const index_t count = static_cast<index_t>(offsets.size()) - 1;
    const auto want = reference_segmented_scan(values, head_flags_of(offsets, n), kind::inclusive, 0, plus{});
    device_buffer<int> in(values), out(n);
    device_buffer<long long> d_off(offsets);
    out.poison();
    segmented_inclusive_scan(in.get(), n, csr_segments(d_off.get(), count), out.get());
    expect_equal(want, out.download(), "CSR, segments of " + std::to_string(length));
    device_buffer<long long> b(std::vector<long long>(offsets.begin(), offsets.end() - 1));
    device_buffer<long long> e(std::vector<long long>(offsets.begin() + 1, offsets.end()));
    out.poison();
    segmented_inclusive_scan(in.get(), n, segment_offsets<long long>{b.get(), e.get(), count}, out.get());
    expect_equal(want, out.download(), "begin/end, segments of " + std::to_string(length));
  }
}

// The marking sets an `ends` bit only where a gap begins (bitmap_heads): never under a
// covered item, always on the first uncovered item after a covered one, none at all where
// the segments leave no gap (and then the word after the bitmap stays zero, so the
// pipelined scan reads the begins bitmap in its place). Marked for an inclusive scan whose
// gap items are copied, every gap item is a head in the begins bitmap alone, whether the
// warp's window, its global stores or (gaps of over listed_range_words words: one
// segment in the middle, and short segments between gaps of two and three pieces) the
// listed words' kernel set it (and gaps of 0 to 34 inner words at every alignment).
// Empty segments at a gap's start, inside a gap, between
// touching segments and at n; the scans' results on each.
TEST(SegmentedScan, OffsetsMarkEndsOnlyWhereGapsBegin) {
  ONEPASS_REQUIRE_GPU();
  using plan = onepass::detail::segmented_scan_plan<int>;
  struct layout {
    const char* name;
    std::vector<long long> begin, end;
    long long n;
  };
  std::vector<layout> layouts = {
      {"touching, empties between", {0, 5, 5, 5, 9}, {5, 5, 5, 9, 40}, 40},
      {"empty at a gap's start", {0, 5, 8}, {5, 5, 10}, 12},
      {"empty inside a gap", {0, 7, 9}, {5, 7, 12}, 12},
      {"leading empty, leading gap", {0, 3}, {0, 40}, 40},
      {"trailing empties at n", {0, 30, 40, 40}, {30, 40, 40, 40}, 40},
      {"trailing gap", {0, 20}, {20, 33}, 40},
  };
  // Random ones, touching and trimmed, with empty segments mixed in: segments of up to 2000
  // items (the marking's runs span more than a warp's window: atomics on global words)
  // and of up to 40 (runs marked in the window).
  for (long long longest : {2000ll, 40ll}) {
    const long long n = std::min<long long>(300007, max_test_items());
    std::mt19937_64 rng(static_cast<std::uint64_t>(longest));
    const auto longest_u = static_cast<std::uint64_t>(longest);
    std::vector<long long> offsets{0};
    while (offsets.back() < n) {
      const long long len = rng() % 5 == 0 ? 0 : 1 + static_cast<long long>(rng() % longest_u);
      offsets.push_back(std::min(n, offsets.back() + len));
    }
    const bool long_ones = longest == 2000;
    layouts.push_back({long_ones ? "random long, touching" : "random short, touching",
                       std::vector<long long>(offsets.begin(), offsets.end() - 1),
                       std::vector<long long>(offsets.begin() + 1, offsets.end()), n});
    const auto trimmed = with_gaps(offsets, static_cast<std::uint64_t>(longest) + 10);
    layouts.push_back({long_ones ? "random long, trimmed" : "random short, trimmed", trimmed.begin, trimmed.end, n});
  }
  {  // one segment in the middle: gaps of a third and a half of the items, before and after it
    const long long n = std::min<long long>(300007, max_test_items());
    layouts.push_back({"one segment, long gaps", {n / 3}, {n / 2}, n});
  }
  {  // short segments between long gaps whose inner words are a piece and one or two words,
     // two pieces less a word, three pieces, exactly one piece (not listed: the warp
     // stores it) and two pieces (each segment starts 7 items into a word and its gap ends
     // in the word after its own, so the next segment's start sets the inner words)
    const long long w = onepass::detail::listed_range_words;
    std::vector<long long> begin, end;
    long long at = 0;
    for (long long inner : {w + 1, w + 2, 2 * w - 1, 3 * w, w, 2 * w}) {
      begin.push_back(at);
      end.push_back(at + 39);  // the gap starts inside word at / 32 + 1
      at = (at / 32 + 2 + inner) * 32 + 7;  // inner words at / 32 + 2 ... at / 32 + 1 + inner
    }
    const long long n = at + 100;
    if (n <= max_test_items()) layouts.push_back({"short segments, gaps in pieces", begin, end, n});
  }
  {  // short segments between gaps of 0 to 34 inner words, their first inner word at every
     // word position in 16 bytes and their ends at many bit positions: runs spanning past
     // the window (the global path's stores of gap words)
    const long long most = 34;
    std::vector<long long> begin, end;
    long long at = 5;
    for (long long i = 0; i < 1200; ++i) {
      begin.push_back(at);
      end.push_back(at + 1 + i % 11);
      const long long inner = i % (most + 1), last_word = (end.back() - 1) / 32;
      // The gap's last (partly covered) word: last_word + 1 + inner, so its inner words are
      // last_word + 1 ... last_word + inner (where the segment's end is inside last_word).
      at = (last_word + 1 + inner) * 32 + 1 + (i * 13) % 31;
    }
    const long long n = at + 3;
    if (n <= max_test_items()) layouts.push_back({"short segments, short gaps at every alignment", begin, end, n});
  }
  for (const layout& l : layouts) {
    const long long n = l.n;
    const index_t count = static_cast<index_t>(l.begin.size());
    std::vector<char> covered(static_cast<std::size_t>(n), 0);
    for (index_t s = 0; s < count; ++s)
      for (long long i = l.begin[s]; i < l.end[s]; ++i) covered[i] = 1;
    const bool has_gap = std::find(covered.begin(), covered.end(), 0) != covered.end();
    device_buffer<long long> b(l.begin), e(l.end);
    const segment_offsets<long long> segs{b.get(), e.get(), count};
    device_buffer<unsigned char> ws(static_cast<long long>(plan::offsets_workspace_bytes(n)));
    const workspace w{ws.get(), static_cast<std::size_t>(ws.size())};
    onepass::detail::mark_offsets<int, void>(segs, n, w, nullptr, false);
    ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
    const onepass::detail::offsets_workspace<int, void> parts{ws.get(), n};
    const long long words = (n + 31) / 32;
    std::vector<std::uint32_t> ends(static_cast<std::size_t>(words));
    unsigned gaps_found = 0;
    ONEPASS_CHECK_CUDA(cudaMemcpy(ends.data(), parts.ends(), ends.size() * 4, cudaMemcpyDeviceToHost));
    ONEPASS_CHECK_CUDA(cudaMemcpy(&gaps_found, parts.gaps_found(), 4, cudaMemcpyDeviceToHost));
    bool any_end = false;
    for (long long i = 0; i < n; ++i) {
      const bool bit = (ends[i / 32] >> (i % 32)) & 1u;
      any_end |= bit;
      if (bit) EXPECT_FALSE(covered[i]) << l.name << ": an ends bit on covered item " << i;
      if (i > 0 && covered[i - 1] && !covered[i]) EXPECT_TRUE(bit) << l.name << ": no ends bit on gap item " << i;
    }
    EXPECT_EQ(gaps_found != 0, any_end) << l.name;
    if (!has_gap) EXPECT_FALSE(any_end) << l.name << ": ends bits without a gap";

    // Marked for an inclusive scan whose gap items are copied (marks_gaps_as_heads): the
    // begins bitmap alone, with a bit on every non-empty segment's first item and on every
    // item in no segment, and none past n. By production's shapes (runs of 32 segments a
    // warp where segments average 64 items or more, the tuning's
    // gaps_as_heads_long_segment_items; runs of 256 elsewhere) and by runs of 256 on every
    // layout.
    for (int runs_of_256 = 0; runs_of_256 < 2; ++runs_of_256) {
      const segment_offsets<long long> copied{b.get(), e.get(), count, gap_items::copied};
      ASSERT_TRUE((onepass::detail::marks_gaps_as_heads<int, void>(copied, false)));
      ASSERT_FALSE((onepass::detail::marks_gaps_as_heads<int, void>(copied, true)));
      if (runs_of_256)
        onepass::detail::mark_offsets<int, gaps_as_heads_runs_of_256<int>>(copied, n, w, nullptr, false);
      else
        onepass::detail::mark_offsets<int, void>(copied, n, w, nullptr, false);
      ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
      std::vector<std::uint32_t> heads(static_cast<std::size_t>(words));
      ONEPASS_CHECK_CUDA(cudaMemcpy(heads.data(), parts.begins(), heads.size() * 4, cudaMemcpyDeviceToHost));
      std::vector<char> first_item(static_cast<std::size_t>(n), 0);
      for (index_t s = 0; s < count; ++s)
        if (l.begin[s] < l.end[s]) first_item[l.begin[s]] = 1;
      long long wrong = -1;
      for (long long i = 0; i < words * 32 && wrong < 0; ++i) {
        const bool bit = (heads[i / 32] >> (i % 32)) & 1u;
        if (bit != (i < n && (!covered[i] || first_item[i]))) wrong = i;
      }
      EXPECT_EQ(wrong, -1) << l.name << ": gaps as heads" << (runs_of_256 ? ", runs of 256" : "")
                           << ", the first wrong bit";
    }

    // The scans: the public call (one tile per block at these sizes) and the pipelined
    // agent, whose blocks read the begins word in the ends word's place where no gap is.
    const auto values = random_vector<int>(n, 77);
    device_buffer<int> in(values), out(n);
    for (int exclusive = 0; exclusive < 2; ++exclusive) {
      const kind k = exclusive ? kind::exclusive : kind::inclusive;
      const auto want = reference_over_poison(values, l.begin, l.end, k, exclusive ? 3 : 0);
      out.poison();
      if (exclusive)
        segmented_exclusive_scan(in.get(), n, segs, out.get(), 3, plus{}, w, nullptr);
      else
        segmented_inclusive_scan(in.get(), n, segs, out.get(), plus{}, w, nullptr);
      ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
      expect_equal(want, out.download(), std::string(l.name) + (exclusive ? ", exclusive" : ", inclusive"));
      out.poison();
      if (exclusive)
        onepass::detail::segmented_scan_offsets_dispatch<true, pipelined_everywhere<int>>(in.get(), n, out.get(), segs,
                                                                                         3, plus{}, w, nullptr);
      else
        onepass::detail::segmented_scan_offsets_dispatch<false, pipelined_everywhere<int>>(in.get(), n, out.get(),
                                                                                          segs, 0, plus{}, w, nullptr);
      ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
      expect_equal(want, out.download(),
                   std::string(l.name) + (exclusive ? ", exclusive" : ", inclusive") + ", pipelined");
    }
    // Gap items copied, inclusive (gaps marked as heads), both agents.
    const segment_offsets<long long> copied{b.get(), e.get(), count, gap_items::copied};
    const auto want_copied = reference_over_input(values, l.begin, l.end, kind::inclusive, 0);
    out.poison();
    segmented_inclusive_scan(in.get(), n, copied, out.get(), plus{}, w, nullptr);
    ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
    expect_equal(want_copied, out.download(), std::string(l.name) + ", inclusive, gaps copied");
    out.poison();
    onepass::detail::segmented_scan_offsets_dispatch<false, pipelined_everywhere<int>>(in.get(), n, out.get(), copied,
                                                                                      0, plus{}, w, nullptr);
    ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
    expect_equal(want_copied, out.download(), std::string(l.name) + ", inclusive, gaps copied, pipelined");
  }
}

// The marking loads a lane's 8 offsets as 16-byte vectors only where the array is 16-byte
// aligned and the lane's run lies before the count; otherwise offset by offset. 8- and
// 4-byte offsets, arrays at a 16-byte boundary and one element past it, counts that end a
// lane's and a warp's run part way; begin/end arrays with gaps and CSR offsets.
template <class Offset>
void check_offset_loads(const std::vector<int>& values, const std::vector<long long>& offsets,
                        const begin_end& ranges, const std::string& what) {
  const long long n = static_cast<long long>(values.size());
  const index_t count = static_cast<index_t>(ranges.begin.size());
  const std::vector<long long> csr_begin(offsets.begin(), offsets.end() - 1), csr_end(offsets.begin() + 1, offsets.end());
  const auto want_csr = reference_over_poison(values, csr_begin, csr_end, kind::inclusive, 0);
  const auto want_gaps = reference_over_poison(values, ranges.begin, ranges.end, kind::inclusive, 0);
  // Each array as given (cudaMalloc'd: 16-byte aligned) and behind one leading element
  // (starting 4 or 8 bytes past a 16-byte boundary).
  auto as_offsets = [](const std::vector<long long>& v, int lead) {
    std::vector<Offset> r(v.size() + static_cast<std::size_t>(lead), Offset{0});
    for (std::size_t i = 0; i < v.size(); ++i) r[i + static_cast<std::size_t>(lead)] = static_cast<Offset>(v[i]);
    return r;
  };
  device_buffer<int> in(values), out(n);
  for (int lead : {0, 1}) {
    device_buffer<Offset> d_off(as_offsets(offsets, lead)), d_begin(as_offsets(ranges.begin, lead)),
        d_end(as_offsets(ranges.end, lead));
    const std::string label = what + (lead ? ", arrays one element past 16 bytes" : ", aligned arrays") + ", " +
                              std::to_string(sizeof(Offset)) + "-byte offsets";
    out.poison();
    segmented_inclusive_scan(in.get(), n, csr_segments(d_off.get() + lead, count), out.get());
    expect_equal(want_csr, out.download(), "CSR, " + label);
    out.poison();
    segmented_inclusive_scan(in.get(), n, segment_offsets<Offset>{d_begin.get() + lead, d_end.get() + lead, count},
                             out.get());
    expect_equal(want_gaps, out.download(), "begin/end with gaps, " + label);
  }
}

// The listed words' kernel on its own: more pieces than its warps (one block of two, so
// each warp strides over the list), pieces of 1 to listed_range_words words at every
// alignment (the bitmap 0 to 3 words past a 16-byte boundary), adjacent pieces; every
// listed word becomes all ones and no other word is touched.
TEST(SegmentedScan, ListedWordsKernelSetsEveryPieceAndNothingElse) {
  ONEPASS_REQUIRE_GPU();
  const long long w = onepass::detail::listed_range_words;
  const long long words = 40 * w;
  std::mt19937_64 rng(5);
  std::vector<unsigned long long> list{0, 0};
  std::vector<char> listed(static_cast<std::size_t>(words), 0);
  const long long lengths[] = {1, 2, 3, 4, 5, w - 1, w, 7, 0};  // 0: a random length
  for (long long at = 3, piece = 0; piece < 37; ++piece) {
    long long length = lengths[piece % 9];
    if (length == 0) length = 1 + static_cast<long long>(rng() % static_cast<std::uint64_t>(w));
    ASSERT_LE(at + length, words);
    list.push_back(static_cast<unsigned long long>(at));
    list.push_back(static_cast<unsigned long long>(at + length - 1));
    for (long long i = at; i < at + length; ++i) listed[static_cast<std::size_t>(i)] = 1;
    at += length + (rng() % 3 == 0 ? 0 : 1 + static_cast<long long>(rng() % 70));  // some pieces touch
  }
  list[0] = (list.size() - 2) / 2;
  ASSERT_GT(list[0], 32u);
  device_buffer<unsigned long long> d_list(list);
  device_buffer<std::uint32_t> bitmap(words + 4);
  for (int lead = 0; lead < 4; ++lead) {
    const std::vector<std::uint32_t> before = random_vector<std::uint32_t>(words + 4, 11 + lead);
    bitmap.upload(before);
    onepass::detail::set_listed_words_kernel<64><<<1, 64>>>(bitmap.get() + lead, d_list.get());
    ONEPASS_CHECK_CUDA(cudaGetLastError());
    ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
    const auto after = bitmap.download();
    long long wrong = -1;
    for (long long i = 0; i < words + 4 && wrong < 0; ++i) {
      const long long word = i - lead;  // the kernel's word index
      const bool set = word >= 0 && word < words && listed[static_cast<std::size_t>(word)];
      if (after[static_cast<std::size_t>(i)] != (set ? ~0u : before[static_cast<std::size_t>(i)])) wrong = i;
    }
    EXPECT_EQ(wrong, -1) << "the bitmap " << lead << " words past 16 bytes: the first wrong word";
  }
}

TEST(SegmentedScan, OffsetsOfEveryWidthAndAlignment) {
  ONEPASS_REQUIRE_GPU();
  std::uint64_t seed = 5200;
  for (long long n : {1ll, 300ll, 70001ll, (1ll << 20) + 3}) {
    if (n > max_test_items()) continue;
    for (segment_distribution d :
         {segment_distribution::all_1, segment_distribution::with_empty, segment_distribution::uniform_1_1000}) {
      const auto offsets = csr_offsets(segment_lengths(d, n, ++seed));
      const auto ranges = with_gaps(offsets, ++seed);
      const auto values = random_vector<int>(n, ++seed);
      const std::string what = std::string(distribution_name(d)) + ", n = " + std::to_string(n);
      check_offset_loads<long long>(values, offsets, ranges, what);
      check_offset_loads<unsigned>(values, offsets, ranges, what);
    }
  }
}

// CSR offsets that do not cover the array: the items before the first boundary and from
// the last one on are in no segment and keep what out held. CSR input takes a head source
// of its own (one bitmap, the trailing gap read from the last boundary), so this runs it
// at sizes that reach both agents, with empty segments at both ends too.
TEST(SegmentedScan, CsrOffsetsWithLeadingAndTrailingGaps) {
  ONEPASS_REQUIRE_GPU();
  std::uint64_t seed = 4100;
  for (long long n : {1ll, 2ll, 33ll, 5000ll, (1ll << 20) + 7, (1ll << 23) + 5}) {
    if (n > max_test_items()) continue;
    for (kind k : {kind::inclusive, kind::exclusive}) {
      std::mt19937_64 rng(++seed);
      const long long lo = static_cast<long long>(rng() % static_cast<std::uint64_t>(n / 8 + 1));
      const long long hi = n - static_cast<long long>(rng() % static_cast<std::uint64_t>(n / 8 + 1));
      // lo, boundaries of uniform_1_1000 segments inside [lo, hi), hi; an empty segment
      // at each end.
      std::vector<long long> offsets = {lo, lo};
      for (long long b : csr_offsets(segment_lengths(segment_distribution::uniform_1_1000, hi - lo, ++seed)))
        if (b > 0) offsets.push_back(lo + b);
      offsets.push_back(hi);
      const auto values = random_vector<long long>(n, ++seed);
      const std::vector<long long> begins(offsets.begin(), offsets.end() - 1), ends(offsets.begin() + 1, offsets.end());
      const auto want = reference_over_poison(values, begins, ends, k, 7ll);
      device_buffer<long long> in(values), out(n);
      device_buffer<long long> d_off(offsets);
      const auto csr = csr_segments(d_off.get(), static_cast<index_t>(offsets.size()) - 1);
      out.poison();
      if (k == kind::exclusive)
        segmented_exclusive_scan(in.get(), n, csr, out.get(), 7ll);
      else
        segmented_inclusive_scan(in.get(), n, csr, out.get());
      expect_equal(want, out.download(), label<long long>("CSR with gaps", n, segment_distribution::uniform_1_1000, k));
      // int32 values too: the 4-byte row's tiles and agent choice differ.
      const auto values32 = random_vector<int>(n, ++seed);
      const auto want32 = reference_over_poison(values32, begins, ends, k, 7);
      device_buffer<int> in32(values32), out32(n);
      out32.poison();
      if (k == kind::exclusive)
        segmented_exclusive_scan(in32.get(), n, csr, out32.get(), 7);
      else
        segmented_inclusive_scan(in32.get(), n, csr, out32.get());
      expect_equal(want32, out32.download(), label<int>("CSR with gaps", n, segment_distribution::uniform_1_1000, k));
    }
  }
}

// 32-bit unsigned offsets, and no segment at all (nothing written).
TEST(SegmentedScan, OffsetTypesAndNoSegments) {
  ONEPASS_REQUIRE_GPU();
  const long long n = std::min<long long>(77777, max_test_items());
  const auto values = random_vector<float>(n, 11);
  const auto offsets = csr_offsets(segment_lengths(segment_distribution::uniform_1_1000, n, 12));
  const auto want = reference_segmented_scan(values, head_flags_of(offsets, n), kind::inclusive, 0.f, plus{});
  device_buffer<float> in(values), out(n);
  device_buffer<unsigned> d_off(std::vector<unsigned>(offsets.begin(), offsets.end()));
  segmented_inclusive_scan(in.get(), n, csr_segments(d_off.get(), static_cast<index_t>(offsets.size()) - 1),
                           out.get());
  expect_equal(want, out.download(), "uint32 offsets");
  out.poison();
  segmented_inclusive_scan(in.get(), n, csr_segments(d_off.get(), 0), out.get());
  EXPECT_EQ(first_written(out.download()), "");
}

// Misaligned values and keys take the scalar path.
TEST(SegmentedScan, UnalignedPointersTakeTheScalarPath) {
  ONEPASS_REQUIRE_GPU();
  const long long n = std::min<long long>(200001, max_test_items());
  const auto values = random_vector<int>(n + 1, 21);
  const auto offsets = csr_offsets(segment_lengths(segment_distribution::power_law, n, 22));
  const auto keys = keys_of<long long>(offsets, n, 23);
  std::vector<int> body(values.begin() + 1, values.end());
  const auto want = reference_segmented_scan(body, head_flags_of(offsets, n), kind::inclusive, 0, plus{});
  device_buffer<int> in(values), out(n + 1);
  std::vector<long long> keys_shifted(keys.size() + 1, 0);
  std::copy(keys.begin(), keys.end(), keys_shifted.begin() + 1);
  device_buffer<long long> d_keys(keys_shifted);
  inclusive_scan_by_key(d_keys.get() + 1, in.get() + 1, n, out.get() + 1);
  auto got = out.download();
  got.erase(got.begin());
  expect_equal(want, got, "unaligned by key");
}

TEST(SegmentedScan, InPlace) {
  ONEPASS_REQUIRE_GPU();
  const long long n = std::min<long long>((1 << 20) + 9, max_test_items());
  const auto values = random_vector<long long>(n, 31);
  const auto offsets = csr_offsets(segment_lengths(segment_distribution::uniform_1_1000, n, 32));
  const auto flags = head_flags_of(offsets, n);
  device_buffer<long long> data(values);
  device_buffer<std::uint8_t> d_flags(flags);
  segmented_exclusive_scan(data.get(), d_flags.get(), n, data.get(), 1ll);
  expect_equal(reference_segmented_scan(values, flags, kind::exclusive, 1ll, plus{}), data.download(), "in place");
}

// A custom key equality: keys equal when they agree modulo 10.
struct same_last_digit {
  ONEPASS_HD bool operator()(int a, int b) const { return (a % 10 + 10) % 10 == (b % 10 + 10) % 10; }
};

TEST(SegmentedScan, ByKeyWithACustomEquality) {
  ONEPASS_REQUIRE_GPU();
  const long long n = std::min<long long>(123457, max_test_items());
  std::mt19937_64 rng(41);
  std::vector<int> keys(static_cast<std::size_t>(n));
  for (auto& k : keys) k = static_cast<int>(rng() % 4) * 10 + static_cast<int>(rng() % 2);  // last digit 0 or 1
  std::vector<std::uint8_t> heads(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) heads[i] = i == 0 || !same_last_digit{}(keys[i - 1], keys[i]);
  const auto values = random_vector<unsigned>(n, 42);
  device_buffer<int> d_keys(keys);
  device_buffer<unsigned> in(values), out(n);
  inclusive_scan_by_key(d_keys.get(), in.get(), n, out.get(), plus{}, same_last_digit{});
  expect_equal(reference_segmented_scan(values, heads, kind::inclusive, 0u, plus{}), out.download(), "custom eq");
}

TEST(SegmentedScan, WorkspaceStyleOnAStreamAndInAGraph) {
  ONEPASS_REQUIRE_GPU();
  const long long n = std::min<long long>(1000003, max_test_items());
  const auto values = random_vector<int>(n, 51);
  const auto offsets = csr_offsets(segment_lengths(segment_distribution::all_32, n, 52));
  const auto flags = head_flags_of(offsets, n);
  const auto keys = keys_of<int>(offsets, n, 53);
  const auto want = reference_segmented_scan(values, flags, kind::inclusive, 0, plus{});
  device_buffer<int> in(values), out(n), d_keys(keys);
  device_buffer<std::uint8_t> d_flags(flags);
  device_buffer<long long> d_off(offsets);
  const auto csr = csr_segments(d_off.get(), static_cast<index_t>(offsets.size()) - 1);
  const std::size_t bytes =
      std::max(segmented_scan_workspace_bytes<int>(n), segmented_scan_workspace_bytes<int>(n, csr));
  EXPECT_GE(segmented_scan_workspace_bytes<int>(n, csr), segmented_scan_workspace_bytes<int>(n));
  EXPECT_EQ(segmented_scan_workspace_bytes<int>(0), 0u);
  device_buffer<unsigned char> ws(static_cast<long long>(bytes));
  cudaStream_t stream;
  ONEPASS_CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  // Two calls in a row on the same workspace.
  segmented_inclusive_scan(in.get(), d_flags.get(), n, out.get(), plus{}, workspace{ws.get(), bytes}, stream);
  inclusive_scan_by_key(d_keys.get(), in.get(), n, out.get(), plus{}, equal_to{}, workspace{ws.get(), bytes}, stream);
  ONEPASS_CHECK_CUDA(cudaStreamSynchronize(stream));
  expect_equal(want, out.download(), "workspace style, two calls");

  out.poison();
  cudaGraph_t graph;
  ONEPASS_CHECK_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  segmented_inclusive_scan(in.get(), n, csr, out.get(), plus{}, workspace{ws.get(), bytes}, stream);
  ONEPASS_CHECK_CUDA(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec;
  ONEPASS_CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  for (int i = 0; i < 2; ++i) {
    ONEPASS_CHECK_CUDA(cudaGraphLaunch(exec, stream));
    ONEPASS_CHECK_CUDA(cudaStreamSynchronize(stream));
    expect_equal(want, out.download(), "graph launch");
    out.poison();
  }
  ONEPASS_CHECK_CUDA(cudaGraphExecDestroy(exec));
  ONEPASS_CHECK_CUDA(cudaGraphDestroy(graph));
  ONEPASS_CHECK_CUDA(cudaStreamDestroy(stream));
}

// Bad offsets: the simple style throws (naming the segment) and writes nothing; the
// workspace style writes nothing; check_segment_offsets says what is wrong.
TEST(SegmentedScan, BadOffsetsAreReportedAndNothingIsWritten) {
  ONEPASS_REQUIRE_GPU();
  const long long n = 1000;
  device_buffer<int> in(random_vector<int>(n, 61)), out(n);
  struct bad_case {
    std::vector<long long> begin, end;
    const char* argument;
    const char* fragment;
  };
  const std::vector<bad_case> cases = {
      {{-1, 10, 20}, {10, 20, 30}, "segments.begin", "[0] is -1, outside [0, n = 1000]"},
      {{0, 10, 20}, {10, 20, 1001}, "segments.end", "[2] is 1001, outside [0, n = 1000]"},
      {{0, 10, 20}, {10, 5, 30}, "segments.end", "[1] is 5, less than segments.begin[1] = 10"},
      {{0, 10, 15}, {10, 20, 30}, "segments.begin", "[2] is 15, less than segments.end[1] = 20"},
  };
  device_buffer<unsigned char> ws(
      static_cast<long long>(segmented_scan_workspace_bytes<int>(n, segment_offsets<long long>{})));
  for (const auto& c : cases) {
    device_buffer<long long> b(c.begin), e(c.end);
    const segment_offsets<long long> segs{b.get(), e.get(), 3};
    expect_rejected([&] { segmented_inclusive_scan(in.get(), n, segs, out.get()); }, c.argument, c.fragment);
    expect_rejected([&] { check_segment_offsets(segs, n); }, c.argument, c.fragment);
    segmented_inclusive_scan(in.get(), n, segs, out.get(), plus{}, workspace{ws.get(), static_cast<std::size_t>(ws.size())},
                             nullptr);
    ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
    EXPECT_EQ(first_written(out.download()), "") << c.fragment;
  }
  // CSR offsets (one array, which the marking kernel reads once and checks by a chain of
  // comparisons) get the same reports; the last case has bad segments in two runs of 256
  // segments and must name the first.
  struct csr_case {
    std::vector<long long> offsets;
    const char* argument;
    const char* fragment;
  };
  std::vector<long long> long_run(4097);
  for (std::size_t i = 0; i < long_run.size(); ++i) long_run[i] = static_cast<long long>(i) / 8;
  long_run[3001] = 0;  // segment 3000 ends before it begins
  long_run[2600] = 1;  // segment 2599 too: the first bad one
  const std::vector<csr_case> csr_cases = {
      {{-1, 10, 20, 30}, "segments.begin", "[0] is -1, outside [0, n = 1000]"},
      {{0, 10, 20, 1001}, "segments.end", "[2] is 1001, outside [0, n = 1000]"},
      {{0, 10, 5, 30}, "segments.end", "[1] is 5, less than segments.begin[1] = 10"},
      {long_run, "segments.end", "[2599] is 1, less than segments.begin[2599] = 324"},
  };
  for (const auto& c : csr_cases) {
    device_buffer<long long> d_off(c.offsets);
    const auto segs = csr_segments(d_off.get(), static_cast<index_t>(c.offsets.size()) - 1);
    out.poison();
    expect_rejected([&] { segmented_inclusive_scan(in.get(), n, segs, out.get()); }, c.argument, c.fragment);
    expect_rejected([&] { check_segment_offsets(segs, n); }, c.argument, c.fragment);
    segmented_inclusive_scan(in.get(), n, segs, out.get(), plus{}, workspace{ws.get(), static_cast<std::size_t>(ws.size())},
                             nullptr);
    ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
    EXPECT_EQ(first_written(out.download()), "") << c.fragment;
  }
}

TEST(SegmentedScan, HostMemoryIsRejected) {
  ONEPASS_REQUIRE_GPU();
  const long long n = 100;
  std::vector<int> host(n, 1);
  std::vector<std::uint8_t> host_flags(n, 1);
  device_buffer<int> in(host), out(n);
  device_buffer<std::uint8_t> flags(host_flags);
  expect_rejected([&] { segmented_inclusive_scan(host.data(), flags.get(), n, out.get()); }, "in", "host memory");
  expect_rejected([&] { segmented_inclusive_scan(in.get(), host_flags.data(), n, out.get()); }, "head_flags",
                  "host memory");
  expect_rejected([&] { inclusive_scan_by_key(host.data(), in.get(), n, out.get()); }, "keys", "host memory");
  EXPECT_EQ(first_written(out.download()), "");
}

TEST(SegmentedScan, MoreThan2To31Items) {
  ONEPASS_REQUIRE_GPU();
  const long long n = (1ll << 31) + 1000;
  if (n > max_test_items()) GTEST_SKIP() << "ONEPASS_TEST_MAX_N caps sizes below 2^31";
  std::size_t free_bytes = 0, total = 0;
  ONEPASS_CHECK_CUDA(cudaMemGetInfo(&free_bytes, &total));
  if (free_bytes < static_cast<std::size_t>(n) * 9 + (1ull << 30))
    GTEST_SKIP() << "needs ~20 GB of free GPU memory, " << (free_bytes >> 20) << " MiB free";
  // Values of 1 and a head every 2^20 items: out[i] = i % 2^20 + 1 (checked on a sample
  // of items, on the host, in chunks).
  int* values = nullptr;
  int* out = nullptr;
  std::uint8_t* flags = nullptr;
  ONEPASS_CHECK_CUDA(cudaMalloc(&values, n * sizeof(int)));
  ONEPASS_CHECK_CUDA(cudaMalloc(&out, n * sizeof(int)));
  ONEPASS_CHECK_CUDA(cudaMalloc(&flags, n));
  const std::vector<int> ones(1 << 24, 1);
  std::vector<std::uint8_t> pattern(1 << 24, 0);
  for (std::size_t i = 0; i < pattern.size(); i += 1 << 20) pattern[i] = 1;
  for (long long at = 0; at < n; at += 1 << 24) {
    const long long len = std::min<long long>(1 << 24, n - at);
    ONEPASS_CHECK_CUDA(cudaMemcpy(values + at, ones.data(), len * sizeof(int), cudaMemcpyHostToDevice));
    ONEPASS_CHECK_CUDA(cudaMemcpy(flags + at, pattern.data(), len, cudaMemcpyHostToDevice));
  }
  segmented_inclusive_scan(values, flags, n, out);
  ONEPASS_CHECK_CUDA(cudaGetLastError());
  ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<int> chunk(4096);
  const long long sample_at[] = {0ll, (1ll << 30) + 77, n - 4096};  // the last crosses 2^31
  for (long long at : sample_at) {
    SCOPED_TRACE("sample at item " + std::to_string(at));
    ONEPASS_CHECK_CUDA(cudaMemcpy(chunk.data(), out + at, chunk.size() * sizeof(int), cudaMemcpyDeviceToHost));
    for (std::size_t i = 0; i < chunk.size(); ++i)
      ASSERT_EQ(chunk[i], static_cast<int>((at + static_cast<long long>(i)) % (1 << 20)) + 1) << "item " << at + i;
  }
  cudaFree(values);
  cudaFree(out);
  cudaFree(flags);
}

}  // namespace
}  // namespace onepass::test
