// scan_tuning_sweep — tries tile shapes of the production scan's two agents (one tile
// per block; pipelined) at one size, CUB and the copy in the same run; each output verified before it is timed,
// timed like onepass-bench (bench/gpu.cuh).
// Used to choose the rows of include/onepass/tuning/scan_tuning.cuh (docs/perf/scan.md).
//   scan_tuning_sweep [log2_n=28, may be fractional] [rows=large|small|lookback|clearing|shapes]
// (int64 runs at half the count, so both types move the same bytes.) "large" compares
// tile shapes and prefetch distances of the lookback agents; "small" compares the
// production row (single-wave agent where it fits) with the lookback agents alone;
// "lookback" compares the pipelined agent's lookback windows of 32 and 64 tiles, and the
// one-tile agent at one more resident block per SM; "clearing" compares the production
// rows with and without the pipelined agent's self-clearing cooperative launch; "shapes"
// the production rows against pipelined tiles of 24 and 16 KiB (three and four blocks a
// SM) and the other lookback window.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "gpu.cuh"
#include "onepass/ladder/scan/registry.cuh"
#include "support/reference.hpp"

using namespace onepass;

// Pipelined rows are forced at every size (minimum tiles per block 0), so a size sweep
// compares the two agents directly; the single-wave agent only where a row asks for it.
template <int Threads, int Items, unsigned Backoff, int MinBlocks = 0, bool Pipelined = false, int PrefetchMiB = 0,
          bool SingleWave = false, int PipelineLookbackTilesPerLane = 1>
struct row {
  static constexpr tuning::scan_tuning value = [] {
    tuning::scan_tuning t{};
    t.block_threads = Threads;
    t.items_per_thread = Items;
    t.lookback_backoff_ns = Backoff;
    t.min_blocks_per_sm = MinBlocks;
    t.pipelined = Pipelined;
    t.pipeline_min_tiles_per_block = 0;
    t.l2_prefetch_bytes = static_cast<long long>(PrefetchMiB) << 20;
    t.l2_prefetch_min_input_bytes = 0;
    t.single_wave = SingleWave;
    t.pipeline_lookback_tiles_per_lane = PipelineLookbackTilesPerLane;
    return t;
  }();
};

// The production row with the single-wave agent turned off: what it replaces.
template <class T>
struct production_without_single_wave {
  static constexpr tuning::scan_tuning value = [] {
    tuning::scan_tuning t = tuning::default_scan_tuning<T>::value;
    t.single_wave = false;
    return t;
  }();
};

// A row of the production table with the pipelined agent's self-clearing cooperative
// launch set as given, optionally another tile shape (0: the table's), the L2 prefetch at
// every input size, and the pipelined agent from any tile count on (the single-wave
// agent still takes what it fits).
template <class T, bool Clears, int Threads = 0, int Items = 0, bool PrefetchAlways = false,
          bool PipelineAlways = false>
struct production_clearing {
  static constexpr tuning::scan_tuning value = [] {
    tuning::scan_tuning t = tuning::default_scan_tuning<T>::value;
    t.pipeline_clears_workspace = Clears;
    if (Threads) t.block_threads = Threads;
    if (Items) t.items_per_thread = Items;
    if (PrefetchAlways) t.l2_prefetch_min_input_bytes = 0;
    if (PipelineAlways) t.pipeline_min_tiles_per_block = 0;
    return t;
  }();
};

// The production row with another tile shape (0: the table's) and lookback window
// (tiles a lane; 0: the table's); everything else as in production.
template <class T, int Threads, int Items, int LookbackTilesPerLane = 0>
struct production_shape {
  static constexpr tuning::scan_tuning value = [] {
    tuning::scan_tuning t = tuning::default_scan_tuning<T>::value;
    if (Threads) t.block_threads = Threads;
    if (Items) t.items_per_thread = Items;
    if (LookbackTilesPerLane) t.pipeline_lookback_tiles_per_lane = LookbackTilesPerLane;
    return t;
  }();
};

template <class T>
struct sweep {
  long long n;
  std::vector<T> host;
  std::vector<T> expected;
  bench::device_array<T> in, out;
  double copy_gbps;
  bench::timer& time;
  int failures = 0;

  sweep(long long n_, bench::timer& t_)
      : n(n_), host(bench::random_input<T>(n_, 7)),
        expected(test::reference_scan(host, test::kind::inclusive, T{}, plus{})), in(n_), out(n_), time(t_) {
    in.upload(host);
    const auto t = time.run([&] { ONEPASS_CUDA_TRY(cudaMemcpyAsync(out.get(), in.get(), n * sizeof(T), cudaMemcpyDeviceToDevice, time.stream())); });
    copy_gbps = 2.0 * n * sizeof(T) / t.median / 1e6;
    std::printf("%s n=%lld copy %.0f GB/s\n", test::type_name<T>(), n, copy_gbps);
  }

