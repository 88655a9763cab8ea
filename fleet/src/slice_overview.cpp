#include "slice_overview.h"

#include "row_binary.h"

namespace bn::fleet::detail {

std::string Overview::partitions_sql() const {
  std::string out = "day IN (";
  for (auto d = days.begin(); d != days.end(); ++d)
    out += (d == days.begin() ? "" : ", ") + sql_string(time_text(std::int64_t{*d} * 86400).substr(0, 10));
  out += ") AND service IN (";
  for (auto s = services.begin(); s != services.end(); ++s) out += (s == services.begin() ? "" : ", ") + sql_string(*s);
  return out + ")";
}

Overview overview_of(const ClickHouse& server, const Tables& tables, const SliceSql& sql) {
  // A recording's rows are all in one day and service, so its count adds up across the groups;
  // a host's do not, hence the hosts themselves.
  const std::string answer = server.query(
      "SELECT day, service, uniqExact(recording), groupUniqArray(host), toUInt32(min(time)), toUInt32(max(time)) "
      "FROM " +
      tables.samples + " WHERE " + sql.samples + " GROUP BY day, service FORMAT RowBinary");
  Overview out;
  RowReader in(answer, server.url().server() + ": overview");
  bool first = true;
  while (!in.done()) {
    out.days.insert(in.u16());
    out.services.emplace(in.string());
    out.recordings += in.u64();
    for (std::uint64_t n = in.length(), i = 0; i < n; ++i) out.hosts.emplace(in.string());
    const std::int64_t from = in.u32(), to = in.u32();
    out.first = first ? from : std::min(out.first, from);
    out.last = first ? to : std::max(out.last, to);
    first = false;
  }
  return out;
}

}  // namespace bn::fleet::detail
