#pragma once
// The recorder's growing call tree: frames of every stack (outermost first) merged into one
// tree of calling contexts, and what was added since the last flush (new names, new nodes,
// sample counts), which is what the stream writer appends.
//
// jmethodIDs are resolved to names the moment a stack is taken and the name is cached: a
// jmethodID of an unloaded class must never be resolved later (JDK 17 crashes on stale ids at
// shutdown), and HotSpot never reuses a jmethodID for another method, so the cache stays right.

#include <jvmti.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bn/calltree/call_tree.h"
#include "bn/calltree/types.h"

namespace bn::agent {

class FrameTree {
 public:
  // Pseudo-frames, named like the paper's ":RUN" pseudo-methods so they never clash with Java.
  static constexpr std::string_view kTruncated = "[truncated]";  // outer frames cut by depth=
  static constexpr std::string_view kNoJavaFrames = "[no Java frames]";

  // Name of a method, resolved through JVMTI on first sight; kNoMethod if the id is invalid.
  calltree::MethodId method(jvmtiEnv* jvmti, jmethodID id);
  calltree::MethodId intern(std::string_view name);
  calltree::NodeId child(calltree::NodeId parent, calltree::MethodId method);
  void add_sample(calltree::NodeId node);

  // Since the last take_pending(): new strings (ids continue from the previous ones), new nodes
  // (parent, method; ids continue) and cost increments.
  struct Pending {
    std::vector<std::string> strings;
    std::vector<calltree::NodeId> parents;
    std::vector<calltree::MethodId> methods;
    std::vector<std::pair<calltree::NodeId, calltree::Cost>> costs;
  };
  Pending take_pending();

  // The whole tree so far (for snapshots).
  calltree::CallTree build(calltree::Metadata metadata) const;

 private:
  std::unordered_map<jmethodID, calltree::MethodId> methods_;
  std::unordered_map<std::string, calltree::MethodId> ids_;
  std::vector<std::string> names_;
  std::unordered_map<std::uint64_t, calltree::NodeId> children_;
  std::vector<calltree::NodeId> parents_;  // index = file node id - 1
  std::vector<calltree::MethodId> node_methods_;
  std::vector<calltree::Cost> costs_;  // index = file node id (0 = root)
  // Costs as of the last take_pending(), and the nodes whose cost has grown since (a vector,
  // not a map: add_sample runs for every sample of every thread).
  std::vector<calltree::Cost> flushed_costs_;
  std::vector<calltree::NodeId> touched_;
  std::size_t flushed_strings_ = 0;
  std::size_t flushed_nodes_ = 0;
};

}  // namespace bn::agent
