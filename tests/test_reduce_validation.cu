// Bad input to the reduce is rejected with onepass::invalid_argument naming the argument,
// before any work is enqueued; the registry has the ladder's shape; the CPU reference and
// its input promises hold. No GPU needed: these run in CI.
#include "onepass/ladder/reduce/registry.cuh"
#include "onepass/reduce.cuh"
#include "support/cuda_call_counter.hpp"
#include "support/test_support.cuh"

namespace onepass::test {
namespace {

// Fake device addresses: never dereferenced, because every check below fails first.
int* fake(std::uintptr_t address) { return reinterpret_cast<int*>(address); }

// No test of this suite makes a CUDA call: the fixture checks (support/cuda_call_counter.hpp).
using ReduceValidation = no_cuda_calls;

TEST_F(ReduceValidation, Counts) {
  expect_rejected([] { onepass::reduce(fake(0x1000), -1, fake(0x9000)); }, "n", "negative");
  expect_rejected([] { onepass::reduce_workspace_bytes<int>(-3); }, "n", "negative (-3)");
  expect_rejected([] { onepass::reduce_to_host(fake(0x1000), -1); }, "n", "negative");
}

TEST_F(ReduceValidation, Pointers) {
  expect_rejected([] { onepass::reduce(static_cast<const int*>(nullptr), 10, fake(0x9000)); }, "in", "null");
  // The result is written even for an empty input, so `out` may never be null.
  expect_rejected([] { onepass::reduce(static_cast<const int*>(nullptr), 0, static_cast<int*>(nullptr)); }, "out",
                  "null");
  expect_rejected([] { onepass::reduce(reinterpret_cast<const double*>(0x1004), 10, reinterpret_cast<double*>(0x9000)); },
                  "in", "aligned");
  expect_rejected([] { onepass::reduce(fake(0x1000), 100, fake(0x1000 + 4 * 99)); }, "out", "inside the input");
  expect_rejected([] { onepass::reduce(fake(0x1000), 100, fake(0x1000)); }, "out", "inside the input");
  expect_rejected([] { onepass::reduce_to_host(static_cast<const int*>(nullptr), 5); }, "in", "null");
}

TEST_F(ReduceValidation, Workspace) {
  using plan = onepass::detail::reduce_plan<int>;
  // One block's worth needs no workspace; two blocks' worth does, one partial per block.
  const long long small = plan::segment_items * plan::warps * 2 - 1;
  const long long large = 100 * plan::segment_items * plan::warps;
  EXPECT_EQ(onepass::reduce_workspace_bytes<int>(0), 0u);
  EXPECT_EQ(onepass::reduce_workspace_bytes<int>(small), 0u);
  EXPECT_EQ(onepass::reduce_workspace_bytes<int>(large), 100 * sizeof(int));
  // Bounded whatever n is: no more partials than any GPU runs blocks at once.
  EXPECT_EQ(onepass::reduce_workspace_bytes<int>(1ll << 40), plan::max_blocks * sizeof(int));
  const workspace none{};
  expect_rejected([&] { onepass::reduce(fake(0x1000), large, fake(0x10000000), 0, onepass::plus{}, none, nullptr); },
                  "workspace", "null");
  char* tiny = reinterpret_cast<char*>(0x20000000);
  expect_rejected([&] { onepass::reduce(fake(0x1000), large, fake(0x10000000), 0, onepass::plus{}, workspace{tiny, 8}, nullptr); },
                  "workspace", "holds 8 bytes");
}

TEST_F(ReduceValidation, AtomicRungsRefuseNonCommutativeOperators) {
  const auto* in = reinterpret_cast<const affine*>(0x1000);
  auto* out = reinterpret_cast<affine*>(0x90000);
  for (const auto& v : ladder::reduce_registry<affine, compose>()) {
    if (!v.commutative_only) continue;
    SCOPED_TRACE(v.id);
    expect_rejected([&] { v.run(in, 10, out, affine{1, 0}, compose{}, workspace{}, nullptr); }, "op", "commutative");
  }
}

TEST(ReduceRegistry, LadderOrderAndIds) {
  std::vector<std::string> ids;
  for (const auto& v : ladder::reduce_variants()) ids.push_back(v.id);
  const std::vector<std::string> expected = {"atomic_global", "atomic_shared", "block_atomic", "two_phase",
                                             "cooperative",   "onepass",       "cub"};
  EXPECT_EQ(ids, expected);
  EXPECT_EQ(std::string(ladder::find_reduce<int, onepass::plus>("two_phase").id), "two_phase");
  expect_rejected([] { ladder::find_reduce<int, onepass::plus>("tree"); }, "id", "known: atomic_global");
  // Only the production path keeps element order for any operator.
  for (const auto& v : ladder::reduce_variants())
    EXPECT_EQ(v.commutative_only, std::string(v.id) != "onepass") << v.id;
}

TEST(ReduceReference, InOrderAndExactInputs) {
  const std::vector<affine> fs = {{3, 1}, {5, 2}, {7, 4}};
  // init, then f0, f1, f2 in order: x -> 7*(5*(3x+1)+2)+4 (reversed: 3*(5*(7x+4)+2)+1).
  const affine r = reference_reduce(fs, affine{1, 0}, compose{});
  EXPECT_EQ(r, (affine{105, 53}));
  EXPECT_FALSE(reference_reduce(std::vector<affine>{fs[2], fs[1], fs[0]}, affine{1, 0}, compose{}) == r);
  // Float inputs are multiples of 2^-8 in [-1/16, 1/16], never all zero.
  const std::vector<float> v = random_reduce_vector<float>(10000, 5);
  int nonzero = 0;
  for (float x : v) {
    EXPECT_LE(std::abs(x), 1.0f / 16);
    EXPECT_EQ(x * 256, std::floor(x * 256));
    nonzero += x != 0;
  }
  EXPECT_GT(nonzero, 9000);
}

TEST(Functional, CommutativityTraits) {
  EXPECT_TRUE(is_commutative_v<onepass::plus>);
  EXPECT_TRUE(is_commutative_v<onepass::maximum>);
  EXPECT_TRUE(is_commutative_v<onepass::minimum>);
  EXPECT_FALSE(is_commutative_v<compose>);
}

}  // namespace
}  // namespace onepass::test
