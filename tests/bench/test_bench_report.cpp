// onepass-bench's report, without a GPU: derived figures, the aligned terminal table, the
// Markdown, and the JSON (whose schema bench/check_results.py checks on the file this
// test writes).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "cli.hpp"
#include "report.hpp"

namespace onepass::bench {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream is(text);
  for (std::string line; std::getline(is, line);) lines.push_back(line);
  return lines;
}

std::size_t count(const std::string& s, char c) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), c)); }

run_info sample_info() {
  run_info info{"onepass-bench 0.1.0", "Test GPU \"X\"", 132, "runtime 13.0, driver 13.0", "2026-11-21T12:00:00Z",
                "onepass-bench --preset seeds", 3, 20, 120ll << 20, 4000.0, 4400.0};
  info.details.push_back("compute capability 9.0");
  return info;
}

const std::string table_a = "scan: int32, 2^30 items, inclusive sum";

std::vector<record> sample_records() {
  const double copy = 4000, read = 4400;
  std::vector<record> r;
  r.push_back(timed_record("baseline", "copy", "int32", 1ll << 30, {{"table", std::string("ceilings: int32, 2^30 items")}},
                           {2.0, 1.9, 2.2}, 8.0 * (1 << 30), copy, read));
  r.push_back(timed_record("scan", "sequential", "int32", 1 << 16,
                           {{"table", table_a}, {"op", std::string("sum")}, {"kind", std::string("inclusive")},
                            {"passes", 1.0}, {"note", std::string("at its own size, 2^16 items: one thread")}},
                           {40.0, 39.0, 41.0}, 8.0 * (1 << 16), copy, read));
  r.push_back(timed_record("scan", "three_pass_smem", "int32", 1ll << 30,
                           {{"table", table_a}, {"op", std::string("sum")}, {"kind", std::string("inclusive")}, {"passes", 2.0}},
                           {5.0, 4.9, 5.3}, 8.0 * (1 << 30), copy, read));
  r.push_back(failed_record("scan", "lookback_warp", "int32", 1ll << 30,
                            {{"table", table_a}, {"op", std::string("sum")}, {"kind", std::string("inclusive")}, {"passes", 1.0}},
                            "first difference at index 5 of 1073741824: expected 3, got 4 | really"));
  r.push_back(timed_record("scan", "onepass", "int32", 1ll << 30,
                           {{"table", table_a}, {"op", std::string("sum")}, {"kind", std::string("inclusive")}, {"passes", 1.0}},
                           {2.5, 2.4, 2.6}, 8.0 * (1 << 30), copy, read));
  r.push_back(timed_record("scan", "hillis_steele", "int32", 1024ll << 16,
                           {{"table", std::string("scan: single block")}, {"op", std::string("sum")}, {"kind", std::string("inclusive")},
                            {"passes", 1.0}, {"batch", 1ll << 16}, {"items_per_block", 1024ll}, {"us_per_block", 0.01}},
                           {0.65536, 0.6, 0.7}, 8.0 * (1024 << 16), copy, read));
  // A segmented scan table: one row per (variant, form), the form in the label and in
  // params.form; the bytes count the segment description too (here a flag per item).
  const std::string table_s = "segmented_scan: int32, 2^28 items, inclusive sum, power_law";
  r.push_back(timed_record("segmented_scan", "onepass (flags)", "int32", 1ll << 28,
                           {{"table", table_s}, {"op", std::string("sum")}, {"kind", std::string("inclusive")},
                            {"dist", std::string("power_law")}, {"form", std::string("flags")}, {"segments", 1000ll},
                            {"passes", 1.0}},
                           {0.6, 0.59, 0.62}, 9.0 * (1 << 28), copy, read));
  // The begin/end row: the same segments with gaps, two 8-byte arrays of 1000 read.
  r.push_back(timed_record("segmented_scan", "onepass (begin/end with gaps)", "int32", 1ll << 28,
                           {{"table", table_s}, {"op", std::string("sum")}, {"kind", std::string("inclusive")},
                            {"dist", std::string("power_law")}, {"form", std::string("begin_end")},
                            {"segments", 1000ll}, {"passes", 1.0}},
                           {0.58, 0.57, 0.6}, 8.0 * (1 << 28) + 16.0 * 1000, copy, read));
  r.push_back(failed_record("segmented_scan", "cub (by key)", "int32", 1ll << 28,
                            {{"table", table_s}, {"op", std::string("sum")}, {"kind", std::string("inclusive")},
                             {"dist", std::string("power_law")}, {"form", std::string("by_key")},
                             {"segments", 1000ll}, {"passes", 1.0}},
                            "first difference at index 7 of 268435456: expected 1, got 2"));
  return r;
}