  template <class F>
  void measure(const char* name, F&& call) {
    ONEPASS_CUDA_TRY(cudaMemsetAsync(out.get(), 0xA5, out.bytes(), time.stream()));  // ordered before the call
    call();
    ONEPASS_CUDA_TRY(cudaDeviceSynchronize());
    std::vector<T> got(static_cast<std::size_t>(n));
    ONEPASS_CUDA_TRY(cudaMemcpy(got.data(), out.get(), out.bytes(), cudaMemcpyDeviceToHost));
    const std::string diff = test::first_difference(expected, got);
    if (!diff.empty()) {
      std::printf("  %-62s FAILED %s\n", name, diff.c_str());
      ++failures;
      return;
    }
    const auto t = time.run(call);
    const double gbps = 2.0 * n * sizeof(T) / t.median / 1e6;
    std::printf("  %-62s %7.3f ms  %5.1f%% of copy\n", name, t.median, 100 * gbps / copy_gbps);
  }

  template <class Row>
  void try_row() {
    constexpr auto r = Row::value;
    char name[120];
    char one_tile[40];
    std::snprintf(one_tile, sizeof one_tile, "one tile min%d", r.min_blocks_per_sm);
    // "L2+2MiB>=128MiB": the prefetch distance and the smallest input that gets it;
    // "from 2.5": the pipelined agent from that many tiles per resident block.
    std::snprintf(name, sizeof name, "%dx%d %s%s%s L2+%lldMiB>=%lldMiB lb%d from %.1f", r.block_threads,
                  r.items_per_thread, r.single_wave ? "single wave/" : "", r.pipelined ? "pipelined" : one_tile,
                  r.pipelined && r.pipeline_clears_workspace ? " clears" : "", r.l2_prefetch_bytes >> 20,
                  r.l2_prefetch_min_input_bytes >> 20, r.pipelined ? 32 * r.pipeline_lookback_tiles_per_lane : 32,
                  r.pipelined ? r.pipeline_min_tiles_per_block : 0.0);
    bench::device_array<unsigned char> ws(static_cast<long long>(onepass::detail::scan_plan<T, Row>::workspace_bytes(n)));
    measure(name, [&] {
      onepass::detail::scan_dispatch<false, Row>(in.get(), n, out.get(), T{}, plus{}, workspace{ws.get(), ws.bytes()}, time.stream());
    });
  }

  void try_cub() {
    const auto& v = ladder::find_scan<T, plus>("cub");
    bench::device_array<unsigned char> ws(static_cast<long long>(v.workspace_bytes(n)));
    measure("cub", [&] { v.run(in.get(), n, out.get(), ladder::scan_kind::inclusive, T{}, plus{}, workspace{ws.get(), ws.bytes()}, time.stream()); });
  }
};

