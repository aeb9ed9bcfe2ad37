// The deterministic segmented scan (onepass::determinism::run_to_run and gpu_to_gpu) in
// every form (head flags, CSR offsets, begin/end arrays with gaps left or copied, keys):
// a correct scan on exact data and on the non-commutative affine maps; the same bits in
// every form, in both call styles, run after run while other work floods the GPU, and
// whatever the pointers' alignment; integers untouched. The committed hashes of fixed
// inputs are checked in tests/test_deterministic.cu.
#include <cstring>
#include <random>

#include "support/deterministic_support.cuh"

namespace onepass::test {
namespace {

using onepass::determinism;

template <class T>
using det_plan = onepass::detail::segmented_scan_plan<T, onepass::detail::deterministic_segmented_scan_tuning<T>>;

// 0, 1, the warp and tile edges, the group edges (256 tiles), a few groups, a random size:
// group 0 without a previous PREFIX, a group's first tile with only the previous one, its
// last tile that publishes one.
template <class T>
std::vector<long long> sizes() {
  const long long tile = det_plan<T>::tile_items;
  const long long group = 32ll * det_plan<T>::tuning.fixed_order_tiles_per_lane * tile;
  std::mt19937_64 rng(78);
  return capped_sorted_sizes({0, 1, 31, 32, 33, tile - 1, tile, tile + 1, 5 * tile + 3, group - 1, group, group + 1,
                              2 * group + tile, 1 + static_cast<long long>(rng() % (1 << 21))});
}

// Exact data and the affine maps against the reference, every form, kind, style and
// alignment; long segments (the chains across groups) and short ones (heads in most
// tiles: the walk that stops waiting at a head).
template <class T, class Op>
void check_exact(Op op, std::uint64_t seed) {
  for (long long n : sizes<T>()) {
    for (segment_distribution d : {segment_distribution::one_segment, segment_distribution::uniform_1_1000,
                                   segment_distribution::with_empty}) {
      const segmented_input s(n, d, seed + n);
      const std::vector<T> host = random_vector<T>(n + 1, seed + 7 * n);
      device_buffer<T> in(host), out(n + 1);
      std::mt19937_64 rng(seed * 3 + n);
      const T init = random_value<T>(rng);
      int round = 0;
      for (segmented_form f : all_segmented_forms()) {
        for (kind k : {kind::inclusive, kind::exclusive}) {
          const int offset = (round / 2) % 2;
          const bool ws_style = round % 2 == 0;
          ++round;
          SCOPED_TRACE(std::string(form_name(f)) + " " + type_name<T>() + " " + kind_name(k) + " n=" +
                       std::to_string(n) + " " + distribution_name(d) + " offset=" + std::to_string(offset) +
                       (ws_style ? " workspace" : " simple"));
          const std::vector<T> src(host.begin() + offset, host.begin() + offset + n);
          out.poison();
          segmented_call(f, s, in.get() + offset, out.get() + offset, k, init, op, determinism::gpu_to_gpu, ws_style,
                         nullptr, offset == 1);
          ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
          const std::vector<T> all = out.download(n + 1);
          const unsigned char* guard = reinterpret_cast<const unsigned char*>(&all[offset == 0 ? n : 0]);
          for (std::size_t b = 0; b < sizeof(T); ++b) ASSERT_EQ(guard[b], 0xA5) << "wrote outside the output";
          const std::vector<T> got(all.begin() + offset, all.begin() + offset + n);
          EXPECT_EQ(first_difference(s.reference(f, src, k, init, op), got), "");
        }
      }
    }
  }
}

TEST(SegmentedScanDeterministic, ExactDataAndNonCommutativeMapsMatchTheReference) {
  ONEPASS_REQUIRE_GPU();
  check_exact<float>(onepass::plus{}, 1);
  check_exact<double>(onepass::plus{}, 2);
  check_exact<affine>(compose{}, 3);
}

// Every form places the same heads, so the covered items get the same bits in all of
// them, and the offsets forms without gaps equal head flags and keys item for item.
template <class T>
void check_forms_agree(long long n, segment_distribution d) {
  const segmented_input s(n, d, 90 + n);
  const device_buffer<T> in(rounding_vector<T>(n, 91 + n));
  device_buffer<T> out(n);
  for (kind k : {kind::inclusive, kind::exclusive}) {
    const std::vector<T> flags = segmented_once(segmented_form::flags, s, in, 0, out, 0, k, nullptr);
    for (segmented_form f : {segmented_form::csr, segmented_form::keys}) {
      EXPECT_EQ(first_difference(flags, segmented_once(f, s, in, 0, out, 0, k, nullptr)), "")
          << form_name(f) << " " << type_name<T>() << " " << kind_name(k) << " " << distribution_name(d);
    }
  }
}

TEST(SegmentedScanDeterministic, EveryFormGivesTheSameBits) {
  ONEPASS_REQUIRE_GPU();
  const long long n = std::min(max_test_items(), (1ll << 22) + 7);
  for (segment_distribution d : all_segment_distributions()) {
    check_forms_agree<float>(n, d);
    check_forms_agree<double>(n, d);
  }
}

// 100 runs of each kind while another stream floods the GPU: every run the bits of the
// first, for one segment (the longest chains) and for uniform lengths.
template <class T>
void check_repeatable(long long n, segmented_form f, segment_distribution d, int runs) {
  const segmented_input s(n, d, 95 + n);
  const device_buffer<T> in(rounding_vector<T>(n, 96 + n));
  device_buffer<T> out(n);
  device_buffer<float> noise(1ll << 26);
  cudaStream_t stream = nullptr, flood_stream = nullptr;
  ONEPASS_CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  ONEPASS_CHECK_CUDA(cudaStreamCreateWithFlags(&flood_stream, cudaStreamNonBlocking));
  for (kind k : {kind::inclusive, kind::exclusive}) {
    const std::vector<T> first = segmented_once(f, s, in, 0, out, 0, k, stream);
    for (int r = 1; r < runs; ++r) {
      flood<<<64 + 37 * (r % 7), 256, 0, flood_stream>>>(noise.get(), 1ll << 26, 1 + r % 3);
      ASSERT_EQ(cudaGetLastError(), cudaSuccess);
      const std::vector<T> again = segmented_once(f, s, in, 0, out, 0, k, stream);
      ASSERT_EQ(std::memcmp(first.data(), again.data(), sizeof(T) * static_cast<std::size_t>(n)), 0)
          << form_name(f) << " " << type_name<T>() << " " << kind_name(k) << " " << distribution_name(d)
          << ": run " << r << " differs from run 0; " << first_difference(first, again);
    }
  }
  ONEPASS_CHECK_CUDA(cudaStreamSynchronize(flood_stream));
  ONEPASS_CHECK_CUDA(cudaStreamDestroy(stream));
  ONEPASS_CHECK_CUDA(cudaStreamDestroy(flood_stream));
}

TEST(SegmentedScanDeterministic, SameBitsOnEveryRunWhileAnotherStreamFloodsTheGpu) {
  ONEPASS_REQUIRE_GPU();
  const long long n = std::min(max_test_items(), (1ll << 23) + 3);
  check_repeatable<float>(n, segmented_form::csr, segment_distribution::one_segment, 100);
  check_repeatable<double>(n, segmented_form::flags, segment_distribution::one_segment, 100);
  check_repeatable<float>(n, segmented_form::gaps_untouched, segment_distribution::uniform_1_1000, 100);
  check_repeatable<double>(n, segmented_form::keys, segment_distribution::power_law, 100);
}

// Misaligned values, output and keys: the bits of the aligned call, in every form.
template <class T>
void check_alignment(long long n, segment_distribution d) {
  const segmented_input s(n, d, 97 + n);
  const std::vector<T> host = rounding_vector<T>(n, 98 + n);
  const device_buffer<T> in(host);
  device_buffer<T> shifted_in(n + 1), out(n + 1);
  ONEPASS_CHECK_CUDA(cudaMemcpy(shifted_in.get() + 1, in.get(), sizeof(T) * n, cudaMemcpyDeviceToDevice));
  for (segmented_form f : all_segmented_forms()) {
    for (kind k : {kind::inclusive, kind::exclusive}) {
      const std::vector<T> aligned = segmented_once(f, s, in, 0, out, 0, k, nullptr);
      for (const auto& [in_offset, out_offset] : {std::pair{1, 0}, std::pair{0, 1}, std::pair{1, 1}}) {
        const device_buffer<T>& source = in_offset == 1 ? shifted_in : in;
        const std::vector<T> got = segmented_once(f, s, source, in_offset, out, out_offset, k, nullptr, true);
        EXPECT_EQ(first_difference(aligned, got), "")
            << form_name(f) << " " << type_name<T>() << " " << kind_name(k) << " n=" << n << " in+" << in_offset
            << " out+" << out_offset;
      }
    }
  }
}

TEST(SegmentedScanDeterministic, MisalignedPointersGiveTheAlignedBits) {
  ONEPASS_REQUIRE_GPU();
  for (long long n : {33ll, det_plan<float>::tile_items + 1, 300ll * det_plan<float>::tile_items + 17}) {
    if (n > max_test_items()) continue;
    check_alignment<float>(n, segment_distribution::one_segment);
    check_alignment<double>(n, segment_distribution::uniform_1_1000);
  }
}

// run_to_run and gpu_to_gpu run the same path; integers take the fast path (the same
// workspace, exact results).
TEST(SegmentedScanDeterministic, RunToRunIsTheSamePathAndIntegersTheFastOne) {
  EXPECT_EQ(segmented_scan_workspace_bytes<int>(1 << 20, determinism::gpu_to_gpu),
            segmented_scan_workspace_bytes<int>(1 << 20));
  ONEPASS_REQUIRE_GPU();
  const long long n = std::min(max_test_items(), 600ll * det_plan<float>::tile_items + 9);
  const segmented_input s(n, segment_distribution::power_law, 99);
  const device_buffer<float> in(rounding_vector<float>(n, 100));
  device_buffer<float> a(n), b(n);
  for (segmented_form f : all_segmented_forms()) {
    a.poison();
    b.poison();
    segmented_call(f, s, in.get(), a.get(), kind::inclusive, 0.0f, plus{}, determinism::gpu_to_gpu, false, nullptr);
    segmented_call(f, s, in.get(), b.get(), kind::inclusive, 0.0f, plus{}, determinism::run_to_run, true, nullptr);
    ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
    EXPECT_EQ(first_difference(a.download(), b.download()), "") << form_name(f);
  }
  const std::vector<int> ints = random_vector<int>(n, 101);
  device_buffer<int> in_i(ints), out_i(n);
  for (segmented_form f : all_segmented_forms()) {
    out_i.poison();
    segmented_call(f, s, in_i.get(), out_i.get(), kind::exclusive, 3, plus{}, determinism::gpu_to_gpu, true, nullptr);
    ONEPASS_CHECK_CUDA(cudaDeviceSynchronize());
    EXPECT_EQ(first_difference(s.reference(f, ints, kind::exclusive, 3, plus{}), out_i.download()), "")
        << form_name(f);
  }
}

}  // namespace
}  // namespace onepass::test
