// segmented_scan_tuning_sweep — tries tile shapes of the production segmented scan (head
// flags and scan by key) on several segment-length distributions, beside the production
// offsets form (64-bit offsets: CSR, begin/end arrays without and with gaps, their items
// left alone or copied, the simple
// style, the marking alone), the plain production scan, CUB's scan by key and the copy, all in one run;
// every output verified before it is timed, timed like onepass-bench (bench/gpu.cuh).
// Used to choose the rows of include/onepass/tuning/segmented_scan_tuning.cuh
// (docs/perf/segmented_scan.md).
//   segmented_scan_tuning_sweep [log2_n=28] [int32|int64|double|8byte|all=all]
//                               [all|offsets|bykey_prefetch|bykey_pipeline|cap|gaps|split|marking|thread_scan|headless|
//                                marking_runs=all]
//                               [distribution=all]
// "offsets" runs the offsets form's rows only, on every distribution (all_32 and
// with_empty too); "bykey_prefetch" scan by key's production shape at L2 prefetch
// distances of 0, 1, 2 and 4 MiB (and CUB's scan by key); "bykey_pipeline" scan by key
// one tile per block against the pipelined agent (keys in registers), with production's
// head flags beside them, alternated twice; "cap" the production shape
// with a __launch_bounds__ minimum of blocks per SM (3 for 4-byte values, 4 for 8-byte)
// against none, for head flags, by key, CSR offsets and begin/end arrays, alternated three
// times; "gaps" the offsets forms (CSR, begin/end, begin/end with gaps, the gap items
// left alone and copied) through the pipelined agent (production) against one tile per
// block, alternated twice, on every distribution; "split" CSR and begin/end arrays (no
// gaps) with their marking and their scan timed apart, and begin/end's scan through the
// gap-free code, alternated twice, on every distribution; "marking" the marking kernel alone, production's shape
// against others, on CSR, begin/end and begin/end with gaps; "thread_scan" the pipelined
// agent's step A scanning a thread's items in order against in groups of four, every form
// but scan by key, alternated twice; "headless" the offsets forms (CSR, begin/end,
// begin/end with gaps) with the pipelined agent's headless-tile path never, where
// production takes it (tuning::segmented_scan_tuning::pipeline_headless_min_segment_items)
// and always, alternated twice; "marking_runs" begin/end arrays with gaps copied (marked
// as heads) with the marking's runs of 256 segments a warp (as before 2026-12-02),
// production's runs and other runs and windows where segments average 64 items or more
// (tuning::segmented_scan_tuning::gaps_as_heads_long_segment_items), whole calls, alternated
// twice. A fourth argument (all_1, all_32, uniform_1_1000,
// power_law, one_segment, with_empty) runs that distribution alone (for a profiler).
// int32 values at n, int64 and double values at n / 2 ("all": int32 and int64; "8byte": int64
// and double), uint8 head flags, int32 keys for the by-key rows, inclusive sums (the double
// values are multiples of 1/256, so every order of the adds gives the same sums). Rates
// are bytes moved (values read and written, plus flags, keys or offsets read) over the
// time, as a fraction of the plain production scan's rate in the same run (the issue's
// target); the marking kernel's row is its offsets read over its time, as a fraction of
// the copy's rate.
// The rows and the sweep itself: segmented_scan_tuning_sweep_typed.cuh, one instantiation a
// value type in segmented_scan_tuning_sweep_{int32,int64,double}.cu.
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu.cuh"
#include "segmented_scan_tuning_sweep.cuh"
#include "support/segmented_scan_reference.hpp"

using namespace onepass;

int main(int argc, char** argv) try {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "segmented_scan_tuning_sweep: no usable CUDA device\n");
    return 2;
  }
  const long long n = 1ll << (argc > 1 ? std::atoi(argv[1]) : 28);
  cudaStream_t stream;
  ONEPASS_CUDA_TRY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  bench::timer time(stream, 3, 20, bench::query_device().l2_bytes);
  const std::string types = argc > 2 ? argv[2] : "all";
  const std::string forms = argc > 3 ? argv[3] : "all";
  if (forms != "all" && forms != "offsets" && forms != "bykey_prefetch" && forms != "bykey_pipeline" &&
      forms != "cap" && forms != "gaps" && forms != "split" && forms != "marking" && forms != "thread_scan" &&
      forms != "headless" && forms != "marking_runs")
    throw std::invalid_argument("the third argument is all, offsets, bykey_prefetch, bykey_pipeline, cap, gaps, "
                                "split, marking, thread_scan, headless or marking_runs, not " +
                                forms);
  if (types != "all" && types != "int32" && types != "int64" && types != "double" && types != "8byte")
    throw std::invalid_argument("the second argument is int32, int64, double, 8byte or all, not " + types);
  int failures = 0;
  using dist = test::segment_distribution;
  std::vector<dist> distributions =
      forms == "offsets" || forms == "gaps" || forms == "split" || forms == "marking" || forms == "marking_runs"
          ? std::vector<dist>{dist::one_segment, dist::uniform_1_1000, dist::power_law, dist::all_1, dist::all_32,
                              dist::with_empty}
          : std::vector<dist>{dist::one_segment, dist::uniform_1_1000, dist::power_law, dist::all_1};
  if (argc > 4 && std::string(argv[4]) != "all") {
    const std::string only = argv[4];
    bool known = false;
    for (dist d : test::all_segment_distributions())
      if (only == test::distribution_name(d)) {
        distributions = {d};
        known = true;
      }
    if (!known) throw std::invalid_argument("no segment-length distribution named " + only);
  }
  // int32 values at n, int64 and double values at n / 2 (the same bytes).
  using sweeps::run_segmented_sweep;
  if (types == "all" || types == "int32") failures += run_segmented_sweep<int>(n, time, forms, distributions);
  if (types == "all" || types == "int64" || types == "8byte")
    failures += run_segmented_sweep<long long>(n / 2, time, forms, distributions);
  if (types == "double" || types == "8byte") failures += run_segmented_sweep<double>(n / 2, time, forms, distributions);
  return failures ? 1 : 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "segmented_scan_tuning_sweep: %s\n", e.what());
  return 1;
}
