#include "bn/calltree/causal_records.h"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include "bn/base/error.h"
#include "byte_codec.h"

namespace bn::calltree {
namespace {

// Format 1: throughput and end points. Format 2 adds latency points (kind 2), each experiment
// then giving each latency point's departures and in-flight area after the progress counts. A
// chunk without latency points is written as format 1, so readers of format 1 still read it.
constexpr std::uint64_t kCausalFormat = 1;
constexpr std::uint64_t kLatencyFormat = 2;
// Smallest encodings, so a declared count never reserves more than the payload can hold: a
// target is a name, a label flag and a summary count; a point a name and a kind; an aspect two
// strings; an experiment seven varints before its progress counts, and two per latency point.
constexpr std::size_t kMinTargetBytes = 3;
constexpr std::size_t kMinPointBytes = 2;
constexpr std::size_t kMinAspectBytes = 2;
constexpr std::size_t kMinExperimentBytes = 7;
constexpr std::size_t kMinInFlightBytes = 2;

bool is_latency(const ProgressPoint& p) { return p.kind == ProgressPoint::Kind::latency; }

std::uint32_t index_below(ByteSource& in, const char* what, std::size_t size) {
  const std::size_t at = in.offset();
  const std::uint64_t v = in.varint(what);
  if (v >= size)
    in.fail("the " + std::string(what) + " " + std::to_string(v) + " is past the chunk's " + std::to_string(size), at);
  return static_cast<std::uint32_t>(v);
}

CausalTarget decode_target(ByteSource& in) {
  CausalTarget t;
  t.name = std::string(in.string("target name"));
  const std::size_t at = in.offset();
  const std::uint64_t label = in.varint("target kind");
  if (label > 1) in.fail("unknown target kind " + std::to_string(label), at);
  t.is_label = label == 1;
  const std::uint32_t summaries = in.count("summary count", 1);
  t.summaries.reserve(summaries);
  for (std::uint32_t s = 0; s < summaries; ++s) {
    const std::uint32_t frames = in.count("frame count", 1);
    std::vector<std::string>& calls = t.summaries.emplace_back();
    calls.reserve(frames);
    for (std::uint32_t f = 0; f < frames; ++f) calls.emplace_back(in.string("frame"));
  }
  return t;
}

CausalExperiment decode_experiment(ByteSource& in, std::size_t targets, const std::vector<ProgressPoint>& points) {
  const std::size_t at = in.offset();
  CausalExperiment e;
  e.target = index_below(in, "experiment target", targets);
  const std::uint64_t speedup = in.varint("speedup");
  if (speedup > 100) in.fail("speedup " + std::to_string(speedup) + "% is above 100%", at);
  e.speedup = static_cast<std::uint32_t>(speedup);
  e.start_ns = in.zigzag("experiment start");
  e.duration_ns = in.zigzag("experiment duration");
  if (e.duration_ns < 0) in.fail("negative experiment duration " + std::to_string(e.duration_ns), at);
  e.delay_ns = in.zigzag("experiment delay");
  if (e.delay_ns < 0 || e.delay_ns > e.duration_ns)
    in.fail("delay " + std::to_string(e.delay_ns) + " ns is not within the experiment's " +
                std::to_string(e.duration_ns) + " ns",
            at);
  e.samples = in.varint("sample count");
  e.target_samples = in.varint("target sample count");
  e.progress.reserve(points.size());
  for (std::size_t p = 0; p < points.size(); ++p) e.progress.push_back(in.varint("progress count"));
  e.in_flight.resize(points.size());
  for (std::size_t p = 0; p < points.size(); ++p) {
    if (!is_latency(points[p])) continue;
    e.in_flight[p].departures = in.varint("departure count");
    e.in_flight[p].area_ns = in.zigzag("in-flight area");
  }
  return e;
}

CausalData decode_chunk(ByteSource& in) {
  const std::uint64_t format = in.varint("causal format");
  if (format != kCausalFormat && format != kLatencyFormat)
    in.fail("unknown causal format " + std::to_string(format), 0);
  const auto last_kind = format == kLatencyFormat ? ProgressPoint::Kind::latency : ProgressPoint::Kind::end;
  CausalData out;
  out.period_ns = in.zigzag("sampling period");
  const std::uint32_t targets = in.count("target count", kMinTargetBytes);
  out.targets.reserve(targets);
  for (std::uint32_t t = 0; t < targets; ++t) out.targets.push_back(decode_target(in));
  const std::uint32_t points = in.count("progress point count", kMinPointBytes);
  out.points.reserve(points);
  for (std::uint32_t p = 0; p < points; ++p) {
    ProgressPoint point;
    point.name = std::string(in.string("progress point name"));
    const std::size_t at = in.offset();
    const std::uint64_t kind = in.varint("progress point kind");
    if (kind > static_cast<std::uint64_t>(last_kind))
      in.fail("unknown progress point kind " + std::to_string(kind), at);
    point.kind = static_cast<ProgressPoint::Kind>(kind);
    out.points.push_back(std::move(point));
  }
  const std::uint32_t aspects = in.count("aspect count", kMinAspectBytes);
  out.aspects.reserve(aspects);
  for (std::uint32_t a = 0; a < aspects; ++a) {
    std::string name(in.string("aspect name"));
    out.aspects.emplace_back(std::move(name), std::string(in.string("aspect pattern")));
  }
  const auto latency_points = static_cast<std::size_t>(std::count_if(out.points.begin(), out.points.end(), is_latency));
  const std::uint32_t experiments =
      in.count("experiment count", kMinExperimentBytes + points + kMinInFlightBytes * latency_points);
  out.experiments.reserve(experiments);
  for (std::uint32_t e = 0; e < experiments; ++e)
    out.experiments.push_back(decode_experiment(in, out.targets.size(), out.points));
  if (!in.at_end()) in.fail("trailing bytes after the experiments");
  return out;
}

// The index in `list` of the element whose key is `item`'s, appended if none: the parts' lists
// are matched by name. An element found must equal `item` in full, else this throws `what`.
template <class T, class Key>
std::uint32_t index_in(std::vector<T>& list, const T& item, Key key, const std::string& what) {
  const auto it = std::find_if(list.begin(), list.end(), [&](const T& x) { return key(x) == key(item); });
  if (it == list.end()) {
    list.push_back(item);
    return static_cast<std::uint32_t>(list.size() - 1);
  }
  if (!(*it == item)) throw Error(what);
  return static_cast<std::uint32_t>(it - list.begin());
}

std::string in_quotes(const std::string& s) { return "'" + s + "'"; }

}  // namespace

std::vector<std::byte> encode_causal(const CausalData& header, std::span<const CausalExperiment> experiments) {
  ByteSink out;
  out.varint(std::any_of(header.points.begin(), header.points.end(), is_latency) ? kLatencyFormat : kCausalFormat);
  out.zigzag(header.period_ns);
  out.varint(header.targets.size());
  for (const CausalTarget& t : header.targets) {
    out.string(t.name);
    out.varint(t.is_label ? 1 : 0);
    out.varint(t.summaries.size());
    for (const std::vector<std::string>& calls : t.summaries) {
      out.varint(calls.size());
      for (const std::string& frame : calls) out.string(frame);
    }
  }
  out.varint(header.points.size());
  for (const ProgressPoint& p : header.points) {
    out.string(p.name);
    out.varint(static_cast<std::uint64_t>(p.kind));
  }
  out.varint(header.aspects.size());
  for (const auto& [name, pattern] : header.aspects) {
    out.string(name);
    out.string(pattern);
  }
  out.varint(experiments.size());
  for (const CausalExperiment& e : experiments) {
    out.varint(e.target);
    out.varint(e.speedup);
    out.zigzag(e.start_ns);
    out.zigzag(e.duration_ns);
    out.zigzag(e.delay_ns);
    out.varint(e.samples);
    out.varint(e.target_samples);
    // One count per point of the header, whatever the experiment holds: the layout has no count.
    for (std::size_t p = 0; p < header.points.size(); ++p) out.varint(p < e.progress.size() ? e.progress[p] : 0);
    for (std::size_t p = 0; p < header.points.size(); ++p) {
      if (!is_latency(header.points[p])) continue;
      const InFlight f = p < e.in_flight.size() ? e.in_flight[p] : InFlight{};
      out.varint(f.departures);
      out.zigzag(f.area_ns);
    }
  }
  return out.take();
}

CausalData decode_causal(const LoadedProfile& profile, const std::string& source) {
  std::vector<CausalData> parts;
  std::size_t chunk_no = 0;
  for (const auto& [tag, bytes] : profile.extra_chunks) {
    ++chunk_no;
    if (tag != kTagCausal) continue;
    const std::string context = source + ": " + std::string(tag.view()) + " chunk " + std::to_string(chunk_no);
    ByteSource in(bytes, context);
    parts.push_back(decode_chunk(in));
  }
  try {
    return merge_causal(std::move(parts));
  } catch (const Error& e) {
    throw Error(source + ": causal chunks disagree: " + e.what());
  }
}

CausalData merge_causal(std::vector<CausalData> parts) {
  CausalData out;
  if (parts.empty()) return out;
  out.period_ns = parts.front().period_ns;
  std::vector<std::size_t> counted;  // how many of the points each part with experiments counts
  for (CausalData& part : parts) {
    std::vector<std::uint32_t> targets, points;
    for (const CausalTarget& t : part.targets)
      targets.push_back(index_in(
          out.targets, t, [](const CausalTarget& x) { return x.name; },
          "target " + in_quotes(t.name) + " names two different targets"));
    for (const ProgressPoint& p : part.points)
      points.push_back(index_in(
          out.points, p, [](const ProgressPoint& x) { return x.name; },
          "progress point " + in_quotes(p.name) + " is of two different kinds"));
    for (const auto& a : part.aspects) {
      const auto it = std::find_if(out.aspects.begin(), out.aspects.end(),
                                   [&](const auto& known) { return known.first == a.first; });
      if (it == out.aspects.end())
        out.aspects.push_back(a);
      else if (it->second != a.second)
        throw Error("aspect " + in_quotes(a.first) + " is defined as " + in_quotes(it->second) + " and as " +
                    in_quotes(a.second));
    }
    if (part.experiments.empty()) continue;
    std::vector<std::uint32_t> distinct = points;
    std::sort(distinct.begin(), distinct.end());
    counted.push_back(static_cast<std::size_t>(std::unique(distinct.begin(), distinct.end()) - distinct.begin()));
    for (CausalExperiment& e : part.experiments) {
      if (e.target >= targets.size())
        throw Error("an experiment names target " + std::to_string(e.target) + " of " + std::to_string(targets.size()));
      e.target = targets[e.target];
      std::vector<std::uint64_t> progress(out.points.size(), 0);
      std::vector<InFlight> in_flight(out.points.size());
      for (std::size_t p = 0; p < e.progress.size() && p < points.size(); ++p) progress[points[p]] = e.progress[p];
      for (std::size_t p = 0; p < e.in_flight.size() && p < points.size(); ++p) in_flight[points[p]] = e.in_flight[p];
      e.progress = std::move(progress);
      e.in_flight = std::move(in_flight);
      out.experiments.push_back(std::move(e));
    }
  }
  // An experiment that did not count at a point would read as no progress there, a slower
  // program: experiments pool only when they count at the same points.
  for (const std::size_t n : counted)
    if (n != out.points.size())
      throw Error("some experiments count progress at " + std::to_string(n) + " of the " +
                  std::to_string(out.points.size()) +
                  " progress points: recordings pool only when they count the same points");
  return out;
}

}  // namespace bn::calltree
