// Bad input to the stream compaction (select_if, select_flagged, unique, partition) is
// rejected with onepass::invalid_argument naming the argument, before any CUDA call, in
// both call styles; in place is accepted where the contract allows it; the workspace size
// has its promised shape. No GPU needed: these run in CI. What needs the runtime (host
// memory refused, nothing written) is in test_select.cu.
#include <algorithm>
#include <cstdint>
#include <initializer_list>

#include "onepass/select.cuh"
#include "support/cuda_call_counter.hpp"
#include "support/test_support.cuh"

namespace onepass::test {
namespace {

// Fake device addresses: never dereferenced, because every call below either fails a
// host-side check or stops at the first runtime call (see passes_host_checks).
template <class T>
T* fake(std::uintptr_t address) {
  return reinterpret_cast<T*>(address);
}

struct is_odd {
  __device__ bool operator()(int x) const { return (x & 1) != 0; }
};

enum class op { select_if, select_flagged, unique, partition };
enum class style { simple, workspace };
constexpr op all_ops[] = {op::select_if, op::select_flagged, op::unique, op::partition};
constexpr style both_styles[] = {style::simple, style::workspace};

const char* op_name(op o) {
  switch (o) {
    case op::select_if: return "select_if";
    case op::select_flagged: return "select_flagged";
    case op::unique: return "unique";
    default: return "partition";
  }
}
// The name the API gives its (first) output.
const char* out_name(op o) { return o == op::partition ? "out_selected" : "out"; }

// Every argument of every call, valid and far apart; a test breaks one at a time.
constexpr long long items = 1000;
struct args {
  const int* in = fake<const int>(0x100000);
  const std::uint8_t* flags = fake<const std::uint8_t>(0x200000);
  long long n = items;
  int* out = fake<int>(0x300000);
  int* out_rejected = fake<int>(0x400000);
  index_t* count_out = fake<index_t>(0x500000);
  workspace ws{fake<void>(0x600000), onepass::select_workspace_bytes<int>(items)};
};

void call(op o, style s, const args& a) {
  const bool with_ws = s == style::workspace;
  switch (o) {
    case op::select_if:
      if (with_ws) onepass::select_if(a.in, a.n, a.out, a.count_out, is_odd{}, a.ws, nullptr);
      else onepass::select_if(a.in, a.n, a.out, a.count_out, is_odd{});
      break;
    case op::select_flagged:
      if (with_ws) onepass::select_flagged(a.in, a.flags, a.n, a.out, a.count_out, a.ws, nullptr);
      else onepass::select_flagged(a.in, a.flags, a.n, a.out, a.count_out);
      break;
    case op::unique:
      if (with_ws) onepass::unique(a.in, a.n, a.out, a.count_out, onepass::equal_to{}, a.ws, nullptr);
      else onepass::unique(a.in, a.n, a.out, a.count_out);
      break;
    case op::partition:
      if (with_ws) onepass::partition(a.in, a.n, a.out, a.out_rejected, a.count_out, is_odd{}, a.ws, nullptr);
      else onepass::partition(a.in, a.n, a.out, a.out_rejected, a.count_out, is_odd{});
      break;
  }
}

// Runs the check for every op and style, each with a fresh set of valid arguments.
template <class F>
void for_each_call(F&& f) {
  for (op o : all_ops)
    for (style s : both_styles) {
      SCOPED_TRACE(std::string(op_name(o)) + (s == style::workspace ? ", workspace style" : ", simple style"));
      f(o, s, args{});
    }
}

// The call got past every host-side check: it reached the device-memory checks, which
// either refuse the fake pointers as host memory (a GPU is present) or fail in the runtime
// (none is). Either way nothing was enqueued.
template <class F>
void passes_host_checks(F&& f) {
  try {
    f();
    ADD_FAILURE() << "fake device pointers were accepted";
  } catch (const onepass::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("host memory"), std::string::npos) << e.what();
  } catch (const onepass::cuda_error&) {
  }
}

// No test of this suite enqueues anything (its runtime calls past the host-side checks only
// ask): the fixture checks (support/cuda_call_counter.hpp).
using SelectValidation = nothing_enqueued;

TEST_F(SelectValidation, NullPointers) {
  for_each_call([](op o, style s, args a) {
    args b = a;
    b.in = nullptr;
    expect_rejected([&] { call(o, s, b); }, "in", "null");
    b = a;
    b.out = nullptr;
    expect_rejected([&] { call(o, s, b); }, out_name(o), "null");
    b = a;
    b.count_out = nullptr;
    expect_rejected([&] { call(o, s, b); }, "count_out", "null");
    if (o == op::select_flagged) {
      b = a;
      b.flags = nullptr;
      expect_rejected([&] { call(o, s, b); }, "flags", "null");
    }
  });
}

// With no items every range may be null, but the count is always written.
TEST_F(SelectValidation, EmptyInputStillNeedsTheCount) {
  for_each_call([](op o, style s, args a) {
    a.n = 0;
    a.in = nullptr;
    a.flags = nullptr;
    a.out = nullptr;
    a.out_rejected = nullptr;
    a.ws = workspace{};
    args b = a;
    b.count_out = nullptr;
    expect_rejected([&] { call(o, s, b); }, "count_out", "null");
    passes_host_checks([&] { call(o, s, a); });
  });
  EXPECT_NO_THROW(onepass::detail::check_select_args(static_cast<const int*>(nullptr), 0, static_cast<int*>(nullptr),
                                                     static_cast<int*>(nullptr), fake<index_t>(0x500000)));
}

TEST_F(SelectValidation, Counts) {
  for_each_call([](op o, style s, args a) {
    a.n = -1;
    expect_rejected([&] { call(o, s, a); }, "n", "negative (-1)");
    a.n = onepass::detail::select_plan<int>::max_items + 1;
    expect_rejected([&] { call(o, s, a); }, "n", "more than");
  });
  expect_rejected([] { onepass::select_workspace_bytes<int>(-1); }, "n", "negative (-1)");
  expect_rejected([] { onepass::select_workspace_bytes<double>(-7); }, "n", "negative (-7)");
  // The limit is a one-dimensional grid of tiles; up to it, n is accepted (the ranges are
  // placed back to back, each as long as the largest input).
  using plan = onepass::detail::select_plan<int>;
  EXPECT_EQ(plan::max_items, 2147483647ll * plan::smallest_tile_items);
  const std::uintptr_t base = 1ull << 20;
  const std::uintptr_t len = static_cast<std::uintptr_t>(plan::max_items) * sizeof(int);
  for (long long n : {(1ll << 31) + 5, plan::max_items}) {
    SCOPED_TRACE(n);
    EXPECT_NO_THROW(onepass::detail::check_select_args(fake<const int>(base), n, fake<int>(base + len),
                                                       static_cast<int*>(nullptr), fake<index_t>(0x1000)));
    EXPECT_NO_THROW(onepass::detail::check_select_args(fake<const int>(base), n, fake<int>(base + len),
                                                       fake<int>(base + 2 * len), fake<index_t>(0x1000)));
  }
  expect_rejected([&] {
    onepass::detail::check_select_args(fake<const int>(base), plan::max_items + 1, fake<int>(base + 2 * len),
                                       static_cast<int*>(nullptr), fake<index_t>(0x1000));
  }, "n", std::to_string(plan::max_items));
}

TEST_F(SelectValidation, Misaligned) {
  for_each_call([](op o, style s, args a) {
    args b = a;
    b.in = fake<const int>(0x100002);
    expect_rejected([&] { call(o, s, b); }, "in", "aligned");
    b = a;
    b.out = fake<int>(0x300001);
    expect_rejected([&] { call(o, s, b); }, out_name(o), "aligned");
    b = a;
    b.count_out = fake<index_t>(0x500004);  // 4-byte aligned, not 8
    expect_rejected([&] { call(o, s, b); }, "count_out", "8-byte alignment");
    if (o == op::partition) {
      b = a;
      b.out_rejected = fake<int>(0x400003);
      expect_rejected([&] { call(o, s, b); }, "out_rejected", "aligned");
    }
  });
  // Flags wider than a byte must be aligned too.
  const auto* int_flags = fake<const int>(0x200002);
  expect_rejected([&] {
    onepass::select_flagged(fake<const int>(0x100000), int_flags, 100, fake<int>(0x300000), fake<index_t>(0x500000));
  }, "flags", "aligned");
  // A 12-byte struct needs its own (4-byte) alignment only.
  struct triple {
    int a, b, c;
  };
  using onepass::detail::check_select_args;
  expect_rejected([] {
    check_select_args(fake<const triple>(0x100002), 10, fake<triple>(0x300000), static_cast<triple*>(nullptr),
                      fake<index_t>(0x500000));
  }, "in", "4-byte alignment");
  EXPECT_NO_THROW(check_select_args(fake<const triple>(0x100004), 10, fake<triple>(0x300008),
                                    static_cast<triple*>(nullptr), fake<index_t>(0x500000)));
}

// select_if, select_flagged, unique: out == in is in place; any other overlap is refused.
TEST_F(SelectValidation, InPlaceAcceptedPartialOverlapRefused) {
  for (op o : {op::select_if, op::select_flagged, op::unique}) {
    for (style s : both_styles) {
      SCOPED_TRACE(std::string(op_name(o)) + (s == style::workspace ? ", workspace style" : ", simple style"));
      args a;
      int* in = fake<int>(0x100000);
      a.in = in;
      for (int* out : {in + 1, in + (items - 1), in - (items - 1), in - 1}) {
        a.out = out;
        expect_rejected([&] { call(o, s, a); }, "out", "overlaps 'in'");
      }
      for (int* out : {in, in + items, in - items}) {  // in place, or just next to the input
        a.out = out;
        passes_host_checks([&] { call(o, s, a); });
      }
    }
  }
  using onepass::detail::check_select_args;
  const int* in = fake<const int>(0x100000);
  EXPECT_NO_THROW(check_select_args(in, items, const_cast<int*>(in), static_cast<int*>(nullptr),
                                    fake<index_t>(0x500000)));
}

// partition: the input and both outputs are three disjoint ranges; equal is overlapping.
TEST_F(SelectValidation, PartitionRangesMustNotOverlap) {
  for (style s : both_styles) {
    SCOPED_TRACE(s == style::workspace ? "workspace style" : "simple style");
    int* in = fake<int>(0x100000);
    int* sel = fake<int>(0x300000);
    int* rej = fake<int>(0x400000);
    auto with = [&](const int* i, int* so, int* ro) {
      args a;
      a.in = i;
      a.out = so;
      a.out_rejected = ro;
      return a;
    };
    auto rejected = [&](const args& a, const char* argument, const std::string& other) {
      expect_rejected([&] { call(op::partition, s, a); }, argument, "overlaps '" + other + "'");
    };
    rejected(with(in, in, rej), "out_selected", "in");
    rejected(with(in, in + 1, rej), "out_selected", "in");
    rejected(with(in, in - (items - 1), rej), "out_selected", "in");
    rejected(with(in, sel, in), "out_rejected", "in");
    rejected(with(in, sel, in + (items - 1)), "out_rejected", "in");
    rejected(with(in, sel, in - 3), "out_rejected", "in");
    rejected(with(in, sel, sel), "out_rejected", "out_selected");
    rejected(with(in, sel, sel + 500), "out_rejected", "out_selected");
    rejected(with(in, sel, sel - (items - 1)), "out_rejected", "out_selected");
    // Back to back is fine.
    passes_host_checks([&] { call(op::partition, s, with(in, in + items, in + 2 * items)); });
    passes_host_checks([&] { call(op::partition, s, with(in, in - items, in + items)); });
  }
  // Each message says what the rule is.
  try {
    onepass::partition(fake<const int>(0x100000), 10, fake<int>(0x100000), fake<int>(0x400000),
                       fake<index_t>(0x500000), is_odd{});
    ADD_FAILURE() << "expected onepass::invalid_argument";
  } catch (const onepass::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("must not overlap"), std::string::npos) << e.what();
  }
}

