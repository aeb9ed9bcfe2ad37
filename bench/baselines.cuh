// The two ceilings every run measures before anything else, on the same GPU in the same
// process: the device-to-device copy (the limit of any primitive that reads and writes
// each item once: scan, select, sort passes) and a read-only pass (the limit of reduce
// and histogram). Every figure the bench prints is a fraction of one of them.
#pragma once

#include <cstdint>

#include "gpu.cuh"

namespace onepass::bench {

struct ceilings {
  double copy_gbps = 0;  // bytes read + bytes written per second
  double read_gbps = 0;  // bytes read per second
  std::vector<record> records;  // primitive "baseline", variants "copy" and "read"
};

// Measures both on n int32 items (fewer, halving, when device memory is short), each
// verified first: the copy must equal its input, the read pass's checksum the CPU's.
ceilings measure_ceilings(timer& t, long long n, std::uint64_t seed, progress& p);

// The baseline variants, for --list.
primitive_desc baseline_primitive();

}  // namespace onepass::bench
