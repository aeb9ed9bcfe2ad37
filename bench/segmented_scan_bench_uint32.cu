// The uint32 instantiation of the segmented scan tables (one file per type: parallel builds).
#include "segmented_scan_bench_typed.cuh"

template std::vector<onepass::bench::record> onepass::bench::run_segmented_scan_table_typed<std::uint32_t>(
    const bench_case&, bench_context&);
