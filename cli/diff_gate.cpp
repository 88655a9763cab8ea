#include "diff_gate.h"

#include <cctype>
#include <charconv>

#include "bn/base/error.h"

namespace bn::cli {
namespace {

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

}  // namespace

double parse_percent(std::string_view text, std::string_view what, bool percent_sign_required) {
  std::string_view number = trimmed(text);
  const bool has_sign = number.ends_with('%');
  if (has_sign) number = trimmed(number.substr(0, number.size() - 1));
  const auto fail = [&](const std::string& why) -> double { throw Error(std::string(what) + ": " + why); };
  if (!has_sign && percent_sign_required) fail("expected a percentage such as 2%, not '" + std::string(text) + "'");
  const bool digits_only = !number.empty() && number.find_first_not_of("0123456789.") == std::string_view::npos;
  double value = 0;
  const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (!digits_only || ec != std::errc{} || end != number.data() + number.size())
    fail("'" + std::string(number) + "' is not a non-negative number");
  return value / 100;
}

Gate parse_gate(std::string_view text) {
  const std::string what = "--fail-if '" + std::string(text) + "'";
  Gate gate;
  gate.text = std::string(trimmed(text));
  std::string_view rest = trimmed(text);
  const std::size_t space = rest.find_first_of(" \t>");
  const std::string_view word = rest.substr(0, space);
  rest = space == std::string_view::npos ? std::string_view{} : trimmed(rest.substr(space));
  if (word == "cum") {
    gate.kind = Gate::Kind::cum;
  } else if (word == "total") {
    gate.kind = Gate::Kind::total;
  } else if (word == "method") {
    gate.kind = Gate::Kind::method;
    const std::size_t end = rest.find_first_of(" \t>");
    gate.glob = std::string(rest.substr(0, end));
    if (gate.glob.empty()) throw Error(what + ": expected a method pattern after 'method' (e.g. com.acme.*)");
    rest = end == std::string_view::npos ? std::string_view{} : trimmed(rest.substr(end));
  } else {
    throw Error(what + ": expected 'cum', 'total' or 'method GLOB' before '> P%'" +
                (word.empty() ? std::string{} : ", not '" + std::string(word) + "'"));
  }
  const std::string subject = gate.kind == Gate::Kind::method ? "method " + gate.glob : std::string(word);
  if (!rest.starts_with('>') || rest.starts_with(">=")) throw Error(what + ": expected '>' after '" + subject + "'");
  rest = trimmed(rest.substr(1));
  if (rest.empty()) throw Error(what + ": expected a percentage after '>' (e.g. 2%)");
  gate.threshold = parse_percent(rest, what, true);
  return gate;
}

}  // namespace bn::cli
