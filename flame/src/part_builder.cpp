#include "part_builder.h"

#include <algorithm>

namespace bn::flame {

std::uint32_t NameTable::intern(std::string_view name) {
  if (const auto it = ids_.find(name); it != ids_.end()) return it->second;
  names_.push_back(std::make_unique<std::string>(name));
  const auto id = static_cast<std::uint32_t>(names_.size() - 1);
  ids_.emplace(*names_.back(), id);
  return id;
}

std::optional<std::uint32_t> NameTable::find(std::string_view name) const {
  const auto it = ids_.find(name);
  if (it == ids_.end()) return std::nullopt;
  return it->second;
}

std::vector<std::string> NameTable::take() && {
  std::vector<std::string> out;
  out.reserve(names_.size());
  for (auto& name : names_) out.push_back(std::move(*name));
  ids_.clear();
  names_.clear();
  return out;
}

PartBuilder::PartBuilder(std::uint32_t root_name, bool comparison) : comparison_(comparison) {
  frames_.push_back(Frame{.name = root_name});
}

std::uint32_t PartBuilder::child(std::uint32_t frame, std::uint32_t name) {
  const std::uint64_t key = (std::uint64_t{frame} << 32) | name;
  const auto [it, inserted] = children_.try_emplace(key, static_cast<std::uint32_t>(frames_.size()));
  if (inserted) frames_.push_back(Frame{.name = name});
  return it->second;
}

void PartBuilder::add(std::uint32_t frame, int side, Amount total, Amount self) {
  Frame& f = frames_[frame];
  f.total[side] += total;
  f.self[side] += self;
  f.presence |= side == 0 ? kInA : kInB;
}

namespace {

Amount width_of(const Amount total[2]) { return iface::abs_amount(total[0]) + iface::abs_amount(total[1]); }

}  // namespace

FlamePart PartBuilder::finish(NameTable& names, double min_width, std::uint64_t& merged) const {
  // Children lists, in name order.
  std::vector<std::vector<std::uint32_t>> kids(frames_.size());
  for (const auto& [key, frame] : children_) kids[key >> 32].push_back(frame);
  for (auto& list : kids)
    std::sort(list.begin(), list.end(),
              [&](std::uint32_t x, std::uint32_t y) { return names[frames_[x].name] < names[frames_[y].name]; });
  // Subtree sizes, for the count of merged frames: children have higher indices than parents.
  std::vector<std::uint64_t> size(frames_.size(), 1);
  for (std::size_t f = frames_.size(); f-- > 1;)
    for (const std::uint32_t c : kids[f]) size[f] += size[c];

  const Amount root_width = width_of(frames_[kRoot].total);
  const auto narrow = [&](std::uint32_t f) {
    return min_width > 0 &&
           static_cast<double>(width_of(frames_[f].total)) < min_width * static_cast<double>(root_width);
  };
  FlamePart part;
  const auto emit = [&](std::uint32_t name, std::uint32_t depth, const Amount total[2], const Amount self[2],
                        std::uint8_t presence) {
    part.name.push_back(name);
    part.depth.push_back(depth);
    part.total.push_back(total[0]);
    part.self.push_back(self[0]);
    if (comparison_) {
      part.b_total.push_back(total[1]);
      part.b_self.push_back(self[1]);
    }
    part.presence.push_back(presence);
  };
  // Iterative preorder: a frame, then its wide children, then one frame for the narrow ones.
  struct Merged {
    std::uint32_t name;
    Amount total[2];
    std::uint8_t presence;
  };
  std::vector<Merged> merged_frames;
  struct Visit {
    std::uint32_t frame;  // into frames_, or into merged_frames when `pseudo`
    std::uint32_t depth;
    bool pseudo;
  };
  std::vector<Visit> stack{{kRoot, 0, false}};
  while (!stack.empty()) {
    const Visit v = stack.back();
    stack.pop_back();
    if (v.pseudo) {
      // A merged frame has no children drawn, so its self is its total.
      const Merged& m = merged_frames[v.frame];
      emit(m.name, v.depth, m.total, m.total, m.presence);
      continue;
    }
    const Frame& f = frames_[v.frame];
    emit(f.name, v.depth, f.total, f.self, f.presence);
    Merged m{0, {0, 0}, 0};
    std::uint64_t count = 0;
    const std::size_t first_wide = stack.size();
    for (const std::uint32_t c : kids[v.frame]) {
      if (!narrow(c)) {
        stack.push_back({c, v.depth + 1, false});
        continue;
      }
      m.total[0] += frames_[c].total[0];
      m.total[1] += frames_[c].total[1];
      m.presence |= frames_[c].presence;
      count += size[c];
    }
    // Popped in name order.
    std::reverse(stack.begin() + static_cast<std::ptrdiff_t>(first_wide), stack.end());
    if (count > 0) {
      merged += count;
      m.name = names.intern("[" + std::to_string(count) + " frames merged]");
      merged_frames.push_back(m);
      stack.insert(stack.begin() + static_cast<std::ptrdiff_t>(first_wide),
                   {static_cast<std::uint32_t>(merged_frames.size() - 1), v.depth + 1, true});
    }
  }
  return part;
}

}  // namespace bn::flame
