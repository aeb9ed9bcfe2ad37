// onepass/types.cuh — the types every public call shares.
//
//   onepass::index_t     element counts and indices: 64-bit everywhere, so arrays of more
//                        than 2^31 items work with every call.
//   onepass::workspace   caller-provided scratch for the allocation-free ("workspace")
//                        call style: {data, bytes}, sized by the call's *_workspace_bytes
//                        query; each header's contract says what it must be.
#pragma once

#include <cstddef>

namespace onepass {

using index_t = long long;

struct workspace {
  void* data = nullptr;
  std::size_t bytes = 0;
};

}  // namespace onepass
