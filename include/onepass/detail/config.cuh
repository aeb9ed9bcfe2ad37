// onepass/detail/config.cuh — compiler portability macros shared by every header.
//
// The lookback protocol (onepass/lookback) is also compiled by a plain host compiler
// for its CPU-thread tests, so the function qualifiers must vanish outside nvcc.
#pragma once

#if defined(__CUDACC__)
#define ONEPASS_HD __host__ __device__
#define ONEPASS_DEVICE __device__
#define ONEPASS_FORCEINLINE __forceinline__
#else
#define ONEPASS_HD
#define ONEPASS_DEVICE
#define ONEPASS_FORCEINLINE inline
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
// Element counts are 64-bit everywhere: arrays of more than 2^31 items are supported.
using index_t = long long;
}  // namespace onepass
