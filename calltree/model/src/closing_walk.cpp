#include "closing_walk.h"

#include <algorithm>
#include <future>
#include <optional>
#include <thread>
#include <vector>

#include "bn/calltree/call_tree.h"
#include "final_costs.h"

namespace bn::calltree {
namespace {

// Children that the sibling check compares pairwise, without the stamps.
constexpr std::size_t kFewChildren = 6;

// Children of a node checked as they come, against a 64-bit filter of the methods of the node's
// children so far; a node with more is checked when it closes, by all its children at once.
constexpr std::uint32_t kFilteredChildren = 16;

struct Columns {
  const NodeId* parent;
  const MethodId* method;
  const Cost* cost;
  std::uint32_t* size;
  Cost* cum;
  std::size_t nodes;
  std::size_t method_count;
};

// A node on the walk's path, with what its children so far were labelled.
struct Open {
  NodeId node;
  std::uint32_t children = 0;  // past kFilteredChildren: checked when it closes
  std::uint64_t methods = 0;   // a bit per child's method (filter_bit); a bit set twice may be a repeat
  Cost cum = 0;                // its cost and its closed children's cum-costs (of this half's range)
};

// Nodes an early walk goes without looking whether it was abandoned.
constexpr std::size_t kNodesPerCheck = std::size_t{1} << 14;

// One of 64 bits for a method id, from all of its bits (Fibonacci hashing).
std::uint64_t filter_bit(MethodId m) { return std::uint64_t{1} << ((m * std::uint64_t{0x9E3779B97F4A7C15}) >> 58); }

// One thread's share of the walk: the nodes from `first` on, entered with `path` (the root's path
// to first - 1). The second half does not own the nodes of the path it enters with: when one of
// them closes in its range, only where its subtree ends is noted, and what its children from this
// range add to its cum-cost is kept apart, so that the two threads never write the same node.
class HalfWalk {
 public:
  // With `costs`, each node is walked once its cost is final.
  HalfWalk(const Columns& c, std::vector<NodeId> path, std::size_t first, bool owns_path,
           const FinalCosts* costs = nullptr)
      : c_(c),
        costs_(costs),
        first_(first),
        first_owned_(owns_path ? 0 : first),
        entry_path_(std::move(path)),
        kept_apart_(entry_path_.size(), 0) {
    // The entry path's nodes have children in both halves: they are checked when they close, by
    // close_entry_path. A half that owns its path (the root's) counts their costs.
    for (const NodeId v : entry_path_) {
      path_.push_back(
          {.node = v, .children = owns_path ? 0 : kFilteredChildren, .cum = owns_path ? c_.cost[v] : Cost{0}});
      if (owns_path) result.negative |= c_.cost[v] < 0;
    }
  }

  // Walks nodes [first, end); closes what is left open at `end` if `close_rest`. Returns early,
  // its findings void, if the costs it waits for are abandoned.
  void run(std::size_t end, bool close_rest) {
    for (std::size_t i = first_; i < end;) {
      std::size_t final_below = end;
      if (costs_ != nullptr) {
        final_below = costs_->wait_past(i);
        if (final_below == FinalCosts::kAbandoned) return;
        // A few thousand nodes at a time, so that an abandoned walk stops within ~0.2 ms (the
        // reader waits for it before a NODE or second COST chunk: a recorder's file has many).
        final_below = std::min({final_below, end, i + kNodesPerCheck});
      }
      for (; i < final_below; ++i) {
        const NodeId p = c_.parent[i];
        while (path_.back().node != p) {
          const Open v = path_.back();
          path_.pop_back();
          if (path_.empty()) {  // p is not on the path: not in preorder
            result.preorder = false;
            return;
          }
          close(v, i);
        }
        note_child(path_.back(), static_cast<NodeId>(i));
        // Made in place, field by field: GCC at -O2 built a braced temporary on the stack and
        // copied it with one 16-byte load of three narrower stores, which cannot be forwarded (a
        // stall a node: the walk took half again as long at -O2, the default build's level).
        Open& opened = path_.emplace_back();
        opened.node = static_cast<NodeId>(i);
        opened.cum = c_.cost[i];
        result.negative |= c_.cost[i] < 0;
      }
    }
    if (!close_rest) {
      // The other half's entry path: close_entry_path adds to these.
      for (const Open& v : path_) c_.cum[v.node] = v.cum;
      return;
    }
    while (!path_.empty()) {
      const Open v = path_.back();
      path_.pop_back();
      close(v, c_.nodes);
    }
  }

