// The uint32 instantiation of the histogram tables (one file per type: parallel builds).
#include "histogram_bench.cuh"

template std::vector<onepass::bench::record> onepass::bench::run_histogram_table_typed<std::uint32_t>(
    const bench_case&, bench_context&);