TEST(BenchReport, DerivedFigures) {
  const record r = timed_record("scan", "x", "int32", 1000, {{"table", std::string("t")}}, {2.0, 1.0, 3.0}, 8e9, 4000, 5000);
  EXPECT_TRUE(r.verified);
  EXPECT_DOUBLE_EQ(r.gbps, 4000.0);  // 8e9 bytes in 2 ms
  EXPECT_DOUBLE_EQ(r.pct_of_copy, 100.0);
  EXPECT_DOUBLE_EQ(r.pct_of_read, 80.0);
  EXPECT_DOUBLE_EQ(r.items_per_s, 500000.0);
  EXPECT_EQ(r.table(), "t");
  const record f = failed_record("scan", "x", "int32", 10, {{"table", std::string("t")}}, "broken");
  EXPECT_FALSE(f.verified);
  ASSERT_NE(f.param("error"), nullptr);
  EXPECT_EQ(std::get<std::string>(*f.param("error")), "broken");
}

TEST(BenchReport, NumberFormats) {
  EXPECT_EQ(format_ms(123.456), "123.5");
  EXPECT_EQ(format_ms(12.3456), "12.35");
  EXPECT_EQ(format_ms(1.23456), "1.235");
  EXPECT_EQ(format_ms(0.123456), "0.1235");
  EXPECT_EQ(format_ms(0.00123456), "0.00123");
  EXPECT_EQ(format_gbps(3102.4), "3102");
  EXPECT_EQ(format_gbps(16.04), "16.0");
  EXPECT_EQ(format_gbps(0.0421), "0.042");
  EXPECT_EQ(format_pct(73.04), "73.0%");
  EXPECT_EQ(format_pct(4.321), "4.32%");
  EXPECT_EQ(format_pct(0.0123), "0.012%");
  EXPECT_EQ(format_pct(0.00033), "0.00033%");
}

TEST(BenchReport, TerminalTablesAreAlignedAndComplete) {
  const std::string text = format_tables(sample_records());
  const auto lines = lines_of(text);
  // Title lines, then rows whose numeric columns end at the same position.
  std::size_t title = 0;
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (lines[i] == table_a) title = i;
  ASSERT_GT(title, 0u) << text;
  const std::string& header = lines[title + 1];
  EXPECT_NE(header.find("variant"), std::string::npos);
  for (const char* column : {"n", "median ms", "min-max ms", "GB/s", "% of copy", "passes", "speed-up", "note"})
    EXPECT_NE(header.find(column), std::string::npos) << column;
  const std::size_t gbps_end = header.find("GB/s") + 4;
  for (std::size_t i = title + 2; i < title + 6; ++i) {
    const std::string& row = lines[i];
    if (row.find("FAILED") != std::string::npos) continue;
    EXPECT_EQ(row[gbps_end - 1] != ' ', true) << "GB/s column not right-aligned:\n" << text;
    EXPECT_EQ(row[gbps_end], ' ') << text;
  }
  // Speed-up is over the first row's throughput; the first row is 1.00x.
  EXPECT_NE(lines[title + 2].find("1.00x"), std::string::npos) << text;
  EXPECT_NE(text.find("at its own size, 2^16 items"), std::string::npos);
  EXPECT_NE(text.find("2^16"), std::string::npos);
  // A failure shows as FAILED with its reason, never as a time.
  const auto failed = std::find_if(lines.begin(), lines.end(), [](const std::string& l) { return l.find("lookback_warp") != std::string::npos; });
  ASSERT_NE(failed, lines.end());
  EXPECT_NE(failed->find("FAILED"), std::string::npos);
  EXPECT_NE(failed->find("expected 3, got 4"), std::string::npos);
  EXPECT_EQ(failed->find("GB"), std::string::npos);
  // Batched single-block tables get a time-per-block column.
  EXPECT_NE(text.find("ns/block"), std::string::npos);
  EXPECT_NE(text.find("10.00"), std::string::npos) << text;
}

