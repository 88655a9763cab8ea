#pragma once
// Coordinates in SVG attributes: two decimals, a hundredth of a pixel, enough for any screen.

#include <cstdio>
#include <string>

namespace bn::flame {

inline std::string svg_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

}  // namespace bn::flame
