// segmented_scan_tuning_sweep for double values (one file per type: parallel builds).
#include "segmented_scan_tuning_sweep_typed.cuh"

template int onepass::sweeps::run_segmented_sweep<double>(
    long long, onepass::bench::timer&, const std::string&, const std::vector<onepass::test::segment_distribution>&);
