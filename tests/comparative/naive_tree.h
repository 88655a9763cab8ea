#pragma once
// A deliberately naive evaluator of the sec. 2.2 set definitions (seed 004) on one call tree,
// by names and explicit node sets: the reference the comparative backend is checked against.
// Quadratic and slow on purpose; for small random trees only.

#include <algorithm>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "bn/calltree/call_tree.h"
#include "bn/iface/amount.h"

namespace bn::test {

using Path = std::vector<std::string>;

struct NaiveSets {
  std::set<calltree::NodeId> along;
  std::set<calltree::NodeId> finals;
};

// Every path labelled `path` ends at some node e: walk up from e matching names back to front.
inline NaiveSets naive_sets(const calltree::CallTree& t, const std::vector<Path>& paths) {
  NaiveSets sets;
  for (const Path& path : paths) {
    for (calltree::NodeId e = 1; e < t.node_count(); ++e) {
      std::vector<calltree::NodeId> nodes;
      calltree::NodeId n = e;
      bool match = true;
      for (std::size_t i = path.size(); i-- > 0;) {
        if (n == calltree::kNoNode || n == calltree::kRootNode || t.node_name(n) != path[i]) {
          match = false;
          break;
        }
        nodes.push_back(n);
        n = t.parent(n);
      }
      if (!match) continue;
      sets.along.insert(nodes.begin(), nodes.end());
      sets.finals.insert(e);
    }
  }
  return sets;
}

inline bool naive_occurs(const calltree::CallTree& t, const Path& path) {
  return !naive_sets(t, {path}).finals.empty();
}

inline iface::Amount naive_total_base(const calltree::CallTree& t, const std::vector<Path>& paths) {
  iface::Amount sum = 0;
  for (const calltree::NodeId n : naive_sets(t, paths).along) sum += t.cost(n);
  return sum;
}

// along ∪ descendants(final), each node once.
inline iface::Amount naive_total_cum(const calltree::CallTree& t, const std::vector<Path>& paths) {
  const NaiveSets sets = naive_sets(t, paths);
  iface::Amount sum = 0;
  for (calltree::NodeId d = 1; d < t.node_count(); ++d) {
    bool counted = sets.along.count(d) > 0;
    for (calltree::NodeId up = t.parent(d); !counted && up != calltree::kNoNode; up = t.parent(up))
      counted = sets.finals.count(up) > 0;
    if (counted) sum += t.cost(d);
  }
  return sum;
}

inline std::vector<std::string> naive_methods(const calltree::CallTree& t) {
  std::set<std::string> names;
  for (calltree::NodeId n = 1; n < t.node_count(); ++n) names.emplace(t.node_name(n));
  return {names.begin(), names.end()};
}

// Methods m such that m :: path (top) or path @ [m] (bottom) occurs; sorted by name.
inline std::vector<std::string> naive_extensions(const calltree::CallTree& t, const Path& path, bool top) {
  std::vector<std::string> result;
  for (const std::string& m : naive_methods(t)) {
    Path extended = path;
    if (top)
      extended.insert(extended.begin(), m);
    else
      extended.push_back(m);
    if (naive_occurs(t, extended)) result.push_back(m);
  }
  return result;
}

}  // namespace bn::test
