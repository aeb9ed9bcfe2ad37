#include "plan.hpp"

#include <algorithm>
#include <sstream>

namespace onepass::bench {
namespace {

bool contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// Every name in `asked` must be one of `known`.
void check_names(const char* flag, const std::vector<std::string>& asked,
                 const std::vector<std::string>& known) {
  for (const auto& a : asked)
    if (!contains(known, a))
      throw usage_error(std::string(flag) + ": '" + a + "' is not known (known: " + joined(known) + ")");
}

// The variant at the case's size, or at its own when it cannot (or should not) take it.
planned_variant plan_variant(const variant_desc& v, long long n) {
  planned_variant p{v.id, n, v.passes, ""};
  long long limit = v.max_items;
  if (v.bench_items >= 0 && (limit < 0 || v.bench_items < limit)) limit = v.bench_items;
  if (limit >= 0 && n > limit) {
    p.n = limit;
    p.note = "at its own size, " + format_count(limit) + " items: " + v.limit_reason;
  }
  return p;
}

struct preset_table {
  const char* title;  // nullptr: the title the primitive's custom tables get
  const char* primitive;
  const char* dtype;
  long long n;
  const char* op;
  const char* kind;
  long long batch;
  const char* dist = "";  // histogram, radix_sort and segmented_scan only
  long long bins = 0;     // histograms only
  int keep = -1;          // select and partition only
  long long runs = 0;     // unique only
  const char* values = "";  // radix_sort only
  const char* order = "";   // radix_sort only
};

// The seed material's tables. Each later primitive adds its own here.
constexpr preset_table seeds[] = {
    {"scan: int32, 2^30 items, inclusive sum", "scan", "int32", 1ll << 30, "sum", "inclusive", 0},
    // The segmented scan's yardstick: the plain scan at the segmented tables' size and type.
    {nullptr, "scan", "int32", 1ll << 28, "sum", "inclusive", 0},
    {"scan: float, 64M items, exclusive sum", "scan", "float", 1ll << 26, "sum", "exclusive", 0},
    {"scan: float, 16M items, inclusive sum", "scan", "float", 1ll << 24, "sum", "inclusive", 0},
    // Single-block algorithms compared at equal work: 2^16 blocks of 1024 items in one
    // launch, so the time per block is not hidden under the launch latency.
    {"scan: single block, int32, 1024 items per block, inclusive sum", "scan", "int32", 1024,
     "sum", "inclusive", 1ll << 16},
    {nullptr, "reduce", "int32", 1ll << 30, "sum", "", 0},
    {nullptr, "reduce", "float", 1ll << 30, "sum", "", 0},
    {nullptr, "reduce", "int32", 1ll << 20, "sum", "", 0},
    // The published contention table: 1M atomicAdd over 1 ... 1M distinct addresses.
    {nullptr, "atomics", "uint32", 1ll << 20, "", "", 0},
    {nullptr, "rmsnorm", "float", 4096, "", "", 4096},
    {nullptr, "rmsnorm", "bfloat16", 4096, "", "", 4096},
    // Histograms: 256 bins of uint8 (images) and 4096 of uint32, each on the four sample
    // distributions, since the point is speed whatever the data; then the published
    // 10M-sample 256-bin table.
    {nullptr, "histogram", "uint8", 1ll << 30, "", "", 0, "uniform", 256},
    {nullptr, "histogram", "uint8", 1ll << 30, "", "", 0, "skewed", 256},
    {nullptr, "histogram", "uint8", 1ll << 30, "", "", 0, "one_bin", 256},
    {nullptr, "histogram", "uint8", 1ll << 30, "", "", 0, "sorted", 256},
    {nullptr, "histogram", "uint32", 1ll << 30, "", "", 0, "uniform", 4096},
    {nullptr, "histogram", "uint32", 1ll << 30, "", "", 0, "skewed", 4096},
    {nullptr, "histogram", "uint32", 1ll << 30, "", "", 0, "one_bin", 4096},
    {nullptr, "histogram", "uint32", 1ll << 30, "", "", 0, "sorted", 4096},
    {"histogram: uint8, 10M samples, 256 bins, uniform", "histogram", "uint8", 10ll << 20, "", "", 0, "uniform", 256},
    // Beside the peers' torch.bincount (int32) and torch.histc (float) tables.
    {nullptr, "histogram", "int32", 1ll << 30, "", "", 0, "uniform", 256},
    {nullptr, "histogram", "float", 1ll << 30, "", "", 0, "uniform", 256},
    // Stream compaction: select across the kept fraction (almost nothing, half, almost
    // everything), unique from all-distinct to long runs, partition at half.
    {nullptr, "select", "int32", 1ll << 28, "", "", 0, "", 0, 1},
    {nullptr, "select", "int32", 1ll << 28, "", "", 0, "", 0, 50},
    {nullptr, "select", "int32", 1ll << 28, "", "", 0, "", 0, 99},
    {nullptr, "unique", "int32", 1ll << 28, "", "", 0, "", 0, -1, 1},
    {nullptr, "unique", "int32", 1ll << 28, "", "", 0, "", 0, -1, 4},
    {nullptr, "unique", "int32", 1ll << 28, "", "", 0, "", 0, -1, 1000},
    {nullptr, "partition", "int32", 1ll << 28, "", "", 0, "", 0, 50},
    // Radix sort: the three measurements of issue 8 (uint32 keys and uint32 pairs at 2^28,
    // uint64 keys at 2^27, random keys), then uint32 keys on the other distributions,
    // where a sort must not fall behind.
    {nullptr, "radix_sort", "uint32", 1ll << 28, "", "", 0, "random", 0, -1, 0, "none", "ascending"},
    {nullptr, "radix_sort", "uint32", 1ll << 28, "", "", 0, "random", 0, -1, 0, "u32", "ascending"},
    {nullptr, "radix_sort", "uint64", 1ll << 27, "", "", 0, "random", 0, -1, 0, "none", "ascending"},
    {nullptr, "radix_sort", "uint32", 1ll << 28, "", "", 0, "low_entropy", 0, -1, 0, "none", "ascending"},
    {nullptr, "radix_sort", "uint32", 1ll << 28, "", "", 0, "all_equal", 0, -1, 0, "none", "ascending"},
    {nullptr, "radix_sort", "uint32", 1ll << 28, "", "", 0, "sorted", 0, -1, 0, "none", "ascending"},
    {nullptr, "radix_sort", "uint32", 1ll << 28, "", "", 0, "reverse", 0, -1, 0, "none", "ascending"},
    {nullptr, "radix_sort", "uint32", 1ll << 28, "", "", 0, "range16", 0, -1, 0, "none", "ascending"},
    // Beside the peers' torch.sort and cupy.sort tables (signed keys).
    {nullptr, "radix_sort", "int32", 1ll << 28, "", "", 0, "random", 0, -1, 0, "none", "ascending"},
    {nullptr, "radix_sort", "int64", 1ll << 27, "", "", 0, "random", 0, -1, 0, "none", "ascending"},
    // Segmented scan: int32 at 2^28 on every segment distribution, from one-item segments
    // to one segment of the whole array, each beside the plain scan of the same array
    // ("scan: int32, 2^28 items, inclusive sum" above).
    {nullptr, "segmented_scan", "int32", 1ll << 28, "sum", "inclusive", 0, "all_1"},
    {nullptr, "segmented_scan", "int32", 1ll << 28, "sum", "inclusive", 0, "all_32"},
    {nullptr, "segmented_scan", "int32", 1ll << 28, "sum", "inclusive", 0, "uniform_1_1000"},
    {nullptr, "segmented_scan", "int32", 1ll << 28, "sum", "inclusive", 0, "power_law"},
    {nullptr, "segmented_scan", "int32", 1ll << 28, "sum", "inclusive", 0, "one_segment"},
    {nullptr, "segmented_scan", "int32", 1ll << 28, "sum", "inclusive", 0, "with_empty"},
};

// The title of a table without a name of its own: the one its primitive's *_title gives.
std::string case_title(const bench_case& c) {
  const std::string& dtype = c.dtype;
  const long long n = c.n;
  if (c.primitive == "reduce") return reduce_title(dtype, n, c.op);
  if (c.primitive == "histogram") return histogram_title(dtype, n, c.bins, c.dist);
  if (c.primitive == "select") return select_title(dtype, n, c.keep);
  if (c.primitive == "unique") return unique_title(dtype, n, c.runs);
  if (c.primitive == "partition") return partition_title(dtype, n, c.keep);
  if (c.primitive == "radix_sort") return radix_sort_title(dtype, n, c.values, c.dist, c.order);
  if (c.primitive == "segmented_scan") return segmented_scan_title(dtype, n, c.op, c.kind, c.dist);
  if (c.primitive == "atomics") return atomics_title(dtype, n);
  if (c.primitive == "rmsnorm") return rms_norm_title(dtype, c.batch, n);
  return scan_title(dtype, n, c.op, c.kind);
}

}  // namespace

std::string scan_title(const std::string& dtype, long long n, const std::string& op,
                       const std::string& kind) {
  return "scan: " + dtype + ", " + format_count(n) + " items, " + kind + " " + op;
}

void apply_practical_limits(std::vector<variant_desc>& variants, const std::vector<practical_limit>& limits) {
  for (auto& v : variants)
    for (const auto& l : limits)
      if (v.id == l.id) {
        v.bench_items = l.items;
        v.limit_reason = l.reason;
      }
}

std::string reduce_title(const std::string& dtype, long long n, const std::string& op) {
  return "reduce: " + dtype + ", " + format_count(n) + " items, " + op;
}

std::string histogram_title(const std::string& dtype, long long n, long long bins, const std::string& dist) {
  return "histogram: " + dtype + ", " + format_count(n) + " samples, " + std::to_string(bins) + " bins, " + dist;
}

std::string select_title(const std::string& dtype, long long n, int keep) {
  return "select: " + dtype + ", " + format_count(n) + " items, " + std::to_string(keep) + "% kept";
}

std::string unique_title(const std::string& dtype, long long n, long long runs) {
  return "unique: " + dtype + ", " + format_count(n) + " items, runs of " + std::to_string(runs);
}

std::string partition_title(const std::string& dtype, long long n, int keep) {
  return "partition: " + dtype + ", " + format_count(n) + " items, " + std::to_string(keep) + "% kept";
}

std::string radix_sort_title(const std::string& dtype, long long n, const std::string& values,
                             const std::string& dist, const std::string& order) {
  const bool pairs = !values.empty() && values != "none";
  return "radix_sort: " + dtype + (pairs ? " + " + values + " values, " : ", ") + format_count(n) +
         (pairs ? " pairs, " : " keys, ") + dist + ", " + order;
}

std::string segmented_scan_title(const std::string& dtype, long long n, const std::string& op,
                                 const std::string& kind, const std::string& dist) {
  return "segmented_scan: " + dtype + ", " + format_count(n) + " items, " + kind + " " + op + ", " + dist;
}

std::string atomics_title(const std::string& dtype, long long ops) {
  return "atomics: " + format_count(ops) + " atomicAdd on " + dtype + " counters";
}

std::string rms_norm_title(const std::string& dtype, long long rows, long long width) {
  return "rmsnorm: " + dtype + ", " + std::to_string(rows) + " rows x " + std::to_string(width) + " items";
}

long long rms_norm_default_rows(long long width) { return std::max(1ll, (1ll << 24) / width); }

std::vector<bench_case> make_plan(const options& o, const catalogue& c) {
  std::vector<std::string> primitive_names, variant_ids, dtypes, ops, kinds, dists, values, orders;
  // The primitives that have these axes.
  std::vector<std::string> with_dists, with_bins, with_keep, with_runs, with_values, with_orders;
  auto add_new = [](std::vector<std::string>& to, const std::vector<std::string>& from) {
    for (const auto& x : from)
      if (!contains(to, x)) to.push_back(x);
  };
  for (const auto& p : c) {
    primitive_names.push_back(p.name);
    for (const auto& v : p.variants)
      if (!contains(variant_ids, v.id)) variant_ids.push_back(v.id);
    add_new(dtypes, p.dtypes);
    add_new(ops, p.ops);
    add_new(kinds, p.kinds);
    add_new(dists, p.dists);
    add_new(values, p.values);
    add_new(orders, p.orders);
    if (!p.dists.empty()) with_dists.push_back(p.name);
    if (p.default_bins > 0) with_bins.push_back(p.name);
    if (p.default_keep >= 0) with_keep.push_back(p.name);
    if (p.default_runs > 0) with_runs.push_back(p.name);
    if (!p.values.empty()) with_values.push_back(p.name);
    if (!p.orders.empty()) with_orders.push_back(p.name);
  }
  check_names("--primitive", o.primitives, primitive_names);
  check_names("--variant", o.variants, variant_ids);
  check_names("--dtype", o.dtypes, dtypes);
  check_names("--op", o.ops, ops);
  check_names("--kind", o.kinds, kinds);
  if (!o.dists.empty() && with_dists.empty()) throw usage_error("--dist: no primitive has a sample distribution");
  check_names("--dist", o.dists, dists);
  if (!o.bins.empty() && with_bins.empty()) throw usage_error("--bins: no primitive has bins");
  if (!o.keeps.empty() && with_keep.empty()) throw usage_error("--keep: no primitive keeps a fraction of its items");
  if (!o.runs.empty() && with_runs.empty()) throw usage_error("--runs: no primitive has runs");
  if (!o.values.empty() && with_values.empty()) throw usage_error("--values: no primitive sorts values");
  check_names("--values", o.values, values);
  if (!o.orders.empty() && with_orders.empty()) throw usage_error("--order: no primitive has a sort order");
  check_names("--order", o.orders, orders);

  auto find_primitive = [&](const std::string& name) -> const primitive_desc* {
    for (const auto& p : c)
      if (p.name == name) return &p;
    return nullptr;
  };
  // The variants of `p` the filters keep, at size n; batched-only tables keep batched ones.
  auto variants_of = [&](const primitive_desc& p, long long n, bool batched_only) {
    std::vector<planned_variant> out;
    for (const auto& v : p.variants) {
      if (!o.variants.empty() && !contains(o.variants, v.id)) continue;
      if (batched_only && !v.batched) continue;
      out.push_back(plan_variant(v, n));
    }
    return out;
  };

  std::vector<bench_case> plan;
  if (!o.preset.empty()) {  // "seeds", checked by the parser
    for (const auto& t : seeds) {
      if (!o.primitives.empty() && !contains(o.primitives, t.primitive)) continue;
      if (!o.dtypes.empty() && !contains(o.dtypes, t.dtype)) continue;
      // A catalogue without the primitive (the tests' smaller ones) has no tables of it.
      const primitive_desc* p = find_primitive(t.primitive);
      if (p == nullptr) continue;
      bench_case bc{"", t.primitive, t.dtype, t.n, t.op, t.kind, t.batch, t.dist, t.bins, t.keep, t.runs, {}};
      bc.values = t.values;
      bc.order = t.order;
      bc.table = t.title ? t.title : case_title(bc);
      // Only scan's batched tables are one-block comparisons; rmsnorm's rows are its batch.
      bc.variants = variants_of(*p, t.n, t.batch > 0 && std::string(t.primitive) == "scan");
      if (!bc.variants.empty()) plan.push_back(std::move(bc));
    }
    return plan;
  }

  for (const auto& p : c) {
    if (!o.primitives.empty() && !contains(o.primitives, p.name)) continue;
    if (p.variants.empty() || p.name == "baseline") continue;  // the ceilings always run
    // An axis the primitive does not have is one empty value; on an axis it has, the
    // values asked for must be ones it takes.
    // A primitive named with --primitive must take every value asked for; without
    // --primitive, each primitive runs with the values it takes (none: it is skipped).
    const bool named = !o.primitives.empty();
    auto axis = [&](const char* flag, const std::vector<std::string>& asked, const std::vector<std::string>& takes) {
      std::vector<std::string> values;
      if (takes.empty()) return std::vector<std::string>{""};
      if (asked.empty()) return std::vector<std::string>{takes.front()};
      for (const auto& a : asked) {
        if (contains(takes, a)) {
          values.push_back(a);
        } else if (named) {
          throw usage_error(std::string(flag) + ": " + p.name + " does not take '" + a + "' (it takes " +
                            joined(takes) + ")");
        }
      }
      return values;
    };
    // A named primitive without the axis a flag sets (--dist, --bins, --keep, --runs) is a
    // mistake in the command line: say so rather than run it as if the flag were absent.
    if (named && !o.dists.empty() && p.dists.empty())
      throw usage_error("--dist: " + p.name + " has no sample distribution (--dist is for: " + joined(with_dists) +
                        ")");
    if (named && !o.bins.empty() && p.default_bins == 0)
      throw usage_error("--bins: " + p.name + " has no bins (--bins is for: " + joined(with_bins) + ")");
    if (named && !o.keeps.empty() && p.default_keep < 0)
      throw usage_error("--keep: " + p.name + " keeps no fraction of its items (--keep is for: " + joined(with_keep) +
                        ")");
    if (named && !o.runs.empty() && p.default_runs == 0)
      throw usage_error("--runs: " + p.name + " has no runs (--runs is for: " + joined(with_runs) + ")");
    if (named && !o.values.empty() && p.values.empty())
      throw usage_error("--values: " + p.name + " sorts no values (--values is for: " + joined(with_values) + ")");
    if (named && !o.orders.empty() && p.orders.empty())
      throw usage_error("--order: " + p.name + " has no sort order (--order is for: " + joined(with_orders) + ")");
    const std::vector<std::string> p_ops = axis("--op", o.ops, p.ops);
    const std::vector<std::string> p_kinds = axis("--kind", o.kinds, p.kinds);
    const std::vector<std::string> p_dtypes = axis("--dtype", o.dtypes, p.dtypes);
    const std::vector<std::string> p_dists = axis("--dist", o.dists, p.dists);
    const std::vector<std::string> p_values = axis("--values", o.values, p.values);
    const std::vector<std::string> p_orders = axis("--order", o.orders, p.orders);
    const std::vector<long long> sizes = o.sizes.empty() ? std::vector<long long>{p.default_n} : o.sizes;
    const std::vector<long long> p_bins = p.default_bins == 0 ? std::vector<long long>{0}
                                          : o.bins.empty()    ? std::vector<long long>{p.default_bins}
                                                              : o.bins;
    const std::vector<int> p_keeps = p.default_keep < 0 ? std::vector<int>{-1}
                                     : o.keeps.empty()  ? std::vector<int>{p.default_keep}
                                                        : o.keeps;
    const std::vector<long long> p_runs = p.default_runs == 0 ? std::vector<long long>{0}
                                          : o.runs.empty()    ? std::vector<long long>{p.default_runs}
                                                              : o.runs;
    for (const auto& dtype : p_dtypes) {
      for (long long n : sizes)
        for (long long bins : p_bins)
          for (const auto& dist : p_dists)
            for (int keep : p_keeps)
              for (long long runs : p_runs)
                for (const auto& op : p_ops)
                  for (const auto& kind : p_kinds)
                    for (const auto& value : p_values)
                      for (const auto& order : p_orders) {
                        const long long batch = p.name == "rmsnorm" ? rms_norm_default_rows(n) : 0;
                        bench_case bc{"", p.name, dtype, n, op, kind, batch, dist, bins, keep, runs, {}};
                        bc.values = value;
                        bc.order = order;
                        bc.table = case_title(bc);
                        bc.variants = variants_of(p, n, false);
                        if (!bc.variants.empty()) plan.push_back(std::move(bc));
                      }
    }
  }
  return plan;
}

std::string format_list(const catalogue& c) {
  std::ostringstream os;
  for (const auto& p : c) {
    os << p.name << " - " << p.summary << "\n";
    if (!p.dtypes.empty()) os << "  dtypes: " << joined(p.dtypes) << "\n";
    if (!p.dists.empty()) os << "  dists: " << joined(p.dists) << " (--dist; default " << p.dists.front() << ")\n";
    if (p.default_bins > 0) os << "  bins: any from 1 (--bins; default " << p.default_bins << ")\n";
    if (p.default_keep >= 0) os << "  keep: 0 to 100 percent (--keep; default " << p.default_keep << ")\n";
    if (p.default_runs > 0) os << "  runs: any length from 1 (--runs; default " << p.default_runs << ")\n";
    if (!p.values.empty()) os << "  values: " << joined(p.values) << " (--values; default " << p.values.front() << ")\n";
    if (!p.orders.empty()) os << "  orders: " << joined(p.orders) << " (--order; default " << p.orders.front() << ")\n";
    std::size_t width = 0;
    for (const auto& v : p.variants) width = std::max(width, v.id.size());
    for (const auto& v : p.variants) {
      os << "  " << v.id << std::string(width - v.id.size() + 2, ' ') << v.summary;
      std::vector<std::string> facts;
      if (!v.forms.empty()) facts.push_back("forms: " + joined(v.forms));
      // Multi-block variants' limits (from their tile counters) are far beyond memory.
      if (v.max_items >= 0 && v.max_items < (1ll << 31)) facts.push_back("at most " + format_count(v.max_items) + " items");
      if (v.bench_items >= 0) facts.push_back("timed at up to " + format_count(v.bench_items) + " items");
      if (v.batched) facts.push_back("batched form");
      if (v.passes != 1.0) {
        std::ostringstream passes;
        passes << v.passes << " passes";
        facts.push_back(passes.str());
      }
      if (!facts.empty()) os << " [" << joined(facts) << "]";
      os << "\n";
    }
  }
  return os.str();
}

}  // namespace onepass::bench
