// Every stream-compaction variant of the registry (select_if, unique, partition) on six
// item types, against the CPU reference (support/select_reference.hpp), exact; the
// production variant in place; predicates that read the index; and, without a GPU, the
// registry's shape and what each variant refuses.
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "onepass/ladder/select/registry.cuh"
#include "onepass/select.cuh"
#include "support/cuda_call_counter.hpp"
#include "support/select_reference.hpp"
#include "support/test_support.cuh"

namespace onepass::test {
namespace {

// 0, 1, the warp edges, the production tile's edges, random sizes up to 300k, 2^22 + 3;
// capped by ONEPASS_TEST_MAX_N.
template <class T>
std::vector<long long> select_test_sizes(std::uint64_t seed) {
  const long long tile = onepass::detail::select_plan<T>::tile_items;
  std::mt19937_64 rng(seed);
  const auto random_size = [&rng] { return 1 + static_cast<long long>(rng() % 300000); };
  return capped_sorted_sizes({0, 1, 31, 32, 33, tile - 1, tile, tile + 1, (1ll << 22) + 3, random_size(),
                              random_size(), random_size()});
}

constexpr double select_fractions[] = {0.0, 0.01, 0.5, 0.99, 1.0};
constexpr double partition_fractions[] = {0.01, 0.5, 0.99};
constexpr long long unique_runs[] = {1, 4, 1000, random_runs};

// Items after each output's end that must keep their poison.
constexpr long long select_guard = 4;

// One input on the device and poisoned outputs of n + select_guard items.
template <class T>
struct select_buffers {
  explicit select_buffers(const std::vector<T>& host)
      : n(static_cast<long long>(host.size())), in(host), out(n + select_guard), rejected(n + select_guard), count(1) {}
  void poison() {
    out.poison();
    rejected.poison();
    count.poison();
  }
  long long n;
  device_buffer<T> in, out, rejected;
  device_buffer<index_t> count;
};

// After a call: the count, out[0, count) against `selected`, and for a partition
// (rejected_too) out_rejected[0, n - count) against `rejected`; with `untouched`, also
// that nothing past them was written.
template <class T>
void expect_outputs(select_buffers<T>& b, const std::vector<T>& selected, const std::vector<T>* rejected,
                    bool untouched) {
  throw_if(cudaDeviceSynchronize(), "select");
  const long long count = b.count.download()[0];
  ASSERT_EQ(count, static_cast<long long>(selected.size())) << "wrong count";
  const std::vector<T> out = b.out.download();
  const std::string diff = first_difference(selected, std::vector<T>(out.begin(), out.begin() + count));
  EXPECT_TRUE(diff.empty()) << "out: " << diff;
  if (untouched) {
    const std::string past = first_written(out, static_cast<std::size_t>(count));
    EXPECT_TRUE(past.empty()) << "out past the count: " << past;
  }
  if (rejected == nullptr) return;
  const long long other = b.n - count;
  const std::vector<T> got = b.rejected.download();
  const std::string rdiff = first_difference(*rejected, std::vector<T>(got.begin(), got.begin() + other));
  EXPECT_TRUE(rdiff.empty()) << "out_rejected: " << rdiff;
  if (untouched) {
    const std::string past = first_written(got, static_cast<std::size_t>(other));
    EXPECT_TRUE(past.empty()) << "out_rejected past its end: " << past;
  }
}

// The variants whose poison past the outputs is checked: the library's own.
bool checks_untouched(const char* id) { return std::string(id) != "cub"; }

enum class select_op { select_if, unique, partition };
const char* select_op_name(select_op op) {
  return op == select_op::select_if ? "select_if" : op == select_op::unique ? "unique" : "partition";
}

// Every registry variant, every size and every input of one operation for T.
template <class T>
void check_select_ladder(select_op op, std::uint64_t seed) {
  using pred = select_less_than<T>;
  const auto& registry = ladder::select_registry<T, pred>();
  ASSERT_EQ(registry.size(), 3u);
  for (long long n : select_test_sizes<T>(seed)) {
    // The inputs of this operation: keep fractions, or run lengths.
    std::vector<double> params;
    if (op == select_op::select_if) params.assign(std::begin(select_fractions), std::end(select_fractions));
    if (op == select_op::partition) params.assign(std::begin(partition_fractions), std::end(partition_fractions));
    if (op == select_op::unique)
      for (long long r : unique_runs) params.push_back(static_cast<double>(r));
    for (double param : params) {
      const std::uint64_t data_seed = seed * 1000003 + static_cast<std::uint64_t>(n) * 31 +
                                      static_cast<std::uint64_t>(param * 1000);
      const std::vector<T> host = op == select_op::unique
                                      ? run_length_values<T>(n, static_cast<long long>(param), data_seed)
                                      : keep_fraction_values<T>(n, param, data_seed);
      partition_result<T> want;
      if (op == select_op::unique) want.selected = reference_unique(host);
      else if (op == select_op::select_if) want.selected = reference_select_if(host, pred{});
      else want = reference_partition(host, pred{});
      select_buffers<T> b(host);
      for (const auto& v : registry) {
        SCOPED_TRACE(std::string(v.id) + " " + select_op_name(op) + " " + type_name<T>() + " n=" + std::to_string(n) +
                     (op == select_op::unique ? " run length " : " keep fraction ") + std::to_string(param));
        device_buffer<unsigned char> ws(static_cast<long long>(v.workspace_bytes(n)));
        const workspace w{ws.get(), ws.bytes()};
        b.poison();
        switch (op) {
          case select_op::select_if: v.select_if(b.in.get(), n, b.out.get(), b.count.get(), pred{}, w, nullptr); break;
          case select_op::unique: v.unique(b.in.get(), n, b.out.get(), b.count.get(), w, nullptr); break;
          case select_op::partition:
            v.partition(b.in.get(), n, b.out.get(), b.rejected.get(), b.count.get(), pred{}, w, nullptr);
            break;
        }
        expect_outputs(b, want.selected, op == select_op::partition ? &want.rejected : nullptr, checks_untouched(v.id));
      }
    }
  }
}

#define ONEPASS_SELECT_LADDER_TESTS(T, name, seed)                                     \
  TEST(SelectLadder, name##_select_if) {                                               \
    ONEPASS_REQUIRE_GPU();                                                             \
    check_select_ladder<T>(select_op::select_if, seed);                                \
  }                                                                                    \
  TEST(SelectLadder, name##_unique) {                                                  \
    ONEPASS_REQUIRE_GPU();                                                             \
    check_select_ladder<T>(select_op::unique, seed + 1);                               \
  }                                                                                    \
  TEST(SelectLadder, name##_partition) {                                               \
    ONEPASS_REQUIRE_GPU();                                                             \
    check_select_ladder<T>(select_op::partition, seed + 2);                            \
  }

ONEPASS_SELECT_LADDER_TESTS(int, int32, 700)
ONEPASS_SELECT_LADDER_TESTS(unsigned, uint32, 710)
ONEPASS_SELECT_LADDER_TESTS(long long, int64, 720)
ONEPASS_SELECT_LADDER_TESTS(unsigned long long, uint64, 730)
ONEPASS_SELECT_LADDER_TESTS(float, float, 740)
ONEPASS_SELECT_LADDER_TESTS(double, double, 750)

// The production variant with out == in, through the registry and the public API.
template <class T>
void check_production_in_place(std::uint64_t seed) {
  using pred = select_less_than<T>;
  const auto* v = ladder::find_select<T, pred>("onepass");
  ASSERT_NE(v, nullptr);
  ASSERT_TRUE(v->in_place);
  for (long long n : select_test_sizes<T>(seed)) {
    for (const bool is_unique : {false, true}) {
      for (const bool via_registry : {false, true}) {
        SCOPED_TRACE(std::string(is_unique ? "unique" : "select_if") +
                     (via_registry ? " (registry)" : " (public API)") + " in place, " + type_name<T>() +
                     " n=" + std::to_string(n));
        const std::uint64_t data_seed = seed + static_cast<std::uint64_t>(n);
        const std::vector<T> host = is_unique ? run_length_values<T>(n, random_runs, data_seed)
                                              : keep_fraction_values<T>(n, 0.5, data_seed);
        const std::vector<T> want = is_unique ? reference_unique(host) : reference_select_if(host, pred{});
        device_buffer<T> data(host);
        device_buffer<index_t> count(1);
        device_buffer<unsigned char> ws(static_cast<long long>(v->workspace_bytes(n)));
        const workspace w{ws.get(), ws.bytes()};
        if (via_registry) {
          if (is_unique) v->unique(data.get(), n, data.get(), count.get(), w, nullptr);
          else v->select_if(data.get(), n, data.get(), count.get(), pred{}, w, nullptr);
        } else {
          if (is_unique) onepass::unique(data.get(), n, data.get(), count.get(), equal_to{}, w, nullptr);
          else onepass::select_if(data.get(), n, data.get(), count.get(), pred{}, w, nullptr);
        }
        throw_if(cudaDeviceSynchronize(), "in place");
        ASSERT_EQ(count.download()[0], static_cast<long long>(want.size()));
        const std::vector<T> got = data.download(static_cast<long long>(want.size()));
        const std::string diff = first_difference(want, got);
        EXPECT_TRUE(diff.empty()) << diff;
      }
    }
  }
}

TEST(SelectLadder, ProductionInPlaceInt32) {
  ONEPASS_REQUIRE_GPU();
  check_production_in_place<int>(801);
}
TEST(SelectLadder, ProductionInPlaceDouble) {
  ONEPASS_REQUIRE_GPU();
  check_production_in_place<double>(802);
}

// A predicate of the index (keep every third item), through the public API and the
// three_kernel variant (the registry's cub entry refuses such predicates).
template <class T>
void check_index_predicate(std::uint64_t seed) {
  using job = onepass::detail::select_if_job<T, keep_every_third>;
  const long long tile = onepass::detail::select_plan<T>::tile_items;
  for (long long n : capped_sorted_sizes({0, 1, 2, 3, 4, tile - 1, tile, tile + 1, 3 * tile + 2, 100003,
                                          (1ll << 22) + 3})) {
    const std::vector<T> host = keep_fraction_values<T>(n, 0.5, seed + static_cast<std::uint64_t>(n));
    const partition_result<T> want = reference_partition(host, keep_every_third{});
    select_buffers<T> b(host);
    for (const bool partition : {false, true}) {
      for (const bool production : {true, false}) {
        SCOPED_TRACE(std::string(production ? "onepass::" : "three_kernel ") + (partition ? "partition" : "select_if") +
                     " every third item, " + type_name<T>() + " n=" + std::to_string(n));
        const std::size_t bytes = production ? onepass::select_workspace_bytes<T>(n)
                                             : ladder::three_kernel::workspace_bytes<T, keep_every_third>(n);
        device_buffer<unsigned char> ws(static_cast<long long>(bytes));
        const workspace w{ws.get(), ws.bytes()};
        T* rejected = partition ? b.rejected.get() : nullptr;
        b.poison();
        if (production && partition) {
          onepass::partition(b.in.get(), n, b.out.get(), rejected, b.count.get(), keep_every_third{}, w, nullptr);
        } else if (production) {
          onepass::select_if(b.in.get(), n, b.out.get(), b.count.get(), keep_every_third{}, w, nullptr);
        } else {
          ladder::run_select<ladder::three_kernel>(job{b.in.get(), keep_every_third{}}, n, b.out.get(), rejected,
                                                   b.count.get(), w, nullptr);
        }
        expect_outputs(b, want.selected, partition ? &want.rejected : nullptr, true);
      }
    }
  }
}

TEST(SelectLadder, IndexPredicateInt32) {
  ONEPASS_REQUIRE_GPU();
  check_index_predicate<int>(901);
}
TEST(SelectLadder, IndexPredicateDouble) {
  ONEPASS_REQUIRE_GPU();
  check_index_predicate<double>(902);
}

// --- without a GPU: the registry's shape and what the variants refuse --------------------
TEST(SelectLadderRegistry, LadderOrderAndProperties) {
  const auto& infos = ladder::select_variants();
  ASSERT_EQ(infos.size(), 3u);
  EXPECT_STREQ(infos[0].id, "three_kernel");
  EXPECT_STREQ(infos[1].id, "onepass");
  EXPECT_STREQ(infos[2].id, "cub");
  EXPECT_FALSE(infos[0].in_place);
  EXPECT_TRUE(infos[1].in_place);
  EXPECT_FALSE(infos[2].in_place);
  EXPECT_TRUE(infos[0].index_predicates);
  EXPECT_TRUE(infos[1].index_predicates);
  EXPECT_FALSE(infos[2].index_predicates);
  for (const auto& info : infos) EXPECT_GT(std::string(info.summary).size(), 10u) << info.id;
  using pred = select_less_than<int>;
  const auto& registry = ladder::select_registry<int, pred>();
  ASSERT_EQ(registry.size(), infos.size());
  for (std::size_t i = 0; i < infos.size(); ++i) {
    EXPECT_STREQ(registry[i].id, infos[i].id);
    EXPECT_EQ((ladder::find_select<int, pred>(infos[i].id)), &registry[i]);
  }
  EXPECT_EQ((ladder::find_select<int, pred>("no_such_variant")), nullptr);
}

// The refusals come before any device memory is looked at, so aligned stand-in pointers
// do: not even a CUDA call is made.
TEST(SelectLadderRegistry, VariantsRefuseWhatTheyCannotDo) {
  using pred = select_less_than<int>;
  int* data = reinterpret_cast<int*>(std::uintptr_t{1} << 20);
  int* other = data + (1 << 16);
  auto* count = reinterpret_cast<index_t*>(std::uintptr_t{1} << 21);
  const workspace none{};
  for (const auto& v : ladder::select_registry<int, pred>()) {
    SCOPED_TRACE(v.id);
    const std::vector<long long> calls_before = cuda_call_counts();
    if (!v.in_place) {
      expect_rejected([&] { v.select_if(data, 100, data, count, pred{}, none, nullptr); }, "out", "in place");
      expect_rejected([&] { v.unique(data, 100, data, count, none, nullptr); }, "out", "in place");
    }
    // What the production API checks, every variant checks, with the same words.
    expect_rejected([&] { v.select_if(data, -1, other, count, pred{}, none, nullptr); }, "n", "negative");
    expect_rejected([&] { v.select_if(data, 100, other, nullptr, pred{}, none, nullptr); }, "count_out", "null");
    expect_rejected([&] { v.unique(nullptr, 100, other, count, none, nullptr); }, "in", "null");
    expect_rejected([&] { v.select_if(data, 100, data + 50, count, pred{}, none, nullptr); }, "out", "overlaps");
    expect_rejected([&] { v.partition(data, 100, other, data + 10, count, pred{}, none, nullptr); }, "out_rejected",
                    "overlap");
    expect_rejected([&] { v.partition(data, 100, other, other + 10, count, pred{}, none, nullptr); },
                    "out_rejected", "overlap");
    EXPECT_EQ(cuda_calls_since(calls_before), "");
  }
  // CUB calls its selection functor with the item alone.
  using job = onepass::detail::select_if_job<int, keep_every_third>;
  expect_no_cuda_calls([&] {
    expect_rejected(
        [&] { ladder::run_select<ladder::cub_select>(job{data, {}}, 100, other, nullptr, count, none, nullptr); },
        "pred", "index");
  });
}

}  // namespace
}  // namespace onepass::test
