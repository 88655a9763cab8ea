#include "bn/iface/profile_filter.h"

namespace bn::iface {

std::string ProfileFilter::text() const { return (kind == Kind::focus ? "focus " : "exclude ") + pattern.text(); }

std::string filters_text(std::span<const ProfileFilter> filters) {
  std::string out;
  for (const ProfileFilter& f : filters) out += (out.empty() ? "" : ", then ") + f.text();
  return out;
}

}  // namespace bn::iface
