// select_tuning_sweep — tries rows of the production stream compaction's tuning (the
// one-tile kernel; the split tile's shape; the L2 prefetch distance) on select_if with 1,
// 50 and 99% kept, partition and unique (runs of 4), with CUB and the copy in the same
// run; every count and item verified against the CPU reference before it is timed,
// timed like onepass-bench (bench/gpu.cuh), rates on bytes read + written.
// Used to choose the rows of include/onepass/tuning/select_tuning.cuh (docs/perf/select.md).
//   select_tuning_sweep [log2_n=28] [rows=all|pipeline|stores|prefetch|backoff|shapes]
// ("pipeline": production against the same row without its pipelined agent and with the
// agent at every size, alternated;
// "stores": the one-tile kernel's packed items written one store an item against 16
// bytes a store, on the tables where production runs that kernel, and partition;
// "prefetch": the production rows with the L2 prefetch 1, 2, 4 and 6 MiB ahead;
// "backoff": the production rows with the lookback's first pause 0, 16, 32 and 128 ns;
// "shapes": 4-byte tables only, production against other one-tile shapes, the one-tile
// kernel at a minimum of 6 blocks per SM, and split tiles, all with 16-byte stores and
// production's prefetch.)
// (8-byte items run at half the count, so both sizes move the same bytes.)
#include <cstdint>
#include <cstdio>
#include <string>

#include "gpu.cuh"
#include "onepass/device/dispatch_select.cuh"
#include "onepass/ladder/select/registry.cuh"
#include "support/reference.hpp"
#include "support/select_reference.hpp"

using namespace onepass;

// Items per thread of the one-tile kernel; RegisterRows = 0: the one-tile kernel only.
// With RegisterRows > 0 the one-tile kernel is the fallback and must hold the same tile:
// Items = RegisterRows + SharedItems / Threads.
template <int Threads, int Items, int PrefetchMiB, int RegisterRows = 0, int SharedItems = 0, int MinBlocks = 0>
struct row {
  static constexpr tuning::select_tuning value = [] {
    tuning::select_tuning t{};
    t.block_threads = Threads;
    t.items_per_thread = Items;
    t.lookback_backoff_ns = 32;
    t.l2_prefetch_bytes = static_cast<long long>(PrefetchMiB) << 20;
    t.register_rows = RegisterRows;
    t.shared_items = SharedItems;
    t.split_min_blocks_per_sm = MinBlocks;
    return t;
  }();
};

// The one-tile kernel (2 MiB prefetch) with its packed items written one store an item
// or 16 bytes a store.
template <int Items, bool VectorStores>
struct one_tile_row {
  static constexpr tuning::select_tuning value = [] {
    tuning::select_tuning t{};
    t.block_threads = 128;
    t.items_per_thread = Items;
    t.lookback_backoff_ns = 32;
    t.l2_prefetch_bytes = 2ll << 20;
    t.vector_stores = VectorStores;
    return t;
  }();
};

// The production row with the L2 prefetch `MiB` ahead from any input size on.
template <class T, int MiB>
struct production_prefetch {
  static constexpr tuning::select_tuning value = [] {
    tuning::select_tuning t = tuning::default_select_tuning<T>::value;
    t.l2_prefetch_bytes = static_cast<long long>(MiB) << 20;
    t.l2_prefetch_min_input_bytes = 0;
    return t;
  }();
};

// The production row with the lookback's first pause `Ns` (0: poll again at once; the
// pause doubles up to 256 ns, lookback::backoff).
template <class T, unsigned Ns>
struct production_backoff {
  static constexpr tuning::select_tuning value = [] {
    tuning::select_tuning t = tuning::default_select_tuning<T>::value;
    t.lookback_backoff_ns = Ns;
    return t;
  }();
};

