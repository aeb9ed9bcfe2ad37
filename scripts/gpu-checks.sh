#!/usr/bin/env bash
# Every GPU check in one command, for the device machine (or any machine with a GPU):
#   1. builds the dev preset (sm_90) and runs every GPU test binary on the GPU
#      (ONEPASS_PREBUILT=1 uses binaries already in the build folder);
#   2. runs compute-sanitizer memcheck, racecheck, synccheck and initcheck over the GPU
#      tests on small cases (ONEPASS_TEST_MAX_N caps sizes; huge cases skip);
#   3. prints a one-line summary last.
# Usage: scripts/gpu-checks.sh [build-dir]     (logs go to $OUT or ./gpu-checks-logs)
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/dev}
logs=${OUT:-gpu-checks-logs}
mkdir -p "$logs"
export PATH="/usr/local/cuda/bin:$PATH"

nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv,noheader || true
if [ -z "${ONEPASS_PREBUILT:-}" ]; then
  [ -f "$build/build.ninja" ] || cmake --preset dev -B "$build" >"$logs/configure.log" 2>&1 || { cat "$logs/configure.log"; exit 1; }
  cmake --build "$build" -j "$(nproc)" >"$logs/build.log" 2>&1 || { tail -50 "$logs/build.log"; echo "gpu-checks: BUILD FAILED"; exit 1; }
fi

# 1. Every GPU test binary, whole (ctest also runs the CPU-only tests and the package check).
gpu_tests="test_building_blocks test_scan test_scan_ladder test_validation test_reduce test_reduce_ladder test_reduce_validation test_rms_norm test_histogram test_histogram_ladder test_histogram_validation test_select test_select_validation test_select_ladder test_radix_sort test_radix_sort_ladder test_radix_sort_validation test_segmented_scan test_segmented_scan_ladder test_segmented_scan_validation"
passed=0; failed=0; gpu_skips=0
for bin in $gpu_tests; do
  "$build/tests/$bin" >"$logs/$bin.log" 2>&1
  rc=$?
  tail -3 "$logs/$bin.log"
  n_ok=$(grep -Eo "\[  PASSED  \] [0-9]+" "$logs/$bin.log" | grep -Eo "[0-9]+$" || echo 0)
  n_bad=$(grep -Eo "[0-9]+ FAILED TESTS?" "$logs/$bin.log" | grep -Eo "^[0-9]+" || echo 0)
  passed=$((passed + n_ok)); failed=$((failed + n_bad))
  gpu_skips=$((gpu_skips + $(grep -c "GPU test skipped" "$logs/$bin.log")))
  if [ "$rc" -ne 0 ]; then echo "$bin: exit $rc"; grep -E -A6 "Failure|FAILED" "$logs/$bin.log" | head -40; [ "$n_bad" -eq 0 ] && failed=$((failed + 1)); fi
done
tests_line="$passed passed, $failed failed"
[ "$failed" -eq 0 ] && tests_ok=1 || tests_ok=0

# 2. compute-sanitizer on small cases: the building blocks, the production scan and
#    reduce, both ladders on one 4-byte and the 8-byte non-commutative type, RMSNorm, and
#    the histogram (production: int32 and float levels, which reach all three counter
#    layouts, unaligned starts, float boundaries, graphs and shared workspaces; the
#    ladder on uint8), the production select (partition and in place on int32, unique on
#    the 12-byte struct, index predicates, graphs, stalled tiles), and the select ladder
#    on int32 (every variant and operation, in place, index predicates), and the production
#    radix sort (uint32 and double keys, several portions, stalled tiles, graphs) and its
#    ladder on uint32 keys, and the production segmented scan (int32 and double on every
#    form and distribution, gaps, bad offsets, graphs, stalled tiles) and its ladder on
#    int32.
export ONEPASS_TEST_MAX_N=${ONEPASS_TEST_MAX_N:-20000}
summary=""
sanitizer_errors=0
for tool in memcheck racecheck synccheck initcheck; do
  tool_errors=0
  for run in "test_building_blocks" \
             "test_scan --gtest_filter=ScanPublic/0.*:ScanPublic/5.*:Scan.*:ScanStress.*:ScanPipelined.*:ScanSingleWave.*" \
             "test_scan_ladder --gtest_filter=*int32_plus:*affine*" \
             "test_reduce --gtest_filter=Reduce.PublicApiInt32:Reduce.PublicApiNonCommutative:Reduce.Empty*:Reduce.Workspace*:Reduce.BackToBack*:Reduce.FloatSums*" \
             "test_reduce_ladder --gtest_filter=*int32_plus:*double_plus:*affine*" \
             "test_rms_norm" \
             "test_histogram --gtest_filter=HistogramEven.LevelsInt32:HistogramEven.LevelsFloat:HistogramEven.Unaligned*:HistogramRange.UnevenBoundariesFloat:Histogram.*" \
             "test_histogram_ladder --gtest_filter=HistogramLadder.uint8" \
             "test_select --gtest_filter=SelectPublic/0.Partition:SelectPublic/0.InPlace:SelectPublic/6.Unique:Select.EmptyInput*:Select.PredicateReadsTheIndex:Select.WorkspaceStyleInCudaGraph:SelectStress.*" \
             "test_select_ladder --gtest_filter=SelectLadder.int32_*:SelectLadder.*Int32" \
             "test_radix_sort --gtest_filter=RadixSortPublic/0.*:RadixSortPublic/5.*:RadixSort.*:RadixSortStress.*" \
             "test_radix_sort_ladder --gtest_filter=RadixSortLadder.uint32_*" \
             "test_segmented_scan --gtest_filter=FourByte/SegmentedScanPublic/0.*:EightByte/SegmentedScanPublic/2.*:SegmentedScan.*:SegmentedScanStress.*:-*MoreThan2To31*" \
             "test_segmented_scan_ladder --gtest_filter=SegmentedScanLadder.int32*"; do
    set -- $run
    bin=$1; shift
    log="$logs/sanitizer-$tool-$bin.log"
    compute-sanitizer --tool "$tool" --error-exitcode 99 "$build/tests/$bin" "$@" >"$log" 2>&1
    rc=$?
    found=$(grep -Eo "ERROR SUMMARY: [0-9]+ error" "$log" | grep -Eo "[0-9]+" | tail -1)
    found=${found:-0}
    if [ "$rc" -ne 0 ] && [ "$found" -eq 0 ]; then found=1; echo "$tool $bin: exit $rc"; tail -20 "$log"; fi
    if [ "$found" -ne 0 ]; then echo "$tool $bin: $found error(s), see $log"; grep -m5 -B2 -A8 "=========" "$log" | head -40; fi
    tool_errors=$((tool_errors + found))
  done
  summary="$summary $tool=$tool_errors"
  sanitizer_errors=$((sanitizer_errors + tool_errors))
done

status=PASS
[ "$tests_ok" -eq 1 ] && [ "$sanitizer_errors" -eq 0 ] && [ "$gpu_skips" -eq 0 ] || status=FAIL
echo "gpu-checks: $status | GPU tests: $tests_line | GPU-test skips: $gpu_skips | sanitizer errors:$summary"
[ "$status" = PASS ]
