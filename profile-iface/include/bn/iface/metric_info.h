#pragma once
// What a profile's costs measure, for headers and the ten-samples rule (seed 000 sec. 5.1).

#include <string>

namespace bn::iface {

struct MetricInfo {
  std::string metric;            // "samples", "cpu-time", "instructions", "calls", ...
  std::string unit;              // "samples", "ns", "count", ...
  bool is_sample_count = false;  // costs count samples: estimates below 10 are unreliable
};

}  // namespace bn::iface
