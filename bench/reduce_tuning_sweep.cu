// reduce_tuning_sweep — tries shapes of the production reduce (threads, items per thread
// and segment, blocks per SM) at several sizes, against the read-only ceiling and CUB
// measured in the same run; every result is checked before it is timed.
// Used to choose the rows of include/onepass/tuning/reduce_tuning.cuh (docs/perf/reduce.md).
//   reduce_tuning_sweep [log2_n ...]     (default: 16 20 24 26 28 30)
#include <cstdio>
#include <cmath>
#include <cstring>

#include "baselines.cuh"
#include "gpu.cuh"
#include "onepass/ladder/reduce/registry.cuh"
#include "support/reference.hpp"

using namespace onepass;

template <int Threads, int Items, int BlocksPerSM, bool First = true, bool Second = true>
struct row {
  static constexpr tuning::reduce_tuning value = [] {
    tuning::reduce_tuning t{};
    t.block_threads = Threads;
    t.items_per_thread = Items;
    t.blocks_per_sm = BlocksPerSM;
    t.programmatic_first = First;
    t.programmatic_second = Second;
    return t;
  }();
};

template <class T>
struct sweep {
  long long n;
  std::vector<T> host;
  T expected;
  bench::device_array<T> in, out;
  double read_gbps;
  bench::timer& time;
  int failures = 0;

  sweep(long long n_, double read, bench::timer& t)
      : n(n_), host(bench::random_input<T>(n_, 11)), expected(test::reference_reduce(host, T{}, plus{})), in(n_),
        out(1), read_gbps(read), time(t) {
    in.upload(host);
    std::printf("%s n=2^%d\n", test::type_name<T>(), static_cast<int>(std::log2(static_cast<double>(n))));
  }

  template <class F>
  void measure(const char* name, F&& call) {
    ONEPASS_CUDA_TRY(cudaMemsetAsync(out.get(), 0xA5, sizeof(T), time.stream()));  // ordered before the call
    call();
    ONEPASS_CUDA_TRY(cudaDeviceSynchronize());
    const T got = bench::read_item(out.get(), 0);
    if (std::memcmp(&got, &expected, sizeof(T)) != 0) {
      std::printf("  %-22s FAILED\n", name);
      ++failures;
      return;
    }
    const auto t = time.run(call);
    const double gbps = 1.0 * n * sizeof(T) / t.median / 1e6;
    std::printf("  %-22s %9.4f ms  %6.1f%% of read\n", name, t.median, 100 * gbps / read_gbps);
  }

  template <class Row>
  void try_row() {
    constexpr auto r = Row::value;
    char name[64];
    std::snprintf(name, sizeof name, "%dx%d x%d/SM %s%s", r.block_threads, r.items_per_thread, r.blocks_per_sm,
                  r.programmatic_first ? "P" : "-", r.programmatic_second ? "P" : "-");
    bench::device_array<unsigned char> ws(static_cast<long long>(onepass::detail::reduce_plan<T, Row>::workspace_bytes(n)));
    measure(name, [&] {
      onepass::detail::reduce_dispatch<Row>(in.get(), n, out.get(), T{}, plus{}, workspace{ws.get(), ws.bytes()},
                                            time.stream());
    });
  }

  void try_cub() {
    const auto& v = ladder::find_reduce<T, plus>("cub");
    bench::device_array<unsigned char> ws(static_cast<long long>(v.workspace_bytes(n)));
    measure("cub", [&] { v.run(in.get(), n, out.get(), T{}, plus{}, workspace{ws.get(), ws.bytes()}, time.stream()); });
  }
};

int main(int argc, char** argv) try {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "reduce_tuning_sweep: no usable CUDA device\n");
    return 2;
  }
  std::vector<int> logs;
  for (int i = 1; i < argc; ++i) logs.push_back(std::atoi(argv[i]));
  if (logs.empty()) logs = {16, 20, 24, 26, 28, 30};
  cudaStream_t stream;
  ONEPASS_CUDA_TRY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const bench::device_info device = bench::query_device();
  bench::timer time(stream, 3, 20, device.l2_bytes);
  bench::progress quiet(2, true);
  const bench::ceilings ceiling = bench::measure_ceilings(time, 1ll << 30, 5, quiet);
  std::printf("%s: read-only %.0f GB/s, copy %.0f GB/s\n", device.name.c_str(), ceiling.read_gbps, ceiling.copy_gbps);
  int failures = 0;
  for (int lg : logs) {
    {
      sweep<int> s(1ll << lg, ceiling.read_gbps, time);
      s.try_cub();
      s.try_row<row<256, 16, 6, false, true>>();  // the table's row
      s.try_row<row<256, 16, 6, true, true>>();
      s.try_row<row<256, 16, 6, false, false>>();
      failures += s.failures;
    }
    {
      sweep<double> s(1ll << (lg - 1), ceiling.read_gbps, time);
      s.try_cub();
      s.try_row<row<256, 8, 6, false, true>>();  // the table's row
      failures += s.failures;
    }
  }
  return failures ? 1 : 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "reduce_tuning_sweep: %s\n", e.what());
  return 1;
}
