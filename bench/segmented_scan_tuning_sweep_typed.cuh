// segmented_scan_tuning_sweep's rows and its sweep over one value type (the definitions):
// segmented_scan_tuning_sweep.cu has the command line and what each mode runs; each
// segmented_scan_tuning_sweep_<type>.cu instantiates run_segmented_sweep for one type, so
// that the three compile in parallel (one file took about three minutes on the GPU machine).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu.cuh"
#include "onepass/ladder/scan/registry.cuh"
#include "onepass/ladder/segmented_scan/registry.cuh"
#include "onepass/segmented_scan.cuh"
#include "segmented_scan_tuning_sweep.cuh"
#include "support/segmented_scan_reference.hpp"

namespace onepass::sweeps {


// PipelineThreads > 0: the pipelined agent at PipelineThreads x PipelineItems (from 4 tiles
// per resident block up) with a __launch_bounds__ minimum of PipelineMinBlocks (0: as many
// blocks as its shared memory allows) and a lookback window of LookbackTiles tiles a lane,
// else one tile per block only.
template <int Threads, int Items, int MinBlocks, int PrefetchMiB = 2, int PipelineThreads = 0,
          int PipelineItems = 32, unsigned BackoffNs = 32, int PipelineMinBlocks = 0, int LookbackTiles = 1>
struct row {
  static constexpr tuning::segmented_scan_tuning value = [] {
    tuning::segmented_scan_tuning t{};
    t.block_threads = Threads;
    t.items_per_thread = Items;
    t.lookback_backoff_ns = BackoffNs;
    t.min_blocks_per_sm = MinBlocks;
    t.l2_prefetch_bytes = static_cast<long long>(PrefetchMiB) << 20;
    t.l2_prefetch_min_input_bytes = tuning::segmented_scan_l2_prefetch_min_input_bytes;
    t.pipelined = PipelineThreads > 0;
    t.pipeline_block_threads = PipelineThreads > 0 ? PipelineThreads : 128;
    t.pipeline_items_per_thread = PipelineItems;
    t.pipeline_lookback_tiles_per_lane = LookbackTiles;
    t.pipeline_min_blocks_per_sm = PipelineMinBlocks;
    return t;
  }();
};

// The production row with the pipelined kernel after a memset of its descriptors, as
// before it cleared them itself (rows above clear nothing themselves either).
template <class T>
struct production_without_clearing {
  static constexpr tuning::segmented_scan_tuning value = [] {
    auto t = tuning::default_segmented_scan_tuning<T>::value;
    t.pipeline_clears_workspace = false;
    return t;
  }();
};

// The production row with its one-tile kernel's __launch_bounds__ minimum of blocks per
// SM set to MinBlocks (0: none, the compiler's register choice alone sets the occupancy).
template <class T, int MinBlocks>
struct production_with_min {
  static constexpr tuning::segmented_scan_tuning value = [] {
    auto t = tuning::default_segmented_scan_tuning<T>::value;
    t.min_blocks_per_sm = MinBlocks;
    return t;
  }();
};

// The production row with the pipelined agent off: one tile per block for every form.
template <class T>
struct production_one_tile {
  static constexpr tuning::segmented_scan_tuning value = [] {
    auto t = tuning::default_segmented_scan_tuning<T>::value;
    t.pipelined = false;
    return t;
  }();
};

// The production row (or one tile per block) with copied gap items marked and scanned as
// gaps (the ends bitmap), as before 2026-11-30, rather than as one-item segments.
template <class Row>
struct copied_gaps_as_gaps {
  static constexpr tuning::segmented_scan_tuning value = [] {
    auto t = Row::value;
    t.copied_gaps_as_heads = false;
    return t;
  }();
};

// The production row with gaps marked as heads in runs of 32 * SegmentsPerLane segments
// and a window of WindowWords where segments average MinItems items or more (0: never;
// the tuning's gaps_as_heads_long_segment_items).
template <class T, long long MinItems, int SegmentsPerLane, int WindowWords>
struct production_marking_runs {
  static constexpr tuning::segmented_scan_tuning value = [] {
    auto t = tuning::default_segmented_scan_tuning<T>::value;
    t.gaps_as_heads_long_segment_items = MinItems;
    t.gaps_as_heads_long_segments_per_lane = SegmentsPerLane;
    t.gaps_as_heads_long_window_words = WindowWords;
    return t;
  }();
};

// The production row with scan by key through the pipelined agent at MinBlocks blocks per
// SM (0: one tile per block).
template <class T, int MinBlocks>
struct production_by_key_pipelined {
  static constexpr tuning::segmented_scan_tuning value = [] {
    auto t = tuning::default_segmented_scan_tuning<T>::value;
    t.pipeline_by_key_min_blocks_per_sm = MinBlocks;
    return t;
  }();
};

// The production row with the pipelined agent's step A scanning a thread's items as
// Order says, in every form (tuning::thread_scan_order).
template <class T, tuning::thread_scan_order Order>
struct production_thread_scan {
  static constexpr tuning::segmented_scan_tuning value = [] {
    auto t = tuning::default_segmented_scan_tuning<T>::value;
    t.pipeline_thread_scan = Order;
    return t;
  }();
};

// The production row with the offsets forms' headless-tile path taken where heads lie
// MinItems apart on average (0: never; 1: always).
template <class T, long long MinItems>
struct production_headless {
  static constexpr tuning::segmented_scan_tuning value = [] {
    auto t = tuning::default_segmented_scan_tuning<T>::value;
    t.pipeline_headless_min_segment_items = MinItems;
    return t;
  }();
};

template <class T>
struct sweep {
  long long n;
  std::vector<T> values;
  bench::device_array<T> in, out;
  bench::timer& time;
  double scan_gbps = 0, copy_gbps = 0;
  int failures = 0;

