// The README's example: an exclusive prefix sum of a million ints, both call styles.
#include <onepass/scan.cuh>

#include <cstdio>
#include <vector>

int main() try {
  const long long n = 1 << 20;
  std::vector<int> host(n, 1);
  int *in = nullptr, *out = nullptr;
  ONEPASS_CUDA_TRY(cudaMalloc(&in, n * sizeof(int)));
  ONEPASS_CUDA_TRY(cudaMalloc(&out, n * sizeof(int)));
  ONEPASS_CUDA_TRY(cudaMemcpy(in, host.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  // Simple style: scratch is allocated and freed stream-ordered.
  onepass::exclusive_scan(in, n, out, /*init=*/0);

  // Workspace style: ask for the size once, then never allocate (graph-capture safe).
  void* scratch = nullptr;
  const std::size_t bytes = onepass::scan_workspace_bytes<int>(n);
  ONEPASS_CUDA_TRY(cudaMalloc(&scratch, bytes));
  onepass::inclusive_scan(in, n, out, onepass::plus{}, onepass::workspace{scratch, bytes}, nullptr);

  int last = 0;
  ONEPASS_CUDA_TRY(cudaMemcpy(&last, out + n - 1, sizeof last, cudaMemcpyDeviceToHost));
  std::printf("inclusive_scan of %lld ones ends in %d\n", n, last);
  cudaFree(scratch);
  cudaFree(in);
  cudaFree(out);
  return last == n ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "%s\n", e.what());
  return 2;
}
