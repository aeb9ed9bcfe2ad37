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
  // The stream-compaction primitives: one registry, three operations.
  const std::vector<std::string> compaction_dtypes = {"int32", "uint32", "int64", "uint64", "float", "double"};
  const std::vector<variant_desc> compaction_variants = {
      {"three_kernel", "flags, scan, scatter"}, {"onepass", "production"}, {"cub", "CUB"}};
  primitive_desc select{"select", "select_if", compaction_dtypes, compaction_variants};
  select.default_keep = 50;
  primitive_desc unique{"unique", "drop consecutive duplicates", compaction_dtypes, compaction_variants};
  unique.default_runs = 4;
  primitive_desc partition{"partition", "stable partition", compaction_dtypes, compaction_variants};
  partition.default_keep = 50;
  return {baseline, scan, reduce, atomics, rmsnorm, histogram, select, unique, partition};
}

catalogue catalogue_without(std::initializer_list<const char*> names) {
  catalogue c = test_catalogue();
  for (const char* name : names)
    c.erase(std::remove_if(c.begin(), c.end(), [&](const primitive_desc& p) { return p.name == name; }), c.end());
  return c;
}

// The catalogue as it was before the histogram: no primitive has --dist or --bins.
catalogue catalogue_without_histogram() { return catalogue_without({"histogram"}); }

// The catalogue as it was before stream compaction: no primitive has --keep or --runs.
catalogue catalogue_without_compaction() { return catalogue_without({"select", "unique", "partition"}); }

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
  ASSERT_EQ(plan.size(), 8u);
  EXPECT_EQ(plan[5].table, "select: int32, 2^28 items, 50% kept");
  EXPECT_EQ(plan[5].keep, 50);
  EXPECT_EQ(plan[6].table, "unique: int32, 2^28 items, runs of 4");
  EXPECT_EQ(plan[6].runs, 4);
  EXPECT_EQ(plan[7].table, "partition: int32, 2^28 items, 50% kept");
  EXPECT_EQ(plan[7].keep, 50);
  EXPECT_EQ(plan[4].table, "histogram: uint8, 2^30 samples, 256 bins, uniform");
  EXPECT_EQ(plan[4].dist, "uniform");
  EXPECT_EQ(plan[4].bins, 256);
  EXPECT_EQ(plan[4].variants[0].n, 1 << 26);  // global_atomic, at its practical limit
  for (std::size_t i = 0; i < 5; ++i) {  // the others have neither axis of the compactions
    EXPECT_EQ(plan[i].keep, -1) << plan[i].table;
    EXPECT_EQ(plan[i].runs, 0) << plan[i].table;
  }
  for (std::size_t i = 0; i < 8; ++i) {  // nor the histogram's, but the histogram
    if (i == 4) continue;
    EXPECT_EQ(plan[i].dist, "") << plan[i].table;
    EXPECT_EQ(plan[i].bins, 0) << plan[i].table;
  }
  EXPECT_EQ(plan[6].keep, -1);
  EXPECT_EQ(plan[5].runs, 0);
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
  // default bins and distribution, and so do select, unique and partition at their default
  // fraction and run length. Atomics takes neither dtype: skipped.
  ASSERT_EQ(plan.size(), 16u + 8u + 2u + 4u + 3u * 4u);
  EXPECT_EQ(plan[0].table, "scan: int32, 2^20 items, inclusive sum");
  EXPECT_EQ(plan[15].table, "scan: float, 2^24 items, exclusive max");
  EXPECT_EQ(plan[16].table, "reduce: int32, 2^20 items, sum");
  EXPECT_EQ(plan[23].table, "reduce: float, 2^24 items, max");
  EXPECT_EQ(plan[24].table, "rmsnorm: float, 16 rows x 1048576 items");
  EXPECT_EQ(plan[26].table, "histogram: int32, 2^20 samples, 256 bins, uniform");
  EXPECT_EQ(plan[29].table, "histogram: float, 2^24 samples, 256 bins, uniform");
  EXPECT_EQ(plan[30].table, "select: int32, 2^20 items, 50% kept");
  EXPECT_EQ(plan[37].table, "unique: float, 2^24 items, runs of 4");
  EXPECT_EQ(plan[41].table, "partition: float, 2^24 items, 50% kept");
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
  ASSERT_EQ(plan.size(), 4u);
  EXPECT_EQ(plan[0].primitive, "scan");
  EXPECT_EQ(plan[1].primitive, "select");
  EXPECT_EQ(plan[2].primitive, "unique");
  EXPECT_EQ(plan[3].primitive, "partition");
}