// The production row with the pipelined agent off (the kernels it ran before 2026-11-28).
template <class T>
struct production_no_pipeline {
  static constexpr tuning::select_tuning value = [] {
    tuning::select_tuning t = tuning::default_select_tuning<T>::value;
    t.pipeline_threads = 0;
    return t;
  }();
};
// The production row with the pipelined agent at every size (production: from 2.5 tiles
// per resident block up).
template <class T>
struct production_pipeline_everywhere {
  static constexpr tuning::select_tuning value = [] {
    tuning::select_tuning t = tuning::default_select_tuning<T>::value;
    t.pipeline_min_tiles_per_block = 0;
    return t;
  }();
};

// A 4-byte row with production's prefetch and 16-byte stores: the one-tile kernel
// Threads x Items (at least OneTileMin blocks per SM; 0: the compiler's choice), or with
// RegisterRows > 0 the split tile (at least SplitMin blocks per SM).
template <int Threads, int Items, int RegisterRows = 0, int SplitMin = 0, int OneTileMin = 0>
struct shape_row {
  static constexpr tuning::select_tuning value = [] {
    tuning::select_tuning t{};
    t.block_threads = Threads;
    t.items_per_thread = Items;
    t.lookback_backoff_ns = 32;
    t.l2_prefetch_bytes = tuning::select_l2_prefetch_bytes_4byte;
    t.register_rows = RegisterRows;
    t.shared_items = RegisterRows > 0 ? Threads * (Items - RegisterRows) : 0;
    t.split_min_blocks_per_sm = SplitMin;
    t.split_selects = true;
    t.vector_stores = true;
    t.min_blocks_per_sm = OneTileMin;
    return t;
  }();
};

// flagged: select_flagged with uint8 flags that say what select_if's predicate would.
enum class op { select, flagged, partition, unique };

// select_flagged as it was before 2026-11-24: each flag read on its own, in the one-tile
// kernel's blocked order (the production job loads a thread's flags as 16-byte vectors).
template <class T>
struct flags_one_at_a_time_job : onepass::detail::select_flagged_job<T, std::uint8_t> {
  static constexpr bool reads_flags = false;
};

template <class T>
struct sweep {
  using pred_t = test::select_less_than<T>;
  long long n;
  op what;
  bench::device_array<T> in, out, rejected, expected;
  bench::device_array<index_t> count;
  bench::device_array<std::uint8_t> flags;
  long long kept = 0;
  double bytes = 0;
  bench::timer& time;
  double copy_gbps;
  int failures = 0;

  // keep: percent kept (select, partition) or the run length (unique).
  sweep(long long n_, op what_, int keep, bench::timer& t_, double copy)
      : n(n_), what(what_), in(n_), out(n_), rejected(what_ == op::partition ? n_ : 0), expected(n_), count(1),
        flags(what_ == op::flagged ? n_ : 0), time(t_), copy_gbps(copy) {
    const std::vector<T> host = what == op::unique ? test::run_length_values<T>(n, keep, 11)
                                                   : test::keep_fraction_values<T>(n, keep / 100.0, 11);
    in.upload(host);
    if (what == op::flagged) {
      std::vector<std::uint8_t> f(host.size());
      for (std::size_t i = 0; i < host.size(); ++i) f[i] = pred_t{}(host[i]) ? 1 : 0;
      flags.upload(f);
    }
    std::vector<T> want;
    if (what == op::partition) {
      test::partition_result<T> sides = test::reference_partition(host, pred_t{});
      kept = static_cast<long long>(sides.selected.size());
      want = std::move(sides.selected);
      want.insert(want.end(), sides.rejected.begin(), sides.rejected.end());
    } else {
      want = what == op::unique ? test::reference_unique(host) : test::reference_select_if(host, pred_t{});
      kept = static_cast<long long>(want.size());
    }
    if (!want.empty()) expected.upload(want);
    // The flags are read too: one byte an item.
    bytes = what == op::partition ? 2.0 * n * sizeof(T) : 1.0 * (n + kept) * sizeof(T) + (what == op::flagged ? n : 0);
    std::printf("%s n=%lld %s %d%s\n", test::type_name<T>(), n,
                what == op::select      ? "select"
                : what == op::flagged   ? "select_flagged"
                : what == op::partition ? "partition"
                                        : "unique",
                keep,
                what == op::unique ? " (run length)" : "% kept");
  }

