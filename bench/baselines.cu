#include "baselines.cuh"

#include <numeric>

namespace onepass::bench {
namespace {

constexpr int read_threads = 256;

// Sums every 32-bit word (mod 2^32) so the loads cannot be optimised away and the pass is
// checked. Four independent 16-byte loads per thread per iteration keep enough bytes in
// flight to saturate HBM; one atomic per warp at the end is noise.
__global__ void __launch_bounds__(read_threads)
    read_kernel(const uint4* in, long long vectors, const std::uint32_t* tail, int tail_items,
                std::uint32_t* sum) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  std::uint32_t acc = 0;
  auto add = [&](uint4 v) { acc += v.x + v.y + v.z + v.w; };
  for (; i + 3 * stride < vectors; i += 4 * stride) {
    const uint4 a = in[i], b = in[i + stride], c = in[i + 2 * stride], d = in[i + 3 * stride];
    add(a);
    add(b);
    add(c);
    add(d);
  }
  for (; i < vectors; i += stride) add(in[i]);
  if (blockIdx.x == 0 && static_cast<int>(threadIdx.x) < tail_items) acc += tail[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) acc += __shfl_xor_sync(0xffffffffu, acc, offset);
  if (threadIdx.x % 32 == 0) atomicAdd(sum, acc);
}

}  // namespace

primitive_desc baseline_primitive() {
  return {"baseline",
          "the ceilings, measured in every run",
          {"int32"},
          {{"copy", "cudaMemcpyAsync device to device; counted as bytes read + written"},
           {"read", "read-only pass (16-byte loads, checksum); counted as bytes read"}}};
}

ceilings measure_ceilings(timer& t, long long n, std::uint64_t seed, progress& p) {
  // Input and copy destination: 2 arrays. Halve until they fit.
  std::size_t free = 0, total = 0;
  ONEPASS_CUDA_TRY(cudaMemGetInfo(&free, &total));
  while (n > (1 << 20) && 2.0 * n * 4 > 0.8 * static_cast<double>(free)) n /= 2;
  const std::string table = "ceilings: int32, " + format_count(n) + " items";
  const std::vector<std::int32_t> host = random_input<std::int32_t>(n, seed);
  device_array<std::int32_t> in(n), out(n);
  in.upload(host);
  const cudaStream_t s = t.stream();
  ceilings c;

  p.step(table + ": copy");
  auto copy = [&] { ONEPASS_CUDA_TRY(cudaMemcpyAsync(out.get(), in.get(), in.bytes(), cudaMemcpyDeviceToDevice, s)); };
  ONEPASS_CUDA_TRY(cudaMemsetAsync(out.get(), 0xA5, out.bytes(), s));
  copy();
  if (const long long i = first_mismatch(out.get(), in.get(), n, s); i >= 0)
    throw std::runtime_error("the device-to-device copy is wrong at index " + std::to_string(i));
  const timing copy_time = t.run(copy);

  p.step(table + ": read");
  int device = 0, sms = 0, per_sm = 0;
  ONEPASS_CUDA_TRY(cudaGetDevice(&device));
  ONEPASS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  ONEPASS_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, read_kernel, read_threads, 0));
  device_array<std::uint32_t> sum(1);
  const long long vectors = n / 4;  // int32 x 4 per uint4; cudaMalloc aligns to 256 bytes
  const int tail = static_cast<int>(n - vectors * 4);
  // The timed call is the kernel alone; the checksum is checked after the first run only.
  auto read = [&] {
    read_kernel<<<sms * per_sm, read_threads, 0, s>>>(reinterpret_cast<const uint4*>(in.get()), vectors,
                                                     reinterpret_cast<const std::uint32_t*>(in.get()) + vectors * 4,
                                                     tail, sum.get());
    ONEPASS_CUDA_TRY(cudaGetLastError());
  };
  ONEPASS_CUDA_TRY(cudaMemsetAsync(sum.get(), 0, sizeof(std::uint32_t), s));
  read();
  const std::uint32_t expected = std::accumulate(host.begin(), host.end(), std::uint32_t{0},
                                                 [](std::uint32_t a, std::int32_t x) { return a + static_cast<std::uint32_t>(x); });
  if (const std::uint32_t got = read_item(sum.get(), 0); got != expected)
    throw std::runtime_error("the read-only pass's checksum is wrong: " + std::to_string(got) + ", expected " +
                             std::to_string(expected));
  const timing read_time = t.run(read);

  const double bytes = 4.0 * n;
  c.copy_gbps = 2 * bytes / (copy_time.median * 1e6);
  c.read_gbps = bytes / (read_time.median * 1e6);
  c.records.push_back(timed_record("baseline", "copy", "int32", n,
                                   {{"table", table}, {"note", std::string("cudaMemcpyAsync, bytes read + written")}},
                                   copy_time, 2 * bytes, c.copy_gbps, c.read_gbps));
  c.records.push_back(timed_record("baseline", "read", "int32", n,
                                   {{"table", table}, {"note", std::string("read-only kernel, bytes read")}},
                                   read_time, bytes, c.copy_gbps, c.read_gbps));
  return c;
}

}  // namespace onepass::bench