TEST(BenchPlan, SeedsPreset) {
  const auto plan = make_plan(parse({"--preset", "seeds"}), test_catalogue());
  ASSERT_EQ(plan.size(), 29u);
  EXPECT_EQ(plan[5].table, "reduce: int32, 2^30 items, sum");
  EXPECT_EQ(plan[6].table, "reduce: float, 2^30 items, sum");
  EXPECT_EQ(plan[7].table, "reduce: int32, 2^20 items, sum");
  EXPECT_EQ(ids(plan[5]), (std::vector<std::string>{"atomic_global", "onepass", "cub"}));
  EXPECT_EQ(plan[5].variants[0].n, 1 << 24);
  EXPECT_EQ(plan[8].table, "atomics: 2^20 atomicAdd on uint32 counters");
  EXPECT_EQ(plan[9].table, "rmsnorm: float, 4096 rows x 4096 items");
  EXPECT_EQ(plan[9].batch, 4096);
  EXPECT_EQ(plan[10].table, "rmsnorm: bfloat16, 4096 rows x 4096 items");
  EXPECT_EQ(ids(plan[10]), std::vector<std::string>{"onepass"});
  EXPECT_EQ(plan[0].table, "scan: int32, 2^30 items, inclusive sum");
  EXPECT_EQ(plan[0].n, 1ll << 30);
  // The segmented scan's yardstick: the plain scan at its tables' type and size.
  EXPECT_EQ(plan[1].table, "scan: int32, 2^28 items, inclusive sum");
  EXPECT_EQ(plan[1].n, 1ll << 28);
  EXPECT_EQ(plan[1].op, "sum");
  EXPECT_EQ(plan[1].kind, "inclusive");
  EXPECT_EQ(plan[1].batch, 0);
  EXPECT_EQ(ids(plan[1]), ids(plan[0]));
  EXPECT_EQ(plan[2].table, "scan: float, 64M items, exclusive sum");
  EXPECT_EQ(plan[2].n, 1ll << 26);
  EXPECT_EQ(plan[2].kind, "exclusive");
  EXPECT_EQ(plan[3].n, 1ll << 24);
  // The single-block comparison: the batched variants only, at equal work per block.
  EXPECT_GT(plan[4].batch, 0);
  EXPECT_EQ(plan[4].n, 1024);
  EXPECT_EQ(ids(plan[4]), (std::vector<std::string>{"hillis_steele", "blelloch"}));
  for (const auto& v : plan[4].variants) EXPECT_EQ(v.n, 1024);
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
                           "--dist", "--bins", "--keep", "--runs", "--iters", "--warmup", "--seed", "--json", "--markdown", "--quiet", "--help"})
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
  ASSERT_EQ(plain.size(), 8u);
  ASSERT_EQ(plan.size(), plain.size() + 1);
  for (std::size_t i = 0, j = 0; i < plain.size(); ++i, ++j) {
    if (plain[i].primitive == "histogram") {
      EXPECT_EQ(plan[j].table, "histogram: uint8, 2^30 samples, 4096 bins, skewed");
      EXPECT_EQ(plan[++j].table, "histogram: uint8, 2^30 samples, 4096 bins, sorted");
      continue;
    }
    EXPECT_EQ(plan[j].table, plain[i].table);
    EXPECT_EQ(plan[j].dist, "");
    EXPECT_EQ(plan[j].bins, 0);
  }
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
  // The full preset has them after the others; the tables before are unchanged.
  const auto all = make_plan(parse({"--preset", "seeds"}), test_catalogue());
  ASSERT_EQ(all.size(), 29u);
  EXPECT_EQ(all[21].table, plan[10].table);
  EXPECT_EQ(all[11].table, plan[0].table);
  EXPECT_EQ(all[10].dist, "");
  EXPECT_EQ(all[10].bins, 0);
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

