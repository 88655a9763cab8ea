// Summaries whose call sequence has a gap or an aspect (seed 000 sec. 2-3): built, measured
// and extended by matching the sequence against every stack (pattern_matcher.h).
#include <algorithm>
#include <string>

#include "bn/base/error.h"
#include "bn/calltree/tree_profile.h"
#include "outermost_tally.h"
#include "pattern_matcher.h"

namespace bn::calltree {

using iface::Amount;
using iface::Summary;

const TreeProfile::PatternRecord& TreeProfile::pattern_record(Summary s) const {
  const std::uint32_t index = s.id & ~kPatternBit;
  if (!is_pattern(s) || index >= patterns_.size()) throw Error("unknown summary handle " + std::to_string(s.id));
  return patterns_[index];
}

std::shared_ptr<const PatternMatcher> TreeProfile::matcher_of(const PatternRecord& r) const {
  if (!r.matcher) r.matcher = std::make_shared<const PatternMatcher>(tree_, r.pattern);
  return r.matcher;
}

std::optional<Summary> TreeProfile::built_pattern(const iface::CallPattern& p) const {
  const auto it = pattern_index_.find(p.key());
  if (it == pattern_index_.end()) return std::nullopt;
  return Summary{kPatternBit | it->second};
}

std::optional<Summary> TreeProfile::pattern_summary(const iface::CallPattern& p) {
  if (p.is_plain()) return iface::Profile::pattern_summary(p);
  iface::check_call_pattern(p);
  if (const auto built = built_pattern(p)) return built;
  auto matcher = std::make_shared<const PatternMatcher>(tree_, p);
  bool satisfied = false;
  Amount cum = 0, base = 0;
  matcher->scan([&](NodeId n, PatternMatcher::NodeMatch m) {
    if (m.satisfied) {
      satisfied = true;
      cum += tree_.cost(n);
    }
    if (m.last_call) base += tree_.base_cost(n);
  });
  if (!satisfied) return std::nullopt;
  return add_pattern(p, std::move(matcher), cum, base);
}

Summary TreeProfile::add_pattern(const iface::CallPattern& p, std::shared_ptr<const PatternMatcher> matcher, Amount cum,
                                 Amount base) {
  PatternRecord r;
  r.pattern = p;
  r.matcher = std::move(matcher);
  r.cum = cum;
  r.base = base;
  for (const iface::PatternElement& e : p.elements) r.texts.push_back(e.text());
  const auto index = static_cast<std::uint32_t>(patterns_.size());
  if (index >= kPatternBit) throw Error("too many call sequences with gaps or aspects built");
  pattern_index_.emplace(p.key(), index);
  patterns_.push_back(std::move(r));
  return Summary{kPatternBit | index};
}

iface::CallPattern TreeProfile::pattern_of(Summary s) {
  if (is_pattern(s)) return pattern_record(s).pattern;
  return iface::Profile::pattern_of(s);
}

namespace {

// Calls visit(n) for every node n whose parent's frame ends a match of the sequence, in
// preorder: the nodes where s;x is matched, x being n's method. The last segment keeps matching
// after the earlier ones matched at their earliest ends (pattern_matcher.h), which is what
// satisfying s;x needs, so these are all of them. A node's parent is the last node seen one
// level up.
template <class Visit>
void for_each_bottom_extension_node(const CallTree& tree, const PatternMatcher& matcher, Visit&& visit) {
  std::vector<char> ends_at_depth(2, 0);
  matcher.scan([&](NodeId n, PatternMatcher::NodeMatch m) {
    const std::uint32_t d = tree.depth(n);
    if (d >= ends_at_depth.size()) ends_at_depth.resize(ends_at_depth.size() * 2, 0);
    if (ends_at_depth[d - 1]) visit(n);
    ends_at_depth[d] = m.last_call ? 1 : 0;
  });
}

std::vector<std::string_view> sorted_names(const CallTree& tree, const std::vector<bool>& methods) {
  std::vector<std::string_view> names;
  for (MethodId m = 0; m < methods.size(); ++m)
    if (methods[m]) names.push_back(tree.method_name(m));
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

std::vector<std::string_view> TreeProfile::pattern_top_extensions(const PatternRecord& r) const {
  std::vector<bool> methods(tree_.method_count(), false);
  matcher_of(r)->scan_top_extensions([&](MethodId x, NodeId) { methods[x] = true; });
  return sorted_names(tree_, methods);
}

std::vector<iface::ExtensionAmounts> TreeProfile::pattern_top_amounts(const PatternRecord& r) const {
  // One pass for every x;P (pattern_matcher.h), where building each would be a pass per x.
  OutermostTally tally(tree_);
  matcher_of(r)->scan_top_extensions([&](MethodId x, NodeId n) { tally.add(x, n); });
  return tally.amounts();
}

std::vector<std::string_view> TreeProfile::pattern_bottom_extensions(const PatternRecord& r) const {
  std::vector<bool> methods(tree_.method_count(), false);
  for_each_bottom_extension_node(tree_, *matcher_of(r), [&](NodeId n) { methods[tree_.method(n)] = true; });
  return sorted_names(tree_, methods);
}

std::vector<iface::ExtensionAmounts> TreeProfile::pattern_bottom_amounts(const PatternRecord& r) const {
  // s;x is matched at the nodes of x just below a match of s. One pass for every x, where
  // building each s;x would be a pass per extension (10^5 of them below a hot utility method at
  // 10M nodes).
  OutermostTally tally(tree_);
  for_each_bottom_extension_node(tree_, *matcher_of(r), [&](NodeId n) { tally.add(n); });
  return tally.amounts();
}

std::optional<Summary> TreeProfile::pattern_trimmed(Summary s, iface::End end) {
  const auto t = iface::trimmed(pattern_record(s).pattern, end);
  if (!t) return std::nullopt;
  return pattern_summary(*t);
}

void TreeProfile::tally_gap_extensions(Summary s, OutermostTally& tally) {
  const std::shared_ptr<const PatternMatcher> shared =
      is_pattern(s) ? matcher_of(pattern_record(s)) : std::make_shared<const PatternMatcher>(tree_, pattern_of(s));
  // s;..;x holds at a node iff a node of x lies on its stack strictly below the outermost node
  // where s is satisfied (ending s there leaves the most room for x).
  shared->scan([&](NodeId n, PatternMatcher::NodeMatch m) {
    if (m.satisfied && !m.first) tally.add(n);
  });
}

std::vector<iface::ExtensionAmounts> TreeProfile::gap_extensions(Summary s) {
  OutermostTally tally(tree_);
  tally_gap_extensions(s, tally);
  return tally.amounts();
}

bool TreeProfile::tally_upward_splits(const iface::CallPattern& pattern, std::size_t gap, OutermostTally& tally) {
  iface::CallPattern upper, lower;
  upper.elements.assign(pattern.elements.begin(), pattern.elements.begin() + static_cast<std::ptrdiff_t>(gap));
  lower.elements.assign(pattern.elements.begin() + static_cast<std::ptrdiff_t>(gap) + 1, pattern.elements.end());
  const auto calls = [](const iface::CallPattern& p) {
    return std::count_if(p.elements.begin(), p.elements.end(),
                         [](const iface::PatternElement& e) { return e.kind != iface::PatternElement::Kind::gap; });
  };
  if (upper.elements.empty() || calls(upper) == 0 ||
      static_cast<std::size_t>(std::max(calls(upper), calls(lower))) > iface::kMaxPatternCalls)
    return false;
  // P1;..;x;P2 holds on a stack iff P1, matched at its earliest end, leaves room below for x;P2
  // (pattern_matcher.h): the frames of x whose caller's stack satisfies P1 start it.
  std::vector<char> upper_satisfied(tree_.node_count(), 0);
  PatternMatcher(tree_, upper).scan([&](NodeId n, PatternMatcher::NodeMatch m) {
    upper_satisfied[n] = m.satisfied ? 1 : 0;
  });
  PatternMatcher(tree_, lower).scan_top_extensions([&](MethodId x, NodeId n) { tally.add(x, n); }, &upper_satisfied);
  return true;
}

std::vector<Summary> TreeProfile::upward_splits(Summary s, std::size_t gap) {
  const iface::CallPattern pattern = pattern_of(s);
  OutermostTally tally(tree_);
  if (!tally_upward_splits(pattern, gap, tally)) return iface::Profile::upward_splits(s, gap);
  iface::CallPattern lower;
  lower.elements.assign(pattern.elements.begin() + static_cast<std::ptrdiff_t>(gap) + 1, pattern.elements.end());
  const auto lower_summary = pattern_summary(lower);
  if (!lower_summary) return {};
  std::vector<const iface::ExtensionAmounts*> by_method(tree_.method_count(), nullptr);
  const std::vector<iface::ExtensionAmounts> amounts = tally.amounts();
  for (const iface::ExtensionAmounts& a : amounts) by_method[a.tag] = &a;
  std::vector<Summary> out;
  for (const std::string_view caller : top_extensions(*lower_summary)) {
    const std::optional<MethodId> x = tree_.find_method(caller);
    if (!x || by_method[*x] == nullptr) continue;
    const iface::CallPattern split = iface::split_at(pattern, gap, caller);
    const std::optional<Summary> built = built_pattern(split);
    out.push_back(built ? *built : add_pattern(split, nullptr, by_method[*x]->cum, by_method[*x]->base));
  }
  return out;
}

Amount TreeProfile::marked_total(std::span<const Summary> S, bool cum) {
  std::vector<char> marked(tree_.node_count(), 0);
  std::vector<NodeId> finals;  // plain summaries' final nodes, whose subtrees cum counts
  for (const Summary s : S) {
    if (is_pattern(s)) {
      matcher_of(pattern_record(s))->scan([&](NodeId n, PatternMatcher::NodeMatch m) {
        if (cum ? m.satisfied : m.last_call) marked[n] = 1;
      });
      continue;
    }
    const View v = view(s);
    for (const NodeId n : is_method_summary(s) ? v.roots : std::span<const NodeId>(sequence(s).along)) marked[n] = 1;
    if (cum) finals.insert(finals.end(), v.finals.begin(), v.finals.end());
  }
  std::sort(finals.begin(), finals.end());
  Amount total = 0;
  NodeId covered_until = 0;  // one past the last node of the final subtrees met so far
  auto next = finals.begin();
  for (NodeId n = 1; n < tree_.node_count(); ++n) {
    for (; next != finals.end() && *next == n; ++next) covered_until = std::max(covered_until, tree_.subtree_end(n));
    if (marked[n] || n < covered_until) total += cum ? tree_.cost(n) : tree_.base_cost(n);
  }
  return total;
}

}  // namespace bn::calltree
