#pragma once
// The SQL of a slice: which rows of `samples` and `recordings` it reads (docs/fleet.md, "Sources").

#include <string>
#include <string_view>

#include "bn/fleet/fleet_url.h"
#include "bn/fleet/schema.h"

namespace bn::fleet::detail {

// A ClickHouse string literal.
std::string sql_string(std::string_view s);

struct SliceSql {
  // Conditions on `recordings` (its labels, no time: a recording's rows may straddle `from`).
  std::string recordings;
  // Conditions on `samples`: the same labels, the time range, and only the pushes that count.
  std::string samples;
};

SliceSql slice_sql(const Slice& slice, const Tables& tables);

}  // namespace bn::fleet::detail
