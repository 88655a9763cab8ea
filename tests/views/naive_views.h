#pragma once
// A deliberately naive recount of the views (seed 000 sec. 5.2, MAPCP): every thread instance
// of every sample is visited, its hits computed from scratch by counting the other instances of
// its sample with exact rationals (no levels, no classes aggregated, no common denominator),
// and a call path's cost is the sum over the instances that satisfy it. Slow on purpose; for
// small random recordings only. Shares the view library's definitions only as the test states
// them here (runnable, typed time, refinements, measured spans: docs/views.md).

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "bn/calltree/call_tree.h"
#include "bn/calltree/sample_data.h"
#include "bn/iface/amount.h"
#include "bn/views/view_spec.h"

namespace bn::test::naive {

using iface::Rational;
using Names = std::vector<std::string>;

// One measurement of one instance: its extended stack and its hit.
struct Measurement {
  Names names;
  Rational weight;
};

inline bool runnable(const calltree::SampleRecord& r) {
  namespace s = calltree::thread_state;
  if (!(r.state & s::kRunnable) || (r.state & s::kSuspended)) return false;
  if (!r.has_cpu) return !(r.state & s::kInNative);
  if (r.state & s::kInNative) return r.elapsed_ns > 0 && 2 * (r.run_ns + r.wait_ns) >= r.elapsed_ns;
  return r.run_ns + r.wait_ns > 0;
}

inline bool split(const calltree::SampleRecord& r) {
  return r.has_cpu && (r.state & calltree::thread_state::kRunnable);
}

inline Names stack_of(const calltree::CallTree& tree, calltree::NodeId n) {
  Names names;
  for (; n != calltree::kRootNode; n = tree.parent(n)) names.insert(names.begin(), std::string(tree.node_name(n)));
  return names;
}

class Recount {
 public:
  // `class_of` names each thread's class (by index).
  Recount(const calltree::CallTree& tree, const calltree::SampleData& d, std::vector<std::string> class_of,
          views::Model model)
      : tree_(tree), d_(d), class_of_(std::move(class_of)), model_(model) {
    if (model.kind == views::Model::Kind::measured) spans();
  }

  // Every instance's measurements in the view, zero weights left out. `only`: the class of a
  // thread view, or nullopt for every thread.
  std::vector<Measurement> thread_view(const std::optional<std::string>& only) const {
    std::vector<Measurement> out;
    for_instances([&](std::size_t k, std::size_t i) {
      if (only && class_of_[d_.records[i].thread] != *only) return;
      instance(k, i, out);
    });
    return out;
  }
  // Only the :RUN measurements, as the Server View keeps them.
  std::vector<Measurement> server_view() const {
    std::vector<Measurement> out;
    for (Measurement& m : thread_view(std::nullopt))
      if (m.names.back() == ":RUN") out.push_back(std::move(m));
    return out;
  }

  // Normalisations (sec. 5.2): instances (or measured ns) of the class; samples (or measured time).
  Rational thread_normalization(const std::string& cls) const {
    Rational n = 0;
    for (std::size_t i = 0; i < d_.records.size(); ++i)
      if (class_of_[d_.records[i].thread] == cls) n += measured() ? Rational(weight_[i]) : Rational(1);
    return n;
  }
  Rational server_normalization() const {
    return measured() ? Rational(d_.ticks.back().time_ns - d_.ticks.front().time_ns) : Rational(d_.ticks.size());
  }

  // Table 1 itself, no measurements: the hit of instance i (sample k) for a call path ending in
  // M (paper and cpus models). `typed`: M is that pseudo-method; nullopt: any other M.
  Rational table1(std::size_t k, std::size_t i, const std::optional<std::string>& typed, bool server) const {
    const calltree::SampleRecord& r = d_.records[i];
    const bool run = runnable(r);
    const bool preempted = run && higher(k, r.nice) >= model_.cpus;
    const Rational s = run && !preempted ? share(k, r.nice) : Rational(0);
    if (server) return !typed || *typed == ":RUN" ? s : Rational(0);
    if (!typed) return 1;
    if (*typed == ":RUN") return s;
    if (*typed == ":LOAD") return run && !preempted ? 1 - s : Rational(0);
    if (*typed == ":PRIO") return preempted ? 1 : 0;
    const bool blocked = r.state & calltree::thread_state::kBlockedOnMonitorEnter;
    if (*typed == ":MONITOR") return !run && blocked ? 1 : 0;
    return !run && !blocked ? 1 : 0;  // :WAIT
  }