// --- stream compaction: select, unique, partition; the --keep and --runs axes --------------
namespace onepass::bench {
namespace {

TEST(BenchCompactionArgs, KeepAndRunsAreLists) {
  const options o = parse({"--keep", "1,50,99", "--runs=1,4,1000"});
  EXPECT_EQ(o.keeps, (std::vector<int>{1, 50, 99}));
  EXPECT_EQ(o.runs, (std::vector<long long>{1, 4, 1000}));
  EXPECT_EQ(parse({"--keep", "0,100"}).keeps, (std::vector<int>{0, 100}));
  EXPECT_EQ(parse({"--keep", "25%"}).keeps, std::vector<int>{25});
  EXPECT_EQ(parse({"--runs", "2^10"}).runs, std::vector<long long>{1024});
  EXPECT_EQ(parse({"--runs", "64K"}).runs, std::vector<long long>{64 << 10});
  const options none = parse({});
  EXPECT_TRUE(none.keeps.empty());
  EXPECT_TRUE(none.runs.empty());
}

TEST(BenchCompactionArgs, BadValuesNameTheFlag) {
  const char* percent = "is not a percentage (a whole number from 0 to 100)";
  expect_usage_error([] { parse({"--keep", "150"}); }, "--keep: '150' ");
  expect_usage_error([&] { parse({"--keep", "150"}); }, percent);
  expect_usage_error([&] { parse({"--keep", "101"}); }, percent);
  expect_usage_error([&] { parse({"--keep", "-1"}); }, "--keep: '-1' ");
  expect_usage_error([&] { parse({"--keep", "0.5"}); }, "--keep: '0.5' ");
  expect_usage_error([&] { parse({"--keep", "half"}); }, "--keep: 'half' ");
  expect_usage_error([&] { parse({"--keep", "%"}); }, "--keep: '%' ");
  expect_usage_error([] { parse({"--keep", "1,,99"}); }, "--keep: '1,,99' has an empty item");
  expect_usage_error([] { parse({"--keep"}); }, "--keep needs a value");
  expect_usage_error([] { parse({"--runs", "0"}); }, "--runs: '0' must be at least 1");
  expect_usage_error([] { parse({"--runs", "4,long"}); }, "--runs: 'long' is not a count");
  expect_usage_error([] { parse({"--runs", "-4"}); }, "--runs: '-4' is not a count");
  expect_usage_error([] { parse({"--preset", "seeds", "--keep", "50"}); }, "cannot be combined");
  expect_usage_error([] { parse({"--preset", "seeds", "--runs", "4"}); }, "cannot be combined");
}

TEST(BenchCompactionPlan, Titles) {
  EXPECT_EQ(select_title("int32", 1ll << 28, 50), "select: int32, 2^28 items, 50% kept");
  EXPECT_EQ(select_title("double", 1000, 0), "select: double, 1000 items, 0% kept");
  EXPECT_EQ(unique_title("int32", 1ll << 28, 4), "unique: int32, 2^28 items, runs of 4");
  EXPECT_EQ(unique_title("uint64", (1ll << 28) + 1, 1024), "unique: uint64, 2^28+1 items, runs of 1024");
  EXPECT_EQ(partition_title("int32", 1ll << 28, 50), "partition: int32, 2^28 items, 50% kept");
  EXPECT_EQ(partition_title("float", 1000000, 100), "partition: float, 1000000 items, 100% kept");
}

TEST(BenchCompactionPlan, DefaultTables) {
  const auto plan = make_plan(parse({"--primitive", "select,unique,partition"}), test_catalogue());
  ASSERT_EQ(plan.size(), 3u);
  EXPECT_EQ(plan[0].table, "select: int32, 2^28 items, 50% kept");
  EXPECT_EQ(plan[1].table, "unique: int32, 2^28 items, runs of 4");
  EXPECT_EQ(plan[2].table, "partition: int32, 2^28 items, 50% kept");
  for (const auto& c : plan) {
    EXPECT_EQ(c.dtype, "int32");
    EXPECT_EQ(c.n, 1ll << 28);
    EXPECT_EQ(c.op, "");
    EXPECT_EQ(c.kind, "");
    EXPECT_EQ(c.dist, "");
    EXPECT_EQ(c.bins, 0);
    EXPECT_EQ(c.batch, 0);
    EXPECT_EQ(ids(c), (std::vector<std::string>{"three_kernel", "onepass", "cub"})) << c.table;
    for (const auto& v : c.variants) {
      EXPECT_EQ(v.n, c.n) << c.table << ": " << v.id;
      EXPECT_TRUE(v.note.empty()) << c.table << ": " << v.id;
    }
  }
  EXPECT_EQ(plan[0].keep, 50);
  EXPECT_EQ(plan[0].runs, 0);
  EXPECT_EQ(plan[1].keep, -1);
  EXPECT_EQ(plan[1].runs, 4);
  EXPECT_EQ(plan[2].keep, 50);
  EXPECT_EQ(plan[2].runs, 0);
}

TEST(BenchCompactionPlan, CrossProductSizesThenKeepOrRuns) {
  const auto plan = make_plan(parse({"--primitive", "select,partition", "--dtype", "uint64,float", "--n",
                                     "2^20,1000", "--keep", "1,99"}),
                              test_catalogue());
  ASSERT_EQ(plan.size(), 2u * 8u);
  EXPECT_EQ(plan[0].table, "select: uint64, 2^20 items, 1% kept");
  EXPECT_EQ(plan[1].table, "select: uint64, 2^20 items, 99% kept");
  EXPECT_EQ(plan[2].table, "select: uint64, 1000 items, 1% kept");
  EXPECT_EQ(plan[7].table, "select: float, 1000 items, 99% kept");
  EXPECT_EQ(plan[7].keep, 99);
  EXPECT_EQ(plan[7].runs, 0);
  EXPECT_EQ(plan[7].n, 1000);
  EXPECT_EQ(plan[8].table, "partition: uint64, 2^20 items, 1% kept");
  EXPECT_EQ(plan[15].table, "partition: float, 1000 items, 99% kept");
  const auto runs = make_plan(parse({"--primitive", "unique", "--dtype", "double", "--n", "2^20,1000", "--runs",
                                     "1,1000"}),
                              test_catalogue());
  ASSERT_EQ(runs.size(), 4u);
  EXPECT_EQ(runs[0].table, "unique: double, 2^20 items, runs of 1");
  EXPECT_EQ(runs[1].table, "unique: double, 2^20 items, runs of 1000");
  EXPECT_EQ(runs[3].table, "unique: double, 1000 items, runs of 1000");
  EXPECT_EQ(runs[3].runs, 1000);
  EXPECT_EQ(runs[3].keep, -1);
}

TEST(BenchCompactionPlan, AxesBelongToTheirPrimitives) {
  const catalogue c = test_catalogue();
  // Unnamed, the primitives without the axis run as without the flag.
  const auto plain = make_plan(parse({}), c);
  const auto plan = make_plan(parse({"--keep", "1,99", "--runs", "1000"}), c);
  ASSERT_EQ(plan.size(), plain.size() + 2);
  std::vector<std::string> titles;
  for (const auto& t : plan) titles.push_back(t.table);
  for (const auto& t : plain) {
    if (t.primitive == "select" || t.primitive == "unique" || t.primitive == "partition") continue;
    EXPECT_NE(std::find(titles.begin(), titles.end(), t.table), titles.end()) << t.table;
  }
  for (const char* t : {"select: int32, 2^28 items, 1% kept", "select: int32, 2^28 items, 99% kept",
                        "unique: int32, 2^28 items, runs of 1000", "partition: int32, 2^28 items, 1% kept",
                        "partition: int32, 2^28 items, 99% kept"})
    EXPECT_NE(std::find(titles.begin(), titles.end(), t), titles.end()) << t;
  // Named, a primitive without the axis is a usage error, alone or beside one that has it.
  expect_usage_error([&] { make_plan(parse({"--primitive", "reduce", "--keep", "50"}), c); },
                     "--keep: reduce keeps no fraction of its items (--keep is for: select, partition)");
  expect_usage_error([&] { make_plan(parse({"--primitive", "unique", "--keep", "50"}), c); },
                     "--keep: unique keeps no fraction of its items");
  expect_usage_error([&] { make_plan(parse({"--primitive", "select,partition", "--runs", "4"}), c); },
                     "--runs: select has no runs (--runs is for: unique)");
  expect_usage_error([&] { make_plan(parse({"--primitive", "histogram", "--runs", "4"}), c); },
                     "--runs: histogram has no runs");
  expect_usage_error([&] { make_plan(parse({"--primitive", "select", "--dist", "skewed"}), c); },
                     "--dist: select has no sample distribution");
  expect_usage_error([&] { make_plan(parse({"--primitive", "unique", "--bins", "256"}), c); },
                     "--bins: unique has no bins");
  expect_usage_error([&] { make_plan(parse({"--primitive", "select", "--dtype", "uint8"}), c); },
                     "--dtype: select does not take 'uint8'");
  EXPECT_EQ(make_plan(parse({"--primitive", "select,partition", "--keep", "0,100"}), c).size(), 4u);
  EXPECT_EQ(make_plan(parse({"--primitive", "unique", "--runs", "1"}), c).size(), 1u);
  // A catalogue without stream compaction has no primitive for either flag.
  const catalogue older = catalogue_without_compaction();
  expect_usage_error([&] { make_plan(parse({"--keep", "50"}), older); },
                     "--keep: no primitive keeps a fraction of its items");
  expect_usage_error([&] { make_plan(parse({"--runs", "4"}), older); }, "--runs: no primitive has runs");
}

TEST(BenchCompactionPlan, SeedsPresetTables) {
  const auto plan =
      make_plan(parse({"--preset", "seeds", "--primitive", "select,unique,partition"}), test_catalogue());
  ASSERT_EQ(plan.size(), 7u);
  const std::vector<std::string> titles = {
      "select: int32, 2^28 items, 1% kept",     "select: int32, 2^28 items, 50% kept",
      "select: int32, 2^28 items, 99% kept",    "unique: int32, 2^28 items, runs of 1",
      "unique: int32, 2^28 items, runs of 4",   "unique: int32, 2^28 items, runs of 1000",
      "partition: int32, 2^28 items, 50% kept"};
  for (std::size_t i = 0; i < titles.size(); ++i) {
    EXPECT_EQ(plan[i].table, titles[i]);
    EXPECT_EQ(plan[i].dtype, "int32");
    EXPECT_EQ(plan[i].n, 1ll << 28);
    EXPECT_EQ(ids(plan[i]), (std::vector<std::string>{"three_kernel", "onepass", "cub"})) << titles[i];
  }
  const int keeps[] = {1, 50, 99, -1, -1, -1, 50};
  const long long runs[] = {0, 0, 0, 1, 4, 1000, 0};
  for (std::size_t i = 0; i < titles.size(); ++i) {
    EXPECT_EQ(plan[i].keep, keeps[i]) << titles[i];
    EXPECT_EQ(plan[i].runs, runs[i]) << titles[i];
  }
  // The full preset ends with them.
  const auto all = make_plan(parse({"--preset", "seeds"}), test_catalogue());
  ASSERT_EQ(all.size(), 29u);
  for (std::size_t i = 0; i < titles.size(); ++i) EXPECT_EQ(all[22 + i].table, titles[i]);
  for (std::size_t i = 0; i < 22; ++i) {
    EXPECT_EQ(all[i].keep, -1) << all[i].table;
    EXPECT_EQ(all[i].runs, 0) << all[i].table;
  }
  // --dtype and --variant filter them like the others.
  EXPECT_TRUE(make_plan(parse({"--preset", "seeds", "--primitive", "select", "--dtype", "float"}), test_catalogue())
                  .empty());
  const auto cub = make_plan(parse({"--preset", "seeds", "--primitive", "unique", "--variant", "cub"}),
                             test_catalogue());
  ASSERT_EQ(cub.size(), 3u);
  EXPECT_EQ(ids(cub[2]), std::vector<std::string>{"cub"});
}

TEST(BenchCompactionList, ShowsTheAxes) {
  const std::string text = format_list(test_catalogue());
  EXPECT_NE(text.find("select - select_if"), std::string::npos) << text;
  EXPECT_NE(text.find("  three_kernel  flags, scan, scatter"), std::string::npos) << text;
  EXPECT_NE(text.find("keep: 0 to 100 percent (--keep; default 50)"), std::string::npos) << text;
  EXPECT_NE(text.find("runs: any length from 1 (--runs; default 4)"), std::string::npos) << text;
  EXPECT_EQ(format_list(catalogue_without_compaction()).find("keep:"), std::string::npos);
  EXPECT_EQ(format_list(catalogue_without_compaction()).find("runs:"), std::string::npos);
}

TEST(BenchCompactionUsage, DocumentsTheAxes) {
  const std::string u = usage_text();
  EXPECT_NE(u.find("--keep P[,P]"), std::string::npos) << u;
  EXPECT_NE(u.find("--runs N[,N]"), std::string::npos) << u;
}

}  // namespace
}  // namespace onepass::bench

