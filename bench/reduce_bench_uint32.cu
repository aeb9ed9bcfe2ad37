// The uint32 instantiation of the reduce tables (one file per type: parallel builds).
#include "reduce_bench.cuh"

template std::vector<onepass::bench::record> onepass::bench::run_reduce_table_typed<std::uint32_t>(
    const bench_case&, bench_context&);
