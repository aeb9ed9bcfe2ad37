// The sweep every scan path is checked with: every registry variant x kind x operator x
// size, against the CPU reference, exact. Included by one small .cu per element type so
// the instantiations compile in parallel.
#pragma once

#include <optional>

#include "onepass/ladder/scan/registry.cuh"
#include "support/test_support.cuh"

namespace onepass::test {

// 0, 1, the warp edges, the tile edges of every variant (256, 1024, 2048, 4096 items and
// the production tile), some random sizes, and 2^24 + 7.
template <class T>
std::vector<long long> scan_test_sizes() {
  const long long prod_tile = onepass::detail::scan_plan<T>::tile_items;
  std::mt19937_64 rng(1234 + sizeof(T));
  const auto random_size = [&rng] { return 1 + static_cast<long long>(rng() % 300000); };
  return capped_sorted_sizes({0, 1, 31, 32, 33, 255, 256, 257, 1023, 1024, 1025, 2047, 2048, 2049, 4095, 4096,
                              4097, prod_tile - 1, prod_tile, prod_tile + 1, 3 * prod_tile + 5, 1024 * 1024 + 1025,
                              (1ll << 24) + 7, random_size(), random_size(), random_size()});
}

inline ladder::scan_kind to_ladder(kind k) {
  return k == kind::inclusive ? ladder::scan_kind::inclusive : ladder::scan_kind::exclusive;
}

// Runs one registry entry and returns its output (or nullopt after recording a failure).
template <class T, class Op>
std::optional<std::vector<T>> run_entry(const ladder::scan_entry<T, Op>& v, const device_buffer<T>& in,
                                        device_buffer<T>& out, long long n, kind k, T init, bool in_place) {
  device_buffer<unsigned char> ws(static_cast<long long>(v.workspace_bytes(n)));
  if (in_place) {
    throw_if(cudaMemcpy(out.get(), in.get(), sizeof(T) * n, cudaMemcpyDeviceToDevice), "copy");
  } else {
    out.poison();
  }
  v.run(in_place ? out.get() : in.get(), n, out.get(), to_ladder(k), init, Op{},
        workspace{ws.get(), ws.bytes()}, nullptr);
  const cudaError_t e = cudaDeviceSynchronize();
  EXPECT_EQ(e, cudaSuccess) << cudaGetErrorString(e);
  if (e != cudaSuccess) return std::nullopt;
  return out.download(n);
}

// The expected output of a batch: each array of n items scanned on its own.
template <class T, class Op>
std::vector<T> reference_batch(const std::vector<T>& in, long long n, kind k, T init) {
  std::vector<T> expected;
  expected.reserve(in.size());
  for (std::size_t start = 0; start < in.size(); start += static_cast<std::size_t>(n)) {
    const std::vector<T> one(in.begin() + start, in.begin() + start + n);
    const std::vector<T> scanned = reference_scan(one, k, init, Op{});
    expected.insert(expected.end(), scanned.begin(), scanned.end());
  }
  return expected;
}

// Every variant with run_batch: many arrays in one launch, each scanned on its own.
template <class T, class Op>
void check_scan_registry_batched(std::uint64_t seed) {
  const auto& registry = ladder::scan_registry<T, Op>();
  // The warp edges, then just past half of each batched variant's limit (its first size
  // that needs the whole block shape) and the limit itself.
  std::vector<long long> sizes = {1, 31, 32, 33};
  for (const auto& v : registry) {
    if (!v.run_batch) continue;
    sizes.push_back(v.max_items / 2 + 1);
    sizes.push_back(v.max_items);
  }
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  // Items after the last array that must stay unwritten: a block past the batch would hit them.
  constexpr long long guard = 64;

  for (long long batch : {1ll, 3ll, 1000ll}) {
    for (long long n : sizes) {
      const long long total = n * batch;
      if (total > max_test_items()) continue;
      const std::vector<T> host_in = random_vector<T>(total, seed + 7919 * static_cast<std::uint64_t>(n) + batch);
      ASSERT_TRUE(exactly_representable_sums(host_in)) << "test data breaks the exactness bound";
      device_buffer<T> in(host_in);
      device_buffer<T> out(total + guard);
      std::mt19937_64 rng(seed ^ static_cast<std::uint64_t>(n * 4099 + batch));
      const T init = random_value<T>(rng);
      for (kind k : {kind::inclusive, kind::exclusive}) {
        const std::vector<T> expected = reference_batch<T, Op>(host_in, n, k, init);
        for (const auto& v : registry) {
          if (!v.run_batch || n > v.max_items) continue;
          SCOPED_TRACE(std::string(v.id) + " batched " + type_name<T>() + " " + kind_name(k) +
                       " n=" + std::to_string(n) + " batch=" + std::to_string(batch));
          for (bool in_place : {false, true}) {
            if (in_place && n != 33) continue;
            SCOPED_TRACE(in_place ? "in place" : "out of place");
            out.poison();
            if (in_place)
              throw_if(cudaMemcpy(out.get(), in.get(), sizeof(T) * total, cudaMemcpyDeviceToDevice), "copy");
            v.run_batch(in_place ? out.get() : in.get(), n, batch, out.get(), to_ladder(k), init, Op{}, nullptr);
            const cudaError_t e = cudaDeviceSynchronize();
            EXPECT_EQ(e, cudaSuccess) << cudaGetErrorString(e);
            if (e != cudaSuccess) continue;
            std::vector<T> got = out.download(total + guard);
            const std::string past_end = first_written(got, static_cast<std::size_t>(total));
            EXPECT_TRUE(past_end.empty()) << "wrote past the last array: " << past_end;
            got.resize(static_cast<std::size_t>(total));
            const std::string diff = first_difference(expected, got);
            EXPECT_TRUE(diff.empty()) << diff;
          }
        }
      }
    }
  }

  // Too many items per array is refused before launching; an empty batch or empty arrays
  // launch nothing. Either way the output keeps its poison.
  for (const auto& v : registry) {
    if (!v.run_batch) continue;
    SCOPED_TRACE(std::string(v.id) + " batched " + type_name<T>() + ": refused or empty");
    const long long n = v.max_items + 1;
    const long long batch = 3;
    device_buffer<T> in(random_vector<T>(n * batch, seed));
    device_buffer<T> out(n * batch);
    EXPECT_THROW(v.run_batch(in.get(), n, batch, out.get(), ladder::scan_kind::inclusive, T{}, Op{}, nullptr),
                 onepass::invalid_argument);
    EXPECT_NO_THROW(v.run_batch(in.get(), 0, batch, out.get(), ladder::scan_kind::exclusive, T{}, Op{}, nullptr));
    EXPECT_NO_THROW(v.run_batch(in.get(), 33, 0, out.get(), ladder::scan_kind::exclusive, T{}, Op{}, nullptr));
    const cudaError_t e = cudaDeviceSynchronize();
    ASSERT_EQ(e, cudaSuccess) << cudaGetErrorString(e);
    const std::string written = first_written(out.download());
    EXPECT_TRUE(written.empty()) << written;
  }
}

// Every variant of the registry for one (T, Op), and the batched form of those that have one.
template <class T, class Op>
void check_scan_registry(std::uint64_t seed) {
  const auto& registry = ladder::scan_registry<T, Op>();
  for (long long n : scan_test_sizes<T>()) {
    const std::vector<T> host_in = random_vector<T>(n, seed + n);
    ASSERT_TRUE(exactly_representable_sums(host_in)) << "test data breaks the exactness bound";
    device_buffer<T> in(host_in);
    device_buffer<T> out(std::max(n, 1ll));
    std::mt19937_64 rng(seed ^ n);
    const T init = random_value<T>(rng);
    for (kind k : {kind::inclusive, kind::exclusive}) {
      const std::vector<T> expected = reference_scan(host_in, k, init, Op{});
      for (const auto& v : registry) {
        SCOPED_TRACE(std::string(v.id) + " " + type_name<T>() + " " + kind_name(k) + " n=" + std::to_string(n));
        if (v.max_items != ladder::no_limit && n > v.max_items) {
          out.poison();
          EXPECT_THROW(v.run(in.get(), n, out.get(), to_ladder(k), init, Op{}, workspace{}, nullptr),
                       onepass::invalid_argument);
          continue;
        }
        // In place on a few sizes (each path once across a tile edge), out of place always.
        const bool try_in_place = n == 33 || n == 1025 || n == 4097 || n == 3 * onepass::detail::scan_plan<T>::tile_items + 5;
        for (bool in_place : {false, true}) {
          if (in_place && !try_in_place) continue;
          SCOPED_TRACE(in_place ? "in place" : "out of place");
          const auto got = run_entry(v, in, out, n, k, init, in_place);
          if (!got) continue;
          const std::string diff = first_difference(expected, *got);
          EXPECT_TRUE(diff.empty()) << diff;
        }
      }
    }
  }
  check_scan_registry_batched<T, Op>(seed);
}

}  // namespace onepass::test