TEST(BenchReport, MarkdownTables) {
  const std::string md = format_markdown(sample_info(), sample_records());
  EXPECT_EQ(md.rfind("# onepass-bench: Test GPU", 0), 0u);
  EXPECT_NE(md.find("copy 4000 GB/s"), std::string::npos) << md;
  EXPECT_NE(md.find("### " + table_a), std::string::npos);
  // Every row of a table has as many cells as its header; the failure's '|' is escaped.
  std::size_t header_pipes = 0;
  for (const auto& line : lines_of(md)) {
    if (line.rfind("| variant", 0) == 0) header_pipes = count(line, '|');
    if (line.rfind("|", 0) == 0) {
      EXPECT_EQ(count(line, '|') - (line.find("\\|") != std::string::npos ? 1 : 0), header_pipes) << line;
    }
  }
  EXPECT_NE(md.find("---:|"), std::string::npos);
}

TEST(BenchReport, JsonHasTheSchemaFieldsAndNullsForFailures) {
  const std::string json = format_json(sample_info(), sample_records());
  for (const char* field : {"\"schema\": \"onepass-bench/1\"", "\"gpu\": \"Test GPU \\\"X\\\"\"", "\"sm_count\": 132",
                            "\"cuda\": ", "\"date\": ", "\"copy_gbps\": 4000", "\"read_gbps\": 4400", "\"records\": ["})
    EXPECT_NE(json.find(field), std::string::npos) << field << "\n" << json;
  EXPECT_NE(json.find("\"ms_median\": null"), std::string::npos);
  EXPECT_NE(json.find("\"verified\": false"), std::string::npos);
  EXPECT_NE(json.find("\"params\": {\"table\": \"scan: int32, 2^30 items, inclusive sum\", \"op\": \"sum\""), std::string::npos);
  // The file bench/check_results.py validates (ctest: bench_json_schema).
  std::ofstream(ONEPASS_BENCH_SAMPLE_JSON) << json;
}

}  // namespace
}  // namespace onepass::bench

namespace onepass::bench {
namespace {

// A reduce table is a fraction of the read-only pass; an atomics table is a rate of
// operations, with no ceiling at all.
TEST(BenchReport, ReadCeilingAndOperationRateColumns) {
  const double copy = 4000, read = 4400;
  std::vector<record> r;
  r.push_back(timed_record("reduce", "onepass", "int32", 1ll << 30,
                           {{"table", std::string("reduce: int32, 2^30 items, sum")}, {"op", std::string("sum")},
                            {"ceiling", std::string("read")}},
                           {1.0, 0.9, 1.1}, 4.0 * (1 << 30), copy, read));
  r.push_back(timed_record("atomics", "addresses_1", "uint32", 1 << 20,
                           {{"table", std::string("atomics: 2^20 atomicAdd on uint32 counters")},
                            {"addresses", 1ll}, {"rate", std::string("ops")}},
                           {0.5, 0.5, 0.5}, 8.0 * (1 << 20), copy, read));
  const std::string text = format_tables(r);
  const std::vector<std::string> lines = lines_of(text);
  const auto header_of = [&](const std::string& title) {
    for (std::size_t i = 0; i + 1 < lines.size(); ++i)
      if (lines[i].find(title) != std::string::npos) return lines[i + 1];
    return std::string();
  };
  const std::string reduce_header = header_of("reduce: int32");
  EXPECT_NE(reduce_header.find("% of read"), std::string::npos) << text;
  EXPECT_EQ(reduce_header.find("% of copy"), std::string::npos) << text;
  // 4 GiB in 1 ms against a 4400 GB/s read ceiling: 97.6%.
  EXPECT_NE(text.find("97.6%"), std::string::npos) << text;
  const std::string atomics_header = header_of("atomics:");
  EXPECT_NE(atomics_header.find("Gops/s"), std::string::npos) << text;
  EXPECT_EQ(atomics_header.find("GB/s"), std::string::npos) << text;
  EXPECT_NE(text.find("2.10"), std::string::npos) << text;  // 2^20 operations in 0.5 ms
}

}  // namespace
}  // namespace onepass::bench

