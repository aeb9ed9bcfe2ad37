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
  const char* title;
  const char* primitive;
  const char* dtype;
  long long n;
  const char* op;
  const char* kind;
  long long batch;
};

// The seed material's tables. Each later primitive adds its own here.
constexpr preset_table seeds[] = {
    {"scan: int32, 2^30 items, inclusive sum", "scan", "int32", 1ll << 30, "sum", "inclusive", 0},
    {"scan: float, 64M items, exclusive sum", "scan", "float", 1ll << 26, "sum", "exclusive", 0},
    {"scan: float, 16M items, inclusive sum", "scan", "float", 1ll << 24, "sum", "inclusive", 0},
    // Single-block algorithms compared at equal work: 2^16 blocks of 1024 items in one
    // launch, so the time per block is not hidden under the launch latency.
    {"scan: single block, int32, 1024 items per block, inclusive sum", "scan", "int32", 1024,
     "sum", "inclusive", 1ll << 16},
};

}  // namespace

std::string scan_title(const std::string& dtype, long long n, const std::string& op,
                       const std::string& kind) {
  return "scan: " + dtype + ", " + format_count(n) + " items, " + kind + " " + op;
}

std::vector<bench_case> make_plan(const options& o, const catalogue& c) {
  std::vector<std::string> primitive_names, variant_ids, dtypes;
  for (const auto& p : c) {
    primitive_names.push_back(p.name);
    for (const auto& v : p.variants)
      if (!contains(variant_ids, v.id)) variant_ids.push_back(v.id);
    for (const auto& d : p.dtypes)
      if (!contains(dtypes, d)) dtypes.push_back(d);
  }
  check_names("--primitive", o.primitives, primitive_names);
  check_names("--variant", o.variants, variant_ids);
  check_names("--dtype", o.dtypes, dtypes);
  check_names("--op", o.ops, {"sum", "max"});
  check_names("--kind", o.kinds, {"inclusive", "exclusive"});

  auto find_primitive = [&](const std::string& name) -> const primitive_desc& {
    for (const auto& p : c)
      if (p.name == name) return p;
    throw usage_error("no primitive '" + name + "'");
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
      bench_case bc{t.title, t.primitive, t.dtype, t.n, t.op, t.kind, t.batch, {}};
      bc.variants = variants_of(find_primitive(t.primitive), t.n, t.batch > 0);
      if (!bc.variants.empty()) plan.push_back(std::move(bc));
    }
    return plan;
  }

  const std::vector<long long> sizes = o.sizes.empty() ? std::vector<long long>{1ll << 28} : o.sizes;
  const auto or_default = [](const std::vector<std::string>& v, const char* d) {
    return v.empty() ? std::vector<std::string>{d} : v;
  };
  for (const auto& p : c) {
    if (!o.primitives.empty() && !contains(o.primitives, p.name)) continue;
    if (p.variants.empty() || p.name == "baseline") continue;  // the ceilings always run
    for (const auto& dtype : or_default(o.dtypes, "int32")) {
      if (!contains(p.dtypes, dtype))
        throw usage_error("--dtype: " + p.name + " does not take '" + dtype + "' (it takes " +
                          joined(p.dtypes) + ")");
      for (long long n : sizes)
        for (const auto& op : or_default(o.ops, "sum"))
          for (const auto& kind : or_default(o.kinds, "inclusive")) {
            bench_case bc{scan_title(dtype, n, op, kind), p.name, dtype, n, op, kind, 0, {}};
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
    std::size_t width = 0;
    for (const auto& v : p.variants) width = std::max(width, v.id.size());
    for (const auto& v : p.variants) {
      os << "  " << v.id << std::string(width - v.id.size() + 2, ' ') << v.summary;
      std::vector<std::string> facts;
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
