#pragma once
// Merges what the per-thread trees of mode=calltree gained since the last flush into the agent's
// FrameTree: every thread's calling contexts into one tree, so the same path run by several
// threads is one node with their calls and times added (seed 004 sec. 3: a call tree of calling
// contexts). Its metrics are exclusive nanoseconds, then calls: the tree's metrics
// first_metric + kTimeMetric and first_metric + kCallsMetric.
//
// The trees are read in place, in the native memory the runtime writes them to
// (bottlenecks.runtime.Nodes: eight longs a node), from Registry.snapshot()'s list: per tree its
// serial, base address, node count and whether its thread has ended. Per live thread this keeps
// what was reported so far: its nodes' FrameTree ids and the counts already added (20 bytes per
// node). An ended thread's state is dropped and its region unmapped once its last nodes are read.
//
// One DrainedTrees per recording. The trees outlive a recording (CallTreeRuntime: frames still
// running instrumented code hold their nodes), so a later recording starts from a baseline
// (start()): the counts already in the trees are taken as reported, and a node that was there
// before gets into this recording's FrameTree only once it gains counts, its ancestors first, its
// method named from the names of every earlier recording.

#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "bn/agent/status.h"
#include "bn/calltree/types.h"
#include "calltree/tree_memory.h"
#include "core/frame_tree.h"
#include "core/remapped_array.h"

namespace bn::agent {

// One tree as Registry.snapshot() lists it.
struct TreeView {
  std::int64_t serial = 0;
  std::uintptr_t base = 0;
  std::int64_t count = 0;  // nodes [0, count) are complete: the count was read after they were written
  bool dead = false;       // the thread has ended: this is its last view
};

class DrainedTrees {
 public:
  static constexpr std::size_t kTimeMetric = 0;
  static constexpr std::size_t kCallsMetric = 1;
  // Node 1 of every tree (Nodes.OVERFLOW), named thus in the profile once it has a call.
  static constexpr std::string_view kTreeFull = "(call tree full)";

  // `first_metric`: where its metrics start among the tree's (those of the engines before it in
  // the recording come first).
  explicit DrainedTrees(std::size_t first_metric = 0) : first_metric_(first_metric) {}

  // The recording starts: what `trees` hold now is not reported, and `names` (every method
  // registered so far, by Java id) name their nodes once they gain counts. Before any merge.
  // Ended threads' regions are released to `memory`.
  void start(std::span<const TreeView> trees, const std::vector<std::string>& names, TreeMemory& memory);
  // One flush. `new_names`: the methods registered since the previous merge (ids continue),
  // `pkg.Class.m`. A node that names an unknown parent or method is refused (a bug, not a
  // program's doing): its tree's merge stops there, the other trees merge, and the first such
  // error is returned, saying which. Ended threads' regions are released to `memory`.
  Status merge(std::span<const TreeView> trees, const std::vector<std::string>& new_names, FrameTree& tree,
               TreeMemory& memory);

  std::uint64_t threads_seen() const { return threads_seen_; }
  std::uint64_t threads_ended() const { return threads_ended_; }
  std::uint64_t calls() const { return calls_; }
  // The overflow nodes': calls counted there, entries that found no room for a new node, and
  // threads whose tree filled.
  std::uint64_t full_calls() const { return full_calls_; }
  std::uint64_t full_entries() const { return full_entries_; }
  std::uint64_t full_threads() const { return full_threads_; }

 private:
  struct Reported {
    RemappedArray<calltree::NodeId> nodes;  // local node -> FrameTree node (kNoNode: the overflow node, until used)
    RemappedArray<calltree::Cost> calls;    // counts added so far, per local node
    RemappedArray<calltree::Cost> nanos;
    calltree::Cost refused = 0;
    bool before_start = false;  // in start()'s baseline, and no counts gained since
  };
  Status merge_one(const TreeView& view, Reported& reported, FrameTree& tree);
  // The FrameTree node of local node `node` (not the overflow node), mapped now if it is not yet,
  // its unmapped ancestors first; kNoNode if a link names an unknown parent or method.
  calltree::NodeId mapped(const std::int64_t* words, std::size_t node, Reported& reported, FrameTree& tree);
  // The FrameTree method of a Java method id below methods_.size(); an earlier recording's
  // (start()) is interned at its first use.
  calltree::MethodId method(std::uint32_t id, FrameTree& tree);

  std::size_t first_metric_;
  std::vector<calltree::MethodId> methods_;  // Java method id -> FrameTree method (kNoMethod: not yet interned)
  std::vector<std::string> earlier_names_;   // start()'s names, by Java id, until interned
  std::unordered_map<std::int64_t, Reported> threads_;  // serial -> what was reported
  std::uint64_t threads_seen_ = 0;
  std::uint64_t threads_ended_ = 0;
  std::uint64_t calls_ = 0;
  std::uint64_t full_calls_ = 0;
  std::uint64_t full_entries_ = 0;
  std::uint64_t full_threads_ = 0;
};

}  // namespace bn::agent
