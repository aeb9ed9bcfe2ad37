// onepass-bench's command line and plan, without a GPU: sizes, flags, filters, presets,
// and the errors a user gets for a bad command line.
#include <gtest/gtest.h>

#include <algorithm>

#include "cli.hpp"
#include "plan.hpp"

namespace onepass::bench {
namespace {

options parse(std::vector<const char*> args) {
  args.insert(args.begin(), "onepass-bench");
  return parse_args(static_cast<int>(args.size()), args.data());
}

// Expects a usage_error whose message contains `fragment`.
template <class F>
void expect_usage_error(F&& f, const std::string& fragment) {
  try {
    f();
    ADD_FAILURE() << "expected a usage_error containing '" << fragment << "'";
  } catch (const usage_error& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

// A small catalogue shaped like the real one (which needs the CUDA registry).
catalogue test_catalogue() {
  primitive_desc baseline{"baseline", "ceilings", {"int32"}, {{"copy", "copy"}, {"read", "read"}}};
  primitive_desc scan{"scan", "prefix scan", {"int32", "float", "int64"}, {}, {"sum", "max"}, {"inclusive", "exclusive"}};
  scan.variants.push_back({"sequential", "one thread", 1.0, -1, 1 << 16, "one thread walks the array"});
  scan.variants.push_back({"hillis_steele", "one block", 1.0, 1024, -1, "one block", true});
  scan.variants.push_back({"blelloch", "one block", 1.0, 2048, -1, "one block", true});
  scan.variants.push_back({"three_pass_smem", "three passes", 2.0});
  scan.variants.push_back({"onepass", "production"});
  scan.variants.push_back({"cub", "CUB"});
  primitive_desc reduce{"reduce", "reduction", {"int32", "float"}, {}, {"sum", "max"}, {}};
  reduce.variants.push_back({"atomic_global", "one atomic per item", 1.0, -1, 1 << 24, "one address"});
  reduce.variants.push_back({"onepass", "production"});
  reduce.variants.push_back({"cub", "CUB"});
  primitive_desc atomics{"atomics", "contention", {"uint32"}, {{"addresses_1", "one"}, {"addresses_32", "32"}}, {}, {},
                         1 << 20};
  primitive_desc rmsnorm{"rmsnorm", "RMSNorm", {"float", "bfloat16"}, {{"onepass", "fused"}}, {}, {}, 4096};
  primitive_desc histogram{"histogram", "even bins", {"uint8", "uint16", "int32", "uint32", "float"}, {}, {}, {},
                           1ll << 30, {"uniform", "skewed", "one_bin", "sorted"}, 256};
  histogram.variants.push_back({"global_atomic", "one atomic per sample", 1.0, -1, 1 << 26, "one address"});
  histogram.variants.push_back({"block_private", "per block"});
  histogram.variants.push_back({"warp_private", "per warp"});
  histogram.variants.push_back({"onepass", "production"});
  histogram.variants.push_back({"cub", "CUB"});
  return {baseline, scan, reduce, atomics, rmsnorm, histogram};
}

// The catalogue as it was before the histogram: no primitive has --dist or --bins.
catalogue catalogue_without_histogram() {
  catalogue c = test_catalogue();
  c.pop_back();
  return c;
}

std::vector<std::string> ids(const bench_case& c) {
  std::vector<std::string> out;
  for (const auto& v : c.variants) out.push_back(v.id);
  return out;
}

TEST(BenchCount, AcceptsPlainPowersOffsetsAndSuffixes) {
  EXPECT_EQ(parse_count("1"), 1);
  EXPECT_EQ(parse_count("1000000"), 1000000);
  EXPECT_EQ(parse_count("2^28"), 1ll << 28);
  EXPECT_EQ(parse_count("2^30+1"), (1ll << 30) + 1);
  EXPECT_EQ(parse_count("2^30-7"), (1ll << 30) - 7);
  EXPECT_EQ(parse_count("2^62"), 1ll << 62);
  EXPECT_EQ(parse_count("3^4"), 81);
  EXPECT_EQ(parse_count("64M"), 64ll << 20);
  EXPECT_EQ(parse_count("16m"), 16ll << 20);
  EXPECT_EQ(parse_count("4K"), 4096);
  EXPECT_EQ(parse_count("2G"), 2ll << 30);
  EXPECT_EQ(parse_count("9223372036854775807"), 9223372036854775807ll);  // 64-bit sizes
}

TEST(BenchCount, RejectsWithTheFlagAndTheText) {
  expect_usage_error([] { parse_count("0"); }, "at least 1");
  expect_usage_error([] { parse_count("2^0-1"); }, "at least 1");
  expect_usage_error([] { parse_count("-5"); }, "'-5' is not a count");
  expect_usage_error([] { parse_count("abc", "--n"); }, "--n: 'abc'");
  expect_usage_error([] { parse_count(""); }, "is not a count");
  expect_usage_error([] { parse_count("2^"); }, "is not a count");
  expect_usage_error([] { parse_count("1e6"); }, "is not a count");
  expect_usage_error([] { parse_count("2^63"); }, "64 bits");
  expect_usage_error([] { parse_count("2^62+2^62"); }, "is not a count");
  expect_usage_error([] { parse_count("9223372036854775808"); }, "64 bits");
  expect_usage_error([] { parse_count("9000000T"); }, "64 bits");
}

TEST(BenchCount, FormatsPowersOfTwoAndNearNeighbours) {
  EXPECT_EQ(format_count(1ll << 30), "2^30");
  EXPECT_EQ(format_count((1ll << 28) + 1), "2^28+1");
  EXPECT_EQ(format_count((1ll << 28) - 7), "2^28-7");
  EXPECT_EQ(format_count(1000000), "1000000");
  EXPECT_EQ(format_count(33), "33");
  EXPECT_EQ(format_count(1024), "2^10");
  EXPECT_EQ(format_count(1000), "1000");
  EXPECT_EQ(format_count(1030), "2^10+6");
  for (long long n : {1ll, 31ll, 1000ll, (1ll << 24) + 5, (3ll << 20), 1ll << 40})
    EXPECT_EQ(parse_count(format_count(n)), n) << format_count(n);  // a round trip
}

TEST(BenchArgs, Defaults) {
  const options o = parse({});
  EXPECT_FALSE(o.list);
  EXPECT_TRUE(o.preset.empty());
  EXPECT_EQ(o.iters, 20);
  EXPECT_EQ(o.warmup, 3);
  EXPECT_TRUE(o.sizes.empty());
}

TEST(BenchArgs, FlagsWithSpaceOrEquals) {
  const options o = parse({"--primitive", "scan", "--variant=onepass,cub", "--dtype", "int32,float", "--n",
                           "2^20,2^28+1", "--iters=12", "--warmup", "0", "--op", "sum,max", "--kind", "exclusive",
                           "--json", "out.json", "--markdown=out.md", "--seed", "7", "--quiet"});
  EXPECT_EQ(o.primitives, std::vector<std::string>{"scan"});
  EXPECT_EQ(o.variants, (std::vector<std::string>{"onepass", "cub"}));
  EXPECT_EQ(o.dtypes, (std::vector<std::string>{"int32", "float"}));
  EXPECT_EQ(o.sizes, (std::vector<long long>{1ll << 20, (1ll << 28) + 1}));
  EXPECT_EQ(o.iters, 12);
  EXPECT_EQ(o.warmup, 0);
  EXPECT_EQ(o.ops, (std::vector<std::string>{"sum", "max"}));
  EXPECT_EQ(o.kinds, std::vector<std::string>{"exclusive"});
  EXPECT_EQ(o.json_path, "out.json");
  EXPECT_EQ(o.markdown_path, "out.md");
  EXPECT_EQ(o.seed, 7u);
  EXPECT_TRUE(o.quiet);
  EXPECT_TRUE(parse({"--list"}).list);
  EXPECT_TRUE(parse({"-h"}).help);
  EXPECT_EQ(parse({"--preset", "seeds"}).preset, "seeds");
}

TEST(BenchArgs, BadCommandLines) {
  expect_usage_error([] { parse({"--bogus"}); }, "unknown argument '--bogus'");
  expect_usage_error([] { parse({"scan"}); }, "unknown argument 'scan'");
  expect_usage_error([] { parse({"--n"}); }, "--n needs a value");
  expect_usage_error([] { parse({"--n", "lots"}); }, "--n: 'lots'");
  expect_usage_error([] { parse({"--iters", "0"}); }, "--iters");
  expect_usage_error([] { parse({"--iters", "-3"}); }, "--iters");
  expect_usage_error([] { parse({"--variant", "a,,b"}); }, "empty item");
  expect_usage_error([] { parse({"--list=yes"}); }, "takes no value");
  expect_usage_error([] { parse({"--preset", "fast"}); }, "not a preset");
  expect_usage_error([] { parse({"--preset", "seeds", "--n", "2^20"}); }, "cannot be combined");
}

TEST(BenchPlan, DefaultIsEveryPrimitiveAtItsDefaultSize) {
  const auto plan = make_plan(parse({}), test_catalogue());
  ASSERT_EQ(plan.size(), 5u);
  EXPECT_EQ(plan[4].table, "histogram: uint8, 2^30 samples, 256 bins, uniform");
  EXPECT_EQ(plan[4].dist, "uniform");
  EXPECT_EQ(plan[4].bins, 256);
  EXPECT_EQ(plan[4].variants[0].n, 1 << 26);  // global_atomic, at its practical limit
  for (std::size_t i = 0; i < 4; ++i) {       // the other primitives have neither axis
    EXPECT_EQ(plan[i].dist, "") << plan[i].table;
    EXPECT_EQ(plan[i].bins, 0) << plan[i].table;
  }
  EXPECT_EQ(plan[1].table, "reduce: int32, 2^28 items, sum");
  EXPECT_EQ(plan[1].kind, "");
  EXPECT_EQ(plan[2].table, "atomics: 2^20 atomicAdd on uint32 counters");
  EXPECT_EQ(plan[3].table, "rmsnorm: float, 4096 rows x 4096 items");
  EXPECT_EQ(plan[3].batch, 4096);
  const bench_case& c = plan[0];
  EXPECT_EQ(c.table, "scan: int32, 2^28 items, inclusive sum");
  EXPECT_EQ(c.n, 1ll << 28);
  EXPECT_EQ(ids(c), (std::vector<std::string>{"sequential", "hillis_steele", "blelloch", "three_pass_smem", "onepass", "cub"}));
  // Variants that cannot (or should not) take the size run at their own, and say why.
  EXPECT_EQ(c.variants[0].n, 1 << 16);
  EXPECT_NE(c.variants[0].note.find("one thread walks the array"), std::string::npos);
  EXPECT_EQ(c.variants[1].n, 1024);
  EXPECT_NE(c.variants[1].note.find("at its own size"), std::string::npos);
  EXPECT_EQ(c.variants[2].n, 2048);
  EXPECT_EQ(c.variants[3].n, 1ll << 28);
  EXPECT_TRUE(c.variants[3].note.empty());
  EXPECT_EQ(c.variants[3].passes, 2.0);
}

TEST(BenchPlan, SmallSizesRunEveryVariantAtThatSize) {
  const auto plan = make_plan(parse({"--primitive", "scan", "--n", "1000"}), test_catalogue());
  ASSERT_EQ(plan.size(), 1u);
  for (const auto& v : plan[0].variants) {
    EXPECT_EQ(v.n, 1000) << v.id;
    EXPECT_TRUE(v.note.empty()) << v.id;
  }
}

TEST(BenchPlan, CrossProductOfFilters) {
  const auto plan = make_plan(parse({"--dtype", "int32,float", "--n", "2^20,2^24", "--op", "sum,max", "--kind",
                                     "inclusive,exclusive", "--variant", "onepass,cub"}),
                              test_catalogue());
  // Scan: 2 x 2 x 2 x 2 tables; reduce (no kind): 2 x 2 x 2; rmsnorm takes float and
  // has no operator or kind: one table per size; histogram takes both dtypes, at its
  // default bins and distribution. Atomics takes neither dtype: skipped.
  ASSERT_EQ(plan.size(), 16u + 8u + 2u + 4u);
  EXPECT_EQ(plan[0].table, "scan: int32, 2^20 items, inclusive sum");
  EXPECT_EQ(plan[15].table, "scan: float, 2^24 items, exclusive max");
  EXPECT_EQ(plan[16].table, "reduce: int32, 2^20 items, sum");
  EXPECT_EQ(plan[23].table, "reduce: float, 2^24 items, max");
  EXPECT_EQ(plan[24].table, "rmsnorm: float, 16 rows x 1048576 items");
  EXPECT_EQ(plan[26].table, "histogram: int32, 2^20 samples, 256 bins, uniform");
  EXPECT_EQ(plan[29].table, "histogram: float, 2^24 samples, 256 bins, uniform");
  for (const auto& c : plan) {
    const auto expected = c.primitive == "rmsnorm" ? std::vector<std::string>{"onepass"}
                                                   : std::vector<std::string>{"onepass", "cub"};
    EXPECT_EQ(ids(c), expected) << c.table;
  }
}

TEST(BenchPlan, AxesANamedPrimitiveDoesNotHaveAreUsageErrors) {
  const catalogue c = test_catalogue();
  expect_usage_error([&] { make_plan(parse({"--primitive", "reduce", "--dtype", "int64"}), c); },
                     "--dtype: reduce does not take 'int64'");
  expect_usage_error([&] { make_plan(parse({"--primitive", "atomics", "--dtype", "float"}), c); },
                     "--dtype: atomics does not take 'float'");
  // Without --primitive, a primitive that takes none of the values asked for is skipped.
  const auto plan = make_plan(parse({"--dtype", "int64"}), c);
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].primitive, "scan");
}

TEST(BenchPlan, SeedsPreset) {
  const auto plan = make_plan(parse({"--preset", "seeds"}), test_catalogue());
  ASSERT_EQ(plan.size(), 21u);
  EXPECT_EQ(plan[4].table, "reduce: int32, 2^30 items, sum");
  EXPECT_EQ(plan[5].table, "reduce: float, 2^30 items, sum");
  EXPECT_EQ(plan[6].table, "reduce: int32, 2^20 items, sum");
  EXPECT_EQ(ids(plan[4]), (std::vector<std::string>{"atomic_global", "onepass", "cub"}));
  EXPECT_EQ(plan[4].variants[0].n, 1 << 24);
  EXPECT_EQ(plan[7].table, "atomics: 2^20 atomicAdd on uint32 counters");
  EXPECT_EQ(plan[8].table, "rmsnorm: float, 4096 rows x 4096 items");
  EXPECT_EQ(plan[8].batch, 4096);
  EXPECT_EQ(plan[9].table, "rmsnorm: bfloat16, 4096 rows x 4096 items");
  EXPECT_EQ(ids(plan[9]), std::vector<std::string>{"onepass"});
  EXPECT_EQ(plan[0].table, "scan: int32, 2^30 items, inclusive sum");
  EXPECT_EQ(plan[0].n, 1ll << 30);
  EXPECT_EQ(plan[1].table, "scan: float, 64M items, exclusive sum");
  EXPECT_EQ(plan[1].n, 1ll << 26);
  EXPECT_EQ(plan[1].kind, "exclusive");
  EXPECT_EQ(plan[2].n, 1ll << 24);
  // The single-block comparison: the batched variants only, at equal work per block.
  EXPECT_GT(plan[3].batch, 0);
  EXPECT_EQ(plan[3].n, 1024);
  EXPECT_EQ(ids(plan[3]), (std::vector<std::string>{"hillis_steele", "blelloch"}));
  for (const auto& v : plan[3].variants) EXPECT_EQ(v.n, 1024);
  // Filters narrow a preset.
  const auto only_float = make_plan(parse({"--preset", "seeds", "--dtype", "float", "--variant", "cub"}), test_catalogue());
  ASSERT_EQ(only_float.size(), 4u);  // two scans, the float reduce and histogram; rmsnorm has no cub
  EXPECT_EQ(ids(only_float[0]), std::vector<std::string>{"cub"});
}

TEST(BenchPlan, UnknownNamesAreUsageErrors) {
  const catalogue c = test_catalogue();
  expect_usage_error([&] { make_plan(parse({"--primitive", "sort"}), c); }, "--primitive: 'sort' is not known");
  expect_usage_error([&] { make_plan(parse({"--variant", "fastest"}), c); }, "known: copy, read, sequential");
  expect_usage_error([&] { make_plan(parse({"--dtype", "int8"}), c); }, "--dtype: 'int8'");
  expect_usage_error([&] { make_plan(parse({"--op", "min"}), c); }, "--op: 'min'");
  expect_usage_error([&] { make_plan(parse({"--kind", "both"}), c); }, "--kind: 'both'");
}

TEST(BenchPlan, BaselineOnlyPlansNoTables) {
  EXPECT_TRUE(make_plan(parse({"--primitive", "baseline"}), test_catalogue()).empty());
}

TEST(BenchList, NamesEveryVariantAndItsLimits) {
  const std::string text = format_list(test_catalogue());
  for (const char* id : {"copy", "read", "sequential", "hillis_steele", "blelloch", "three_pass_smem", "onepass", "cub"})
    EXPECT_NE(text.find(std::string("  ") + id + " "), std::string::npos) << id << "\n" << text;
  EXPECT_NE(text.find("at most 2^10 items"), std::string::npos) << text;
  EXPECT_NE(text.find("timed at up to 2^16 items"), std::string::npos) << text;
  EXPECT_NE(text.find("2 passes"), std::string::npos) << text;
  EXPECT_NE(text.find("dtypes: int32, float, int64"), std::string::npos) << text;
}

TEST(BenchUsage, DocumentsEveryFlagAndTheExitCodes) {
  const std::string u = usage_text();
  for (const char* flag : {"--list", "--preset", "--primitive", "--variant", "--dtype", "--n", "--op", "--kind",
                           "--dist", "--bins", "--iters", "--warmup", "--seed", "--json", "--markdown", "--quiet", "--help"})
    EXPECT_NE(u.find(flag), std::string::npos) << flag;
  EXPECT_NE(u.find("2 no usable CUDA device"), std::string::npos);
  EXPECT_NE(u.find("64 bad command line"), std::string::npos);
}

}  // namespace
}  // namespace onepass::bench

