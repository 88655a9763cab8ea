#include "bn/fleet/fleet_url.h"

#include <cctype>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <ctime>

#include "bn/base/error.h"

namespace bn::fleet {
namespace {

constexpr std::string_view kScheme = "clickhouse://";

std::optional<int> hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return std::nullopt;
}

// RFC 3986 percent-decoding; '+' stays '+' (a version such as 1.5+build is common).
std::optional<std::string> percent_decoded(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out += s[i];
      continue;
    }
    if (i + 2 >= s.size()) return std::nullopt;
    const auto hi = hex_digit(s[i + 1]), lo = hex_digit(s[i + 2]);
    if (!hi || !lo) return std::nullopt;
    out += static_cast<char>(*hi * 16 + *lo);
    i += 2;
  }
  return out;
}

std::optional<std::int64_t> whole_number(std::string_view s) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

// 2026-11-28[(T| )HH:MM[:SS]][Z], read as UTC.
std::optional<std::int64_t> calendar_time(std::string_view s) {
  if (!s.empty() && s.back() == 'Z') s.remove_suffix(1);
  std::tm tm{};
  int fields[6] = {0, 0, 0, 0, 0, 0};
  static constexpr std::size_t kStart[6] = {0, 5, 8, 11, 14, 17};
  static constexpr std::size_t kWidth[6] = {4, 2, 2, 2, 2, 2};
  static constexpr char kBefore[6] = {0, '-', '-', 'T', ':', ':'};
  std::size_t used = 0;
  for (std::size_t k = 0; k < 6; ++k) {
    if (kStart[k] >= s.size() && k >= 3 && k != 4) break;  // date alone, or HH:MM without seconds
    if (kStart[k] + kWidth[k] > s.size()) return std::nullopt;
    if (k > 0) {
      const char sep = s[kStart[k] - 1];
      if (sep != kBefore[k] && !(k == 3 && sep == ' ')) return std::nullopt;
    }
    const auto v = whole_number(s.substr(kStart[k], kWidth[k]));
    if (!v || *v < 0) return std::nullopt;
    fields[k] = static_cast<int>(*v);
    used = kStart[k] + kWidth[k];
  }
  if (used != s.size()) return std::nullopt;
  if (fields[1] < 1 || fields[1] > 12 || fields[2] < 1 || fields[2] > 31 || fields[3] > 23 || fields[4] > 59 ||
      fields[5] > 60)
    return std::nullopt;
  tm.tm_year = fields[0] - 1900;
  tm.tm_mon = fields[1] - 1;
  tm.tm_mday = fields[2];
  tm.tm_hour = fields[3];
  tm.tm_min = fields[4];
  tm.tm_sec = fields[5];
  return static_cast<std::int64_t>(timegm(&tm));
}

// Names that go into SQL unquoted: databases and clusters.
bool is_identifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s.front()))) return false;
  for (const char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

std::string env_or(const char* name, std::string fallback) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::move(fallback);
}

}  // namespace

std::int64_t parse_time(std::string_view text, std::int64_t now) {
  if (text == "now") return now;
  if (text.size() >= 3 && text.front() == '-') {
    static constexpr std::pair<char, std::int64_t> kUnits[] = {{'s', 1}, {'m', 60}, {'h', 3600}, {'d', 86400}};
    for (const auto& [unit, seconds] : kUnits)
      if (text.back() == unit)
        if (const auto n = whole_number(text.substr(1, text.size() - 2)); n && *n >= 0 && *n < (1LL << 40) / seconds)
          return now - *n * seconds;
  }
  if (const auto n = whole_number(text); n && *n >= 0) return *n;
  if (const auto t = calendar_time(text)) return *t;
  throw Error("bad time '" + std::string(text) +
              "': expected Unix seconds, 2026-11-28, 2026-11-28T10:05[:30], now, or -30m, -12h, -7d");
}

