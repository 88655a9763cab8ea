#include "causal/warm_up.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "core/method_names.h"

namespace bn::agent {

std::vector<std::string> WarmUp::hottest(jvmtiEnv* jvmti, std::size_t count) const {
  struct Method {
    std::uint64_t cum = 0;
    std::uint64_t leaf_distance = 0;  // summed over its samples: frames between it and the leaf
  };
  std::unordered_map<jmethodID, Method> methods;
  std::unordered_set<jmethodID> seen;
  std::vector<const Record*> records;
  for (std::size_t i = 0; i < this->samples(); ++i) {
    const Record& r = records_[i];
    if (!r.done.load(std::memory_order_acquire) || r.count == 0) continue;
    records.push_back(&r);
    seen.clear();
    for (std::uint32_t f = 0; f < r.count; ++f)
      if (r.methods[f] != nullptr && seen.insert(r.methods[f]).second) {
        Method& m = methods[r.methods[f]];
        ++m.cum;
        m.leaf_distance += f;
      }
  }
  // The candidates: the hottest methods under at most kSpineShare of the samples.
  std::vector<std::pair<std::uint64_t, jmethodID>> ranked;
  for (const auto& [id, m] : methods)
    if (static_cast<double>(m.cum) <= kSpineShare * static_cast<double>(records.size())) ranked.emplace_back(m.cum, id);
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  if (ranked.size() > kCandidates) ranked.resize(kCandidates);
  // Which candidates each sample ran under, and how often two ran together.
  std::vector<std::vector<std::uint64_t>> together(ranked.size(), std::vector<std::uint64_t>(ranked.size()));
  std::vector<std::size_t> present;
  for (const Record* r : records) {
    present.clear();
    for (std::size_t c = 0; c < ranked.size(); ++c)
      if (std::find(r->methods, r->methods + r->count, ranked[c].second) != r->methods + r->count) present.push_back(c);
    for (const std::size_t a : present)
      for (const std::size_t b : present) ++together[a][b];
  }
  // Methods that (nearly) always run together are one place in the program (a lambda and the
  // method it calls, a wrapper and what it wraps): one target, the one nearest the leaves.
  struct Group {
    std::size_t representative;
    std::uint64_t cum;
  };
  std::vector<Group> groups;
  const auto mean_leaf_distance = [&](std::size_t c) {
    const Method& m = methods[ranked[c].second];
    return static_cast<double>(m.leaf_distance) / static_cast<double>(m.cum);
  };
  for (std::size_t c = 0; c < ranked.size(); ++c) {
    const auto same = std::find_if(groups.begin(), groups.end(), [&](const Group& g) {
      return static_cast<double>(together[c][g.representative]) >=
             kSamePlace * static_cast<double>(std::max(ranked[c].first, ranked[g.representative].first));
    });
    if (same == groups.end())
      groups.push_back({c, ranked[c].first});
    else if (mean_leaf_distance(c) < mean_leaf_distance(same->representative))
      same->representative = c;
  }
  std::vector<std::string> names;
  std::string name;
  for (const Group& g : groups) {
    if (names.size() == count) break;
    if (method_name(jvmti, ranked[g.representative].second, name) &&
        std::find(names.begin(), names.end(), name) == names.end())
      names.push_back(name);
  }
  return names;
}

}  // namespace bn::agent
