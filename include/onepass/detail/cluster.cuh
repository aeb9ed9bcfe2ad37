// onepass/detail/cluster.cuh — thread-block clusters (sm_90+): whether the GPU has them,
// and their barrier. Compiled for an older GPU the barrier does nothing: there every
// block is a cluster of one (the dispatchers launch clusters only where the GPU has them).
#pragma once

#include "onepass/detail/config.cuh"
#include "onepass/detail/launch.cuh"

namespace onepass::detail {

// Thread-block clusters (cudaLaunchAttributeClusterDimension): Hopper and newer.
inline bool supports_clusters() { return device_major() >= 9; }

// Every thread of every block of the cluster waits here for all the others: execution
// only, no memory ordering (relaxed arrive). Every thread of each block must call it (the
// .aligned form), as often as the other blocks of its cluster do.
__device__ ONEPASS_FORCEINLINE void cluster_execution_barrier() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("barrier.cluster.arrive.relaxed.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
#endif
}

}  // namespace onepass::detail
