// Bad input is rejected with onepass::invalid_argument naming the argument, before any
// work is enqueued. These checks need no GPU and run in CI; the device-memory checks
// (host pointers, nothing written) are in test_scan.cu.
#include "onepass/ladder/scan/registry.cuh"
#include "onepass/scan.cuh"
#include "support/cuda_call_counter.hpp"
#include "support/test_support.cuh"

namespace onepass::test {
namespace {

// Fake device addresses: never dereferenced, because every check below fails first.
int* fake(std::uintptr_t address) { return reinterpret_cast<int*>(address); }

// No test of this suite makes a CUDA call: the fixture checks (support/cuda_call_counter.hpp).
using Validation = no_cuda_calls;

TEST_F(Validation, NegativeCount) {
  expect_rejected([] { onepass::inclusive_scan(fake(0x1000), -1, fake(0x9000)); }, "n", "negative");
  expect_rejected([] { onepass::scan_workspace_bytes<int>(-5); }, "n", "negative (-5)");
}

TEST_F(Validation, NullPointers) {
  expect_rejected([] { onepass::inclusive_scan(static_cast<const int*>(nullptr), 10, fake(0x9000)); }, "in", "null");
  expect_rejected([] { onepass::exclusive_scan(fake(0x1000), 10, static_cast<int*>(nullptr), 0); }, "out", "null");
  // An empty range may be null, and nothing happens.
  EXPECT_NO_THROW(onepass::inclusive_scan(static_cast<const int*>(nullptr), 0, static_cast<int*>(nullptr)));
}

TEST_F(Validation, OverflowingCount) {
  const long long too_many = onepass::detail::scan_plan<int>::max_items + 1;
  expect_rejected([&] { onepass::inclusive_scan(fake(0x1000), too_many, fake(0x9000)); }, "n", "more than");
}

TEST_F(Validation, MisalignedForTheElementType) {
  const auto* in = reinterpret_cast<const double*>(0x1004);
  auto* out = reinterpret_cast<double*>(0x90000);
  expect_rejected([&] { onepass::inclusive_scan(in, 10, out); }, "in", "aligned");
}

TEST_F(Validation, PartialOverlapIsRejectedInPlaceIsNot) {
  expect_rejected([] { onepass::inclusive_scan(fake(0x1000), 100, fake(0x1000 + 4 * 50)); }, "out", "overlaps 'in'");
  expect_rejected([] { onepass::inclusive_scan(fake(0x1000 + 4 * 50), 100, fake(0x1000)); }, "out", "overlaps 'in'");
}

TEST_F(Validation, Workspace) {
  const long long n = 100000;
  const std::size_t need = onepass::scan_workspace_bytes<int>(n);
  EXPECT_GT(need, 0u);
  EXPECT_EQ(onepass::scan_workspace_bytes<int>(0), 0u);
  expect_rejected([&] { onepass::inclusive_scan(fake(0x1000), n, fake(0x10000000), onepass::plus{}, workspace{}, nullptr); },
                  "workspace", "null");
  expect_rejected([&] {
    onepass::inclusive_scan(fake(0x1000), n, fake(0x10000000), onepass::plus{}, workspace{fake(0x20000000), need - 1}, nullptr);
  }, "workspace", std::to_string(need));
  expect_rejected([&] {
    onepass::inclusive_scan(fake(0x1000), n, fake(0x10000000), onepass::plus{}, workspace{fake(0x20000008), need}, nullptr);
  }, "workspace", "16-byte aligned");
}

TEST_F(Validation, LadderVariantBeyondItsLimit) {
  const auto& hs = onepass::ladder::find_scan<int, onepass::plus>("hillis_steele");
  ASSERT_EQ(hs.max_items, 1024);
  expect_rejected([&] {
    hs.run(fake(0x1000), 1025, fake(0x100000), onepass::ladder::scan_kind::inclusive, 0, onepass::plus{}, workspace{}, nullptr);
  }, "n", "at most 1024");
  const auto& bl = onepass::ladder::find_scan<float, onepass::maximum>("blelloch_bcf");
  expect_rejected([&] {
    bl.run(reinterpret_cast<const float*>(0x1000), 2049, reinterpret_cast<float*>(0x100000),
           onepass::ladder::scan_kind::exclusive, 0.f, onepass::maximum{}, workspace{}, nullptr);
  }, "n", "at most 2048");
}

TEST_F(Validation, LadderBatchArguments) {
  using onepass::ladder::scan_kind;
  const auto& hs = onepass::ladder::find_scan<int, onepass::plus>("hillis_steele");
  ASSERT_NE(hs.run_batch, nullptr);
  auto run = [&](const int* in, long long n, long long batch, int* out) {
    hs.run_batch(in, n, batch, out, scan_kind::inclusive, 0, onepass::plus{}, nullptr);
  };
  expect_rejected([&] { run(fake(0x1000), 1025, 10, fake(0x1000000)); }, "n", "at most 1024");
  expect_rejected([&] { run(fake(0x1000), -1, 10, fake(0x1000000)); }, "n", "negative (-1)");
  expect_rejected([&] { run(fake(0x1000), 10, -3, fake(0x1000000)); }, "batch", "negative (-3)");
  expect_rejected([&] { run(fake(0x1000), 10, 1ll << 31, fake(0x1000000)); }, "batch", "2147483647 blocks");
  expect_rejected([&] { run(nullptr, 10, 3, fake(0x1000000)); }, "in", "holds 30 items");
  expect_rejected([&] { run(fake(0x1000), 10, 3, nullptr); }, "out", "null");
  // The overlap check covers the whole batch: out starts inside the third array of in.
  expect_rejected([&] { run(fake(0x1000), 10, 3, fake(0x1000 + 4 * 25)); }, "out", "overlaps 'in'");
  // Empty arrays or an empty batch: nothing to check against the GPU, nothing launched.
  EXPECT_NO_THROW(run(nullptr, 0, 5, nullptr));
  EXPECT_NO_THROW(run(nullptr, 10, 0, nullptr));

  const auto& bl = onepass::ladder::find_scan<float, onepass::maximum>("blelloch_bcf");
  ASSERT_NE(bl.run_batch, nullptr);
  expect_rejected([&] {
    bl.run_batch(reinterpret_cast<const float*>(0x1000), 2049, 4, reinterpret_cast<float*>(0x100000),
                 scan_kind::exclusive, 0.f, onepass::maximum{}, nullptr);
  }, "n", "at most 2048");
  expect_rejected([&] {
    bl.run_batch(reinterpret_cast<const float*>(0x1000), 2048, -1, reinterpret_cast<float*>(0x100000),
                 scan_kind::exclusive, 0.f, onepass::maximum{}, nullptr);
  }, "batch", "negative");
}

// A batched variant without an item limit, to reach the n * batch overflow check, which
// the real variants' limits make unreachable. Never launched: every call below throws.
struct unlimited_batched : onepass::ladder::needs_no_workspace {
  static constexpr const char* id = "unlimited_batched";
  static constexpr onepass::index_t max_items = onepass::ladder::no_limit;
  template <class T, class Op>
  static void run_batch_unchecked(const T*, onepass::index_t, onepass::index_t, T*, onepass::ladder::scan_kind, T,
                                  Op, cudaStream_t) {
    ADD_FAILURE() << "run_batch_unchecked reached past the checks";
  }
};

TEST_F(Validation, LadderBatchCountOverflow) {
  static_assert(onepass::ladder::has_batch_v<unlimited_batched>);
  static_assert(onepass::ladder::has_batch_v<onepass::ladder::hillis_steele>);
  static_assert(!onepass::ladder::has_batch_v<onepass::ladder::sequential>);
  expect_rejected([] {
    onepass::ladder::run_scan_batch<unlimited_batched>(fake(0x1000), 1ll << 40, 1ll << 30, fake(0x1000000),
                                                       onepass::ladder::scan_kind::inclusive, 0, onepass::plus{},
                                                       nullptr);
  }, "batch", "overflows");
}

TEST_F(Validation, UnknownVariantId) {
  expect_rejected([] { onepass::ladder::find_scan<int, onepass::plus>("quantum"); }, "id", "known: sequential");
}

TEST(Registry, LadderOrderAndIds) {
  std::vector<std::string> ids;
  for (const auto& v : onepass::ladder::scan_variants()) ids.push_back(v.id);
  const std::vector<std::string> expected = {
      "sequential", "hillis_steele", "blelloch", "blelloch_bcf", "warp_shuffle", "three_pass_smem",
      "three_pass_warp", "chained", "lookback_thread", "lookback_warp", "lookback_vec4",
      "lookback_vec8", "lookback_vec12", "lookback_vec16", "onepass", "deterministic", "cub"};
  EXPECT_EQ(ids, expected);
  for (const auto& v : onepass::ladder::scan_variants()) {
    EXPECT_GT(std::string(v.summary).size(), 10u) << v.id;
    EXPECT_GE(v.passes, 1.0) << v.id;
  }
}

// The one-block variants, and only they, scan a batch of arrays in one launch.
TEST(Registry, BatchedExactlyTheOneBlockVariants) {
  const std::vector<std::string> batched = {"hillis_steele", "blelloch", "blelloch_bcf"};
  auto expected = [&](const char* id) { return std::find(batched.begin(), batched.end(), id) != batched.end(); };
  for (const auto& v : onepass::ladder::scan_variants()) EXPECT_EQ(v.batched, expected(v.id)) << v.id;
  for (const auto& v : onepass::ladder::scan_registry<int, onepass::plus>()) {
    EXPECT_EQ(v.run_batch != nullptr, expected(v.id)) << v.id;
    EXPECT_EQ(v.batched, expected(v.id)) << v.id;
  }
  for (const auto& v : onepass::ladder::scan_registry<float, onepass::maximum>())
    EXPECT_EQ(v.run_batch != nullptr, expected(v.id)) << v.id;
}

TEST(Errors, CudaErrorNamesTheCallAndTheCode) {
  const onepass::cuda_error e(cudaErrorMemoryAllocation, "cudaMallocAsync(scratch)");
  EXPECT_EQ(e.code(), cudaErrorMemoryAllocation);
  EXPECT_NE(std::string(e.what()).find("cudaMallocAsync(scratch) failed: cudaErrorMemoryAllocation"), std::string::npos)
      << e.what();
}

TEST(Errors, NoGpuGivesAClearCudaError) {
  if (gpu_available()) GTEST_SKIP() << "this machine has a GPU; the no-GPU path is checked in CI";
  // Past the host-side checks the first runtime call (the device-memory check) fails.
  try {
    onepass::inclusive_scan(fake(0x1000), 10, fake(0x9000));
    ADD_FAILURE() << "expected onepass::cuda_error";
  } catch (const onepass::cuda_error& e) {
    EXPECT_NE(e.code(), cudaSuccess);
    EXPECT_NE(std::string(e.what()).find("cudaPointerGetAttributes('in')"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace onepass::test
