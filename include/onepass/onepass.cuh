// onepass/onepass.cuh — everything public in one include.
#pragma once

#include "onepass/error.cuh"
#include "onepass/functional.cuh"
#include "onepass/warp/warp_reduce.cuh"
#include "onepass/warp/warp_scan.cuh"
#include "onepass/block/block_exchange.cuh"
#include "onepass/block/block_load_store.cuh"
#include "onepass/block/block_reduce.cuh"
#include "onepass/block/block_scan.cuh"
#include "onepass/lookback/lookback.cuh"
#include "onepass/histogram.cuh"
#include "onepass/reduce.cuh"
#include "onepass/scan.cuh"
#include "onepass/segmented_scan.cuh"
#include "onepass/select.cuh"
#include "onepass/radix_sort.cuh"
#include "onepass/rms_norm.cuh"
