// scan_timing — times registry scan variants against the device-to-device copy measured
// in the same run. Every variant's output is verified against the CPU reference before it
// is timed; a wrong result prints FAILED and makes the exit code 1.
//   scan_timing [log2_n=28] [variant ids, comma-separated; default onepass,cub]
// CUDA events, 3 warm-ups, median (min-max) of 20 runs; each run moves 2*n*sizeof(T)
// bytes at minimum, which is also what the copy moves. (The full onepass-bench tool,
// with every table and the JSON output, is issue 3.)
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "onepass/ladder/scan/registry.cuh"
#include "support/test_support.cuh"
#include "timing.cuh"

using namespace onepass;
using bench::time_it;
using bench::timing;

template <class T>
int run_type(long long n, const std::vector<std::string>& ids, cudaEvent_t a, cudaEvent_t b) {
  const auto host = test::random_vector<T>(n, 42);
  test::device_buffer<T> in(host), out(n);
  const double bytes = 2.0 * n * sizeof(T);
  const timing copy = time_it([&] { ONEPASS_CUDA_TRY(cudaMemcpyAsync(out.get(), in.get(), n * sizeof(T), cudaMemcpyDeviceToDevice)); }, a, b);
  const double copy_gbps = bytes / copy.median / 1e6;
  std::printf("%-7s n=%lld  copy: %.3f ms  %.0f GB/s\n", test::type_name<T>(), n, copy.median, copy_gbps);
  const auto expected = test::reference_scan(host, test::kind::inclusive, T{}, plus{});
  int failures = 0;
  for (const auto& id : ids) {
    const auto& v = ladder::find_scan<T, plus>(id);
    test::device_buffer<unsigned char> ws(static_cast<long long>(v.workspace_bytes(n)));
    auto call = [&] { v.run(in.get(), n, out.get(), ladder::scan_kind::inclusive, T{}, plus{}, workspace{ws.get(), ws.bytes()}, nullptr); };
    out.poison();
    call();
    ONEPASS_CUDA_TRY(cudaDeviceSynchronize());
    const std::string diff = test::first_difference(expected, out.download());
    if (!diff.empty()) {
      std::printf("  %-16s FAILED: %s\n", v.id, diff.c_str());
      ++failures;
      continue;
    }
    const timing t = time_it(call, a, b);
    const double gbps = bytes / t.median / 1e6;
    std::printf("  %-16s %8.3f ms (%.3f-%.3f)  %6.0f GB/s  %5.1f%% of copy\n", v.id, t.median, t.min, t.max, gbps,
                100.0 * gbps / copy_gbps);
  }
  return failures;
}

int main(int argc, char** argv) try {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // progress shows even when redirected
  const int log2n = argc > 1 ? std::atoi(argv[1]) : 28;
  std::vector<std::string> ids = {"onepass", "cub"};
  if (argc > 2) {
    ids.clear();
    std::stringstream ss(argv[2]);
    for (std::string id; std::getline(ss, id, ',');) ids.push_back(id);
  }
  if (!test::gpu_available()) {
    std::fprintf(stderr, "scan_timing: %s\n", test::gpu_unavailable_reason().c_str());
    return 2;
  }
  cudaDeviceProp p{};
  ONEPASS_CUDA_TRY(cudaGetDeviceProperties(&p, 0));
  std::printf("%s, %d SMs\n", p.name, p.multiProcessorCount);
  cudaEvent_t a, b;
  ONEPASS_CUDA_TRY(cudaEventCreate(&a));
  ONEPASS_CUDA_TRY(cudaEventCreate(&b));
  const long long n = 1ll << log2n;
  int failures = run_type<int>(n, ids, a, b) + run_type<float>(n, ids, a, b) + run_type<long long>(n / 2, ids, a, b);
  return failures ? 1 : 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "scan_timing: %s\n", e.what());
  return 1;
}
