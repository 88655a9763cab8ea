#pragma once
// ClickHouse's HTTP interface (docs/fleet.md, "The server"): one POST per statement, the data of
// an INSERT in RowBinary, request and response bodies gzip-compressed. Boost.Beast speaks HTTP:
// it is header-only and in libboost-dev, so the executable still needs nothing but glibc
// (cmake/StaticDeps.cmake), which libcurl's static archive, with OpenSSL, nghttp2, libssh2 and
// GSSAPI behind it, would not allow. Plain HTTP only: reach a remote server over a tunnel or a
// TLS proxy.

#include <chrono>
#include <string>
#include <string_view>

#include "bn/base/error.h"
#include "bn/fleet/fleet_url.h"

namespace bn::fleet {

// A statement the server refused, with ClickHouse's error code (ErrorCodes.cpp), so that callers
// can explain the common ones (no such table: no schema yet).
class RefusedQuery : public Error {
 public:
  RefusedQuery(const std::string& message, int code) : Error(message), code_(code) {}
  int code() const { return code_; }

 private:
  int code_;
};

namespace error_code {
inline constexpr int kUnknownTable = 60;
inline constexpr int kUnknownDatabase = 81;
inline constexpr int kUnknownUser = 192;
inline constexpr int kWrongPassword = 193;
inline constexpr int kRequiredPassword = 194;
}  // namespace error_code

class ClickHouse {
 public:
  explicit ClickHouse(FleetUrl url) : url_(std::move(url)) {}

  // Runs `sql` and returns what it printed (decompressed). Throws bn::Error naming the server for
  // a server that cannot be reached or answers garbage, RefusedQuery for a refused statement.
  // `settings` are "&NAME=VALUE" pairs for this statement alone.
  std::string query(std::string_view sql, std::string_view settings = {}) const;
  // Runs `insert` ("INSERT INTO t (a, b) FORMAT RowBinary") with `rows` as its data. On a
  // cluster the statement returns once every shard has its rows (insert_distributed_sync).
  void insert(std::string_view insert, std::string_view rows) const;

  const FleetUrl& url() const { return url_; }

  // How long a connection may take, and a statement's request and response.
  static constexpr std::chrono::seconds kConnectTimeout{10};
  static constexpr std::chrono::seconds kStatementTimeout{600};

 private:
  std::string post(std::string_view statement_in_url, std::string_view body, std::string_view settings = {}) const;

  FleetUrl url_;
};

}  // namespace bn::fleet
