// Every segmented-scan variant of the registry, in every form it has (head flags, CSR
// offsets, by key, begin/end arrays with gaps), on seven value types (the non-commutative
// affine maps among them), inclusive and exclusive, every segment-length distribution,
// sizes across the warp, the warp_head_flags chunk and the production tile, against the
// CPU reference (support/segmented_scan_reference.hpp), exact; the items in the gaps of
// the begin/end form must keep what out held (the poison, or in place the input). And,
// without a GPU, the registry's shape and what every entry refuses.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "onepass/ladder/segmented_scan/registry.cuh"
#include "support/cuda_call_counter.hpp"
#include "support/segmented_scan_reference.hpp"
#include "support/test_support.cuh"

namespace onepass::test {
namespace {

using Key = int;

// 0, 1, the warp edges, the warp_head_flags chunk's and the production tile's edges, a
// random size, and 2^20 + 1025 (1026 chunks: warp_head_flags scans its chunk totals in
// two rounds); capped by ONEPASS_TEST_MAX_N.
template <class T>
std::vector<long long> segmented_test_sizes(std::uint64_t seed) {
  const long long tile = onepass::detail::segmented_scan_plan<T>::tile_items;
  const long long chunk = ladder::detail::warp_head_flags_threads;
  std::mt19937_64 rng(seed);
  return capped_sorted_sizes({0, 1, 31, 32, 33, chunk - 1, chunk, chunk + 1, tile - 1, tile, tile + 1,
                              (1ll << 20) + 1025, 1 + static_cast<long long>(rng() % 300000)});
}

ladder::scan_kind to_ladder(kind k) {
  return k == kind::inclusive ? ladder::scan_kind::inclusive : ladder::scan_kind::exclusive;
}

enum class form { head_flags, offsets, by_key, begin_end, begin_end_gaps_copied };
const char* form_name(form f) {
  return f == form::head_flags  ? "head flags"
         : f == form::offsets   ? "offsets"
         : f == form::by_key    ? "by key"
         : f == form::begin_end ? "begin/end"
                                : "begin/end, gaps copied";
}

// Items after out's end that must keep their poison.
constexpr long long guard = 16;

// One input of n items, its segments in the three forms that cover every item and, with
// gaps cut out of them, as begin/end arrays; on the host and the device.
template <class T>
struct segmented_input {
  segmented_input(segment_distribution d, long long n, std::uint64_t seed)
      : values(random_vector<T>(n, seed)),
        offsets(csr_offsets(segment_lengths(d, n, seed + 1))),
        flags(head_flags_of(offsets, n)),
        keys(keys_of<Key>(offsets, n, seed + 2)),
        gaps(with_gaps(offsets, seed + 4)),
        d_values(values),
        d_flags(device_flags(flags, seed + 3)),
        d_offsets(offsets),
        d_keys(keys),
        d_begins(gaps.begin),
        d_ends(gaps.end) {}

  // Heads as any nonzero byte, and item 0's flag cleared: item 0 begins a segment anyway.
  static std::vector<std::uint8_t> device_flags(std::vector<std::uint8_t> f, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    for (auto& x : f)
      if (x != 0) x = static_cast<std::uint8_t>(1 + rng() % 255);
    if (!f.empty()) f[0] = 0;
    return f;
  }

  index_t n() const { return static_cast<index_t>(values.size()); }
  index_t num_segments() const { return static_cast<index_t>(offsets.size()) - 1; }

