#include "bn/iface/refinements.h"

#include <string>

#include "bn/base/error.h"

namespace bn::iface {

std::vector<Summary> extended_downward(Profile& p, Summary s) {
  const CallPattern pattern = p.pattern_of(s);
  std::vector<Summary> out;
  for (const ExtensionAmounts& e : p.gap_extensions(s))
    if (const auto t = p.pattern_summary(extended_through_gap(pattern, e.method))) out.push_back(*t);
  return out;
}

std::vector<Summary> upward_split(Profile& p, Summary s, std::size_t gap) {
  const CallPattern pattern = p.pattern_of(s);
  if (gap >= pattern.elements.size() || pattern.elements[gap].kind != PatternElement::Kind::gap)
    throw Error("call sequence '" + pattern.text() + "': position " + std::to_string(gap + 1) +
                " is no gap '..' to split at");
  CallPattern lower;
  lower.elements.assign(pattern.elements.begin() + static_cast<std::ptrdiff_t>(gap) + 1, pattern.elements.end());
  std::vector<Summary> out;
  const auto lower_summary = p.pattern_summary(lower);
  if (!lower_summary) return out;
  for (const std::string_view x : p.top_extensions(*lower_summary))
    if (const auto t = p.pattern_summary(split_at(pattern, gap, x))) out.push_back(*t);
  return out;
}

}  // namespace bn::iface
