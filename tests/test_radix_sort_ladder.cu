// Every radix sort variant of the registry against the CPU reference
// (support/radix_sort_reference.hpp), exact: six key types x {keys alone, uint32 values,
// uint64 values} x both orders x five bit ranges x seven key distributions, sizes from 0
// to 2^22 + 1. The values are the items' input indices, so they show the permutation
// itself: a sort that is right on the keys but not stable fails on the values. Outputs
// are poisoned before each call and a guard after them must stay poisoned; keys_in must
// come back unchanged; and a third of the cases run again in place.
//
// Sub-sampling (to stay under a minute on an H100):
//   * small sizes (0 ... 257): every distribution x bit range x order;
//   * larger sizes (4095 ... 65537 and random ones up to 300000): `large_draws` random
//     (distribution, bit range, order) combinations per size;
//   * 2^22 + 1: one random combination, for keys alone and uint64 values only;
//   * in place: a random third of all cases.
// ONEPASS_TEST_MAX_N caps the sizes (for compute-sanitizer runs).
//
// The cub entries are held to CUB's documented order, not onepass's, where they differ:
// CUB makes -0.0 and +0.0 one key (see ladder/radix_sort/cub.cuh), so its expectation is
// the reference with signed_zeros::as_positive_zero, or, in descending order, either
// that or as_negative_zero (which one depends on CUB's internal path for the size).
// Every other variant is held to onepass's order, -0.0 before +0.0.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "onepass/ladder/radix_sort/registry.cuh"
#include "support/radix_sort_reference.hpp"
#include "support/test_support.cuh"

