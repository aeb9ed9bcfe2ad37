// The int64 instantiation of the segmented scan tables (one file per type: parallel builds).
#include "segmented_scan_bench_typed.cuh"

template std::vector<onepass::bench::record> onepass::bench::run_segmented_scan_table_typed<long long>(
    const bench_case&, bench_context&);
