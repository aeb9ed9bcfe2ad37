// segmented_scan_tuning_sweep for long long values (one file per type: parallel builds).
#include "segmented_scan_tuning_sweep_typed.cuh"

template int onepass::sweeps::run_segmented_sweep<long long>(
    long long, onepass::bench::timer&, const std::string&, const std::vector<onepass::test::segment_distribution>&);
