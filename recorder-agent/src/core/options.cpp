#include "core/options.h"

#include <charconv>
#include <cmath>
#include <span>
#include <string>
#include <string_view>

#include "core/engine_factory.h"

namespace bn::agent {
namespace {

// "20ms", "1.5s", "500us", "2m"; a unit is required so that "interval=20" is not ambiguous.
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

// "512m", "2g", "65536": bytes, with an optional binary suffix k, m, g or t.
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

// "mode=sample (what it records) or mode=...", for the message naming a bad mode.
std::string mode_choices(std::span<const EngineKind> engines) {
  std::string out;
  for (const EngineKind& e : engines) {
    if (!out.empty()) out += " or ";
    out += "mode=" + std::string(e.mode) + " (" + std::string(e.description) + ")";
  }
  return out;
}

// One option.
Status apply(Options& o, std::string_view key, std::string_view value, bool has_value,
             std::span<const EngineKind> engines) {
  // Appended piece by piece: GCC 12 warns (-Wrestrict) on the inlined concatenation of
  // temporaries (GCC bug 105651, a false positive).
  std::string quoted = "'";
  quoted.append(key);
  if (has_value) quoted.append("=").append(value);
  quoted.append("'");
  auto need = [&](bool ok, std::string_view what) {
    return ok ? Status() : Status::error("bad option " + quoted + ": expected " + std::string(what));
  };
  std::int64_t ns = 0;
  if (key == "mode") {
    o.mode = std::string(value);
    return need(find_engine_kind(engines, value) != nullptr, mode_choices(engines));
  }
  if (key == "file") {
    o.file = std::string(value);
    o.file_given = true;
    return need(!value.empty(), "a file name");
  }
  if (key == "interval") {
    const bool ok = parse_duration(value, ns) && ns >= 1'000'000 && ns <= 3'600'000'000'000;
    if (ok) o.interval_ns = ns;
    return need(ok, "a duration from 1ms to 1h, e.g. interval=20ms");
  }
  if (key == "maxoverhead")
    return need(parse_percent(value, o.max_overhead), "a percentage in (0, 100], e.g. maxoverhead=1%");
  if (key == "delay") return need(parse_duration(value, o.delay_ns), "a duration, e.g. delay=30s");
  if (key == "duration") return need(parse_duration(value, o.duration_ns), "a duration, e.g. duration=60s");
  if (key == "flush") {
    const bool ok = parse_duration(value, ns) && ns >= 10'000'000;
    if (ok) o.flush_ns = ns;
    return need(ok, "a duration of at least 10ms, e.g. flush=1s");
  }
  if (key == "snapshot") {
    const bool ok = parse_duration(value, ns) && (ns == 0 || ns >= 100'000'000);
    if (ok) o.snapshot_ns = ns;
    return need(ok, "0 or a duration of at least 100ms, e.g. snapshot=10s");
  }
  if (key == "depth") {
    std::uint32_t d = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), d);
    const bool ok = ec == std::errc() && end == value.data() + value.size() && d >= 1 && d <= 65536;
    if (ok) o.max_depth = d;
    return need(ok, "a frame count from 1 to 65536, e.g. depth=2048");
  }
  if (key == "stacks") {
    const bool ok = value == "signal" || value == "handshake";
    if (ok) o.signal_stacks = value == "signal";
    return need(ok, "stacks=signal or stacks=handshake");
  }
  if (key == "include" || key == "exclude") {
    (key == "include" ? o.include : o.exclude) = std::string(value);
    return need(!value.empty(), "class globs separated by ':', e.g. " + std::string(key) + "=com.acme.*:org.h2.*");
  }
  if (key == "trivial") {
    const bool ok = value == "skip" || value == "count" || value == "wrappers";
    if (ok)
      o.trivial = value == "skip"    ? Options::Trivial::kSkip
                  : value == "count" ? Options::Trivial::kCount
                                     : Options::Trivial::kWrappers;
    return need(ok, "trivial=skip, trivial=wrappers or trivial=count");
  }
  if (key == "clock") {
    const bool ok = value == "tick" || value == "exact";
    if (ok) o.exact_clock = value == "exact";
    return need(ok, "clock=tick or clock=exact");
  }
  if (key == "methods") {
    o.methods_file = std::string(value);
    return need(!value.empty(), "a label file saved by the REPL, e.g. methods=hot.labels");
  }
  if (key == "treememory") {
    std::uint64_t bytes = 0;
    const bool ok = parse_size(value, bytes) && bytes >= (std::uint64_t{64} << 10);
    if (ok) o.tree_memory = bytes;
    return need(ok, "a size of at least 64k (bytes, or with k, m, g or t), e.g. treememory=2g");
  }
  if (key == "strict") return need(parse_bool(value, o.strict), "strict, strict=true or strict=false");
  if (key == "quiet") return need(parse_bool(value, o.quiet), "quiet, quiet=true or quiet=false");
  if (key == "stop") return need(parse_bool(value, o.stop), "stop, stop=true or stop=false");
  return Status::error("unknown option " + quoted + " (see docs/recorder.md)");
}

}  // namespace

ParsedOptions parse_options(const char* text, std::span<const EngineKind> engines) {
  ParsedOptions result;
  result.options.mode = std::string(engines.front().mode);
  if (text == nullptr) return result;
  std::string_view rest(text);
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    if (item.empty()) continue;
    const std::size_t eq = item.find('=');
    const bool has_value = eq != std::string_view::npos;
    const std::string_view key = item.substr(0, eq);
    const std::string_view value = has_value ? item.substr(eq + 1) : std::string_view();
    Status status = apply(result.options, key, value, has_value, engines);
    if (result.status.ok()) result.status = std::move(status);  // report the first bad option
  }
  // They choose what the call-tree mode instruments: given to another mode they would be
  // ignored silently, and the user would think they had narrowed a recording they had not.
  const Options& o = result.options;
  if (result.status.ok() && o.mode != "calltree" &&
      (!o.include.empty() || !o.exclude.empty() || !o.methods_file.empty()))
    result.status =
        Status::error("include=, exclude= and methods= choose what mode=calltree instruments; mode=" + o.mode +
                      " does not instrument");
  return result;
}

}  // namespace bn::agent
