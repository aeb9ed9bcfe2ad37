// onepass-bench's results: one record per (table, variant), and their three renderings:
// the aligned terminal table, Markdown, and JSON (schema "onepass-bench/1", documented in
// docs/bench.md). Host-only C++, tested in CI without a GPU.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace onepass::bench {

using param_value = std::variant<std::string, long long, double>;

struct timing {
  double median = 0, min = 0, max = 0;  // milliseconds
};

struct record {
  std::string primitive, variant, dtype;
  long long n = 0;
  // The case's other parameters, in order; "table" (the title) is always first.
  std::vector<std::pair<std::string, param_value>> params;
  bool verified = false;  // false: FAILED, the timing fields are meaningless (null in JSON)
  double ms_median = 0, ms_min = 0, ms_max = 0;
  double gbps = 0, pct_of_copy = 0, pct_of_read = 0, items_per_s = 0;

  const param_value* param(std::string_view key) const;
  std::string table() const;
};

// A verified record from its timing and minimum-traffic byte count, against the ceilings
// of the same run.
record timed_record(std::string primitive, std::string variant, std::string dtype, long long n,
                    std::vector<std::pair<std::string, param_value>> params, timing t, double bytes,
                    double copy_gbps, double read_gbps);

// A FAILED record; `error` goes into params.error.
record failed_record(std::string primitive, std::string variant, std::string dtype, long long n,
                     std::vector<std::pair<std::string, param_value>> params, std::string error);

struct run_info {
  std::string tool;     // "onepass-bench 0.1.0"
  std::string gpu;      // device name
  int sm_count = 0;
  std::string cuda;     // "runtime 13.0, driver 13.0"
  std::string date;     // ISO 8601, UTC
  std::string command;  // the command line
  int warmup = 0, iters = 0;
  long long l2_flush_bytes = 0;
  double copy_gbps = 0, read_gbps = 0;
  std::vector<std::string> details{};  // extra header lines (clocks, versions, ceilings)
};

// What the run was: tool, GPU, versions, method, ceilings, command; one line each.
std::vector<std::string> header_lines(const run_info& info);

// The aligned terminal tables, one per table title, in record order.
std::string format_tables(const std::vector<record>& records);
std::string format_markdown(const run_info& info, const std::vector<record>& records);
std::string format_json(const run_info& info, const std::vector<record>& records);

// Display helpers, shared with the progress line.
std::string format_ms(double ms);
std::string format_gbps(double gbps);
std::string format_pct(double pct);

// The current time as "2026-11-21T23:10:05Z".
std::string utc_now();

}  // namespace onepass::bench
