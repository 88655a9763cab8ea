#include "causal/warm_up.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "core/method_names.h"

namespace bn::agent {

std::vector<std::string> WarmUp::hottest(jvmtiEnv* jvmti, std::size_t count) const {
  std::unordered_map<jmethodID, std::uint64_t> cum;
  std::unordered_set<jmethodID> seen;
  std::uint64_t samples = 0;
  for (std::size_t i = 0; i < this->samples(); ++i) {
    const Record& r = records_[i];
    if (!r.done.load(std::memory_order_acquire) || r.count == 0) continue;
    ++samples;
    seen.clear();
    for (std::uint32_t f = 0; f < r.count; ++f)
      if (r.methods[f] != nullptr && seen.insert(r.methods[f]).second) ++cum[r.methods[f]];
  }
  std::vector<std::pair<std::uint64_t, jmethodID>> ranked;
  for (const auto& [method, n] : cum)
    if (static_cast<double>(n) <= kSpineShare * static_cast<double>(samples)) ranked.emplace_back(n, method);
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::string> names;
  std::string name;
  for (const auto& [n, method] : ranked) {
    if (names.size() == count) break;
    if (method_name(jvmti, method, name) && std::find(names.begin(), names.end(), name) == names.end())
      names.push_back(name);
  }
  return names;
}

}  // namespace bn::agent