namespace onepass::test {
namespace {

using onepass::detail::keys_only;

constexpr long long small_sizes[] = {0, 1, 31, 32, 33, 255, 256, 257};
constexpr int large_draws = 6;
constexpr long long huge_size = (1ll << 22) + 1;
// Items after each output's end that must keep their poison.
constexpr long long guard = 4;

template <class Key>
std::vector<radix_sort_options> bit_ranges() {
  constexpr int width = onepass::detail::radix_key<Key>::bits;
  // All bits; the lowest byte; 16 bits across a byte boundary; none; and a range that
  // starts and ends off a byte boundary (the 64-bit one across the word boundary).
  return {{sort_order::ascending, 0, -1},
          {sort_order::ascending, 0, 8},
          {sort_order::ascending, 4, 20},
          {sort_order::ascending, 12, 12},
          {sort_order::ascending, 3, width == 32 ? 30 : 45}};
}

std::string range_name(const radix_sort_options& o) {
  return "bits [" + std::to_string(o.begin_bit) + "," + std::to_string(o.end_bit) + ")";
}

template <class Value>
const char* value_name() {
  if constexpr (std::is_same_v<Value, keys_only>) return "keys only";
  else return std::is_same_v<Value, std::uint32_t> ? "uint32 values" : "uint64 values";
}

// One sort's inputs and outputs on the device, for all sizes up to `capacity`.
template <class Key, class Value>
struct sort_buffers {
  static constexpr bool pairs = onepass::detail::has_values<Value>;
  explicit sort_buffers(long long n)
      : n(n), keys_in(n), keys_out(n + guard), values_in(pairs ? n : 0), values_out(pairs ? n + guard : 0) {}
  long long n;
  device_buffer<Key> keys_in, keys_out;
  device_buffer<std::conditional_t<pairs, Value, char>> values_in, values_out;
  const Value* vin() const {
    if constexpr (pairs) return values_in.get();
    else return nullptr;
  }
  Value* vout() const {
    if constexpr (pairs) return values_out.get();
    else return nullptr;
  }
};

// The permutations a variant may produce for these keys: onepass's order, or for cub
// (float keys) CUB's treatment of the signed zeros.
template <class Key>
std::vector<std::vector<std::uint64_t>> allowed_orders(const char* id, const std::vector<Key>& keys,
                                                       const radix_sort_options& o,
                                                       const std::vector<std::uint64_t>& onepass_order) {
  const bool descending = o.order == sort_order::descending;
  if constexpr (std::is_floating_point_v<Key>) {
    const bool has_zero = std::any_of(keys.begin(), keys.end(), [](Key k) { return k == Key(0); });
    if (std::string_view(id).substr(0, 3) == "cub" && has_zero) {
      std::vector<std::vector<std::uint64_t>> orders = {
          reference_radix_sort_order(keys, descending, o.begin_bit, o.end_bit, signed_zeros::as_positive_zero)};
      if (descending)
        orders.push_back(
            reference_radix_sort_order(keys, descending, o.begin_bit, o.end_bit, signed_zeros::as_negative_zero));
      return orders;
    }
  }
  (void)id;
  (void)keys;
  (void)descending;
  return {onepass_order};
}

// After a sort: keys_out and values_out hold one of the allowed permutations of the
// inputs, and with `guard_checked`, nothing past them was written.
template <class Key, class Value>
void expect_sorted(const std::vector<Key>& keys, const std::vector<std::vector<std::uint64_t>>& orders,
                   const device_buffer<Key>& keys_out, const Value* values_out_ptr, long long n) {
  throw_if(cudaDeviceSynchronize(), "sort");
  const std::vector<Key> got_all = keys_out.download();
  const std::vector<Key> got(got_all.begin(), got_all.begin() + n);
  std::string diff, value_diff;
  for (const auto& perm : orders) {
    diff = first_difference(apply_permutation(keys, perm), got);
    if (!diff.empty()) continue;
    if constexpr (onepass::detail::has_values<Value>) {
      std::vector<Value> values(static_cast<std::size_t>(n));
      if (n > 0)
        throw_if(cudaMemcpy(values.data(), values_out_ptr, values.size() * sizeof(Value), cudaMemcpyDeviceToHost),
                 "download values");
      std::vector<Value> want(perm.begin(), perm.end());
      value_diff = first_difference(want, values);
      if (!value_diff.empty()) continue;
    }
    break;
  }
  EXPECT_TRUE(diff.empty()) << "keys: " << diff;
  EXPECT_TRUE(value_diff.empty()) << "values (input indices; a difference here where the keys agree: not stable): "
                                  << value_diff;
  const std::string past = first_written(got_all, static_cast<std::size_t>(n));
  EXPECT_TRUE(past.empty()) << "keys_out past n: " << past;
}

template <class Value>
void expect_guard(const device_buffer<Value>& values_out, long long n) {
  const std::string past = first_written(values_out.download(), static_cast<std::size_t>(n));
  EXPECT_TRUE(past.empty()) << "values_out past n: " << past;
}

// One input (keys, options) through every variant, out of place and (when `in_place`)
// in place.
template <class Key, class Value>
void check_case(sort_buffers<Key, Value>& b, std::deque<device_buffer<unsigned char>>& workspaces,
                const std::vector<Key>& keys, const radix_sort_options& o, bool in_place) {
  constexpr bool pairs = onepass::detail::has_values<Value>;
  const long long n = b.n;
  const bool descending = o.order == sort_order::descending;
  const std::vector<std::uint64_t> order = reference_radix_sort_order(keys, descending, o.begin_bit, o.end_bit);
  std::vector<Value> indices;
  if constexpr (pairs) indices = iota_values<Value>(n);
  b.keys_in.upload(keys);
  if constexpr (pairs) b.values_in.upload(indices);
  const auto& registry = ladder::radix_sort_registry<Key, Value>();
  for (std::size_t v = 0; v < registry.size(); ++v) {
    const auto& entry = registry[v];
    SCOPED_TRACE(std::string(entry.id) + (descending ? " descending" : " ascending") + " " + range_name(o));
    const workspace ws{workspaces[v].get(), workspaces[v].bytes()};
    const auto orders = allowed_orders(entry.id, keys, o, order);
    b.keys_out.poison();
    if constexpr (pairs) b.values_out.poison();
    entry.sort(b.keys_in.get(), b.keys_out.get(), b.vin(), b.vout(), n, o, ws, nullptr);
    expect_sorted<Key, Value>(keys, orders, b.keys_out, b.vout(), n);
    if constexpr (pairs) expect_guard(b.values_out, n);
    // The input is the caller's: never written.
    const std::string in_diff = first_difference(keys, b.keys_in.download());
    EXPECT_TRUE(in_diff.empty()) << "keys_in was written: " << in_diff;
    if constexpr (pairs) {
      const std::string vin_diff = first_difference(indices, b.values_in.download());
      EXPECT_TRUE(vin_diff.empty()) << "values_in was written: " << vin_diff;
    }
    if (!in_place) continue;
    SCOPED_TRACE("in place");
    // In the output buffers (n + guard, poisoned past n), sorted onto themselves.
    b.keys_out.poison();
    b.keys_out.upload(keys);
    if constexpr (pairs) {
      b.values_out.poison();
      b.values_out.upload(indices);
    }
    entry.sort(b.keys_out.get(), b.keys_out.get(), b.vout(), b.vout(), n, o, ws, nullptr);
    expect_sorted<Key, Value>(keys, orders, b.keys_out, b.vout(), n);
    if constexpr (pairs) expect_guard(b.values_out, n);
  }
}

// Every variant on every size of one key and value type.
template <class Key, class Value>
void check_radix_sort_ladder(std::uint64_t seed) {
  const auto& registry = ladder::radix_sort_registry<Key, Value>();
  ASSERT_GE(registry.size(), 2u);
  std::mt19937_64 rng(seed);
  std::vector<long long> sizes(std::begin(small_sizes), std::end(small_sizes));
  const std::size_t small_count = sizes.size();
  for (long long n : {4095ll, 4096ll, 4097ll, 65535ll, 65537ll}) sizes.push_back(n);
  for (int i = 0; i < 2; ++i) sizes.push_back(1 + static_cast<long long>(rng() % 300000));
  const bool with_huge = !std::is_same_v<Value, std::uint32_t>;
  if (with_huge) sizes.push_back(huge_size);
  const auto ranges = bit_ranges<Key>();
  for (std::size_t s = 0; s < sizes.size(); ++s) {
    const long long n = sizes[s];
    if (n > max_test_items()) continue;
    sort_buffers<Key, Value> b(n);
    std::deque<device_buffer<unsigned char>> workspaces;  // (device_buffer cannot move)
    for (const auto& entry : registry) workspaces.emplace_back(static_cast<long long>(entry.workspace_bytes(n)));
    // The combinations at this size: all of them, or random draws.
    struct combo {
      key_distribution dist;
      std::size_t range;
      bool descending;
    };
    std::vector<combo> combos;
    for (key_distribution d : all_key_distributions)
      for (std::size_t r = 0; r < ranges.size(); ++r)
        for (const bool descending : {false, true}) combos.push_back({d, r, descending});
    if (s >= small_count) {
      std::shuffle(combos.begin(), combos.end(), rng);
      combos.resize(n == huge_size ? 1 : large_draws);
    }
    for (const combo& c : combos) {
      const std::uint64_t data_seed = rng();
      const std::vector<Key> keys = make_sort_keys<Key>(n, c.dist, data_seed);
      radix_sort_options o = ranges[c.range];
      o.order = c.descending ? sort_order::descending : sort_order::ascending;
      const bool in_place = rng() % 3 == 0;
      SCOPED_TRACE(std::string(type_name<Key>()) + " keys, " + value_name<Value>() + ", n=" + std::to_string(n) +
                   ", " + key_distribution_name(c.dist) + " (seed " + std::to_string(data_seed) + ")");
      check_case(b, workspaces, keys, o, in_place);
      if (::testing::Test::HasFailure()) return;  // one case's report is enough
    }
  }
}

#define ONEPASS_RADIX_LADDER_TESTS(Key, name, seed)                       \
  TEST(RadixSortLadder, name##_keys) {                                    \
    ONEPASS_REQUIRE_GPU();                                                \
    check_radix_sort_ladder<Key, keys_only>(seed);                        \
  }                                                                       \
  TEST(RadixSortLadder, name##_pairs_uint32) {                            \
    ONEPASS_REQUIRE_GPU();                                                \
    check_radix_sort_ladder<Key, std::uint32_t>(seed + 1);                \
  }                                                                       \
  TEST(RadixSortLadder, name##_pairs_uint64) {                            \
    ONEPASS_REQUIRE_GPU();                                                \
    check_radix_sort_ladder<Key, std::uint64_t>(seed + 2);                \
  }

ONEPASS_RADIX_LADDER_TESTS(unsigned, uint32, 1100)
ONEPASS_RADIX_LADDER_TESTS(int, int32, 1110)
ONEPASS_RADIX_LADDER_TESTS(float, float, 1120)
ONEPASS_RADIX_LADDER_TESTS(unsigned long long, uint64, 1130)
ONEPASS_RADIX_LADDER_TESTS(long long, int64, 1140)
ONEPASS_RADIX_LADDER_TESTS(double, double, 1150)

// --- without a GPU: the registry's shape ----------------------------------------------
TEST(RadixSortLadderRegistry, LadderOrder) {
  const auto& infos = ladder::radix_sort_variants();
  // split_1bit first, the production entry ("onepass"), then CUB given an int count and
  // given a 64-bit count.
  ASSERT_EQ(infos.size(), 4u);
  EXPECT_STREQ(infos[0].id, "split_1bit");
  EXPECT_STREQ(infos[1].id, "onepass");
  EXPECT_STREQ(infos[2].id, "cub");
  EXPECT_STREQ(infos[3].id, "cub_64bit_count");
  for (const auto& info : infos) EXPECT_GT(std::string(info.summary).size(), 10u) << info.id;
  const auto& registry = ladder::radix_sort_registry<float, std::uint64_t>();
  ASSERT_EQ(registry.size(), infos.size());
  for (std::size_t i = 0; i < infos.size(); ++i) {
    EXPECT_STREQ(registry[i].id, infos[i].id);
    EXPECT_EQ((ladder::find_radix_sort<float, std::uint64_t>(infos[i].id)), &registry[i]);
    EXPECT_EQ((ladder::find_radix_sort<std::int32_t, keys_only>(infos[i].id)),
              &(ladder::radix_sort_registry<std::int32_t, keys_only>()[i]));
  }
  EXPECT_EQ((ladder::find_radix_sort<float, std::uint64_t>("no_such_variant")), nullptr);
}

}  // namespace
}  // namespace onepass::test
