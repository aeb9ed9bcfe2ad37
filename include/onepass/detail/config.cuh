// onepass/detail/config.cuh — compiler portability macros shared by every header.
//
// The lookback protocol (onepass/single_pass/lookback.cuh) is also compiled by a plain host compiler
// for its CPU-thread tests, so the function qualifiers must vanish outside nvcc.
#pragma once

#include "onepass/types.cuh"

#if defined(__CUDACC__)
#define ONEPASS_HD __host__ __device__
#define ONEPASS_DEVICE __device__
#define ONEPASS_FORCEINLINE __forceinline__
#else
#define ONEPASS_HD
#define ONEPASS_DEVICE
#define ONEPASS_FORCEINLINE inline
#endif

// onepass's device code uses warp reductions (__reduce_*_sync), cp.async and the
// lookback's acquire/release ordering, which compute capability 8.0 brought: stop with
// one message naming the requirement rather than with errors from deep inside a kernel.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#error "onepass needs a GPU of compute capability 8.0 or newer: compile for sm_80 or later (nvcc -arch=sm_90, CMAKE_CUDA_ARCHITECTURES=90)"
#endif

#if defined(__CUDA_ARCH__)
#define ONEPASS_DEVICE_PASS 1
#else
#define ONEPASS_DEVICE_PASS 0
#endif

#define ONEPASS_VERSION_MAJOR 0
#define ONEPASS_VERSION_MINOR 1
#define ONEPASS_VERSION_PATCH 0

namespace onepass {
namespace detail {
// The most any GPU onepass supports gives a block (9.0, 10.x): a bound for checking tunings.
inline constexpr int largest_max_shared_bytes_per_block = 227 * 1024;

// The most shared memory a block may opt into on the architecture this device pass
// compiles for: what cudaDevAttrMaxSharedMemoryPerBlockOptin reports on such GPUs (the
// SM's shared memory less the 1 KiB it reserves for a block). For compile-time choices
// only (how many blocks a SM can hold, for a kernel's __launch_bounds__); launches ask
// the device itself (max_shared_bytes_per_block(), detail/launch.cuh). The host pass has
// no architecture and takes the largest, which only the device pass uses anyway.
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ == 900 || (__CUDA_ARCH__ >= 1000 && __CUDA_ARCH__ < 1200)
inline constexpr int arch_max_shared_bytes_per_block = largest_max_shared_bytes_per_block;  // 9.0, 10.x, 11.0
#elif __CUDA_ARCH__ == 800 || __CUDA_ARCH__ == 870
inline constexpr int arch_max_shared_bytes_per_block = 163 * 1024;  // 8.0, 8.7
#else
inline constexpr int arch_max_shared_bytes_per_block = 99 * 1024;  // 8.6, 8.9, 12.x
#endif
}  // namespace detail
}  // namespace onepass
