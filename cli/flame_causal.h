#pragma once
// The causal charts of a flame graph (flame/include/bn/flame/causal_charts.h): the report the
// REPL's `causal` shows of the same recordings, so the page and the REPL agree on every number,
// the order and the flags.

#include "bn/flame/causal_charts.h"
#include "bn/search/causal_report.h"

namespace bn::cli {

flame::CausalCharts causal_charts(const search::CausalReport& report);

}  // namespace bn::cli