// --- the radix sort: the --values and --order axes, --dist's key distributions --------------
namespace onepass::bench {
namespace {

// The test catalogue with the radix sort, as the real one has it.
catalogue catalogue_with_radix_sort() {
  catalogue c = test_catalogue();
  primitive_desc sort{"radix_sort", "stable radix sort", {"uint32", "int32", "float", "uint64", "int64", "double"},
                      {{"split_1bit", "one bit per pass"}, {"onepass", "production"}, {"cub", "CUB"}}};
  sort.dists = {"random", "low_entropy", "all_equal", "sorted", "reverse", "range16"};
  sort.values = {"none", "u32", "u64"};
  sort.orders = {"ascending", "descending"};
  c.push_back(sort);
  return c;
}

TEST(BenchRadixSortArgs, ValuesAndOrder) {
  const options o = parse({"--values", "none,u32", "--order=descending"});
  EXPECT_EQ(o.values, (std::vector<std::string>{"none", "u32"}));
  EXPECT_EQ(o.orders, std::vector<std::string>{"descending"});
  EXPECT_TRUE(parse({}).values.empty());
  EXPECT_TRUE(parse({}).orders.empty());
  expect_usage_error([] { parse({"--values", "u32,,u64"}); }, "--values: 'u32,,u64' has an empty item");
  expect_usage_error([] { parse({"--order"}); }, "--order needs a value");
  expect_usage_error([] { parse({"--preset", "seeds", "--values", "u32"}); }, "cannot be combined");
  expect_usage_error([] { parse({"--preset", "seeds", "--order", "descending"}); }, "cannot be combined");
  const std::string u = usage_text();
  EXPECT_NE(u.find("--values none|u32|u64"), std::string::npos) << u;
  EXPECT_NE(u.find("--order ascending|descending"), std::string::npos) << u;
  EXPECT_NE(u.find("low_entropy"), std::string::npos) << u;
}

TEST(BenchRadixSortPlan, Titles) {
  EXPECT_EQ(radix_sort_title("uint32", 1ll << 28, "none", "random", "ascending"),
            "radix_sort: uint32, 2^28 keys, random, ascending");
  EXPECT_EQ(radix_sort_title("double", 1000, "u64", "range16", "descending"),
            "radix_sort: double + u64 values, 1000 pairs, range16, descending");
}

TEST(BenchRadixSortPlan, DefaultsAndCrossProduct) {
  const catalogue c = catalogue_with_radix_sort();
  const auto one = make_plan(parse({"--primitive", "radix_sort"}), c);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].table, "radix_sort: uint32, 2^28 keys, random, ascending");
  EXPECT_EQ(one[0].dist, "random");
  EXPECT_EQ(one[0].values, "none");
  EXPECT_EQ(one[0].order, "ascending");
  EXPECT_EQ(ids(one[0]), (std::vector<std::string>{"split_1bit", "onepass", "cub"}));
  const auto plan = make_plan(parse({"--primitive", "radix_sort", "--dtype", "uint64,float", "--n", "2^16,2^27",
                                     "--dist", "random,range16", "--values", "none,u32,u64", "--order",
                                     "ascending,descending"}),
                              c);
  ASSERT_EQ(plan.size(), 2u * 2u * 2u * 3u * 2u);
  EXPECT_EQ(plan[0].table, "radix_sort: uint64, 2^16 keys, random, ascending");
  EXPECT_EQ(plan[1].table, "radix_sort: uint64, 2^16 keys, random, descending");
  EXPECT_EQ(plan[2].table, "radix_sort: uint64 + u32 values, 2^16 pairs, random, ascending");
  EXPECT_EQ(plan.back().table, "radix_sort: float + u64 values, 2^27 pairs, range16, descending");
  // Other primitives have neither axis and are unaffected unless named.
  for (const auto& other : make_plan(parse({"--values", "u32"}), c))
    EXPECT_EQ(other.values, other.primitive == "radix_sort" ? "u32" : "") << other.table;
  expect_usage_error([&] { make_plan(parse({"--primitive", "scan", "--order", "descending"}), c); },
                     "--order: scan has no sort order (--order is for: radix_sort)");
  expect_usage_error([&] { make_plan(parse({"--primitive", "select", "--values", "u32"}), c); },
                     "--values: select sorts no values (--values is for: radix_sort)");
  expect_usage_error([&] { make_plan(parse({"--values", "u16"}), c); }, "--values: 'u16' is not known");
  expect_usage_error([&] { make_plan(parse({"--order", "up"}), c); }, "--order: 'up' is not known");
  expect_usage_error([&] { make_plan(parse({"--primitive", "radix_sort", "--dist", "skewed"}), c); },
                     "--dist: radix_sort does not take 'skewed'");
  // Without the radix sort, no primitive has the axes.
  expect_usage_error([] { make_plan(parse({"--values", "u32"}), test_catalogue()); },
                     "--values: no primitive sorts values");
  expect_usage_error([] { make_plan(parse({"--order", "ascending"}), test_catalogue()); },
                     "--order: no primitive has a sort order");
}

