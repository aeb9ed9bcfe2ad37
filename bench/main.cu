// onepass-bench: every variant of each primitive, the production path and CUB side by
// side on the GPU at hand, as fractions of the copy and read-only bandwidths measured in
// the same run. `onepass-bench --help` for the flags; docs/bench.md for the method and the
// JSON schema.
#include <cstdio>
#include <fstream>
#include <string>

#include "baselines.cuh"
#include "cli.hpp"
#include "gpu.cuh"
#include "plan.hpp"
#include "report.hpp"
#include "atomics_bench.cuh"
#include "histogram_bench.cuh"
#include "radix_sort_bench.cuh"
#include "reduce_bench.cuh"
#include "rms_norm_bench.cuh"
#include "scan_bench.cuh"
#include "segmented_scan_bench.cuh"
#include "select_bench.cuh"

using namespace onepass::bench;

namespace {

// The ceilings' size: the seed material's 2^30 int32 (4 GiB), fewer when memory is short.
constexpr long long ceiling_items = 1ll << 30;

std::string command_line(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) {
    const std::string a = i == 0 ? "onepass-bench" : argv[i];
    s += (i ? " " : "") + (a.find_first_of(" \t\"'") == std::string::npos ? a : "'" + a + "'");
  }
  return s;
}

// "" when a CUDA device can be used, else why not.
std::string gpu_unavailable_reason() {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) return std::string("no usable CUDA device (cudaGetDeviceCount: ") + cudaGetErrorName(e) + ")";
  if (count == 0) return "no CUDA device present";
  return "";
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream f(path);
  f << text;
  if (!f.good()) throw std::runtime_error("cannot write '" + path + "'");
}

std::vector<record> run_table(const bench_case& c, bench_context& ctx) {
  if (c.primitive == "scan") return run_scan_table(c, ctx);
  if (c.primitive == "reduce") return run_reduce_table(c, ctx);
  if (c.primitive == "atomics") return run_atomics_table(c, ctx);
  if (c.primitive == "rmsnorm") return run_rms_norm_table(c, ctx);
  if (c.primitive == "histogram") return run_histogram_table(c, ctx);
  if (c.primitive == "select" || c.primitive == "unique" || c.primitive == "partition") return run_select_table(c, ctx);
  if (c.primitive == "radix_sort") return run_radix_sort_table(c, ctx);
  if (c.primitive == "segmented_scan") return run_segmented_scan_table(c, ctx);
  throw std::runtime_error("no runner for primitive '" + c.primitive + "'");
}

int usage_failure(const std::string& message) {
  std::fprintf(stderr, "onepass-bench: %s\n\n%s", message.c_str(), usage_text().c_str());
  return exit_usage;
}

}  // namespace

int main(int argc, char** argv) {
  options o;
  const catalogue known = {baseline_primitive(), scan_primitive(), reduce_primitive(), atomics_primitive(),
                           rms_norm_primitive(), histogram_primitive(), select_primitive(),
                           unique_primitive(), partition_primitive(), radix_sort_primitive(),
                           segmented_scan_primitive()};
  std::vector<bench_case> plan;
  try {
    o = parse_args(argc, argv);
    if (o.help) {
      std::fputs(usage_text().c_str(), stdout);
      return exit_ok;
    }
    if (o.list) {
      std::fputs(format_list(known).c_str(), stdout);
      return exit_ok;
    }
    plan = make_plan(o, known);
    const bool baselines_only = o.primitives.size() == 1 && o.primitives[0] == "baseline";
    if (plan.empty() && !baselines_only) throw usage_error("the filters select nothing to run (see --list)");
    // Find out now, not after a long run, that an output file cannot be written.
    for (const std::string& path : {o.json_path, o.markdown_path})
      if (!path.empty() && !std::ofstream(path, std::ios::app).good())
        throw usage_error("cannot write '" + path + "'");
  } catch (const usage_error& e) {
    return usage_failure(e.what());
  }

  if (const std::string why = gpu_unavailable_reason(); !why.empty()) {
    std::fprintf(stderr, "onepass-bench: %s: there is nothing to measure on this machine\n", why.c_str());
    return exit_no_gpu;
  }

  int failed = 0, errors = 0;
  try {
    std::setvbuf(stdout, nullptr, _IOLBF, 0);  // tables show as they finish, even in a pipe
    const device_info device = query_device();
    run_info info{"onepass-bench " + std::to_string(ONEPASS_VERSION_MAJOR) + "." + std::to_string(ONEPASS_VERSION_MINOR) +
                      "." + std::to_string(ONEPASS_VERSION_PATCH),
                  device.name, device.sm_count, device.cuda, utc_now(), command_line(argc, argv), o.warmup, o.iters};
    info.details = device.details;
    cudaStream_t stream = nullptr;
    ONEPASS_CUDA_TRY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    timer time(stream, o.warmup, o.iters, device.l2_bytes);
    info.l2_flush_bytes = time.flush_bytes();
    if (o.iters < 10) std::fprintf(stderr, "onepass-bench: note: fewer than 10 timed runs per case (--iters %d)\n", o.iters);

    int steps_total = 2;
    for (const auto& c : plan) steps_total += static_cast<int>(c.variants.size());
    progress steps(steps_total, o.quiet);

    const ceilings ceiling = measure_ceilings(time, ceiling_items, o.seed, steps);
    info.copy_gbps = ceiling.copy_gbps;
    info.read_gbps = ceiling.read_gbps;
    steps.done();
    for (const auto& line : header_lines(info)) std::printf("%s\n", line.c_str());
    std::printf("%s", format_tables(ceiling.records).c_str());
    std::vector<record> records = ceiling.records;

    bench_context ctx{time, steps, info.copy_gbps, info.read_gbps, o.seed};
    for (const auto& c : plan) {
      try {
        const std::vector<record> table = run_table(c, ctx);
        steps.done();
        std::printf("%s", format_tables(table).c_str());
        for (const auto& r : table) failed += r.verified ? 0 : 1;
        records.insert(records.end(), table.begin(), table.end());
      } catch (const std::exception& e) {
        steps.done();
        std::fprintf(stderr, "onepass-bench: %s: %s\n", c.table.c_str(), e.what());
        ++errors;
      }
    }
    ONEPASS_CUDA_TRY(cudaStreamDestroy(stream));

    if (!o.json_path.empty()) write_file(o.json_path, format_json(info, records));
    if (!o.markdown_path.empty()) write_file(o.markdown_path, format_markdown(info, records));
    std::printf("\nonepass-bench: %zu results, %d FAILED, %d tables not run\n", records.size(), failed, errors);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "\nonepass-bench: %s\n", e.what());
    return exit_failed;
  }
  return failed || errors ? exit_failed : exit_ok;
}