  template <class F>
  void measure(const char* name, F&& call) {
    const cudaStream_t s = time.stream();
    ONEPASS_CUDA_TRY(cudaMemsetAsync(out.get(), 0xA5, out.bytes(), s));
    if (what == op::partition) ONEPASS_CUDA_TRY(cudaMemsetAsync(rejected.get(), 0xA5, rejected.bytes(), s));
    ONEPASS_CUDA_TRY(cudaMemsetAsync(count.get(), 0xA5, count.bytes(), s));
    call();
    ONEPASS_CUDA_TRY(cudaStreamSynchronize(s));
    const index_t got = bench::read_item(count.get(), 0);
    long long bad = got == kept ? bench::first_mismatch(out.get(), expected.get(), kept, s) : 0;
    if (bad < 0 && what == op::partition)
      bad = bench::first_mismatch(rejected.get(), expected.get() + kept, n - kept, s);
    if (bad >= 0) {
      std::printf("  %-44s FAILED (count %lld of %lld, first difference at %lld)\n", name, static_cast<long long>(got),
                  kept, bad);
      ++failures;
      return;
    }
    const auto t = time.run(call);
    const double gbps = bytes / t.median / 1e6;
    std::printf("  %-44s %7.3f ms  %5.1f%% of copy\n", name, t.median, 100 * gbps / copy_gbps);
  }

  template <class Row>
  void try_row() {
    constexpr auto r = Row::value;
    using job = onepass::detail::select_if_job<T, pred_t>;
    using unique_job = onepass::detail::unique_job<T, equal_to>;
    using flagged_job = onepass::detail::select_flagged_job<T, std::uint8_t>;
    // Named after the kernel the call runs with this row (the dispatcher's own choice; the
    // inputs here are aligned), in the shape it runs (unique's own, where the row has one).
    using onepass::detail::select_kernel_choice;
    const bool split = what == op::unique    ? select_kernel_choice<unique_job, Row>::split_tile(true, false)
                       : what == op::flagged ? select_kernel_choice<flagged_job, Row>::split_tile(true, false)
                                             : select_kernel_choice<job, Row>::split_tile(true, what == op::partition);
    // (As many tiles per resident block as it takes: the sweep's sizes are large.)
    const bool pipelined = what == op::unique    ? select_kernel_choice<unique_job, Row>::pipelined(true, 1e9)
                           : what == op::flagged ? select_kernel_choice<flagged_job, Row>::pipelined(true, 1e9)
                                                 : select_kernel_choice<job, Row>::pipelined(true, 1e9);
    const auto k = what == op::unique ? r.for_unique() : r;
    char name[80];
    if (pipelined)
      std::snprintf(name, sizeof name, "pipeline %dx%d L2+%lldMiB window %d", r.pipeline_threads, r.pipeline_items,
                    k.l2_prefetch_bytes >> 20, 32 * r.pipeline_lookback_tiles_per_lane);
    else if (split)
      std::snprintf(name, sizeof name, "%d x (%d rows + %d shared) L2+%lldMiB min%d wait %uns", k.block_threads,
                    k.register_rows, k.shared_items, k.l2_prefetch_bytes >> 20, k.split_min_blocks_per_sm,
                    k.lookback_backoff_ns);
    else
      std::snprintf(name, sizeof name, "one tile %dx%d L2+%lldMiB%s min%d", k.block_threads, k.items_per_thread,
                    k.l2_prefetch_bytes >> 20, k.vector_stores ? " 16-byte stores" : "", k.min_blocks_per_sm);
    bench::device_array<unsigned char> ws(static_cast<long long>(onepass::detail::select_plan<T, Row>::workspace_bytes(n)));
    const workspace w{ws.get(), ws.bytes()};
    measure(name, [&] {
      if (what == op::unique)
        onepass::detail::select_launch<unique_job, Row>(unique_job{in.get(), equal_to{}}, n, out.get(), nullptr,
                                                        count.get(), w, time.stream());
      else if (what == op::flagged)
        onepass::detail::select_launch<flagged_job, Row>(flagged_job{in.get(), flags.get()}, n, out.get(), nullptr,
                                                         count.get(), w, time.stream());
      else
        onepass::detail::select_launch<job, Row>(job{in.get(), pred_t{}}, n, out.get(),
                                                 what == op::partition ? rejected.get() : nullptr, count.get(), w,
                                                 time.stream());
    });
  }