TEST(BenchRadixSortPlan, SeedsPresetTables) {
  const catalogue c = catalogue_with_radix_sort();
  const auto plan = make_plan(parse({"--preset", "seeds", "--primitive", "radix_sort"}), c);
  const std::vector<std::string> titles = {
      "radix_sort: uint32, 2^28 keys, random, ascending",
      "radix_sort: uint32 + u32 values, 2^28 pairs, random, ascending",
      "radix_sort: uint64, 2^27 keys, random, ascending",
      "radix_sort: uint32, 2^28 keys, low_entropy, ascending",
      "radix_sort: uint32, 2^28 keys, all_equal, ascending",
      "radix_sort: uint32, 2^28 keys, sorted, ascending",
      "radix_sort: uint32, 2^28 keys, reverse, ascending",
      "radix_sort: uint32, 2^28 keys, range16, ascending",
      "radix_sort: int32, 2^28 keys, random, ascending",  // beside the peers (bench/peers.py)
      "radix_sort: int64, 2^27 keys, random, ascending"};
  ASSERT_EQ(plan.size(), titles.size());
  for (std::size_t i = 0; i < titles.size(); ++i) {
    EXPECT_EQ(plan[i].table, titles[i]);
    EXPECT_EQ(ids(plan[i]).size(), 3u);
  }
  EXPECT_EQ(plan[1].values, "u32");
  EXPECT_EQ(plan[2].n, 1ll << 27);
  // The full preset ends with them; a catalogue without the radix sort leaves them out.
  const auto all = make_plan(parse({"--preset", "seeds"}), c);
  ASSERT_EQ(all.size(), 29u + titles.size());
  for (std::size_t i = 0; i < titles.size(); ++i) EXPECT_EQ(all[29 + i].table, titles[i]);
  EXPECT_EQ(make_plan(parse({"--preset", "seeds"}), test_catalogue()).size(), 29u);
}