  // Closes the nodes of the path this half entered with, deepest first, once the other half is
  // done: their children's sizes are all written and their cum-costs hold the other half's sums.
  // `stamps` are the other half's (a node's stamps are its own number, and none of these closed).
  void close_entry_path(std::vector<NodeId>& stamps) {
    for (std::size_t k = entry_path_.size(); k-- > 0;) {
      const NodeId v = entry_path_[k];
      add_cum(c_.cum[v], kept_apart_[k]);
      c_.size[v] = static_cast<std::uint32_t>(entry_ends_[entry_path_.size() - 1 - k] - v);
      check_children(v, stamps);
      if (k > 0) add_cum(c_.cum[entry_path_[k - 1]], c_.cum[v]);
    }
  }

  ClosingWalk result{.preorder = true};
  // seen[m] == v: a child of v labelled m was met.
  std::vector<NodeId> seen;

 private:
  // Node i is the next child of `parent`. A few children are checked against the filter of the
  // ones before: in trees of every shape most nodes have at most three children, so a bit is
  // rarely met twice, and this branch, unlike one on how many children a closing node has, is
  // predicted; only then are the earlier siblings compared.
  void note_child(Open& parent, NodeId i) {
    if (++parent.children > kFilteredChildren) return;
    const std::uint64_t bit = filter_bit(c_.method[i]);
    if (parent.methods & bit) compare_earlier_siblings(parent.node, i);
    parent.methods |= bit;
  }

  // The children of p before i are closed: their sizes are written, by this thread (p is its own).
  void compare_earlier_siblings(NodeId p, NodeId i) {
    for (NodeId c = p + 1; c < i; c += c_.size[c]) result.repeated_sibling |= c_.method[c] == c_.method[i];
  }

  // v's subtree ends before `end`; path_ ends with v's parent (or is empty for the root).
  void close(const Open& v, std::size_t end) {
    if (v.node < first_owned_) {
      entry_ends_.push_back(static_cast<NodeId>(end));  // popped deepest first
      kept_apart_[path_.size()] = v.cum;
      return;
    }
    c_.size[v.node] = static_cast<std::uint32_t>(end - v.node);
    if (v.children > kFilteredChildren) check_children(v.node, seen);
    c_.cum[v.node] = v.cum;
    if (!path_.empty()) add_cum(path_.back().cum, v.cum);
  }

  void add_cum(Cost& sum, Cost more) { result.cum_overflow |= __builtin_add_overflow(sum, more, &sum); }

  // Checks all the children of v, whose size is written.
  void check_children(NodeId v, std::vector<NodeId>& stamps) {
    const std::size_t end = v + c_.size[v];
    // A few children are compared with each other; more are stamped (a random access each into a
    // table of every method: 625 KB for 156k methods at 10M nodes).
    MethodId few[kFewChildren];
    std::size_t k = 0;
    NodeId c = v + 1;
    for (; c < end && k < kFewChildren; c += c_.size[c]) {
      for (std::size_t j = 0; j < k; ++j) result.repeated_sibling |= few[j] == c_.method[c];
      few[k++] = c_.method[c];
    }
    if (c == end) return;
    if (stamps.empty()) stamps.assign(c_.method_count, kNoNode);
    for (c = v + 1; c < end; c += c_.size[c]) {
      if (stamps[c_.method[c]] == v) result.repeated_sibling = true;
      stamps[c_.method[c]] = v;
    }
  }