  template <class F>
  void for_instances(F&& f) const {
    for (std::size_t k = 0; k < d_.ticks.size(); ++k)
      for (std::size_t i = d_.ticks[k].first_record; i < d_.ticks[k].first_record + d_.ticks[k].record_count; ++i)
        f(k, i);
  }
  const std::string& class_of(std::size_t i) const { return class_of_[d_.records[i].thread]; }

 private:
  bool measured() const { return model_.kind == views::Model::Kind::measured; }
  std::vector<std::size_t> sample(std::size_t k) const {
    std::vector<std::size_t> ids;
    for (std::size_t i = d_.ticks[k].first_record; i < d_.ticks[k].first_record + d_.ticks[k].record_count; ++i)
      ids.push_back(i);
    return ids;
  }
  // h: runnable instances of the sample with a lower nice.
  std::uint32_t higher(std::size_t k, std::int32_t nice) const {
    std::uint32_t h = 0;
    for (std::size_t u : sample(k)) h += runnable(d_.records[u]) && d_.records[u].nice < nice;
    return h;
  }
  // The share of a CPU of a runnable instance of that nice: min(1, max(0, P - h) / e).
  Rational share(std::size_t k, std::int32_t nice) const {
    std::uint32_t e = 0;
    for (std::size_t u : sample(k)) e += runnable(d_.records[u]) && d_.records[u].nice == nice;
    const std::uint32_t h = higher(k, nice);
    const Rational s = h >= model_.cpus ? Rational(0) : Rational(model_.cpus - h, e);
    return std::min(Rational(1), s);
  }

  void add(std::vector<Measurement>& out, Names names, Rational w) const {
    if (w != 0) out.push_back({std::move(names), w});
  }
  Names with(Names base, std::initializer_list<std::string> more) const {
    base.insert(base.end(), more);
    return base;
  }

  void instance(std::size_t k, std::size_t i, std::vector<Measurement>& out) const {
    if (!measured()) return parts(k, i, out);
    std::vector<Measurement> mine;
    parts(k, i, mine);
    whole_nanoseconds(mine, weight_[i]);
    out.insert(out.end(), mine.begin(), mine.end());
  }

