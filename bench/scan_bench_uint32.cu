// The uint32 instantiation of the scan tables (one file per type: parallel builds).
#include "scan_bench.cuh"

template std::vector<onepass::bench::record> onepass::bench::run_scan_table_typed<std::uint32_t>(
    const bench_case&, bench_context&);
