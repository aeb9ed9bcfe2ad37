// The uint32-key instantiation of the radix sort tables, all three value kinds (one file
// per key type: parallel builds).
#include "radix_sort_bench.cuh"

template std::vector<onepass::bench::record> onepass::bench::run_radix_sort_table_key<std::uint32_t>(const bench_case&,
                                                                                        bench_context&);