TEST_F(SelectValidation, Workspace) {
  const std::size_t needed = onepass::select_workspace_bytes<int>(items);
  ASSERT_GT(needed, 0u);
  for_each_call([&](op o, style s, args a) {
    if (s == style::simple) return;
    char* spare = fake<char>(0x20000000);
    a.ws = workspace{};
    expect_rejected([&] { call(o, s, a); }, "workspace", "null");
    a.ws = workspace{nullptr, needed};
    expect_rejected([&] { call(o, s, a); }, "workspace", "null");
    a.ws = workspace{spare, needed - 1};
    expect_rejected([&] { call(o, s, a); }, "workspace", "holds " + std::to_string(needed - 1) + " bytes");
    a.ws = workspace{spare + 8, needed};
    expect_rejected([&] { call(o, s, a); }, "workspace", "16-byte aligned");
    a.ws = workspace{spare, needed};
    passes_host_checks([&] { call(o, s, a); });
    // No items, no workspace.
    a.n = 0;
    a.ws = workspace{};
    passes_host_checks([&] { call(o, s, a); });
  });
}

template <class T>
void check_workspace_shape() {
  SCOPED_TRACE(sizeof(T));
  using plan = onepass::detail::select_plan<T>;
  // The workspace counts in the smallest tile any call launches (unique's, for 4-byte items).
  const long long tile = plan::smallest_tile_items;
  const auto bytes = [](long long n) { return onepass::select_workspace_bytes<T>(n); };
  EXPECT_EQ(bytes(0), 0u);
  EXPECT_GT(bytes(1), 0u);
  EXPECT_EQ(bytes(1) % 16, 0u);
  // One size per tile count, growing by the same amount with every tile.
  EXPECT_EQ(bytes(tile), bytes(1));
  const std::size_t per_tile = bytes(tile + 1) - bytes(tile);
  EXPECT_GT(per_tile, 0u);
  EXPECT_EQ(bytes(2 * tile), bytes(tile + 1));
  EXPECT_EQ(bytes(1000 * tile + 1) - bytes(1000 * tile), per_tile);
  EXPECT_EQ(bytes(1000 * tile), bytes(1) + 999 * per_tile);
  // 2^31 items and the largest n still have a size (no overflow in 64 bits).
  const auto last_tiles = static_cast<std::size_t>((plan::max_items + tile - 1) / tile - 1);
  EXPECT_EQ(bytes(plan::max_items), bytes(1) + last_tiles * per_tile);
  EXPECT_GT(bytes(1ll << 31), bytes(1ll << 30));
  // One size serves every call: what select_if's and unique's launches clear and use fits.
  using select_row = onepass::detail::select_job_tuning<onepass::detail::select_if_job<T, is_odd>,
                                                        onepass::tuning::default_select_tuning<T>>;
  using unique_row = onepass::detail::select_job_tuning<onepass::detail::unique_job<T, onepass::equal_to>,
                                                        onepass::tuning::default_select_tuning<T>>;
  using select_launch_plan = onepass::detail::select_plan<T, select_row>;
  using unique_launch_plan = onepass::detail::select_plan<T, unique_row>;
  EXPECT_EQ(std::min(select_launch_plan::tile_items, unique_launch_plan::tile_items), tile);
  for (long long n : {1ll, tile - 1, tile, tile + 1, 4 * plan::tile_items + 3, 1ll << 28, plan::max_items}) {
    SCOPED_TRACE(n);
    EXPECT_GE(bytes(n), select_launch_plan::launch_workspace_bytes(n));
    EXPECT_GE(bytes(n), unique_launch_plan::launch_workspace_bytes(n));
    EXPECT_EQ(bytes(n), std::max(select_launch_plan::launch_workspace_bytes(n),
                                 unique_launch_plan::launch_workspace_bytes(n)));
  }
}