// Sorts (params.rate "keys") show keys per second beside the modelled GB/s.
namespace onepass::bench {
namespace {
TEST(BenchReport, SortsShowKeysPerSecond) {
  const std::string table = "radix_sort: uint32, 2^28 keys, random, ascending";
  const long long n = 1ll << 28;
  std::vector<record> r;
  for (const auto& [id, ms] : {std::pair<const char*, double>{"split_1bit", 100.0}, {"cub", 6.4}})
    r.push_back(timed_record("radix_sort", id, "uint32", n,
                             {{"table", table}, {"rate", std::string("keys")}, {"digit_passes", 4ll}},
                             {ms, ms, ms}, 2.0 * 4 * 4 * n, 4000, 4400));
  const std::string text = format_tables(r);
  EXPECT_NE(text.find("Gkeys/s"), std::string::npos) << text;
  EXPECT_NE(text.find("41.94"), std::string::npos) << text;  // 2^28 keys in 6.4 ms
  EXPECT_NE(text.find("2.68"), std::string::npos) << text;   // ... in 100 ms
  EXPECT_NE(text.find("% of copy"), std::string::npos) << text;
  // Other tables keep their columns.
  EXPECT_EQ(format_tables(sample_records()).find("Gkeys/s"), std::string::npos);
}
}  // namespace
}  // namespace onepass::bench

// Segmented scan rows are labelled with their form; their rates are fractions of the copy.
namespace onepass::bench {
namespace {
TEST(BenchReport, SegmentedScanRowsNameTheirForm) {
  const std::string table = "segmented_scan: int32, 2^28 items, inclusive sum, all_32";
  const long long n = 1ll << 28;
  std::vector<record> r;
  const std::pair<const char*, const char*> rows[] = {
      {"warp_head_flags (flags)", "flags"}, {"onepass (flags)", "flags"}, {"onepass (offsets)", "offsets"},
      {"onepass (by key)", "by_key"}, {"onepass (begin/end with gaps)", "begin_end"}, {"cub (by key)", "by_key"}};
  for (const auto& [label, form] : rows)
    r.push_back(timed_record("segmented_scan", label, "int32", n,
                             {{"table", table}, {"op", std::string("sum")}, {"kind", std::string("inclusive")},
                              {"dist", std::string("all_32")}, {"form", std::string(form)}, {"segments", n / 32},
                              {"passes", 1.0}},
                             {1.0, 1.0, 1.0}, 8.0 * n, 4000, 4400));
  const std::string text = format_tables(r);
  for (const auto& [label, form] : rows) EXPECT_NE(text.find(std::string(label) + " "), std::string::npos) << text;
  EXPECT_NE(text.find("% of copy"), std::string::npos) << text;
  EXPECT_NE(text.find("53.7%"), std::string::npos) << text;  // 2^31 bytes in 1 ms against 4000 GB/s
  const std::string json = format_json(sample_info(), r);
  EXPECT_NE(json.find("\"variant\": \"onepass (by key)\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"form\": \"by_key\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"variant\": \"onepass (begin/end with gaps)\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"form\": \"begin_end\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"segments\": 8388608"), std::string::npos) << json;
}
}  // namespace
}  // namespace onepass::bench