  sweep(long long n_, bench::timer& t) : n(n_), values(bench::random_input<T>(n_, 7)), in(n_), out(n_), time(t) {
    in.upload(values);
    const auto copy = time.run([&] {
      ONEPASS_CUDA_TRY(cudaMemcpyAsync(out.get(), in.get(), n * sizeof(T), cudaMemcpyDeviceToDevice, time.stream()));
    });
    copy_gbps = 2.0 * n * sizeof(T) / copy.median / 1e6;
    const auto want = test::reference_scan(values, test::kind::inclusive, T{}, plus{});
    const auto& scan = ladder::find_scan<T, plus>("onepass");
    bench::device_array<unsigned char> ws(static_cast<long long>(scan.workspace_bytes(n)));
    scan_gbps = measure("plain scan (onepass)", want, 0, [&] {
      scan.run(in.get(), n, out.get(), ladder::scan_kind::inclusive, T{}, plus{}, workspace{ws.get(), ws.bytes()},
               time.stream());
    });
    std::printf("%s n=%lld: copy %.0f GB/s, plain scan %.0f GB/s (%.1f%% of copy)\n", test::type_name<T>(), n,
                copy_gbps, scan_gbps, 100 * scan_gbps / copy_gbps);
  }

  // Verifies, then times; returns GB/s (0 on a wrong answer).
  template <class F>
  double measure(const char* name, const std::vector<T>& want, double extra_bytes_per_item, F&& call) {
    ONEPASS_CUDA_TRY(cudaMemsetAsync(out.get(), 0xA5, out.bytes(), time.stream()));  // ordered before the call
    call();
    ONEPASS_CUDA_TRY(cudaDeviceSynchronize());
    std::vector<T> got(static_cast<std::size_t>(n));
    ONEPASS_CUDA_TRY(cudaMemcpy(got.data(), out.get(), out.bytes(), cudaMemcpyDeviceToHost));
    const std::string diff = test::first_difference(want, got);
    if (!diff.empty()) {
      std::printf("  %-24s FAILED %s\n", name, diff.c_str());
      ++failures;
      return 0;
    }
    const auto t = time.run(call);
    const double gbps = (2.0 * sizeof(T) + extra_bytes_per_item) * n / t.median / 1e6;
    if (scan_gbps > 0) std::printf("  %-24s %7.3f ms  %5.1f%% of the plain scan\n", name, t.median, 100 * gbps / scan_gbps);
    return gbps;
  }

  bool offsets_only = false;
  bool bykey_prefetch = false;  // scan by key's rows at several L2 prefetch distances only
  bool cap = false;             // the production shape capped against uncapped only
  bool gaps = false;            // the offsets forms, pipelined (production) against one tile per block only
  bool split = false;           // CSR and begin/end, their marking and their scan timed apart
  bool marking = false;         // the marking kernel alone: production's shape against others
  bool bykey_pipeline = false;  // scan by key through the pipelined agent against one tile per block
  bool thread_scan = false;     // step A's thread scan in order (production) against in groups
  bool headless = false;        // the offsets forms' headless-tile path: never, production's, always
  bool marking_runs = false;    // gaps copied, the marking's runs and windows for long segments

