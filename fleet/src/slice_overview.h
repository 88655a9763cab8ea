#pragma once
// What a slice covers, from one scan of its samples: how many recordings and hosts, its first and
// last minute, and the days and services whose stack nodes and frames it needs (the stacks and
// frames tables are partitioned by day and ordered by service, so these bound what is read).

#include <cstdint>
#include <set>
#include <string>

#include "bn/fleet/clickhouse.h"
#include "bn/fleet/schema.h"
#include "slice_sql.h"

namespace bn::fleet::detail {

struct Overview {
  std::uint64_t recordings = 0;
  std::set<std::string> hosts;
  std::int64_t first = 0, last = 0;  // Unix seconds of the first and last minute
  std::set<std::uint16_t> days;      // days since 1970
  std::set<std::string> services;

  // "day IN (...) AND service IN (...)": the partitions of the stacks and frames to read.
  std::string partitions_sql() const;
};

Overview overview_of(const ClickHouse& server, const Tables& tables, const SliceSql& sql);

}  // namespace bn::fleet::detail
