// scan_tuning_sweep — tries tile shapes and lookback back-off for the production scan at
// one size, CUB and the copy in the same run; each output verified before it is timed.
// Used to choose the rows of include/onepass/tuning/scan_tuning.cuh (docs/perf/scan.md).
//   scan_tuning_sweep [log2_n=28]
#include <cstdio>

#include "onepass/ladder/scan/registry.cuh"
#include "support/test_support.cuh"
#include "timing.cuh"

using namespace onepass;

template <int Threads, int Items, unsigned Backoff>
struct row {
  static constexpr tuning::scan_tuning value{Threads, Items, Backoff};
};

template <class T>
struct sweep {
  long long n;
  std::vector<T> host;
  std::vector<T> expected;
  test::device_buffer<T> in, out;
  double copy_gbps;
  cudaEvent_t a, b;
  int failures = 0;

  sweep(long long n_, cudaEvent_t a_, cudaEvent_t b_)
      : n(n_), host(test::random_vector<T>(n_, 7)),
        expected(test::reference_scan(host, test::kind::inclusive, T{}, plus{})), in(host), out(n_), a(a_), b(b_) {
    const auto t = bench::time_it([&] { ONEPASS_CUDA_TRY(cudaMemcpyAsync(out.get(), in.get(), n * sizeof(T), cudaMemcpyDeviceToDevice)); }, a, b);
    copy_gbps = 2.0 * n * sizeof(T) / t.median / 1e6;
    std::printf("%s n=%lld copy %.0f GB/s\n", test::type_name<T>(), n, copy_gbps);
  }

  template <class F>
  void measure(const char* name, F&& call) {
    out.poison();
    call();
    ONEPASS_CUDA_TRY(cudaDeviceSynchronize());
    const std::string diff = test::first_difference(expected, out.download());
    if (!diff.empty()) {
      std::printf("  %-22s FAILED %s\n", name, diff.c_str());
      ++failures;
      return;
    }
    const auto t = bench::time_it(call, a, b);
    const double gbps = 2.0 * n * sizeof(T) / t.median / 1e6;
    std::printf("  %-22s %7.3f ms  %5.1f%% of copy\n", name, t.median, 100 * gbps / copy_gbps);
  }

  template <class Row>
  void try_row() {
    constexpr auto r = Row::value;
    char name[64];
    std::snprintf(name, sizeof name, "%dx%d backoff %u", r.block_threads, r.items_per_thread, r.lookback_backoff_ns);
    test::device_buffer<unsigned char> ws(static_cast<long long>(onepass::detail::scan_plan<T, Row>::workspace_bytes(n)));
    measure(name, [&] {
      onepass::detail::scan_dispatch<false, Row>(in.get(), n, out.get(), T{}, plus{}, workspace{ws.get(), ws.bytes()}, nullptr);
    });
  }

  void try_cub() {
    const auto& v = ladder::find_scan<T, plus>("cub");
    test::device_buffer<unsigned char> ws(static_cast<long long>(v.workspace_bytes(n)));
    measure("cub", [&] { v.run(in.get(), n, out.get(), ladder::scan_kind::inclusive, T{}, plus{}, workspace{ws.get(), ws.bytes()}, nullptr); });
  }
};

int main(int argc, char** argv) try {
  if (!test::gpu_available()) {
    std::fprintf(stderr, "scan_tuning_sweep: %s\n", test::gpu_unavailable_reason().c_str());
    return 2;
  }
  const long long n = 1ll << (argc > 1 ? std::atoi(argv[1]) : 28);
  cudaEvent_t a, b;
  ONEPASS_CUDA_TRY(cudaEventCreate(&a));
  ONEPASS_CUDA_TRY(cudaEventCreate(&b));
  int failures = 0;
  {
    sweep<int> s(n, a, b);
    s.try_cub();
    s.try_row<row<256, 16, 32>>();
    s.try_row<row<256, 16, 0>>();
    s.try_row<row<128, 16, 32>>();
    s.try_row<row<512, 16, 32>>();
    s.try_row<row<128, 24, 32>>();
    s.try_row<row<256, 24, 32>>();
    s.try_row<row<128, 32, 32>>();
    s.try_row<row<256, 32, 32>>();
    s.try_row<row<256, 40, 32>>();
    s.try_row<row<192, 32, 32>>();
    s.try_row<row<512, 8, 32>>();
    s.try_row<row<1024, 8, 32>>();
    s.try_row<row<384, 12, 32>>();
    failures += s.failures;
  }
  {
    sweep<long long> s(n / 2, a, b);
    s.try_cub();
    s.try_row<row<256, 8, 32>>();
    s.try_row<row<256, 8, 0>>();
    s.try_row<row<128, 8, 32>>();
    s.try_row<row<128, 12, 32>>();
    s.try_row<row<256, 12, 32>>();
    s.try_row<row<128, 16, 32>>();
    s.try_row<row<256, 16, 32>>();
    s.try_row<row<256, 20, 32>>();
    s.try_row<row<512, 4, 32>>();
    failures += s.failures;
  }
  return failures ? 1 : 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "scan_tuning_sweep: %s\n", e.what());
  return 1;
}
