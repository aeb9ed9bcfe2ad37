// The README's histogram example: the 256-bin histogram of an 8-bit image, and a
// histogram of float readings over uneven bins, checked against a loop on the host.
#include <onepass/histogram.cuh>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

int main() try {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA GPU found: this example needs one\n");
    return 77;  // "skipped" to ctest
  }
  // An 8-bit "image": a smooth gradient plus a pattern, 4 megapixels.
  const long long pixels = 1 << 22;
  std::vector<std::uint8_t> image(pixels);
  for (long long i = 0; i < pixels; ++i) image[i] = static_cast<std::uint8_t>((i / 4096 + i % 61) & 0xff);

  std::uint8_t* d_image = nullptr;
  unsigned* d_counts = nullptr;
  ONEPASS_CUDA_TRY(cudaMalloc(&d_image, pixels));
  ONEPASS_CUDA_TRY(cudaMalloc(&d_counts, 256 * sizeof(unsigned)));
  ONEPASS_CUDA_TRY(cudaMemcpy(d_image, image.data(), pixels, cudaMemcpyHostToDevice));

  // 256 bins of width 1 over [0, 256): one bin per intensity. Simple style.
  onepass::histogram_even(d_image, pixels, /*bins=*/256, /*lower=*/0, /*upper=*/256, d_counts);
  std::vector<unsigned> counts(256);
  ONEPASS_CUDA_TRY(cudaMemcpy(counts.data(), d_counts, 256 * sizeof(unsigned), cudaMemcpyDeviceToHost));
  std::vector<unsigned> expected(256, 0);
  for (const std::uint8_t p : image) ++expected[p];
  const bool image_ok = counts == expected;

  // Float readings over uneven bins [-10, 0), [0, 1), [1, 10), [10, 100);
  // readings outside [-10, 100) and NaN are not counted. Workspace style, 64-bit counts.
  const long long n = 1000000;
  std::vector<float> readings(n);
  for (long long i = 0; i < n; ++i) readings[i] = 120.0f * std::sin(0.001f * static_cast<float>(i));
  readings[7] = std::nanf("");
  const std::vector<float> boundaries = {-10.0f, 0.0f, 1.0f, 10.0f, 100.0f};
  const int num_boundaries = static_cast<int>(boundaries.size());

  float* d_readings = nullptr;
  unsigned long long* d_wide = nullptr;
  ONEPASS_CUDA_TRY(cudaMalloc(&d_readings, n * sizeof(float)));
  ONEPASS_CUDA_TRY(cudaMalloc(&d_wide, (num_boundaries - 1) * sizeof(unsigned long long)));
  ONEPASS_CUDA_TRY(cudaMemcpy(d_readings, readings.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  const std::size_t bytes = onepass::histogram_range_workspace_bytes<float, unsigned long long>(n, num_boundaries);
  void* scratch = nullptr;
  ONEPASS_CUDA_TRY(cudaMalloc(&scratch, bytes));
  onepass::histogram_range(d_readings, n, boundaries.data(), num_boundaries, d_wide,
                           onepass::workspace{scratch, bytes}, nullptr);
  std::vector<unsigned long long> wide(num_boundaries - 1);
  ONEPASS_CUDA_TRY(cudaMemcpy(wide.data(), d_wide, wide.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
  std::vector<unsigned long long> wide_expected(num_boundaries - 1, 0);
  for (const float r : readings)
    for (int b = 0; b + 1 < num_boundaries; ++b)
      if (r >= boundaries[b] && r < boundaries[b + 1]) ++wide_expected[b];
  const bool readings_ok = wide == wide_expected;

  std::printf("image: %lld pixels, bin 0 holds %u, bin 255 holds %u: %s\n", pixels, counts[0], counts[255],
              image_ok ? "matches the host" : "WRONG");
  std::printf("readings: [-10,0) %llu, [0,1) %llu, [1,10) %llu, [10,100) %llu: %s\n", wide[0], wide[1], wide[2],
              wide[3], readings_ok ? "matches the host" : "WRONG");
  cudaFree(scratch);
  cudaFree(d_wide);
  cudaFree(d_readings);
  cudaFree(d_counts);
  cudaFree(d_image);
  return image_ok && readings_ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "%s\n", e.what());
  return 2;
}