TEST_F(SelectValidation, UniqueTakesItsOwnTileForFourByteItems) {
  using plan = onepass::detail::select_plan<unsigned>;
  EXPECT_EQ(plan::tile_items, 128 * 64);
  EXPECT_EQ(plan::smallest_tile_items, 128 * onepass::tuning::select_unique_items_per_thread_4byte);
  using wide = onepass::detail::select_plan<double>;
  EXPECT_EQ(wide::smallest_tile_items, wide::tile_items);
}

// The kernel each call runs with the production rows (docs/perf/select.md): 4-byte
// selects and unique keep the one-tile kernel and partitions take the split tile; 8-byte
// items take the split tile for every call but select_flagged; other sizes and unaligned
// inputs always run the one-tile kernel. (Where the pipelined agent does not: the next
// test.) Host-side: the dispatcher's own decision.
TEST_F(SelectValidation, KernelChoiceOfTheProductionRows) {
  using onepass::detail::select_flagged_job;
  using onepass::detail::select_if_job;
  using onepass::detail::select_kernel_choice;
  using onepass::detail::unique_job;
  auto choice = [](auto job, bool aligned, bool partition) {
    using Job = decltype(job);
    return select_kernel_choice<Job, onepass::tuning::default_select_tuning<typename Job::value_type>>::split_tile(
        aligned, partition);
  };
  // 4-byte items.
  EXPECT_FALSE(choice(select_if_job<unsigned, is_odd>{}, true, false));
  EXPECT_TRUE(choice(select_if_job<unsigned, is_odd>{}, true, true));
  EXPECT_FALSE(choice(select_if_job<unsigned, is_odd>{}, false, true));
  EXPECT_FALSE(choice(unique_job<unsigned, equal_to>{}, true, false));
  EXPECT_FALSE(choice(select_flagged_job<unsigned, std::uint8_t>{}, true, false));
  EXPECT_TRUE(choice(select_if_job<float, is_odd>{}, true, true));
  // 8-byte items.
  EXPECT_TRUE(choice(select_if_job<double, is_odd>{}, true, false));
  EXPECT_TRUE(choice(select_if_job<long long, is_odd>{}, true, true));
  EXPECT_FALSE(choice(select_if_job<long long, is_odd>{}, false, false));
  EXPECT_TRUE(choice(unique_job<unsigned long long, equal_to>{}, true, false));
  EXPECT_FALSE(choice(unique_job<unsigned long long, equal_to>{}, false, false));
  EXPECT_FALSE(choice(select_flagged_job<double, std::uint8_t>{}, true, false));
  // Other sizes: no split tile at all.
  EXPECT_FALSE(choice(select_if_job<std::uint16_t, is_odd>{}, true, true));
  EXPECT_FALSE(choice(select_if_job<std::uint8_t, is_odd>{}, true, false));
  struct pair16 {
    long long a, b;
  };
  EXPECT_FALSE(choice(select_if_job<pair16, is_odd>{}, true, true));
}

