// Test support shared by every onepass GPU test: GPU detection and skipping, and device
// buffers that are poisoned before use. The CPU side (random inputs, the reference scan,
// the test operator) is in reference.hpp, which onepass-bench shares.
#pragma once

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "onepass/error.cuh"
#include "onepass/functional.cuh"
#include "onepass/single_pass/tile_state.cuh"
#include "support/reference.hpp"

namespace onepass::test {

// --- GPU presence -------------------------------------------------------------------
inline const std::string& gpu_unavailable_reason() {
  static const std::string reason = [] {
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      return std::string("no usable CUDA device (cudaGetDeviceCount: ") + cudaGetErrorName(e) + ")";
    }
    if (count == 0) return std::string("no CUDA device present");
    return std::string();
  }();
  return reason;
}
inline bool gpu_available() { return gpu_unavailable_reason().empty(); }

#define ONEPASS_REQUIRE_GPU()                                                              \
  do {                                                                                     \
    if (!::onepass::test::gpu_available())                                                 \
      GTEST_SKIP() << "GPU test skipped: " << ::onepass::test::gpu_unavailable_reason();   \
  } while (0)

#define ONEPASS_CHECK_CUDA(call)                                                           \
  do {                                                                                     \
    const cudaError_t e_ = (call);                                                         \
    ASSERT_EQ(e_, cudaSuccess) << #call << ": " << cudaGetErrorString(e_);                 \
  } while (0)

// Caps the sizes tests use, for quick runs under compute-sanitizer:
// ONEPASS_TEST_MAX_N=70000 keeps every case at most that large and skips huge ones.
inline long long max_test_items() {
  static const long long cap = [] {
    const char* s = std::getenv("ONEPASS_TEST_MAX_N");
    return s ? std::atoll(s) : std::numeric_limits<long long>::max();
  }();
  return cap;
}

// The sizes at most max_test_items(), ascending, each once: what every size list of the
// tests goes through. A set, not erase(remove_if(...)) and erase(unique(...)) on a vector:
// GCC 13 at -O3 misreports that erase as out of bounds (-Warray-bounds in libstdc++).
inline std::vector<long long> capped_sorted_sizes(std::initializer_list<long long> sizes) {
  std::set<long long> kept;
  for (const long long n : sizes)
    if (n <= max_test_items()) kept.insert(n);
  return std::vector<long long>(kept.begin(), kept.end());
}

// --- device memory -------------------------------------------------------------------
inline void throw_if(cudaError_t e, const char* what) { ::onepass::detail::throw_on_cuda_error(e, what); }

// A device allocation filled with the poison byte 0xA5 so unwritten outputs are visible.
template <class T>
class device_buffer {
 public:
  explicit device_buffer(long long n = 0) : n_(n) {
    if (n > 0) {
      throw_if(cudaMalloc(&ptr_, sizeof(T) * static_cast<std::size_t>(n)), "cudaMalloc");
      poison();
    }
  }
  device_buffer(const std::vector<T>& host) : device_buffer(static_cast<long long>(host.size())) {
    upload(host);
  }
  ~device_buffer() {
    if (ptr_) cudaFree(ptr_);
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;

  T* get() const { return ptr_; }
  long long size() const { return n_; }
  void poison() {
    // cudaMemset may run asynchronously on the legacy stream, which does not order with
    // non-blocking streams: wait, so the poison cannot land after the code under test.
    if (n_ > 0) {
      throw_if(cudaMemset(ptr_, 0xA5, bytes()), "cudaMemset");
      throw_if(cudaDeviceSynchronize(), "poison");
    }
  }
  void upload(const std::vector<T>& host) {
    // A copy from pageable host memory may return before its DMA has landed; only the
    // legacy stream is ordered after it. Wait, so code on a non-blocking stream reads it.
    if (!host.empty()) {
      throw_if(cudaMemcpy(ptr_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice), "upload");
      throw_if(cudaDeviceSynchronize(), "upload");
    }
  }
  std::vector<T> download(long long count = -1) const {
    std::vector<T> host(static_cast<std::size_t>(count < 0 ? n_ : count));
    if (!host.empty()) throw_if(cudaMemcpy(host.data(), ptr_, host.size() * sizeof(T), cudaMemcpyDeviceToHost), "download");
    return host;
  }
  std::size_t bytes() const { return sizeof(T) * static_cast<std::size_t>(n_); }

 private:
  T* ptr_ = nullptr;
  long long n_ = 0;
};

// Fills a workspace so that every 64-bit word reads as a published PREFIX of 7 (and a
// tile counter there is far past the end): what a buffer left over from another call may
// hold. Kernels that clear their own descriptors (or dispatchers that memset them) must
// keep all of it out of the output.
inline void fill_with_stale_descriptors(device_buffer<unsigned char>& ws) {
  std::vector<unsigned char> bytes(static_cast<std::size_t>(ws.size()));
  const unsigned long long stale = (static_cast<unsigned long long>(lookback::tile_status::prefix) << 32) | 7u;
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<unsigned char>(stale >> (8 * (i % 8)));
  ws.upload(bytes);
}

// "" when items [from, end) of v still hold device_buffer's poison (0xA5 bytes), else
// the first one that does not.
template <class T>
std::string first_written(const std::vector<T>& v, std::size_t from = 0) {
  for (std::size_t i = from; i < v.size(); ++i) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(&v[i]);
    for (std::size_t b = 0; b < sizeof(T); ++b)
      if (bytes[b] != 0xA5) return "item " + std::to_string(i) + " of " + std::to_string(v.size()) + " was written";
  }
  return "";
}

// Runs f and expects onepass::invalid_argument naming `argument`, with `fragment` in its
// message (which must also quote the argument's name).
template <class F>
void expect_rejected(F&& f, const std::string& argument, const std::string& fragment) {
  try {
    f();
    ADD_FAILURE() << "expected onepass::invalid_argument for '" << argument << "'";
  } catch (const onepass::invalid_argument& e) {
    EXPECT_EQ(e.argument(), argument) << e.what();
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'" + argument + "'"), std::string::npos) << e.what();
  }
}

#if defined(__CUDACC__)
// --- stalled tiles (the lookback's stress tests; device code) ---------------------------
// A Delay hook for the kernels built on the lookback: some tiles spin before publishing
// their aggregate, others before their prefix, and tile 0 spins longest, so successors
// find INVALID and AGGREGATE descriptors many tiles deep and multi-word descriptors are
// read half-updated. `salt` picks which tiles; the clock-cycle counts set how long.
struct stall_some_tiles {
  unsigned salt;
  long long first_tile_cycles = 200000;
  long long cycles = 20000;       // plus up to 63 steps of cycles_step
  long long cycles_step = 1000;
  __device__ void operator()(long long tile, lookback::tile_status s) const {
    const unsigned h = static_cast<unsigned>(tile * 2654435761u) ^ salt;
    const bool stall = tile == 0 || (s == lookback::tile_status::aggregate ? h % 7 == 0 : h % 5 == 1);
    if (stall) {
      const long long until = clock64() + (tile == 0 ? first_tile_cycles : cycles + (h % 64) * cycles_step);
      while (clock64() < until) {
      }
    }
  }
};
#endif

}  // namespace onepass::test
