# onepass-bench as a user meets it, on any machine: --help and --list need no GPU, a bad
# command line is a usage error (exit 64), and without a visible GPU it says so and exits
# with 2. CUDA_VISIBLE_DEVICES=-1 hides every GPU, so the last check is real on a GPU
# machine too.
#   cmake -DBENCH=path/to/onepass-bench -P check_cli.cmake

function(expect_run expected_code)
  cmake_parse_arguments(E "" "" "ARGS;OUT;ERR;ENV" ${ARGN})
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${E_ENV} ${BENCH} ${E_ARGS}
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL expected_code)
    message(FATAL_ERROR "onepass-bench ${E_ARGS}: exit ${code}, expected ${expected_code}\nstdout:\n${out}\nstderr:\n${err}")
  endif()
  foreach(fragment IN LISTS E_OUT)
    string(FIND "${out}" "${fragment}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "onepass-bench ${E_ARGS}: stdout lacks '${fragment}':\n${out}")
    endif()
  endforeach()
  foreach(fragment IN LISTS E_ERR)
    string(FIND "${err}" "${fragment}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "onepass-bench ${E_ARGS}: stderr lacks '${fragment}':\n${err}")
    endif()
  endforeach()
  message(STATUS "ok: onepass-bench ${E_ARGS} -> ${code}")
endfunction()

expect_run(0 ARGS --help OUT "usage: onepass-bench" "--preset seeds" "--dist" "--bins" "--keep" "--runs" "--values"
                            "--order" "uniform_1_1000" "onepass (by key)" "Exit status")
expect_run(0 ARGS --list OUT "baseline" "copy" "read" "scan" "sequential" "hillis_steele" "blelloch_bcf"
                            "three_pass_warp" "chained" "lookback_warp" "lookback_vec16" "onepass" "cub")
expect_run(0 ARGS --list OUT "histogram - " "global_atomic" "block_private" "warp_private"
                            "dtypes: uint8, uint16, int32, uint32, float"
                            "dists: uniform, skewed, one_bin, sorted (--dist; default uniform)"
                            "bins: any from 1 (--bins; default 256)")
expect_run(0 ARGS --list OUT "select - " "unique - " "partition - " "three_kernel"
                            "keep: 0 to 100 percent (--keep; default 50)"
                            "runs: any length from 1 (--runs; default 4)")
expect_run(0 ARGS --list OUT "radix_sort - " "split_1bit"
                            "dists: random, low_entropy, all_equal, sorted, reverse, range16 (--dist; default random)"
                            "values: none, u32, u64 (--values; default none)"
                            "orders: ascending, descending (--order; default ascending)")
expect_run(0 ARGS --list OUT "segmented_scan - " "warp_head_flags"
                            "dists: uniform_1_1000, all_1, all_32, power_law, one_segment, with_empty (--dist; default uniform_1_1000)"
                            "forms: flags, offsets, by key, begin/end, begin/end with gaps" "forms: by key")
expect_run(64 ARGS --bogus ERR "unknown argument '--bogus'" "usage: onepass-bench")
expect_run(64 ARGS --n 2^x ERR "--n: '2^x' is not a count")
expect_run(64 ARGS --iters 0 ERR "--iters")
expect_run(64 ARGS --variant fastest ERR "--variant: 'fastest' is not known")
expect_run(64 ARGS --dtype int8 ERR "--dtype: 'int8' is not known")
expect_run(64 ARGS --preset seeds --n 2^20 ERR "cannot be combined")
expect_run(64 ARGS --dist zipf ERR "--dist: 'zipf' is not known (known: uniform, skewed, one_bin, sorted, random,")
expect_run(64 ARGS --bins 0 ERR "--bins: '0' must be at least 1")
expect_run(64 ARGS --primitive reduce --dist skewed ERR "--dist: reduce has no sample distribution")
expect_run(64 ARGS --primitive histogram --dtype int64 ERR "--dtype: histogram does not take 'int64'")
expect_run(64 ARGS --keep 150 ERR "--keep: '150' is not a percentage (a whole number from 0 to 100)")
expect_run(64 ARGS --runs 0 ERR "--runs: '0' must be at least 1")
expect_run(64 ARGS --primitive reduce --keep 50 ERR "--keep: reduce keeps no fraction of its items")
expect_run(64 ARGS --primitive select --runs 4 ERR "--runs: select has no runs (--runs is for: unique)")
expect_run(64 ARGS --preset seeds --keep 1 ERR "cannot be combined")
expect_run(64 ARGS --values u16 ERR "--values: 'u16' is not known (known: none, u32, u64)")
expect_run(64 ARGS --primitive scan --order descending ERR "--order: scan has no sort order (--order is for: radix_sort)")
expect_run(64 ARGS --primitive radix_sort --dist skewed ERR "--dist: radix_sort does not take 'skewed'")
expect_run(64 ARGS --primitive segmented_scan --dist skewed ERR "--dist: segmented_scan does not take 'skewed'")
expect_run(64 ARGS --primitive segmented_scan --keep 50 ERR "--keep: segmented_scan keeps no fraction of its items")
expect_run(64 ARGS --json /nonexistent-dir/out.json ERR "cannot write '/nonexistent-dir/out.json'")
expect_run(2 ENV CUDA_VISIBLE_DEVICES=-1 ARGS --n 2^10 ERR "CUDA device" "nothing to measure")
expect_run(2 ENV CUDA_VISIBLE_DEVICES=-1 ARGS --preset seeds ERR "nothing to measure")
expect_run(2 ENV CUDA_VISIBLE_DEVICES=-1 ARGS --primitive histogram --dist one_bin,sorted --bins 4096 --n 2^10
           ERR "nothing to measure")
expect_run(2 ENV CUDA_VISIBLE_DEVICES=-1 ARGS --primitive select,partition --keep 1,99 --n 2^10
           ERR "nothing to measure")
expect_run(2 ENV CUDA_VISIBLE_DEVICES=-1 ARGS --primitive unique --runs 1,1000 --dtype double --n 2^10
           ERR "nothing to measure")
expect_run(2 ENV CUDA_VISIBLE_DEVICES=-1 ARGS --primitive radix_sort --dtype float,uint64 --values none,u32
           --order descending --dist random,range16 --n 2^10 ERR "nothing to measure")
expect_run(2 ENV CUDA_VISIBLE_DEVICES=-1 ARGS --primitive segmented_scan --dtype float,int64 --op sum,max
           --kind inclusive,exclusive --dist all_1,with_empty --n 2^10 ERR "nothing to measure")
