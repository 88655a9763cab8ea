#pragma once
// Writes a view's measurements into a new call tree: the recorded stack of a thread instance
// (node ids of the recorded tree), then the typed-time pseudo-method, then its refinement: a
// :THREAD node, and below :MONITOR's the holder's own stack at that tick (pseudo_names.h).
// Stacks are copied from the recorded tree once each, however many instances share them.
// Every name the view adds is marked as refining the time of the frame above it (call_tree.h),
// so that a method's base holds the typed time below it: they split its time by kind, they
// are not calls (seed 000 sec. 4).

#include <cstdint>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "bn/calltree/call_tree.h"
#include "bn/calltree/sample_data.h"
#include "bn/calltree/tree_builder.h"
#include "bn/views/thread_classes.h"
#include "typed_time.h"

namespace bn::views::detail {

class ViewTree {
 public:
  ViewTree(const calltree::CallTree& recorded, const calltree::SampleData& samples, const ThreadClasses& classes);

  // The copy of a recorded stack node.
  calltree::NodeId stack(calltree::NodeId recorded_node);
  // The node a measurement of record `r` goes to: its stack, the part's typed time (unless
  // `typed` is false, for the tree view of running time) and the part's refinement.
  calltree::NodeId measurement(const calltree::SampleRecord& r, const Part& part, bool typed);
  void add(calltree::NodeId node, calltree::Cost cost) { builder_.add_cost(node, cost); }

  calltree::CallTree build(calltree::Metadata metadata) && {
    return std::move(builder_).build(std::move(metadata)).with_refining_methods(std::move(refining_));
  }

 private:
  calltree::NodeId refinement(calltree::NodeId typed, const Part& part);
  calltree::NodeId holder_stack(calltree::NodeId below, calltree::NodeId holder_leaf);
  calltree::MethodId name_of_class(std::uint32_t thread_class);
  // Interns one of the names the view adds (pseudo_names.h), marked as refining.
  calltree::MethodId intern_refining(std::string_view name);

  const calltree::CallTree& recorded_;
  const calltree::SampleData& samples_;
  const ThreadClasses& classes_;
  calltree::TreeBuilder builder_;
  std::vector<calltree::NodeId> copy_;             // recorded node -> its copy, kNoNode until made
  std::vector<calltree::MethodId> method_;         // recorded method -> view method id
  std::vector<calltree::MethodId> holder_method_;  // recorded method -> "@method"
  std::vector<calltree::MethodId> class_method_;   // thread class -> ":THREAD class"
  std::array<calltree::MethodId, kTimeTypes> typed_{};
  calltree::MethodId unknown_ = calltree::kNoMethod;
  // (node below which a holder's stack goes, the holder's recorded leaf) -> its last node.
  std::unordered_map<std::uint64_t, calltree::NodeId> holder_leaf_;
  std::vector<calltree::NodeId> path_;  // scratch
  std::vector<bool> refining_;          // by view method id: the names the view adds
};

}  // namespace bn::views::detail
