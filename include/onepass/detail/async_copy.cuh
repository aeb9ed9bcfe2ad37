// onepass/detail/async_copy.cuh — asynchronous global-to-shared copies (cp.async, sm_80+).
//
// A cp.async moves 16 bytes from global to shared memory without passing through
// registers, so a block can have its next tile's loads in flight while it does other
// work (the production scan overlaps them with the current tile's lookback). Copies are
// grouped per thread: commit() closes a group, wait<K>() returns when at most K of this
// thread's groups are still in flight. Other threads see the data only after the issuing
// thread's wait and a barrier (__syncthreads), the usual producer/consumer pattern.
#pragma once

#include "onepass/detail/config.cuh"

namespace onepass::detail {

// Copies 16 bytes from `src` to `dst`, both 16-byte aligned. .cg: cached in L2 only,
// as streaming data is never reused from L1.
__device__ ONEPASS_FORCEINLINE void cp_async_16(void* dst, const void* src) {
  const unsigned dst_shared = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst_shared), "l"(src) : "memory");
}

__device__ ONEPASS_FORCEINLINE void cp_async_commit() {
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}

template <int InFlight>
__device__ ONEPASS_FORCEINLINE void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(InFlight) : "memory");
}

}  // namespace onepass::detail
