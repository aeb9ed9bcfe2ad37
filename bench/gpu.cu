#include "gpu.cuh"

#include <cstdlib>
#include <string>

#include <unistd.h>

#include <cstdio>
#include <stdexcept>

#include <cuda/std/version>

#include "onepass/detail/launch.cuh"

namespace onepass::bench {
namespace {

std::string version_text(int v) {  // 13000 -> "13.0"
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

int attribute(cudaDeviceAttr a, int device) {
  int v = 0;
  ONEPASS_CUDA_TRY(cudaDeviceGetAttribute(&v, a, device));
  return v;
}

// Every thread compares 32-bit words; the lowest differing word wins through atomicMin.
__global__ void mismatch_kernel(const std::uint32_t* a, const std::uint32_t* b, long long words,
                                unsigned long long* first) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < words; i += stride)
    if (a[i] != b[i]) {
      atomicMin(first, static_cast<unsigned long long>(i));
      return;  // later words of this thread cannot be lower
    }
}

}  // namespace

device_info query_device() {
  int device = 0;
  ONEPASS_CUDA_TRY(cudaGetDevice(&device));
  cudaDeviceProp p{};
  ONEPASS_CUDA_TRY(cudaGetDeviceProperties(&p, device));
  int runtime = 0, driver = 0;
  ONEPASS_CUDA_TRY(cudaRuntimeGetVersion(&runtime));
  ONEPASS_CUDA_TRY(cudaDriverGetVersion(&driver));
  device_info d;
  d.name = p.name;
  d.sm_count = p.multiProcessorCount;
  d.l2_bytes = p.l2CacheSize;
  d.cuda = "runtime " + version_text(runtime) + ", driver " + version_text(driver);
  const double sm_mhz = attribute(cudaDevAttrClockRate, device) / 1e3;
  const int mem_khz = attribute(cudaDevAttrMemoryClockRate, device);
  const int bus_bits = attribute(cudaDevAttrGlobalMemoryBusWidth, device);
  char line[256];
  std::snprintf(line, sizeof line,
                "compute capability %d.%d, SM clock up to %.0f MHz, memory clock %.0f MHz x %d bits "
                "(%lld GB/s theoretical), L2 %lld MiB, %.1f GiB",
                p.major, p.minor, sm_mhz, mem_khz / 1e3, bus_bits, onepass::detail::peak_dram_gbps(mem_khz, bus_bits),
                d.l2_bytes >> 20, p.totalGlobalMem / double(1ull << 30));
  d.details.push_back(line);
  std::snprintf(line, sizeof line, "CCCL %d.%d.%d (CUB in the same binary), onepass %d.%d.%d",
                CCCL_MAJOR_VERSION, CCCL_MINOR_VERSION, CCCL_PATCH_VERSION, ONEPASS_VERSION_MAJOR,
                ONEPASS_VERSION_MINOR, ONEPASS_VERSION_PATCH);
  d.details.push_back(line);
  return d;
}

timer::timer(cudaStream_t stream, int warmup, int iters, long long l2_bytes)
    : stream_(stream), warmup_(warmup), iters_(iters), flush_bytes_(2 * std::max(l2_bytes, 1ll << 20)) {
  ONEPASS_CUDA_TRY(cudaMalloc(&flush_buffer_, static_cast<std::size_t>(flush_bytes_)));
  ONEPASS_CUDA_TRY(cudaMemset(flush_buffer_, 0, static_cast<std::size_t>(flush_bytes_)));
  ONEPASS_CUDA_TRY(cudaEventCreate(&start_));
  ONEPASS_CUDA_TRY(cudaEventCreate(&stop_));
}

timer::~timer() {
  if (start_) cudaEventDestroy(start_);
  if (stop_) cudaEventDestroy(stop_);
  if (flush_buffer_) cudaFree(flush_buffer_);
}

namespace {
// Reads every 16 bytes of the buffer; the store never happens (the buffer is zeroed once
// and holds no all-ones word) but the compiler cannot know, so the loads stay.
__global__ void read_flush(const uint4* p, long long vectors, unsigned* sink) {
  unsigned acc = 0;
  for (long long i = blockIdx.x * 256ll + threadIdx.x; i < vectors; i += 256ll * gridDim.x) {
    const uint4 v = p[i];
    acc |= v.x & v.y & v.z & v.w;
  }
  if (acc == 0xFFFFFFFFu) *sink = acc;
}
}  // namespace

