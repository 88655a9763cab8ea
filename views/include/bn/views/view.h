#pragma once
// A view of one recording as a weighted call tree (seed 000 sec. 4-5): every thread instance's
// stack extended below its leaf by its typed time (pseudo_names.h) and the refinements below
// that, each measurement weighted by the hits Table 1 gives it. The call-tree backend evaluated
// over this tree gives CPPROFJ's cost of every call path: cum([.., M]) sums the measurements of
// the instances whose stack holds the path, which is MAPCP (sec. 5.2) with Table 1's hits.
// The names the view adds refine their frame's time (CallTree::base_cost): the base of a method
// is its own time, the typed time below it included, so HighBase ranks methods, not leaves.
//
// Costs are exact: the fractional hits are integer numerators over one common denominator D
// (the lcm of the denominators that occur; 1 under the measured model, which counts whole
// nanoseconds), and the view's normalisation (the number of samples for the Server View, of the
// class's instances for a Thread View, or their measured nanoseconds) is a factor of the
// denominator only: a node's cost means cost / denominator.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bn/calltree/call_tree.h"
#include "bn/calltree/sample_data.h"
#include "bn/iface/amount.h"
#include "bn/views/view_spec.h"

namespace bn::views {

struct View {
  ViewSpec spec;  // as asked, with the model filled in
  calltree::CallTree tree;
  // Of the tree's costs: D times the normalisation. Positive.
  iface::Amount denominator = 1;
  // The numerator of one sample's hit (D), or 0 when costs are not sample counts (measured
  // nanoseconds): below 10 of these an estimate is unreliable (seed 000 sec. 5.1).
  iface::Amount hit = 0;
  // What the view shows, the model in force and why, and what the recording lacks; for headers.
  std::vector<std::string> header;
};

// True when the recording has per-sample records (made by the agent); the views need them.
bool has_records(const calltree::SampleData& samples);

// Builds the view `spec` asks for, except the plain tree (kind tree, states all), which is the
// recorded tree itself. A thread class is named exactly or by a prefix only it has. Throws
// bn::Error with one line naming the cause: no records, an unknown or ambiguous thread class
// (listing the candidates), a model the recording cannot support, invalid records,
// or costs that would need more than 64 bits over the common denominator.
View build_view(const calltree::CallTree& recorded, const calltree::SampleData& samples, const ViewSpec& spec);

}  // namespace bn::views
