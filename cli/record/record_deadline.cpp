#include "record/record_deadline.h"

#include <cstdlib>

namespace bn::cli {

double duration_seconds(const std::string& text) {
  double v = std::atof(text.c_str());
  if (text.find("ms") != std::string::npos)
    v /= 1000;
  else if (text.find('m') != std::string::npos)
    v *= 60;
  else if (text.find('h') != std::string::npos)
    v *= 3600;
  return v;
}

std::optional<std::chrono::seconds> own_end_within(const std::string& mode, const std::string& delay,
                                                   const std::string& duration) {
  if (duration.empty() || mode == "calltree") return std::nullopt;
  return std::chrono::seconds(static_cast<long long>(duration_seconds(delay) + duration_seconds(duration)) + 60);
}

}  // namespace bn::cli
