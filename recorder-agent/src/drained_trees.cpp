#include "drained_trees.h"

#include "bn/calltree/frame_names.h"

namespace bn::agent {
namespace {

// Record kinds, as Registry.java writes them.
constexpr std::int64_t kThread = 0, kNode = 1, kCost = 2, kEnded = 3, kDone = 4;

}  // namespace

Status DrainedTrees::merge(std::span<const std::int64_t> records, const std::vector<std::string>& new_names,
                           FrameTree& tree, bool* done) {
  *done = false;
  for (const std::string& name : new_names) methods_.push_back(tree.intern(calltree::normalize_frame(name)));
  if (records.size() % 4 != 0) return Status::error("drained call trees: a partial record");
  std::vector<calltree::NodeId>* nodes = nullptr;
  for (std::size_t i = 0; i < records.size(); i += 4) {
    const std::int64_t kind = records[i], a = records[i + 1], b = records[i + 2], c = records[i + 3];
    if (kind == kDone) {
      if (i + 4 != records.size()) return Status::error("drained call trees: records after the end of a flush");
      *done = true;
    } else if (kind == kThread) {
      auto [it, inserted] = threads_.try_emplace(a, std::vector<calltree::NodeId>{0});
      threads_seen_ += inserted ? 1 : 0;
      nodes = &it->second;
    } else if (nodes == nullptr) {
      return Status::error("drained call trees: a record before any thread");
    } else if (kind == kNode) {
      // Nodes come in id order, each after its parent.
      if (a != static_cast<std::int64_t>(nodes->size()) || b < 0 || b >= a || c < 0 ||
          c >= static_cast<std::int64_t>(methods_.size()))
        return Status::error("drained call trees: node " + std::to_string(a) + " out of order");
      nodes->push_back(tree.child((*nodes)[static_cast<std::size_t>(b)], methods_[static_cast<std::size_t>(c)]));
    } else if (kind == kCost) {
      if (a <= 0 || a >= static_cast<std::int64_t>(nodes->size()) || b < 0 || c < 0)
        return Status::error("drained call trees: a cost for unknown node " + std::to_string(a));
      const calltree::NodeId node = (*nodes)[static_cast<std::size_t>(a)];
      tree.add_cost(node, kTimeMetric, c);
      tree.add_cost(node, kCallsMetric, b);
      calls_ += static_cast<std::uint64_t>(b);
    } else if (kind == kEnded) {
      threads_.erase(a);
      nodes = nullptr;
      ++threads_ended_;
    } else {
      return Status::error("drained call trees: unknown record kind " + std::to_string(kind));
    }
  }
  return Status();
}

}  // namespace bn::agent
