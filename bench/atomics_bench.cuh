// onepass-bench's atomics-contention table: the same number of atomicAdd operations
// spread over 1 ... 1M distinct addresses, in Gops/s. It shows why the reduce ladder's
// atomic rungs are slow (everything on one address) and why privatisation helps.
#pragma once

#include "gpu.cuh"

namespace onepass::bench {

primitive_desc atomics_primitive();
std::vector<record> run_atomics_table(const bench_case& c, bench_context& ctx);

}  // namespace onepass::bench
