// The README's example: prefix sums of a million ints, both call styles, checked against
// std::exclusive_scan and std::inclusive_scan on the host.
#include <onepass/scan.cuh>

#include <cstdio>
#include <numeric>
#include <vector>

int main() try {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA GPU found: this example needs one\n");
    return 77;  // "skipped" to ctest
  }
  const long long n = 1 << 20;
  std::vector<int> host(n);
  for (long long i = 0; i < n; ++i) host[i] = static_cast<int>(i % 7) - 3;
  int *in = nullptr, *out = nullptr;
  ONEPASS_CUDA_TRY(cudaMalloc(&in, n * sizeof(int)));
  ONEPASS_CUDA_TRY(cudaMalloc(&out, n * sizeof(int)));
  ONEPASS_CUDA_TRY(cudaMemcpy(in, host.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  std::vector<int> got(n), want(n);

  // Simple style: scratch is allocated and freed stream-ordered.
  onepass::exclusive_scan(in, n, out, /*init=*/0);
  ONEPASS_CUDA_TRY(cudaMemcpy(got.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost));
  std::exclusive_scan(host.begin(), host.end(), want.begin(), 0);
  const bool exclusive_ok = got == want;

  // Workspace style: ask for the size once, then never allocate (graph-capture safe).
  void* scratch = nullptr;
  const std::size_t bytes = onepass::scan_workspace_bytes<int>(n);
  ONEPASS_CUDA_TRY(cudaMalloc(&scratch, bytes));
  onepass::inclusive_scan(in, n, out, onepass::plus{}, onepass::workspace{scratch, bytes}, nullptr);
  ONEPASS_CUDA_TRY(cudaMemcpy(got.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost));
  std::inclusive_scan(host.begin(), host.end(), want.begin());
  const bool inclusive_ok = got == want;

  std::printf("exclusive_scan of %lld ints: %s\n", n, exclusive_ok ? "matches the host" : "WRONG");
  std::printf("inclusive_scan of %lld ints: %s\n", n, inclusive_ok ? "matches the host" : "WRONG");
  cudaFree(scratch);
  cudaFree(in);
  cudaFree(out);
  return exclusive_ok && inclusive_ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "%s\n", e.what());
  return 2;
}
