#pragma once
// How far a table's costs are final, said by the thread that decodes them to the closing walk's
// thread that waits for them (EarlyWalk, bn/calltree/early_walk.h). Internal to bn_calltree_model.

#include <atomic>
#include <cstddef>
#include <limits>

namespace bn::calltree {

class FinalCosts {
 public:
  // What wait_past returns once the walk is abandoned: more than any node.
  static constexpr std::size_t kAbandoned = std::numeric_limits<std::size_t>::max();

  // Decoding thread: the costs of the nodes below `node` are final.
  void publish(std::size_t node) {
    final_below_.store(node, std::memory_order_release);
    final_below_.notify_all();
  }
  void abandon() { publish(kAbandoned); }

  // Walking thread: waits until the cost of `node` is final; returns how many nodes' costs are
  // (more than `node`), or kAbandoned.
  std::size_t wait_past(std::size_t node) const {
    std::size_t below = final_below_.load(std::memory_order_acquire);
    while (below <= node) {
      final_below_.wait(below, std::memory_order_acquire);
      below = final_below_.load(std::memory_order_acquire);
    }
    return below;
  }

 private:
  std::atomic<std::size_t> final_below_{0};
};

}  // namespace bn::calltree