namespace onepass::bench {
namespace {
TEST(BenchPlan, PracticalLimitsSetTheBenchSizeAndTheReason) {
  std::vector<variant_desc> variants = {{"slow", "one thread"}, {"fast", "many threads"}};
  apply_practical_limits(variants, {{"slow", 1 << 16, "one thread walks the array"}, {"absent", 5, "no such variant"}});
  EXPECT_EQ(variants[0].bench_items, 1 << 16);
  EXPECT_EQ(variants[0].limit_reason, "one thread walks the array");
  EXPECT_EQ(variants[1].bench_items, -1);
  EXPECT_TRUE(variants[1].limit_reason.empty());
}
}  // namespace
}  // namespace onepass::bench

// --- the histogram's axes: --dist and --bins ----------------------------------------------
namespace onepass::bench {
namespace {

TEST(BenchHistogramArgs, DistAndBinsAreLists) {
  const options o = parse({"--dist", "skewed,one_bin", "--bins=256,4096,2^16"});
  EXPECT_EQ(o.dists, (std::vector<std::string>{"skewed", "one_bin"}));
  EXPECT_EQ(o.bins, (std::vector<long long>{256, 4096, 1 << 16}));
  EXPECT_EQ(parse({"--bins", "1"}).bins, std::vector<long long>{1});
  EXPECT_EQ(parse({"--bins", "2^31-1"}).bins, std::vector<long long>{(1ll << 31) - 1});
  EXPECT_EQ(parse({"--bins", "4K"}).bins, std::vector<long long>{4096});
  const options none = parse({});
  EXPECT_TRUE(none.dists.empty());
  EXPECT_TRUE(none.bins.empty());
}

TEST(BenchHistogramArgs, BadValuesNameTheFlag) {
  expect_usage_error([] { parse({"--bins", "0"}); }, "--bins: '0' must be at least 1");
  expect_usage_error([] { parse({"--bins", "256,many"}); }, "--bins: 'many' is not a count");
  expect_usage_error([] { parse({"--bins", "-4"}); }, "--bins: '-4' is not a count");
  expect_usage_error([] { parse({"--bins", "2^31"}); }, "--bins: '2^31' must be at most 2147483647");
  expect_usage_error([] { parse({"--bins"}); }, "--bins needs a value");
  expect_usage_error([] { parse({"--dist", "uniform,,sorted"}); }, "--dist: 'uniform,,sorted' has an empty item");
  expect_usage_error([] { parse({"--dist="}); }, "--dist: '' is empty");
  expect_usage_error([] { parse({"--preset", "seeds", "--dist", "skewed"}); }, "cannot be combined");
  expect_usage_error([] { parse({"--preset", "seeds", "--bins", "4096"}); }, "cannot be combined");
}

TEST(BenchHistogramPlan, DefaultTable) {
  const auto plan = make_plan(parse({"--primitive", "histogram"}), test_catalogue());
  ASSERT_EQ(plan.size(), 1u);
  const bench_case& c = plan[0];
  EXPECT_EQ(c.table, "histogram: uint8, 2^30 samples, 256 bins, uniform");
  EXPECT_EQ(c.primitive, "histogram");
  EXPECT_EQ(c.dtype, "uint8");
  EXPECT_EQ(c.n, 1ll << 30);
  EXPECT_EQ(c.bins, 256);
  EXPECT_EQ(c.dist, "uniform");
  EXPECT_EQ(c.op, "");
  EXPECT_EQ(c.kind, "");
  EXPECT_EQ(ids(c), (std::vector<std::string>{"global_atomic", "block_private", "warp_private", "onepass", "cub"}));
  EXPECT_EQ(c.variants[0].n, 1 << 26);
  EXPECT_NE(c.variants[0].note.find("at its own size, 2^26 items"), std::string::npos) << c.variants[0].note;
  for (std::size_t i = 1; i < c.variants.size(); ++i) EXPECT_EQ(c.variants[i].n, 1ll << 30) << c.variants[i].id;
}

TEST(BenchHistogramPlan, CrossProductSizesThenBinsThenDists) {
  const auto plan = make_plan(parse({"--primitive", "histogram", "--dtype", "uint32", "--n", "2^20,10M", "--bins",
                                     "256,4096", "--dist", "uniform,one_bin"}),
                              test_catalogue());
  ASSERT_EQ(plan.size(), 8u);
  EXPECT_EQ(plan[0].table, "histogram: uint32, 2^20 samples, 256 bins, uniform");
  EXPECT_EQ(plan[1].table, "histogram: uint32, 2^20 samples, 256 bins, one_bin");
  EXPECT_EQ(plan[2].table, "histogram: uint32, 2^20 samples, 4096 bins, uniform");
  EXPECT_EQ(plan[3].table, "histogram: uint32, 2^20 samples, 4096 bins, one_bin");
  EXPECT_EQ(plan[4].table, "histogram: uint32, 10485760 samples, 256 bins, uniform");
  EXPECT_EQ(plan[7].bins, 4096);
  EXPECT_EQ(plan[7].dist, "one_bin");
  EXPECT_EQ(plan[7].n, 10ll << 20);
  for (const auto& c : plan)
    for (const auto& v : c.variants) EXPECT_EQ(v.n, c.n) << c.table << ": " << v.id;  // below every limit
}

TEST(BenchHistogramPlan, OtherPrimitivesAreUnaffectedUnlessNamed) {
  const catalogue c = test_catalogue();
  // Unnamed, the other primitives run as without the flags.
  const auto plain = make_plan(parse({}), c);
  const auto plan = make_plan(parse({"--dist", "skewed,sorted", "--bins", "4096"}), c);
  ASSERT_EQ(plan.size(), plain.size() + 1);
  for (std::size_t i = 0; i + 1 < plain.size(); ++i) {
    EXPECT_EQ(plan[i].table, plain[i].table);
    EXPECT_EQ(plan[i].dist, "");
    EXPECT_EQ(plan[i].bins, 0);
  }
  EXPECT_EQ(plan[plain.size() - 1].table, "histogram: uint8, 2^30 samples, 4096 bins, skewed");
  EXPECT_EQ(plan[plain.size()].table, "histogram: uint8, 2^30 samples, 4096 bins, sorted");
  // Named, a primitive without the axis is a usage error, alone or beside the histogram.
  expect_usage_error([&] { make_plan(parse({"--primitive", "reduce", "--dist", "skewed"}), c); },
                     "--dist: reduce has no sample distribution (--dist is for: histogram)");
  expect_usage_error([&] { make_plan(parse({"--primitive", "histogram,scan", "--bins", "4096"}), c); },
                     "--bins: scan has no bins (--bins is for: histogram)");
  EXPECT_EQ(make_plan(parse({"--primitive", "histogram", "--dist", "sorted", "--bins", "1"}), c).size(), 1u);
}

TEST(BenchHistogramPlan, UnknownDistributionsAreUsageErrors) {
  const catalogue c = test_catalogue();
  expect_usage_error([&] { make_plan(parse({"--dist", "zipf"}), c); },
                     "--dist: 'zipf' is not known (known: uniform, skewed, one_bin, sorted)");
  expect_usage_error([&] { make_plan(parse({"--primitive", "histogram", "--dtype", "int64"}), c); },
                     "--dtype: histogram does not take 'int64'");
  const catalogue older = catalogue_without_histogram();
  expect_usage_error([&] { make_plan(parse({"--dist", "uniform"}), older); }, "--dist: no primitive has");
  expect_usage_error([&] { make_plan(parse({"--bins", "256"}), older); }, "--bins: no primitive has bins");
}

TEST(BenchHistogramPlan, SeedsPresetTables) {
  const auto plan = make_plan(parse({"--preset", "seeds", "--primitive", "histogram"}), test_catalogue());
  ASSERT_EQ(plan.size(), 11u);
  const char* dists[] = {"uniform", "skewed", "one_bin", "sorted"};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(plan[i].table, std::string("histogram: uint8, 2^30 samples, 256 bins, ") + dists[i]);
    EXPECT_EQ(plan[i].dtype, "uint8");
    EXPECT_EQ(plan[i].bins, 256);
    EXPECT_EQ(plan[i].dist, dists[i]);
    EXPECT_EQ(plan[4 + i].table, std::string("histogram: uint32, 2^30 samples, 4096 bins, ") + dists[i]);
    EXPECT_EQ(plan[4 + i].n, 1ll << 30);
    EXPECT_EQ(plan[4 + i].bins, 4096);
    EXPECT_EQ(plan[4 + i].dist, dists[i]);
    EXPECT_EQ(plan[i].variants[0].n, 1 << 26);  // global_atomic
  }
  // The published 10M-sample table keeps its name; 10M is below every practical limit.
  EXPECT_EQ(plan[8].table, "histogram: uint8, 10M samples, 256 bins, uniform");
  EXPECT_EQ(plan[8].n, 10ll << 20);
  EXPECT_EQ(plan[8].n, parse_count("10M"));
  EXPECT_EQ(plan[8].bins, 256);
  EXPECT_EQ(plan[8].dist, "uniform");
  for (const auto& v : plan[8].variants) EXPECT_EQ(v.n, 10ll << 20) << v.id;
  // Beside the peers' torch.bincount and torch.histc tables.
  EXPECT_EQ(plan[9].table, "histogram: int32, 2^30 samples, 256 bins, uniform");
  EXPECT_EQ(plan[10].table, "histogram: float, 2^30 samples, 256 bins, uniform");
  // The full preset ends with them; the tables before are unchanged.
  const auto all = make_plan(parse({"--preset", "seeds"}), test_catalogue());
  ASSERT_EQ(all.size(), 21u);
  EXPECT_EQ(all[10].table, plan[0].table);
  EXPECT_EQ(all[9].dist, "");
  EXPECT_EQ(all[9].bins, 0);
  // --dtype and --variant filter them like the others.
  const auto u32 = make_plan(parse({"--preset", "seeds", "--dtype", "uint32", "--variant", "onepass,cub"}),
                             test_catalogue());
  ASSERT_EQ(u32.size(), 4u);
  EXPECT_EQ(ids(u32[3]), (std::vector<std::string>{"onepass", "cub"}));
}

TEST(BenchHistogramPlan, Titles) {
  EXPECT_EQ(histogram_title("uint8", 1ll << 30, 256, "uniform"), "histogram: uint8, 2^30 samples, 256 bins, uniform");
  EXPECT_EQ(histogram_title("uint32", (1ll << 28) + 1, 65536, "one_bin"),
            "histogram: uint32, 2^28+1 samples, 65536 bins, one_bin");
  EXPECT_EQ(histogram_title("float", 1000, 1, "sorted"), "histogram: float, 1000 samples, 1 bins, sorted");
}

TEST(BenchHistogramList, ShowsTheAxesAndTheLimit) {
  const std::string text = format_list(test_catalogue());
  EXPECT_NE(text.find("histogram - even bins"), std::string::npos) << text;
  EXPECT_NE(text.find("dists: uniform, skewed, one_bin, sorted (--dist; default uniform)"), std::string::npos) << text;
  EXPECT_NE(text.find("bins: any from 1 (--bins; default 256)"), std::string::npos) << text;
  EXPECT_NE(text.find("timed at up to 2^26 items"), std::string::npos) << text;
  // Primitives without the axes list neither.
  EXPECT_EQ(format_list(catalogue_without_histogram()).find("dists:"), std::string::npos);
  EXPECT_EQ(format_list(catalogue_without_histogram()).find("bins:"), std::string::npos);
}

}  // namespace
}  // namespace onepass::bench
