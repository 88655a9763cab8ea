#include "bn/fleet/clickhouse.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <optional>

#include "gzip.h"

namespace bn::fleet {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

// Responses larger than this are refused rather than held: a merged slice is its distinct stacks.
constexpr std::uint64_t kMaxResponseBytes = std::uint64_t{4} << 30;

std::string url_encoded(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size() * 3);
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += c;
    } else {
      out += '%';
      out += kHex[u >> 4];
      out += kHex[u & 15];
    }
  }
  return out;
}

// "Code: 60, e.displayText() = DB::Exception: Table db.x doesn't exist., e.what() = ..." ->
// (60, "Table db.x doesn't exist").
std::pair<int, std::string> server_error(std::string_view body) {
  int code = 0;
  if (body.starts_with("Code: ")) {
    std::size_t i = 6;
    while (i < body.size() && std::isdigit(static_cast<unsigned char>(body[i]))) code = code * 10 + (body[i++] - '0');
  }
  std::string_view text = body;
  if (const auto at = text.find("DB::Exception: "); at != std::string_view::npos) text = text.substr(at + 15);
  if (const auto what = text.find(", e.what() = "); what != std::string_view::npos) text = text.substr(0, what);
  if (const auto nl = text.find('\n'); nl != std::string_view::npos) text = text.substr(0, nl);
  while (!text.empty() && (text.back() == '.' || text.back() == ' ')) text.remove_suffix(1);
  if (text.size() > 400) text = text.substr(0, 400);
  return {code, std::string(text)};
}

// Runs one asynchronous operation on `io` within `timeout`: Beast's timeouts apply to
// asynchronous operations only, and a server behind a dead route would otherwise leave a
// connect waiting for the kernel's two minutes of retries.
template <class Start>
beast::error_code run_for(asio::io_context& io, beast::tcp_stream& stream, std::chrono::seconds timeout,
                          Start&& start) {
  beast::error_code result;
  stream.expires_after(timeout);
  start([&](beast::error_code ec, auto&&...) { result = ec; });
  io.restart();
  io.run();
  return result;
}

}  // namespace

std::string ClickHouse::post(std::string_view statement_in_url, std::string_view body,
                             std::string_view settings) const {
  const std::string server = url_.server();
  const auto fail = [&](const std::string& what) { return Error(server + ": " + what); };
  asio::io_context io;
  tcp::resolver resolver(io);
  beast::error_code ec;
  const auto endpoints = resolver.resolve(url_.host, std::to_string(url_.port), ec);
  if (ec) throw fail("cannot resolve host '" + url_.host + "': " + ec.message());
  beast::tcp_stream stream(io);
  ec = run_for(io, stream, kConnectTimeout, [&](auto handler) { stream.async_connect(endpoints, handler); });
  if (ec == beast::error::timeout)
    throw fail("no answer within " + std::to_string(kConnectTimeout.count()) + " s (is the host reachable?)");
  if (ec)
    throw fail("cannot connect: " + ec.message() + " (is ClickHouse's HTTP port " + std::to_string(url_.port) +
               " right, and the server running?)");

  // Every statement names its tables with their database, so none is set here: `CREATE
  // DATABASE` must run before the database exists.
  std::string target = "/?enable_http_compression=1";
  if (!url_.cluster.empty()) target += "&insert_distributed_sync=1";
  target += settings;
  if (!statement_in_url.empty()) target += "&query=" + url_encoded(statement_in_url);
  http::request<http::string_body> request{http::verb::post, target, 11};
  request.set(http::field::host, url_.host + ":" + std::to_string(url_.port));
  request.set(http::field::user_agent, "bottlenecks");
  request.set(http::field::accept_encoding, "gzip");
  request.set(http::field::content_encoding, "gzip");
  request.set("X-ClickHouse-User", url_.user);
  if (!url_.password.empty()) request.set("X-ClickHouse-Key", url_.password);
  request.body() = detail::gzip(body);
  request.prepare_payload();
  ec = run_for(io, stream, kStatementTimeout, [&](auto handler) { http::async_write(stream, request, handler); });
  if (ec) throw fail("sending the request failed: " + ec.message());

  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(kMaxResponseBytes);
  ec = run_for(io, stream, kStatementTimeout, [&](auto handler) { http::async_read(stream, buffer, parser, handler); });
  if (ec == beast::error::timeout) throw fail("no answer within " + std::to_string(kStatementTimeout.count()) + " s");
  if (ec == http::error::body_limit) throw fail("the response is larger than 4 GiB");
  if (ec) throw fail("reading the response failed: " + ec.message() + " (is this ClickHouse's HTTP port?)");
  http::response<http::string_body> response = parser.release();
  beast::error_code ignored;
  stream.socket().shutdown(tcp::socket::shutdown_both, ignored);

  std::string answer = std::move(response.body());
  const auto encoding = response[http::field::content_encoding];
  if (encoding == "gzip")
    answer = detail::gunzip(answer, kMaxResponseBytes, server);
  else if (!encoding.empty())
    throw fail("unexpected Content-Encoding '" + std::string(encoding) + "'");
  if (response.result() != http::status::ok) {
    const auto [code, text] = server_error(answer);
    if (code == error_code::kUnknownUser || code == error_code::kWrongPassword || code == error_code::kRequiredPassword)
      throw RefusedQuery(server + ": the server refused the credentials of user '" + url_.user + "': " + text, code);
    if (code == 0 && !answer.starts_with("Code: "))
      throw fail("HTTP " + std::to_string(response.result_int()) + " from something that is not ClickHouse");
    throw RefusedQuery(server + ": ClickHouse refused the statement: " + text, code);
  }
  return answer;
}

std::string ClickHouse::query(std::string_view sql, std::string_view settings) const { return post({}, sql, settings); }

void ClickHouse::insert(std::string_view insert, std::string_view rows) const { post(insert, rows); }

}  // namespace bn::fleet
