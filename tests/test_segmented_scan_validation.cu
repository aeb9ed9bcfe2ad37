// The segmented scan without a GPU: the argument checks that run before anything is
// enqueued (every form, both call styles, the gap_items choice, which calls mark copied gap
// items as one-item segments), the pair operator's associativity, the error
// word's encoding, the CSR window's store mask, which sources the pipelined agent takes,
// the warp_head_flags variant's passes as onepass-bench reports them, and the CPU
// reference and input generators the GPU tests and onepass-bench rely on.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <type_traits>
#include <vector>

#include "onepass/ladder/segmented_scan/registry.cuh"
#include "onepass/segmented_scan.cuh"
#include "support/cuda_call_counter.hpp"
#include "support/segmented_scan_reference.hpp"
#include "support/test_support.cuh"

namespace onepass::test {
namespace {

// Pointers are never dereferenced: every check below fails on the host first.
int* fake_out() { return reinterpret_cast<int*>(std::uintptr_t{1} << 20); }
const int* fake_in() { return reinterpret_cast<const int*>(std::uintptr_t{1} << 24); }
const std::uint8_t* fake_flags() { return reinterpret_cast<const std::uint8_t*>(std::uintptr_t{1} << 28); }

// No test of this suite makes a CUDA call: the fixture checks (support/cuda_call_counter.hpp).
using SegmentedScanValidation = no_cuda_calls;

TEST_F(SegmentedScanValidation, NullPointersNegativeCountsAndOverlaps) {
  const long long n = 1000;
  expect_rejected([&] { segmented_inclusive_scan(fake_in(), fake_flags(), -1, fake_out()); }, "n", "negative");
  expect_rejected([&] { segmented_inclusive_scan<int>(nullptr, fake_flags(), n, fake_out()); }, "in", "null");
  expect_rejected([&] { segmented_inclusive_scan(fake_in(), fake_flags(), n, static_cast<int*>(nullptr)); }, "out",
                  "null");
  expect_rejected([&] { segmented_inclusive_scan(fake_in(), static_cast<const std::uint8_t*>(nullptr), n, fake_out()); },
                  "head_flags", "null");
  // in and out overlapping without being equal.
  expect_rejected([&] { segmented_inclusive_scan(fake_in(), fake_flags(), n, const_cast<int*>(fake_in()) + 1); },
                  "out", "overlaps 'in'");
  // head flags or keys that the scan would overwrite.
  const auto* flags_in_out = reinterpret_cast<const std::uint8_t*>(fake_out());
  expect_rejected([&] { segmented_inclusive_scan(fake_in(), flags_in_out, n, fake_out()); }, "head_flags",
                  "overlaps 'out'");
  const int* keys_in_out = fake_out() + 10;
  expect_rejected([&] { inclusive_scan_by_key(keys_in_out, fake_in(), n, fake_out()); }, "keys", "overlaps 'out'");
  expect_rejected([&] { inclusive_scan_by_key(static_cast<const int*>(nullptr), fake_in(), n, fake_out()); }, "keys",
                  "null");
  // Misaligned values.
  const auto* odd = reinterpret_cast<const int*>(std::uintptr_t{(1u << 24) + 2});
  expect_rejected([&] { segmented_inclusive_scan(odd, fake_flags(), n, fake_out()); }, "in", "aligned");
}

TEST_F(SegmentedScanValidation, TooManyItems) {
  const long long too_many = onepass::detail::segmented_scan_plan<int>::max_items + 1;
  expect_rejected([&] { segmented_inclusive_scan(fake_in(), fake_flags(), too_many, fake_out()); }, "n",
                  "more than");
}

TEST_F(SegmentedScanValidation, SegmentOffsetsArguments) {
  const long long n = 1000;
  const long long* off = reinterpret_cast<const long long*>(std::uintptr_t{1} << 30);
  expect_rejected([&] { segmented_inclusive_scan(fake_in(), n, segment_offsets<long long>{off, off, -2}, fake_out()); },
                  "segments.count", "negative");
  expect_rejected(
      [&] { segmented_inclusive_scan(fake_in(), n, segment_offsets<long long>{nullptr, off, 5}, fake_out()); },
      "segments.begin", "null");
  expect_rejected(
      [&] { segmented_inclusive_scan(fake_in(), n, segment_offsets<long long>{off, nullptr, 5}, fake_out()); },
      "segments.end", "null");
  expect_rejected([&] { check_segment_offsets(segment_offsets<long long>{off, nullptr, 5}, n); }, "segments.end",
                  "null");
  // What becomes of items in no segment: one of the two gap_items values.
  const auto bad_gaps = static_cast<gap_items>(7);
  const segment_offsets<long long> bad{off, off + 1, 5, bad_gaps};
  expect_rejected([&] { segmented_inclusive_scan(fake_in(), n, bad, fake_out()); }, "segments.gaps", "neither");
  expect_rejected([&] { check_segment_offsets(bad, n); }, "segments.gaps", "neither");
  // csr_segments: end is begin + 1; gap items untouched unless asked.
  const auto csr = csr_segments(off, 7);
  EXPECT_EQ(csr.begin, off);
  EXPECT_EQ(csr.end, off + 1);
  EXPECT_EQ(csr.count, 7);
  EXPECT_EQ(csr.gaps, gap_items::untouched);
  EXPECT_EQ(csr_segments(off, 7, gap_items::copied).gaps, gap_items::copied);
  EXPECT_EQ((segment_offsets<long long>{off, off, 3}.gaps), gap_items::untouched);
}

// Which kernels may leave items of out unwritten: the offsets forms' sources, unless
// wrapped to copy their gap items.
TEST_F(SegmentedScanValidation, GapItemsCopiedSources) {
  using onepass::detail::bitmap_heads;
  using onepass::detail::csr_bitmap_heads;
  using onepass::detail::flag_heads;
  using onepass::detail::gaps_copied;
  using onepass::detail::heads_copy_gaps;
  using onepass::detail::heads_leave_gaps;
  static_assert(heads_leave_gaps<bitmap_heads>);
  static_assert(heads_leave_gaps<csr_bitmap_heads<long long>>);
  static_assert(!heads_leave_gaps<flag_heads<std::uint8_t>>);
  static_assert(!heads_leave_gaps<gaps_copied<bitmap_heads>>);
  static_assert(!heads_leave_gaps<gaps_copied<csr_bitmap_heads<int>>>);
  static_assert(heads_copy_gaps<gaps_copied<bitmap_heads>>::value);
  static_assert(!heads_copy_gaps<bitmap_heads>::value);
  // The wrapper keeps the source's kind of heads (and so its descriptors and kernels).
  static_assert(gaps_copied<bitmap_heads>::has_gaps && gaps_copied<bitmap_heads>::pipelined);
  static_assert(gaps_copied<csr_bitmap_heads<int>>::has_window && !gaps_copied<csr_bitmap_heads<int>>::has_gaps);
  SUCCEED();
}

// Which calls mark gap items as one-item segments (mark_segments_kernel's GapsAsHeads):
// inclusive scans of begin/end arrays whose gap items are copied, where the tuning asks
// for it; never exclusive scans (a one-item segment's would be init), CSR offsets (no
// gaps between segments) or untouched gap items (which must not be written).
template <class T>
struct copied_gaps_scanned_as_gaps {
  static constexpr tuning::segmented_scan_tuning value = [] {
    auto t = tuning::default_segmented_scan_tuning<T>::value;
    t.copied_gaps_as_heads = false;
    return t;
  }();
};

TEST_F(SegmentedScanValidation, GapsMarkedAsHeadsChoice) {
  using onepass::detail::marks_gaps_as_heads;
  const long long* b = reinterpret_cast<const long long*>(std::uintptr_t{1} << 20);
  const long long* e = reinterpret_cast<const long long*>(std::uintptr_t{1} << 21);
  const segment_offsets<long long> copied{b, e, 5, gap_items::copied};
  const segment_offsets<long long> untouched{b, e, 5};
  EXPECT_TRUE((marks_gaps_as_heads<int, void>(copied, false)));
  EXPECT_TRUE((marks_gaps_as_heads<double, void>(copied, false)));
  EXPECT_FALSE((marks_gaps_as_heads<int, void>(copied, true)));
  EXPECT_FALSE((marks_gaps_as_heads<int, void>(untouched, false)));
  EXPECT_FALSE((marks_gaps_as_heads<int, void>(csr_segments(b, 5, gap_items::copied), false)));
  EXPECT_FALSE((marks_gaps_as_heads<int, copied_gaps_scanned_as_gaps<int>>(copied, false)));
  static_assert(tuning::default_segmented_scan_tuning<float>::value.copied_gaps_as_heads);
}

// The long gaps' pieces (set_bit_ranges, set_listed_words_kernel) are listed in the `ends`
// bitmap's place: max_listed_pieces bounds them, and the list (a 16-byte count, then 16
// bytes a piece) fits there at every size where a gap can be listed. The bound itself,
// against the splits that come closest to it: one gap of all the words, and as many of
// the shortest gaps of two or three pieces (1025 and 2049 inner words) as fit.
TEST_F(SegmentedScanValidation, ListedGapPiecesFitInTheEndsBitmap) {
  using onepass::detail::listed_range_words;
  using onepass::detail::max_listed_pieces;
  using plan = onepass::detail::segmented_scan_plan<int>;
  for (long long n : {32 * listed_range_words + 1, 32 * listed_range_words + 4097, 1ll << 20, 300007ll,
                      (1ll << 28) + 5, (1ll << 33) + 31, (1ll << 40) + 12345}) {
    EXPECT_LE(16 + 16 * static_cast<std::size_t>(max_listed_pieces(n)), plan::bitmap_bytes(n)) << "n = " << n;
  }
  const auto pieces = [](long long words) { return onepass::detail::listed_pieces(words); };
  for (long long words = 0; words <= 40 * listed_range_words; words += 97) {
    const long long n = 32 * words;
    long long most = words > listed_range_words ? pieces(words) : 0;
    for (long long length : {listed_range_words + 1, 2 * listed_range_words + 1}) {
      if (words < length) continue;
      const long long gaps = words / length;
      most = std::max(most, gaps * pieces(length));
    }
    EXPECT_LE(most, max_listed_pieces(n)) << words << " inner words";
  }
}

TEST_F(SegmentedScanValidation, Workspace) {
  const long long n = 100000;
  const std::size_t need = segmented_scan_workspace_bytes<int>(n);
  EXPECT_GT(need, 0u);
  EXPECT_EQ(segmented_scan_workspace_bytes<int>(0), 0u);
  const auto segs = segment_offsets<long long>{};
  EXPECT_GE(segmented_scan_workspace_bytes<int>(n, segs), need + 2 * ((n + 31) / 32) * 4);
  auto* ws_ptr = reinterpret_cast<void*>(std::uintptr_t{1} << 32);
  expect_rejected([&] { segmented_inclusive_scan(fake_in(), fake_flags(), n, fake_out(), plus{}, workspace{nullptr, need}, nullptr); },
                  "workspace", "null");
  expect_rejected([&] { segmented_inclusive_scan(fake_in(), fake_flags(), n, fake_out(), plus{}, workspace{ws_ptr, need - 1}, nullptr); },
                  "workspace", "needs");
  expect_rejected([&] {
    inclusive_scan_by_key(fake_in(), fake_in(), n, fake_out(), plus{}, equal_to{}, workspace{ws_ptr, need - 1}, nullptr);
  }, "workspace", "needs");
  expect_rejected([&] {
    segmented_inclusive_scan(fake_in(), n, segs, fake_out(), plus{}, workspace{ws_ptr, need}, nullptr);
  }, "workspace", "needs");
  expect_rejected([&] {
    segmented_inclusive_scan(fake_in(), fake_flags(), n, fake_out(), plus{},
                             workspace{static_cast<char*>(ws_ptr) + 8, need}, nullptr);
  }, "workspace", "16-byte aligned");
}

// The pair operator is associative (exhaustively on small random triples, with the
// non-commutative affine maps as values) and restarts at heads.
TEST_F(SegmentedScanValidation, PairOperatorIsAssociative) {
  using pair = onepass::detail::segmented_value<affine>;
  const onepass::detail::segmented_op<compose> seg{compose{}};
  std::mt19937_64 rng(3);
  auto draw = [&] {
    return pair{affine{static_cast<std::uint32_t>(rng()) | 1u, static_cast<std::uint32_t>(rng())},
                static_cast<std::uint32_t>(rng() % 3)};
  };
  for (int i = 0; i < 10000; ++i) {
    const pair a = draw(), b = draw(), c = draw();
    const pair left = seg(seg(a, b), c), right = seg(a, seg(b, c));
    ASSERT_EQ(left.value, right.value);
    ASSERT_EQ(left.head, right.head);
  }
  const pair x{affine{3, 4}, 0}, h{affine{5, 6}, onepass::detail::gap_head};
  EXPECT_EQ(seg(x, h).value, (affine{5, 6}));
  EXPECT_EQ(seg(x, h).head, onepass::detail::gap_head);
  EXPECT_EQ(seg(h, x).head, onepass::detail::gap_head);
}

// Every form publishes the value alone (segment_descriptor): a lookback folds AGGREGATEs,
// which only tiles with no head publish, onto the nearest PREFIX, and there the pair
// operator and the value operator agree; the result's kind is the PREFIX's, which forms
// with gaps publish as the descriptor's tag. Checked on random walks with the
// non-commutative affine maps: the descriptors published through segment_descriptor,
// folded by lookback_window (which the warp lookback's fold matches) with the plain
// operator, the kind read back as the PREFIX's tag.
TEST_F(SegmentedScanValidation, HeadlessAggregatesFoldAsValues) {
  using onepass::detail::no_head;
  using onepass::lookback::tile_status;
  using pair = onepass::detail::segmented_value<affine>;
  using with_kind = onepass::detail::segment_descriptor<affine, true>;
  using value_only = onepass::detail::segment_descriptor<affine, false>;
  // Descriptor words: one per 4 bytes of the value, with or without the kind.
  static_assert(onepass::detail::segment_descriptor<int, true>::state::words_per_tile == 1);
  static_assert(onepass::detail::segment_descriptor<long long, true>::state::words_per_tile == 2);
  static_assert(std::is_same_v<with_kind::state, value_only::state>);

  const onepass::detail::segmented_op<compose> seg{compose{}};
  std::mt19937_64 rng(5);
  auto map = [&] { return affine{static_cast<std::uint32_t>(rng()) | 1u, static_cast<std::uint32_t>(rng())}; };
  for (int walk = 0; walk < 1000; ++walk) {
    // The nearest PREFIX (its tile held a head: segment or gap), then the AGGREGATEs of
    // the headless tiles after it, in tile order, then the tile looking back.
    const int aggregates = static_cast<int>(rng() % 12);
    const int tiles = aggregates + 2;
    for (const bool keeps_kind : {true, false}) {
      std::vector<onepass::lookback::descriptor_word> words(
          with_kind::state::bytes(tiles) / sizeof(onepass::lookback::descriptor_word), 0);
      const with_kind::state state(words.data());
      const std::uint32_t kind = rng() % 2 ? onepass::detail::segment_head : onepass::detail::gap_head;
      const auto publish = [&](int tile, tile_status s, const pair& p) {
        if (keeps_kind)
          with_kind::publish(state, tile, s, p);
        else
          value_only::publish(state, tile, s, p);
      };
      pair want{map(), kind};
      publish(0, tile_status::prefix, want);
      for (int t = 1; t <= aggregates; ++t) {
        const pair aggregate{map(), no_head};
        publish(t, tile_status::aggregate, aggregate);
        want = seg(want, aggregate);
      }
      ASSERT_EQ(onepass::lookback::lookback_window<4>(state, tiles - 1, compose{}), want.value);
      affine value{};
      std::uint32_t tag = 99;
      ASSERT_EQ(state.try_read(0, value, tag), tile_status::prefix);
      ASSERT_EQ(tag, keeps_kind ? kind : 0u) << "the kind rides as the PREFIX's tag, with gaps only";
      if (aggregates > 0) {
        ASSERT_EQ(state.try_read(1, value, tag), tile_status::aggregate);
        ASSERT_EQ(tag, static_cast<std::uint32_t>(no_head));
      }
    }
  }
}

// items_in_gaps (the bit-parallel form of the kernels' gap test) against the item-by-item
// rule: an item is in a gap when its last head at or before it begins a gap, or, with no
// head at or before it, when the seed comes from a gap. Every heads/gaps pattern of 8
// items, random ones of 1, 12, 16 and 32.
template <int N>
unsigned items_in_gaps_by_item(unsigned heads, unsigned gaps, bool seed_in_gap) {
  unsigned out = 0;
  bool in_gap = seed_in_gap;
  for (int i = 0; i < N; ++i) {
    if ((heads >> i) & 1u) in_gap = (gaps >> i) & 1u;
    out |= static_cast<unsigned>(in_gap) << i;
  }
  return out;
}

template <int N>
void check_items_in_gaps(unsigned heads, unsigned gaps) {
  for (const bool seed : {false, true})
    ASSERT_EQ(onepass::detail::items_in_gaps<N>(heads, gaps, seed), items_in_gaps_by_item<N>(heads, gaps, seed))
        << "N " << N << " heads " << std::hex << heads << " gaps " << gaps << " seed " << seed;
}

TEST_F(SegmentedScanValidation, ItemsInGapsMatchesTheItemByItemRule) {
  for (unsigned heads = 0; heads < 256; ++heads)
    for (unsigned gaps = heads;; gaps = (gaps - 1) & heads) {  // every subset of heads
      check_items_in_gaps<8>(heads, gaps);
      if (gaps == 0) break;
    }
  std::mt19937_64 rng(23);
  for (int i = 0; i < 20000; ++i) {
    const auto heads = static_cast<unsigned>(rng()), gaps = heads & static_cast<unsigned>(rng());
    // Sparse patterns too: long stretches between heads, where the rounds must carry far.
    const unsigned sparse = heads & static_cast<unsigned>(rng()) & static_cast<unsigned>(rng());
    check_items_in_gaps<1>(heads & 1u, gaps & 1u);
    check_items_in_gaps<12>(heads & 0xfffu, gaps & 0xfffu);
    check_items_in_gaps<16>(heads & 0xffffu, gaps & 0xffffu);
    check_items_in_gaps<32>(heads, gaps);
    check_items_in_gaps<32>(sparse, sparse & gaps);
    check_items_in_gaps<16>(sparse & 0xffffu, sparse & gaps & 0xffffu);
  }
}

TEST_F(SegmentedScanValidation, ErrorWordKeepsTheFirstBadSegment) {
  using onepass::detail::encode_segment_error;
  using onepass::detail::segment_problem;
  // atomicMax keeps the largest word: the lowest segment must win whatever its problem.
  EXPECT_GT(encode_segment_error(3, segment_problem::out_of_order), encode_segment_error(4, segment_problem::begin_out_of_range));
  EXPECT_GT(encode_segment_error(0, segment_problem::end_before_begin), encode_segment_error(1ll << 40, segment_problem::end_out_of_range));
  EXPECT_NE(encode_segment_error((1ll << 55) - 1, segment_problem::out_of_order), 0u);
  const unsigned long long x = ~encode_segment_error(12345, segment_problem::end_before_begin);
  EXPECT_EQ(x >> 8, 12345u);
  EXPECT_EQ(static_cast<segment_problem>(x & 0xff), segment_problem::end_before_begin);
}

// CSR offsets cover one window, [offsets[0], offsets[count]); the kernels write only the
// items inside it, using this mask of a thread's items outside it. Checked item by item
// against the definition, around both ends and for empty and whole windows.
template <int N>
void check_outside_window(std::mt19937_64& rng) {
  for (int trial = 0; trial < 20000; ++trial) {
    const index_t begin = static_cast<index_t>(rng() % 200);
    const index_t end = begin + static_cast<index_t>(rng() % 200);  // may be empty
    const index_t first = static_cast<index_t>(rng() % 450);
    const unsigned got = onepass::detail::outside_window<N>(first, begin, end);
    for (int i = 0; i < N; ++i) {
      const bool outside = first + i < begin || first + i >= end;
      ASSERT_EQ((got >> i) & 1u, outside ? 1u : 0u) << "N " << N << ", first " << first << ", item " << i
                                                      << ", window [" << begin << ", " << end << ")";
    }
    if constexpr (N < 32) ASSERT_EQ(got >> N, 0u) << "bits past the thread's items";
  }
  EXPECT_EQ(onepass::detail::outside_window<N>(64, 0, 1000), 0u);           // wholly inside
  EXPECT_EQ(onepass::detail::outside_window<N>(64, 64, 64 + N), 0u);        // exactly the window
  EXPECT_EQ(onepass::detail::outside_window<N>(64, 100, 100),               // empty window
            N == 32 ? ~0u : (1u << N) - 1u);
}

TEST_F(SegmentedScanValidation, OutsideWindowMask) {
  std::mt19937_64 rng(17);
  check_outside_window<1>(rng);
  check_outside_window<16>(rng);
  check_outside_window<32>(rng);
}

// Which sources the pipelined agent may take, and scan by key's register cap there: keys
// of up to 4 bytes wait in registers for a step (8-byte keys stay one tile per block); the
// production rows send scan by key through the pipeline at their own minimum of blocks
// per SM (4-byte values 3, where the flags' 4 spilled the keys; 8-byte values 4).
TEST_F(SegmentedScanValidation, ScanByKeyPipelineChoice) {
  using onepass::detail::flag_heads;
  using onepass::detail::is_key_heads;
  using onepass::detail::key_heads;
  static_assert(key_heads<int, equal_to>::pipelined);
  static_assert(key_heads<std::int16_t, equal_to>::pipelined);
  static_assert(key_heads<float, equal_to>::pipelined);
  static_assert(!key_heads<long long, equal_to>::pipelined);
  static_assert(!key_heads<double, equal_to>::pipelined);
  static_assert(is_key_heads<key_heads<int, equal_to>>);
  static_assert(!is_key_heads<flag_heads<std::uint8_t>>);
  constexpr auto four = tuning::default_segmented_scan_tuning<int>::value;
  constexpr auto eight = tuning::default_segmented_scan_tuning<double>::value;
  EXPECT_TRUE(four.pipelined);
  EXPECT_EQ(four.pipeline_min_blocks_per_sm, 4);
  EXPECT_EQ(four.pipeline_by_key_min_blocks_per_sm, 3);
  EXPECT_TRUE(eight.pipelined);
  EXPECT_EQ(eight.pipeline_min_blocks_per_sm, 4);
  EXPECT_EQ(eight.pipeline_by_key_min_blocks_per_sm, 4);
  // 16-byte values have no pipelined row.
  EXPECT_FALSE(tuning::segmented_scan_tuning_for_size(16).pipelined);
}

// When the offsets forms take the pipelined kernel's headless-tile path: heads (one a CSR
// segment, two a begin/end segment) at least the tuning's distance apart on average;
// production's distance is 4 pipeline tiles.
TEST_F(SegmentedScanValidation, HeadlessTilesChoice) {
  using onepass::detail::headless_tiles_pay;
  constexpr long long eight = tuning::default_segmented_scan_tuning<double>::value.pipeline_headless_min_segment_items;
  constexpr long long four = tuning::default_segmented_scan_tuning<int>::value.pipeline_headless_min_segment_items;
  EXPECT_EQ(eight, 4 * 128 * 16);
  EXPECT_EQ(four, 4 * 256 * 16);
  const index_t n = index_t{1} << 27;
  EXPECT_TRUE(headless_tiles_pay(n, 1, false, eight));  // one segment
  EXPECT_TRUE(headless_tiles_pay(n, 1, true, eight));
  EXPECT_TRUE(headless_tiles_pay(n, n / eight, false, eight));
  EXPECT_FALSE(headless_tiles_pay(n, n / eight + 1, false, eight));
  EXPECT_TRUE(headless_tiles_pay(n, n / (2 * eight), true, eight));  // begin/end: a gap may follow each
  EXPECT_FALSE(headless_tiles_pay(n, n / (2 * eight) + 1, true, eight));
  EXPECT_FALSE(headless_tiles_pay(n, n / 500, false, eight));  // uniform 1-1000 lengths
  EXPECT_FALSE(headless_tiles_pay(n, n / 32, false, four));    // with_empty: lengths 0-64
  EXPECT_FALSE(headless_tiles_pay(n, 0, false, eight));        // head flags, scan by key: no count
  EXPECT_FALSE(headless_tiles_pay(n, 1, false, 0));            // the tuning says never
  EXPECT_TRUE(headless_tiles_pay(5, 5, false, 1));              // one item a segment, distance 1
  EXPECT_FALSE(headless_tiles_pay(5, 6, false, 1));            // more segments than items (empty ones)
}

// The generators keep their promises: lengths sum to n, flags mark non-empty segments,
// keys differ across neighbouring segments, gaps stay in order.
// warp_head_flags moves the items before each 1024-item chunk's first head a second time
// (its carry pass), every chunk but the first; onepass-bench reports that as its passes.
TEST(SegmentedScanLadder, WarpHeadFlagsPassesCountTheItemsMovedTwice) {
  const auto passes = ladder::warp_head_flags::flags_passes;
  std::vector<std::uint8_t> flags(4096, 0);
  flags[0] = 1;  // one segment: chunks 1-3 are carried whole
  EXPECT_DOUBLE_EQ(passes(flags.data(), 4096), 1.0 + 3072.0 / 4096.0);
  std::fill(flags.begin(), flags.end(), std::uint8_t{1});  // every item a head: nothing carried
  EXPECT_DOUBLE_EQ(passes(flags.data(), 4096), 1.0);
  // Heads at 0 and 1100 of 2500: chunk 1 carries 1024..1099 (76 items), the partial chunk
  // 2048..2499 all of its 452.
  std::vector<std::uint8_t> two(2500, 0);
  two[0] = 1;
  two[1100] = 1;
  EXPECT_DOUBLE_EQ(passes(two.data(), 2500), 1.0 + 528.0 / 2500.0);
  // A single chunk has no carry pass; no items, no passes to speak of.
  EXPECT_DOUBLE_EQ(passes(two.data(), 1000), 1.0);
  EXPECT_DOUBLE_EQ(passes(two.data(), 0), 1.0);
  // Through the registry, as onepass-bench finds it; the production path moves every item once.
  const auto* v = ladder::find_segmented_scan<int, int, plus>("warp_head_flags");
  ASSERT_NE(v, nullptr);
  ASSERT_NE(v->flags_passes, nullptr);
  EXPECT_DOUBLE_EQ(v->flags_passes(flags.data(), 4096), 1.0);
  const auto* production = ladder::find_segmented_scan<int, int, plus>("onepass");
  ASSERT_NE(production, nullptr);
  EXPECT_EQ(production->flags_passes, nullptr);
}

TEST(SegmentedScanReference, GeneratorsKeepTheirPromises) {
  for (long long n : {1ll, 33ll, 5000ll, 100003ll})
    for (segment_distribution d : all_segment_distributions()) {
      const auto lengths = segment_lengths(d, n, 9);
      ASSERT_EQ(std::accumulate(lengths.begin(), lengths.end(), 0ll), n) << distribution_name(d);
      for (long long len : lengths) ASSERT_GE(len, d == segment_distribution::with_empty ? 0 : 1);
      const auto offsets = csr_offsets(lengths);
      const auto flags = head_flags_of(offsets, n);
      const auto keys = keys_of<int>(offsets, n, 10);
      EXPECT_EQ(head_flags_from_keys(keys), [&] {
        auto f = flags;
        f[0] = 1;
        return f;
      }()) << distribution_name(d);
      const auto gaps = with_gaps(offsets, 11);
      for (std::size_t s = 0; s < gaps.begin.size(); ++s) {
        ASSERT_LE(gaps.begin[s], gaps.end[s]);
        if (s + 1 < gaps.begin.size()) ASSERT_LE(gaps.end[s], gaps.begin[s + 1]);
      }
    }
  EXPECT_EQ(segment_lengths(segment_distribution::all_1, 5, 1), (std::vector<long long>{1, 1, 1, 1, 1}));
  EXPECT_EQ(segment_lengths(segment_distribution::one_segment, 5, 1), (std::vector<long long>{5}));
}

// The exercise from the material, on the CPU reference.
TEST(SegmentedScanReference, TheExerciseFromTheMaterial) {
  const std::vector<int> data{1, 2, 3, 4, 5, 6};
  const std::vector<std::uint8_t> heads{1, 0, 0, 1, 0, 1};
  EXPECT_EQ(reference_segmented_scan(data, heads, kind::inclusive, 0, plus{}), (std::vector<int>{1, 3, 6, 4, 9, 6}));
  EXPECT_EQ(reference_segmented_scan(data, heads, kind::exclusive, 0, plus{}), (std::vector<int>{0, 1, 3, 0, 4, 0}));
  std::vector<int> out(6, -1);
  reference_segmented_scan(data, std::vector<long long>{1, 4}, std::vector<long long>{3, 5}, kind::inclusive, 0,
                           plus{}, out);
  EXPECT_EQ(out, (std::vector<int>{-1, 2, 5, -1, 5, -1}));
}

}  // namespace
}  // namespace onepass::test
