#include "competition.h"

#include <algorithm>

namespace bn::views::detail {

void Competition::reset(std::span<const calltree::SampleRecord> records, std::span<const std::uint8_t> runnable,
                        std::span<const std::uint32_t> class_of_thread) {
  levels_.clear();
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (!runnable[i]) continue;
    const calltree::SampleRecord& r = records[i];
    // A tick has few distinct nice values (usually one), so a linear search beats a map.
    auto it = std::find_if(levels_.begin(), levels_.end(), [&](const Level& l) { return l.nice == r.nice; });
    if (it == levels_.end()) it = levels_.insert(levels_.end(), Level{r.nice, 0, 0, {}});
    ++it->e;
    const std::uint32_t c = class_of_thread[r.thread];
    auto cls = std::find_if(it->classes.begin(), it->classes.end(), [&](const auto& p) { return p.first == c; });
    if (cls == it->classes.end())
      it->classes.emplace_back(c, 1);
    else
      ++cls->second;
  }
  std::sort(levels_.begin(), levels_.end(), [](const Level& a, const Level& b) { return a.nice < b.nice; });
  std::uint32_t above = 0;
  for (Level& l : levels_) {
    std::sort(l.classes.begin(), l.classes.end());
    l.higher = above;
    above += l.e;
  }
  prio_.assign(levels_.size() + 1, {});
  prio_done_.assign(levels_.size() + 1, 0);
}

std::size_t Competition::position(std::int32_t v) const {
  return static_cast<std::size_t>(
      std::lower_bound(levels_.begin(), levels_.end(), v, [](const Level& l, std::int32_t x) { return l.nice < x; }) -
      levels_.begin());
}

const Competition::Level* Competition::level(std::int32_t v) const {
  const std::size_t p = position(v);
  return p < levels_.size() && levels_[p].nice == v ? &levels_[p] : nullptr;
}

std::uint32_t Competition::higher(std::int32_t v) const {
  const std::size_t p = position(v);
  if (p < levels_.size()) return levels_[p].higher;
  return levels_.empty() ? 0 : levels_.back().higher + levels_.back().e;
}

Weight Competition::share(std::int32_t v) const {
  const Level* l = level(v);
  if (l == nullptr) return {};
  const std::uint32_t free = cpus_ > l->higher ? cpus_ - l->higher : 0;
  return free >= l->e ? whole(1) : reduced(free, l->e);
}

void Competition::load_credits(std::int32_t v, std::uint32_t own, bool runnable, std::vector<Credit>& out) const {
  out.clear();
  const Level* l = level(v);
  if (l == nullptr) return;
  const std::uint32_t others = l->e - (runnable ? 1 : 0);
  if (others == 0) return;
  for (const auto& [c, n] : l->classes) {
    const std::uint32_t k = n - (runnable && c == own ? 1 : 0);
    if (k > 0) out.push_back({c, reduced(k, others)});
  }
}

const std::vector<Credit>& Competition::prio_credits(std::int32_t v) {
  const std::size_t p = position(v);
  std::vector<Credit>& credits = prio_[p];
  if (prio_done_[p]) return credits;
  prio_done_[p] = 1;
  for (std::size_t i = 0; i < p; ++i) {
    const Weight s = share(levels_[i].nice);
    if (s.zero()) break;  // the levels below hold no CPU either
    for (const auto& [c, n] : levels_[i].classes) {
      const Weight held = times(whole(n), s);
      // An init-capture: clang 14 cannot capture a structured binding (C++20 allows it).
      auto it = std::find_if(credits.begin(), credits.end(),
                             [&thread_class = c](const Credit& x) { return x.thread_class == thread_class; });
      if (it == credits.end())
        credits.push_back({c, held});
      else
        it->fraction = plus(it->fraction, held);
    }
  }
  for (Credit& c : credits) c.fraction = times(c.fraction, Weight{1, cpus_});
  std::sort(credits.begin(), credits.end(),
            [](const Credit& a, const Credit& b) { return a.thread_class < b.thread_class; });
  return credits;
}

}  // namespace bn::views::detail
