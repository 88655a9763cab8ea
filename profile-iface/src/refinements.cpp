#include "bn/iface/refinements.h"

#include <string>

#include "bn/base/error.h"
#include "bn/base/interruption.h"

namespace bn::iface {

std::vector<Summary> extended_downward(Profile& p, Summary s) {
  const CallPattern pattern = p.pattern_of(s);
  std::vector<Summary> out;
  const std::vector<ExtensionAmounts> methods = p.gap_extensions(s);
  for (std::size_t i = 0; i < methods.size(); ++i) {
    base::step("refine below", i, methods.size());
    if (const auto t = p.pattern_summary(extended_through_gap(pattern, methods[i].method))) out.push_back(*t);
  }
  return out;
}

std::vector<Summary> upward_split(Profile& p, Summary s, std::size_t gap) {
  const CallPattern pattern = p.pattern_of(s);
  if (gap >= pattern.elements.size() || pattern.elements[gap].kind != PatternElement::Kind::gap)
    throw Error("call sequence '" + pattern.text() + "': position " + std::to_string(gap + 1) +
                " is no gap '..' to split at");
  return p.upward_splits(s, gap);
}

std::vector<Summary> Profile::upward_splits(Summary s, std::size_t gap) {
  const CallPattern pattern = pattern_of(s);
  CallPattern lower;
  lower.elements.assign(pattern.elements.begin() + static_cast<std::ptrdiff_t>(gap) + 1, pattern.elements.end());
  std::vector<Summary> out;
  const auto lower_summary = pattern_summary(lower);
  if (!lower_summary) return out;
  const std::vector<std::string_view> callers = top_extensions(*lower_summary);
  for (std::size_t i = 0; i < callers.size(); ++i) {
    base::step("refine split", i, callers.size());
    if (const auto t = pattern_summary(split_at(pattern, gap, callers[i]))) out.push_back(*t);
  }
  return out;
}

}  // namespace bn::iface
