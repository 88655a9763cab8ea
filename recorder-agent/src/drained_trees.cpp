#include "drained_trees.h"

#include <atomic>

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

}  // namespace

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

Status DrainedTrees::merge_one(const TreeView& view, Reported& r, FrameTree& tree) {
  const auto* words = reinterpret_cast<const std::int64_t*>(view.base);
  const auto count = static_cast<std::size_t>(view.count);
  // New nodes, in id order, each after its parent. Their LINK words were written before the
  // count the snapshot read (a volatile read of a volatile write, in Java, on this thread before
  // this call), and never change: plain reads.
  for (std::size_t node = r.nodes.size(); node < count; ++node) {
    const std::int64_t link = words[node * kNodeWords + kLink];
    const auto parent = static_cast<std::uint32_t>(link);
    const auto method = static_cast<std::uint32_t>(static_cast<std::uint64_t>(link) >> 32);
    if (parent >= node || parent == kOverflow || method >= methods_.size())
      return Status::error("call trees: node " + std::to_string(node) + " of thread " + std::to_string(view.serial) +
                           " names an unknown parent or method");
    r.nodes.push_back(tree.child(r.nodes[parent], methods_[method]));
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
    if (r.nodes[node] == calltree::kNoNode) {  // the overflow node's first call
      r.nodes[node] = tree.child(calltree::kRootNode, tree.intern(kTreeFull));
      ++full_threads_;
    }
    tree.add_cost(r.nodes[node], kTimeMetric, dt);
    tree.add_cost(r.nodes[node], kCallsMetric, dc);
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