  // select_flagged's one-tile kernel with its flags read one at a time (the baseline of
  // the vector flag loads).
  template <int Items>
  void try_flags_one_at_a_time() {
    if (what != op::flagged) return;
    using job = flags_one_at_a_time_job<T>;
    using Row = row<128, Items, 2>;
    bench::device_array<unsigned char> ws(static_cast<long long>(onepass::detail::select_plan<T, Row>::workspace_bytes(n)));
    const workspace w{ws.get(), ws.bytes()};
    char name[80];
    std::snprintf(name, sizeof name, "one tile 128x%d, flags one at a time", Items);
    measure(name, [&] {
      onepass::detail::select_launch<job, Row>(job{{in.get(), flags.get()}}, n, out.get(), nullptr, count.get(), w,
                                               time.stream());
    });
  }

  void try_cub() {
    if (what == op::flagged) return;  // the ladder's CUB entry has no flagged form
    const auto& v = *ladder::find_select<T, pred_t>("cub");
    bench::device_array<unsigned char> ws(static_cast<long long>(v.workspace_bytes(n)));
    const workspace w{ws.get(), ws.bytes()};
    measure("cub", [&] {
      if (what == op::unique) v.unique(in.get(), n, out.get(), count.get(), w, time.stream());
      else if (what == op::partition)
        v.partition(in.get(), n, out.get(), rejected.get(), count.get(), pred_t{}, w, time.stream());
      else v.select_if(in.get(), n, out.get(), count.get(), pred_t{}, w, time.stream());
    });
  }
};

// One table: CUB, the one-tile kernel, the split tiles (2 MiB prefetch; no minimum of
// resident blocks, or 6, 7, 8 of them; a larger shared part).
template <class T, int Items, int Rows>
int run_table(long long n, op what, int keep, bench::timer& time, double copy_gbps) {
  sweep<T> s(n, what, keep, time, copy_gbps);
  s.try_cub();
  s.template try_flags_one_at_a_time<Items>();
  s.template try_row<row<128, Items, 2>>();
  s.template try_row<row<128, Items, 2, Rows, 128 * (Items - Rows)>>();
  s.template try_row<row<128, Items, 2, Rows, 128 * (Items - Rows), 6>>();
  s.template try_row<row<128, Items, 2, Rows, 128 * (Items - Rows), 7>>();
  s.template try_row<row<128, Items, 2, Rows, 128 * (Items - Rows), 8>>();
  s.template try_row<row<128, Items + Items / 4, 2, Rows, 128 * (Items + Items / 4 - Rows), 6>>();
  return s.failures;
}

// One table: CUB, then Rows in order, the whole list twice, so that drift within the run
// shows as a difference between the two rounds.
template <class T, class... Rows>
int run_alternated(long long n, op what, int keep, bench::timer& time, double copy_gbps) {
  sweep<T> s(n, what, keep, time, copy_gbps);
  s.try_cub();
  for (int round = 0; round < 2; ++round) (s.template try_row<Rows>(), ...);
  return s.failures;
}

