// segmented_scan_tuning_sweep's sweep over one value type, as the command line calls it.
// Defined in segmented_scan_tuning_sweep_typed.cuh, instantiated for int, long long and
// double in segmented_scan_tuning_sweep_<type>.cu.
#pragma once

#include <string>
#include <vector>

#include "gpu.cuh"
#include "support/segmented_scan_reference.hpp"

namespace onepass::sweeps {

// Runs mode `forms` (segmented_scan_tuning_sweep.cu lists them) on each distribution with
// n values of type T; prints a line a row; returns the number of wrong answers.
template <class T>
int run_segmented_sweep(long long n, bench::timer& time, const std::string& forms,
                        const std::vector<test::segment_distribution>& distributions);

}  // namespace onepass::sweeps