// Where the pipelined agent runs (agent/select_pipeline.cuh), before the choice above:
// every call of 4- and 8-byte items but select_flagged, at every size, on 16-byte aligned
// input and outputs from 2.5 tiles per resident block up; never other item sizes.
TEST_F(SelectValidation, PipelineChoiceOfTheProductionRows) {
  using onepass::detail::select_flagged_job;
  using onepass::detail::select_if_job;
  using onepass::detail::select_kernel_choice;
  using onepass::detail::unique_job;
  // A partition takes the same choice as a select (every call but select_flagged runs it).
  auto pipelined = [](auto job, bool aligned, double tiles_per_block) {
    using Job = decltype(job);
    return select_kernel_choice<Job, onepass::tuning::default_select_tuning<typename Job::value_type>>::pipelined(
        aligned, tiles_per_block);
  };
  // 4-byte items.
  EXPECT_TRUE(pipelined(select_if_job<unsigned, is_odd>{}, true, 2.5));
  EXPECT_FALSE(pipelined(select_if_job<unsigned, is_odd>{}, true, 2.4));
  EXPECT_FALSE(pipelined(select_if_job<unsigned, is_odd>{}, false, 100));
  EXPECT_TRUE(pipelined(select_if_job<float, is_odd>{}, true, 100));
  EXPECT_FALSE(pipelined(select_if_job<float, is_odd>{}, true, 2));
  EXPECT_TRUE(pipelined(unique_job<unsigned, equal_to>{}, true, 100));
  EXPECT_FALSE(pipelined(unique_job<unsigned, equal_to>{}, false, 100));
  EXPECT_FALSE(pipelined(select_flagged_job<unsigned, std::uint8_t>{}, true, 100));
  // 8-byte items.
  EXPECT_TRUE(pipelined(select_if_job<double, is_odd>{}, true, 100));
  EXPECT_FALSE(pipelined(select_if_job<double, is_odd>{}, false, 100));
  EXPECT_TRUE(pipelined(select_if_job<long long, is_odd>{}, true, 100));
  EXPECT_TRUE(pipelined(unique_job<unsigned long long, equal_to>{}, true, 100));
  EXPECT_FALSE(pipelined(unique_job<unsigned long long, equal_to>{}, true, 2));
  EXPECT_FALSE(pipelined(select_flagged_job<double, std::uint8_t>{}, true, 100));
  // Other sizes: never.
  EXPECT_FALSE(pipelined(select_if_job<std::uint16_t, is_odd>{}, true, 100));
  struct pair16 {
    long long a, b;
  };
  EXPECT_FALSE(pipelined(select_if_job<pair16, is_odd>{}, true, 100));
}

