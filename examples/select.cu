// The README's stream compaction examples: keep the positive numbers of an array, and
// remove consecutive duplicates, each checked against a loop on the host.
#include <onepass/select.cuh>

#include <cstdio>
#include <vector>

struct is_positive {
  __device__ bool operator()(int x) const { return x > 0; }
};

int main() try {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA GPU found: this example needs one\n");
    return 77;  // "skipped" to ctest
  }
  const long long n = 1000000;
  std::vector<int> host(n);
  for (long long i = 0; i < n; ++i) host[i] = static_cast<int>((i * 7919) % 2001) - 1000;  // -1000 .. 1000

  int *in = nullptr, *out = nullptr;
  onepass::index_t* count = nullptr;
  ONEPASS_CUDA_TRY(cudaMalloc(&in, n * sizeof(int)));
  ONEPASS_CUDA_TRY(cudaMalloc(&out, n * sizeof(int)));
  ONEPASS_CUDA_TRY(cudaMalloc(&count, sizeof *count));
  ONEPASS_CUDA_TRY(cudaMemcpy(in, host.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  // Keep the positive numbers. The count stays on the device (no synchronisation)...
  onepass::select_if(in, n, out, count, is_positive{});
  onepass::index_t kept = 0;
  ONEPASS_CUDA_TRY(cudaMemcpy(&kept, count, sizeof kept, cudaMemcpyDeviceToHost));
  std::vector<int> positives(kept);
  ONEPASS_CUDA_TRY(cudaMemcpy(positives.data(), out, kept * sizeof(int), cudaMemcpyDeviceToHost));
  std::vector<int> expected;
  for (int x : host)
    if (x > 0) expected.push_back(x);
  const bool select_ok = positives == expected;

  // ...or comes back to the host. Remove consecutive duplicates of sorted-ish data, in
  // place: 0 0 0 1 1 1 2 2 2 ... becomes 0 1 2 ...
  for (long long i = 0; i < n; ++i) host[i] = static_cast<int>(i / 3);
  ONEPASS_CUDA_TRY(cudaMemcpy(in, host.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  const onepass::index_t distinct = onepass::unique_to_host(in, n, in);
  std::vector<int> runs(distinct);
  ONEPASS_CUDA_TRY(cudaMemcpy(runs.data(), in, distinct * sizeof(int), cudaMemcpyDeviceToHost));
  bool unique_ok = distinct == (n + 2) / 3;
  for (long long i = 0; unique_ok && i < distinct; ++i) unique_ok = runs[i] == i;

  std::printf("select_if: %lld of %lld positive: %s\n", kept, n, select_ok ? "matches the host" : "WRONG");
  std::printf("unique: %lld distinct of %lld: %s\n", distinct, n, unique_ok ? "matches the host" : "WRONG");
  cudaFree(count);
  cudaFree(out);
  cudaFree(in);
  return select_ok && unique_ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "%s\n", e.what());
  return 2;
}