std::int64_t now_unix_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string time_text(std::int64_t unix_seconds) {
  const auto t = static_cast<std::time_t>(unix_seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char out[32];
  std::strftime(out, sizeof out, "%Y-%m-%d %H:%M:%S", &tm);
  return out;
}

bool is_fleet_url(std::string_view text) { return text.starts_with(kScheme); }

std::string FleetUrl::server() const {
  return std::string(kScheme) + host + ":" + std::to_string(port) + "/" + database;
}

std::string FleetUrl::shown() const {
  std::string out =
      std::string(kScheme) + (user != "default" ? user + "@" : "") + host + ":" + std::to_string(port) + "/" + database;
  std::vector<std::pair<std::string, std::string>> params;
  if (!slice.service.empty()) params.emplace_back("service", slice.service);
  if (!slice.version.empty()) params.emplace_back("version", slice.version);
  for (const std::string& h : slice.hosts) params.emplace_back("host", h);
  for (const auto& [k, v] : slice.labels) params.emplace_back("label." + k, v);
  if (slice.from) params.emplace_back("from", time_text(*slice.from));
  if (slice.to) params.emplace_back("to", time_text(*slice.to));
  if (!cluster.empty()) params.emplace_back("cluster", cluster);
  if (runs_by != RunsBy::none) params.emplace_back("runs_by", runs_by == RunsBy::host ? "host" : "day");
  for (std::size_t i = 0; i < params.size(); ++i)
    out += (i == 0 ? "?" : "&") + params[i].first + "=" + params[i].second;
  return out;
}

FleetUrl parse_fleet_url(std::string_view text, std::int64_t now) {
  const auto fail = [&](const std::string& what) -> Error {
    // The password never reaches a message: what comes before the '@' is left out.
    const std::string safe = text.find('@') == std::string_view::npos
                                 ? std::string(text)
                                 : std::string(kScheme) + "..." + std::string(text.substr(text.find('@')));
    return Error("clickhouse URL '" + safe + "': " + what);
  };
  if (!is_fleet_url(text)) throw fail("expected clickhouse://HOST:PORT/DATABASE?...");
  std::string_view rest = text.substr(kScheme.size());
  FleetUrl url;
  url.user = env_or("BOTTLENECKS_CLICKHOUSE_USER", "default");
  url.password = env_or("BOTTLENECKS_CLICKHOUSE_PASSWORD", "");
  const std::size_t slash = rest.find('/');
  if (slash == std::string_view::npos) throw fail("no database: expected clickhouse://HOST:PORT/DATABASE");
  std::string_view authority = rest.substr(0, slash);
  rest = rest.substr(slash + 1);
  if (const auto at = authority.rfind('@'); at != std::string_view::npos) {
    const std::string_view userinfo = authority.substr(0, at);
    authority = authority.substr(at + 1);
    const auto colon = userinfo.find(':');
    const auto user = percent_decoded(userinfo.substr(0, colon));
    if (!user || user->empty()) throw fail("bad user name before '@'");
    url.user = *user;
    if (colon != std::string_view::npos) {
      const auto password = percent_decoded(userinfo.substr(colon + 1));
      if (!password) throw fail("bad percent-encoding in the password");
      url.password = *password;
    }
  }
  std::string_view port_text;
  if (authority.starts_with('[')) {  // [IPv6]:port
    const auto close = authority.find(']');
    if (close == std::string_view::npos) throw fail("unclosed '[' in the host");
    url.host = std::string(authority.substr(1, close - 1));
    if (close + 1 < authority.size()) {
      if (authority[close + 1] != ':') throw fail("expected ':PORT' after ']'");
      port_text = authority.substr(close + 2);
    }
  } else {
    const auto colon = authority.find(':');
    url.host = std::string(authority.substr(0, colon));
    if (colon != std::string_view::npos) port_text = authority.substr(colon + 1);
  }
  if (url.host.empty()) throw fail("no host");
  if (!port_text.empty() || authority.ends_with(':')) {
    const auto port = whole_number(port_text);
    if (!port || *port < 1 || *port > 65535) throw fail("bad port '" + std::string(port_text) + "'");
    url.port = static_cast<std::uint16_t>(*port);
  }
  const std::size_t question = rest.find('?');
  const auto database = percent_decoded(rest.substr(0, question));
  if (!database || database->empty()) throw fail("no database: expected clickhouse://HOST:PORT/DATABASE");
  if (!is_identifier(*database)) throw fail("database '" + *database + "': letters, digits and '_' only");
  url.database = *database;
  if (question == std::string_view::npos) return url;
  std::string_view query = rest.substr(question + 1);
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (pair.empty()) continue;
    const std::size_t eq = pair.find('=');
    if (eq == std::string_view::npos) throw fail("parameter '" + std::string(pair) + "' has no '=VALUE'");
    const auto key = percent_decoded(pair.substr(0, eq));
    const auto value = percent_decoded(pair.substr(eq + 1));
    if (!key || !value) throw fail("bad percent-encoding in '" + std::string(pair) + "'");
    const auto time_of = [&](const std::string& v) {
      try {
        return parse_time(v, now);
      } catch (const Error& e) {
        throw fail(*key + ": " + e.what());
      }
    };
    if (*key == "service") {
      url.slice.service = *value;
    } else if (*key == "version") {
      url.slice.version = *value;
    } else if (*key == "host") {
      url.slice.hosts.push_back(*value);
    } else if (*key == "from") {
      url.slice.from = time_of(*value);
    } else if (*key == "to") {
      url.slice.to = time_of(*value);
    } else if (key->starts_with("label.") && key->size() > 6) {
      url.slice.labels.emplace_back(key->substr(6), *value);
    } else if (*key == "cluster") {
      if (!is_identifier(*value)) throw fail("cluster '" + *value + "': letters, digits and '_' only");
      url.cluster = *value;
    } else if (*key == "runs_by") {
      if (*value == "host")
        url.runs_by = RunsBy::host;
      else if (*value == "day")
        url.runs_by = RunsBy::day;
      else
        throw fail("runs_by '" + *value + "': expected host or day");
    } else {
      throw fail("unknown parameter '" + *key +
                 "' (known: service, version, host, from, to, label.KEY, cluster, runs_by)");
    }
  }
  if (url.slice.from && url.slice.to && *url.slice.from >= *url.slice.to)
    throw fail("from is not before to (" + time_text(*url.slice.from) + " >= " + time_text(*url.slice.to) + ")");
  return url;
}

}  // namespace bn::fleet