  std::vector<T> values;
  std::vector<long long> offsets;
  std::vector<std::uint8_t> flags;
  std::vector<Key> keys;
  begin_end gaps;  // the same segments, trimmed: items before, between and after them in none
  device_buffer<T> d_values;
  device_buffer<std::uint8_t> d_flags;
  device_buffer<long long> d_offsets;
  device_buffer<Key> d_keys;
  device_buffer<long long> d_begins, d_ends;
};

template <class T, class Op>
void run_form(const ladder::segmented_scan_entry<T, Key, Op>& v, form f, const segmented_input<T>& s, const T* in,
              T* out, kind k, T init, workspace ws) {
  switch (f) {
    case form::head_flags: v.run_flags(in, s.d_flags.get(), s.n(), out, to_ladder(k), init, Op{}, ws, nullptr); break;
    case form::offsets:
      v.run_offsets(in, s.n(), s.d_offsets.get(), s.num_segments(), out, to_ladder(k), init, Op{}, ws, nullptr);
      break;
    case form::by_key: v.run_by_key(s.d_keys.get(), in, s.n(), out, to_ladder(k), init, Op{}, ws, nullptr); break;
    case form::begin_end:
      v.run_begin_end(in, s.n(), s.d_begins.get(), s.d_ends.get(), static_cast<index_t>(s.gaps.begin.size()), out,
                      to_ladder(k), init, Op{}, ws, nullptr);
      break;
    case form::begin_end_gaps_copied:
      v.run_begin_end_gaps_copied(in, s.n(), s.d_begins.get(), s.d_ends.get(),
                                  static_cast<index_t>(s.gaps.begin.size()), out, to_ladder(k), init, Op{}, ws,
                                  nullptr);
      break;
  }
}

// Every variant x form x kind x distribution x size for one value type.
template <class T, class Op>
void check_segmented_scan_ladder(std::uint64_t seed) {
  const auto& registry = ladder::segmented_scan_registry<T, Key, Op>();
  ASSERT_EQ(registry.size(), 3u);
  const long long tile = onepass::detail::segmented_scan_plan<T>::tile_items;
  for (long long n : segmented_test_sizes<T>(seed)) {
    for (segment_distribution d : all_segment_distributions()) {
      const std::uint64_t data_seed = seed * 1000003 + static_cast<std::uint64_t>(n) * 31 + static_cast<int>(d);
      const segmented_input<T> s(d, n, data_seed);
      ASSERT_TRUE(exactly_representable_sums(s.values)) << "test data breaks the exactness bound";
      ASSERT_EQ(head_flags_from_keys(s.keys), s.flags) << "the keys do not give the segments";
      device_buffer<T> out(n + guard);
      std::mt19937_64 rng(data_seed);
      const T init = random_value<T>(rng);
      for (kind k : {kind::inclusive, kind::exclusive}) {
        const std::vector<T> want = reference_segmented_scan(s.values, s.flags, k, init, Op{});
        // The begin/end form writes its segments only: the gaps keep the poison out of
        // place, and in place (out a copy of in) the input; with its gap items copied,
        // the input in both.
        std::vector<T> want_gaps(static_cast<std::size_t>(n));
        std::memset(want_gaps.data(), 0xA5, want_gaps.size() * sizeof(T));  // device_buffer's poison
        std::vector<T> want_gaps_in_place = s.values;
        reference_segmented_scan(s.values, s.gaps.begin, s.gaps.end, k, init, Op{}, want_gaps);
        reference_segmented_scan(s.values, s.gaps.begin, s.gaps.end, k, init, Op{}, want_gaps_in_place);
        for (const auto& v : registry) {
          device_buffer<unsigned char> ws(static_cast<long long>(v.workspace_bytes(n)));
          for (form f : {form::head_flags, form::offsets, form::by_key, form::begin_end, form::begin_end_gaps_copied}) {
            if ((f == form::head_flags && !v.run_flags) || (f == form::offsets && !v.run_offsets) ||
                (f == form::by_key && !v.run_by_key) || (f == form::begin_end && !v.run_begin_end) ||
                (f == form::begin_end_gaps_copied && !v.run_begin_end_gaps_copied))
              continue;
            // In place across the production tile's edge; out of place always.
            for (bool in_place : {false, true}) {
              if (in_place && n != tile + 1) continue;
              SCOPED_TRACE(std::string(v.id) + " " + form_name(f) + " " + type_name<T>() + " " + kind_name(k) + " " +
                           distribution_name(d) + " n=" + std::to_string(n) + (in_place ? " in place" : ""));
              out.poison();
              if (in_place) throw_if(cudaMemcpy(out.get(), s.d_values.get(), sizeof(T) * n, cudaMemcpyDefault), "copy");
              run_form(v, f, s, in_place ? out.get() : s.d_values.get(), out.get(), k, init,
                       workspace{ws.get(), ws.bytes()});
              const cudaError_t e = cudaDeviceSynchronize();
              ASSERT_EQ(e, cudaSuccess) << cudaGetErrorString(e);
              std::vector<T> got = out.download();
              const std::string past_end = first_written(got, static_cast<std::size_t>(n));
              EXPECT_TRUE(past_end.empty()) << "wrote past the end: " << past_end;
              got.resize(static_cast<std::size_t>(n));
              const std::vector<T>& expected = f == form::begin_end_gaps_copied ? want_gaps_in_place
                                               : f != form::begin_end             ? want
                                               : in_place                         ? want_gaps_in_place
                                                                                  : want_gaps;
              const std::string diff = first_difference(expected, got);
              EXPECT_TRUE(diff.empty()) << diff;
            }
          }
        }
      }
    }
  }
}

#define ONEPASS_SEGMENTED_SCAN_LADDER_TEST(T, Op, name, seed) \
  TEST(SegmentedScanLadder, name) {                           \
    ONEPASS_REQUIRE_GPU();                                    \
    check_segmented_scan_ladder<T, Op>(seed);                 \
  }

ONEPASS_SEGMENTED_SCAN_LADDER_TEST(int, plus, int32, 1100)
ONEPASS_SEGMENTED_SCAN_LADDER_TEST(unsigned, plus, uint32, 1110)
ONEPASS_SEGMENTED_SCAN_LADDER_TEST(long long, plus, int64, 1120)
ONEPASS_SEGMENTED_SCAN_LADDER_TEST(unsigned long long, plus, uint64, 1130)
ONEPASS_SEGMENTED_SCAN_LADDER_TEST(float, plus, float, 1140)
ONEPASS_SEGMENTED_SCAN_LADDER_TEST(double, plus, double, 1150)
ONEPASS_SEGMENTED_SCAN_LADDER_TEST(affine, compose, affine_compose, 1160)

// --- without a GPU: the registry's shape and what the entries refuse ----------------------
TEST(SegmentedScanLadderRegistry, LadderOrderAndForms) {
  const auto infos = ladder::segmented_scan_variants();
  ASSERT_EQ(infos.size(), 4u);
  EXPECT_STREQ(infos[0].id, "warp_head_flags");
  EXPECT_STREQ(infos[1].id, "onepass");
  EXPECT_STREQ(infos[2].id, "deterministic");
  EXPECT_STREQ(infos[3].id, "cub");
  EXPECT_TRUE(infos[0].head_flags);
  EXPECT_FALSE(infos[0].offsets);
  EXPECT_FALSE(infos[0].by_key);
  EXPECT_FALSE(infos[0].begin_end);
  // onepass and its fixed order: every form.
  for (int i : {1, 2}) {
    EXPECT_TRUE(infos[i].head_flags);
    EXPECT_TRUE(infos[i].offsets);
    EXPECT_TRUE(infos[i].by_key);
    EXPECT_TRUE(infos[i].begin_end);
  }
  EXPECT_FALSE(infos[3].head_flags);
  EXPECT_FALSE(infos[3].offsets);
  EXPECT_TRUE(infos[3].by_key);
  EXPECT_FALSE(infos[3].begin_end);
  // Gap items copied: production's begin/end form only (in both orders).
  EXPECT_FALSE(infos[0].begin_end_gaps_copied);
  EXPECT_TRUE(infos[1].begin_end_gaps_copied);
  EXPECT_TRUE(infos[2].begin_end_gaps_copied);
  EXPECT_FALSE(infos[3].begin_end_gaps_copied);
  for (const auto& info : infos) EXPECT_GT(std::string(info.summary).size(), 10u) << info.id;

  const auto& registry = ladder::segmented_scan_registry<int, Key, plus>();
  ASSERT_EQ(registry.size(), infos.size());
  for (std::size_t i = 0; i < infos.size(); ++i) {
    SCOPED_TRACE(infos[i].id);
    const auto& e = registry[i];
    EXPECT_STREQ(e.id, infos[i].id);
    EXPECT_STREQ(e.summary, infos[i].summary);
    EXPECT_EQ(e.head_flags, infos[i].head_flags);
    EXPECT_EQ(e.offsets, infos[i].offsets);
    EXPECT_EQ(e.by_key, infos[i].by_key);
    EXPECT_EQ(e.begin_end, infos[i].begin_end);
    EXPECT_NE(e.workspace_bytes, nullptr);
    EXPECT_EQ(e.run_flags != nullptr, e.head_flags);
    EXPECT_EQ(e.run_offsets != nullptr, e.offsets);
    EXPECT_EQ(e.run_by_key != nullptr, e.by_key);
    EXPECT_EQ(e.run_begin_end != nullptr, e.begin_end);
    EXPECT_EQ(e.run_begin_end_gaps_copied != nullptr, e.begin_end_gaps_copied);
    EXPECT_EQ((ladder::find_segmented_scan<int, Key, plus>(infos[i].id)), &e);
  }
  EXPECT_EQ((ladder::find_segmented_scan<int, Key, plus>("no_such_variant")), nullptr);
  EXPECT_EQ((ladder::find_segmented_scan<int, Key, plus>("")), nullptr);
}

// Every refusal below comes before any device memory is looked at, so aligned stand-in
// pointers do (no GPU is needed): no entry makes a CUDA call, but for the CUB peer's
// workspace query, which enqueues nothing.
TEST(SegmentedScanLadderRegistry, EntriesRefuseBadArguments) {
  int* in = reinterpret_cast<int*>(std::uintptr_t{1} << 20);
  int* out = in + (1 << 16);
  const auto* flags = reinterpret_cast<const std::uint8_t*>(std::uintptr_t{1} << 24);
  const auto* offsets = reinterpret_cast<const long long*>(std::uintptr_t{1} << 25);
  const auto* keys = reinterpret_cast<const Key*>(std::uintptr_t{1} << 26);
  const auto* begins = reinterpret_cast<const long long*>(std::uintptr_t{1} << 27);
  const auto* ends = begins + 5;
  const workspace none{};
  const auto inc = ladder::scan_kind::inclusive;
  const auto exc = ladder::scan_kind::exclusive;
  constexpr index_t n = 100;
  (void)gpu_available();  // asks the runtime once, before the counting
  for (const auto& v : ladder::segmented_scan_registry<int, Key, plus>()) {
    SCOPED_TRACE(v.id);
    // The entry's workspace size needs the runtime for the CUB peer only.
    const bool is_cub = std::string(v.id) == "cub";
    const bool can_size_workspace = !is_cub || gpu_available();
    const std::vector<long long> calls_before = cuda_call_counts();
    if (v.run_flags) {
      SCOPED_TRACE("head flags");
      expect_rejected([&] { v.run_flags(in, flags, -1, out, inc, 0, plus{}, none, nullptr); }, "n", "negative");
      expect_rejected([&] { v.run_flags(nullptr, flags, n, out, exc, 0, plus{}, none, nullptr); }, "in", "null");
      expect_rejected([&] { v.run_flags(in, flags, n, nullptr, inc, 0, plus{}, none, nullptr); }, "out", "null");
      expect_rejected([&] { v.run_flags(in, nullptr, n, out, exc, 0, plus{}, none, nullptr); }, "head_flags", "null");
      expect_rejected([&] { v.run_flags(in, flags, n, in + 50, inc, 0, plus{}, none, nullptr); }, "out", "overlaps");
      expect_rejected([&] {
        v.run_flags(in, reinterpret_cast<const std::uint8_t*>(out + 10), n, out, inc, 0, plus{}, none, nullptr);
      }, "head_flags", "overlaps 'out'");
      if (can_size_workspace)
        expect_rejected([&] { v.run_flags(in, flags, n, out, inc, 0, plus{}, none, nullptr); }, "workspace", "null");
    }
    if (v.run_offsets) {
      SCOPED_TRACE("offsets");
      expect_rejected([&] { v.run_offsets(in, -1, offsets, 5, out, inc, 0, plus{}, none, nullptr); }, "n",
                      "negative");
      expect_rejected([&] { v.run_offsets(nullptr, n, offsets, 5, out, exc, 0, plus{}, none, nullptr); }, "in",
                      "null");
      expect_rejected([&] { v.run_offsets(in, n, offsets, 5, nullptr, inc, 0, plus{}, none, nullptr); }, "out",
                      "null");
      expect_rejected([&] { v.run_offsets(in, n, nullptr, 5, out, exc, 0, plus{}, none, nullptr); }, "offsets",
                      "null");
      expect_rejected([&] { v.run_offsets(in, n, offsets, -2, out, inc, 0, plus{}, none, nullptr); },
                      "num_segments", "negative");
      expect_rejected([&] { v.run_offsets(in, n, offsets, 5, in + 1, inc, 0, plus{}, none, nullptr); }, "out",
                      "overlaps");
      if (can_size_workspace)
        expect_rejected([&] { v.run_offsets(in, n, offsets, 5, out, inc, 0, plus{}, none, nullptr); }, "workspace",
                        "null");
    }
    if (v.run_by_key) {
      SCOPED_TRACE("by key");
      expect_rejected([&] { v.run_by_key(keys, in, -1, out, inc, 0, plus{}, none, nullptr); }, "n", "negative");
      expect_rejected([&] { v.run_by_key(keys, nullptr, n, out, exc, 0, plus{}, none, nullptr); }, "in", "null");
      expect_rejected([&] { v.run_by_key(keys, in, n, nullptr, inc, 0, plus{}, none, nullptr); }, "out", "null");
      expect_rejected([&] { v.run_by_key(nullptr, in, n, out, exc, 0, plus{}, none, nullptr); }, "keys", "null");
      expect_rejected([&] { v.run_by_key(keys, in, n, in - 99, inc, 0, plus{}, none, nullptr); }, "out",
                      "overlaps");
      expect_rejected([&] { v.run_by_key(out + 99, in, n, out, inc, 0, plus{}, none, nullptr); }, "keys",
                      "overlaps 'out'");
      if (can_size_workspace)
        expect_rejected([&] { v.run_by_key(keys, in, n, out, inc, 0, plus{}, none, nullptr); }, "workspace", "null");
    }
    if (v.run_begin_end) {
      SCOPED_TRACE("begin/end");
      expect_rejected([&] { v.run_begin_end(in, -1, begins, ends, 5, out, inc, 0, plus{}, none, nullptr); }, "n",
                      "negative");
      expect_rejected([&] { v.run_begin_end(nullptr, n, begins, ends, 5, out, exc, 0, plus{}, none, nullptr); },
                      "in", "null");
      expect_rejected([&] { v.run_begin_end(in, n, begins, ends, 5, nullptr, inc, 0, plus{}, none, nullptr); },
                      "out", "null");
      expect_rejected([&] { v.run_begin_end(in, n, nullptr, ends, 5, out, exc, 0, plus{}, none, nullptr); },
                      "begins", "null");
      expect_rejected([&] { v.run_begin_end(in, n, begins, nullptr, 5, out, inc, 0, plus{}, none, nullptr); },
                      "ends", "null");
      expect_rejected([&] { v.run_begin_end(in, n, begins, ends, -2, out, inc, 0, plus{}, none, nullptr); },
                      "num_segments", "negative");
      expect_rejected([&] { v.run_begin_end(in, n, begins, ends, 5, in + 1, inc, 0, plus{}, none, nullptr); },
                      "out", "overlaps");
      if (can_size_workspace) {
        expect_rejected([&] { v.run_begin_end(in, n, begins, ends, 5, out, inc, 0, plus{}, none, nullptr); },
                        "workspace", "null");
        // One byte short of what the entry asks for.
        auto* bytes = reinterpret_cast<unsigned char*>(std::uintptr_t{1} << 28);
        const workspace small{bytes, v.workspace_bytes(n) - 1};
        expect_rejected([&] { v.run_begin_end(in, n, begins, ends, 5, out, exc, 0, plus{}, small, nullptr); },
                        "workspace", "holds");
      }
    }
    EXPECT_EQ(cuda_calls_since(calls_before, /*enqueuing_only=*/is_cub), "");
  }
  // warp_head_flags launches one block per 1024 items: past a one-dimensional grid it refuses.
  const auto* whf = ladder::find_segmented_scan<int, Key, plus>("warp_head_flags");
  ASSERT_NE(whf, nullptr);
  const index_t too_many = ladder::warp_head_flags::max_items + 1;
  expect_no_cuda_calls([&] {
    expect_rejected([&] { whf->run_flags(in, flags, too_many, out, inc, 0, plus{}, none, nullptr); }, "n",
                    "at most " + std::to_string(ladder::warp_head_flags::max_items));
  });
}

// An empty input needs no pointers and no workspace, and makes no CUDA call at all.
TEST(SegmentedScanLadderRegistry, EmptyInputIsAccepted) {
  const auto inc = ladder::scan_kind::inclusive;
  for (const auto& v : ladder::segmented_scan_registry<int, Key, plus>()) {
    SCOPED_TRACE(v.id);
    const std::vector<long long> calls_before = cuda_call_counts();
    EXPECT_EQ(v.workspace_bytes(0), 0u);
    if (v.run_flags) EXPECT_NO_THROW(v.run_flags(nullptr, nullptr, 0, nullptr, inc, 0, plus{}, {}, nullptr));
    if (v.run_offsets) EXPECT_NO_THROW(v.run_offsets(nullptr, 0, nullptr, 0, nullptr, inc, 0, plus{}, {}, nullptr));
    if (v.run_by_key) EXPECT_NO_THROW(v.run_by_key(nullptr, nullptr, 0, nullptr, inc, 0, plus{}, {}, nullptr));
    if (v.run_begin_end)
      EXPECT_NO_THROW(v.run_begin_end(nullptr, 0, nullptr, nullptr, 0, nullptr, inc, 0, plus{}, {}, nullptr));
    if (v.run_begin_end_gaps_copied)
      EXPECT_NO_THROW(
          v.run_begin_end_gaps_copied(nullptr, 0, nullptr, nullptr, 0, nullptr, inc, 0, plus{}, {}, nullptr));
    EXPECT_EQ(cuda_calls_since(calls_before), "");
  }
}

}  // namespace
}  // namespace onepass::test