// The one-tile kernel's stores, one an item against 16 bytes a store.
template <class T, int Items>
int run_stores_table(long long n, op what, int keep, bench::timer& time, double copy_gbps) {
  return run_alternated<T, one_tile_row<Items, false>, one_tile_row<Items, true>>(n, what, keep, time, copy_gbps);
}

// The production row with the L2 prefetch 1, 2, 4 and 6 MiB ahead.
template <class T>
int run_prefetch_table(long long n, op what, int keep, bench::timer& time, double copy_gbps) {
  return run_alternated<T, production_prefetch<T, 1>, production_prefetch<T, 2>, production_prefetch<T, 4>,
                        production_prefetch<T, 6>>(n, what, keep, time, copy_gbps);
}

// The production row with the lookback's first pause at 0 (spinning), 16, 32
// (production's) and 128 ns.
template <class T>
int run_backoff_table(long long n, op what, int keep, bench::timer& time, double copy_gbps) {
  return run_alternated<T, production_backoff<T, 0>, production_backoff<T, 16>, production_backoff<T, 32>,
                        production_backoff<T, 128>>(n, what, keep, time, copy_gbps);
}

// 4-byte shapes: production (128 x 64, 5 blocks per SM by its 96 registers) against
// smaller and larger one-tile shapes, the same tile at a minimum of 6 blocks per SM, and
// the split tile with 32 or 16 register rows at 8 blocks per SM.
int run_shapes_table(long long n, op what, int keep, bench::timer& time, double copy_gbps) {
  return run_alternated<unsigned, tuning::default_select_tuning<unsigned>, shape_row<128, 48>, shape_row<128, 80>,
                        shape_row<256, 32>, shape_row<128, 64, 0, 0, 6>, shape_row<128, 48, 0, 0, 7>,
                        shape_row<128, 64, 32, 8>, shape_row<128, 64, 16, 8>>(n, what, keep, time, copy_gbps);
}

// Production against the same row without the pipelined agent and with it for every
// call at every size.
template <class T>
int run_pipeline_table(long long n, op what, int keep, bench::timer& time, double copy_gbps) {
  return run_alternated<T, production_no_pipeline<T>, tuning::default_select_tuning<T>,
                        production_pipeline_everywhere<T>>(n, what, keep, time, copy_gbps);
}

