#include "bn/search/aspects.h"

#include <algorithm>

#include "bn/base/error.h"
#include "bn/iface/overlap.h"

namespace bn::search {
namespace {

bool valid_name(std::string_view name) {
  constexpr std::string_view kPunctuation = "_.$-";
  return !name.empty() && std::all_of(name.begin(), name.end(), [&](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           kPunctuation.find(c) != std::string_view::npos;
  });
}

}  // namespace

void AspectTable::define(iface::Profile& profile, std::string_view name, std::string_view pattern) {
  if (!valid_name(name)) throw Error("aspect name '" + std::string(name) + "': use letters, digits and _ . $ - only");
  const std::string as_method = ":" + std::string(name);
  if (profile.method_summary(as_method))
    throw Error("aspect name '" + std::string(name) + "': " + as_method +
                " is a method of this profile (typed time); choose another name");
  auto definition = std::make_shared<const base::MethodPattern>(pattern);
  definitions_.insert_or_assign(std::string(name), std::move(definition));
}

bool AspectTable::undefine(std::string_view name) {
  const auto it = definitions_.find(name);
  if (it == definitions_.end()) return false;
  definitions_.erase(it);
  return true;
}

std::shared_ptr<const base::MethodPattern> AspectTable::find(std::string_view name) const {
  const auto it = definitions_.find(name);
  return it == definitions_.end() ? nullptr : it->second;
}

std::optional<iface::Summary> summary_of_frames(iface::Profile& profile, std::span<const std::string_view> frames,
                                                const AspectTable& aspects) {
  if (frames.empty()) return std::nullopt;
  const iface::CallPattern pattern = iface::pattern_from_frames(frames, aspects.lookup());
  if (pattern.is_plain()) return profile.path_summary(frames);
  return profile.pattern_summary(pattern);
}

}  // namespace bn::search
