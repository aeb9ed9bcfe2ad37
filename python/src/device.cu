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
