#pragma once
// Reading a slice of the store as profiles (docs/fleet.md, "Sources"): ClickHouse sums the
// values of every stack over the slice's recordings (GROUP BY on the server; on a cluster each
// shard sums its part through the Distributed tables), and only the sums, the trie nodes they
// need and their frames' names come back: the transfer grows with distinct stacks, not with
// samples or hosts. Pushes that never wrote their `recordings` row (cut short) are not read,
// and a recording pushed twice by racing clients is read once.

#include <string>
#include <vector>

#include "bn/calltree/call_tree.h"
#include "bn/fleet/clickhouse.h"

namespace bn::fleet {

struct SliceRun {
  std::string name;  // the URL, with " host=H" or " day=D" when the slice is split into runs
  calltree::CallTree tree;
};

// One profile for the slice, or one per host or day (url.runs_by), in name order. Metric 0 is
// cpu-time when the slice has it, so a fleet opens on CPU as a recording does; the other metrics
// follow in the order the recordings list them. Throws bn::Error for an empty slice (naming what
// the store has), a missing schema, an unreachable server, or an answer that is not a tree.
std::vector<SliceRun> read_slice(const ClickHouse& server);

}  // namespace bn::fleet