void timer::flush() {
  // Evicts by reading a buffer written once, so L2 is left holding clean lines. A write
  // flush would leave up to L2's size of dirty lines for the timed call to write back
  // (~13 us on an H200, docs/perf/reduce.md); ONEPASS_BENCH_FLUSH=write selects it, to
  // reproduce results measured that way (before 2026-11-22).
  static const bool write_mode = [] {
    const char* e = std::getenv("ONEPASS_BENCH_FLUSH");
    return e && std::string(e) == "write";
  }();
  if (write_mode) {
    // A different value each time, so no hardware can skip the write as a no-op.
    ONEPASS_CUDA_TRY(cudaMemsetAsync(flush_buffer_, ++flush_value_, static_cast<std::size_t>(flush_bytes_), stream_));
    return;
  }
  read_flush<<<1024, 256, 0, stream_>>>(static_cast<const uint4*>(flush_buffer_), flush_bytes_ / 16,
                                        static_cast<unsigned*>(flush_buffer_));
  ONEPASS_CUDA_TRY(cudaGetLastError());
}

void require_device_memory(double bytes, const std::string& what) {
  std::size_t free = 0, total = 0;
  ONEPASS_CUDA_TRY(cudaMemGetInfo(&free, &total));
  const double needed = bytes * 1.02 + (64 << 20);  // workspaces and the allocator's rounding
  if (needed > static_cast<double>(free)) {
    char msg[256];
    std::snprintf(msg, sizeof msg, "%s needs %.2f GiB of device memory, %.2f GiB are free", what.c_str(),
                  needed / (1ull << 30), free / double(1ull << 30));
    throw std::runtime_error(msg);
  }
}

long long first_mismatch_bytes(const void* a, const void* b, long long bytes, int item_bytes,
                               cudaStream_t stream) {
  if (bytes <= 0) return -1;
  unsigned long long* first = nullptr;
  ONEPASS_CUDA_TRY(cudaMallocAsync(&first, sizeof *first, stream));
  ONEPASS_CUDA_TRY(cudaMemsetAsync(first, 0xFF, sizeof *first, stream));
  int device = 0, sms = 0;
  ONEPASS_CUDA_TRY(cudaGetDevice(&device));
  ONEPASS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  mismatch_kernel<<<sms * 8, 256, 0, stream>>>(static_cast<const std::uint32_t*>(a),
                                              static_cast<const std::uint32_t*>(b), bytes / 4, first);
  ONEPASS_CUDA_TRY(cudaGetLastError());
  unsigned long long word = 0;
  ONEPASS_CUDA_TRY(cudaMemcpyAsync(&word, first, sizeof word, cudaMemcpyDeviceToHost, stream));
  ONEPASS_CUDA_TRY(cudaFreeAsync(first, stream));
  ONEPASS_CUDA_TRY(cudaStreamSynchronize(stream));
  return word == ~0ull ? -1 : static_cast<long long>(word * 4 / item_bytes);
}

progress::progress(int total, bool quiet) : total_(total), quiet_(quiet), terminal_(isatty(STDERR_FILENO)) {}

void progress::step(const std::string& what) {
  if (quiet_) return;
  const std::string line = "[" + std::to_string(++current_) + "/" + std::to_string(total_) + "] " + what;
  if (terminal_) {
    std::fprintf(stderr, "\r%s%s", line.c_str(),
                 std::string(last_width_ > line.size() ? last_width_ - line.size() : 0, ' ').c_str());
    last_width_ = line.size();
  } else {
    std::fprintf(stderr, "%s\n", line.c_str());
  }
  std::fflush(stderr);
}

void progress::done() {
  if (!quiet_ && terminal_ && last_width_) std::fprintf(stderr, "\r%s\r", std::string(last_width_, ' ').c_str());
  last_width_ = 0;
}

}  // namespace onepass::bench
