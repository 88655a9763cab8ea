#pragma once
// The closing walk's first part begun while a reader still decodes the table's costs. A file's
// COST chunk lists its nodes in increasing order (docs/profile-format.md), so once the decoder is
// past node k the costs below k are final, and the walk of those nodes (subtree sizes, cum-costs,
// the sibling check: closing_walk.h) needs nothing more. At 10M nodes one core idled for the ~20 ms
// of the COST chunk's decoding, then the walk took ~65 ms on two threads (bench/LOG.md,
// "The closing walk begun during the COST chunk").

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include "bn/calltree/types.h"
#include "bn/calltree/uninitialized_column.h"

namespace bn::calltree {

struct NodeTable;

// What the closing walk found.
struct ClosingWalk {
  bool preorder = false;          // every parent was on the path from the root: the table is in preorder
  bool repeated_sibling = false;  // some node has two children labelled alike
  bool negative = false;          // some cost is below zero
  // Some partial sum of a cum-cost passed 64 bits. With every cost >= 0 that happens exactly when
  // some node's cum-cost does, in any order of adding; with a negative cost it depends on the order.
  bool cum_overflow = false;
};

// A table's closing walk done ahead of CallTree::build, with the columns it wrote (meaningful when
// walk.preorder).
struct WalkedTable {
  ClosingWalk walk;
  UninitializedColumn<std::uint32_t> size;
  UninitializedColumn<Cost> cum;
};

class EarlyWalk {
 public:
  // Begins walking the first part of `table`, whose parents and methods are final and its costs
  // not yet, on a thread of its own: each node once the costs below it are final. nullptr for a
  // table walked on one thread. `table`'s columns must not move or change, but for costs not yet
  // said final, until finish, abandon or the destructor.
  static std::unique_ptr<EarlyWalk> begin(const NodeTable& table, std::size_t method_count);
  ~EarlyWalk();
  EarlyWalk(const EarlyWalk&) = delete;
  EarlyWalk& operator=(const EarlyWalk&) = delete;

  // The costs of the nodes below `node` are final (each call's node at least the one before).
  void costs_final_below(std::size_t node);
  // The costs will change otherwise than in node order, or the table will: the walk stops, and
  // nothing it found is kept.
  void abandon();
  // Every cost is final: walks the rest on this thread. nullopt if abandoned.
  std::optional<WalkedTable> finish();

  struct State;

 private:
  explicit EarlyWalk(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
  bool stopped_ = false;  // abandoned or finished
};

}  // namespace bn::calltree