  // Measured parts become whole nanoseconds: the parts of one record, by class (equal names
  // merged), :RUN first, the credits by class name, :WAIT last; each floored, and the
  // nanoseconds left go one each to the largest remainders, earlier parts first on ties.
  static void whole_nanoseconds(std::vector<Measurement>& ms, std::uint64_t total) {
    std::vector<Measurement> merged;
    for (Measurement& m : ms) {
      auto same = std::find_if(merged.begin(), merged.end(), [&](const Measurement& x) { return x.names == m.names; });
      if (same == merged.end())
        merged.push_back(m);
      else
        same->weight += m.weight;
    }
    auto rank = [](const Measurement& m) {
      const std::string& type =
          m.names[m.names.size() - (m.names.back().rfind(":THREAD", 0) == 0 || m.names.back() == ":UNKNOWN" ? 2 : 1)];
      return type == ":RUN" ? 0 : type == ":WAIT" ? 2 : 1;
    };
    std::stable_sort(merged.begin(), merged.end(), [&](const Measurement& a, const Measurement& b) {
      return rank(a) != rank(b) ? rank(a) < rank(b) : a.names.back() < b.names.back();
    });
    using boost::multiprecision::cpp_int;
    std::vector<std::size_t> order(merged.size());
    cpp_int floors = 0;
    for (std::size_t j = 0; j < merged.size(); ++j) {
      order[j] = j;
      floors += numerator(merged[j].weight) / denominator(merged[j].weight);
    }
    auto rest = [&](std::size_t j) {
      const Rational& w = merged[j].weight;
      return w - Rational(numerator(w) / denominator(w));
    };
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rest(a) > rest(b); });
    const cpp_int extra = cpp_int(total) - floors;
    ms.clear();
    for (std::size_t j = 0; j < merged.size(); ++j) merged[j].weight -= rest(j);
    for (std::size_t k = 0; k < order.size() && cpp_int(k) < extra; ++k) merged[order[k]].weight += 1;
    for (Measurement& m : merged)
      if (m.weight != 0) ms.push_back(std::move(m));
  }

  void parts(std::size_t k, std::size_t i, std::vector<Measurement>& out) const {
    const calltree::SampleRecord& r = d_.records[i];
    const Names stack = stack_of(tree_, r.node);
    const Rational total = measured() ? Rational(weight_[i]) : Rational(1);
    if (measured() && split(r)) {
      add(out, with(stack, {":RUN"}), r.run_ns);
      queued(k, i, stack, r.wait_ns, out);
      add(out, with(stack, {":WAIT"}), total - r.run_ns - r.wait_ns);
    } else if (total == 0) {
    } else if (runnable(r)) {
      if (higher(k, r.nice) >= model_.cpus) {
        queued(k, i, stack, total, out);
      } else {
        const Rational s = share(k, r.nice);
        add(out, with(stack, {":RUN"}), s * total);
        if (s < 1) queued(k, i, stack, (1 - s) * total, out);
      }
    } else if (r.state & calltree::thread_state::kBlockedOnMonitorEnter) {
      if (r.owner == calltree::kNoThread) return add(out, with(stack, {":MONITOR", ":UNKNOWN"}), total);
      Names names = with(stack, {":MONITOR", ":THREAD " + class_of_[r.owner]});
      std::optional<std::size_t> holder;
      for (std::size_t u : sample(k))
        if (d_.records[u].thread == r.owner) holder = u;
      if (!holder) return add(out, with(names, {":UNKNOWN"}), total);
      for (const std::string& f : stack_of(tree_, d_.records[*holder].node)) names.push_back("@" + f);
      add(out, names, total);
    } else {
      add(out, with(stack, {":WAIT"}), total);
    }
  }

  // Waiting for a CPU: behind the higher levels if they fill every CPU, each credited the CPU
  // it held over P; else behind t's equal-priority peers, each credited equally.
  void queued(std::size_t k, std::size_t i, const Names& stack, Rational q, std::vector<Measurement>& out) const {
    const calltree::SampleRecord& r = d_.records[i];
    if (higher(k, r.nice) >= model_.cpus) {
      for (std::size_t u : sample(k)) {
        const calltree::SampleRecord& x = d_.records[u];
        if (runnable(x) && x.nice < r.nice)
          add(out, with(stack, {":PRIO", ":THREAD " + class_of_[x.thread]}), q * share(k, x.nice) / model_.cpus);
      }
      return;
    }
    std::vector<std::size_t> peers;
    for (std::size_t u : sample(k))
      if (u != i && runnable(d_.records[u]) && d_.records[u].nice == r.nice) peers.push_back(u);
    if (peers.empty()) return add(out, with(stack, {":LOAD", ":UNKNOWN"}), q);
    for (std::size_t u : peers)
      add(out, with(stack, {":LOAD", ":THREAD " + class_of_[d_.records[u].thread]}),
          q / static_cast<long>(peers.size()));
  }

  // Measured spans: each record stands for the time since its thread's previous record (the
  // first one since the previous tick); a split record's run and queue time beyond its span are
  // taken from the non-RUNNABLE records just before it, back to the thread's last RUNNABLE one,
  // latest first.
  void spans() {
    weight_.assign(d_.records.size(), 0);
    for (std::uint32_t t = 0; t < d_.threads.size(); ++t) {
      std::vector<std::pair<std::size_t, std::size_t>> mine;  // (tick, record)
      for_instances([&](std::size_t k, std::size_t i) {
        if (d_.records[i].thread == t) mine.emplace_back(k, i);
      });
      for (std::size_t j = 0; j < mine.size(); ++j) {
        const auto [k, i] = mine[j];
        const std::int64_t from =
            j > 0 ? d_.ticks[mine[j - 1].first].time_ns : (k > 0 ? d_.ticks[k - 1].time_ns : d_.ticks[k].time_ns);
        weight_[i] = static_cast<std::uint64_t>(d_.ticks[k].time_ns - from);
      }
      for (std::size_t j = 0; j < mine.size(); ++j) {
        const calltree::SampleRecord& r = d_.records[mine[j].second];
        if (!split(r)) continue;
        const std::uint64_t need = r.run_ns + r.wait_ns;
        std::uint64_t& own = weight_[mine[j].second];
        if (need <= own) continue;
        std::uint64_t excess = need - own;
        own = need;
        for (std::size_t back = j; back-- > 0 && excess > 0;) {
          if (d_.records[mine[back].second].state & calltree::thread_state::kRunnable) break;
          const std::uint64_t given = std::min(excess, weight_[mine[back].second]);
          weight_[mine[back].second] -= given;
          excess -= given;
        }
      }
    }
  }

  const calltree::CallTree& tree_;
  const calltree::SampleData& d_;
  std::vector<std::string> class_of_;
  views::Model model_;
  std::vector<std::uint64_t> weight_;
};