  // A distribution's boundaries on the device, as CSR offsets and as begin/end arrays.
  struct device_offsets {
    bench::device_array<long long> offsets, ends;
    segment_offsets<long long> csr, separate;
    double csr_bytes;  // the CSR boundaries read
    explicit device_offsets(const std::vector<long long>& host)
        : offsets(static_cast<long long>(host.size())), ends(static_cast<long long>(host.size()) - 1) {
      offsets.upload(host);
      ONEPASS_CUDA_TRY(cudaMemcpy(ends.get(), offsets.get() + 1, ends.bytes(), cudaMemcpyDeviceToDevice));
      csr = csr_segments(offsets.get(), static_cast<index_t>(host.size()) - 1);
      separate = segment_offsets<long long>{offsets.get(), ends.get(), csr.count};
      csr_bytes = 8.0 * static_cast<double>(host.size());
    }
  };

  // The offsets form's workspace-style call at tuning Row: CSR offsets (as onepass-bench
  // passes them), then the same boundaries as separate begin and end arrays (the form
  // that allows gaps: two bitmaps, both arrays read).
  template <class Row>
  void offsets_rows(const device_offsets& d, const std::vector<T>& want, const char* csr_name,
                    const char* separate_name) {
    bench::device_array<unsigned char> ws(
        static_cast<long long>(onepass::detail::segmented_scan_plan<T, Row>::offsets_workspace_bytes(n)));
    const workspace w{ws.get(), ws.bytes()};
    measure(csr_name, want, d.csr_bytes / static_cast<double>(n), [&] {
      onepass::detail::segmented_scan_offsets_dispatch<false, Row>(in.get(), n, out.get(), d.csr, T{}, plus{}, w,
                                                                   time.stream());
    });
    measure(separate_name, want, 16.0 * static_cast<double>(d.csr.count) / static_cast<double>(n), [&] {
      onepass::detail::segmented_scan_offsets_dispatch<false, Row>(in.get(), n, out.get(), d.separate, T{}, plus{},
                                                                   w, time.stream());
    });
  }

  // The same segments, each trimmed at its start, its end or both with probability 1/2
  // (test::with_gaps): real gaps between them, whose items out keeps (gap_items::untouched)
  // or gets from in (gap_items::copied). (Rated on the same bytes as the rows without
  // gaps: untouched, the items in gaps are read, not written.)
  template <class Row>
  void gaps_row(const std::vector<long long>& offsets, const char* name, gap_items gaps = gap_items::untouched) {
    const auto ranges = test::with_gaps(offsets, 13);
    std::vector<T> want_gaps(values);
    if (gaps == gap_items::untouched)
      std::memset(want_gaps.data(), 0xA5, want_gaps.size() * sizeof(T));  // measure()'s poison
    test::reference_segmented_scan(values, ranges.begin, ranges.end, test::kind::inclusive, T{}, plus{}, want_gaps);
    bench::device_array<long long> begins(static_cast<long long>(ranges.begin.size())),
        ends(static_cast<long long>(ranges.end.size()));
    begins.upload(ranges.begin);
    ends.upload(ranges.end);
    const segment_offsets<long long> gap_segments{begins.get(), ends.get(), static_cast<index_t>(ranges.begin.size()),
                                                  gaps};
    bench::device_array<unsigned char> ws(
        static_cast<long long>(onepass::detail::segmented_scan_plan<T, Row>::offsets_workspace_bytes(n)));
    const workspace w{ws.get(), ws.bytes()};
    measure(name, want_gaps, 16.0 * static_cast<double>(gap_segments.count) / static_cast<double>(n), [&] {
      onepass::detail::segmented_scan_offsets_dispatch<false, Row>(in.get(), n, out.get(), gap_segments, T{}, plus{},
                                                                   w, time.stream());
    });
  }

  // The begin/end form's bitmaps read by the gap-free code (untagged descriptors, no gap
  // masks): right only where the segments leave no gap (the "split" mode's question: what
  // the gap code costs).
  struct bitmap_heads_no_gaps : onepass::detail::bitmap_heads {
    static constexpr bool has_gaps = false;
  };

