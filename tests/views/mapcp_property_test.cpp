// Property test: on random recordings (recursion, several thread classes, random states, nice
// values, monitor owners and CPU figures), every view under every model on P = 1, 2, 3 CPUs
// equals the naive MAPCP recount of naive_views.h, through every operation of the profile
// interface: paths, extensions, extension_amounts, extension_union, trims and set totals.
#include <doctest/doctest.h>

#include <random>

#include "bn/iface/extension_union.h"
#include "naive_views.h"
#include "owned_strings.h"
#include "random_pick.h"
#include "view_eval.h"

namespace {

using bn::iface::Rational;
using bn::iface::Summary;
using bn::test::naive::Evaluation;
using bn::test::naive::Measurement;
using bn::test::naive::Names;
namespace state = bn::test::state;

using bn::test::pick;

struct Random {
  bn::test::Recording recording;
  std::vector<std::string> class_of;  // by thread index
};

Random random_recording(std::mt19937& rng) {
  bn::test::RecordingBuilder b;
  std::vector<std::string> class_of;
  const char* classes[] = {"A", "B", "C"};
  const int threads = std::uniform_int_distribution<int>(2, 6)(rng);
  for (int t = 0; t < threads; ++t) {
    class_of.push_back(classes[rng() % 3]);
    b.thread("t" + std::to_string(t), class_of.back());
  }
  const char* methods[] = {"m.a", "m.b", "m.c", "m.d"};
  std::int64_t time = 0;
  for (int k = std::uniform_int_distribution<int>(1, 5)(rng); k > 0; --k) {
    time += std::uniform_int_distribution<int>(1, 100)(rng);
    b.tick(time);
    for (int t = 0; t < threads; ++t) {
      if (rng() % 5 == 0) continue;  // not alive at this tick
      std::string stack;
      for (int d = std::uniform_int_distribution<int>(1, 4)(rng); d > 0; --d)
        stack += (stack.empty() ? "" : ";") + std::string(methods[rng() % 4]);  // recursion included
      const std::uint32_t states[] = {state::kRunnable, state::kRunnable, state::kNative, state::kBlocked,
                                      state::kWaiting};
      const std::int32_t nices[] = {0, 0, -5, 5};
      auto& r = b.record(static_cast<std::uint32_t>(t), stack, states[rng() % 5], nices[rng() % 4]);
      if (r.state == state::kBlocked && rng() % 4 != 0) r.owner = static_cast<std::uint32_t>(rng() % threads);
      if ((r.state & bn::calltree::thread_state::kRunnable) && rng() % 3 != 0) {
        r.has_cpu = true;
        r.elapsed_ns = std::uniform_int_distribution<std::uint64_t>(0, 150)(rng);
        r.run_ns = std::uniform_int_distribution<std::uint64_t>(0, r.elapsed_ns)(rng);
        // Sometimes beyond the interval: queue time booked late (measured_time.h).
        r.wait_ns = std::uniform_int_distribution<std::uint64_t>(0, r.elapsed_ns - r.run_ns + 40)(rng);
      }
    }
  }
  return {b.build(), std::move(class_of)};
}

using bn::test::strings;

class Checker {
 public:
  Checker(bn::calltree::TreeProfile& p, const Evaluation& naive, Rational normalisation)
      : p_(p), naive_(naive), norm_(normalisation) {}

  Rational fast(bn::iface::Amount a) { return bn::iface::to_rational(a, p_.denominator()); }
  Rational slow(Rational r) const { return r / norm_; }

  std::optional<Summary> resolve(const Names& c) {
    auto s = p_.method_summary(c.front());
    for (std::size_t i = 1; s && i < c.size(); ++i) s = p_.extend_bottom(*s, c[i]);
    return s;
  }

