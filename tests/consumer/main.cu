// Compiles and links against the installed onepass. Runs a scan when a GPU is present;
// without one it only shows that the headers and target are usable.
#include <onepass/onepass.cuh>

#include <cstdio>

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("consumer: built against onepass %d.%d.%d; no GPU, not running a scan\n",
                ONEPASS_VERSION_MAJOR, ONEPASS_VERSION_MINOR, ONEPASS_VERSION_PATCH);
    return 0;
  }
  int* d = nullptr;
  cudaMalloc(&d, 3 * sizeof(int));
  const int h[3] = {1, 2, 3};
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  onepass::inclusive_scan(d, 3, d);
  int r[3];
  cudaMemcpy(r, d, sizeof r, cudaMemcpyDeviceToHost);
  cudaFree(d);
  std::printf("consumer: inclusive_scan([1,2,3]) = [%d,%d,%d]\n", r[0], r[1], r[2]);
  return (r[0] == 1 && r[1] == 3 && r[2] == 6) ? 0 : 1;
}
