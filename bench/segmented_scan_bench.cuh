// onepass-bench's segmented scan tables: every registry variant in every form it has
// (head flags, CSR offsets, keys, begin/end arrays with gaps), one row per (variant, form). The tables themselves are
// in segmented_scan_bench_typed.cuh, compiled once per element type
// (segmented_scan_bench_<dtype>.cu).
//
// Only the declarations here: main.cu, which includes every primitive's header, then
// compiles none of the segmented scan's templates.
#pragma once

#include <vector>

#include "plan.hpp"
#include "report.hpp"

namespace onepass::bench {

struct bench_context;

primitive_desc segmented_scan_primitive();

// Runs one segmented scan table; dispatches on c.dtype (segmented_scan_bench.cu).
std::vector<record> run_segmented_scan_table(const bench_case& c, bench_context& ctx);

}  // namespace onepass::bench