  // The offsets forms on segments without gaps, each call's parts timed apart: the whole
  // call; its memset and marking; its scan alone (a memset of the descriptors, then the
  // scan on the bitmaps marked before); begin/end's scan through the gap-free code.
  template <class Row>
  void split_rows(const device_offsets& d, const std::vector<T>& want) {
    using plan = onepass::detail::segmented_scan_plan_for<T, Row>;
    bench::device_array<unsigned char> ws(static_cast<long long>(plan::offsets_workspace_bytes(n)));
    const workspace w{ws.get(), ws.bytes()};
    const onepass::detail::offsets_workspace<T, Row> parts{ws.get(), n};
    offsets_rows<Row>(d, want, "CSR, whole call", "begin/end, whole call");
    for (const auto* form : {&d.csr, &d.separate}) {
      const bool csr = form == &d.csr;
      const auto mark = time.run([&] { onepass::detail::mark_offsets<T, Row>(*form, n, w, time.stream(), false); });
      std::printf("  %-24s %7.3f ms\n", csr ? "CSR, memset + mark" : "begin/end, memset + mark", mark.median);
      onepass::detail::mark_offsets<T, Row>(*form, n, w, time.stream(), false);  // the bitmaps the scans below read
      const double offsets_bytes = (csr ? d.csr_bytes : 16.0 * static_cast<double>(d.csr.count)) / static_cast<double>(n);
      measure(csr ? "CSR, scan alone" : "begin/end, scan alone", want, offsets_bytes, [&] {
        ONEPASS_CUDA_TRY(cudaMemsetAsync(ws.get(), 0, plan::workspace_bytes(n), time.stream()));
        onepass::detail::scan_marked_offsets<false, Row>(in.get(), n, out.get(), *form, T{}, plus{}, w,
                                                         time.stream(), onepass::detail::no_delay{});
      });
      if (!csr)
        measure("begin/end, scan alone, gap-free code", want, offsets_bytes, [&] {
          onepass::detail::segmented_scan_launch<false, Row>(
              in.get(), n, out.get(),
              bitmap_heads_no_gaps{{parts.begins(), parts.ends(), parts.error(), parts.gaps_found()}}, T{},
              plus{}, w, time.stream());
        });
    }
  }

  // The marking alone (the memset and the kernel, as mark_offsets runs them) on CSR
  // offsets, begin/end arrays and begin/end arrays with gaps: production's shape against
  // other shapes of the kernel, alternated twice. Every candidate's bitmaps and error word
  // are compared with production's before it is timed. Rate: offsets read over the time, as
  // a fraction of the copy's.
  void marking_rows(const device_offsets& d, const std::vector<long long>& offsets) {
    using Row = tuning::default_segmented_scan_tuning<T>;
    using plan = onepass::detail::segmented_scan_plan_for<T, Row>;
    bench::device_array<unsigned char> ws(static_cast<long long>(plan::offsets_workspace_bytes(n)));
    const onepass::detail::offsets_workspace<T, Row> parts{ws.get(), n};
    const auto ranges = test::with_gaps(offsets, 13);
    bench::device_array<long long> gap_begins(static_cast<long long>(ranges.begin.size())),
        gap_ends(static_cast<long long>(ranges.end.size()));
    gap_begins.upload(ranges.begin);
    gap_ends.upload(ranges.end);
    struct form {
      const char* name;
      segment_offsets<long long> segments;
      double bytes;
    };
    const double separate_bytes = 16.0 * static_cast<double>(d.csr.count);
    const form forms[] = {{"CSR", d.csr, d.csr_bytes},
                          {"begin/end", d.separate, separate_bytes},
                          {"begin/end, gaps", {gap_begins.get(), gap_ends.get(), d.csr.count}, separate_bytes}};
    using launcher = void (*)(const segment_offsets<long long>&, index_t, std::uint32_t*, std::uint32_t*,
                              unsigned long long*, unsigned*, cudaStream_t);
    struct candidate {
      const char* name;
      launcher launch;
    };
    // Production first: the reference every other row's bitmaps are compared with.
    const candidate candidates[] = {
        {"production (warp 256 x 8, window 512)", &onepass::detail::launch_mark_segments<long long>},
        {"warp 256 x 4, window 256, min 6", &onepass::detail::launch_mark_segments_shaped<256, 4, 256, 6, long long>},
        {"warp 128 x 16, window 1024, min 4",
         &onepass::detail::launch_mark_segments_shaped<128, 16, 1024, 4, long long>},
        {"warp 256 x 8, window 128, min 4", &onepass::detail::launch_mark_segments_shaped<256, 8, 128, 4, long long>},
    };
    const std::size_t bitmap_bytes = plan::bitmap_bytes(n);
    for (const form& f : forms) {
      const bool csr = onepass::detail::is_csr(f.segments);
      const std::size_t cleared = csr ? plan::workspace_bytes(n) + bitmap_bytes : plan::offsets_workspace_bytes(n);
      // Both bitmaps and, for begin/end arrays, the word after them that says whether any
      // ends bit is set.
      const std::size_t compared = csr ? bitmap_bytes : 2 * bitmap_bytes + sizeof(unsigned);
      auto run = [&](const candidate& c) {
        ONEPASS_CUDA_TRY(cudaMemsetAsync(ws.get(), 0, cleared, time.stream()));
        c.launch(f.segments, n, parts.begins(), csr ? nullptr : parts.ends(), parts.error(),
                 csr ? nullptr : parts.gaps_found(), time.stream());
      };
      auto result = [&] {
        ONEPASS_CUDA_TRY(cudaDeviceSynchronize());
        std::vector<std::uint32_t> bits(compared / sizeof(std::uint32_t) + 1);
        ONEPASS_CUDA_TRY(cudaMemcpy(bits.data(), parts.begins(), compared, cudaMemcpyDeviceToHost));
        unsigned long long e = 0;
        ONEPASS_CUDA_TRY(cudaMemcpy(&e, parts.error(), sizeof e, cudaMemcpyDeviceToHost));
        bits.back() = static_cast<std::uint32_t>(e) ^ static_cast<std::uint32_t>(e >> 32);
        return bits;
      };
      run(candidates[0]);
      const std::vector<std::uint32_t> want = result();
      for (int round = 0; round < 2; ++round)
        for (const candidate& c : candidates) {
          run(c);
          if (result() != want) {
            std::printf("  %-16s %-36s FAILED: bitmaps or error word differ from production's\n", f.name, c.name);
            ++failures;
            continue;
          }
          const auto t = time.run([&] { run(c); });
          std::printf("  %-16s %-36s %7.3f ms  %5.1f%% of the copy (offsets read)\n", f.name, c.name, t.median,
                      100 * (f.bytes / t.median / 1e6) / copy_gbps);
        }
    }
  }

