#pragma once
// The recorder's growing call tree: frames of every stack (outermost first) merged into one
// tree of calling contexts, and what was added since the last flush (new names, new nodes,
// cost increments of each metric), which is what the stream writer appends. Metric 0 is the
// profile's cost (the sampler's samples, the call-tree mode's exclusive time); an engine that
// records more (the call-tree mode's calls) asks for them when it builds the tree.
//
// jmethodIDs are resolved to names the moment a stack is taken and the name is cached: a
// jmethodID of an unloaded class must never be resolved later (JDK 17 crashes on stale ids at
// shutdown), and HotSpot never reuses a jmethodID for another method, so the cache stays right.

#include <jvmti.h>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bn/calltree/call_tree.h"
#include "bn/calltree/child_index.h"
#include "bn/calltree/types.h"
#include "core/remapped_array.h"

namespace bn::agent {

class FrameTree {
 public:
  // Whether the tree keeps each node's total cost (for build(): the sampler's snapshots) or only
  // what was added since the last take_pending() (the call-tree mode streams increments alone:
  // 8 bytes a node and metric fewer, first touched by its flusher; bench/LOG.md, "Tenth
  // round").
  enum class Totals { kKept, kDropped };
  explicit FrameTree(std::size_t metrics = 1, Totals totals = Totals::kKept);

  // Pseudo-frames, named like the paper's ":RUN" pseudo-methods so they never clash with Java.
  static constexpr std::string_view kTruncated = "[truncated]";  // outer frames cut by depth=
  static constexpr std::string_view kNoJavaFrames = "[no Java frames]";

  // Name of a method, resolved through JVMTI on first sight; kNoMethod if the id is invalid.
  calltree::MethodId method(jvmtiEnv* jvmti, jmethodID id);
  calltree::MethodId intern(std::string_view name);
  calltree::NodeId child(calltree::NodeId parent, calltree::MethodId method);
  void add_sample(calltree::NodeId node) { add_cost(node, 0, 1); }
  // Adds `amount` to the node's cost in `metric` (below the metric count given at construction).
  void add_cost(calltree::NodeId node, std::size_t metric, calltree::Cost amount);
  std::size_t metrics() const { return columns_.size(); }

  using Increments = std::vector<std::pair<calltree::NodeId, calltree::Cost>>;
  // Since the last take_pending(): new strings (ids continue from the previous ones), new nodes
  // (parent, method; ids continue) and cost increments (costs: metric 0; more_costs[m - 1]:
  // metric m). The new nodes are the tree's own columns, not copies (a copy was fresh pages of
  // 8 bytes per new node at each flush): valid until the next child().
  struct Pending {
    std::vector<std::string> strings;
    std::span<const calltree::NodeId> parents;
    std::span<const calltree::MethodId> methods;
    Increments costs;
    std::vector<Increments> more_costs;
  };
  // Fills `into` (its vectors cleared, their memory kept: a flush of a large call tree moves
  // hundreds of MB, and fresh pages for them at every flush were a seventh of the call-tree
  // flusher's page zeroing; bench/LOG.md, "The flusher's fresh pages").
  void take_pending(Pending& into);
  // Nodes so far (the root not counted), and the parents of nodes first + 1, first + 2, ...:
  // what an engine's ancillary chunk that names nodes carries when other engines' flushes wrote
  // some of them (ProfileSink::flush). The tree's own column: valid until the next child().
  std::size_t nodes() const { return parents_.size(); }
  std::span<const calltree::NodeId> parents_from(std::size_t first) const {
    return {parents_.begin() + first, parents_.end()};
  }

  // The whole tree so far with metric 0's costs (for snapshots). Throws std::logic_error for a
  // tree made with Totals::kDropped.
  calltree::CallTree build(calltree::Metadata metadata) const;

 private:
  std::unordered_map<jmethodID, calltree::MethodId> methods_;
  std::unordered_map<std::string, calltree::MethodId> ids_;
  std::vector<std::string> names_;
  // The growing columns are RemappedArrays: a std::vector copied them into fresh pages at each
  // doubling, a tenth of the call-tree flusher's CPU on javac compiling its own sources
  // (bench/LOG.md, "Tenth round").
  RemappedArray<calltree::NodeId> parents_;  // index = file node id - 1
  RemappedArray<calltree::MethodId> node_methods_;
  // The children of each node, found by walking them from the node: a new node's parent is
  // nearly always a node made moments before, so the walk stays in the cache where a table
  // keyed by (parent, method) misses at every new node. javac compiling its own sources grows
  // tens of millions of calling contexts; std::unordered_map took a third of the JVM's CPU in the
  // flusher, a flat table still a quarter of the flusher's (docs/performance.md, "A real source
  // tree").
  // A node with more than kListedChildren children is "wide": its children are also in
  // wide_children_, so no walk is longer than that.
  static constexpr std::size_t kListedChildren = 8;
  RemappedArray<calltree::NodeId> first_child_;   // index = node (0 = root); kNoNode: none
  RemappedArray<calltree::NodeId> next_sibling_;  // index = node; kNoNode: the last
  std::vector<bool> wide_;                        // index = node
  calltree::ChildIndex wide_children_;
  // One metric's costs, index = file node id (0 = root): what was added since the last
  // take_pending(), the totals as of that take (Totals::kKept only; a node's total is the sum of
  // both), and the nodes whose pending cost was zero when it grew (a vector, not a map:
  // add_sample runs for every sample of every thread).
  struct Column {
    RemappedArray<calltree::Cost> pending;
    RemappedArray<calltree::Cost> flushed;
    std::vector<calltree::NodeId> touched;
    void take(Increments& into, Totals totals);
  };
  Totals totals_;
  std::vector<Column> columns_;
  std::size_t flushed_strings_ = 0;
  std::size_t flushed_nodes_ = 0;
};

}  // namespace bn::agent
