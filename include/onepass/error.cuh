// onepass/error.cuh — the two exception types every host-side entry point throws.
//
// onepass::invalid_argument: the caller passed something wrong; the message names the
//   argument and what is wrong with it. Thrown before any work is enqueued.
// onepass::cuda_error: the CUDA runtime reported a failure (no device, out of memory, a
//   sticky error from earlier work on the context, a failed launch).
#pragma once

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace onepass {

// invalid_argument: a call's argument is wrong. what(): "onepass: argument '<name>'
// <problem>"; argument(): the name alone. Thrown before the call enqueues anything, except
// where a call says otherwise (bad segment offsets, found on the device).
class invalid_argument : public std::invalid_argument {
 public:
  invalid_argument(const std::string& argument, const std::string& problem)
      : std::invalid_argument("onepass: argument '" + argument + "' " + problem),
        argument_(argument) {}
  // The name of the offending argument, as spelled in the API's declaration.
  const std::string& argument() const noexcept { return argument_; }

 private:
  std::string argument_;
};

// cuda_error: a CUDA runtime call failed. what(): the failed call, the error's name and
// its description; code(): the cudaError_t.
class cuda_error : public std::runtime_error {
 public:
  cuda_error(cudaError_t code, const std::string& what_failed)
      : std::runtime_error("onepass: " + what_failed + " failed: " + cudaGetErrorName(code) +
                           " (" + cudaGetErrorString(code) + ")"),
        code_(code) {}
  cudaError_t code() const noexcept { return code_; }

 private:
  cudaError_t code_;
};

namespace detail {
inline void throw_on_cuda_error(cudaError_t code, const char* what_failed) {
  if (code != cudaSuccess) throw cuda_error(code, what_failed);
}
}  // namespace detail
}  // namespace onepass

// Throws onepass::cuda_error naming the failed call. Host code only.
#define ONEPASS_CUDA_TRY(call) ::onepass::detail::throw_on_cuda_error((call), #call)
