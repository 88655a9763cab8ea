#pragma once
// Merges what the per-thread trees of mode=calltree gained (Registry.drain(), four values a
// record) into the agent's FrameTree: every thread's calling contexts into one tree, so the same
// path run by several threads is one node with their calls and times added (seed 004 sec. 3: a
// call tree of calling contexts). Metric 0 is exclusive nanoseconds, metric 1 calls.
//
// Keeps, per live thread, its tree's node ids mapped to the FrameTree's, and the Java method ids
// mapped to names; a thread's map is dropped with its ENDED record.

#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "bn/calltree/types.h"
#include "frame_tree.h"
#include "status.h"

namespace bn::agent {

class DrainedTrees {
 public:
  static constexpr std::size_t kTimeMetric = 0;
  static constexpr std::size_t kCallsMetric = 1;

  // One batch of a flush's records. `new_names`: the methods registered since the previous merge
  // (ids continue), `pkg.Class.m`. Sets *done at the flush's DONE record. A record that names an
  // unknown thread, node or method is refused (a bug, not a program's doing): the error says which.
  Status merge(std::span<const std::int64_t> records, const std::vector<std::string>& new_names, FrameTree& tree,
               bool* done);

  std::uint64_t threads_seen() const { return threads_seen_; }
  std::uint64_t threads_ended() const { return threads_ended_; }
  std::uint64_t calls() const { return calls_; }

 private:
  std::vector<calltree::MethodId> methods_;                                  // Java method id -> FrameTree method
  std::unordered_map<std::int64_t, std::vector<calltree::NodeId>> threads_;  // serial -> local node -> node
  std::uint64_t threads_seen_ = 0;
  std::uint64_t threads_ended_ = 0;
  std::uint64_t calls_ = 0;
};

}  // namespace bn::agent