TEST(BenchRadixSortList, ShowsTheAxes) {
  const std::string text = format_list(catalogue_with_radix_sort());
  EXPECT_NE(text.find("radix_sort - stable radix sort"), std::string::npos) << text;
  EXPECT_NE(text.find("values: none, u32, u64 (--values; default none)"), std::string::npos) << text;
  EXPECT_NE(text.find("orders: ascending, descending (--order; default ascending)"), std::string::npos) << text;
  EXPECT_EQ(format_list(test_catalogue()).find("values:"), std::string::npos);
}

}  // namespace
}  // namespace onepass::bench

// --- the segmented scan: --dist's segment distributions, a row per variant and form -------
namespace onepass::bench {
namespace {

// The test catalogue with the radix sort and the segmented scan, as the real one has them.
catalogue catalogue_with_segmented_scan() {
  catalogue c = catalogue_with_radix_sort();
  primitive_desc seg{"segmented_scan", "a scan that restarts at every segment",
                     {"int32", "uint32", "int64", "uint64", "float", "double"}, {}, {"sum", "max"},
                     {"inclusive", "exclusive"}};
  seg.variants = {{"warp_head_flags", "a warp per tile, head flags"}, {"onepass", "production"}, {"cub", "CUB"}};
  seg.variants[0].forms = {"flags"};
  seg.variants[1].forms = {"flags", "offsets", "by key"};
  seg.variants[2].forms = {"by key"};
  seg.dists = {"uniform_1_1000", "all_1", "all_32", "power_law", "one_segment", "with_empty"};
  c.push_back(seg);
  return c;
}

TEST(BenchSegmentedScanPlan, Titles) {
  EXPECT_EQ(segmented_scan_title("int32", 1ll << 28, "sum", "inclusive", "power_law"),
            "segmented_scan: int32, 2^28 items, inclusive sum, power_law");
  EXPECT_EQ(segmented_scan_title("double", 1000, "max", "exclusive", "with_empty"),
            "segmented_scan: double, 1000 items, exclusive max, with_empty");
}

TEST(BenchSegmentedScanPlan, DefaultsAndCrossProduct) {
  const catalogue c = catalogue_with_segmented_scan();
  const auto one = make_plan(parse({"--primitive", "segmented_scan"}), c);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].table, "segmented_scan: int32, 2^28 items, inclusive sum, uniform_1_1000");
  EXPECT_EQ(one[0].dist, "uniform_1_1000");
  EXPECT_EQ(one[0].op, "sum");
  EXPECT_EQ(one[0].kind, "inclusive");
  EXPECT_EQ(one[0].n, 1ll << 28);
  EXPECT_EQ(ids(one[0]), (std::vector<std::string>{"warp_head_flags", "onepass", "cub"}));
  for (const auto& v : one[0].variants) {
    EXPECT_EQ(v.n, 1ll << 28) << v.id;
    EXPECT_TRUE(v.note.empty()) << v.id;
  }
  // dtype x n x dist x op x kind, in that order.
  const auto plan = make_plan(parse({"--primitive", "segmented_scan", "--dtype", "float,uint64", "--n", "2^20,1000",
                                     "--dist", "all_1,with_empty", "--op", "sum,max", "--kind",
                                     "inclusive,exclusive"}),
                              c);
  ASSERT_EQ(plan.size(), 2u * 2u * 2u * 2u * 2u);
  EXPECT_EQ(plan[0].table, "segmented_scan: float, 2^20 items, inclusive sum, all_1");
  EXPECT_EQ(plan[1].table, "segmented_scan: float, 2^20 items, exclusive sum, all_1");
  EXPECT_EQ(plan[2].table, "segmented_scan: float, 2^20 items, inclusive max, all_1");
  EXPECT_EQ(plan[4].table, "segmented_scan: float, 2^20 items, inclusive sum, with_empty");
  EXPECT_EQ(plan.back().table, "segmented_scan: uint64, 1000 items, exclusive max, with_empty");
  // --variant takes the registry's ids; the forms are the rows of each.
  const auto onepass = make_plan(parse({"--primitive", "segmented_scan", "--variant", "onepass"}), c);
  ASSERT_EQ(onepass.size(), 1u);
  EXPECT_EQ(ids(onepass[0]), std::vector<std::string>{"onepass"});
  expect_usage_error([&] { make_plan(parse({"--primitive", "segmented_scan", "--variant", "onepass (flags)"}), c); },
                     "--variant: 'onepass (flags)' is not known");
}

