#pragma once
// Accumulates call paths of one or two runs into one part of a picture (flame_graph.h): a trie
// keyed by (parent frame, name), turned into preorder arrays by finish(), which also bounds the
// output: frames narrower than a share of the root are merged into one frame per parent.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "bn/flame/flame_graph.h"

namespace bn::flame {

// Names shared by the parts of one picture.
class NameTable {
 public:
  std::uint32_t intern(std::string_view name);
  std::optional<std::uint32_t> find(std::string_view name) const;
  std::vector<std::string> take() &&;
  const std::string& operator[](std::uint32_t id) const { return *names_[id]; }

 private:
  std::vector<std::unique_ptr<std::string>> names_;          // stable addresses for ids_
  std::unordered_map<std::string_view, std::uint32_t> ids_;  // views into names_'s strings
};

class PartBuilder {
 public:
  static constexpr std::uint32_t kRoot = 0;
  PartBuilder(std::uint32_t root_name, bool comparison);

  // The frame for `name` called from `frame`, made on first use.
  std::uint32_t child(std::uint32_t frame, std::uint32_t name);
  // Adds to a frame's costs in run `side` (0: A, 1: B) and marks the frame as present there.
  void add(std::uint32_t frame, int side, Amount total, Amount self);

  // Preorder arrays, siblings in name order (flame-graph convention: position means nothing).
  // With min_width > 0, the children of a frame narrower than min_width × the root's width
  // (|A| + |B| in a comparison) become one frame named "[N frames merged]" (N counts their
  // subtrees too), added to `merged`; exact costs are kept, only the structure is lost.
  FlamePart finish(NameTable& names, double min_width, std::uint64_t& merged) const;

 private:
  struct Frame {
    std::uint32_t name;
    Amount total[2] = {0, 0};
    Amount self[2] = {0, 0};
    std::uint8_t presence = 0;
  };
  std::vector<Frame> frames_;
  std::unordered_map<std::uint64_t, std::uint32_t> children_;  // (parent << 32 | name) -> frame
  bool comparison_;
};

}  // namespace bn::flame
