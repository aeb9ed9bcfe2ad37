// The lookback protocol (onepass/single_pass/lookback.cuh) driven by CPU threads: the very code the GPU
// kernels use, compiled for the host, where each thread plays a thread block. Built with
// ThreadSanitizer, which fails the test on any data race; checked against a sequential
// scan, with oversubscribed threads and stalled tiles so successors really wait, and with
// 1-, 2- and 4-word descriptors.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <random>
#include <thread>
#include <type_traits>
#include <vector>

#include "onepass/single_pass/lookback.cuh"

namespace {

using onepass::lookback::tile_state;
using onepass::lookback::tile_status;
using onepass::lookback::tile_counter;
using onepass::lookback::descriptor_word;

// 16 bytes, non-commutative: affine maps mod 2^64 (see tests/support/test_support.cuh).
struct affine64 {
  std::uint64_t a, b;
  bool operator==(const affine64& o) const { return a == o.a && b == o.b; }
};
struct compose64 {
  affine64 operator()(const affine64& f, const affine64& g) const { return {g.a * f.a, g.a * f.b + g.b}; }
};
struct plus {
  template <class T>
  T operator()(T x, T y) const { return x + y; }
};

template <class T>
T random_item(std::mt19937_64& rng) {
  if constexpr (std::is_same_v<T, affine64>) return {rng() | 1, rng()};
  else return static_cast<T>(rng());
}

// A lookback over slots of two tiles, as lookback_warp walks them on the device (one
// 16-byte read a slot, windows aligned to slots, `tile` itself read but never folded when
// tile - 1 is even), one thread here. Returns the combination of tiles [0, tile).
template <class State, class Op>
typename State::value_type lookback_by_slots(const State& state, long long tile, Op op) {
  static_assert(State::tiles_per_slot == 2);
  using T = typename State::value_type;
  long long slot_first = (tile - 1) & ~1ll;  // the slot holding tile - 1
  T running{};
  bool have_running = false;
  for (;;) {
    T values[2];
    tile_status status[2];
    unsigned ns = 32;
    for (;;) {
      state.try_read_slot(slot_first, values[0], status[0], values[1], status[1]);
      if (slot_first + 1 == tile) status[1] = tile_status::aggregate;  // ours: not folded
      // Ready as lookback_warp's windows are: no INVALID above the highest PREFIX.
      const bool top_waits = slot_first + 1 < tile && status[1] == tile_status::invalid;
      if (!top_waits && (status[1] == tile_status::prefix || status[0] != tile_status::invalid)) break;
      onepass::lookback::backoff(ns);
    }
    for (int k = 1; k >= 0; --k) {
      if (slot_first + k >= tile) continue;
      running = have_running ? op(values[k], running) : values[k];
      have_running = true;
      if (status[k] == tile_status::prefix) return running;
    }
    slot_first -= 2;
  }
}

// Scans `in` with `threads` CPU threads, one tile of `tile_items` at a time, exactly as the
// production kernel does: claim a tile, publish its aggregate, look back, publish prefix.
// State: tile_state<T> or another layout of it (slots of two tiles are read a slot at a
// time, lookback_by_slots).
template <class T, class Op, class State = tile_state<T>>
std::vector<T> protocol_scan(const std::vector<T>& in, int tile_items, int threads, Op op, bool stall) {
  const long long n = static_cast<long long>(in.size());
  const long long tiles = (n + tile_items - 1) / tile_items;
  std::vector<descriptor_word> words(State::bytes(tiles) / sizeof(descriptor_word), 0);
  unsigned long long counter_word = 0;
  const State state(words.data());
  const tile_counter counter(&counter_word);
  std::vector<T> out(in.size());

  auto block = [&](int id) {
    std::mt19937_64 rng(id);
    for (;;) {
      const long long tile = counter.claim();
      if (tile >= tiles) return;
      const long long begin = tile * tile_items;
      const long long end = std::min(n, begin + tile_items);
      std::vector<T> local(in.begin() + begin, in.begin() + end);
      for (std::size_t i = 1; i < local.size(); ++i) local[i] = op(local[i - 1], local[i]);
      const T aggregate = local.back();
      if (stall && rng() % 8 == 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
      T prefix{};
      if (tile == 0) {
        state.publish(tile, tile_status::prefix, aggregate);
      } else {
        state.publish(tile, tile_status::aggregate, aggregate);
        if (stall && rng() % 8 == 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
        if constexpr (State::tiles_per_slot == 2) prefix = lookback_by_slots(state, tile, op);
        else prefix = onepass::lookback::lookback_single(state, tile, op);
        state.publish(tile, tile_status::prefix, op(prefix, aggregate));
      }
      for (long long i = begin; i < end; ++i) out[i] = tile == 0 ? local[i - begin] : op(prefix, local[i - begin]);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(block, t);
  for (auto& th : pool) th.join();
  return out;
}

template <class T, class Op, class State = tile_state<T>>
void check_protocol(long long n, int tile_items, int threads, bool stall, Op op) {
  std::mt19937_64 rng(n * 31 + tile_items);
  std::vector<T> in(static_cast<std::size_t>(n));
  for (auto& x : in) x = random_item<T>(rng);
  std::vector<T> expected(in.size());
  T acc = in[0];
  expected[0] = acc;
  for (std::size_t i = 1; i < in.size(); ++i) expected[i] = acc = op(acc, in[i]);
  const std::vector<T> got = protocol_scan<T, Op, State>(in, tile_items, threads, op, stall);
  for (std::size_t i = 0; i < in.size(); ++i) ASSERT_TRUE(got[i] == expected[i]) << "index " << i;
}

constexpr int oversubscribed = 16;  // more threads than cores: tiles get preempted mid-protocol

TEST(LookbackProtocolCpu, OneWordDescriptors) {
  check_protocol<std::uint32_t>(100000, 64, oversubscribed, false, plus{});
  check_protocol<std::uint32_t>(20000, 16, oversubscribed, true, plus{});
}

TEST(LookbackProtocolCpu, TwoWordDescriptors) {
  check_protocol<std::uint64_t>(100000, 64, oversubscribed, false, plus{});
  check_protocol<std::uint64_t>(20000, 16, oversubscribed, true, plus{});
}

TEST(LookbackProtocolCpu, FourWordDescriptorsNonCommutative) {
  check_protocol<affine64>(100000, 64, oversubscribed, false, compose64{});
  check_protocol<affine64>(20000, 16, oversubscribed, true, compose64{});
}

// The plain scan's 4-byte descriptors: two tiles to a slot, read a slot at a time; also
// packed (slots of two words, four tiles to a sector). Odd and even tile counts.
TEST(LookbackProtocolCpu, TwoTilesASlot) {
  using paired = tile_state<std::uint32_t, 4, 2>;
  using packed = tile_state<std::uint32_t, 2, 2>;
  check_protocol<std::uint32_t, plus, paired>(100000, 64, oversubscribed, false, plus{});
  check_protocol<std::uint32_t, plus, paired>(20000, 16, oversubscribed, true, plus{});
  check_protocol<std::uint32_t, plus, paired>(20000 - 16, 16, oversubscribed, true, plus{});
  check_protocol<std::uint32_t, plus, packed>(20000, 16, oversubscribed, true, plus{});
  for (const long long n : {1ll, 16ll, 17ll, 33ll, 48ll, 49ll})
    check_protocol<std::uint32_t, plus, paired>(n, 16, 4, false, plus{});
}

TEST(LookbackProtocolCpu, SingleTileAndPartialLastTile) {
  check_protocol<std::uint32_t>(1, 64, 4, false, plus{});
  check_protocol<std::uint32_t>(65, 64, 4, false, plus{});
}

// A multi-word descriptor caught between AGGREGATE and PREFIX must read as not ready.
TEST(TileState, HalfUpdatedDescriptorReadsInvalid) {
  std::vector<descriptor_word> words(tile_state<std::uint64_t>::bytes(2) / sizeof(descriptor_word), 0);
  const tile_state<std::uint64_t> state(words.data());
  std::uint64_t v = 0;
  EXPECT_EQ(state.try_read(1, v), tile_status::invalid);
  state.publish(1, tile_status::aggregate, 0x1111111122222222ull);
  ASSERT_EQ(state.try_read(1, v), tile_status::aggregate);
  EXPECT_EQ(v, 0x1111111122222222ull);
  // Word 0 of tile 1 already carries the PREFIX, word 1 still the AGGREGATE.
  words[2] = (static_cast<descriptor_word>(tile_status::prefix) << 32) | 0x33333333u;
  v = 7;
  EXPECT_EQ(state.try_read(1, v), tile_status::invalid);
  EXPECT_EQ(v, 7u) << "a rejected read must not touch the value";
  state.publish(1, tile_status::prefix, 0x4444444433333333ull);
  ASSERT_EQ(state.try_read(1, v), tile_status::prefix);
  EXPECT_EQ(v, 0x4444444433333333ull);
  EXPECT_EQ(state.try_read(0, v), tile_status::invalid) << "tile 0 untouched";
}

// A tag rides in the status half of every word of a publication: read back with the value
// and the status, left alone while INVALID, and a descriptor whose words disagree on the
// tag (a torn read between two publications) reads INVALID like one whose statuses do.
TEST(TileState, TagsRideInTheStatusWords) {
  using state_t = tile_state<std::uint64_t, 4>;
  std::vector<descriptor_word> words(state_t::bytes(3) / sizeof(descriptor_word), 0);
  const state_t state(words.data());
  std::uint64_t v = 5;
  std::uint32_t tag = 9;
  EXPECT_EQ(state.try_read(1, v, tag), tile_status::invalid);
  EXPECT_EQ(v, 5u);
  EXPECT_EQ(tag, 9u) << "an INVALID read leaves the tag alone";
  state.publish(1, tile_status::aggregate, 0x1111111122222222ull, 0);
  ASSERT_EQ(state.try_read(1, v, tag), tile_status::aggregate);
  EXPECT_EQ(v, 0x1111111122222222ull);
  EXPECT_EQ(tag, 0u);
  state.publish(1, tile_status::prefix, 0x3333333344444444ull, 2);
  ASSERT_EQ(state.try_read(1, v, tag), tile_status::prefix);
  EXPECT_EQ(v, 0x3333333344444444ull);
  EXPECT_EQ(tag, 2u);
  EXPECT_EQ(words[4] >> 32, (2u << state_t::status_bits) | static_cast<std::uint32_t>(tile_status::prefix));
  // Word 0 of tile 2 from a PREFIX tagged 1, word 1 from one tagged 2: not one publication.
  words[8] = (static_cast<descriptor_word>(1u << state_t::status_bits | 2u) << 32) | 7u;
  words[9] = (static_cast<descriptor_word>(2u << state_t::status_bits | 2u) << 32) | 7u;
  EXPECT_EQ(state.try_read(2, v, tag), tile_status::invalid);
  EXPECT_EQ(tag, 2u);
  // The largest tag, beside the largest status.
  state.publish(0, tile_status::prefix, ~0ull, state_t::max_tag);
  ASSERT_EQ(state.try_read(0, v, tag), tile_status::prefix);
  EXPECT_EQ(v, ~0ull);
  EXPECT_EQ(tag, state_t::max_tag);
  // An untagged publication reads the same through both calls; the call without a tag
  // drops a tagged publication's tag (lookback_window can walk a tagged state).
  state.publish(2, tile_status::aggregate, 12u);
  EXPECT_EQ(state.try_read(2, v), tile_status::aggregate);
  EXPECT_EQ(state.try_read(2, v, tag), tile_status::aggregate);
  EXPECT_EQ(tag, 0u);
  EXPECT_EQ(state.try_read(0, v), tile_status::prefix);
  EXPECT_EQ(state.try_read(1, v), tile_status::prefix);
  EXPECT_EQ(v, 0x3333333344444444ull);
}

// One-word descriptors (4-byte values) sit in two-word slots by default, so that at most
// two tiles share a 32-byte sector; wider ones fill their slot. A slot's unused words are
// never written, and clear_part clears them with the rest.
TEST(TileState, DescriptorsSitInSlotsOfTwoOrMoreWords) {
  static_assert(tile_state<std::uint32_t>::bytes(3) == 3 * 16);
  static_assert(tile_state<std::uint64_t>::bytes(3) == 3 * 16);
  static_assert(tile_state<std::uint16_t>::bytes(1) == 16);
  struct twelve {
    std::uint32_t a, b, c;
  };
  static_assert(tile_state<twelve>::bytes(2) == 2 * 24);
  // A slot of four words: one descriptor to a 32-byte sector (select, segmented scan).
  static_assert(tile_state<std::uint32_t, 4>::bytes(3) == 3 * 32);
  static_assert(tile_state<std::uint64_t, 4>::bytes(3) == 3 * 32);
  static_assert(tile_state<twelve, 4>::bytes(2) == 2 * 32);
  std::vector<descriptor_word> words(tile_state<std::uint32_t>::bytes(3) / sizeof(descriptor_word), ~0ull);
  const tile_state<std::uint32_t> state(words.data());
  state.clear_part(3, 0, 1);
  for (const descriptor_word w : words) ASSERT_EQ(w, 0u) << "every word, slots' unused halves included";
  state.publish(1, tile_status::aggregate, 0xabcdu);
  state.publish(2, tile_status::prefix, 0x1234u);
  EXPECT_EQ(words[0], 0u);
  EXPECT_EQ(words[1], 0u);
  EXPECT_EQ(words[2], (static_cast<descriptor_word>(tile_status::aggregate) << 32) | 0xabcdu);
  EXPECT_EQ(words[3], 0u);
  EXPECT_EQ(words[4], (static_cast<descriptor_word>(tile_status::prefix) << 32) | 0x1234u);
  EXPECT_EQ(words[5], 0u);
  std::uint32_t v = 0;
  EXPECT_EQ(state.try_read(2, v), tile_status::prefix);
  EXPECT_EQ(v, 0x1234u);

  std::vector<descriptor_word> wide(tile_state<std::uint64_t, 4>::bytes(2) / sizeof(descriptor_word), ~0ull);
  const tile_state<std::uint64_t, 4> spaced(wide.data());
  spaced.clear_part(2, 0, 1);
  spaced.publish(1, tile_status::aggregate, 0x1111111122222222ull);
  EXPECT_EQ(wide[4], (static_cast<descriptor_word>(tile_status::aggregate) << 32) | 0x22222222u);
  EXPECT_EQ(wide[5], (static_cast<descriptor_word>(tile_status::aggregate) << 32) | 0x11111111u);
  EXPECT_EQ(wide[6] | wide[7] | wide[0] | wide[1] | wide[2] | wide[3], 0u);
  std::uint64_t w = 0;
  EXPECT_EQ(spaced.try_read(1, w), tile_status::aggregate);
  EXPECT_EQ(w, 0x1111111122222222ull);
  EXPECT_EQ(spaced.try_read(0, w), tile_status::invalid);
}

// Two tiles to a slot: tile t's word at slot t / 2, word t % 2; bytes rounded up to whole
// slots; clear_part clears whole slots; try_read_slot reads both tiles, each with its own
// status, and try_read reads either.
TEST(TileState, TwoTilesASlot) {
  using state_t = tile_state<std::uint32_t, 4, 2>;
  static_assert(state_t::tiles_per_slot == 2 && state_t::slot_words == 4);
  static_assert(state_t::bytes(1) == 32 && state_t::bytes(3) == 2 * 32 && state_t::bytes(4) == 2 * 32);
  static_assert(tile_state<std::uint32_t, 2, 2>::bytes(3) == 2 * 16);
  std::vector<descriptor_word> words(state_t::bytes(3) / sizeof(descriptor_word), ~0ull);
  const state_t state(words.data());
  state.clear_part(3, 0, 1);
  for (const descriptor_word w : words) ASSERT_EQ(w, 0u) << "whole slots, the unused words included";
  state.publish(1, tile_status::aggregate, 0xabcdu);
  state.publish(2, tile_status::prefix, 0x1234u);
  EXPECT_EQ(words[0], 0u);
  EXPECT_EQ(words[1], (static_cast<descriptor_word>(tile_status::aggregate) << 32) | 0xabcdu);
  EXPECT_EQ(words[2] | words[3] | words[5] | words[6] | words[7], 0u);
  EXPECT_EQ(words[4], (static_cast<descriptor_word>(tile_status::prefix) << 32) | 0x1234u);
  std::uint32_t v0 = 7, v1 = 7;
  tile_status s0, s1;
  state.try_read_slot(0, v0, s0, v1, s1);
  EXPECT_EQ(s0, tile_status::invalid);
  EXPECT_EQ(v0, 7u) << "an INVALID read leaves the value alone";
  EXPECT_EQ(s1, tile_status::aggregate);
  EXPECT_EQ(v1, 0xabcdu);
  state.try_read_slot(2, v0, s0, v1, s1);
  EXPECT_EQ(s0, tile_status::prefix);
  EXPECT_EQ(v0, 0x1234u);
  EXPECT_EQ(s1, tile_status::invalid);
  std::uint32_t v = 0;
  EXPECT_EQ(state.try_read(1, v), tile_status::aggregate);
  EXPECT_EQ(v, 0xabcdu);
  EXPECT_EQ(state.try_read(2, v), tile_status::prefix);
  EXPECT_EQ(v, 0x1234u);
}

// The radix sort's use of the protocol: one interleaved state per digit. CPU threads play
// the blocks of one counting-sort pass: claim a tile, count its digits, publish every
// digit's count, look back per digit, and scatter the tile's keys stably. The result must
// be the stable sort by digit. State: tile_state<std::uint32_t> or count_state<16>;
// Window: 0 looks back with lookback_single, else lookback_window<Window>, or with
// Counts (count_state only) lookback_counts<Window>.
constexpr int pass_digits = 16;
template <class State, int Window, bool Counts = false>
void counting_pass_on_threads(long long n, int tile_items, int threads, bool stall) {
  constexpr int digits = pass_digits;
  std::mt19937_64 rng(n + tile_items);
  std::vector<std::uint32_t> keys(static_cast<std::size_t>(n));
  for (auto& k : keys) k = static_cast<std::uint32_t>(rng());
  const auto digit = [](std::uint32_t k) { return static_cast<int>((k >> 7) % digits); };
  const long long tiles = (n + tile_items - 1) / tile_items;
  std::vector<descriptor_word> words(digits * State::bytes(tiles) / sizeof(descriptor_word) + 1, 0);
  unsigned long long counter_word = 0;
  const tile_counter counter(&counter_word);
  // Where each digit's keys start in the output: the counts of all smaller digits.
  std::vector<long long> digit_start(digits, 0);
  for (auto k : keys) ++digit_start[digit(k)];
  for (long long d = 0, sum = 0; d < digits; ++d) std::swap(digit_start[d], sum), sum += digit_start[d];
  std::vector<std::uint32_t> out(keys.size());

  auto block = [&](int id) {
    std::mt19937_64 local_rng(id);
    for (;;) {
      const long long tile = counter.claim();
      if (tile >= tiles) return;
      const long long begin = tile * tile_items, end = std::min(n, begin + tile_items);
      std::uint32_t counts[digits] = {};
      for (long long i = begin; i < end; ++i) ++counts[digit(keys[i])];
      long long before[digits] = {};  // this digit's keys in earlier tiles
      for (int d = 0; d < digits; ++d) {
        State state;
        if constexpr (std::is_same_v<State, tile_state<std::uint32_t>>)
          state = State(words.data(), d, digits);
        else
          state = State(words.data(), d);
        if (tile == 0) {
          state.publish(tile, tile_status::prefix, counts[d]);
          continue;
        }
        state.publish(tile, tile_status::aggregate, counts[d]);
        if (stall && local_rng() % 16 == 0) std::this_thread::sleep_for(std::chrono::microseconds(100));
        if constexpr (Counts)
          before[d] = onepass::lookback::lookback_counts<Window>(state, tile);
        else if constexpr (Window == 0)
          before[d] = onepass::lookback::lookback_single(state, tile, plus{});
        else
          before[d] = onepass::lookback::lookback_window<Window>(state, tile, plus{});
        state.publish(tile, tile_status::prefix, static_cast<std::uint32_t>(before[d] + counts[d]));
      }
      long long seen[digits] = {};
      for (long long i = begin; i < end; ++i) {
        const int d = digit(keys[i]);
        out[digit_start[d] + before[d] + seen[d]++] = keys[i];
      }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(block, t);
  for (auto& th : pool) th.join();
  std::vector<std::uint32_t> expected = keys;
  std::stable_sort(expected.begin(), expected.end(), [&](auto a, auto b) { return digit(a) < digit(b); });
  for (std::size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], expected[i]) << "index " << i;
}

TEST(LookbackProtocolCpu, InterleavedStatesOnePerDigit) {
  counting_pass_on_threads<tile_state<std::uint32_t>, 0>(50000, 64, oversubscribed, false);
  counting_pass_on_threads<tile_state<std::uint32_t>, 0>(20000, 32, oversubscribed, true);
  counting_pass_on_threads<tile_state<std::uint32_t>, 0>(65, 64, 4, false);
}

// The production sort's variant: 32-bit count descriptors, several predecessors read at
// once (windows that reach below tile 0, and windows stopped half-way by an INVALID).
using counts16 = onepass::lookback::count_state<pass_digits>;
TEST(LookbackProtocolCpu, PackedCountsWindowedLookback) {
  counting_pass_on_threads<counts16, 4>(50000, 64, oversubscribed, false);
  counting_pass_on_threads<counts16, 4>(20000, 32, oversubscribed, true);
  counting_pass_on_threads<counts16, 8>(65, 64, 4, false);
  counting_pass_on_threads<counts16, 8>(3000, 16, oversubscribed, true);
  counting_pass_on_threads<tile_state<std::uint32_t>, 3>(20000, 32, oversubscribed, true);
}

// lookback_counts, the production sort's walk: whole windows of AGGREGATEs folded at
// once, windows reaching below tile 0, windows stopped half-way by an INVALID (stalls).
TEST(LookbackProtocolCpu, CountWalkFoldsWholeWindows) {
  counting_pass_on_threads<counts16, 1, true>(20000, 32, oversubscribed, true);
  counting_pass_on_threads<counts16, 2, true>(50000, 64, oversubscribed, false);
  counting_pass_on_threads<counts16, 4, true>(50000, 16, oversubscribed, true);
  counting_pass_on_threads<counts16, 4, true>(65, 64, 4, false);
  counting_pass_on_threads<counts16, 8, true>(3000, 16, oversubscribed, true);
  counting_pass_on_threads<counts16, 8, true>(40000, 8, oversubscribed, false);
}

// Exact sums where the AGGREGATE tags wrap modulo 2^32 (Window x 2^30 >= 2^32) and counts
// are at their largest, straight from a prepared array: no threads needed.
TEST(LookbackCounts, SumsNearTheThirtyBitLimitAndStopsAtPrefix) {
  using state2 = onepass::lookback::count_state<2>;
  constexpr int tiles = 11;
  std::uint32_t words[2 * tiles] = {};
  const state2 a(words, 0), b(words, 1);
  // State a: tile 0 PREFIX 5, tiles 1..9 AGGREGATE of 2^26 + t (sum < 2^30 + 2^30).
  a.publish(0, tile_status::prefix, 5);
  std::uint64_t expected = 5;
  for (int t = 1; t < 10; ++t) {
    a.publish(t, tile_status::aggregate, (1u << 26) + t);
    expected += (1u << 26) + t;
  }
  EXPECT_EQ(onepass::lookback::lookback_counts<8>(a, 10), static_cast<std::uint32_t>(expected));
  EXPECT_EQ(onepass::lookback::lookback_counts<4>(a, 10), static_cast<std::uint32_t>(expected));
  EXPECT_EQ(onepass::lookback::lookback_counts<1>(a, 10), static_cast<std::uint32_t>(expected));
  EXPECT_EQ(onepass::lookback::lookback_counts<8>(a, 1), 5u) << "tile 1: tile 0's PREFIX alone";
  // State b: a PREFIX in the middle ends the walk; what lies below it is never read.
  b.publish(0, tile_status::aggregate, state2::max_count);  // would be wrong to add
  b.publish(6, tile_status::prefix, state2::max_count - 100);
  for (int t = 7; t < 10; ++t) b.publish(t, tile_status::aggregate, 25);
  EXPECT_EQ(onepass::lookback::lookback_counts<4>(b, 10), state2::max_count - 25);
  EXPECT_EQ(onepass::lookback::lookback_counts<8>(b, 10), state2::max_count - 25);
  EXPECT_EQ(onepass::lookback::lookback_counts<2>(b, 7), state2::max_count - 100);
}

TEST(CountState, PacksStatusAndThirtyBitCount) {
  std::uint32_t words[6] = {};
  using count_state = onepass::lookback::count_state<2>;
  const count_state a(words, 0), b(words, 1);
  std::uint32_t v = 7;
  EXPECT_EQ(a.try_read(1, v), tile_status::invalid);
  EXPECT_EQ(v, 7u) << "an INVALID read leaves the value alone";
  a.publish(1, tile_status::aggregate, count_state::max_count);
  b.publish(1, tile_status::prefix, 0);
  EXPECT_EQ(a.try_read(1, v), tile_status::aggregate);
  EXPECT_EQ(v, count_state::max_count);
  EXPECT_EQ(b.try_read(1, v), tile_status::prefix);
  EXPECT_EQ(v, 0u);
  EXPECT_EQ(words[2], (1u << 30) | count_state::max_count) << "state 0 of tile 1 is word 1 * 2 + 0";
  EXPECT_EQ(words[3], 2u << 30);
  EXPECT_EQ(a.try_read(2, v), tile_status::invalid);
  EXPECT_EQ(count_state::bytes(3), 12u);
}

TEST(TileCounter, ClaimsAreUniqueAndDense) {
  unsigned long long word = 0;
  const tile_counter counter(&word);
  std::vector<std::atomic<int>> seen(8 * 5000);
  std::vector<std::thread> pool;
  for (int t = 0; t < 8; ++t)
    pool.emplace_back([&] {
      for (int i = 0; i < 5000; ++i) seen[counter.claim()].fetch_add(1);
    });
  for (auto& th : pool) th.join();
  for (auto& s : seen) ASSERT_EQ(s.load(), 1);
}

}  // namespace
