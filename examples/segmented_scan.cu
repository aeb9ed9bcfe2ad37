// The segmented scan example: the exercise from the material ([1,2,3 | 4,5 | 6] becomes
// [1,3,6, 4,9, 6]) with head flags, with segment offsets and by key; begin/end arrays that
// leave items in no segment (kept as they are in out, or copied from the input); then
// running totals per customer over a day of orders sorted by customer, checked against a
// loop on the host.
#include <onepass/segmented_scan.cuh>

#include <cstdint>
#include <cstdio>
#include <vector>

template <class T>
std::vector<T> download(const T* d, long long n) {
  std::vector<T> h(n);
  ONEPASS_CUDA_TRY(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

template <class T>
T* upload(const std::vector<T>& h) {
  T* d = nullptr;
  ONEPASS_CUDA_TRY(cudaMalloc(&d, h.size() * sizeof(T)));
  ONEPASS_CUDA_TRY(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

int main() try {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA GPU found: this example needs one\n");
    return 77;  // "skipped" to ctest
  }
  // The exercise, three ways.
  const std::vector<int> want{1, 3, 6, 4, 9, 6};
  int* data = upload(std::vector<int>{1, 2, 3, 4, 5, 6});
  int* out = upload(std::vector<int>(6, 0));
  std::uint8_t* flags = upload(std::vector<std::uint8_t>{1, 0, 0, 1, 0, 1});
  long long* offsets = upload(std::vector<long long>{0, 3, 5, 6});
  int* keys = upload(std::vector<int>{7, 7, 7, 2, 2, 9});
  onepass::segmented_inclusive_scan(data, flags, 6, out);
  const bool flags_ok = download(out, 6) == want;
  onepass::segmented_inclusive_scan(data, 6, onepass::csr_segments(offsets, 3), out);
  const bool offsets_ok = download(out, 6) == want;
  onepass::inclusive_scan_by_key(keys, data, 6, out);
  const bool keys_ok = download(out, 6) == want;
  std::printf("[1,2,3 | 4,5 | 6] -> [1,3,6, 4,9, 6]: flags %s, offsets %s, keys %s\n", flags_ok ? "ok" : "WRONG",
              offsets_ok ? "ok" : "WRONG", keys_ok ? "ok" : "WRONG");

  // Segments [0, 2) and [3, 5): items 2 and 5 are in none. By default out keeps what it
  // held there; with gap_items::copied they get their input value (and every byte of out
  // is written, which is faster where such gaps are many).
  long long* begins = upload(std::vector<long long>{0, 3});
  long long* ends = upload(std::vector<long long>{2, 5});
  ONEPASS_CUDA_TRY(cudaMemcpy(out, std::vector<int>(6, -1).data(), 6 * sizeof(int), cudaMemcpyHostToDevice));
  onepass::segmented_inclusive_scan(data, 6, onepass::segment_offsets<long long>{begins, ends, 2}, out);
  const bool gaps_kept_ok = download(out, 6) == std::vector<int>{1, 3, -1, 4, 9, -1};
  onepass::segmented_inclusive_scan(
      data, 6, onepass::segment_offsets<long long>{begins, ends, 2, onepass::gap_items::copied}, out);
  const bool gaps_copied_ok = download(out, 6) == std::vector<int>{1, 3, 3, 4, 9, 6};
  std::printf("[1,2] 3 [4,5] 6 -> [1,3,-1, 4,9,-1] with out's -1 kept %s, [1,3,3, 4,9,6] with gaps copied %s\n",
              gaps_kept_ok ? "ok" : "WRONG", gaps_copied_ok ? "ok" : "WRONG");

  // Running totals per customer: orders sorted by customer, amounts in cents.
  const long long n = 10000000;
  std::vector<int> customer(n), cents(n);
  for (long long i = 0; i < n; ++i) {
    customer[i] = static_cast<int>(i / 37 + (i % 101 == 0));  // runs of about 37 orders
    cents[i] = static_cast<int>((i * 2654435761u) % 10000);
  }
  for (long long i = 1; i < n; ++i)
    if (customer[i] < customer[i - 1]) customer[i] = customer[i - 1];  // keep them sorted
  int* d_customer = upload(customer);
  long long* d_cents = upload(std::vector<long long>(cents.begin(), cents.end()));
  long long* d_totals = nullptr;
  ONEPASS_CUDA_TRY(cudaMalloc(&d_totals, n * sizeof(long long)));
  onepass::inclusive_scan_by_key(d_customer, d_cents, n, d_totals);
  const auto totals = download(d_totals, n);
  bool totals_ok = true;
  long long running = 0;
  for (long long i = 0; i < n && totals_ok; ++i) {
    running = (i > 0 && customer[i] == customer[i - 1]) ? running + cents[i] : cents[i];
    totals_ok = totals[i] == running;
  }
  std::printf("running totals of %lld orders per customer: %s\n", n, totals_ok ? "matches the host" : "WRONG");

  for (void* p : {static_cast<void*>(data), static_cast<void*>(out), static_cast<void*>(flags),
                  static_cast<void*>(offsets), static_cast<void*>(keys), static_cast<void*>(begins),
                  static_cast<void*>(ends), static_cast<void*>(d_customer),
                  static_cast<void*>(d_cents), static_cast<void*>(d_totals)})
    cudaFree(p);
  return flags_ok && offsets_ok && keys_ok && gaps_kept_ok && gaps_copied_ok && totals_ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "%s\n", e.what());
  return 2;
}