  // The offsets form (production tuning): both workspace-style rows, the simple style, and
  // the CSR marking alone (its memset and kernel, as the production call runs them).
  void offsets_form(const std::vector<long long>& offsets, const std::vector<T>& want) {
    const device_offsets d(offsets);
    offsets_rows<tuning::default_segmented_scan_tuning<T>>(d, want, "offsets (production)", "offsets (begin/end)");
    // The simple style: allocates its workspace and checks the offsets before it writes
    // anything (so it waits for the device once).
    measure("offsets (simple style)", want, d.csr_bytes / static_cast<double>(n), [&] {
      segmented_inclusive_scan(in.get(), n, d.csr, out.get(), plus{}, time.stream());
    });
    bench::device_array<unsigned char> ws(
        static_cast<long long>(onepass::detail::segmented_scan_plan<T>::offsets_workspace_bytes(n)));
    const workspace w{ws.get(), ws.bytes()};
    gaps_row<tuning::default_segmented_scan_tuning<T>>(offsets, "offsets (begin/end, gaps)");
    gaps_row<tuning::default_segmented_scan_tuning<T>>(offsets, "offsets (begin/end, gaps copied)",
                                                        gap_items::copied);
    const auto mark = time.run([&] { onepass::detail::mark_offsets<T, void>(d.csr, n, w, time.stream(), false); });
    std::printf("  %-24s %7.3f ms  %5.1f%% of the copy (offsets read)\n", "offsets: memset + mark", mark.median,
                100 * (d.csr_bytes / mark.median / 1e6) / copy_gbps);
  }

