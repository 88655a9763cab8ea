#pragma once
// Where a fleet's profiles live and which of them to read: a URL accepted wherever a profile file
// is (docs/fleet.md, "Sources"):
//   clickhouse://[USER[:PASSWORD]@]HOST[:PORT]/DB[?service=S&version=V&host=H...&from=T&to=T
//                &label.KEY=VALUE...&cluster=NAME&runs_by=host|day]
// The port is ClickHouse's HTTP port (8123 by default). Credentials come from the URL or from
// BOTTLENECKS_CLICKHOUSE_USER and BOTTLENECKS_CLICKHOUSE_PASSWORD; shown() never prints a password.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bn::fleet {

// Which recordings a query reads. An empty field matches every value; times are Unix seconds,
// `from` inclusive and `to` exclusive.
struct Slice {
  std::string service;
  std::string version;
  std::vector<std::string> hosts;                           // any of these
  std::vector<std::pair<std::string, std::string>> labels;  // every one of these
  std::optional<std::int64_t> from, to;
};

// How a slice becomes runs: one merged profile, or one per host or per day, so that a comparison
// takes its noise from the spread between them (docs/compare.md).
enum class RunsBy { none, host, day };

struct FleetUrl {
  std::string host;
  std::uint16_t port = 8123;
  std::string database;
  std::string user = "default";
  std::string password;
  // Read and write through the Distributed tables over this cluster (docs/fleet.md, "Clusters").
  std::string cluster;
  Slice slice;
  RunsBy runs_by = RunsBy::none;

  // The URL as given, without the password: for messages and profile names.
  std::string shown() const;
  // clickhouse://HOST:PORT/DB: for messages about the server.
  std::string server() const;
};

// True if `text` names a fleet source rather than a file.
bool is_fleet_url(std::string_view text);

// Throws bn::Error naming what is wrong: "clickhouse URL 'x': unknown parameter 'sevice' (known:
// ...)". `now` (Unix seconds) anchors relative times such as from=-7d.
FleetUrl parse_fleet_url(std::string_view text, std::int64_t now);

// A time as a push's --time or a URL's from/to take it: Unix seconds, 2026-11-28,
// 2026-11-28T10:05[:30][Z], "now", or relative to now as -90s, -30m, -12h, -7d.
// Throws bn::Error naming the value.
std::int64_t parse_time(std::string_view text, std::int64_t now);
// The time now, in Unix seconds: what relative times count back from.
std::int64_t now_unix_seconds();
// "2026-11-28 10:05:30" in UTC.
std::string time_text(std::int64_t unix_seconds);

}  // namespace bn::fleet
