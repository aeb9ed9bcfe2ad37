// onepass/types.cuh — the types every public call shares.
//
//   onepass::index_t     element counts and indices: 64-bit everywhere, so arrays of more
//                        than 2^31 items work with every call.
//   onepass::workspace   caller-provided scratch for the allocation-free ("workspace")
//                        call style: {data, bytes}, sized by the call's *_workspace_bytes
//                        query; each header's contract says what it must be.
//   onepass::determinism what a call promises about the bits of floating-point results:
//                        not_guaranteed (the fastest path), run_to_run, gpu_to_gpu.
#pragma once

#include <cstddef>

namespace onepass {

using index_t = long long;

struct workspace {
  void* data = nullptr;
  std::size_t bytes = 0;
};

// How reproducible a call's floating-point results are. Integer results are exact on
// every path (their operations are associative without rounding), so for them the choice
// changes nothing and costs nothing.
//   not_guaranteed  the fastest path: the order in which partial results are combined may
//                   depend on timing, so the last bits of float results may differ from
//                   run to run.
//   run_to_run      the same bits on every run on one GPU model, for the same n and input,
//                   whatever the timing, concurrency or other work on the GPU.
//   gpu_to_gpu      the same bits on every supported GPU: the order of combination
//                   depends on n and the element type alone, never on the SM count,
//                   occupancy, tuning or the pointers' alignment. Implies run_to_run.
enum class determinism { not_guaranteed, run_to_run, gpu_to_gpu };

}  // namespace onepass