TEST(BenchSegmentedScanPlan, DistIsSharedWithTheOtherDistributions) {
  const catalogue c = catalogue_with_segmented_scan();
  // Without --primitive, a segment distribution runs the segmented scan and the
  // primitives without a distribution; the histogram and the radix sort are skipped.
  const auto plan = make_plan(parse({"--dist", "power_law"}), c);
  for (const auto& t : plan) {
    EXPECT_NE(t.primitive, "histogram") << t.table;
    EXPECT_NE(t.primitive, "radix_sort") << t.table;
    EXPECT_EQ(t.dist, t.primitive == "segmented_scan" ? "power_law" : "") << t.table;
  }
  ASSERT_FALSE(plan.empty());
  EXPECT_EQ(plan.back().table, "segmented_scan: int32, 2^28 items, inclusive sum, power_law");
  // And a histogram distribution runs no segmented scan.
  for (const auto& t : make_plan(parse({"--dist", "skewed"}), c)) EXPECT_NE(t.primitive, "segmented_scan") << t.table;
  expect_usage_error([&] { make_plan(parse({"--primitive", "segmented_scan", "--dist", "skewed"}), c); },
                     "--dist: segmented_scan does not take 'skewed'");
  expect_usage_error([&] { make_plan(parse({"--primitive", "histogram", "--dist", "all_32"}), c); },
                     "--dist: histogram does not take 'all_32'");
  expect_usage_error([&] { make_plan(parse({"--primitive", "scan", "--dist", "all_32"}), c); },
                     "--dist: scan has no sample distribution");
  expect_usage_error([&] { make_plan(parse({"--primitive", "segmented_scan", "--keep", "50"}), c); },
                     "--keep: segmented_scan keeps no fraction of its items");
  expect_usage_error([&] { make_plan(parse({"--primitive", "segmented_scan", "--order", "ascending"}), c); },
                     "--order: segmented_scan has no sort order");
  expect_usage_error([&] { make_plan(parse({"--primitive", "segmented_scan", "--dtype", "uint8"}), c); },
                     "--dtype: segmented_scan does not take 'uint8'");
  // Without the segmented scan, its distributions are unknown.
  expect_usage_error([] { make_plan(parse({"--dist", "all_1"}), catalogue_with_radix_sort()); },
                     "--dist: 'all_1' is not known");
}

