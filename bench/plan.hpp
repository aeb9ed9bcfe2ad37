// What onepass-bench can run (the catalogue) and what one invocation will run (the plan):
// the tables, each a list of variants with the size each runs at. Host-only C++, tested
// in CI without a GPU; main.cu builds the catalogue from the library's registries.
#pragma once

#include <string>
#include <vector>

#include "cli.hpp"

namespace onepass::bench {

struct variant_desc {
  std::string id{};
  std::string summary{};
  double passes = 1.0;          // passes over device memory (1 = read once, write once)
  long long max_items = -1;     // the variant rejects larger n; -1: any n
  long long bench_items = -1;   // the bench times it at most at this n; -1: any n
  std::string limit_reason{};   // why it runs at its own size, e.g. "one block"
  bool batched = false;         // has a batched form (one block per array)
  // The ways the variant is called that a table times, one row each ("flags", "offsets",
  // "by key" for the segmented scan); none: one row, the variant itself.
  std::vector<std::string> forms{};
};

// A variant without a hard size limit that would take seconds or minutes at the seed
// sizes: the bench times it at most at `items`, and the row says why.
struct practical_limit {
  const char* id;
  long long items;
  const char* reason;
};

// Sets bench_items and limit_reason of the variants `limits` names.
void apply_practical_limits(std::vector<variant_desc>& variants, const std::vector<practical_limit>& limits);

struct primitive_desc {
  std::string name;
  std::string summary{};
  std::vector<std::string> dtypes;
  std::vector<variant_desc> variants;
  std::vector<std::string> ops{};    // what --op may choose (the first is the default); none: no operator
  std::vector<std::string> kinds{};  // what --kind may choose (likewise); none: no kind
  long long default_n = 1ll << 28;   // --n when not given (rmsnorm: the row width)
  std::vector<std::string> dists{};  // what --dist may choose (the first is the default); none: no distribution
  long long default_bins = 0;        // --bins when not given; 0: the primitive has no bins
  int default_keep = -1;             // --keep (percent) when not given; -1: no kept fraction
  long long default_runs = 0;        // --runs when not given; 0: the primitive has no runs
  std::vector<std::string> values{};  // what --values may choose (the first is the default); none: no values axis
  std::vector<std::string> orders{};  // what --order may choose (likewise); none: no order axis
};

using catalogue = std::vector<primitive_desc>;

struct planned_variant {
  std::string id{};
  long long n = 0;   // the size it runs at: the table's, or its own when smaller
  double passes = 1.0;
  std::string note;  // why n differs from the table's; empty otherwise
};

// One table: one primitive, element type and parameter set, several variants.
struct bench_case {
  std::string table;  // title, also params.table in the JSON
  std::string primitive;
  std::string dtype;
  long long n = 0;    // items (per array when batch > 0)
  std::string op = "sum";
  std::string kind = "inclusive";
  long long batch = 0;  // > 0: `batch` independent arrays of n items, one block each
  std::string dist;     // histogram, radix_sort, segmented_scan: the distribution; "" for others
  long long bins = 0;   // the histogram's bin count; 0 for other primitives
  int keep = -1;        // select and partition: percent of the items kept; -1 for others
  long long runs = 0;   // unique: items per run of equal values; 0 for other primitives
  std::vector<planned_variant> variants;
  std::string values{};  // radix_sort: "none", "u32" or "u64"; "" for other primitives
  std::string order{};   // radix_sort: "ascending" or "descending"; "" for other primitives
};

// The tables to run for `o`: the preset's (filtered by --primitive/--variant/--dtype), or
// every selected primitive x dtype x size x bins x dist x keep x runs x op x kind x values
// x order.
// Unknown names are usage errors.
std::vector<bench_case> make_plan(const options& o, const catalogue& c);

// "scan: int32, 2^28 items, inclusive sum"
std::string scan_title(const std::string& dtype, long long n, const std::string& op,
                       const std::string& kind);
// "reduce: float, 2^30 items, sum"
std::string reduce_title(const std::string& dtype, long long n, const std::string& op);
// "histogram: uint8, 2^30 samples, 256 bins, uniform"
std::string histogram_title(const std::string& dtype, long long n, long long bins, const std::string& dist);
// "select: int32, 2^28 items, 50% kept"
std::string select_title(const std::string& dtype, long long n, int keep);
// "unique: int32, 2^28 items, runs of 4"
std::string unique_title(const std::string& dtype, long long n, long long runs);
// "partition: int32, 2^28 items, 50% kept"
std::string partition_title(const std::string& dtype, long long n, int keep);
// "radix_sort: uint32, 2^28 keys, random, ascending";
// "radix_sort: uint32 + u32 values, 2^28 pairs, random, ascending"
std::string radix_sort_title(const std::string& dtype, long long n, const std::string& values,
                             const std::string& dist, const std::string& order);
// "segmented_scan: int32, 2^28 items, inclusive sum, power_law"
std::string segmented_scan_title(const std::string& dtype, long long n, const std::string& op,
                                 const std::string& kind, const std::string& dist);
// "atomics: 2^20 atomicAdd on uint32 counters"
std::string atomics_title(const std::string& dtype, long long ops);
// "rmsnorm: float, 4096 rows x 4096 items"
std::string rms_norm_title(const std::string& dtype, long long rows, long long width);

// Rows of an rmsnorm table whose width alone was asked for (--n): 2^24 items in all.
long long rms_norm_default_rows(long long width);

// The text --list prints.
std::string format_list(const catalogue& c);

}  // namespace onepass::bench
