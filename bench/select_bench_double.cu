// The double instantiation of the select, unique and partition tables (one file per type:
// parallel builds).
#include "select_bench.cuh"

template std::vector<onepass::bench::record> onepass::bench::run_select_table_typed<double>(
    const bench_case&, bench_context&);
