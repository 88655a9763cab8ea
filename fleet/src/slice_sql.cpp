#include "slice_sql.h"

namespace bn::fleet::detail {

std::string sql_string(std::string_view s) {
  std::string out = "'";
  for (const char c : s) {
    if (c == '\\' || c == '\'') out += '\\';
    out += c;
  }
  return out + "'";
}

SliceSql slice_sql(const Slice& slice, const Tables& tables) {
  std::string labels = "1";
  if (!slice.service.empty()) labels += " AND service = " + sql_string(slice.service);
  if (!slice.version.empty()) labels += " AND version = " + sql_string(slice.version);
  if (!slice.hosts.empty()) {
    labels += " AND host IN (";
    for (std::size_t i = 0; i < slice.hosts.size(); ++i) labels += (i ? ", " : "") + sql_string(slice.hosts[i]);
    labels += ")";
  }
  for (const auto& [key, value] : slice.labels) labels += " AND has(labels, " + sql_string(key + "=" + value) + ")";
  SliceSql sql;
  sql.recordings = labels;
  sql.samples = labels;
  if (slice.from) sql.samples += " AND time >= toDateTime(" + std::to_string(*slice.from) + ")";
  if (slice.to) sql.samples += " AND time < toDateTime(" + std::to_string(*slice.to) + ")";
  // A push counts once its recordings row exists; of several pushes of one recording (clients
  // that raced past the check in push_recording), the least push id. GLOBAL: on a cluster the
  // list is made once, from every shard, and sent to each.
  sql.samples +=
      " AND push GLOBAL IN (SELECT min(push) FROM " + tables.recordings + " WHERE " + labels + " GROUP BY recording)";
  return sql;
}

}  // namespace bn::fleet::detail