int main(int argc, char** argv) try {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "select_tuning_sweep: no usable CUDA device\n");
    return 2;
  }
  const long long n = 1ll << (argc > 1 ? std::atoi(argv[1]) : 28);
  cudaStream_t stream;
  ONEPASS_CUDA_TRY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  bench::timer time(stream, 3, 20, bench::query_device().l2_bytes);
  double copy_gbps = 0;
  {
    bench::device_array<unsigned> a(n), b(n);
    ONEPASS_CUDA_TRY(cudaMemsetAsync(a.get(), 1, a.bytes(), stream));
    const auto t = time.run([&] {
      ONEPASS_CUDA_TRY(cudaMemcpyAsync(b.get(), a.get(), a.bytes(), cudaMemcpyDeviceToDevice, stream));
    });
    copy_gbps = 2.0 * a.bytes() / t.median / 1e6;
    std::printf("%s, copy %.0f GB/s (%lld bytes)\n", bench::query_device().name.c_str(), copy_gbps,
                static_cast<long long>(a.bytes()));
  }
  int failures = 0;
  if (argc > 2 && std::string(argv[2]) == "backoff") {
    for (int keep : {1, 50, 99}) failures += run_backoff_table<unsigned>(n, op::select, keep, time, copy_gbps);
    failures += run_backoff_table<unsigned>(n, op::partition, 50, time, copy_gbps);
    failures += run_backoff_table<unsigned long long>(n / 2, op::select, 50, time, copy_gbps);
    return failures ? 1 : 0;
  }
  if (argc > 2 && std::string(argv[2]) == "pipeline") {
    for (int keep : {1, 50, 99}) failures += run_pipeline_table<unsigned>(n, op::select, keep, time, copy_gbps);
    failures += run_pipeline_table<unsigned>(n, op::partition, 50, time, copy_gbps);
    failures += run_pipeline_table<unsigned>(n, op::unique, 4, time, copy_gbps);
    failures += run_pipeline_table<unsigned>(n, op::unique, 1, time, copy_gbps);
    for (int keep : {1, 50, 99})
      failures += run_pipeline_table<unsigned long long>(n / 2, op::select, keep, time, copy_gbps);
    failures += run_pipeline_table<unsigned long long>(n / 2, op::partition, 50, time, copy_gbps);
    failures += run_pipeline_table<unsigned long long>(n / 2, op::unique, 4, time, copy_gbps);
    std::printf("%d FAILED\n", failures);
    return failures ? 1 : 0;
  }
  if (argc > 2 && std::string(argv[2]) == "prefetch") {
    for (int keep : {1, 50, 99}) failures += run_prefetch_table<unsigned>(n, op::select, keep, time, copy_gbps);
    failures += run_prefetch_table<unsigned>(n, op::partition, 50, time, copy_gbps);
    failures += run_prefetch_table<unsigned>(n, op::unique, 4, time, copy_gbps);
    failures += run_prefetch_table<unsigned long long>(n / 2, op::select, 50, time, copy_gbps);
    return failures ? 1 : 0;
  }
  if (argc > 2 && std::string(argv[2]) == "shapes") {
    for (int keep : {1, 50, 99}) failures += run_shapes_table(n, op::select, keep, time, copy_gbps);
    failures += run_shapes_table(n, op::unique, 4, time, copy_gbps);
    return failures ? 1 : 0;
  }
  if (argc > 2 && std::string(argv[2]) == "stores") {
    for (int keep : {1, 50, 99}) failures += run_stores_table<unsigned, 64>(n, op::select, keep, time, copy_gbps);
    failures += run_stores_table<unsigned, 64>(n, op::flagged, 50, time, copy_gbps);
    failures += run_stores_table<unsigned, 64>(n, op::partition, 50, time, copy_gbps);
    failures += run_stores_table<unsigned, 64>(n, op::unique, 1, time, copy_gbps);
    failures += run_stores_table<unsigned, 64>(n, op::unique, 4, time, copy_gbps);
    failures += run_stores_table<unsigned long long, 32>(n / 2, op::select, 50, time, copy_gbps);
    failures += run_stores_table<unsigned long long, 32>(n / 2, op::flagged, 50, time, copy_gbps);
    return failures ? 1 : 0;
  }
  if (argc > 2 && std::string(argv[2]) != "all") {
    std::fprintf(stderr, "select_tuning_sweep: rows must be all, pipeline, stores, prefetch, backoff or shapes, not %s\n", argv[2]);
    return 2;
  }
  for (int keep : {1, 50, 99}) failures += run_table<unsigned, 64, 32>(n, op::select, keep, time, copy_gbps);
  failures += run_table<unsigned, 64, 32>(n, op::flagged, 50, time, copy_gbps);
  failures += run_table<unsigned, 64, 32>(n, op::partition, 50, time, copy_gbps);
  failures += run_table<unsigned, 64, 32>(n, op::unique, 4, time, copy_gbps);
  for (int keep : {1, 50, 99})
    failures += run_table<unsigned long long, 32, 16>(n / 2, op::select, keep, time, copy_gbps);
  failures += run_table<unsigned long long, 32, 16>(n / 2, op::flagged, 50, time, copy_gbps);
  failures += run_table<unsigned long long, 32, 16>(n / 2, op::partition, 50, time, copy_gbps);
  failures += run_table<unsigned long long, 32, 16>(n / 2, op::unique, 4, time, copy_gbps);
  std::printf("%d FAILED\n", failures);
  return failures ? 1 : 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "select_tuning_sweep: %s\n", e.what());
  return 1;
}
