// The sweep every reduce path is checked with: every registry variant x operator x size,
// against the CPU reference, exact (reference.hpp says why exact is right for floats).
// Included by one small .cu per group of element types so the instantiations compile in
// parallel.
#pragma once

#include "onepass/ladder/reduce/registry.cuh"
#include "support/test_support.cuh"

namespace onepass::test {

// 0, 1, the warp edges, the production reduce's segment and block edges (one block up to
// two blocks' worth of segments, then a grid), the ladder's 256-thread edges, random
// sizes, and 2^24 + 7.
template <class T>
std::vector<long long> reduce_test_sizes() {
  using plan = onepass::detail::reduce_plan<T>;
  const long long segment = plan::segment_items;
  const long long one_block = segment * plan::warps;  // one full segment per warp
  std::mt19937_64 rng(4321 + sizeof(T));
  const auto random_size = [&rng] { return 1 + static_cast<long long>(rng() % 3000000); };
  return capped_sorted_sizes({0, 1, 31, 32, 33, 255, 256, 257, segment - 1, segment, segment + 1, one_block - 1,
                              one_block, one_block + 1, 2 * one_block - 1, 2 * one_block, 2 * one_block + 1,
                              37 * one_block + 5, 1024 * 1024 + 1025, (1ll << 24) + 7, random_size(),
                              random_size(), random_size()});
}

// Items after the result that must keep their poison.
constexpr long long reduce_guard = 4;

// Runs one entry; returns the result, after checking that nothing past it was written.
template <class T, class Op>
T run_reduce_entry(const ladder::reduce_entry<T, Op>& v, const T* in, long long n, device_buffer<T>& out, T init,
                   cudaStream_t stream = nullptr) {
  device_buffer<unsigned char> ws(static_cast<long long>(v.workspace_bytes(n)));
  out.poison();
  v.run(in, n, out.get(), init, Op{}, workspace{ws.get(), ws.bytes()}, stream);
  throw_if(cudaDeviceSynchronize(), "reduce");
  const std::vector<T> got = out.download();
  const std::string past = first_written(got, 1);
  EXPECT_TRUE(past.empty()) << "wrote past the result: " << past;
  return got[0];
}

template <class T, class Op>
void check_reduce_registry(std::uint64_t seed) {
  const auto& registry = ladder::reduce_registry<T, Op>();
  device_buffer<T> out(1 + reduce_guard);
  for (long long n : reduce_test_sizes<T>()) {
    const std::vector<T> host_in = random_reduce_vector<T>(n, seed + 104729 * static_cast<std::uint64_t>(n));
    device_buffer<T> in(host_in);
    std::mt19937_64 rng(seed ^ static_cast<std::uint64_t>(n));
    const T init = random_reduce_value<T>(rng);
    const T expected = reference_reduce(host_in, init, Op{});
    if constexpr (std::is_floating_point_v<T>) {
      // The sequential reference itself is exact (the bound of reference.hpp).
      double exact = static_cast<double>(init);
      for (const T& x : host_in) exact = Op{}(exact, static_cast<double>(x));
      ASSERT_EQ(static_cast<double>(expected), exact) << "test data breaks the exactness bound";
    }
    for (const auto& v : registry) {
      SCOPED_TRACE(std::string(v.id) + " " + type_name<T>() + " n=" + std::to_string(n));
      if (v.commutative_only && !is_commutative_v<Op>) {
        try {
          run_reduce_entry(v, in.get(), n, out, init);
          ADD_FAILURE() << "accepted a non-commutative operator";
        } catch (const onepass::invalid_argument& e) {
          EXPECT_EQ(e.argument(), "op") << e.what();
        }
        continue;
      }
      const T got = run_reduce_entry(v, in.get(), n, out, init);
      const std::string diff = first_difference(std::vector<T>{expected}, std::vector<T>{got});
      EXPECT_TRUE(diff.empty()) << diff;
    }
  }
}

}  // namespace onepass::test
