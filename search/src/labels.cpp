#include "bn/search/labels.h"

#include <algorithm>
#include <set>

namespace bn::search {

bool LabelSet::add(const std::string& name, iface::Summary s) {
  if (!pairs_.emplace(name, s).second) return false;
  labels_[name].push_back(s);
  return true;
}

bool LabelSet::remove(const std::string& name, iface::Summary s) {
  auto it = labels_.find(name);
  if (it == labels_.end()) return false;
  auto pos = std::find(it->second.begin(), it->second.end(), s);
  if (pos == it->second.end()) return false;
  it->second.erase(pos);
  pairs_.erase({name, s});
  if (it->second.empty()) labels_.erase(it);
  return true;
}

std::vector<std::string> LabelSet::labels_of(iface::Summary s) const {
  std::vector<std::string> names;
  for (const auto& [name, members] : labels_)
    if (std::find(members.begin(), members.end(), s) != members.end()) names.push_back(name);
  return names;
}

std::vector<iface::Summary> LabelSet::all_summaries() const {
  std::vector<iface::Summary> out;
  std::set<iface::Summary> seen;  // a scan of `out` per summary would be quadratic
  for (const auto& [name, members] : labels_)
    for (iface::Summary s : members)
      if (seen.insert(s).second) out.push_back(s);
  return out;
}

}  // namespace bn::search
