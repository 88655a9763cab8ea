#pragma once
// A deliberately naive profile for unit tests of the REPL engine: a call tree given as
// collapsed stacks, with every sec. 2.2 set computed straight from its definition by scanning
// all nodes. Costs are multiplied by `sign` so tests can exercise negative (comparative-like)
// values, which a real single-tree backend never produces.

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "bn/iface/profile.h"

namespace bn::search::testing {

class FakeProfile final : public iface::Profile {
 public:
  // stacks: {"a;b;c", cost}; every prefix of a stack is a node (cost 0 unless listed).
  FakeProfile(const std::vector<std::pair<std::string, iface::Amount>>& stacks, iface::Amount sign = 1,
              bool samples = true)
      : samples_(samples) {
    for (const auto& [text, cost] : stacks) {
      std::vector<std::string> frames;
      std::size_t start = 0;
      for (std::size_t i = 0; i <= text.size(); ++i)
        if (i == text.size() || text[i] == ';') {
          frames.push_back(text.substr(start, i - start));
          start = i + 1;
        }
      for (std::size_t n = 1; n <= frames.size(); ++n)
        nodes_.emplace(std::vector<std::string>(frames.begin(), frames.begin() + static_cast<long>(n)), 0);
      nodes_[frames] += cost * sign;
      if (cost * sign < 0) never_negative_ = false;
      for (const std::string& f : frames) methods_.insert(f);
    }
  }

  std::vector<std::string_view> path_of(iface::Summary s) override {
    std::vector<std::string_view> out;
    for (const std::string& m : interned_[s.id]) out.push_back(*methods_.find(m));
    return out;
  }
  std::vector<iface::Summary> initial_summaries() override {
    std::vector<iface::Summary> out;
    for (const std::string& m : methods_) out.push_back(intern({m}));
    return out;
  }
  std::optional<iface::Summary> method_summary(std::string_view m) override { return make({std::string(m)}); }
  std::vector<std::string_view> top_extensions(iface::Summary s) override {
    std::vector<std::string_view> out;
    for (const std::string& m : methods_) {
      std::vector<std::string> calls = interned_[s.id];
      calls.insert(calls.begin(), m);
      if (occurs(calls)) out.push_back(m);
    }
    return out;
  }
  std::vector<std::string_view> bottom_extensions(iface::Summary s) override {
    std::vector<std::string_view> out;
    for (const std::string& m : methods_) {
      std::vector<std::string> calls = interned_[s.id];
      calls.push_back(m);
      if (occurs(calls)) out.push_back(m);
    }
    return out;
  }
  std::optional<iface::Summary> extend_top(iface::Summary s, std::string_view m) override {
    std::vector<std::string> calls = interned_[s.id];
    calls.insert(calls.begin(), std::string(m));
    return make(calls);
  }
  std::optional<iface::Summary> extend_bottom(iface::Summary s, std::string_view m) override {
    std::vector<std::string> calls = interned_[s.id];
    calls.push_back(std::string(m));
    return make(calls);
  }
  std::optional<iface::Summary> trim_top(iface::Summary s) override {
    const std::vector<std::string>& calls = interned_[s.id];
    if (calls.size() < 2) return std::nullopt;
    return make({calls.begin() + 1, calls.end()});
  }
  std::optional<iface::Summary> trim_bottom(iface::Summary s) override {
    const std::vector<std::string>& calls = interned_[s.id];
    if (calls.size() < 2) return std::nullopt;
    return make({calls.begin(), calls.end() - 1});
  }
  iface::Amount base_of(iface::Summary s) override { return total_base_of(std::span(&s, 1)); }
  iface::Amount cum_of(iface::Summary s) override { return total_cum_of(std::span(&s, 1)); }
  // along(S): nodes whose stack ends with a non-empty prefix of some s.calls starting at a root
  // of s. cum adds nodes whose stack contains s.calls (final nodes and their descendants).
  iface::Amount total_base_of(std::span<const iface::Summary> S) override { return sum(S, false); }
  iface::Amount total_cum_of(std::span<const iface::Summary> S) override { return sum(S, true); }
  iface::Amount total() override {
    iface::Amount t = 0;
    for (const auto& [stack, cost] : nodes_) t += cost;
    return t;
  }
  bool costs_never_negative() override { return never_negative_; }
  iface::MetricInfo metric() override { return {"samples", "samples", samples_, 0}; }

 private:
  using Stack = std::vector<std::string>;

  static bool contains_at(const Stack& stack, const Stack& calls, std::size_t at) {
    if (at + calls.size() > stack.size()) return false;
    return std::equal(calls.begin(), calls.end(), stack.begin() + static_cast<long>(at));
  }
  bool occurs(const Stack& calls) const {
    for (const auto& [stack, cost] : nodes_)
      for (std::size_t at = 0; at < stack.size(); ++at)
        if (contains_at(stack, calls, at)) return true;
    return false;
  }
  bool in_set(const Stack& node, const Stack& calls, bool cum) const {
    // Along: node = prefix(r) + calls[0..j] where prefix(r) + calls is a node of the tree.
    for (std::size_t j = 1; j <= calls.size() && j <= node.size(); ++j) {
      if (!std::equal(calls.begin(), calls.begin() + static_cast<long>(j), node.end() - static_cast<long>(j))) continue;
      Stack full(node.begin(), node.end() - static_cast<long>(j));
      full.insert(full.end(), calls.begin(), calls.end());
      if (nodes_.count(full)) return true;
    }
    if (cum)
      for (std::size_t at = 0; at < node.size(); ++at)
        if (contains_at(node, calls, at)) return true;
    return false;
  }
  iface::Amount sum(std::span<const iface::Summary> S, bool cum) const {
    iface::Amount t = 0;
    for (const auto& [node, cost] : nodes_)
      for (iface::Summary s : S)
        if (in_set(node, interned_[s.id], cum)) {
          t += cost;
          break;
        }
    return t;
  }
  iface::Summary intern(const Stack& calls) {
    auto [it, inserted] = ids_.emplace(calls, static_cast<std::uint32_t>(interned_.size()));
    if (inserted) interned_.push_back(calls);
    return {it->second};
  }
  std::optional<iface::Summary> make(const Stack& calls) {
    if (!occurs(calls)) return std::nullopt;
    return intern(calls);
  }

  std::map<Stack, iface::Amount> nodes_;
  std::set<std::string, std::less<>> methods_;
  std::map<Stack, std::uint32_t> ids_;
  std::vector<Stack> interned_;
  bool samples_;
  bool never_negative_ = true;
};

// Seed 004 Fig. 2 as collapsed stacks (samples/figure2/figure2.collapsed).
inline std::vector<std::pair<std::string, iface::Amount>> figure2() {
  return {{"a", 1}, {"a;b", 2}, {"a;b;c", 10}, {"a;b;c;d", 50}, {"a;c", 5}, {"a;c;e", 32}};
}

}  // namespace bn::search::testing
