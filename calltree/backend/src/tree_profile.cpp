// The summary store of the tree backend: handles, interning by call sequence, and the queries
// that only read stored facts.
#include "bn/calltree/tree_profile.h"

#include <algorithm>
#include <numeric>
#include <string>

#include "bn/base/error.h"
#include "node_sweep.h"

namespace bn::calltree {

using iface::Amount;
using iface::Summary;

TreeProfile::TreeProfile(const CallTree& tree, Amount denominator, std::optional<iface::MetricInfo> metric)
    : tree_(tree),
      denominator_(denominator),
      metric_(std::move(metric)),
      method_count_(static_cast<std::uint32_t>(tree.method_count())),
      method_ids_(method_count_),
      method_totals_(tree),
      method_top_finals_(method_count_) {
  if (denominator <= 0)
    throw Error("cannot analyse call tree: denominator " + iface::to_string(denominator) + " is not positive");
  std::iota(method_ids_.begin(), method_ids_.end(), MethodId{0});
  // Summaries are looked up by name; a second id under the same name would split a method.
  if (!tree.names().has_repeats()) return;
  std::vector<bool> occurs(method_count_);
  for (NodeId n = 1; n < tree.node_count(); ++n) occurs[tree.method(n)] = true;
  for (MethodId m = 0; m < method_count_; ++m) {
    if (!occurs[m]) continue;
    const auto first = tree.find_method(tree.method_name(m));
    if (first != m)
      throw Error("cannot analyse call tree: method name '" + std::string(tree.method_name(m)) + "' has two ids (" +
                  std::to_string(*first) + " and " + std::to_string(m) + ")");
  }
}

const TreeProfile::Sequence& TreeProfile::sequence(Summary s) const {
  const std::uint64_t index = std::uint64_t{s.id} - method_count_;
  if (s.id < method_count_ || index >= sequences_.size()) throw Error("unknown summary handle " + std::to_string(s.id));
  return sequences_[index];
}

TreeProfile::View TreeProfile::view(Summary s) const {
  if (is_method_summary(s)) {
    const auto nodes = tree_.nodes_of(s.id);
    if (nodes.empty()) throw Error("unknown summary handle " + std::to_string(s.id));
    return {{&method_ids_[s.id], 1}, nodes, nodes, nodes};
  }
  const Sequence& seq = sequence(s);
  return {seq.calls, seq.roots, seq.finals, seq.sorted_finals};
}

void TreeProfile::check_occurs(Summary s) {
  // Once every method is figured (`suggest`), they say which occur: ranking them all must not
  // build the tree's method index (40 MB at 10M nodes) for nothing.
  MethodTotals& totals = method_totals();
  if (totals.complete() ? !totals.occurs(s.id) : tree_.nodes_of(s.id).empty())
    throw Error("unknown summary handle " + std::to_string(s.id));
}

std::span<const MethodId> TreeProfile::calls(Summary s) const { return view(s).calls; }

std::span<const NodeId> TreeProfile::roots(Summary s) const { return view(s).roots; }

std::optional<MethodId> TreeProfile::occurring_method(std::string_view name) const {
  const auto m = tree_.find_method(name);
  if (!m || tree_.nodes_of(*m).empty()) return std::nullopt;
  return m;
}

std::optional<Summary> TreeProfile::find(const std::vector<MethodId>& calls) const {
  if (calls.size() == 1) return Summary{calls.front()};
  const auto it = index_.find(calls);
  if (it == index_.end()) return std::nullopt;
  return Summary{it->second};
}

TreeProfile::Sequence TreeProfile::measure(std::vector<MethodId> calls, std::vector<RootFinal> paths) const {
  std::sort(paths.begin(), paths.end());
  Sequence seq;
  seq.calls = std::move(calls);
  seq.roots.reserve(paths.size());
  seq.finals.reserve(paths.size());
  for (const auto& [root, final_node] : paths) {
    seq.roots.push_back(root);
    seq.finals.push_back(final_node);
  }
  compute_metrics(seq);
  return seq;
}

std::optional<Summary> TreeProfile::store(std::vector<MethodId> calls, std::vector<RootFinal> paths) {
  if (paths.empty()) return std::nullopt;
  Sequence seq = measure(std::move(calls), std::move(paths));
  const auto id = static_cast<std::uint32_t>(method_count_ + sequences_.size());
  index_.emplace(seq.calls, id);
  sequences_.push_back(std::move(seq));
  return Summary{id};
}

std::vector<std::string_view> TreeProfile::path_of(Summary s) {
  std::vector<std::string_view> path;
  if (is_pattern(s)) {
    for (const std::string& text : pattern_record(s).texts) path.push_back(text);
    return path;
  }
  if (is_method_summary(s)) {
    check_occurs(s);  // without the method index once every method is figured (`suggest`)
    return {tree_.method_name(s.id)};
  }
  for (MethodId m : view(s).calls) path.push_back(tree_.method_name(m));
  return path;
}

std::vector<Summary> TreeProfile::initial_summaries() {
  std::vector<Summary> result;
  for (MethodId m = 0; m < method_count_; ++m)
    if (method_totals().occurs(m)) result.push_back({m});
  const auto& rank = name_rank();
  std::sort(result.begin(), result.end(), [&](Summary a, Summary b) { return rank[a.id] < rank[b.id]; });
  return result;
}

std::optional<Summary> TreeProfile::method_summary(std::string_view method) {
  const auto m = occurring_method(method);
  if (!m) return std::nullopt;
  return Summary{*m};
}

Amount TreeProfile::base_of(Summary s) {
  if (is_pattern(s)) return pattern_record(s).base;
  if (!is_method_summary(s)) return sequence(s).base;
  check_occurs(s);
  return method_totals()[s.id].base;
}

Amount TreeProfile::cum_of(Summary s) {
  if (is_pattern(s)) return pattern_record(s).cum;
  if (!is_method_summary(s)) return sequence(s).cum;
  check_occurs(s);
  return method_totals()[s.id].cum;
}

iface::MetricInfo TreeProfile::metric() {
  if (metric_) return *metric_;
  const Metadata& md = tree_.metadata();
  return {md.metric, md.unit, md.unit == "samples", 0};
}

}  // namespace bn::calltree
