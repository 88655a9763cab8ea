#include "bn/agent/option_values.h"

#include <charconv>
#include <cmath>

namespace bn::agent {

bool parse_duration(std::string_view v, std::int64_t& out) {
  double number = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), number);
  if (ec != std::errc() || !(number >= 0)) return false;
  const std::string_view unit(end, static_cast<std::size_t>(v.data() + v.size() - end));
  double scale = 0;
  if (unit == "ns")
    scale = 1;
  else if (unit == "us")
    scale = 1e3;
  else if (unit == "ms")
    scale = 1e6;
  else if (unit == "s")
    scale = 1e9;
  else if (unit == "m")
    scale = 60e9;
  else if (unit == "h")
    scale = 3600e9;
  else
    return false;
  const double ns = number * scale;
  if (!(ns < 9e18)) return false;
  out = static_cast<std::int64_t>(std::llround(ns));
  return true;
}

bool parse_percent(std::string_view v, double& out) {
  if (!v.empty() && v.back() == '%') v.remove_suffix(1);
  double number = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), number);
  if (ec != std::errc() || end != v.data() + v.size() || !(number > 0) || number > 100) return false;
  out = number / 100;
  return true;
}

bool parse_size(std::string_view v, std::uint64_t& out) {
  std::uint64_t number = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), number);
  if (ec != std::errc()) return false;
  const std::string_view unit(end, static_cast<std::size_t>(v.data() + v.size() - end));
  int shift = 0;
  if (unit == "k")
    shift = 10;
  else if (unit == "m")
    shift = 20;
  else if (unit == "g")
    shift = 30;
  else if (unit == "t")
    shift = 40;
  else if (!unit.empty())
    return false;
  if (number > (std::uint64_t{1} << (62 - shift))) return false;
  out = number << shift;
  return true;
}

bool parse_bool(std::string_view v, bool& out) {
  if (v.empty() || v == "true" || v == "yes" || v == "1")
    out = true;
  else if (v == "false" || v == "no" || v == "0")
    out = false;
  else
    return false;
  return true;
}

}  // namespace bn::agent
