// The GPU side of onepass-bench that every primitive shares: what the device is, timing
// with CUDA events and an L2 flush, random inputs, the on-device output check, and the
// progress line.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <sstream>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "onepass/detail/config.cuh"
#include "onepass/error.cuh"
#include "plan.hpp"
#include "report.hpp"

namespace onepass::bench {

struct device_info {
  std::string name;
  int sm_count = 0;
  long long l2_bytes = 0;
  std::string cuda;                  // "runtime 13.0, driver 13.0"
  std::vector<std::string> details;  // clocks, memory, library versions
};

// Throws onepass::cuda_error when the device cannot be queried.
device_info query_device();

// Times a call: `warmup` untimed runs, then `iters` runs, each bracketed by CUDA events on
// `stream`. Before every run (warm-ups too) a buffer of twice the L2 size is read, so no
// run finds its input in L2 from the previous one (small inputs are timed cold, as a
// pipeline that streams them would see them) and L2 holds no dirty lines whose
// write-back the timed call would pay for. The flush is outside the timed region.
class timer {
 public:
  timer(cudaStream_t stream, int warmup, int iters, long long l2_bytes);
  ~timer();
  timer(const timer&) = delete;
  timer& operator=(const timer&) = delete;

  template <class F>
  timing run(F&& call) {
    std::vector<float> ms;
    for (int i = 0; i < warmup_ + iters_; ++i) {
      flush();
      if (i >= warmup_) ONEPASS_CUDA_TRY(cudaEventRecord(start_, stream_));
      call();
      if (i >= warmup_) {
        ONEPASS_CUDA_TRY(cudaEventRecord(stop_, stream_));
        ONEPASS_CUDA_TRY(cudaEventSynchronize(stop_));
        float t = 0;
        ONEPASS_CUDA_TRY(cudaEventElapsedTime(&t, start_, stop_));
        ms.push_back(t);
      }
    }
    ONEPASS_CUDA_TRY(cudaStreamSynchronize(stream_));
    std::sort(ms.begin(), ms.end());
    const std::size_t m = ms.size();
    const double median = m % 2 ? ms[m / 2] : 0.5 * (double(ms[m / 2 - 1]) + ms[m / 2]);
    return {median, ms.front(), ms.back()};
  }

  long long flush_bytes() const { return flush_bytes_; }
  cudaStream_t stream() const { return stream_; }

 private:
  void flush();
  cudaStream_t stream_;
  int warmup_, iters_;
  long long flush_bytes_;
  void* flush_buffer_ = nullptr;
  unsigned char flush_value_ = 0;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

// A device allocation owned by the bench (no poisoning on construction: the bench poisons
// outputs itself, on its stream, right before each variant runs).
template <class T>
class device_array {
 public:
  explicit device_array(long long n) : n_(n) {
    if (n > 0) ONEPASS_CUDA_TRY(cudaMalloc(&ptr_, bytes()));
  }
  ~device_array() {
    if (ptr_) cudaFree(ptr_);
  }
  device_array(const device_array&) = delete;
  device_array& operator=(const device_array&) = delete;
  T* get() const { return ptr_; }
  long long size() const { return n_; }
  std::size_t bytes() const { return sizeof(T) * static_cast<std::size_t>(n_); }
  void upload(const std::vector<T>& host) {
    ONEPASS_CUDA_TRY(cudaMemcpy(ptr_, host.data(), sizeof(T) * host.size(), cudaMemcpyHostToDevice));
  }

 private:
  T* ptr_ = nullptr;
  long long n_;
};

// Throws a runtime_error saying what is missing when `bytes` of device memory (plus a
// margin for workspaces) are not free.
void require_device_memory(double bytes, const std::string& what);

// --- random inputs --------------------------------------------------------------------
// Counter-based (splitmix64 of seed and index), so any n is generated in parallel on the
// host and the same seed gives the same input at every size. Ranges make the exact answer
// the only right answer: unsigned full range (sums wrap, exactly); int32 in [-1000, 1000]
// and int64 in [-2^40, 2^40] (no partial sum overflows at any size that fits in memory);
// float and double k/256 with k in [-16, 16]: every partial sum is a multiple of 2^-8
// that stays far below 2^15 in magnitude at these sizes (a random walk of 2^34 steps has
// a standard deviation of ~1.2e6/256), so it is exact in float and every summation order
// gives the same bits. The caller checks the bound on the data it uses.
inline std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

template <class T>
T value_from_bits(std::uint64_t bits) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(static_cast<int>(bits % 33) - 16) / static_cast<T>(256);
  } else if constexpr (std::is_unsigned_v<T>) {
    return static_cast<T>(bits);
  } else if constexpr (sizeof(T) == 4) {
    return static_cast<T>(static_cast<long long>(bits % 2001) - 1000);
  } else {
    return static_cast<T>(static_cast<long long>(bits % ((1ull << 41) + 1)) - (1ll << 40));
  }
}

template <class T>
std::vector<T> random_input(long long n, std::uint64_t seed) {
  std::vector<T> v(static_cast<std::size_t>(n));
  const unsigned workers = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
  std::vector<std::thread> threads;
  for (unsigned w = 0; w < workers; ++w)
    threads.emplace_back([&, w] {
      const long long begin = n * w / workers, end = n * (w + 1) / workers;
      for (long long i = begin; i < end; ++i)
        v[static_cast<std::size_t>(i)] = value_from_bits<T>(splitmix64(seed * 0xD1B54A32D192ED03ull + i));
    });
  for (auto& t : threads) t.join();
  return v;
}

// --- output check -----------------------------------------------------------------------
// The first index where a[i] and b[i] differ in any bit, or -1. Runs on the device, so
// checking a 4 GiB output costs milliseconds instead of a download.
long long first_mismatch_bytes(const void* a, const void* b, long long bytes, int item_bytes,
                               cudaStream_t stream);

template <class T>
long long first_mismatch(const T* a, const T* b, long long n, cudaStream_t stream) {
  static_assert(sizeof(T) % 4 == 0, "items are compared as 32-bit words");
  return first_mismatch_bytes(a, b, n * static_cast<long long>(sizeof(T)), sizeof(T), stream);
}

template <class T>
T read_item(const T* device_items, long long i) {
  T x;
  ONEPASS_CUDA_TRY(cudaMemcpy(&x, device_items + i, sizeof(T), cudaMemcpyDeviceToHost));
  return x;
}

// An item as the FAILED messages print it.
template <class T>
std::string item_text(const T& x) {
  std::ostringstream os;
  os << +x;  // + prints 8-bit types as numbers
  return os.str();
}

// --- progress ---------------------------------------------------------------------------
// "[3/41] scan: int32, 2^30 items, inclusive sum: lookback_vec8" on stderr: rewritten in
// place on a terminal, one line per step otherwise (a log shows where a run got to).
class progress {
 public:
  progress(int total, bool quiet);
  void step(const std::string& what);
  void done();

 private:
  int total_, current_ = 0;
  bool quiet_, terminal_;
  std::size_t last_width_ = 0;
};

// What every primitive's table runner gets: the timer, the progress line, the run's two
// ceilings (every figure is a fraction of one of them) and the input seed.
struct bench_context {
  timer& time;
  progress& steps;
  double copy_gbps, read_gbps;
  std::uint64_t seed;
};

}  // namespace onepass::bench
