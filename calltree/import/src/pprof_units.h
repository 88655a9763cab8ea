#pragma once
// How a call tree's metric and unit (metadata.h) and a pprof ValueType name the same thing, in
// one place for the reader and the writer, so a round trip keeps them. pprof's conventions
// (profile.proto; Go's runtime/pprof): samples are ("samples", "count"), times are in
// "nanoseconds"; the agent and the collapsed import say unit "samples" and "ns".

#include <string>
#include <string_view>

namespace bn::calltree::pprof_units {

struct ValueName {
  std::string type, unit;
};

inline ValueName to_pprof(std::string_view metric, std::string_view unit) {
  if (unit == "samples") return {std::string(metric.empty() ? "samples" : metric), "count"};
  if (unit == "ns") return {std::string(metric), "nanoseconds"};
  return {std::string(metric), std::string(unit)};
}

// The unit a tree gets for a pprof ValueType; its metric is the type as written.
inline std::string unit_of(std::string_view type, std::string_view unit) {
  if (type == "samples" && unit == "count") return "samples";
  if (unit == "nanoseconds") return "ns";
  return std::string(unit);
}

}  // namespace bn::calltree::pprof_units
