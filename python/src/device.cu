// device_count: whether a GPU is there, asked without touching any array.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "api.h"

int onepass_py::device_count() {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    (void)cudaGetLastError();
    throw std::runtime_error(std::string("onepass: no CUDA GPU is available (cudaGetDeviceCount: ") +
                             (e == cudaSuccess ? "0 devices" : cudaGetErrorString(e)) + ")");
  }
  return count;
}

// Whether `stream` is being captured into a CUDA graph. A query that fails (the legacy
// stream while another stream captures in global mode) answers yes: the caller then takes
// the path that is safe under capture.
bool onepass_py::stream_is_capturing(addr stream) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(reinterpret_cast<cudaStream_t>(stream), &status) != cudaSuccess) {
    (void)cudaGetLastError();
    return true;
  }
  return status != cudaStreamCaptureStatusNone;
}
