// Event timing shared by the bench programs: 3 warm-ups, then median, min and max of 20
// runs, each bracketed by CUDA events on the default stream.
#pragma once

#include <algorithm>
#include <vector>

#include "onepass/error.cuh"

namespace onepass::bench {

struct timing {
  float median, min, max;
};

template <class F>
timing time_it(F&& f, cudaEvent_t a, cudaEvent_t b) {
  for (int i = 0; i < 3; ++i) f();
  std::vector<float> ms;
  for (int i = 0; i < 20; ++i) {
    ONEPASS_CUDA_TRY(cudaEventRecord(a));
    f();
    ONEPASS_CUDA_TRY(cudaEventRecord(b));
    ONEPASS_CUDA_TRY(cudaEventSynchronize(b));
    float t = 0;
    ONEPASS_CUDA_TRY(cudaEventElapsedTime(&t, a, b));
    ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  return {ms[ms.size() / 2], ms.front(), ms.back()};
}

}  // namespace onepass::bench