int main(int argc, char** argv) try {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "scan_tuning_sweep: no usable CUDA device\n");
    return 2;
  }
  // A fractional log2 (22.5) picks sizes between the powers of two (agent crossovers).
  const double log2_n = argc > 1 ? std::atof(argv[1]) : 28;
  const long long n = std::llround(std::exp2(log2_n));
  cudaStream_t stream;
  ONEPASS_CUDA_TRY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  bench::timer time(stream, 3, 20, bench::query_device().l2_bytes);
  const std::string rows = argc > 2 ? argv[2] : "large";
  int failures = 0;
  if (rows == "small") {
    sweep<int> s(n, time);
    s.try_cub();
    s.try_row<tuning::default_scan_tuning<int>>();
    s.try_row<production_without_single_wave<int>>();
    s.try_row<row<256, 16, 32, 5, false, 0, true>>();
    s.try_row<row<128, 32, 32, 5, false, 0, true>>();
    failures += s.failures;
    sweep<long long> l(n / 2, time);
    l.try_cub();
    l.try_row<tuning::default_scan_tuning<long long>>();
    l.try_row<production_without_single_wave<long long>>();
    l.try_row<row<256, 8, 32, 4, false, 0, true>>();
    l.try_row<row<128, 16, 32, 4, false, 0, true>>();
    failures += l.failures;
    return failures ? 1 : 0;
  }
  if (rows == "lookback") {
    // The pipelined agent's lookback window (32 or 64 tiles per round trip) against the
    // one-tile agent and CUB, on the production shapes with a 2 MiB prefetch.
    {
      sweep<int> s(n, time);
      s.try_cub();
      s.try_row<row<256, 32, 32, 5, false, 2>>();
      s.try_row<row<256, 32, 32, 6, false, 2>>();  // 40 registers
      s.try_row<row<256, 32, 32, 0, true, 2>>();
      s.try_row<row<256, 32, 32, 0, true, 2, false, 2>>();
      failures += s.failures;
    }
    {
      sweep<long long> s(n / 2, time);
      s.try_cub();
      s.try_row<row<256, 16, 32, 4, false, 2>>();
      s.try_row<row<256, 16, 32, 5, false, 2>>();  // 48 registers
      s.try_row<row<256, 16, 32, 0, true, 2>>();
      s.try_row<row<256, 16, 32, 0, true, 2, false, 2>>();
      failures += s.failures;
    }
    return failures ? 1 : 0;
  }
  if (rows == "clearing") {
    // The production rows with the dispatcher's memset (two launches) against the
    // cooperative pipelined kernel that clears its own workspace (one launch), the same
    // with the L2 prefetch at every size, and with the pipelined agent from any tile count
    // (below 2.5 tiles per resident block the table runs one tile per block); the rows
    // alternated twice. (16 KiB tiles, 256 x 16 / 256 x 8, lost 2-5 points to the 32 KiB
    // rows at 2^23-2^28 on an H200, cleared or not: docs/perf/scan.md.)
    {
      sweep<int> s(n, time);
      s.try_cub();
      for (int round = 0; round < 2; ++round) {
        s.try_row<production_clearing<int, false>>();
        s.try_row<production_clearing<int, true>>();
        s.try_row<production_clearing<int, true, 0, 0, true>>();
        s.try_row<production_clearing<int, true, 0, 0, false, true>>();
      }
      failures += s.failures;
    }
    {
      sweep<long long> s(n / 2, time);
      s.try_cub();
      for (int round = 0; round < 2; ++round) {
        s.try_row<production_clearing<long long, false>>();
        s.try_row<production_clearing<long long, true>>();
        s.try_row<production_clearing<long long, true, 0, 0, true>>();
        s.try_row<production_clearing<long long, true, 0, 0, false, true>>();
      }
      failures += s.failures;
    }
    return failures ? 1 : 0;
  }
  if (rows == "shapes") {
    // Pipelined tiles of 24 KiB (three blocks a SM by shared memory, where 32 KiB tiles
    // allow two) and 16 KiB (four), and the other lookback window, against the production
    // rows; alternated twice.
    {
      sweep<int> s(n, time);
      s.try_cub();
      for (int round = 0; round < 2; ++round) {
        s.try_row<tuning::default_scan_tuning<int>>();
        s.try_row<production_shape<int, 192, 32>>();
        s.try_row<production_shape<int, 128, 32>>();
        s.try_row<production_shape<int, 0, 0, 1>>();
      }
      failures += s.failures;
    }
    {
      sweep<long long> s(n / 2, time);
      s.try_cub();
      for (int round = 0; round < 2; ++round) {
        s.try_row<tuning::default_scan_tuning<long long>>();
        s.try_row<production_shape<long long, 192, 16>>();
        s.try_row<production_shape<long long, 128, 16>>();
        s.try_row<production_shape<long long, 0, 0, 2>>();
      }
      failures += s.failures;
    }
    return failures ? 1 : 0;
  }
  if (rows != "large") {
    std::fprintf(stderr, "scan_tuning_sweep: rows must be large, small, lookback, clearing or shapes, not %s\n",
                 rows.c_str());
    return 2;
  }
  {
    sweep<int> s(n, time);
    s.try_cub();
    s.try_row<row<256, 32, 32, 5>>();  // one tile per block
    s.try_row<row<256, 32, 32, 5, false, 2>>();
    s.try_row<row<256, 32, 32, 0, true>>();  // the production row at large n
    s.try_row<row<256, 32, 32, 0, true, 1>>();
    s.try_row<row<256, 32, 32, 0, true, 2>>();
    s.try_row<row<256, 32, 32, 0, true, 3>>();
    s.try_row<row<256, 32, 32, 0, true, 4>>();
    s.try_row<row<256, 16, 32, 0, true, 2>>();
    s.try_row<row<128, 32, 32, 0, true, 2>>();
    failures += s.failures;
  }
  {
    sweep<long long> s(n / 2, time);
    s.try_cub();
    s.try_row<row<256, 16, 32, 4>>();
    s.try_row<row<256, 16, 32, 4, false, 2>>();
    s.try_row<row<256, 16, 32, 0, true>>();
    s.try_row<row<256, 16, 32, 0, true, 1>>();
    s.try_row<row<256, 16, 32, 0, true, 2>>();
    s.try_row<row<256, 16, 32, 0, true, 3>>();
    s.try_row<row<256, 16, 32, 0, true, 4>>();
    s.try_row<row<256, 8, 32, 0, true, 2>>();
    failures += s.failures;
  }
  return failures ? 1 : 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "scan_tuning_sweep: %s\n", e.what());
  return 1;
}
