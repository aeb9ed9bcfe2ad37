// The int32 instantiation of the select, unique and partition tables (one file per type:
// parallel builds).
#include "select_bench.cuh"

template std::vector<onepass::bench::record> onepass::bench::run_select_table_typed<std::int32_t>(
    const bench_case&, bench_context&);