TEST_F(SelectValidation, WorkspaceBytes) {
  check_workspace_shape<std::uint8_t>();
  check_workspace_shape<int>();
  check_workspace_shape<double>();
  struct triple {
    float x, y, z;
  };
  check_workspace_shape<triple>();
}

// partition with a null out_rejected and n > 0 is refused like any null range (the
// dispatch reads a null out_rejected as "a select", so partition must check it itself).
TEST_F(SelectValidation, PartitionNullOutRejected) {
  for (style s : both_styles) {
    SCOPED_TRACE(s == style::workspace ? "workspace style" : "simple style");
    args a;
    a.out_rejected = nullptr;
    expect_rejected([&] { call(op::partition, s, a); }, "out_rejected", "null");
  }
  expect_rejected([] {
    onepass::partition_to_host(fake<const int>(0x100000), 10, fake<int>(0x300000), static_cast<int*>(nullptr),
                               is_odd{});
  }, "out_rejected", "null");
}

// The conveniences check like the calls they wrap, before allocating their count: with
// no GPU here, an allocation first would throw cuda_error instead of invalid_argument.
TEST_F(SelectValidation, ToHostChecksBeforeAllocating) {
  const int* in = fake<const int>(0x100000);
  int* out = fake<int>(0x300000);
  expect_rejected([&] { onepass::select_if_to_host(static_cast<const int*>(nullptr), 10, out, is_odd{}); }, "in",
                  "null");
  expect_rejected([&] { onepass::select_if_to_host(in, -1, out, is_odd{}); }, "n", "negative");
  expect_rejected([&] { onepass::select_flagged_to_host(in, static_cast<const bool*>(nullptr), 10, out); }, "flags",
                  "null");
  expect_rejected([&] { onepass::unique_to_host(in, 10, fake<int>(0x100004)); }, "out", "overlaps 'in'");
  expect_rejected([&] { onepass::partition_to_host(in, 10, out, out, is_odd{}); }, "out_rejected",
                  "overlaps 'out_selected'");
}

}  // namespace
}  // namespace onepass::test
