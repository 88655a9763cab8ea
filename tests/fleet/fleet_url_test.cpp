#include "bn/fleet/fleet_url.h"

#include <doctest/doctest.h>
#include <stdlib.h>

#include "bn/base/error.h"

namespace bn::fleet {
namespace {

constexpr std::int64_t kNow = 1'795'000'000;  // 2026-11-18 11:06:40 UTC

std::string error_of(std::string_view url) {
  try {
    parse_fleet_url(url, kNow);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST_CASE("a clickhouse URL names the server, the database and the slice") {
  const FleetUrl url = parse_fleet_url(
      "clickhouse://ch.example:9123/fleet?service=checkout&version=1.5%2Bb2&host=a&host=b&from=2026-11-28&"
      "to=2026-11-28T12:30&label.region=eu&runs_by=host",
      kNow);
  CHECK(url.host == "ch.example");
  CHECK(url.port == 9123);
  CHECK(url.database == "fleet");
  CHECK(url.slice.service == "checkout");
  CHECK(url.slice.version == "1.5+b2");
  CHECK(url.slice.hosts == std::vector<std::string>{"a", "b"});
  CHECK(url.slice.labels == std::vector<std::pair<std::string, std::string>>{{"region", "eu"}});
  CHECK(url.slice.from == 1'795'824'000);
  CHECK(url.slice.to == 1'795'824'000 + 12 * 3600 + 30 * 60);
  CHECK(url.runs_by == RunsBy::host);
  CHECK(url.cluster.empty());
}

TEST_CASE("the port defaults to ClickHouse's HTTP port and the user to default") {
  unsetenv("BOTTLENECKS_CLICKHOUSE_USER");
  unsetenv("BOTTLENECKS_CLICKHOUSE_PASSWORD");
  const FleetUrl url = parse_fleet_url("clickhouse://localhost/db", kNow);
  CHECK(url.port == 8123);
  CHECK(url.user == "default");
  CHECK(url.password.empty());
}

TEST_CASE("credentials come from the URL or the environment and are never shown") {
  setenv("BOTTLENECKS_CLICKHOUSE_USER", "env-user", 1);
  setenv("BOTTLENECKS_CLICKHOUSE_PASSWORD", "env-secret", 1);
  const FleetUrl from_env = parse_fleet_url("clickhouse://h:1/db", kNow);
  CHECK(from_env.user == "env-user");
  CHECK(from_env.password == "env-secret");
  const FleetUrl in_url = parse_fleet_url("clickhouse://alice:s%40cret@h:1/db?service=x", kNow);
  CHECK(in_url.user == "alice");
  CHECK(in_url.password == "s@cret");
  CHECK(in_url.shown() == "clickhouse://alice@h:1/db?service=x");
  CHECK(in_url.shown().find("cret") == std::string::npos);
  CHECK(error_of("clickhouse://alice:secret@h:1/db?sevice=x").find("secret") == std::string::npos);
  unsetenv("BOTTLENECKS_CLICKHOUSE_USER");
  unsetenv("BOTTLENECKS_CLICKHOUSE_PASSWORD");
}

TEST_CASE("a typo in a clickhouse URL is named") {
  CHECK(error_of("clickhouse://h:1/db?sevice=x") ==
        "clickhouse URL 'clickhouse://h:1/db?sevice=x': unknown parameter 'sevice' (known: service, version, host, "
        "from, to, label.KEY, cluster, runs_by)");
  CHECK(error_of("clickhouse://h:80x/db").find("bad port '80x'") != std::string::npos);
  CHECK(error_of("clickhouse://h:1").find("no database") != std::string::npos);
  CHECK(error_of("clickhouse://h:1/").find("no database") != std::string::npos);
  CHECK(error_of("clickhouse://h:1/my-db").find("letters, digits and '_' only") != std::string::npos);
  CHECK(error_of("clickhouse://h:1/db?service").find("has no '=VALUE'") != std::string::npos);
  CHECK(error_of("clickhouse://h:1/db?from=yesterday").find("from: bad time 'yesterday'") != std::string::npos);
  CHECK(error_of("clickhouse://h:1/db?from=-1d&to=-2d").find("from is not before to") != std::string::npos);
  CHECK(error_of("clickhouse://h:1/db?runs_by=week").find("expected host or day") != std::string::npos);
  CHECK(error_of("clickhouse://h:1/db?cluster=a;b").find("letters, digits") != std::string::npos);
  CHECK(error_of("clickhouse://h:1/db?service=%zz").find("bad percent-encoding") != std::string::npos);
}

TEST_CASE("times are Unix seconds, calendar dates and times in UTC, now, or relative to now") {
  CHECK(parse_time("1700000000", kNow) == 1'700'000'000);
  CHECK(parse_time("now", kNow) == kNow);
  CHECK(parse_time("-90s", kNow) == kNow - 90);
  CHECK(parse_time("-30m", kNow) == kNow - 1800);
  CHECK(parse_time("-12h", kNow) == kNow - 43200);
  CHECK(parse_time("-7d", kNow) == kNow - 7 * 86400);
  CHECK(parse_time("2026-11-28", kNow) == 1'795'824'000);
  CHECK(parse_time("2026-11-28T10:05", kNow) == 1'795'824'000 + 36300);
  CHECK(parse_time("2026-11-28 10:05:30Z", kNow) == 1'795'824'000 + 36330);
  CHECK_THROWS_AS(parse_time("2026-13-01", kNow), Error);
  CHECK_THROWS_AS(parse_time("2026-11-28T25:00", kNow), Error);
  CHECK_THROWS_AS(parse_time("-7w", kNow), Error);
  CHECK_THROWS_AS(parse_time("", kNow), Error);
  CHECK(time_text(1'795'824'000 + 36330) == "2026-11-28 10:05:30");
}

}  // namespace
}  // namespace bn::fleet
