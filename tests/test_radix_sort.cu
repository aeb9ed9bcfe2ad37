// The production radix sort through its public API: keys and pairs, both call styles,
// the double-buffer style, the sorting permutation, every key type, both orders, bit
// ranges, key distributions (floats with -0.0, infinities and NaNs), in place, several
// portions (a test tuning with tiny portions), stalled tiles that the per-digit lookback
// must wait for, and CUDA-graph capture. Exact against std::stable_sort on the ordered
// bit patterns; values carry each key's original index, so stability is checked too.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <ostream>
#include <random>

#include "onepass/radix_sort.cuh"
#include "support/radix_sort_reference.hpp"
#include "support/reference.hpp"
#include "support/test_support.cuh"

namespace onepass::test {
namespace {

using detail::keys_only;

using dist = key_distribution;

// The stable sorting permutation of `keys` on ordered bits [begin, end), as 32-bit
// indices (the values the tests sort along).
template <class Key>
std::vector<std::uint32_t> reference_permutation(const std::vector<Key>& keys, bool descending, int begin, int end) {
  const auto order = reference_radix_sort_order(keys, descending, begin, end);
  return std::vector<std::uint32_t>(order.begin(), order.end());
}

template <class T>
std::vector<T> permuted(const std::vector<T>& v, const std::vector<std::uint32_t>& order) {
  return apply_permutation(v, std::vector<std::uint64_t>(order.begin(), order.end()));
}

// A tuning with portions of four tiles, so small inputs run the multi-portion path.
template <class Key, class Value>
struct tiny_portions {
  static constexpr tuning::radix_sort_tuning value = [] {
    tuning::radix_sort_tuning t = tuning::default_radix_sort_tuning<Key, Value>::value;
    t.portion_items = 4ll * t.onesweep_tile_items();
    return t;
  }();
};

// One sort of `keys` (pairs with the original index as value when WithValues) through
// the copy-style dispatcher with Tuning, checked against the reference.
template <class Key, bool WithValues, class Tuning = void, class Delay = detail::no_delay>
void check_sort(const std::vector<Key>& keys, radix_sort_options options, bool in_place, bool workspace_style,
                Delay delay = {}) {
  using Value = std::conditional_t<WithValues, std::uint32_t, keys_only>;
  const long long n = static_cast<long long>(keys.size());
  const bool descending = options.order == sort_order::descending;
  const int end = options.end_bit < 0 ? detail::radix_key<Key>::bits : options.end_bit;
  const auto order = reference_permutation(keys, descending, options.begin_bit, end);
  std::vector<std::uint32_t> index(keys.size());
  std::iota(index.begin(), index.end(), 0u);

  device_buffer<Key> in(keys), out(n + 1);
  device_buffer<std::uint32_t> vin(index), vout(n + 1);
  if (in_place) {
    ONEPASS_CHECK_CUDA(cudaMemcpy(out.get(), in.get(), n * sizeof(Key), cudaMemcpyDeviceToDevice));
    ONEPASS_CHECK_CUDA(cudaMemcpy(vout.get(), vin.get(), n * sizeof(std::uint32_t), cudaMemcpyDeviceToDevice));
  }
  const Key* src = in_place ? out.get() : in.get();
  const std::uint32_t* vsrc = in_place ? vout.get() : vin.get();
  using plan = detail::radix_sort_plan_for<Key, Value, Tuning>;
  device_buffer<unsigned char> ws(workspace_style ? static_cast<long long>(plan::workspace_bytes(n, false)) : 0);
  const workspace w{ws.get(), ws.bytes()};
  if constexpr (WithValues)
    detail::radix_sort_copy_dispatch<Tuning>(src, out.get(), vsrc, vout.get(), n, options,
                                             workspace_style ? &w : nullptr, nullptr, delay);
  else
    detail::radix_sort_copy_dispatch<Tuning, Key, keys_only>(src, out.get(), nullptr, nullptr, n, options,
                                                             workspace_style ? &w : nullptr, nullptr, delay);
  ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  const auto got = out.download(n + 1);
  EXPECT_EQ(first_written(got, static_cast<std::size_t>(n)), "") << "wrote past keys_out";
  EXPECT_EQ(first_difference(permuted(keys, order), std::vector<Key>(got.begin(), got.begin() + n)), "") << "keys";
  if (!in_place) EXPECT_EQ(first_difference(keys, in.download()), "") << "keys_in was modified";
  if constexpr (WithValues) {
    const auto got_values = vout.download(n);
    EXPECT_EQ(first_difference(order, got_values), "") << "values (the original indices: stability)";
  }
}

// Pairs sorted through Tuning (void: production) with values of type V made from each
// key's original index, the input values starting `value_offset` items into their
// allocation; keys and values checked against the reference, partial last tiles included.
template <class Key, class V, class Tuning, class MakeValue>
void check_value_path(long long n, MakeValue make_value, int value_offset = 0) {
  SCOPED_TRACE(std::string(type_name<Key>()) + " n=" + std::to_string(n) + " value bytes " +
               std::to_string(sizeof(V)) + " value offset " + std::to_string(value_offset));
  const auto keys = make_sort_keys<Key>(n, dist::random, 31 + n);
  std::vector<V> values(keys.size());
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = make_value(i);
  const auto order = reference_permutation(keys, false, 0, detail::radix_key<Key>::bits);
  device_buffer<Key> kin(keys), kout(n);
  device_buffer<V> vin(n + value_offset), vout(n);
  ONEPASS_CHECK_CUDA(cudaMemcpy(vin.get() + value_offset, values.data(), n * sizeof(V), cudaMemcpyHostToDevice));
  detail::radix_sort_copy_dispatch<Tuning>(kin.get(), kout.get(), vin.get() + value_offset, vout.get(), n, {},
                                           nullptr, nullptr);
  ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  EXPECT_EQ(first_difference(permuted(keys, order), kout.download()), "") << "keys";
  EXPECT_EQ(first_difference(permuted(values, order), vout.download()), "") << "values";
}

// The small-, tiny-, medium- and plain-sort shapes of Key's sorts (keys alone unless
// Value): what the public calls sort smaller inputs with.
template <class Key, class Value = keys_only>
using small_shape = tuning::radix_small_sort_tuning<tuning::default_radix_sort_tuning<Key, Value>>;
template <class Key, class Value = keys_only>
using tiny_shape = tuning::radix_tiny_sort_tuning<tuning::default_radix_sort_tuning<Key, Value>>;
template <class Key, class Value = keys_only>
using medium_shape = tuning::radix_medium_sort_tuning<tuning::default_radix_sort_tuning<Key, Value>>;
template <class Key, class Value = keys_only>
using plain_shape = tuning::radix_plain_sort_tuning<tuning::default_radix_sort_tuning<Key, Value>>;

template <class Key>
std::vector<long long> sort_sizes() {
  const long long tile = detail::radix_sort_plan<Key, keys_only>::tile_items;
  const long long small = small_shape<Key>::value.onesweep_tile_items();
  const long long tiny = tiny_shape<Key>::value.onesweep_tile_items();
  return capped_sorted_sizes({0, 1, 31, 32, 33, 255, 256, 257, tiny - 1, tiny, tiny + 1, small - 1, small, small + 1,
                              3 * small + 7, tile - 1, tile, tile + 1, 3 * tile + 7, 65537, 300001});
}

template <class Key>
class RadixSortPublic : public ::testing::Test {};
using KeyTypes = ::testing::Types<unsigned, int, float, unsigned long long, long long, double>;
TYPED_TEST_SUITE(RadixSortPublic, KeyTypes);

// Every size with random keys, keys alone and pairs, both orders, both call styles.
TYPED_TEST(RadixSortPublic, EverySizeBothOrdersKeysAndPairs) {
  ONEPASS_REQUIRE_GPU();
  using Key = TypeParam;
  for (long long n : sort_sizes<Key>()) {
    const auto keys = make_sort_keys<Key>(n, dist::random, 100 + n);
    for (sort_order o : {sort_order::ascending, sort_order::descending}) {
      SCOPED_TRACE(std::string(type_name<Key>()) + " n=" + std::to_string(n) +
                   (o == sort_order::descending ? " descending" : " ascending"));
      check_sort<Key, false>(keys, {o}, false, n % 2 == 0);
      check_sort<Key, true>(keys, {o}, false, n % 2 == 1);
    }
  }
}

// Every distribution, with bit ranges that leave whole and partial digits (one pass of
// fewer than 8 bits, an odd number of passes, an empty range), in place or not.
TYPED_TEST(RadixSortPublic, DistributionsBitRangesInPlace) {
  ONEPASS_REQUIRE_GPU();
  using Key = TypeParam;
  constexpr int width = detail::radix_key<Key>::bits;
  const radix_sort_options ranges[] = {{sort_order::ascending, 0, -1},
                                       {sort_order::descending, 0, 8},
                                       {sort_order::ascending, 4, 20},
                                       {sort_order::descending, 3, width - 5},
                                       {sort_order::ascending, width - 1, width},
                                       {sort_order::ascending, 7, 7}};
  const long long n = std::min(max_test_items(), 70001ll);
  for (dist d : all_key_distributions) {
    const auto keys = make_sort_keys<Key>(n, d, 7 + static_cast<int>(d));
    for (const auto& r : ranges) {
      for (bool in_place : {false, true}) {
        SCOPED_TRACE(std::string(type_name<Key>()) + " " + key_distribution_name(d) + " bits [" + std::to_string(r.begin_bit) +
                     ", " + std::to_string(r.end_bit) + ")" + (in_place ? " in place" : ""));
        check_sort<Key, true>(keys, r, in_place, in_place);
      }
    }
  }
}

// Production's large tiles named as the tuning (no small-sort switch) at the sizes the
// public calls now sort with the small shape: partial tiles, one tile, several.
TYPED_TEST(RadixSortPublic, LargeTilesAtSmallSizes) {
  ONEPASS_REQUIRE_GPU();
  using Key = TypeParam;
  using keys_tuning = tuning::default_radix_sort_tuning<Key, keys_only>;
  using pairs_tuning = tuning::default_radix_sort_tuning<Key, std::uint32_t>;
  for (long long n : sort_sizes<Key>()) {
    SCOPED_TRACE(std::string(type_name<Key>()) + " n=" + std::to_string(n));
    const auto keys = make_sort_keys<Key>(n, dist::random, 300 + n);
    check_sort<Key, false, keys_tuning>(keys, {sort_order::ascending}, false, true);
    check_sort<Key, true, pairs_tuning>(keys, {sort_order::descending}, n % 2 == 1, true);
  }
}

// The tiny, small, medium and plain shapes named as the tuning, around their own tiles
// and past them: keys alone, 4-byte and 8-byte values.
TYPED_TEST(RadixSortPublic, SmallerShapesNamed) {
  ONEPASS_REQUIRE_GPU();
  using Key = TypeParam;
  const auto as_u64 = [](std::size_t i) { return static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull; };
  const auto run = [&](auto keys_shape, auto pairs_shape, auto wide_shape) {
    using keys_t = decltype(keys_shape);
    using pairs_t = decltype(pairs_shape);
    using wide_t = decltype(wide_shape);
    const long long tile = keys_t::value.onesweep_tile_items();
    for (const long long n : {1ll, tile - 1, tile, tile + 1, 5 * tile + 3, 140001ll}) {
      if (n > max_test_items()) continue;
      SCOPED_TRACE(std::string(type_name<Key>()) + " n=" + std::to_string(n) + " tile " + std::to_string(tile));
      const auto keys = make_sort_keys<Key>(n, dist::random, 700 + n);
      check_sort<Key, false, keys_t>(keys, {sort_order::ascending}, false, true);
      check_sort<Key, true, pairs_t>(keys, {sort_order::descending}, n % 2 == 1, true);
      check_value_path<Key, std::uint64_t, wide_t>(n, as_u64);
    }
  };
  run(small_shape<Key>{}, small_shape<Key, std::uint32_t>{}, small_shape<Key, std::uint64_t>{});
  run(tiny_shape<Key>{}, tiny_shape<Key, std::uint32_t>{}, tiny_shape<Key, std::uint64_t>{});
  run(medium_shape<Key>{}, medium_shape<Key, std::uint32_t>{}, medium_shape<Key, std::uint64_t>{});
  run(plain_shape<Key>{}, plain_shape<Key, std::uint32_t>{}, plain_shape<Key, std::uint64_t>{});
}

// The public calls on either side of the tiny-, small-, medium- and plain-sort switches
// (the default tuning's tiny_sort_max_items, small_sort_max_items, medium_sort_max_items
// and plain_sort_max_items: the last one switches on GPUs above the H100's DRAM bandwidth
// only), keys alone, 4-byte values (both call styles) and 8-byte values.
TYPED_TEST(RadixSortPublic, SmallSortSwitchBoundary) {
  ONEPASS_REQUIRE_GPU();
  using Key = TypeParam;
  constexpr tuning::radix_sort_tuning tunings[] = {tuning::default_radix_sort_tuning<Key, keys_only>::value,
                                                   tuning::default_radix_sort_tuning<Key, std::uint32_t>::value,
                                                   tuning::default_radix_sort_tuning<Key, std::uint64_t>::value};
  const auto as_u64 = [](std::size_t i) { return ~static_cast<std::uint64_t>(i); };
  for (int values = 0; values < 3; ++values) {  // none, 4-byte, 8-byte
    const auto& t = tunings[values];
    for (const long long most :
         {t.tiny_sort_max_items, t.small_sort_max_items, t.medium_sort_max_items, t.plain_sort_max_items}) {
      if (most == 0) continue;
      for (const long long n : {most, most + 1}) {
        if (n > max_test_items()) continue;
        SCOPED_TRACE(std::string(type_name<Key>()) + " n=" + std::to_string(n) + " value kind " +
                     std::to_string(values));
        const auto keys = make_sort_keys<Key>(n, dist::random, 500 + n);
        if (values == 0) check_sort<Key, false>(keys, {sort_order::ascending}, false, n % 2 == 0);
        else if (values == 1) check_sort<Key, true>(keys, {sort_order::descending, 0, 20}, false, n % 2 == 1);
        else check_value_path<Key, std::uint64_t, void>(n, as_u64);
      }
    }
  }
}

// Inputs of several portions (a tuning with four tiles per portion), ending on a partial
// tile and on a partial portion.
TYPED_TEST(RadixSortPublic, SeveralPortions) {
  ONEPASS_REQUIRE_GPU();
  using Key = TypeParam;
  using tuning_t = tiny_portions<Key, std::uint32_t>;
  const long long portion = tuning_t::value.portion_items, tile = tuning_t::value.onesweep_tile_items();
  for (long long n : {portion, portion + 1, 3 * portion + tile / 2, 5 * portion - 1}) {
    for (dist d : {dist::random, dist::range16}) {
      SCOPED_TRACE(std::string(type_name<Key>()) + " n=" + std::to_string(n) + " " + key_distribution_name(d));
      const auto keys = make_sort_keys<Key>(n, d, n);
      check_sort<Key, true, tuning_t>(keys, {sort_order::ascending}, false, true);
      check_sort<Key, true, tuning_t>(keys, {sort_order::descending, 0, 12}, true, true);
    }
  }
}

// --- where the values wait -------------------------------------------------------------
// A 4-byte value aligned to 2 bytes: never copied with cp.async, held in registers.
struct two_halves {
  std::uint16_t lo, hi;
};
static_assert(alignof(two_halves) == 2 && sizeof(two_halves) == 4);
std::ostream& operator<<(std::ostream& os, const two_halves& v) { return os << v.hi << ":" << v.lo; }

// A shape whose tile is small enough for 8-byte values to be staged in shared memory.
template <tuning::radix_value_load Load>
struct small_tiles {
  static constexpr tuning::radix_sort_tuning value = [] {
    tuning::radix_sort_tuning t{};
    t.onesweep_items_per_thread = 8;
    t.histogram_block_threads = 256;
    t.histogram_blocks_per_sm = 4;
    t.portion_items = 1ll << 28;
    t.value_load = Load;
    return t;
  }();
};
using value_load = tuning::radix_value_load;
template <class Key, class Value, class Tuning>
constexpr value_load load_of = detail::radix_value_load_of<Key, Value, Tuning>;
template <class Key, class Value>
using production = tuning::default_radix_sort_tuning<Key, Value>;

// --- blocks with more threads than digits -------------------------------------------------
// Threads, items per thread, portion (in tiles), where the values wait, whether the
// tile-sorted keys have shared memory apart from the ranking's offsets.
template <int Threads, int Items, int PortionTiles, tuning::radix_value_load Load, bool KeysApart = true>
struct wide_blocks {
  static constexpr tuning::radix_sort_tuning value = [] {
    tuning::radix_sort_tuning t{};
    t.onesweep_items_per_thread = Items;
    t.histogram_block_threads = 256;
    t.histogram_blocks_per_sm = 4;
    t.portion_items = static_cast<long long>(PortionTiles) * Threads * Items;
    t.value_load = Load;
    t.onesweep_min_blocks_per_sm = 2;
    t.onesweep_block_threads = Threads;
    t.keys_apart = KeysApart;
    return t;
  }();
};

// The values reach the scatter through shared memory (copied asynchronously at the load:
// 4- and 8-byte values aligned to their size, where they fit), in registers (other
// values, or a tuning that asks for it) or loaded after the keys are written: every path
// must move every value with its key.
TEST(RadixSort, EveryWayOfMovingValues) {
  using staged_tiles = small_tiles<value_load::async_to_shared>;
  static_assert(load_of<unsigned, double, staged_tiles> == value_load::async_to_shared);
  static_assert(load_of<unsigned long long, double, staged_tiles> == value_load::async_to_shared);
  static_assert(load_of<int, two_halves, staged_tiles> == value_load::with_keys, "misaligned: not staged");
  static_assert(load_of<double, double, production<double, double>> == value_load::async_to_shared);
  using huge_tiles = wide_blocks<512, 16, 1 << 14, value_load::async_to_shared>;  // 128 KiB staged
  static_assert(load_of<double, double, huge_tiles> == value_load::with_keys, "past max_staging_shared_bytes");
  static_assert(load_of<unsigned, std::uint32_t, production<unsigned, std::uint32_t>> == value_load::after_keys,
                "the production uint32 pairs load their values once the keys are written");
  ONEPASS_REQUIRE_GPU();
  for (long long n : {1ll, 33ll, 2047ll, 2049ll, 4096ll * 3 + 5, 100003ll}) {
    if (n > max_test_items()) continue;
    const auto as_double = [](std::size_t i) { return static_cast<double>(i) + 0.25; };
    const auto as_halves = [](std::size_t i) {
      return two_halves{static_cast<std::uint16_t>(i), static_cast<std::uint16_t>(i >> 16)};
    };
    const auto as_u32 = [](std::size_t i) { return static_cast<std::uint32_t>(i * 2654435761u); };
    check_value_path<unsigned, double, staged_tiles>(n, as_double);
    check_value_path<unsigned long long, double, staged_tiles>(n, as_double);
    check_value_path<unsigned, std::uint32_t, small_tiles<value_load::with_keys>>(n, as_u32);
    check_value_path<unsigned, double, small_tiles<value_load::after_keys>>(n, as_double);
    check_value_path<long long, two_halves, small_tiles<value_load::after_keys>>(n, as_halves);
    check_value_path<int, two_halves, staged_tiles>(n, as_halves);
    check_value_path<int, two_halves, void>(n, as_halves);
    check_value_path<double, double, void>(n, as_double);
    check_value_path<unsigned, double, void>(n, as_double);  // production: two sub-tiles
  }
}

// Threads 256 and up hold items but no digit: sizes around the tile, several portions,
// both orders, partial bit ranges, keys and pairs, the tile-sorted keys apart from the
// ranking's offsets (placed as they are ranked) or over them (placed after a barrier).
TEST(RadixSort, BlocksWiderThanTheDigits) {
  static_assert(production<unsigned, keys_only>::value.keys_apart && production<double, keys_only>::value.keys_apart,
                "keys alone: apart");
  static_assert(!production<unsigned, std::uint32_t>::value.keys_apart, "pairs: over the offsets");
  ONEPASS_REQUIRE_GPU();
  using w384 = wide_blocks<384, 12, 1 << 14, value_load::async_to_shared>;
  using w384_over = wide_blocks<384, 12, 1 << 14, value_load::async_to_shared, false>;
  using w512 = wide_blocks<512, 8, 3, value_load::after_keys>;
  using w512_over = wide_blocks<512, 8, 3, value_load::with_keys, false>;
  using w512_staged = wide_blocks<512, 8, 1 << 14, value_load::async_to_shared>;
  static_assert(load_of<unsigned, std::uint32_t, w512_staged> == value_load::async_to_shared);
  for (long long n : {1ll, 255ll, 257ll, 4607ll, 4608ll, 4609ll, 3ll * 4096 + 1, 100003ll}) {
    if (n > max_test_items()) continue;
    SCOPED_TRACE("n=" + std::to_string(n));
    const auto keys = make_sort_keys<unsigned>(n, dist::random, 500 + n);
    const auto wide = make_sort_keys<long long>(n, dist::low_entropy, 600 + n);
    check_sort<unsigned, false, w384>(keys, {sort_order::ascending}, false, true);
    check_sort<unsigned, true, w384>(keys, {sort_order::descending, 3, 29}, false, false);
    check_sort<unsigned, true, w512>(keys, {sort_order::ascending}, true, true);  // several portions
    check_sort<unsigned, true, w512_staged>(keys, {sort_order::ascending, 0, 20}, false, true);
    check_sort<long long, true, w512>(wide, {sort_order::descending}, false, true);
    check_sort<long long, false, w384>(wide, {sort_order::ascending}, false, false);
    check_sort<unsigned, false, w384_over>(keys, {sort_order::descending}, false, true);
    check_sort<unsigned, true, w384_over>(keys, {sort_order::ascending, 4, 30}, false, true);
    check_sort<long long, false, w512_over>(wide, {sort_order::ascending}, true, true);  // several portions
    check_sort<long long, true, w512_over>(wide, {sort_order::descending, 0, 40}, false, false);
  }
}

// Onesweep blocks in thread-block clusters of two (sm_90): the grid is rounded up to whole
// clusters, so an odd tile count leaves one block with no tile (it must still meet its
// partner at the barrier before the scatter when the cluster writes together). Odd and
// even tile counts, one tile, several portions, keys apart and over the offsets, with and
// without the barrier. (Pairs run so in production.)
template <class Base, bool WriteTogether>
struct in_clusters {
  static constexpr tuning::radix_sort_tuning value = [] {
    tuning::radix_sort_tuning t = Base::value;
    t.onesweep_cluster_blocks = 2;
    t.cluster_write_together = WriteTogether;
    return t;
  }();
};

TEST(RadixSort, OnesweepBlocksInClusters) {
  static_assert(production<unsigned, std::uint32_t>::value.onesweep_cluster_blocks == 2 &&
                    production<unsigned, std::uint32_t>::value.cluster_write_together &&
                    production<double, std::uint64_t>::value.onesweep_cluster_blocks == 2 &&
                    production<unsigned, double>::value.cluster_write_together,
                "pairs: clusters of two that write together");
  static_assert(production<unsigned, keys_only>::value.onesweep_cluster_blocks == 1, "keys alone: no clusters");
  ONEPASS_REQUIRE_GPU();
  using keys_together = in_clusters<wide_blocks<384, 12, 3, value_load::async_to_shared>, true>;
  using pairs_together = in_clusters<wide_blocks<384, 12, 3, value_load::after_keys, false>, true>;
  using pairs_apart = in_clusters<wide_blocks<512, 8, 1 << 14, value_load::async_to_shared>, false>;
  for (long long n : {1ll, 4607ll, 4608ll, 4609ll, 2ll * 4608 + 1, 3ll * 4608 * 3 + 5, 100003ll}) {
    if (n > max_test_items()) continue;
    SCOPED_TRACE("n=" + std::to_string(n));
    const auto keys = make_sort_keys<unsigned>(n, dist::random, 700 + n);
    const auto wide = make_sort_keys<double>(n, dist::low_entropy, 800 + n);
    check_sort<unsigned, false, keys_together>(keys, {sort_order::ascending}, false, true);
    check_sort<unsigned, true, pairs_together>(keys, {sort_order::descending, 2, 30}, false, true);
    check_sort<unsigned, true, pairs_apart>(keys, {sort_order::ascending}, true, false);
    check_sort<double, true, pairs_together>(wide, {sort_order::ascending}, false, true);
    check_sort<double, false, keys_together>(wide, {sort_order::descending}, true, true);
  }
}

// Plain launches by the GPU's DRAM bandwidth (tuning.plain_sort_max_items and
// plain_sort_min_dram_gbps): pairs up to 2^25 items launched plain on an H200, in clusters
// on an H100 and above 2^25 everywhere; keys alone never switch (never in clusters).
TEST(RadixSort, PlainLaunchesByTheGpusDramBandwidth) {
  using tuning::radix_sorts_plain;
  EXPECT_EQ(detail::peak_dram_gbps(2619000, 5120), 3352) << "H100 SXM: 2619 MHz, 5120 bits";
  EXPECT_EQ(detail::peak_dram_gbps(3201000, 6016), 4814) << "H200: 3201 MHz, 6016 bits";
  EXPECT_EQ(detail::peak_dram_gbps(0, 5120), 0);
  constexpr auto pairs = production<unsigned, std::uint32_t>::value;
  static_assert(pairs.plain_sort_max_items == 1ll << 25 && pairs.plain_sort_min_dram_gbps == 4000 &&
                production<double, double>::value.plain_sort_max_items == 1ll << 25 &&
                production<unsigned, double>::value.plain_sort_max_items == 1ll << 25 &&
                production<unsigned, keys_only>::value.plain_sort_max_items == 0);
  static_assert(pairs.plain_sort_max_items > pairs.medium_sort_max_items);
  constexpr long long most = 1ll << 25;
  EXPECT_TRUE(radix_sorts_plain(pairs, most, 4814)) << "H200";
  EXPECT_FALSE(radix_sorts_plain(pairs, most + 1, 4814)) << "H200, past the switch";
  EXPECT_FALSE(radix_sorts_plain(pairs, 1ll << 22, 3352)) << "H100 SXM";
  EXPECT_FALSE(radix_sorts_plain(pairs, 1ll << 22, 4000)) << "at the bandwidth limit";
  EXPECT_TRUE(radix_sorts_plain(pairs, 1ll << 22, 4001));
  EXPECT_FALSE(radix_sorts_plain(pairs, 1ll << 22, 0)) << "a GPU that reports no memory clock keeps the clusters";
  EXPECT_FALSE(radix_sorts_plain(production<unsigned, keys_only>::value, 1ll << 22, 4814)) << "keys alone";
  using plain = tuning::radix_plain_sort_tuning<production<unsigned, std::uint32_t>>;
  static_assert(plain::value.onesweep_cluster_blocks == 1 && !plain::value.cluster_write_together &&
                plain::value.onesweep_tile_items() == pairs.onesweep_tile_items() &&
                plain::value.plain_sort_max_items == 0 && plain::value.medium_sort_max_items == 0);
  // The workspace has room for the plain shape's descriptors up to its switch (the same
  // tiles: the same bytes), on whichever GPU it is sized.
  using plan = detail::radix_sort_plan<unsigned, std::uint32_t>;
  using plain_plan = detail::radix_sort_plan<unsigned, std::uint32_t, plain>;
  for (long long n : {pairs.medium_sort_max_items + 1, most, most + 1})
    EXPECT_GE(plan::lookback_bytes(n), plain_plan::lookback_bytes(n)) << n;
  ONEPASS_REQUIRE_GPU();
  EXPECT_GT(detail::peak_dram_gbps(), 100) << "the device reports its memory clock and bus width";
}

// Two sub-tiles a onesweep block (tuning.onesweep_subtiles = 2): a tile of 2 x Threads x
// Items, whose sub-tile 0 is ranked after sub-tile 1 from keys loaded again, every item's
// position kept in 16 bits. Sizes around a sub-tile (sub-tile 1 empty or partial), a
// tile, a portion; keys and pairs (4- and 8-byte values, the keys' indices: stability),
// both orders, bit ranges, in place, plain and in clusters that write together, stalled
// tiles, and a tile past 32768 items (a position's 16th bit) with 160 KiB of keys.
// EarlyValues: the first sub-tile's values loaded before the keys go out
// (values_before_keys_out, production's for 4-byte values) instead of after.
template <int Threads, int Items, long long PortionTiles, bool Clusters, bool EarlyValues = false>
struct two_subtiles {
  static constexpr tuning::radix_sort_tuning value = [] {
    tuning::radix_sort_tuning t = wide_blocks<Threads, Items, PortionTiles, value_load::after_keys, false>::value;
    t.onesweep_subtiles = 2;
    t.values_before_keys_out = EarlyValues;
    t.portion_items = PortionTiles * t.onesweep_tile_items();
    t.onesweep_cluster_blocks = Clusters ? 2 : 1;
    t.cluster_write_together = Clusters;
    return t;
  }();
};

TEST(RadixSort, OnesweepTwoSubtilesABlock) {
  using plain = two_subtiles<256, 4, 3, false>;  // tiles of 2 x 1024, portions of 3 tiles
  using clustered = two_subtiles<256, 4, 1 << 14, true, true>;  // values before the keys go out
  using largest = two_subtiles<512, 40, 1 << 14, false>;  // 40960-item tiles
  static_assert(plain::value.onesweep_tile_items() == 2048 && largest::value.onesweep_tile_items() == 40960);
  static_assert(load_of<unsigned, std::uint32_t, plain> == value_load::after_keys, "two sub-tiles: after the keys");
  static_assert(production<unsigned, std::uint32_t>::value.values_before_keys_out &&
                    !production<unsigned, double>::value.values_before_keys_out,
                "4-byte values are loaded before the keys go out, 8-byte ones after");
  static_assert(production<unsigned, std::uint32_t>::value.onesweep_subtiles == 2 &&
                    production<float, std::int32_t>::value.onesweep_subtiles == 2 &&
                    production<unsigned, double>::value.onesweep_subtiles == 2 &&
                    production<double, std::uint32_t>::value.onesweep_subtiles == 1 &&
                    production<double, double>::value.onesweep_subtiles == 1 &&
                    production<unsigned, keys_only>::value.onesweep_subtiles == 1,
                "pairs with 4-byte keys: two sub-tiles a block; 8-byte keys and keys alone: one");
  ONEPASS_REQUIRE_GPU();
  for (long long n : {1ll, 1023ll, 1024ll, 1025ll, 2047ll, 2048ll, 2049ll, 3ll * 2048, 3ll * 2048 + 1,
                      7ll * 2048 + 1500, 100003ll}) {
    if (n > max_test_items()) continue;
    SCOPED_TRACE("n=" + std::to_string(n));
    const auto keys = make_sort_keys<unsigned>(n, dist::random, 900 + n);
    const auto wide = make_sort_keys<double>(n, dist::low_entropy, 1000 + n);
    check_sort<unsigned, true, plain>(keys, {sort_order::ascending}, false, true);  // several portions
    check_sort<unsigned, true, plain>(keys, {sort_order::descending, 2, 30}, true, false);
    check_sort<unsigned, false, plain>(keys, {sort_order::ascending}, false, true);
    check_sort<unsigned, true, clustered>(keys, {sort_order::ascending, 0, 20}, false, true);
    check_sort<double, true, clustered>(wide, {sort_order::descending}, false, true);
    check_sort<double, false, plain>(wide, {sort_order::ascending}, true, true);
    const auto as_u64 = [](std::size_t i) { return static_cast<unsigned long long>(i) * 0x9E3779B97F4A7C15ull; };
    check_value_path<unsigned, unsigned long long, clustered>(n, as_u64);
  }
  for (long long n : {20479ll, 20480ll, 20481ll, 40959ll, 40960ll, 40961ll, 3ll * 40960 + 12345}) {
    if (n > max_test_items()) continue;
    SCOPED_TRACE("largest tile, n=" + std::to_string(n));
    check_sort<unsigned, true, largest>(make_sort_keys<unsigned>(n, dist::random, 1100 + n), {}, false, true);
  }
  const long long n = std::min(max_test_items(), (1ll << 18) + 17);
  for (unsigned salt = 0; salt < 2; ++salt) {
    SCOPED_TRACE("stalled tiles, salt " + std::to_string(salt));
    const stall_some_tiles stall{salt, 100000, 10000, 500};
    check_sort<unsigned, true, plain>(make_sort_keys<unsigned>(n, dist::random, salt), {}, false, true, stall);
    check_sort<unsigned, true, clustered>(make_sort_keys<unsigned>(n, dist::low_entropy, salt), {}, false, true,
                                          stall);
  }
}

// Keys that do not start on a 16-byte boundary: the up-front histogram then reads them
// one at a time instead of four (or two) per load, and so does the copy of a pass whose
// keys all share one digit (all_equal: every pass; range16: all but the first).
template <class Key>
void check_unaligned(long long n, int offset, dist d) {
  SCOPED_TRACE(std::string(type_name<Key>()) + " n=" + std::to_string(n) + " offset " + std::to_string(offset) + " " +
               key_distribution_name(d));
  const auto keys = make_sort_keys<Key>(n, d, 40 + offset);
  device_buffer<Key> in(n + 4), out(n);
  ONEPASS_CHECK_CUDA(cudaMemcpy(in.get() + offset, keys.data(), n * sizeof(Key), cudaMemcpyHostToDevice));
  radix_sort_keys(in.get() + offset, out.get(), n);
  ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  const auto order = reference_permutation(keys, false, 0, detail::radix_key<Key>::bits);
  EXPECT_EQ(first_difference(permuted(keys, order), out.download()), "");
}

TEST(RadixSort, KeysNotAlignedToSixteenBytes) {
  ONEPASS_REQUIRE_GPU();
  for (long long n : {1ll, 5ll, 1000ll, 100003ll}) {
    if (n > max_test_items()) continue;
    for (dist d : {dist::random, dist::all_equal, dist::range16}) {
      for (int offset : {1, 2, 3}) check_unaligned<unsigned>(n, offset, d);
      check_unaligned<double>(n, 1, d);
    }
  }
}

// Values that do not start on a 16-byte boundary, staged in shared memory: full tiles then
// copy them one value at a time, not in 16-byte chunks (only the first pass reads the
// caller's values; later passes read the aligned alternate buffer). Values are the keys'
// indices, so the check is also one of stability.
TEST(RadixSort, ValuesNotAlignedToSixteenBytes) {
  using staged_4 = wide_blocks<512, 16, 1 << 14, value_load::async_to_shared, false>;  // 8192-key tiles
  using staged_8 = small_tiles<value_load::async_to_shared>;                          // 2048-key tiles
  static_assert(load_of<unsigned, unsigned, staged_4> == value_load::async_to_shared);
  static_assert(load_of<unsigned, unsigned long long, staged_8> == value_load::async_to_shared);
  ONEPASS_REQUIRE_GPU();
  for (long long n : {1ll, 5ll, 2049ll, 8191ll, 8192ll, 8193ll, 100003ll}) {
    if (n > max_test_items()) continue;
    const auto as_u32 = [](std::size_t i) { return static_cast<unsigned>(i); };
    const auto as_u64 = [](std::size_t i) { return static_cast<unsigned long long>(i); };
    for (int offset : {0, 1, 2, 3}) check_value_path<unsigned, unsigned, staged_4>(n, as_u32, offset);
    for (int offset : {0, 1}) check_value_path<unsigned, unsigned long long, staged_8>(n, as_u64, offset);
    check_value_path<unsigned, unsigned, void>(n, as_u32, 1);
    check_value_path<unsigned, unsigned long long, void>(n, as_u64, 1);
  }
}

// --- the L2 prefetch ----------------------------------------------------------------------
// Tiny portions (as tiny_portions) whose onesweep tiles ask L2 for the keys (and values)
// AheadTiles tiles further on.
template <class Key, class Value, long long AheadTiles>
struct prefetching_tiny_portions {
  static constexpr tuning::radix_sort_tuning value = [] {
    tuning::radix_sort_tuning t = tuning::default_radix_sort_tuning<Key, Value>::value;
    t.portion_items = 4ll * t.onesweep_tile_items();
    t.l2_prefetch_bytes = AheadTiles * t.onesweep_tile_items() * static_cast<long long>(sizeof(Key));
    t.l2_prefetch_min_input_bytes = 0;
    return t;
  }();
};

// The prefetch is a hint that must not change a result nor reach past a portion's keys or
// values: a distance of one tile and one past the portion's last tile, several portions
// ending on partial tiles, pairs (their values are prefetched too), values off a 16-byte
// boundary (the kernel then prefetches the keys only) and keys off one (the dispatcher
// turns it off: KeysNotAlignedToSixteenBytes, through production, which prefetches for
// keys alone).
TEST(RadixSort, L2PrefetchAtAnyDistanceOverSeveralPortions) {
  static_assert(production<unsigned, keys_only>::value.l2_prefetch_bytes > 0 &&
                    production<double, keys_only>::value.l2_prefetch_bytes > 0,
                "keys alone prefetch");
  static_assert(production<unsigned, std::uint32_t>::value.l2_prefetch_bytes == 0, "pairs do not");
  ONEPASS_REQUIRE_GPU();
  using near_keys = prefetching_tiny_portions<unsigned, keys_only, 1>;
  using near_pairs = prefetching_tiny_portions<unsigned, std::uint32_t, 1>;
  using far_pairs = prefetching_tiny_portions<unsigned, std::uint32_t, 5>;  // past every portion's end
  using wide_keys = prefetching_tiny_portions<long long, keys_only, 2>;
  const long long portion = near_keys::value.portion_items, tile = near_keys::value.onesweep_tile_items();
  for (long long n : {1ll, tile + 3, portion + 1, 3 * portion + tile / 2, 5 * portion - 1}) {
    if (n > max_test_items()) continue;
    SCOPED_TRACE("n=" + std::to_string(n));
    const auto keys = make_sort_keys<unsigned>(n, dist::random, 700 + n);
    const auto wide = make_sort_keys<long long>(n, dist::random, 800 + n);
    check_sort<unsigned, false, near_keys>(keys, {sort_order::ascending}, false, true);
    check_sort<unsigned, true, near_pairs>(keys, {sort_order::descending}, false, true);
    check_sort<unsigned, true, far_pairs>(keys, {sort_order::ascending, 0, 20}, true, true);
    check_sort<long long, false, wide_keys>(wide, {sort_order::descending}, false, false);
    const auto as_u32 = [](std::size_t i) { return static_cast<unsigned>(i); };
    check_value_path<unsigned, unsigned, near_pairs>(n, as_u32, 1);
  }
}

// --- stalled tiles ----------------------------------------------------------------------
// stall_some_tiles (support/test_support.cuh), with shorter stalls: a sort has many tiles.
TEST(RadixSortStress, StalledTilesNeitherDeadlockNorMisplaceKeys) {
  ONEPASS_REQUIRE_GPU();
  const long long n = std::min(max_test_items(), (1ll << 20) + 17);
  for (unsigned salt = 0; salt < 2; ++salt) {
    const stall_some_tiles stall{salt, 100000, 10000, 500};
    check_sort<unsigned, true>(make_sort_keys<unsigned>(n, dist::random, salt), {}, false, true, stall);
    check_sort<double, true>(make_sort_keys<double>(n, dist::range16, salt), {sort_order::descending}, false, true,
                             stall);
    check_sort<int, true, tiny_portions<int, std::uint32_t>>(make_sort_keys<int>(n, dist::low_entropy, salt), {}, true,
                                                             true, stall);
  }
}

// --- the other entry points -------------------------------------------------------------
TEST(RadixSort, DoubleBufferStyleEndsInCurrentWithoutACopy) {
  ONEPASS_REQUIRE_GPU();
  const long long n = std::min(max_test_items(), 100003ll);
  const auto keys = make_sort_keys<float>(n, dist::specials, 5);
  std::vector<double> values(keys.size());
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i) * 0.5;
  for (int end_bit : {32, 24, 16, 0}) {  // 4, 3, 2 and 0 passes: both parities
    SCOPED_TRACE("end_bit " + std::to_string(end_bit));
    device_buffer<float> k0(keys), k1(n);
    device_buffer<double> v0(values), v1(n);
    double_buffer<float> kb(k0.get(), k1.get());
    double_buffer<double> vb(v0.get(), v1.get());
    device_buffer<unsigned char> ws(static_cast<long long>(radix_sort_double_buffer_workspace_bytes<float, double>(n)));
    EXPECT_LT(ws.bytes(), (radix_sort_workspace_bytes<float, double>(n))) << "no n-item buffers needed";
    radix_sort_pairs(kb, vb, n, {sort_order::ascending, 0, end_bit}, workspace{ws.get(), ws.bytes()}, nullptr);
    ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
    const int passes = (end_bit + 7) / 8;
    EXPECT_EQ(kb.selector, passes % 2);
    EXPECT_EQ(vb.selector, passes % 2);
    const auto order = reference_permutation(keys, false, 0, end_bit);
    std::vector<float> got_keys(keys.size());
    std::vector<double> got_values(keys.size());
    ONEPASS_CHECK_CUDA(cudaMemcpy(got_keys.data(), kb.current(), n * sizeof(float), cudaMemcpyDeviceToHost));
    ONEPASS_CHECK_CUDA(cudaMemcpy(got_values.data(), vb.current(), n * sizeof(double), cudaMemcpyDeviceToHost));
    EXPECT_EQ(first_difference(permuted(keys, order), got_keys), "");
    EXPECT_EQ(first_difference(permuted(values, order), got_values), "");
  }
  // Keys alone, simple style, descending.
  const auto ukeys = make_sort_keys<unsigned long long>(n, dist::random, 6);
  device_buffer<unsigned long long> a(ukeys), b(n);
  double_buffer<unsigned long long> db(a.get(), b.get());
  radix_sort_keys(db, n, {sort_order::descending});
  ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  EXPECT_EQ(db.selector, 0) << "8 passes";
  std::vector<unsigned long long> got(ukeys.size());
  ONEPASS_CHECK_CUDA(cudaMemcpy(got.data(), db.current(), n * sizeof(got[0]), cudaMemcpyDeviceToHost));
  EXPECT_EQ(first_difference(permuted(ukeys, reference_permutation(ukeys, true, 0, 64)), got), "");
}

TEST(RadixSort, PermutationOfKeysLeftUnchanged) {
  ONEPASS_REQUIRE_GPU();
  const long long n = std::min(max_test_items(), 77777ll);
  const auto keys = make_sort_keys<double>(n, dist::range16, 9);
  device_buffer<double> in(keys);
  device_buffer<std::uint32_t> perm32(n);
  device_buffer<long long> perm64(n);
  radix_sort_permutation(in.get(), n, perm32.get(), {sort_order::descending});
  radix_sort_permutation(in.get(), n, perm64.get());
  ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  EXPECT_EQ(first_difference(reference_permutation(keys, true, 0, 64), perm32.download()), "");
  const auto ascending = reference_permutation(keys, false, 0, 64);
  EXPECT_EQ(first_difference(std::vector<long long>(ascending.begin(), ascending.end()), perm64.download()), "");
  EXPECT_EQ(first_difference(keys, in.download()), "");
}

TEST(RadixSort, WorkspaceStyleInCudaGraph) {
  ONEPASS_REQUIRE_GPU();
  const long long n = std::min(max_test_items(), 3ll * 4096 + 77);
  device_buffer<int> in(n), out(n);
  device_buffer<std::uint32_t> vin(n), vout(n);
  device_buffer<unsigned char> ws(static_cast<long long>(radix_sort_workspace_bytes<int, std::uint32_t>(n)));
  cudaStream_t stream;
  ONEPASS_CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaGraph_t graph;
  ONEPASS_CHECK_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  radix_sort_pairs(in.get(), out.get(), vin.get(), vout.get(), n, {}, workspace{ws.get(), ws.bytes()}, stream);
  ONEPASS_CHECK_CUDA(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec;
  ONEPASS_CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  std::vector<std::uint32_t> index(static_cast<std::size_t>(n));
  std::iota(index.begin(), index.end(), 0u);
  vin.upload(index);
  for (int replay = 0; replay < 3; ++replay) {
    const auto keys = make_sort_keys<int>(n, dist::random, 77 + replay);
    in.upload(keys);
    out.poison();
    ONEPASS_CHECK_CUDA(cudaGraphLaunch(exec, stream));
    ONEPASS_CHECK_CUDA(cudaStreamSynchronize(stream));
    const auto order = reference_permutation(keys, false, 0, 32);
    EXPECT_EQ(first_difference(permuted(keys, order), out.download()), "") << "replay " << replay;
    EXPECT_EQ(first_difference(order, vout.download()), "") << "replay " << replay;
  }
  ONEPASS_CHECK_CUDA(cudaGraphExecDestroy(exec));
  ONEPASS_CHECK_CUDA(cudaGraphDestroy(graph));
  ONEPASS_CHECK_CUDA(cudaStreamDestroy(stream));
}

// --- the host-side plan (CPU) ----------------------------------------------------------
// The copy style's buffer schedule, for every pass count and in place or not: no pass
// reads the buffer it writes, pass 0 reads the input (or its copy), and the last pass
// writes the output.
TEST(RadixSortPlan, CopyStyleScheduleNeverReadsWhatAPassWrites) {
  unsigned in[4], out[4], alt[4];
  double vin[4], vout[4], valt[4];
  for (int passes = 1; passes <= 8; ++passes) {
    for (bool in_place : {false, true}) {
      SCOPED_TRACE("passes " + std::to_string(passes) + (in_place ? " in place" : ""));
      const unsigned* k_in = in_place ? out : in;
      const double* v_in = in_place ? vout : vin;
      bool copy_keys = false, copy_values = false;
      const auto b = detail::copy_style_schedule(k_in, out, alt, v_in, vout, valt, passes, &copy_keys, &copy_values);
      EXPECT_EQ(copy_keys, in_place && passes % 2 == 1);
      EXPECT_EQ(copy_values, copy_keys);
      EXPECT_EQ(b.keys_from(0), copy_keys ? alt : k_in);
      EXPECT_EQ(b.values_from(0), copy_values ? valt : v_in);
      EXPECT_EQ(b.keys_to(passes - 1), out);
      EXPECT_EQ(b.values_to(passes - 1), vout);
      for (int p = 0; p < passes; ++p) {
        EXPECT_NE(static_cast<const void*>(b.keys_from(p)), static_cast<const void*>(b.keys_to(p))) << "pass " << p;
        EXPECT_NE(static_cast<const void*>(b.values_from(p)), static_cast<const void*>(b.values_to(p))) << "pass " << p;
        EXPECT_TRUE(b.keys_to(p) == out || b.keys_to(p) == alt);
      }
    }
  }
}

// Passes cover the bit range exactly, least significant first, the last one narrower
// when the range is not a multiple of 8 bits.
TEST(RadixSortPlan, PassesCoverTheBitRange) {
  for (int begin = 0; begin <= 64; begin += 3) {
    for (int end = begin; end <= 64; end += 5) {
      const detail::radix_bit_range r{begin, end};
      const int passes = detail::radix_pass_count(r);
      EXPECT_EQ(passes, (end - begin + 7) / 8);
      int next = begin;
      for (int p = 0; p < passes; ++p) {
        const auto pass = detail::radix_pass_of(r, p);
        EXPECT_EQ(pass.shift, next);
        EXPECT_GE(pass.bits, 1);
        EXPECT_LE(pass.bits, 8);
        EXPECT_TRUE(pass.bits == 8 || p == passes - 1);
        next += pass.bits;
      }
      EXPECT_EQ(next, end) << "[" << begin << ", " << end << ")";
    }
  }
}

// Workspace sizes: zero for n = 0; regions on 256-byte boundaries; the double-buffer
// style needs no n-item buffers; the descriptors stop growing after one portion.
TEST(RadixSortPlan, WorkspaceSizes) {
  using plan = detail::radix_sort_plan<unsigned, std::uint32_t>;
  EXPECT_EQ(radix_sort_workspace_bytes<unsigned>(0), 0u);
  for (long long n : {1ll, 4095ll, 4096ll, 1ll << 20, (1ll << 28) + 1, 3ll << 30}) {
    EXPECT_EQ(plan::histogram_bytes(n) % 256, 0u);
    EXPECT_EQ(plan::lookback_bytes(n) % 256, 0u);
    EXPECT_GE(plan::workspace_bytes(n, false), plan::workspace_bytes(n, true) + 8 * static_cast<std::size_t>(n));
    EXPECT_LE(plan::lookback_bytes(n), plan::lookback_bytes(plan::portion_items) + 0u);
  }
  // The histogram's region: every pass's counts and the finished-block count (zeroed
  // together), every pass's first-portion digit starts, two later portions' starts, with the
  // starts 8-byte aligned.
  using wide_plan = detail::radix_sort_plan<std::uint64_t, detail::keys_only>;
  EXPECT_EQ(plan::max_passes, 4);
  EXPECT_EQ(wide_plan::max_passes, 8);
  EXPECT_EQ(plan::zeroed_bytes, plan::counts_bytes + 16);
  EXPECT_EQ(plan::zeroed_bytes % alignof(index_t), 0u);
  EXPECT_EQ(wide_plan::first_starts_bytes, 8u * 256 * sizeof(index_t));
  EXPECT_GE(plan::histogram_bytes(1), plan::zeroed_bytes + plan::first_starts_bytes + 2 * 256 * sizeof(index_t));
  EXPECT_GE(wide_plan::histogram_bytes(1),
            wide_plan::zeroed_bytes + wide_plan::first_starts_bytes + 2 * 256 * sizeof(index_t));
  EXPECT_EQ((radix_sort_workspace_bytes<unsigned, unsigned>(1000)), plan::workspace_bytes(1000, false));
  // The small- and tiny-sort switches: their shapes' descriptors fit the workspace up to
  // each switch, and above the small one the workspace is production's own.
  using small_plan = detail::radix_sort_plan<unsigned, std::uint32_t, small_shape<unsigned, std::uint32_t>>;
  using tiny_plan = detail::radix_sort_plan<unsigned, std::uint32_t, tiny_shape<unsigned, std::uint32_t>>;
  constexpr long long most = plan::tuning.small_sort_max_items, tiny_most = plan::tuning.tiny_sort_max_items;
  static_assert(most > 0 && small_plan::tuning.small_sort_max_items == 0 && small_plan::tuning.tiny_sort_max_items == 0);
  static_assert(tiny_most > 0 && tiny_most < most && tiny_plan::tuning.tiny_sort_max_items == 0);
  for (long long n : {1ll, 2047ll, 2049ll, 4095ll, 4097ll, 65537ll, tiny_most, tiny_most + 1, most - 1, most}) {
    EXPECT_GE(plan::lookback_bytes(n), small_plan::lookback_bytes(n)) << n;
    EXPECT_GT(small_plan::lookback_bytes(n), 0u);
    if (n <= tiny_most) EXPECT_GE(plan::lookback_bytes(n), tiny_plan::lookback_bytes(n)) << n;
  }
  EXPECT_GT(tiny_plan::lookback_bytes(tiny_most), small_plan::lookback_bytes(tiny_most)) << "twice the tiles";
  // Medium sorts past the small ones, then production's own.
  using medium_plan = detail::radix_sort_plan<unsigned, std::uint32_t, medium_shape<unsigned, std::uint32_t>>;
  constexpr long long medium_most = plan::tuning.medium_sort_max_items;
  static_assert(medium_most > most && medium_plan::tuning.medium_sort_max_items == 0);
  for (long long n : {most + 1, 65ll << 13, medium_most - 1, medium_most})
    EXPECT_GE(plan::lookback_bytes(n), medium_plan::lookback_bytes(n)) << n;
  using large_plan = detail::radix_sort_plan<unsigned, std::uint32_t, tuning::default_radix_sort_tuning<unsigned, std::uint32_t>>;
  EXPECT_EQ(plan::lookback_bytes(medium_most + 1), large_plan::lookback_bytes(medium_most + 1));
  // Which sorts switch, and to what (tuning/radix_sort_tuning.cuh: measured ones only).
  static_assert(small_shape<unsigned>::value.onesweep_tile_items() == 4096 &&
                small_shape<unsigned>::value.onesweep_cluster_blocks == 1);
  static_assert(tiny_shape<unsigned>::value.onesweep_tile_items() == 2048 &&
                tiny_shape<double, double>::value.onesweep_tile_items() == 2048 &&
                tiny_shape<unsigned, std::uint32_t>::value.onesweep_cluster_blocks == 1);
  static_assert(tuning::default_radix_sort_tuning<float, keys_only>::value.small_sort_max_items == 1ll << 21);
  static_assert(tuning::default_radix_sort_tuning<double, keys_only>::value.small_sort_max_items == 1ll << 19);
  static_assert(tuning::default_radix_sort_tuning<int, std::uint32_t>::value.small_sort_max_items == 1ll << 19 &&
                tuning::default_radix_sort_tuning<int, std::uint32_t>::value.medium_sort_max_items == 1ll << 23);
  static_assert(medium_shape<unsigned, std::uint32_t>::value.onesweep_tile_items() == 8192 &&
                medium_shape<unsigned, std::uint32_t>::value.onesweep_cluster_blocks == 1 &&
                medium_shape<unsigned, std::uint32_t>::value.onesweep_subtiles == 1);
  static_assert(tuning::default_radix_sort_tuning<unsigned, std::uint64_t>::value.medium_sort_max_items == 0 &&
                tuning::default_radix_sort_tuning<double, std::uint32_t>::value.medium_sort_max_items == 0 &&
                tuning::default_radix_sort_tuning<unsigned, keys_only>::value.medium_sort_max_items == 0);
  static_assert(tuning::default_radix_sort_tuning<unsigned, std::uint64_t>::value.small_sort_max_items == 1ll << 20);
  static_assert(tuning::default_radix_sort_tuning<std::uint64_t, std::uint32_t>::value.small_sort_max_items == 1ll << 21);
  static_assert(tuning::default_radix_sort_tuning<double, double>::value.small_sort_max_items == 1ll << 21);
  static_assert(tuning::default_radix_sort_tuning<float, keys_only>::value.tiny_sort_max_items == 1ll << 17 &&
                tuning::default_radix_sort_tuning<int, std::uint64_t>::value.tiny_sort_max_items == 1ll << 17 &&
                tuning::default_radix_sort_tuning<double, keys_only>::value.tiny_sort_max_items == 1ll << 18 &&
                tuning::default_radix_sort_tuning<long long, std::int64_t>::value.tiny_sort_max_items == 1ll << 18);
  EXPECT_GT((radix_sort_workspace_bytes<double, double>(1000)), radix_sort_workspace_bytes<double>(1000));
  expect_rejected([] { (void)radix_sort_workspace_bytes<int>(-5); }, "n", "negative");
}

// --- bad input: named, before anything is written -----------------------------------------
TEST(RadixSort, BadArgumentsAreNamedAndNothingIsWritten) {
  const int* none = nullptr;
  int* out_none = nullptr;
  expect_rejected([&] { radix_sort_keys(none, out_none, 5); }, "keys_in", "null");
  expect_rejected([&] { radix_sort_keys(none, out_none, -1); }, "n", "negative");
  int fake[8] = {};
  expect_rejected([&] { radix_sort_keys(fake, fake + 1, 4); }, "keys_out", "overlaps");
  expect_rejected([&] { radix_sort_keys(fake, fake + 4, 4, {sort_order::ascending, 0, 33}); }, "options.end_bit",
                  "outside");
  expect_rejected([&] { radix_sort_keys(fake, fake + 4, 4, {sort_order::ascending, 9, 8}); }, "options.end_bit",
                  "outside");
  expect_rejected([&] { radix_sort_keys(fake, fake + 4, 4, {sort_order::ascending, -1, 8}); }, "options.begin_bit",
                  "outside");
  float fk[4] = {}, fv[4] = {};
  expect_rejected([&] { radix_sort_pairs(fk, fk, fv, fk, 4); }, "values_out", "overlaps");
  double_buffer<int> same(fake, fake);
  expect_rejected([&] { radix_sort_keys(same, 4); }, "keys", "same buffer");
  expect_rejected([&] { radix_sort_keys(fake, fake + 4, 4, {}, workspace{nullptr, 0}, nullptr); }, "workspace",
                  "null");
  int perm[4];
  expect_rejected([&] { radix_sort_permutation(fake, (1ll << 31) + 1, perm); }, "permutation", "too small");
}

TEST(RadixSort, HostMemoryIsRejectedAndNothingIsWritten) {
  ONEPASS_REQUIRE_GPU();
  std::vector<unsigned> host = make_sort_keys<unsigned>(1000, dist::random, 1);
  device_buffer<unsigned> out(1000);
  expect_rejected([&] { radix_sort_keys(host.data(), out.get(), 1000); }, "keys_in", "host memory");
  EXPECT_EQ(first_written(out.download()), "");
}

}  // namespace
}  // namespace onepass::test
