#pragma once
// The thread classes of a recording with how their time was spent (seed 000 sec. 5: "an
// initial window giving summary information about the thread classes that were observed"):
// instances, lifetime and the share of each type of time, under one model.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bn/calltree/call_tree.h"
#include "bn/calltree/sample_data.h"
#include "bn/iface/amount.h"
#include "bn/views/pseudo_names.h"
#include "bn/views/view_spec.h"

namespace bn::views {

struct ThreadClassRow {
  std::string name;
  bool jvm_service = false;  // every thread of it is one the JVM starts for itself (thread_classes.h)
  std::uint32_t threads = 0;
  std::uint64_t instances = 0;
  // Average over its threads of the time from their first to their last record.
  std::int64_t lifetime_ns = 0;
  // Its instances' time of each type (kAllTimeTypes order), as the Thread View counts it:
  // numerators over ThreadTable::denominator; `total` is their sum.
  std::array<iface::Amount, kTimeTypes> time{};
  iface::Amount total = 0;
};

struct ThreadTable {
  Grouping grouping = Grouping::by_class;
  Model model;
  std::string model_why;             // as the view header says it
  iface::Amount denominator = 1;     // of every row's time and total
  std::vector<ThreadClassRow> rows;  // the program's first, then JVM service threads; each by instances, name
  std::vector<std::string> notes;    // what the recording lacks, as in a view's header
};

// Throws bn::Error as build_view does: no records, a model the recording cannot support,
// invalid records, or exact sums beyond 126 bits.
ThreadTable thread_table(const calltree::CallTree& recorded, const calltree::SampleData& samples, Grouping grouping,
                         const std::optional<Model>& model);

}  // namespace bn::views