  void distribution(test::segment_distribution d) {
    const auto offsets = test::csr_offsets(test::segment_lengths(d, n, 11));
    const auto flags = test::head_flags_of(offsets, n);
    const auto want = test::reference_segmented_scan(values, flags, test::kind::inclusive, T{}, plus{});
    std::printf(" %s (%zu segments)\n", test::distribution_name(d), offsets.size() - 1);
    if (marking) {
      marking_rows(device_offsets(offsets), offsets);
      return;
    }
    if (split) {
      const device_offsets d(offsets);
      for (int round = 0; round < 2; ++round) split_rows<tuning::default_segmented_scan_tuning<T>>(d, want);
      return;
    }
    if (gaps) {
      // The offsets forms through the pipelined agent (production) and one tile per block,
      // alternated twice: CSR, begin/end without gaps, begin/end with gaps.
      const device_offsets d(offsets);
      for (int round = 0; round < 2; ++round) {
        offsets_rows<tuning::default_segmented_scan_tuning<T>>(d, want, "CSR, production", "begin/end, production");
        gaps_row<tuning::default_segmented_scan_tuning<T>>(offsets, "begin/end with gaps, production");
        gaps_row<tuning::default_segmented_scan_tuning<T>>(offsets, "gaps copied, production", gap_items::copied);
        gaps_row<copied_gaps_as_gaps<tuning::default_segmented_scan_tuning<T>>>(
            offsets, "gaps copied, as gaps, production", gap_items::copied);
        offsets_rows<production_one_tile<T>>(d, want, "CSR, one tile per block", "begin/end, one tile per block");
        gaps_row<production_one_tile<T>>(offsets, "begin/end with gaps, one tile per block");
        gaps_row<production_one_tile<T>>(offsets, "gaps copied, one tile per block", gap_items::copied);
        gaps_row<copied_gaps_as_gaps<production_one_tile<T>>>(offsets, "gaps copied, as gaps, one tile",
                                                              gap_items::copied);
      }
      return;
    }
    if (marking_runs) {
      // Gaps copied (marked as heads) with the marking's runs of 256 segments a warp in a
      // window of 512 words (no choice for long segments, as before 2026-12-02), production's
      // choice, and other runs and windows where segments average 64 items or more,
      // alternated twice, whole calls.
      using runs_256 = production_marking_runs<T, 0, 8, 512>;
      using runs_32_w512 = production_marking_runs<T, 64, 1, 512>;
      using runs_32_w1024 = production_marking_runs<T, 64, 1, 1024>;
      using runs_64_w1024 = production_marking_runs<T, 64, 2, 1024>;
      using runs_64_w2048 = production_marking_runs<T, 64, 2, 2048>;
      for (int round = 0; round < 2; ++round) {
        gaps_row<runs_256>(offsets, "gaps copied, runs of 256", gap_items::copied);
        gaps_row<tuning::default_segmented_scan_tuning<T>>(offsets, "gaps copied, production", gap_items::copied);
        gaps_row<runs_32_w512>(offsets, "gaps copied, runs of 32, window 512", gap_items::copied);
        gaps_row<runs_32_w1024>(offsets, "gaps copied, runs of 32, window 1024", gap_items::copied);
        gaps_row<runs_64_w1024>(offsets, "gaps copied, runs of 64, window 1024", gap_items::copied);
        gaps_row<runs_64_w2048>(offsets, "gaps copied, runs of 64, window 2048", gap_items::copied);
      }
      return;
    }
    if (headless) {
      // The offsets forms' headless-tile path never, production's choice and always,
      // alternated twice (offsets only, as the gaps mode).
      const device_offsets bounds(offsets);
      using never = production_headless<T, 0>;
      using production = tuning::default_segmented_scan_tuning<T>;
      using always = production_headless<T, 1>;
      for (int round = 0; round < 2; ++round) {
        offsets_rows<never>(bounds, want, "CSR, never", "begin/end, never");
        gaps_row<never>(offsets, "begin/end with gaps, never");
        offsets_rows<production>(bounds, want, "CSR, production", "begin/end, production");
        gaps_row<production>(offsets, "begin/end with gaps, production");
        offsets_rows<always>(bounds, want, "CSR, always", "begin/end, always");
        gaps_row<always>(offsets, "begin/end with gaps, always");
      }
      return;
    }
    if (!bykey_prefetch && !cap && !bykey_pipeline && !thread_scan) offsets_form(offsets, want);
    if (offsets_only) return;
    bench::device_array<std::uint8_t> d_flags(n);
    d_flags.upload(flags);
    bench::device_array<int> d_keys(n);
    d_keys.upload(test::keys_of<int>(offsets, n, 12));
    // One row on head flags (by_key false) or on the int32 keys (by_key true).
    auto try_row = [&](auto r, bool by_key = false) {
      using Row = decltype(r);
      constexpr auto v = Row::value;
      char name[96];
      const char* what = by_key ? "keys" : "flags";
      if (v.pipelined && (!by_key || v.pipeline_by_key_min_blocks_per_sm > 0))
        std::snprintf(name, sizeof name, "%s pipelined %dx%d min %d L2+%lldMiB wait %uns x%d%s%s", what,
                      v.pipeline_block_threads, v.pipeline_items_per_thread,
                      by_key ? v.pipeline_by_key_min_blocks_per_sm : v.pipeline_min_blocks_per_sm,
                      v.l2_prefetch_bytes >> 20, v.lookback_backoff_ns, v.pipeline_lookback_tiles_per_lane,
                      v.pipeline_clears_workspace ? " clears" : "",
                      v.pipeline_thread_scan == tuning::thread_scan_order::grouped ? " grouped" : "");
      else
        std::snprintf(name, sizeof name, "%s %dx%d min %d L2+%lldMiB wait %uns", what, v.block_threads,
                      v.items_per_thread, v.min_blocks_per_sm, v.l2_prefetch_bytes >> 20, v.lookback_backoff_ns);
      bench::device_array<unsigned char> ws(
          static_cast<long long>(onepass::detail::segmented_scan_plan<T, Row>::workspace_bytes(n)));
      const workspace w{ws.get(), ws.bytes()};
      if (by_key)
        measure(name, want, sizeof(int), [&] {
          onepass::detail::segmented_scan_dispatch<false, Row>(
              in.get(), n, out.get(), onepass::detail::key_heads<int, equal_to>{d_keys.get(), equal_to{}}, T{},
              plus{}, w, time.stream());
        });
      else
        measure(name, want, 1, [&] {
          onepass::detail::segmented_scan_dispatch<false, Row>(
              in.get(), n, out.get(), onepass::detail::flag_heads<std::uint8_t>{d_flags.get()}, T{}, plus{}, w,
              time.stream());
        });
    };
    if (thread_scan) {
      // Step A's thread scan in order against in groups of four, in every form, on head
      // flags, CSR offsets, begin/end arrays and begin/end arrays with gaps, alternated
      // twice. (Production's double values: groups in the offsets forms only.)
      const device_offsets bounds(offsets);
      using grouped = production_thread_scan<T, tuning::thread_scan_order::grouped>;
      using in_order = production_thread_scan<T, tuning::thread_scan_order::in_order>;
      for (int round = 0; round < 2; ++round) {
        try_row(in_order{});
        offsets_rows<in_order>(bounds, want, "CSR, in order", "begin/end, in order");
        gaps_row<in_order>(offsets, "begin/end with gaps, in order");
        try_row(grouped{});
        offsets_rows<grouped>(bounds, want, "CSR, grouped", "begin/end, grouped");
        gaps_row<grouped>(offsets, "begin/end with gaps, grouped");
      }
    } else if (bykey_pipeline) {
      // Scan by key one tile per block and through the pipelined agent (keys in registers),
      // head flags through it for reference, alternated twice.
      for (int round = 0; round < 2; ++round) {
        try_row(production_by_key_pipelined<T, 0>{}, true);
        try_row(production_by_key_pipelined<T, 4>{}, true);  // 4-byte values: 64 registers, spills
        if constexpr (sizeof(T) == 4) try_row(production_by_key_pipelined<T, 3>{}, true);  // 80 registers
        try_row(tuning::default_segmented_scan_tuning<T>{});
      }
    } else if (bykey_prefetch) {
      // Scan by key's one-tile row with its values and keys prefetched 0, 1, 2
      // (production's) and 4 MiB ahead, alternated twice.
      constexpr int threads = sizeof(T) == 4 ? 256 : 128;
      constexpr int min_blocks = sizeof(T) == 4 ? 3 : 0;  // production's
      for (int round = 0; round < 2; ++round) {
        try_row(tuning::default_segmented_scan_tuning<T>{}, true);
        try_row(row<threads, 32, min_blocks, 0>{}, true);
        try_row(row<threads, 32, min_blocks, 1>{}, true);
        try_row(row<threads, 32, min_blocks, 4>{}, true);
      }
    } else if (cap) {
      // The production shape with a minimum of blocks per SM (4-byte: 3, production's;
      // 8-byte: 4, production's until 2026-11-25) against none, every source (head flags,
      // int32 keys, CSR offsets, begin/end arrays), alternated.
      using capped = production_with_min<T, sizeof(T) == 4 ? 3 : 4>;
      using uncapped = production_with_min<T, 0>;
      const device_offsets bounds(offsets);
      auto try_csr = [&](auto r) {
        using Row = decltype(r);
        char csr_name[64], separate_name[64];
        std::snprintf(csr_name, sizeof csr_name, "offsets %dx%d min %d", Row::value.block_threads,
                      Row::value.items_per_thread, Row::value.min_blocks_per_sm);
        std::snprintf(separate_name, sizeof separate_name, "begin/end %dx%d min %d", Row::value.block_threads,
                      Row::value.items_per_thread, Row::value.min_blocks_per_sm);
        offsets_rows<Row>(bounds, want, csr_name, separate_name);
      };
      for (int round = 0; round < 3; ++round) {
        try_row(capped{});
        try_row(uncapped{});
        try_row(capped{}, true);
        try_row(uncapped{}, true);
        try_csr(capped{});
        try_csr(uncapped{});
      }
    } else {
    try_row(tuning::default_segmented_scan_tuning<T>{});
    if constexpr (sizeof(T) == 4) {
      try_row(production_without_clearing<T>{});
      try_row(tuning::default_segmented_scan_tuning<T>{});  // again: the pair alternated
      try_row(production_without_clearing<T>{});
      try_row(row<256, 32, 3>{});                  // one tile per block only
      try_row(row<256, 32, 3, 2, 128, 16>{});      // pipelined tiles of 2048, 9 blocks per SM
      try_row(row<256, 32, 3, 2, 128, 16, 32, 7>{});  // 7 blocks per SM, 72 registers
      try_row(row<256, 32, 3, 2, 128, 16, 32, 6>{});  // 6 blocks per SM, 80 registers
      try_row(row<256, 32, 3, 2, 128, 16, 0, 8>{});   // the lookback spins
      try_row(row<256, 32, 3, 2, 128, 16, 128, 8>{});  // first pause 128 ns
      try_row(row<256, 32, 3, 2, 128, 16, 32, 8, 2>{});  // two tiles a lane: 64-tile windows
      try_row(row<256, 32, 3, 2, 128, 16, 32, 8, 4>{});  // 128-tile windows
      try_row(row<256, 32, 3, 2, 256, 16, 32, 4>{});  // 16 KiB tiles at 64 registers, 4 blocks per SM
      try_row(row<256, 32, 3, 2, 512, 16, 32, 2>{});  // 32 KiB tiles at 64 registers, 2 blocks per SM
      try_row(row<256, 32, 3, 2, 256, 32>{});      // pipelined tiles of 8192
      try_row(row<256, 32, 3, 2, 128, 32>{});      // tiles of 4096
      try_row(row<256, 32, 3, 2, 64, 16>{});
      try_row(row<256, 32, 4>{});                  // 64 registers
      try_row(tuning::default_segmented_scan_tuning<T>{}, true);
      try_row(row<256, 32, 4>{}, true);
      try_row(row<256, 16, 3>{}, true);
      try_row(row<128, 32, 4>{}, true);
    } else {
      try_row(row<128, 32, 0>{});                  // one tile per block only (production's one-tile row)
      try_row(row<128, 32, 4>{});                  // at most 128 registers (production until 2026-11-25)
      try_row(row<128, 32, 4, 4>{});               // 4 MiB of L2 prefetch
      try_row(row<128, 32, 5>{});                  // 96 registers
      try_row(row<128, 24, 5>{});                  // 24 KiB tiles, 5 blocks per SM
      try_row(row<128, 32, 0, 2, 256, 16>{});      // pipelined tiles of 4096
      try_row(row<128, 32, 0, 2, 128, 16, 32, 4>{});  // pipelined 16 KiB tiles, 4 blocks per SM (production's shape, memset)
      try_row(row<128, 32, 0, 2, 256, 16, 32, 0, 2>{});  // tiles of 4096, 64-tile lookback windows
      try_row(tuning::default_segmented_scan_tuning<T>{}, true);
      try_row(row<128, 32, 4>{}, true);
      try_row(row<128, 32, 5>{}, true);
      try_row(row<128, 32, 4, 4>{}, true);
      try_row(row<224, 14, 3>{}, true);  // CUB's sm_90 shape for 4-byte keys, 8-byte values
      try_row(row<192, 16, 3>{}, true);
      try_row(row<256, 12, 3>{}, true);
      try_row(row<256, 16, 2>{}, true);
      try_row(row<128, 24, 5>{}, true);
      try_row(row<128, 16, 0>{}, true);
    }
    }
    for (const char* id : {"onepass", "cub"}) {
      const auto* v = ladder::find_segmented_scan<T, int, plus>(id);
      if (v == nullptr) throw std::runtime_error(std::string("no segmented scan variant ") + id);
      bench::device_array<unsigned char> ws(static_cast<long long>(v->workspace_bytes(n)));
      measure((std::string(id) + " by key").c_str(), want, sizeof(int), [&] {
        v->run_by_key(d_keys.get(), in.get(), n, out.get(), ladder::scan_kind::inclusive, T{}, plus{},
                      workspace{ws.get(), ws.bytes()}, time.stream());
      });
    }
  }
};

template <class T>
int run_segmented_sweep(long long n, bench::timer& time, const std::string& forms,
                        const std::vector<test::segment_distribution>& distributions) {
  sweep<T> s(n, time);
  s.offsets_only = forms == "offsets";
  s.bykey_prefetch = forms == "bykey_prefetch";
  s.bykey_pipeline = forms == "bykey_pipeline";
  s.cap = forms == "cap";
  s.gaps = forms == "gaps";
  s.split = forms == "split";
  s.marking = forms == "marking";
  s.thread_scan = forms == "thread_scan";
  s.headless = forms == "headless";
  s.marking_runs = forms == "marking_runs";
  for (auto d : distributions) s.distribution(d);
  return s.failures;
}

}  // namespace onepass::sweeps