// MAPCP over measurements with the tree's rule for a path's own nodes (seed 004 sec. 2.2): a
// measurement counts for cum if some path labelled by one of S starts at or above its leaf, in
// its own stack or one continuing it; for base, if its owner lies on such a path, in a stack
// through the owner. The owner is the last frame of the recorded stack, whose time the names a
// view adds below it (those starting with ':' or '@') refine, or the leaf when the view added
// every name (docs/views.md, "Base in a view").
class Evaluation {
 public:
  explicit Evaluation(std::vector<Measurement> ms) : ms_(std::move(ms)) {
    for (const Measurement& m : ms_) names_.insert(m.names.begin(), m.names.end());
  }
  const std::set<std::string>& names() const { return names_; }

  bool occurs(const Names& c) const {
    for (const Measurement& m : ms_)
      if (!matches(m.names, c).empty()) return true;
    return false;
  }
  Rational total_cum(const std::vector<Names>& S) const { return total(S, false); }
  Rational total_base(const std::vector<Names>& S) const { return total(S, true); }
  std::vector<std::string> extensions(const Names& c, bool top) const {
    std::vector<std::string> out;
    for (const std::string& x : names_) {
      Names longer = c;
      longer.insert(top ? longer.begin() : longer.end(), x);
      if (occurs(longer)) out.push_back(x);
    }
    return out;
  }

 private:
  // Start positions of c in names.
  static std::vector<std::size_t> matches(const Names& names, const Names& c) {
    std::vector<std::size_t> at;
    for (std::size_t a = 0; a + c.size() <= names.size(); ++a)
      if (std::equal(c.begin(), c.end(), names.begin() + static_cast<std::ptrdiff_t>(a))) at.push_back(a);
    return at;
  }
  static std::size_t owner(const Names& names) {
    for (std::size_t i = names.size(); i-- > 0;)
      if (names[i].front() != ':' && names[i].front() != '@') return i;
    return names.size() - 1;
  }
  Rational total(const std::vector<Names>& S, bool base) const {
    Rational sum = 0;
    for (const Measurement& m : ms_) {
      const std::size_t at = base ? owner(m.names) : m.names.size() - 1;
      const auto through = m.names.begin() + static_cast<std::ptrdiff_t>(base ? at + 1 : m.names.size());
      bool counted = false;
      for (const Measurement& longer : ms_) {
        if (counted || longer.names.size() < static_cast<std::size_t>(through - m.names.begin()) ||
            !std::equal(m.names.begin(), through, longer.names.begin()))
          continue;
        for (const Names& c : S)
          for (std::size_t a : matches(longer.names, c))
            if (a <= at && (!base || a + c.size() - 1 >= at)) counted = true;
      }
      if (counted) sum += m.weight;
    }
    return sum;
  }

  std::vector<Measurement> ms_;
  std::set<std::string> names_;
};

}  // namespace bn::test::naive
