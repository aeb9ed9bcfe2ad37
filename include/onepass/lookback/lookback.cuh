// onepass/lookback/lookback.cuh — moved to onepass/single_pass/lookback.cuh with the rest of the
// single-pass core; this header forwards there for code that includes the old path.
#pragma once

#include "onepass/single_pass/lookback.cuh"
