// The README's radix sort examples: float keys in numeric order, pairs sorted descending
// on their low 16 bits (stable: equal keys keep their input order), the double-buffer
// style, the sorting permutation and the workspace style, each checked against
// std::stable_sort on the host.
#include <onepass/radix_sort.cuh>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <type_traits>
#include <vector>

int main() try {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA GPU found: this example needs one\n");
    return 77;  // "skipped" to ctest
  }
  const long long n = 1000000;
  std::vector<float> fkeys(n);
  std::vector<unsigned> ukeys(n);
  for (long long i = 0; i < n; ++i) {
    fkeys[i] = static_cast<float>((i * 7919) % 20001 - 10000) / 8.0f;  // -1250 .. 1250, repeated
    ukeys[i] = static_cast<unsigned>(i * 2654435761u);
  }

  float *fa = nullptr, *fb = nullptr;
  unsigned *ua = nullptr, *ub = nullptr, *va = nullptr, *vb = nullptr;
  for (float** p : {&fa, &fb}) ONEPASS_CUDA_TRY(cudaMalloc(p, n * sizeof(float)));
  for (unsigned** p : {&ua, &ub, &va, &vb}) ONEPASS_CUDA_TRY(cudaMalloc(p, n * sizeof(unsigned)));
  ONEPASS_CUDA_TRY(cudaMemcpy(fa, fkeys.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  ONEPASS_CUDA_TRY(cudaMemcpy(ua, ukeys.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  std::vector<unsigned> index(n);
  std::iota(index.begin(), index.end(), 0u);
  ONEPASS_CUDA_TRY(cudaMemcpy(va, index.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  const auto download = [n](const auto* d) {
    std::vector<std::remove_const_t<std::remove_pointer_t<decltype(d)>>> h(n);
    ONEPASS_CUDA_TRY(cudaMemcpy(h.data(), d, n * sizeof(h[0]), cudaMemcpyDeviceToHost));
    return h;
  };

  // Float keys, ascending (the simple style allocates its scratch on the stream).
  onepass::radix_sort_keys(fa, fb, n);
  std::vector<float> fsorted = fkeys;
  std::stable_sort(fsorted.begin(), fsorted.end());
  const bool keys_ok = download(fb) == fsorted;

  // Pairs: descending on bits [0, 16) of the keys, values = each key's input index.
  onepass::radix_sort_pairs(ua, ub, va, vb, n, {onepass::sort_order::descending, 0, 16});
  std::vector<unsigned> order = index;
  std::stable_sort(order.begin(), order.end(),
                   [&](unsigned a, unsigned b) { return (ukeys[a] & 0xFFFF) > (ukeys[b] & 0xFFFF); });
  std::vector<unsigned> expected_keys(n);
  for (long long i = 0; i < n; ++i) expected_keys[i] = ukeys[order[i]];
  const bool pairs_ok = download(ub) == expected_keys && download(vb) == order;

  // The double-buffer style: no copy back; the result is in keys.current().
  ONEPASS_CUDA_TRY(cudaMemcpy(fa, fkeys.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  onepass::double_buffer<float> keys(fa, fb);
  onepass::radix_sort_keys(keys, n);
  const bool double_buffer_ok = download(keys.current()) == fsorted;

  // The permutation that sorts the float keys (stable), keys left as they are.
  // (both buffers were overwritten by the double-buffer sort: upload the keys again)
  ONEPASS_CUDA_TRY(cudaMemcpy(fa, fkeys.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  onepass::radix_sort_permutation(fa, n, vb);
  std::vector<unsigned> forder = index;
  std::stable_sort(forder.begin(), forder.end(), [&](unsigned a, unsigned b) { return fkeys[a] < fkeys[b]; });
  const bool permutation_ok = download(vb) == forder;

  // The workspace style on a stream: no allocation, no synchronisation inside the call.
  cudaStream_t stream;
  ONEPASS_CUDA_TRY(cudaStreamCreate(&stream));
  const std::size_t bytes = onepass::radix_sort_workspace_bytes<unsigned, unsigned>(n);
  void* scratch = nullptr;
  ONEPASS_CUDA_TRY(cudaMalloc(&scratch, bytes));
  onepass::radix_sort_pairs(ua, ub, va, vb, n, {onepass::sort_order::descending, 0, 16},
                            onepass::workspace{scratch, bytes}, stream);
  ONEPASS_CUDA_TRY(cudaStreamSynchronize(stream));
  const bool workspace_ok = download(ub) == expected_keys && download(vb) == order;

  std::printf("radix_sort_keys (float, ascending): %s\n", keys_ok ? "matches the host" : "WRONG");
  std::printf("radix_sort_pairs (descending, bits [0, 16), stable): %s\n", pairs_ok ? "matches the host" : "WRONG");
  std::printf("double buffer: %s\n", double_buffer_ok ? "matches the host" : "WRONG");
  std::printf("radix_sort_permutation: %s\n", permutation_ok ? "matches the host" : "WRONG");
  std::printf("workspace style: %s\n", workspace_ok ? "matches the host" : "WRONG");
  ONEPASS_CUDA_TRY(cudaStreamDestroy(stream));
  for (void* p : {scratch, static_cast<void*>(fa), static_cast<void*>(fb), static_cast<void*>(ua),
                  static_cast<void*>(ub), static_cast<void*>(va), static_cast<void*>(vb)})
    cudaFree(p);
  return keys_ok && pairs_ok && double_buffer_ok && permutation_ok && workspace_ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "%s\n", e.what());
  return 2;
}
