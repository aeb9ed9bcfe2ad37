// The production stream compaction through its public API: select_if, select_flagged
// (uint8 and bool flags), unique and partition, for six arithmetic types and a 12-byte
// struct, keep fractions from none to all, runs of every length, sizes from 0 to 2^24 + 5
// and past 2^31, the split tile (aligned 8-byte items, 4-byte partitions), the one-tile
// kernel's 128-bit and scalar paths, in place, a predicate that reads the
// index, partition's stability, every call style (simple, workspace, *_to_host), a
// non-default stream, CUDA-graph capture, the checks that need the runtime, and stalled
// tiles that the lookback must wait for. Every result is compared exactly with the CPU
// reference, with the outputs and the count poisoned before the call; nothing past the
// count may be written.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstring>
#include <ostream>
#include <random>
#include <type_traits>

#include "onepass/select.cuh"
#include "support/select_reference.hpp"
#include "support/test_support.cuh"

namespace onepass::test {
namespace {

// --- the items --------------------------------------------------------------------------
// 12 bytes, so no 128-bit path: the key decides (select, partition, unique's equality),
// the index says where the item came from (stability, which item of a run unique kept),
// the weight is payload that the key's equality ignores.
struct record {
  int key;
  unsigned index;
  float weight;
  friend std::ostream& operator<<(std::ostream& os, const record& r) {
    return os << "{key " << r.key << ", index " << r.index << ", weight " << r.weight << "}";
  }
};
static_assert(sizeof(record) == 12 && std::is_trivially_copyable_v<record>);

struct key_below {
  int threshold = select_threshold<int>();
  ONEPASS_HD bool operator()(const record& r) const { return r.key < threshold; }
};
struct same_key {
  ONEPASS_HD bool operator()(const record& a, const record& b) const { return a.key == b.key; }
};

// The predicate and the equality each item type is tested with.
template <class T>
struct item_traits {
  using pred = select_less_than<T>;
  using eq = onepass::equal_to;
};
template <>
struct item_traits<record> {
  using pred = key_below;
  using eq = same_key;
};

template <class T>
std::string name_of() {
  return std::is_same_v<T, record> ? "record12" : type_name<T>();
}

std::vector<record> records_with_keys(const std::vector<int>& keys) {
  std::vector<record> v(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i)
    v[i] = {keys[i], static_cast<unsigned>(i), static_cast<float>(i % 4093) / 4};
  return v;
}

// n items of which about keep_fraction pass item_traits<T>::pred.
template <class T>
std::vector<T> fraction_input(long long n, double keep_fraction, std::uint64_t seed) {
  if constexpr (std::is_same_v<T, record>) return records_with_keys(keep_fraction_values<int>(n, keep_fraction, seed));
  else return keep_fraction_values<T>(n, keep_fraction, seed);
}

// n items in runs of equal items (equal keys for records, whose other fields differ).
template <class T>
std::vector<T> run_input(long long n, long long run_length, std::uint64_t seed) {
  if constexpr (std::is_same_v<T, record>) return records_with_keys(run_length_values<int>(n, run_length, seed));
  else return run_length_values<T>(n, run_length, seed);
}

// One flag per item, set with probability keep_fraction; a set flag is any non-zero byte,
// not only 1 (select_flagged converts flags to bool).
std::vector<std::uint8_t> random_flags(long long n, double keep_fraction, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint8_t> v(static_cast<std::size_t>(n));
  for (auto& f : v) {
    const double u = static_cast<double>(rng() >> 11) * 0x1.0p-53;
    f = u < keep_fraction ? static_cast<std::uint8_t>(1 + rng() % 255) : 0;
  }
  return v;
}

// The same flags as bool (0 or 1 bytes) on the device.
void upload_as_bool(const std::vector<std::uint8_t>& flags, device_buffer<bool>& out) {
  std::vector<std::uint8_t> ones(flags.size());
  for (std::size_t i = 0; i < flags.size(); ++i) ones[i] = flags[i] != 0;
  if (!ones.empty()) {
    throw_if(cudaMemcpy(out.get(), ones.data(), ones.size(), cudaMemcpyHostToDevice), "upload");
    throw_if(cudaDeviceSynchronize(), "upload");  // see device_buffer::upload
  }
}

constexpr double keep_fractions[] = {0.0, 0.01, 0.5, 0.99, 1.0};
constexpr long long run_lengths[] = {1, 4, 1000, random_runs};

// 0, 1, the warp edges, the tile edges, a few tiles, some random sizes, and 2^24 + 5.
template <class T>
std::vector<long long> select_sizes() {
  using plan = onepass::detail::select_plan<T>;
  const long long tile = plan::tile_items;
  // unique's tile where it has its own shape (4-byte items), else the same.
  const long long unique_tile = plan::smallest_tile_items;
  // tile / 2: where the split tile's register part ends and its shared part begins (4-
  // and 8-byte items).
  std::mt19937_64 rng(4321 + sizeof(T));
  const auto random_size = [&rng] { return 1 + static_cast<long long>(rng() % 300000); };
  return capped_sorted_sizes({0, 1, 31, 32, 33, tile / 2 - 1, tile / 2 + 1, tile - 1, tile, tile + 1, tile + 3,
                              3 * tile + 5, (1ll << 24) + 5, unique_tile - 1, unique_tile + 1,
                              3 * unique_tile + 5, random_size(), random_size(), random_size()});
}
constexpr long long big_size = 1ll << 21;  // above this, one case per operation

template <class T>
std::vector<T> slice(const std::vector<T>& v, long long offset, long long n) {
  return std::vector<T>(v.begin() + offset, v.begin() + offset + n);
}

// --- one call, in one of the three styles, finished before returning ------------------
enum class style { simple, workspace, to_host };
constexpr style all_styles[] = {style::simple, style::workspace, style::to_host};
const char* style_name(style s) {
  return s == style::simple ? "simple" : s == style::workspace ? "workspace" : "to_host";
}

// A non-blocking stream, so that no call can lean on the legacy stream's ordering.
cudaStream_t test_stream() {
  static const cudaStream_t stream = [] {
    cudaStream_t s = nullptr;
    throw_if(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    return s;
  }();
  return stream;
}

// Runs one call and returns the count it reported. call(count_out, ws) is the public call
// (ws null: the simple style; otherwise a workspace of exactly select_workspace_bytes);
// to_host() is its *_to_host convenience.
template <class T, class Call, class ToHost>
index_t run_call(style s, long long n, device_buffer<index_t>& count, Call call, ToHost to_host) {
  const cudaStream_t stream = test_stream();
  if (s == style::to_host) return to_host(stream);
  if (s == style::simple) {
    call(count.get(), nullptr, stream);
  } else {
    device_buffer<unsigned char> ws(static_cast<long long>(onepass::select_workspace_bytes<T>(n)));
    const workspace w{ws.get(), ws.bytes()};
    call(count.get(), &w, stream);
    throw_if(cudaStreamSynchronize(stream), "sync");  // before ws is freed
  }
  throw_if(cudaStreamSynchronize(stream), "sync");
  return count.download()[0];
}

template <class T, class Pred>
index_t call_select_if(style s, const T* in, long long n, T* out, device_buffer<index_t>& count, Pred pred) {
  return run_call<T>(
      s, n, count,
      [&](index_t* c, const workspace* w, cudaStream_t st) {
        if (w) onepass::select_if(in, n, out, c, pred, *w, st);
        else onepass::select_if(in, n, out, c, pred, st);
      },
      [&](cudaStream_t st) { return onepass::select_if_to_host(in, n, out, pred, st); });
}

template <class T, class Flag>
index_t call_select_flagged(style s, const T* in, const Flag* flags, long long n, T* out,
                            device_buffer<index_t>& count) {
  return run_call<T>(
      s, n, count,
      [&](index_t* c, const workspace* w, cudaStream_t st) {
        if (w) onepass::select_flagged(in, flags, n, out, c, *w, st);
        else onepass::select_flagged(in, flags, n, out, c, st);
      },
      [&](cudaStream_t st) { return onepass::select_flagged_to_host(in, flags, n, out, st); });
}

// With the default equality, the simple style uses the shortest overload.
template <class T, class Eq>
index_t call_unique(style s, const T* in, long long n, T* out, device_buffer<index_t>& count, Eq eq) {
  return run_call<T>(
      s, n, count,
      [&](index_t* c, const workspace* w, cudaStream_t st) {
        if (w) {
          onepass::unique(in, n, out, c, eq, *w, st);
        } else if constexpr (std::is_same_v<Eq, onepass::equal_to>) {
          throw_if(cudaStreamSynchronize(st), "sync");  // the overload runs on the legacy stream
          onepass::unique(in, n, out, c);
          throw_if(cudaDeviceSynchronize(), "sync");
        } else {
          onepass::unique(in, n, out, c, eq, st);
        }
      },
      [&](cudaStream_t st) { return onepass::unique_to_host(in, n, out, eq, st); });
}

template <class T, class Pred>
index_t call_partition(style s, const T* in, long long n, T* selected, T* rejected, device_buffer<index_t>& count,
                       Pred pred) {
  return run_call<T>(
      s, n, count,
      [&](index_t* c, const workspace* w, cudaStream_t st) {
        if (w) onepass::partition(in, n, selected, rejected, c, pred, *w, st);
        else onepass::partition(in, n, selected, rejected, c, pred, st);
      },
      [&](cudaStream_t st) { return onepass::partition_to_host(in, n, selected, rejected, pred, st); });
}

// --- checks -----------------------------------------------------------------------------
constexpr long long guard = 64;  // items after every output that must keep their poison

// all[begin, begin + expected.size()) == expected; all[untouched_from, end) and
// all[0, begin) still hold the poison.
template <class T>
void expect_items(const std::vector<T>& all, std::size_t begin, const std::vector<T>& expected,
                  std::size_t untouched_from, const char* which) {
  ASSERT_LE(begin + expected.size(), all.size());
  const std::string past = first_written(all, untouched_from);
  EXPECT_TRUE(past.empty()) << which << " (" << expected.size() << " items): wrote past them: " << past;
  const std::string before = first_written(std::vector<T>(all.begin(), all.begin() + begin));
  EXPECT_TRUE(before.empty()) << which << ": wrote before the output: " << before;
  const std::string diff = first_difference(expected, slice(all, static_cast<long long>(begin),
                                                               static_cast<long long>(expected.size())));
  EXPECT_TRUE(diff.empty()) << which << ": " << diff;
}

template <class T>
void expect_output(const device_buffer<T>& out, const std::vector<T>& expected, const char* which) {
  expect_items(out.download(), 0, expected, expected.size(), which);
}

enum class family { select_if, select_flagged, partition };

// One operation of the select family for T: every size x keep fraction x alignment, the
// style rotating from call to call.
template <class T>
void check_family(family f, std::uint64_t seed) {
  const typename item_traits<T>::pred pred{};
  int turn = static_cast<int>(seed % 3);
  for (long long n : select_sizes<T>()) {
    const bool big = n > big_size;
    for (double frac : keep_fractions) {
      if (big && frac != 0.5) continue;
      const std::uint64_t s =
          seed * 1000003 + static_cast<std::uint64_t>(n) * 131 + static_cast<std::uint64_t>(frac * 100);
      const std::vector<T> host = fraction_input<T>(n + 1, frac, s);  // one spare for the unaligned start
      device_buffer<T> in(host), out(n + guard), rejected(n + guard);
      device_buffer<index_t> count(1);
      std::vector<std::uint8_t> flags;
      device_buffer<std::uint8_t> flags8(f == family::select_flagged ? n + 1 : 0);
      device_buffer<bool> flags_bool(f == family::select_flagged ? n + 1 : 0);
      if (f == family::select_flagged) {
        flags = random_flags(n + 1, frac, s + 1);
        flags8.upload(flags);
        upload_as_bool(flags, flags_bool);
      }
      for (long long offset : {0, 1}) {
        if (big && offset == 1) continue;
        const std::vector<T> src = slice(host, offset, n);
        const T* d_in = in.get() + offset;
        const style st = all_styles[turn++ % 3];
        SCOPED_TRACE(name_of<T>() + " n=" + std::to_string(n) + " keep=" + std::to_string(frac) + " offset=" +
                     std::to_string(offset) + " style=" + style_name(st));
        if (f == family::select_if) {
          const std::vector<T> expected = reference_select_if(src, pred);
          out.poison();
          count.poison();
          EXPECT_EQ(call_select_if(st, d_in, n, out.get(), count, pred), static_cast<index_t>(expected.size()));
          expect_output(out, expected, "out");
        } else if (f == family::select_flagged) {
          // The flags at the items' offset and at the other one: aligned items with
          // unaligned flags and the reverse take different load paths.
          for (long long flag_offset : {offset, 1 - offset}) {
            if (big && flag_offset != offset) continue;
            SCOPED_TRACE("flag offset=" + std::to_string(flag_offset));
            const std::vector<std::uint8_t> fl = slice(flags, flag_offset, n);
            const std::vector<T> expected = reference_select_flagged(src, fl);
            for (bool as_bool : {false, true}) {
              SCOPED_TRACE(as_bool ? "bool flags" : "uint8 flags");
              out.poison();
              count.poison();
              const index_t k =
                  as_bool ? call_select_flagged(st, d_in, flags_bool.get() + flag_offset, n, out.get(), count)
                          : call_select_flagged(st, d_in, flags8.get() + flag_offset, n, out.get(), count);
              EXPECT_EQ(k, static_cast<index_t>(expected.size()));
              expect_output(out, expected, "out");
            }
          }
        } else {
          const partition_result<T> expected = reference_partition(src, pred);
          out.poison();
          rejected.poison();
          count.poison();
          EXPECT_EQ(call_partition(st, d_in, n, out.get(), rejected.get(), count, pred),
                    static_cast<index_t>(expected.selected.size()));
          expect_output(out, expected.selected, "out_selected");
          expect_output(rejected, expected.rejected, "out_rejected");
        }
      }
    }
  }
}

template <class T>
void check_unique(std::uint64_t seed) {
  const typename item_traits<T>::eq eq{};
  int turn = static_cast<int>(seed % 3);
  for (long long n : select_sizes<T>()) {
    const bool big = n > big_size;
    for (long long run : run_lengths) {
      if (big && run != 4 && run != random_runs) continue;
      const std::vector<T> host = run_input<T>(n + 1, run, seed * 7919 + static_cast<std::uint64_t>(n * 5 + run));
      device_buffer<T> in(host), out(n + guard);
      device_buffer<index_t> count(1);
      for (long long offset : {0, 1}) {
        if (big && offset == 1) continue;
        const style st = all_styles[turn++ % 3];
        SCOPED_TRACE(name_of<T>() + " n=" + std::to_string(n) + " run=" +
                     (run == random_runs ? std::string("random") : std::to_string(run)) +
                     " offset=" + std::to_string(offset) + " style=" + style_name(st));
        const std::vector<T> expected = reference_unique(slice(host, offset, n), eq);
        out.poison();
        count.poison();
        EXPECT_EQ(call_unique(st, in.get() + offset, n, out.get(), count, eq), static_cast<index_t>(expected.size()));
        expect_output(out, expected, "out");
      }
    }
  }
}

// out == in for select_if, select_flagged (uint8) and unique; the buffer past the input
// and before it (for the unaligned start) must keep its poison. What lies between the
// count and n is unspecified.
template <class T>
void check_in_place(std::uint64_t seed) {
  const typename item_traits<T>::pred pred{};
  const typename item_traits<T>::eq eq{};
  int turn = static_cast<int>(seed % 3);
  for (long long n : select_sizes<T>()) {
    if (n > big_size && n != (1ll << 24) + 5) continue;
    const std::vector<T> values = fraction_input<T>(n, 0.5, seed + n);
    const std::vector<T> runs = run_input<T>(n, random_runs, seed + n + 1);
    const std::vector<std::uint8_t> flags = random_flags(n, 0.5, seed + n + 2);
    device_buffer<std::uint8_t> d_flags(flags);
    device_buffer<T> io(1 + n + guard);
    device_buffer<index_t> count(1);
    for (long long offset : {0, 1}) {
      if (n > big_size && offset == 1) continue;
      T* p = io.get() + offset;
      for (int op = 0; op < 3; ++op) {
        const style st = all_styles[turn++ % 3];
        SCOPED_TRACE(name_of<T>() + " in place n=" + std::to_string(n) + " offset=" + std::to_string(offset) +
                     " style=" + style_name(st) + " op=" +
                     (op == 0 ? "select_if" : op == 1 ? "select_flagged" : "unique"));
        const std::vector<T>& src = op == 2 ? runs : values;
        io.poison();
        count.poison();
        if (n > 0) {
          ONEPASS_CHECK_CUDA(cudaMemcpy(p, src.data(), n * sizeof(T), cudaMemcpyHostToDevice));
          // The call runs on a non-blocking stream: the pageable copy's DMA must have landed
          // (it was seen to land late under load, 2026-11-23).
          ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
        }
        std::vector<T> expected;
        index_t k = -1;
        if (op == 0) {
          expected = reference_select_if(src, pred);
          k = call_select_if(st, p, n, p, count, pred);
        } else if (op == 1) {
          expected = reference_select_flagged(src, flags);
          k = call_select_flagged(st, p, d_flags.get(), n, p, count);
        } else {
          expected = reference_unique(src, eq);
          k = call_unique(st, p, n, p, count, eq);
        }
        EXPECT_EQ(k, static_cast<index_t>(expected.size()));
        expect_items(io.download(), static_cast<std::size_t>(offset), expected, static_cast<std::size_t>(offset + n),
                     "in place");
      }
    }
  }
}

template <class T>
class SelectPublic : public ::testing::Test {};
using SelectTypes = ::testing::Types<int, unsigned, long long, unsigned long long, float, double, record>;
TYPED_TEST_SUITE(SelectPublic, SelectTypes);

TYPED_TEST(SelectPublic, SelectIf) {
  ONEPASS_REQUIRE_GPU();
  check_family<TypeParam>(family::select_if, 11);
}
TYPED_TEST(SelectPublic, SelectFlaggedUint8AndBool) {
  ONEPASS_REQUIRE_GPU();
  check_family<TypeParam>(family::select_flagged, 12);
}
TYPED_TEST(SelectPublic, Partition) {
  ONEPASS_REQUIRE_GPU();
  check_family<TypeParam>(family::partition, 13);
}
TYPED_TEST(SelectPublic, Unique) {
  ONEPASS_REQUIRE_GPU();
  check_unique<TypeParam>(14);
}
TYPED_TEST(SelectPublic, InPlace) {
  ONEPASS_REQUIRE_GPU();
  check_in_place<TypeParam>(15);
}

// --- one property at a time ---------------------------------------------------------------
// n == 0 writes *count_out = 0 and nothing else, whatever the pointers (null is allowed).
TEST(Select, EmptyInputWritesZeroAndNothingElse) {
  ONEPASS_REQUIRE_GPU();
  device_buffer<int> out(guard), rejected(guard);
  device_buffer<index_t> count(1);
  const int* none = nullptr;
  const select_less_than<int> pred{};
  for (style st : all_styles) {
    for (bool null_ranges : {false, true}) {
      SCOPED_TRACE(std::string(style_name(st)) + (null_ranges ? " null ranges" : ""));
      int* o = null_ranges ? nullptr : out.get();
      int* r = null_ranges ? nullptr : rejected.get();
      const auto* flags = null_ranges ? nullptr : reinterpret_cast<const std::uint8_t*>(rejected.get());
      out.poison();
      rejected.poison();
      count.poison();
      EXPECT_EQ(call_select_if(st, none, 0, o, count, pred), 0);
      count.poison();
      EXPECT_EQ(call_select_flagged(st, none, flags, 0, o, count), 0);
      count.poison();
      EXPECT_EQ(call_unique(st, none, 0, o, count, onepass::equal_to{}), 0);
      count.poison();
      EXPECT_EQ(call_partition(st, none, 0, o, r, count, pred), 0);
      EXPECT_EQ(first_written(out.download()), "");
      EXPECT_EQ(first_written(rejected.download()), "");
    }
  }
}

// pred(item, i) gets the item's index in in[0, n): keep every third item, whatever it is.
template <class T>
void check_index_predicate() {
  const long long tile = onepass::detail::select_plan<T>::tile_items;
  for (long long n : {1ll, 2ll, 33ll, tile - 1, tile + 1, 3 * tile + 5, 1000003ll}) {
    if (n > max_test_items()) continue;
    const std::vector<T> host = fraction_input<T>(n + 1, 0.5, 77 + n);
    device_buffer<T> in(host), out(n + guard), rejected(n + guard);
    device_buffer<index_t> count(1);
    for (long long offset : {0, 1}) {
      SCOPED_TRACE(name_of<T>() + " n=" + std::to_string(n) + " offset=" + std::to_string(offset));
      const std::vector<T> src = slice(host, offset, n);
      const std::vector<T> expected = reference_select_if(src, keep_every_third{});
      ASSERT_EQ(static_cast<long long>(expected.size()), (n + 2) / 3);
      out.poison();
      count.poison();
      EXPECT_EQ(call_select_if(style::workspace, in.get() + offset, n, out.get(), count, keep_every_third{}),
                (n + 2) / 3);
      expect_output(out, expected, "select_if");
      const partition_result<T> parts = reference_partition(src, keep_every_third{});
      out.poison();
      rejected.poison();
      count.poison();
      EXPECT_EQ(call_partition(style::simple, in.get() + offset, n, out.get(), rejected.get(), count,
                               keep_every_third{}),
                (n + 2) / 3);
      expect_output(out, parts.selected, "out_selected");
      expect_output(rejected, parts.rejected, "out_rejected");
    }
  }
}

TEST(Select, PredicateReadsTheIndex) {
  ONEPASS_REQUIRE_GPU();
  check_index_predicate<int>();
  check_index_predicate<double>();
  check_index_predicate<record>();
}

// Eight bytes with a four-byte alignment: an output may start 4 bytes past an 8-byte
// boundary, where the one-tile kernel's 16-byte stores (8-byte items, two a store) must
// not be used.
struct two_floats {
  float x, y;
  bool operator==(const two_floats& o) const { return x == o.x && y == o.y; }
};
struct x_below_half {
  __host__ __device__ bool operator()(const two_floats& v) const { return v.x < 0.5f; }
};

TEST(Select, EightByteItemsWithFourByteAlignmentToAnOddAddress) {
  ONEPASS_REQUIRE_GPU();
  static_assert(sizeof(two_floats) == 8 && alignof(two_floats) == 4);
  const long long n = std::min(max_test_items(), 200000ll);
  std::mt19937 rng(41);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::vector<two_floats> host(static_cast<std::size_t>(n + 1));
  for (auto& v : host) v = {u(rng), u(rng)};
  std::vector<std::uint8_t> flags(host.size());
  for (std::size_t i = 0; i < host.size(); ++i) flags[i] = x_below_half{}(host[i]) ? 1 : 0;
  device_buffer<two_floats> in(host);
  device_buffer<std::uint8_t> d_flags(flags);
  device_buffer<float> raw(2 * n + 1);  // the output starts one float in
  two_floats* out = reinterpret_cast<two_floats*>(raw.get() + 1);
  device_buffer<index_t> count(1);
  // select_if from an input one item in (not 16-byte aligned: the one-tile kernel; an
  // aligned one takes the split tile), select_flagged from the aligned start (always the
  // one-tile kernel).
  for (bool flagged : {false, true}) {
    SCOPED_TRACE(flagged ? "select_flagged" : "select_if");
    const std::vector<two_floats> src(host.begin() + (flagged ? 0 : 1), host.begin() + (flagged ? n : n + 1));
    std::vector<two_floats> want;
    for (const auto& v : src)
      if (x_below_half{}(v)) want.push_back(v);
    raw.poison();
    if (flagged)
      onepass::select_flagged(in.get(), d_flags.get(), n, out, count.get());
    else
      onepass::select_if(in.get() + 1, n, out, count.get(), x_below_half{});
    ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
    ASSERT_EQ(count.download()[0], static_cast<index_t>(want.size()));
    const std::vector<float> got = raw.download();
    std::vector<two_floats> items(want.size());
    std::memcpy(items.data(), got.data() + 1, want.size() * sizeof(two_floats));
    EXPECT_TRUE(items == want);
  }
}

// Both sides of a partition keep input order: the records carry their input index, which
// must rise on each side, and together the sides hold every index once.
TEST(Select, PartitionIsStable) {
  ONEPASS_REQUIRE_GPU();
  const long long tile = onepass::detail::select_plan<record>::tile_items;
  for (long long n : {33ll, 3 * tile + 5, 1000003ll}) {
    if (n > max_test_items()) continue;
    for (double frac : {0.01, 0.5, 0.99}) {
      SCOPED_TRACE("n=" + std::to_string(n) + " keep=" + std::to_string(frac));
      const std::vector<record> host = fraction_input<record>(n, frac, 5 + n);
      device_buffer<record> in(host), selected(n), rejected(n);
      device_buffer<index_t> count(1);
      const index_t k =
          call_partition(style::workspace, in.get(), n, selected.get(), rejected.get(), count, key_below{});
      ASSERT_GE(k, 0);
      ASSERT_LE(k, n);
      const std::vector<record> sel = selected.download(k), rej = rejected.download(n - k);
      std::vector<char> seen(static_cast<std::size_t>(n), 0);
      for (int side = 0; side < 2; ++side) {
        const std::vector<record>& v = side == 0 ? sel : rej;
        for (std::size_t j = 0; j < v.size(); ++j) {
          ASSERT_LT(v[j].index, static_cast<unsigned>(n));
          ASSERT_EQ(v[j].key < select_threshold<int>(), side == 0) << "item " << j << " on the wrong side";
          if (j > 0) ASSERT_LT(v[j - 1].index, v[j].index) << (side == 0 ? "selected" : "rejected") << " item " << j;
          ASSERT_EQ(std::memcmp(&v[j], &host[v[j].index], sizeof(record)), 0) << "item " << j << " was changed";
          seen[v[j].index] += 1;
        }
      }
      EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), n) << "an item went missing or twice";
    }
  }
}

// The two styles (and the convenience) give the same bytes and the same count.
TEST(Select, WorkspaceAndSimpleStylesAgree) {
  ONEPASS_REQUIRE_GPU();
  const long long n = std::min(max_test_items(), 5ll * 4096 + 17);
  const std::vector<float> host = fraction_input<float>(n, 0.5, 3);
  const std::vector<float> runs = run_input<float>(n, 4, 4);
  device_buffer<float> in(host), in_runs(runs), out(n + guard), rejected(n + guard);
  device_buffer<index_t> count(1);
  const select_less_than<float> pred{};
  for (int op = 0; op < 3; ++op) {
    std::vector<float> first_out, first_rejected;
    index_t first_count = -1;
    for (style st : all_styles) {
      SCOPED_TRACE(std::string(op == 0 ? "select_if" : op == 1 ? "unique" : "partition") + " " + style_name(st));
      out.poison();
      rejected.poison();
      count.poison();
      const index_t k = op == 0   ? call_select_if(st, in.get(), n, out.get(), count, pred)
                        : op == 1 ? call_unique(st, in_runs.get(), n, out.get(), count, onepass::equal_to{})
                                  : call_partition(st, in.get(), n, out.get(), rejected.get(), count, pred);
      const std::vector<float> got = out.download(), got_rejected = rejected.download();
      if (first_count < 0) {
        first_count = k;
        first_out = got;
        first_rejected = got_rejected;
        EXPECT_GT(k, 0);
        continue;
      }
      EXPECT_EQ(k, first_count);
      EXPECT_EQ(first_difference(first_out, got), "");
      EXPECT_EQ(first_difference(first_rejected, got_rejected), "");
    }
  }
}

// Two calls in a row on one non-default stream, sharing one workspace, then two in the
// simple style: each call's memset and kernel are ordered after the previous call's.
TEST(Select, TwoCallsInARowOnANonDefaultStream) {
  ONEPASS_REQUIRE_GPU();
  const long long n = std::min(max_test_items(), (1ll << 20) + 3);
  const std::vector<long long> a = fraction_input<long long>(n, 0.3, 1);
  const std::vector<long long> b = run_input<long long>(n, random_runs, 2);
  device_buffer<long long> in_a(a), in_b(b), out_a(n + guard), out_b(n + guard), rejected_a(n + guard);
  device_buffer<index_t> counts(2);
  device_buffer<unsigned char> ws(static_cast<long long>(onepass::select_workspace_bytes<long long>(n)));
  const workspace w{ws.get(), ws.bytes()};
  cudaStream_t stream;
  ONEPASS_CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const select_less_than<long long> pred{};
  const std::vector<long long> want_a = reference_select_if(a, pred), want_b = reference_unique(b);
  const partition_result<long long> parts = reference_partition(a, pred);
  for (bool workspace_style : {true, false}) {
    SCOPED_TRACE(workspace_style ? "workspace style" : "simple style");
    out_a.poison();
    out_b.poison();
    rejected_a.poison();
    counts.poison();
    if (workspace_style) {
      onepass::select_if(in_a.get(), n, out_a.get(), counts.get(), pred, w, stream);
      onepass::unique(in_b.get(), n, out_b.get(), counts.get() + 1, onepass::equal_to{}, w, stream);
    } else {
      onepass::select_if(in_a.get(), n, out_a.get(), counts.get(), pred, stream);
      onepass::unique(in_b.get(), n, out_b.get(), counts.get() + 1, onepass::equal_to{}, stream);
    }
    ONEPASS_CHECK_CUDA(cudaStreamSynchronize(stream));
    EXPECT_EQ(counts.download(), (std::vector<index_t>{static_cast<index_t>(want_a.size()),
                                                       static_cast<index_t>(want_b.size())}));
    expect_output(out_a, want_a, "select_if");
    expect_output(out_b, want_b, "unique");
    // A third call on the same workspace overwrites the first's output.
    out_a.poison();
    if (workspace_style)
      onepass::partition(in_a.get(), n, out_a.get(), rejected_a.get(), counts.get(), pred, w, stream);
    else
      onepass::partition(in_a.get(), n, out_a.get(), rejected_a.get(), counts.get(), pred, stream);
    ONEPASS_CHECK_CUDA(cudaStreamSynchronize(stream));
    EXPECT_EQ(counts.download(1)[0], static_cast<index_t>(parts.selected.size()));
    expect_output(out_a, parts.selected, "out_selected");
    expect_output(rejected_a, parts.rejected, "out_rejected");
  }
  ONEPASS_CHECK_CUDA(cudaStreamDestroy(stream));
}

// Workspace style under stream capture: two calls sharing one workspace, captured once,
// replayed twice on new inputs.
TEST(Select, WorkspaceStyleInCudaGraph) {
  ONEPASS_REQUIRE_GPU();
  const long long n = std::min(max_test_items(), 3ll * 4096 * 16 + 77);
  device_buffer<unsigned> in(n), runs(n), out(n + guard), uniq(n + guard);
  device_buffer<std::uint8_t> flags(n);
  device_buffer<index_t> counts(2);
  device_buffer<unsigned char> ws(static_cast<long long>(onepass::select_workspace_bytes<unsigned>(n)));
  const workspace w{ws.get(), ws.bytes()};
  cudaStream_t stream;
  ONEPASS_CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaGraph_t graph;
  ONEPASS_CHECK_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  onepass::select_flagged(in.get(), flags.get(), n, out.get(), counts.get(), w, stream);
  onepass::unique(runs.get(), n, uniq.get(), counts.get() + 1, onepass::equal_to{}, w, stream);
  ONEPASS_CHECK_CUDA(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec;
  ONEPASS_CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  for (int replay = 0; replay < 2; ++replay) {
    SCOPED_TRACE("replay " + std::to_string(replay));
    const std::vector<unsigned> values = fraction_input<unsigned>(n, 0.5, 10 + replay);
    const std::vector<unsigned> run_values = run_input<unsigned>(n, replay == 0 ? 4 : random_runs, 20 + replay);
    const std::vector<std::uint8_t> f = random_flags(n, replay == 0 ? 0.3 : 0.8, 30 + replay);
    in.upload(values);
    runs.upload(run_values);
    flags.upload(f);
    out.poison();
    uniq.poison();
    counts.poison();
    ONEPASS_CHECK_CUDA(cudaGraphLaunch(exec, stream));
    ONEPASS_CHECK_CUDA(cudaStreamSynchronize(stream));
    const std::vector<unsigned> want = reference_select_flagged(values, f), want_unique = reference_unique(run_values);
    EXPECT_EQ(counts.download(), (std::vector<index_t>{static_cast<index_t>(want.size()),
                                                       static_cast<index_t>(want_unique.size())}));
    expect_output(out, want, "select_flagged");
    expect_output(uniq, want_unique, "unique");
  }
  ONEPASS_CHECK_CUDA(cudaGraphExecDestroy(exec));
  ONEPASS_CHECK_CUDA(cudaGraphDestroy(graph));
  ONEPASS_CHECK_CUDA(cudaStreamDestroy(stream));
}

// The conveniences return the count (on the default stream and on another) and write the
// same outputs as the calls they wrap.
TEST(Select, ToHostConveniences) {
  ONEPASS_REQUIRE_GPU();
  const long long n = std::min(max_test_items(), 100003ll);
  const std::vector<double> host = fraction_input<double>(n, 0.25, 8);
  const std::vector<double> runs = run_input<double>(n, 1000, 9);
  const std::vector<std::uint8_t> flags = random_flags(n, 0.75, 10);
  device_buffer<double> in(host), in_runs(runs), out(n + guard), rejected(n + guard);
  device_buffer<std::uint8_t> d_flags(flags);
  const select_less_than<double> pred{};
  cudaStream_t stream;
  ONEPASS_CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  for (cudaStream_t st : {cudaStream_t{nullptr}, stream}) {
    SCOPED_TRACE(st ? "non-default stream" : "default stream");
    const std::vector<double> want = reference_select_if(host, pred);
    out.poison();
    EXPECT_EQ(onepass::select_if_to_host(in.get(), n, out.get(), pred, st), static_cast<index_t>(want.size()));
    expect_output(out, want, "select_if_to_host");

    const std::vector<double> want_flagged = reference_select_flagged(host, flags);
    out.poison();
    EXPECT_EQ(onepass::select_flagged_to_host(in.get(), d_flags.get(), n, out.get(), st),
              static_cast<index_t>(want_flagged.size()));
    expect_output(out, want_flagged, "select_flagged_to_host");

    const std::vector<double> want_unique = reference_unique(runs);
    out.poison();
    EXPECT_EQ(onepass::unique_to_host(in_runs.get(), n, out.get(), onepass::equal_to{}, st),
              static_cast<index_t>(want_unique.size()));
    expect_output(out, want_unique, "unique_to_host");
    if (!st) {
      out.poison();
      EXPECT_EQ(onepass::unique_to_host(in_runs.get(), n, out.get()), static_cast<index_t>(want_unique.size()));
      expect_output(out, want_unique, "unique_to_host, default equality");
    }

    const partition_result<double> parts = reference_partition(host, pred);
    out.poison();
    rejected.poison();
    EXPECT_EQ(onepass::partition_to_host(in.get(), n, out.get(), rejected.get(), pred, st),
              static_cast<index_t>(parts.selected.size()));
    expect_output(out, parts.selected, "partition_to_host selected");
    expect_output(rejected, parts.rejected, "partition_to_host rejected");
  }
  ONEPASS_CHECK_CUDA(cudaStreamDestroy(stream));
}

// The count may live in managed memory, read by the host after a synchronisation.
TEST(Select, CountInManagedMemory) {
  ONEPASS_REQUIRE_GPU();
  const long long n = std::min(max_test_items(), 50000ll);
  const std::vector<int> host = fraction_input<int>(n, 0.5, 6);
  device_buffer<int> in(host), out(n + guard);
  index_t* count = nullptr;
  ONEPASS_CHECK_CUDA(cudaMallocManaged(&count, sizeof(index_t)));
  *count = -1;
  onepass::select_if(in.get(), n, out.get(), count, select_less_than<int>{});
  ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  const std::vector<int> want = reference_select_if(host, select_less_than<int>{});
  EXPECT_EQ(*count, static_cast<index_t>(want.size()));
  expect_output(out, want, "out");
  ONEPASS_CHECK_CUDA(cudaFree(count));
}

// --- bad input on the GPU: refused, nothing written ------------------------------------------
TEST(Select, HostMemoryIsRejectedAndNothingIsWritten) {
  ONEPASS_REQUIRE_GPU();
  const long long n = 1000;
  std::vector<int> host(n, 1);
  std::vector<std::uint8_t> host_flags(n, 1);
  device_buffer<int> in(host), out(n), rejected(n);
  device_buffer<std::uint8_t> flags(host_flags);
  device_buffer<index_t> count(1);
  index_t host_count = -1;
  const select_less_than<int> pred{};
  expect_rejected([&] { onepass::select_if(host.data(), n, out.get(), count.get(), pred); }, "in", "host memory");
  expect_rejected([&] { onepass::select_if(in.get(), n, host.data(), count.get(), pred); }, "out", "host memory");
  expect_rejected([&] { onepass::select_if(in.get(), n, out.get(), &host_count, pred); }, "count_out", "host memory");
  expect_rejected([&] { onepass::select_flagged(in.get(), host_flags.data(), n, out.get(), count.get()); }, "flags",
                  "host memory");
  expect_rejected([&] { onepass::unique(in.get(), n, out.get(), &host_count); }, "count_out", "host memory");
  int* pinned = nullptr;
  ONEPASS_CHECK_CUDA(cudaMallocHost(&pinned, n * sizeof(int)));
  expect_rejected([&] { onepass::partition(in.get(), n, out.get(), pinned, count.get(), pred); }, "out_rejected",
                  "pinned host memory");
  expect_rejected([&] { onepass::partition(in.get(), n, pinned, rejected.get(), count.get(), pred); }, "out_selected",
                  "pinned host memory");
  ONEPASS_CHECK_CUDA(cudaFreeHost(pinned));
  // Too small a workspace: refused before anything runs.
  device_buffer<unsigned char> ws(8);
  expect_rejected(
      [&] { onepass::select_if(in.get(), n, out.get(), count.get(), pred, workspace{ws.get(), 8}, nullptr); },
      "workspace", "holds 8 bytes");
  ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  EXPECT_EQ(host_count, -1);
  EXPECT_EQ(first_written(out.download()), "");
  EXPECT_EQ(first_written(rejected.download()), "");
  EXPECT_EQ(first_written(count.download()), "");
}

// --- more than 2^31 items -----------------------------------------------------------------
// One-byte items, so the indices, prefixes and output offsets pass 2^31 while the memory
// stays at ~6.5 GB. Checked on the GPU: keeping every third item puts item 3k at out[k]
// and the others, in order, at rejected[k]; unique of runs of five keeps one per run.
__host__ __device__ inline std::uint8_t byte_at(long long i) {
  unsigned long long x = static_cast<unsigned long long>(i) * 0x9E3779B97F4A7C15ull;
  return static_cast<std::uint8_t>(x >> 56);
}
__global__ void fill_bytes(std::uint8_t* p, long long n, int run) {
  for (long long i = blockIdx.x * 256ll + threadIdx.x; i < n; i += 256ll * gridDim.x)
    p[i] = run == 0 ? byte_at(i) : static_cast<std::uint8_t>((i / run) & 0xFF);
}
// kind 0: out[k] == byte_at(3k); 1: out[k] == the k-th item whose index is not a multiple
// of 3; 2: out[k] == k & 0xFF (the first of the k-th run).
__global__ void count_errors(const std::uint8_t* out, long long count, int kind, unsigned long long* errors) {
  for (long long k = blockIdx.x * 256ll + threadIdx.x; k < count; k += 256ll * gridDim.x) {
    const std::uint8_t want = kind == 0   ? byte_at(3 * k)
                              : kind == 1 ? byte_at(3 * (k / 2) + 1 + k % 2)
                                          : static_cast<std::uint8_t>(k & 0xFF);
    if (out[k] != want) atomicAdd(errors, 1ull);
  }
}

TEST(Select, MoreThan2To31Items) {
  ONEPASS_REQUIRE_GPU();
  const long long n = (1ll << 31) + 1001;
  if (n > max_test_items()) GTEST_SKIP() << "ONEPASS_TEST_MAX_N caps sizes below 2^31";
  std::size_t free_bytes = 0, total = 0;
  ONEPASS_CHECK_CUDA(cudaMemGetInfo(&free_bytes, &total));
  if (free_bytes < 3 * static_cast<std::size_t>(n) + (1ull << 30))
    GTEST_SKIP() << "needs ~7.5 GB of free GPU memory, " << (free_bytes >> 20) << " MiB free";
  device_buffer<std::uint8_t> in(n), out(n + guard), rejected(n + guard);
  device_buffer<index_t> count(1);
  device_buffer<unsigned long long> errors(1);
  const auto check = [&](const device_buffer<std::uint8_t>& buf, long long k, int kind, const char* what) {
    ONEPASS_CHECK_CUDA(cudaMemset(errors.get(), 0, sizeof(unsigned long long)));
    count_errors<<<4096, 256>>>(buf.get(), k, kind, errors.get());
    ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
    EXPECT_EQ(errors.download()[0], 0ull) << what;
  };
  const auto tail_untouched = [&](const device_buffer<std::uint8_t>& buf, long long k, const char* what) {
    std::vector<std::uint8_t> tail(guard);
    ONEPASS_CHECK_CUDA(cudaMemcpy(tail.data(), buf.get() + k, guard, cudaMemcpyDeviceToHost));
    EXPECT_EQ(first_written(tail), "") << what << ": wrote past the count";
  };
  fill_bytes<<<4096, 256>>>(in.get(), n, 0);
  ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  const long long thirds = (n + 2) / 3;

  onepass::select_if(in.get(), n, out.get(), count.get(), keep_every_third{});
  ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  ASSERT_EQ(count.download()[0], thirds);
  check(out, thirds, 0, "select_if");
  out.poison();
  count.poison();
  onepass::partition(in.get(), n, out.get(), rejected.get(), count.get(), keep_every_third{});
  ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
  ASSERT_EQ(count.download()[0], thirds);
  check(out, thirds, 0, "partition, selected");
  check(rejected, n - thirds, 1, "partition, rejected");
  tail_untouched(out, thirds, "partition, selected");
  tail_untouched(rejected, n - thirds, "partition, rejected");
  // unique, in place, of runs of five.
  fill_bytes<<<4096, 256>>>(in.get(), n, 5);
  const index_t runs = onepass::unique_to_host(in.get(), n, in.get());
  ASSERT_EQ(runs, (n + 4) / 5);
  check(in, runs, 2, "unique in place");
}

// --- stalled tiles ----------------------------------------------------------------------
// stall_some_tiles (support/test_support.cuh) stalls chosen tiles' publications; in
// place, no tile may write over input that a stalled tile has not read yet.
//
// The production row with the L2 prefetch forced on at every size, two tiles ahead.
template <class T>
struct forced_prefetch {
  static constexpr tuning::select_tuning value = [] {
    tuning::select_tuning t = tuning::default_select_tuning<T>::value;
    t.l2_prefetch_bytes = 2ll * t.tile_items() * static_cast<long long>(sizeof(T));
    t.l2_prefetch_min_input_bytes = 0;
    return t;
  }();
};

// The production row without its pipelined agent (which production uses only from 2.5
// tiles per resident block up, so the one-tile and split kernels below keep running at
// every size whatever the GPU).
template <class T>
struct no_pipeline {
  static constexpr tuning::select_tuning value = [] {
    tuning::select_tuning t = tuning::default_select_tuning<T>::value;
    t.pipeline_threads = 0;
    return t;
  }();
};

// The pipelined agent at every size (production: from 2.5 tiles per resident block up),
// with the L2 prefetch two tiles ahead, for select_if, unique and partition.
template <class T>
struct pipeline_everywhere {
  static constexpr tuning::select_tuning value = [] {
    tuning::select_tuning t = tuning::default_select_tuning<T>::value;
    t.pipeline_min_tiles_per_block = 0;
    t.l2_prefetch_bytes = 2ll * t.tile_items() * static_cast<long long>(sizeof(T));
    t.l2_prefetch_min_input_bytes = 0;
    return t;
  }();
};

// The one-tile kernel on aligned input: production gives aligned 4- and 8-byte items to
// the split tile, so this is the only way the one-tile kernel's 128-bit loads run for them.
template <class T>
struct one_tile_kernel_only {
  static constexpr tuning::select_tuning value = [] {
    tuning::select_tuning t = no_pipeline<T>::value;
    t.register_rows = 0;
    t.shared_items = 0;
    return t;
  }();
};

// The one-tile kernel with one store an item (production writes 4- and 8-byte items 16
// bytes a store), so the scalar store loop stays tested on them.
template <class T>
struct one_tile_scalar_stores {
  static constexpr tuning::select_tuning value = [] {
    tuning::select_tuning t = one_tile_kernel_only<T>::value;
    t.vector_stores = false;
    return t;
  }();
};

// The split tile for every job it can run on 4-byte items (production gives it their
// partitions only; unique runs its own one-tile shape): 32 rows in registers, 4096 items
// in shared memory.
template <class T>
struct split_tile_four_byte {
  static constexpr tuning::select_tuning value = [] {
    tuning::select_tuning t = no_pipeline<T>::value;
    t.register_rows = 32;
    t.shared_items = t.tile_items() - 32 * t.block_threads;
    t.split_selects = true;
    t.unique_items_per_thread = 0;
    return t;
  }();
};

// The launch alone (the arguments are valid), with the stalls; partition out of place,
// then unique in place.
template <class T, class Tuning = tuning::default_select_tuning<T>>
void check_stalled(long long n) {
  using onepass::detail::select_if_job;
  using onepass::detail::unique_job;
  using pred_t = typename item_traits<T>::pred;
  using eq_t = typename item_traits<T>::eq;
  const std::vector<T> values = fraction_input<T>(n, 0.5, 99 + n);
  const std::vector<T> runs = run_input<T>(n, random_runs, 98 + n);
  const partition_result<T> parts = reference_partition(values, pred_t{});
  const std::vector<T> want_unique = reference_unique(runs, eq_t{});
  device_buffer<T> in(values), selected(n + guard), rejected(n + guard), io(n + guard);
  device_buffer<index_t> count(1);
  device_buffer<unsigned char> ws(static_cast<long long>(onepass::select_workspace_bytes<T>(n)));
  const workspace w{ws.get(), ws.bytes()};
  for (unsigned salt = 0; salt < 3; ++salt) {
    SCOPED_TRACE(name_of<T>() + " salt " + std::to_string(salt));
    selected.poison();
    rejected.poison();
    count.poison();
    onepass::detail::select_launch<select_if_job<T, pred_t>, Tuning>(select_if_job<T, pred_t>{in.get(), pred_t{}}, n,
                                                                     selected.get(), rejected.get(), count.get(), w,
                                                                     nullptr, stall_some_tiles{salt});
    ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
    EXPECT_EQ(count.download()[0], static_cast<index_t>(parts.selected.size()));
    expect_output(selected, parts.selected, "out_selected");
    expect_output(rejected, parts.rejected, "out_rejected");

    io.poison();
    count.poison();
    io.upload(runs);
    onepass::detail::select_launch<unique_job<T, eq_t>, Tuning>(unique_job<T, eq_t>{io.get(), eq_t{}}, n, io.get(),
                                                                static_cast<T*>(nullptr), count.get(), w, nullptr,
                                                                stall_some_tiles{salt + 10});
    ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
    EXPECT_EQ(count.download()[0], static_cast<index_t>(want_unique.size()));
    expect_items(io.download(), 0, want_unique, static_cast<std::size_t>(n), "unique in place");
  }
}

TEST(SelectStress, StalledTilesNeitherDeadlockNorReadStaleCounts) {
  ONEPASS_REQUIRE_GPU();
  const long long n = std::min(max_test_items(), (1ll << 22) + 17);
  check_stalled<unsigned>(n);  // hundreds of tiles, the 128-bit path
  check_stalled<record>(n);    // thousands of tiles, the scalar path
  // The L2 prefetch on (production turns it on from 128 MiB up), unique in place included.
  check_stalled<unsigned, forced_prefetch<unsigned>>(n);
  check_stalled<unsigned, forced_prefetch<unsigned>>(3 * 8192 + 5);  // the prefetch reaches the partial tile
  check_stalled<double, no_pipeline<double>>(n / 2);                  // the split tile, 8-byte items
}

// The pipelined agent's selects (partition and unique: check_stalled): out of place with
// half kept and with every third item by index, in place with 1% kept and with all kept;
// with stalled tiles. The launch alone: every pointer is 16-byte aligned, as it needs.
template <class T>
void check_pipelined_selects(long long n) {
  using Tuning = pipeline_everywhere<T>;
  using onepass::detail::select_if_job;
  using pred_t = typename item_traits<T>::pred;
  device_buffer<T> in(fraction_input<T>(n, 0.5, 31 + n)), out(n + guard), io(n + guard);
  device_buffer<index_t> count(1);
  device_buffer<unsigned char> ws(static_cast<long long>(onepass::select_workspace_bytes<T>(n)));
  const workspace w{ws.get(), ws.bytes()};
  const std::vector<T> values = in.download();
  for (unsigned salt = 0; salt < 2; ++salt) {
    SCOPED_TRACE(name_of<T>() + " n=" + std::to_string(n) + " salt " + std::to_string(salt));
    out.poison();
    count.poison();
    onepass::detail::select_launch<select_if_job<T, pred_t>, Tuning>(
        select_if_job<T, pred_t>{in.get(), pred_t{}}, n, out.get(), static_cast<T*>(nullptr), count.get(), w, nullptr,
        stall_some_tiles{salt + 20});
    ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
    const std::vector<T> want = reference_select_if(values, pred_t{});
    EXPECT_EQ(count.download()[0], static_cast<index_t>(want.size()));
    expect_output(out, want, "select_if");

    out.poison();
    count.poison();
    onepass::detail::select_launch<select_if_job<T, keep_every_third>, Tuning>(
        select_if_job<T, keep_every_third>{in.get(), keep_every_third{}}, n, out.get(), static_cast<T*>(nullptr),
        count.get(), w, nullptr, stall_some_tiles{salt + 30});
    ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
    EXPECT_EQ(count.download()[0], static_cast<index_t>((n + 2) / 3));
    expect_output(out, reference_select_if(values, keep_every_third{}), "every third");

    for (double fraction : {0.01, 1.0}) {
      const std::vector<T> host = fraction_input<T>(n, fraction, 37 + n);
      io.poison();
      io.upload(host);
      count.poison();
      onepass::detail::select_launch<select_if_job<T, pred_t>, Tuning>(
          select_if_job<T, pred_t>{io.get(), pred_t{}}, n, io.get(), static_cast<T*>(nullptr), count.get(), w,
          nullptr, stall_some_tiles{salt + 40});
      ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
      const std::vector<T> kept = reference_select_if(host, pred_t{});
      EXPECT_EQ(count.download()[0], static_cast<index_t>(kept.size()));
      expect_items(io.download(), 0, kept, static_cast<std::size_t>(n), "select_if in place");
    }
  }
}

// The pipelined agent: every tile edge, a partial last tile, fewer tiles than blocks, and
// hundreds of tiles per block's pipeline; 4- and 8-byte items.
TEST(SelectStress, PipelinedAgent) {
  ONEPASS_REQUIRE_GPU();
  using u32 = pipeline_everywhere<unsigned>;
  const long long tile = onepass::detail::select_plan<unsigned, u32>::tile_items;
  for (long long n : {1ll, 31ll, 32ll, 33ll, tile - 1, tile, tile + 1, 3 * tile + 5,
                      std::min(max_test_items(), (1ll << 22) + 17)}) {
    check_stalled<unsigned, u32>(n);
    check_pipelined_selects<unsigned>(n);
  }
  const long long tile8 = onepass::detail::select_plan<double, pipeline_everywhere<double>>::tile_items;
  for (long long n : {1ll, 33ll, tile8 - 1, tile8 + 1, 5 * tile8 + 3, std::min(max_test_items(), (1ll << 21) + 9)}) {
    check_stalled<double, pipeline_everywhere<double>>(n);
    check_pipelined_selects<double>(n);
  }
  check_stalled<long long, pipeline_everywhere<long long>>(std::min(max_test_items(), (1ll << 21) + 9));
  check_pipelined_selects<float>(std::min(max_test_items(), (1ll << 20) + 3));
}

TEST(SelectStress, SplitTileOnFourByteItems) {
  ONEPASS_REQUIRE_GPU();
  using split = split_tile_four_byte<unsigned>;
  const long long tile = onepass::detail::select_plan<unsigned, split>::tile_items;
  for (long long n : {1ll, 33ll, tile / 2 - 1, tile / 2 + 1, tile + 3, std::min(max_test_items(), (1ll << 22) + 17)})
    check_stalled<unsigned, split>(n);
}

TEST(SelectStress, OneTileKernelOnAlignedItems) {
  ONEPASS_REQUIRE_GPU();
  const long long n = std::min(max_test_items(), (1ll << 20) + 17);
  check_stalled<unsigned, one_tile_kernel_only<unsigned>>(n);
  check_stalled<double, one_tile_kernel_only<double>>(n);
  check_stalled<unsigned, one_tile_kernel_only<unsigned>>(8192 + 3);
  check_stalled<unsigned, one_tile_scalar_stores<unsigned>>(n);
  check_stalled<double, one_tile_scalar_stores<double>>(n);
}

}  // namespace
}  // namespace onepass::test
