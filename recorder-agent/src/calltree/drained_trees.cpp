#include "calltree/drained_trees.h"

#include <algorithm>
#include <atomic>
#include <utility>

#include "bn/calltree/frame_names.h"

namespace bn::agent {
namespace {

// Nodes.java's layout: eight longs a node.
constexpr std::size_t kNodeWords = 8;
constexpr std::size_t kSelf = 0, kCalls = 1, kLink = 2, kRefused = 7;
constexpr std::int64_t kOverflow = 1;  // Nodes.OVERFLOW; Nodes.REFUSED is its word kRefused
constexpr std::int64_t kFirst = 2;     // Nodes.FIRST: the root and the overflow node

// A word the owning thread may be writing right now (a count). Its reads race with the owner's
// plain stores (Unsafe.putLong), so they go through an atomic: a plain read would be a data race,
// undefined behaviour the compiler may turn into a torn or repeated read. Relaxed is enough: an
// aligned long is read whole (a plain load on x86-64), and a stale value is "no increment yet",
// which the next flush catches up on.
std::int64_t racy(const std::int64_t* word) {
  return std::atomic_ref<std::int64_t>(*const_cast<std::int64_t*>(word)).load(std::memory_order_relaxed);
}

// A node's parent and method, from its LINK word. Written before the count the snapshot read that
// covers the node (a volatile read of a volatile write, in Java, on this thread before this call),
// and never changed: a plain read.
struct Link {
  std::uint32_t parent;
  std::uint32_t method;
};

Link link_of(const std::int64_t* words, std::size_t node) {
  const std::int64_t link = words[node * kNodeWords + kLink];
  return Link{static_cast<std::uint32_t>(link), static_cast<std::uint32_t>(static_cast<std::uint64_t>(link) >> 32)};
}

Status bad_node(std::size_t node, std::int64_t serial) {
  return Status::error("call trees: node " + std::to_string(node) + " of thread " + std::to_string(serial) +
                       " names an unknown parent or method");
}

}  // namespace

void DrainedTrees::start(std::span<const TreeView> trees, const std::vector<std::string>& names, TreeMemory& memory) {
  earlier_names_ = names;
  methods_.assign(names.size(), calltree::kNoMethod);
  for (const TreeView& view : trees) {
    if (view.dead) {  // ended before this recording: nothing of it is this recording's
      memory.release(view.base);
      continue;
    }
    const auto* words = reinterpret_cast<const std::int64_t*>(view.base);
    const std::size_t count = std::max(static_cast<std::size_t>(view.count), static_cast<std::size_t>(kFirst));
    Reported& r = threads_[view.serial];
    r.before_start = true;
    r.nodes.resize(count, calltree::kNoNode);
    r.nodes[0] = calltree::kRootNode;
    r.calls.resize(count, 0);
    r.nanos.resize(count, 0);
    for (std::size_t node = 1; node < count; ++node) {
      r.calls[node] = racy(&words[node * kNodeWords + kCalls]);
      r.nanos[node] = racy(&words[node * kNodeWords + kSelf]);
    }
    r.refused = racy(&words[kOverflow * kNodeWords + kRefused]);
  }
}

Status DrainedTrees::merge(std::span<const TreeView> trees, const std::vector<std::string>& new_names, FrameTree& tree,
                           TreeMemory& memory) {
  for (const std::string& name : new_names) methods_.push_back(tree.intern(calltree::normalize_frame(name)));
  // A bad tree (a bug, never seen) stops only its own merge: the others still report this flush,
  // and every ended thread's region is still released (Java has already dropped the thread, so
  // nobody would ask again). The first error is returned.
  Status first_error;
  for (const TreeView& view : trees) {
    auto [it, inserted] = threads_.try_emplace(view.serial);
    if (inserted) {
      ++threads_seen_;
      it->second.nodes.push_back(calltree::kRootNode);
      it->second.nodes.push_back(calltree::kNoNode);
      it->second.calls.resize(kFirst, 0);
      it->second.nanos.resize(kFirst, 0);
    }
    const Status s = merge_one(view, it->second, tree);
    if (view.dead) {
      memory.release(view.base);
      threads_.erase(it);
      ++threads_ended_;
    }
    if (!s.ok() && first_error.ok()) first_error = s;
  }
  return first_error;
}

calltree::MethodId DrainedTrees::method(std::uint32_t id, FrameTree& tree) {
  if (methods_[id] == calltree::kNoMethod) methods_[id] = tree.intern(calltree::normalize_frame(earlier_names_[id]));
  return methods_[id];
}

calltree::NodeId DrainedTrees::mapped(const std::int64_t* words, std::size_t node, Reported& r, FrameTree& tree) {
  // The unmapped nodes from `node` up to the first mapped one (the root at the latest), then
  // mapped from the top: a parent before its children.
  std::vector<std::pair<std::size_t, Link>> unmapped;
  for (std::size_t n = node; r.nodes[n] == calltree::kNoNode;) {
    const Link link = link_of(words, n);
    if (link.parent >= n || link.parent == kOverflow || link.method >= methods_.size()) return calltree::kNoNode;
    unmapped.emplace_back(n, link);
    n = link.parent;
  }
  for (auto it = unmapped.rbegin(); it != unmapped.rend(); ++it)
    r.nodes[it->first] = tree.child(r.nodes[it->second.parent], method(it->second.method, tree));
  return r.nodes[node];
}

Status DrainedTrees::merge_one(const TreeView& view, Reported& r, FrameTree& tree) {
  const auto* words = reinterpret_cast<const std::int64_t*>(view.base);
  const auto count = static_cast<std::size_t>(view.count);
  // New nodes, in id order, each after its parent (mapped now if it was there before start()).
  for (std::size_t node = r.nodes.size(); node < count; ++node) {
    const Link link = link_of(words, node);
    if (link.parent >= node || link.parent == kOverflow || link.method >= methods_.size())
      return bad_node(node, view.serial);
    const calltree::NodeId parent =
        r.nodes[link.parent] != calltree::kNoNode ? r.nodes[link.parent] : mapped(words, link.parent, r, tree);
    if (parent == calltree::kNoNode) return bad_node(link.parent, view.serial);
    r.nodes.push_back(tree.child(parent, method(link.method, tree)));
  }
  r.calls.resize(count, 0);
  r.nanos.resize(count, 0);
  // Every node's counts, to find what changed since the last flush.
  for (std::size_t node = 1; node < count; ++node) {
    const std::int64_t calls = racy(&words[node * kNodeWords + kCalls]);
    const std::int64_t nanos = racy(&words[node * kNodeWords + kSelf]);
    // A value read stale (below what an earlier flush saw) is no increment yet.
    const calltree::Cost dc = calls > r.calls[node] ? calls - r.calls[node] : 0;
    const calltree::Cost dt = nanos > r.nanos[node] ? nanos - r.nanos[node] : 0;
    if (dc == 0 && dt == 0) continue;
    if (r.nodes[node] == calltree::kNoNode) {
      if (node == kOverflow) {  // the overflow node's first call
        r.nodes[node] = tree.child(calltree::kRootNode, tree.intern(kTreeFull));
        ++full_threads_;
      } else if (mapped(words, node, r, tree) == calltree::kNoNode) {  // a node from before start()
        return bad_node(node, view.serial);
      }
    }
    if (r.before_start) {  // a thread of the baseline is this recording's once it gains counts
      r.before_start = false;
      ++threads_seen_;
    }
    tree.add_cost(r.nodes[node], first_metric_ + kTimeMetric, dt);
    tree.add_cost(r.nodes[node], first_metric_ + kCallsMetric, dc);
    r.calls[node] += dc;
    r.nanos[node] += dt;
    calls_ += static_cast<std::uint64_t>(dc);
    if (node == kOverflow) full_calls_ += static_cast<std::uint64_t>(dc);
  }
  const std::int64_t refused = racy(&words[kOverflow * kNodeWords + kRefused]);
  if (refused > r.refused) {
    full_entries_ += static_cast<std::uint64_t>(refused - r.refused);
    r.refused = refused;
  }
  return Status();
}

}  // namespace bn::agent
