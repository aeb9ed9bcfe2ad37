// onepass-bench's command line: flags to options, sizes like "2^28", and the usage text.
// Host-only C++ (no CUDA), so CI tests it without a GPU.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace onepass::bench {

// A bad command line. main() prints it with the usage text and exits with exit_usage.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Exit codes, documented in the usage text.
constexpr int exit_ok = 0;
constexpr int exit_failed = 1;   // a result FAILED verification, or a runtime error
constexpr int exit_no_gpu = 2;   // no usable CUDA device
constexpr int exit_usage = 64;   // bad command line (sysexits' EX_USAGE)

struct options {
  bool help = false;
  bool list = false;
  std::string preset;                    // "" or a preset name ("seeds")
  std::vector<std::string> primitives;   // empty: every primitive (or the preset's)
  std::vector<std::string> variants;     // empty: every variant of each primitive
  std::vector<std::string> dtypes;       // empty: int32
  std::vector<long long> sizes;          // empty: 2^28
  std::vector<std::string> ops;          // empty: sum
  std::vector<std::string> kinds;        // empty: inclusive
  std::vector<std::string> dists;        // empty: the primitive's default (histogram: uniform)
  std::vector<long long> bins;           // empty: the primitive's default (histogram: 256)
  std::vector<int> keeps;                // empty: the primitive's default (select, partition: 50 percent)
  std::vector<long long> runs;           // empty: the primitive's default (unique: runs of 4)
  std::vector<std::string> values;       // empty: the primitive's default (radix_sort: none, keys alone)
  std::vector<std::string> orders;       // empty: the primitive's default (radix_sort: ascending)
  int iters = 20;                        // timed runs per case
  int warmup = 3;                        // untimed runs first
  std::uint64_t seed = 20261121;         // random inputs are a function of the seed
  std::string json_path, markdown_path;  // "" = do not write
  bool quiet = false;                    // no progress line on stderr
};

// "268435456", "2^28", "2^28+1", "2^30-7", "64M" (K, M, G, T are powers of 1024).
// Throws usage_error naming `flag` for anything else, for values < 1 and on overflow.
long long parse_count(std::string_view text, std::string_view flag = "--n");

// The inverse for display: "2^28", "2^28+1", or the plain number.
std::string format_count(long long n);

// argv[0] is the program name. Names (primitives, variants, dtypes, ...) are checked
// later against the catalogue (plan.hpp): the parser only knows the flags.
options parse_args(int argc, const char* const* argv);

std::string usage_text();

}  // namespace onepass::bench