TEST(BenchSegmentedScanPlan, SeedsPresetTables) {
  const catalogue c = catalogue_with_segmented_scan();
  const auto plan = make_plan(parse({"--preset", "seeds", "--primitive", "segmented_scan"}), c);
  const char* dists[] = {"all_1", "all_32", "uniform_1_1000", "power_law", "one_segment", "with_empty"};
  ASSERT_EQ(plan.size(), 6u);
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(plan[i].table, std::string("segmented_scan: int32, 2^28 items, inclusive sum, ") + dists[i]);
    EXPECT_EQ(plan[i].primitive, "segmented_scan");
    EXPECT_EQ(plan[i].dtype, "int32");
    EXPECT_EQ(plan[i].n, 1ll << 28);
    EXPECT_EQ(plan[i].op, "sum");
    EXPECT_EQ(plan[i].kind, "inclusive");
    EXPECT_EQ(plan[i].dist, dists[i]);
    EXPECT_EQ(ids(plan[i]), (std::vector<std::string>{"warp_head_flags", "onepass", "cub"}));
  }
  // The full preset ends with them, after the radix sort; the plain scan of the same
  // type, size and operation is in it, so one run holds both.
  const auto all = make_plan(parse({"--preset", "seeds"}), c);
  ASSERT_EQ(all.size(), 29u + 10u + 6u);
  for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(all[39 + i].table, plan[i].table);
  const auto scan = std::find_if(all.begin(), all.end(), [](const bench_case& t) {
    return t.table == "scan: int32, 2^28 items, inclusive sum";
  });
  ASSERT_NE(scan, all.end());
  EXPECT_EQ(scan->primitive, "scan");
  EXPECT_EQ(scan->n, 1ll << 28);
  // Filters narrow them like the others.
  const auto both = make_plan(parse({"--preset", "seeds", "--primitive", "scan,segmented_scan", "--dtype", "int32",
                                     "--variant", "onepass"}),
                              c);
  ASSERT_EQ(both.size(), 2u + 6u);  // the 2^30 and 2^28 scans (the single-block table has no onepass)
  EXPECT_EQ(both[1].table, "scan: int32, 2^28 items, inclusive sum");
  for (const auto& t : both) EXPECT_EQ(ids(t), std::vector<std::string>{"onepass"}) << t.table;
  EXPECT_TRUE(make_plan(parse({"--preset", "seeds", "--primitive", "segmented_scan", "--dtype", "float"}), c).empty());
}

TEST(BenchSegmentedScanList, ShowsTheDistributionsAndTheForms) {
  const std::string text = format_list(catalogue_with_segmented_scan());
  EXPECT_NE(text.find("segmented_scan - a scan that restarts"), std::string::npos) << text;
  EXPECT_NE(text.find("dists: uniform_1_1000, all_1, all_32, power_law, one_segment, with_empty (--dist; default "
                      "uniform_1_1000)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  warp_head_flags  a warp per tile, head flags [forms: flags]\n"), std::string::npos) << text;
  EXPECT_NE(text.find("[forms: flags, offsets, by key]"), std::string::npos) << text;
  EXPECT_NE(text.find("[forms: by key]"), std::string::npos) << text;
  EXPECT_EQ(format_list(catalogue_with_radix_sort()).find("forms:"), std::string::npos);
}

TEST(BenchSegmentedScanUsage, DocumentsTheDistributionsAndTheRows) {
  const std::string u = usage_text();
  for (const char* d : {"uniform_1_1000", "all_1", "all_32", "power_law", "one_segment", "with_empty"})
    EXPECT_NE(u.find(d), std::string::npos) << d << "\n" << u;
  EXPECT_NE(u.find("segmented_scan"), std::string::npos) << u;
  EXPECT_NE(u.find("onepass (by key)"), std::string::npos) << u;
}

}  // namespace
}  // namespace onepass::bench