  const Columns& c_;
  const FinalCosts* costs_;
  std::size_t first_;
  std::size_t first_owned_;
  std::vector<NodeId> entry_path_;
  std::vector<Open> path_;
  std::vector<Cost> kept_apart_;    // per entry path node: what this half's children add to its cum-cost
  std::vector<NodeId> entry_ends_;  // where the entry path's nodes end, deepest first
};

// The path from the root to v.
std::vector<NodeId> path_to(const NodeId* parent, NodeId v) {
  std::vector<NodeId> path;
  for (; v != kNoNode; v = parent[v]) path.push_back(v);
  std::reverse(path.begin(), path.end());
  return path;
}

// The second half of a walk split at `split`, made on the calling thread (close_in_preorder says
// why).
HalfWalk second_half(const Columns& c, std::size_t split) {
  HalfWalk second(c, path_to(c.parent, static_cast<NodeId>(split - 1)), split, false);
  second.seen.assign(c.method_count, kNoNode);
  return second;
}

// The two halves' findings, once both are done; closes the nodes of the second's entry path.
ClosingWalk meet(HalfWalk& first, HalfWalk& second) {
  ClosingWalk walk{.preorder = first.result.preorder && second.result.preorder,
                   .repeated_sibling = first.result.repeated_sibling || second.result.repeated_sibling,
                   .negative = first.result.negative || second.result.negative,
                   .cum_overflow = first.result.cum_overflow || second.result.cum_overflow};
  if (!walk.preorder) return walk;
  second.result = {};
  second.close_entry_path(first.seen);
  walk.repeated_sibling |= second.result.repeated_sibling;
  walk.cum_overflow |= second.result.cum_overflow;
  return walk;
}

}  // namespace

ClosingWalk close_in_preorder(std::span<const NodeId> parent, std::span<const MethodId> method,
                              std::span<const Cost> cost, std::size_t method_count, std::span<std::uint32_t> size,
                              std::span<Cost> cum, std::size_t split) {
  const Columns c{parent.data(), method.data(), cost.data(), size.data(), cum.data(), parent.size(), method_count};
  HalfWalk first(c, {kRootNode}, 1, true);
  if (split == 0) {
    first.run(c.nodes, true);
    return first.result;
  }
  // The second half's memory is allocated here: what a thread allocates comes from an arena of its
  // own, which glibc keeps after the thread ends (bench/scale's resident and peak bytes per node
  // grew at 1.1M nodes). Its thread is joined by the future's destructor even if this one throws.
  HalfWalk second = second_half(c, split);
  std::future<void> second_half = std::async(std::launch::async, [&c, &second] { second.run(c.nodes, true); });
  first.run(split, false);
  second_half.get();
  return meet(first, second);
}

// The early walk's first half ends at a share of the nodes above a half: it begins while the COST
// chunk is decoded (~20 ms of a ~65 ms half at 10M nodes), and the halves meet at about the same
// time with 0.58 to 0.62 (bench/LOG.md, "The closing walk begun during the COST chunk").
constexpr double kEarlyShare = 0.6;

struct EarlyWalk::State {
  Columns columns;
  FinalCosts costs;
  WalkedTable walked;
  std::size_t split = 0;
  std::optional<HalfWalk> first;  // made on its thread, once the root's cost is final
  std::thread thread;
};

EarlyWalk::EarlyWalk(std::unique_ptr<State> state) : state_(std::move(state)) {}

std::unique_ptr<EarlyWalk> EarlyWalk::begin(const NodeTable& table, std::size_t method_count) {
  const std::size_t n = table.parent.size();
  if (n < kTwoThreadWalk) return nullptr;
  auto state = std::make_unique<State>();
  State& s = *state;
  s.walked.size.resize(n);
  s.walked.cum.resize(n);
  s.columns =
      Columns{table.parent.data(), table.method.data(), table.cost.data(), s.walked.size.data(), s.walked.cum.data(), n,
              method_count};
  s.split = static_cast<std::size_t>(static_cast<double>(n) * kEarlyShare);
  s.thread = std::thread([&s] {
    if (s.costs.wait_past(kRootNode) == FinalCosts::kAbandoned) return;
    s.first.emplace(s.columns, std::vector<NodeId>{kRootNode}, 1, true, &s.costs).run(s.split, false);
  });
  return std::unique_ptr<EarlyWalk>(new EarlyWalk(std::move(state)));
}

EarlyWalk::~EarlyWalk() { abandon(); }

void EarlyWalk::costs_final_below(std::size_t node) {
  if (!stopped_) state_->costs.publish(node);
}

void EarlyWalk::abandon() {
  if (stopped_) return;
  stopped_ = true;
  state_->costs.abandon();
  if (state_->thread.joinable()) state_->thread.join();
}

std::optional<WalkedTable> EarlyWalk::finish() {
  if (stopped_) return std::nullopt;
  State& s = *state_;
  s.costs.publish(s.columns.nodes);
  HalfWalk second = second_half(s.columns, s.split);
  second.run(s.columns.nodes, true);
  s.thread.join();
  stopped_ = true;
  s.walked.walk = meet(*s.first, second);
  return std::move(s.walked);
}

}  // namespace bn::calltree