  void check(const Names& c, std::mt19937& rng) {
    const auto s = resolve(c);
    REQUIRE(s.has_value() == naive_.occurs(c));
    if (!s) return;
    CHECK(strings(p_.path_of(*s)) == c);
    CHECK(fast(p_.cum_of(*s)) == slow(naive_.total_cum({c})));
    CHECK(fast(p_.base_of(*s)) == slow(naive_.total_base({c})));
    for (const bn::iface::End end : {bn::iface::End::top, bn::iface::End::bottom}) {
      const bool top = end == bn::iface::End::top;
      const std::vector<std::string> expected = naive_.extensions(c, top);
      CHECK(strings(p_.extensions(*s, end)) == expected);
      std::vector<std::string> listed;
      auto amounts = p_.extension_amounts(*s, end);
      for (const auto& e : amounts) {
        Names longer = c;
        longer.insert(top ? longer.begin() : longer.end(), std::string(e.method));
        listed.emplace_back(e.method);
        CHECK(fast(e.cum) == slow(naive_.total_cum({longer})));
        CHECK(fast(e.base) == slow(naive_.total_base({longer})));
      }
      std::sort(listed.begin(), listed.end());
      CHECK(listed == expected);
      // A running union, in random order, after every addition.
      std::shuffle(amounts.begin(), amounts.end(), rng);
      const auto running = p_.extension_union(*s, end);
      std::vector<Names> added;
      for (const auto& e : amounts) {
        running->add(e);
        Names longer = c;
        longer.insert(top ? longer.begin() : longer.end(), std::string(e.method));
        added.push_back(longer);
        CHECK(fast(running->total()) == slow(naive_.total_cum(added)));
      }
    }
    if (c.size() > 1) {
      CHECK(p_.trim_top(*s) == resolve(Names(c.begin() + 1, c.end())));
      CHECK(p_.trim_bottom(*s) == resolve(Names(c.begin(), c.end() - 1)));
    } else {
      CHECK_FALSE(p_.trim_top(*s));
    }
    seen_.push_back(c);
  }

  void check_sets(std::mt19937& rng) {
    if (seen_.empty()) return;
    for (int round = 0; round < 4; ++round) {
      std::vector<Names> S;
      std::vector<Summary> handles;
      for (int i = std::uniform_int_distribution<int>(1, 4)(rng); i > 0; --i) {
        S.push_back(pick(rng, seen_));
        handles.push_back(*resolve(S.back()));
      }
      CHECK(fast(p_.total_cum_of(handles)) == slow(naive_.total_cum(S)));
      CHECK(fast(p_.total_base_of(handles)) == slow(naive_.total_base(S)));
    }
  }

 private:
  bn::calltree::TreeProfile& p_;
  const Evaluation& naive_;
  Rational norm_;
  std::vector<Names> seen_;
};

// Call paths to try: every name, windows of the measurements' extended stacks, and a few that
// occur nowhere.
std::vector<Names> candidates(const std::vector<Measurement>& ms, const Evaluation& naive, std::mt19937& rng) {
  std::vector<Names> out;
  for (const std::string& n : naive.names()) out.push_back({n});
  for (int i = 0; i < 12 && !ms.empty(); ++i) {
    const Names& names = pick(rng, ms).names;
    const std::size_t a = rng() % names.size();
    const std::size_t len = 1 + rng() % std::min<std::size_t>(4, names.size() - a);
    out.emplace_back(names.begin() + static_cast<std::ptrdiff_t>(a),
                     names.begin() + static_cast<std::ptrdiff_t>(a + len));
  }
  out.push_back({"m.a", ":RUN", "m.a"});
  out.push_back({":WAIT", ":RUN"});
  return out;
}

void check_view(const Random& r, const bn::views::ViewSpec& spec, const std::vector<Measurement>& ms,
                Rational normalisation, std::mt19937& rng) {
  bn::test::Evaluated v(r.recording, spec);
  const Evaluation naive(ms);
  CAPTURE(bn::views::describe(spec));
  CAPTURE(bn::views::to_string(*v.view().spec.model));
  Rational all = 0;
  for (const Measurement& m : ms) all += m.weight;
  CHECK(v.total() == all / normalisation);
  std::vector<std::string> initial;
  for (Summary s : v.profile().initial_summaries()) initial.push_back(strings(v.profile().path_of(s)).front());
  CHECK(initial == std::vector<std::string>(naive.names().begin(), naive.names().end()));
  Checker checker(v.profile(), naive, normalisation);
  for (const Names& c : candidates(ms, naive, rng)) checker.check(c, rng);
  checker.check_sets(rng);
}

std::vector<bn::views::Model> models() {
  using bn::views::Model;
  return {{Model::Kind::paper, 1},
          {Model::Kind::cpus, 1},
          {Model::Kind::cpus, 2},
          {Model::Kind::cpus, 3},
          {Model::Kind::measured, 1}};
}

bool refused(const Random& r, const bn::views::ViewSpec& spec) {
  try {
    bn::views::build_view(r.recording.tree, r.recording.samples, spec);
    return false;
  } catch (const bn::Error&) {
    return true;
  }
}

}  // namespace

