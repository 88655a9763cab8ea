#include "pattern_matcher.h"

#include <algorithm>
#include <bit>
#include <string>

#include "bn/base/error.h"

namespace bn::calltree {

using Kind = iface::PatternElement::Kind;

PatternMatcher::PatternMatcher(const CallTree& tree, const iface::CallPattern& pattern)
    : tree_(tree), matches_(tree.method_count(), 0) {
  iface::check_call_pattern(pattern);
  // A plain sequence may be longer than the bits of a state; its matches are searched by paths.
  const auto calls = std::count_if(pattern.elements.begin(), pattern.elements.end(),
                                   [](const iface::PatternElement& e) { return e.kind != Kind::gap; });
  if (static_cast<std::size_t>(calls) > iface::kMaxPatternCalls)
    throw Error("call sequence '" + pattern.text() + "': more than " + std::to_string(iface::kMaxPatternCalls) +
                " calls to match at once");
  std::uint32_t call = 0;
  std::uint64_t segment = 0;
  const auto close_segment = [&] {
    segment_calls_.push_back(segment);
    segment_first_.push_back(segment & -segment);             // lowest bit
    segment_last_.push_back(std::uint64_t{1} << (call - 1));  // highest bit
    segment = 0;
  };
  for (const iface::PatternElement& e : pattern.elements) {
    if (e.kind == Kind::gap) {
      gap_after_ |= std::uint64_t{1} << (call - 1);
      close_segment();
      continue;
    }
    const std::uint64_t bit = std::uint64_t{1} << call;
    if (e.kind == Kind::method) {
      if (const auto m = tree.find_method(e.name)) matches_[*m] |= bit;
    } else {
      for (MethodId m = 0; m < tree.method_count(); ++m)
        if (e.pattern->matches(tree.method_name(m))) matches_[m] |= bit;  // read only at nodes of m
    }
    segment |= bit;
    ++call;
  }
  close_segment();
  last_call_ = std::uint64_t{1} << (call - 1);
}

std::uint32_t PatternMatcher::segment_length(std::size_t segment) const {
  return static_cast<std::uint32_t>(std::popcount(segment_calls_[segment]));
}

// The latest frame j such that the middle segments 1..last-1 fit, in order with gaps, between
// j and `start` (frames j + 1 .. start - 1 of `path`, path[d] being the frame at depth d), or 0
// if they do not fit at all. Placing each segment at its latest start, from the last one up,
// leaves the most room above (the mirror of the forward scan's earliest ends).
std::uint32_t PatternMatcher::latest_room_above(std::span<const NodeId> path, std::uint32_t start) const {
  std::uint32_t limit = start - 1;  // the lowest frame the next segment up may end at
  for (std::size_t k = segment_calls_.size() - 1; k-- > 1;) {
    const std::uint32_t length = segment_length(k);
    const auto first_call = static_cast<std::uint32_t>(std::countr_zero(segment_first_[k]));
    bool placed = false;
    for (std::uint32_t end = limit; end >= length && !placed; --end) {
      placed = true;
      for (std::uint32_t i = 0; i < length && placed; ++i)
        placed = matches_frame(path[end - length + 1 + i], std::uint64_t{1} << (first_call + i));
      if (placed) limit = end - length;
    }
    if (!placed) return 0;
  }
  return limit;
}

// x;P's first segment is x followed by P's first segment S0; its later segments are P's. On one
// stack, x;P matches its first segment at the earliest end j_x of an occurrence of S0 whose
// frame above is x (the forward scan's greedy), and a match of x;P ends at a node iff P's last
// segment ends there starting below where the middle segments, placed greedily after j_x, end.
// That holds iff j_x is at most latest_room_above(start of the last segment), so per node the
// x that qualify are those whose earliest S0 ends lie highest: a prefix of the list of first
// S0 ends on the path, kept in depth order. With no gap in P, the one segment is x;S0 itself
// and the x is the frame above S0's start.
void PatternMatcher::scan_top_extensions(const std::function<void(MethodId x, NodeId node)>& visit,
                                         const std::vector<char>* above_x) const {
  const std::size_t last_segment = segment_calls_.size() - 1;
  const std::uint32_t first_length = segment_length(0), last_length = segment_length(last_segment);
  struct FirstEnd {
    std::uint32_t depth;
    MethodId x;
  };
  std::vector<FirstEnd> first_ends;                                  // on the current path, by depth
  std::vector<std::uint32_t> first_end_of(tree_.method_count(), 0);  // per x: its entry's depth, 0 if none
  std::vector<NodeId> path(2, kRootNode);
  std::vector<std::uint64_t> first_prefixes(2, 0), last_prefixes(2, 0);  // every occurrence, any start
  std::vector<std::uint32_t> room(2, 0);                                 // latest_room_above(d), cached
  std::vector<NodeId> room_for(2, kRootNode);                            // ... for the path through this node at d - 1
  for (NodeId n = 1; n < tree_.node_count(); ++n) {
    const std::uint32_t d = tree_.depth(n);
    if (d >= path.size()) {
      const std::size_t size = path.size() * 2;
      path.resize(size, kRootNode);
      first_prefixes.resize(size, 0);
      last_prefixes.resize(size, 0);
      room.resize(size, 0);
      room_for.resize(size, kRootNode);
    }
    path[d] = n;
    while (!first_ends.empty() && first_ends.back().depth >= d) {
      first_end_of[first_ends.back().x] = 0;
      first_ends.pop_back();
    }
    const std::uint64_t here = matches_[tree_.method(n)];
    first_prefixes[d] = ((first_prefixes[d - 1] << 1) | segment_first_[0]) & segment_calls_[0] & here;
    const bool first_ends_here = (first_prefixes[d] & segment_last_[0]) != 0 && d > first_length &&
                                 (above_x == nullptr || (*above_x)[path[d - first_length - 1]] != 0);
    if (last_segment == 0) {
      if (first_ends_here) visit(tree_.method(path[d - first_length]), n);
      continue;
    }
    if (first_ends_here) {
      const MethodId x = tree_.method(path[d - first_length]);
      if (first_end_of[x] == 0) {
        first_end_of[x] = d;
        first_ends.push_back({d, x});
      }
    }
    const std::uint64_t last_first = segment_first_[last_segment];
    last_prefixes[d] = ((last_prefixes[d - 1] << 1) | last_first) & segment_calls_[last_segment] & here;
    if (!(last_prefixes[d] & segment_last_[last_segment]) || first_ends.empty()) continue;
    const std::uint32_t start = d - last_length + 1;
    if (room_for[start] != path[start - 1]) {
      room[start] = latest_room_above(path, start);
      room_for[start] = path[start - 1];
    }
    for (const FirstEnd& e : first_ends) {
      if (e.depth > room[start]) break;
      visit(e.x, n);
    }
  }
}

}  // namespace bn::calltree
