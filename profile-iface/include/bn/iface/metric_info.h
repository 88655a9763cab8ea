#pragma once
// What a profile's costs measure, for headers and the ten-samples rule (seed 000 sec. 5.1).

#include <string>

#include "bn/iface/amount.h"

namespace bn::iface {

struct MetricInfo {
  std::string metric;            // "samples", "cpu-time", "instructions", "calls", ...
  std::string unit;              // "samples", "ns", "count", ...
  bool is_sample_count = false;  // costs count samples: estimates below 10 are unreliable
  // With is_sample_count: the numerator of one sample, when it is not the profile's
  // denominator. A Thread View divides its hits by the number of instances (seed 000 sec. 5.2),
  // so one sample is D out of a denominator of D times that number. 0: the denominator.
  Amount sample = 0;
};

}  // namespace bn::iface