TEST_CASE("on random recordings every view under every model equals the naive MAPCP recount, in every operation") {
  std::mt19937 rng(2003);
  int views = 0;
  for (int round = 0; round < 120; ++round) {
    CAPTURE(round);
    const Random r = random_recording(rng);
    const auto& samples = r.recording.samples;
    for (const bn::views::Model& model : models()) {
      const bn::test::naive::Recount recount(r.recording.tree, samples, r.class_of, model);
      const bool measured = model.kind == bn::views::Model::Kind::measured;
      // Server View: the :RUN measurements over the samples (or the measured time).
      const auto server = bn::test::server_view(model);
      if (refused(r, server)) {
        // Only measured refuses: without CPU figures, or on a single tick.
        CHECK(measured);
      } else {
        check_view(r, server, recount.server_view(), recount.server_normalization(), rng);
        ++views;
      }
      // Thread View of every class with instances.
      for (const std::string& cls : std::set<std::string>(r.class_of.begin(), r.class_of.end())) {
        const auto spec = bn::test::thread_view(cls, model);
        if (refused(r, spec)) continue;  // no instances, or (measured) no measured time
        check_view(r, spec, recount.thread_view(cls), recount.thread_normalization(cls), rng);
        ++views;
      }
      // The tree view of running time: the Server View's measurements without :RUN, unnormalised.
      bn::views::ViewSpec running;
      running.states = bn::views::States::running;
      running.model = model;
      if (!refused(r, running)) {
        std::vector<Measurement> ms = recount.server_view();
        for (Measurement& m : ms) m.names.pop_back();
        check_view(r, running, ms, 1, rng);
      }
    }
    // The tree view of runnable threads: one sample per runnable instance.
    bn::views::ViewSpec runnable;
    runnable.states = bn::views::States::runnable;
    runnable.model = bn::test::kPaper;
    std::vector<Measurement> ms;
    for (const auto& rec : samples.records)
      if (bn::test::naive::runnable(rec)) ms.push_back({bn::test::naive::stack_of(r.recording.tree, rec.node), 1});
    if (!samples.ticks.empty()) check_view(r, runnable, ms, 1, rng);
  }
  CHECK(views > 1000);
}

TEST_CASE("on random recordings Table 1 applied to each instance directly gives the cost of every call path") {
  std::mt19937 rng(1999);
  for (int round = 0; round < 80; ++round) {
    CAPTURE(round);
    const Random r = random_recording(rng);
    const auto& samples = r.recording.samples;
    for (const bn::views::Model& model : models()) {
      if (model.kind == bn::views::Model::Kind::measured) continue;  // Table 1 is of hits
      const bn::test::naive::Recount recount(r.recording.tree, samples, r.class_of, model);
      for (const std::string& cls : std::set<std::string>(r.class_of.begin(), r.class_of.end())) {
        for (const bool server : {false, true}) {
          const auto spec = server ? bn::test::server_view(model) : bn::test::thread_view(cls, model);
          if (refused(r, spec)) continue;
          bn::test::Evaluated v(r.recording, spec);
          const Rational n = server ? recount.server_normalization() : recount.thread_normalization(cls);
          for (int trial = 0; trial < 10; ++trial) {
            // A call path of Java frames: a window of some instance's stack.
            const auto& rec = pick(rng, samples.records);
            const Names stack = bn::test::naive::stack_of(r.recording.tree, rec.node);
            const std::size_t a = rng() % stack.size();
            const Names c(stack.begin() + static_cast<std::ptrdiff_t>(a),
                          stack.begin() + static_cast<std::ptrdiff_t>(a + 1 + rng() % (stack.size() - a)));
            std::string path;
            for (const std::string& f : c) path += (path.empty() ? "" : ";") + f;
            for (const std::optional<std::string>& typed :
                 {std::optional<std::string>(), std::optional<std::string>(":RUN"), std::optional<std::string>(":LOAD"),
                  std::optional<std::string>(":PRIO"), std::optional<std::string>(":MONITOR"),
                  std::optional<std::string>(":WAIT")}) {
              // MAPCP (sec. 5.2): the instances whose stack holds C (ending at the leaf when C
              // ends in typed time), each with its Table 1 hit.
              Rational hits = 0;
              recount.for_instances([&](std::size_t k, std::size_t i) {
                if (!server && recount.class_of(i) != cls) return;
                const Names s = bn::test::naive::stack_of(r.recording.tree, samples.records[i].node);
                bool holds = false;
                for (std::size_t at = 0; at + c.size() <= s.size(); ++at)
                  if (std::equal(c.begin(), c.end(), s.begin() + static_cast<std::ptrdiff_t>(at)) &&
                      (!typed || at + c.size() == s.size()))
                    holds = true;
                if (holds) hits += recount.table1(k, i, typed, server);
              });
              CAPTURE(path);
              CAPTURE(typed.value_or("(all other)"));
              CHECK(v.cum(typed ? path + ";" + *typed : path) == hits / n);
            }
          }
        }
      }
    }
  }
}
