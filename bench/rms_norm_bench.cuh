// onepass-bench's RMSNorm table: onepass::rms_norm on a rows x width matrix of float or
// bfloat16, its output checked on the host against the float64 reference (the tests'
// tolerance, tests/support/rms_norm_reference.hpp) before it is timed.
#pragma once

#include <string>
#include <vector>

#include "gpu.cuh"
#include "plan.hpp"
#include "report.hpp"

namespace onepass::bench {

// The rmsnorm primitive for --list and the plan: dtypes float and bfloat16, one variant.
primitive_desc rms_norm_primitive();

// Titles come from plan.hpp's rms_norm_title (bench/peers.py writes the same ones).

// One table: c.n is the row width, c.batch the rows (0: as many rows as make 2^24 items,
// at least one). Bytes counted: x read and y written once, the weight read once.
std::vector<record> run_rms_norm_table(const bench_case& c, bench_context& ctx);

}  // namespace onepass::bench
