#include "bn/search/causal_report.h"

#include "bn/search/text.h"

namespace bn::search {

std::string causal_about(const CausalReport& r, std::string_view pick) {
  std::string line = "causal experiments: " + std::to_string(r.experiments) + " (" +
                     std::to_string(r.baseline_experiments) + " at 0%, the baseline) from " +
                     counted(r.recordings, "recording") + ", progress at " + r.progress;
  if (r.points.size() > 1) line += " (one of " + std::to_string(r.points.size()) + ": " + std::string(pick) + ")";
  if (r.at_latency_point())
    line +=
        "; a latency point: each estimate is how much shorter the mean time from BEGIN's entry to END's return "
        "gets (Little's law)";
  return line;
}

}  // namespace bn::search
