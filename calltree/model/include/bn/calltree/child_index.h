#pragma once
// The map (parent node, method) → child node that TreeBuilder consults for every frame it
// adds. Open addressing with linear probing over one flat array: imports of multi-million-node
// trees spent most of their time allocating and rehashing std::unordered_map nodes.

#include <bit>
#include <cstdint>
#include <vector>

#include "bn/calltree/types.h"

namespace bn::calltree {

class ChildIndex {
 public:
  ChildIndex() : slots_(kInitialSlots) {}

  // The child of `parent` labelled `method`, or kNoNode.
  NodeId find(NodeId parent, MethodId method) const {
    const std::uint64_t k = key(parent, method);
    for (std::size_t i = slot_of(k);; i = (i + 1) & mask()) {
      if (slots_[i].key == k) return slots_[i].child;
      if (slots_[i].key == kEmpty) return kNoNode;
    }
  }
  // Records a child that find() did not return.
  void insert(NodeId parent, MethodId method, NodeId child) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    place(key(parent, method), child);
    ++size_;
  }
  void clear() {
    slots_ = std::vector<Slot>(kInitialSlots);
    size_ = 0;
  }

 private:
  struct Slot {
    std::uint64_t key = kEmpty;
    NodeId child = kNoNode;
  };
  // No real key is all ones: the root (node 0) never has kNoMethod children.
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
  static constexpr std::size_t kInitialSlots = 1024;  // a power of two

  static std::uint64_t key(NodeId parent, MethodId method) { return (std::uint64_t{parent} << 32) | method; }
  std::size_t mask() const { return slots_.size() - 1; }
  std::size_t slot_of(std::uint64_t k) const {
    // Fibonacci hashing spreads the structured keys over the table: the product's top bits, which
    // depend on every bit of the key. Bits from 20 up, as this took before, depended on the method
    // alone below bit 32, so a method met in a million calling contexts had its keys crowd into a
    // few thousand runs of slots (a real javac tree: 400 ns per new node in the agent's flusher).
    return static_cast<std::size_t>((k * 0x9E3779B97F4A7C15ull) >> (64 - std::countr_zero(slots_.size())));
  }
  void place(std::uint64_t k, NodeId child) {
    std::size_t i = slot_of(k);
    while (slots_[i].key != kEmpty) i = (i + 1) & mask();
    slots_[i] = {k, child};
  }
  void grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    for (const Slot& s : old)
      if (s.key != kEmpty) place(s.key, s.child);
  }

  std::vector<Slot> slots_;
  std::size_t size_ = 0;
};

}  // namespace bn::calltree
