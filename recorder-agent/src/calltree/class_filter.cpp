#include "calltree/class_filter.h"

#include <algorithm>

#include "bn/base/glob.h"

namespace bn::agent {
namespace {

std::vector<std::string> split_globs(std::string_view list) {
  std::vector<std::string> out;
  while (!list.empty()) {
    const std::size_t colon = list.find(':');
    const std::string_view glob = list.substr(0, colon);
    if (!glob.empty()) out.emplace_back(glob);
    list = colon == std::string_view::npos ? std::string_view() : list.substr(colon + 1);
  }
  return out;
}

constexpr std::string_view kNeverTouched[] = {"bottlenecks.runtime.", "bottlenecks.transform.",
                                              "java.lang.",           "java.util.concurrent.atomic.",
                                              "jdk.internal.",        "sun.misc.",
                                              "sun.reflect.",         "sun.invoke."};

}  // namespace

ClassFilter::ClassFilter(std::string_view include, std::string_view exclude)
    : include_(split_globs(include)), exclude_(split_globs(exclude)) {}

bool ClassFilter::never_touched(std::string_view dotted) {
  return std::any_of(std::begin(kNeverTouched), std::end(kNeverTouched),
                     [&](std::string_view prefix) { return dotted.starts_with(prefix); });
}

bool ClassFilter::instruments(std::string_view internal_name) const {
  std::string dotted(internal_name);
  std::replace(dotted.begin(), dotted.end(), '/', '.');
  if (never_touched(dotted)) return false;
  const auto matches = [&](const std::string& glob) { return base::glob_match(glob, dotted); };
  if (!include_.empty() && std::none_of(include_.begin(), include_.end(), matches)) return false;
  return std::none_of(exclude_.begin(), exclude_.end(), matches);
}

}  // namespace bn::agent
