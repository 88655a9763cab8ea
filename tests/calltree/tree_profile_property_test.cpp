// Property test: on random trees with plenty of recursion, every operation of TreeProfile
// equals a deliberately naive evaluation of the seed 004 sec. 2.2 set definitions. The naive
// model knows nothing of preorder, subtree sizes or cum-costs: a node is its calling context
// (the list of method names from the outermost frame), paths are found by trying every
// node, and along/final/descendants are explicit std::sets that are summed at the end.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "bn/calltree/tree_profile.h"
#include "bn/iface/overlap.h"
#include "stack_tree.h"

using namespace bn::calltree;
using bn::iface::Amount;
using bn::iface::Summary;

namespace {

using Context = std::vector<std::string>;  // a node: its calling context
using Calls = std::vector<std::string>;    // a call sequence

struct NaivePaths {
  std::set<Context> roots, along, finals;
};

class NaiveProfile {
 public:
  explicit NaiveProfile(const testing::Stacks& stacks) {
    for (const auto& [stack, cost] : stacks) {
      Context context;
      std::size_t start = 0;
      for (;;) {
        const auto semi = stack.find(';', start);
        context.push_back(stack.substr(start, semi - start));
        cost_.emplace(context, 0);  // every prefix of a stack is a node
        methods_.insert(context.back());
        if (semi == std::string::npos) break;
        start = semi + 1;
      }
      cost_[context] += cost;
    }
  }

  const std::set<std::string>& methods() const { return methods_; }

  // paths(S) of sec. 2.2: every path labelled by one of the call sequences, from every node.
  NaivePaths paths(const std::vector<Calls>& S) const {
    NaivePaths result;
    for (const Calls& calls : S) {
      for (const auto& [node, cost] : cost_) {
        if (node.back() != calls.front()) continue;
        std::vector<Context> path = {node};
        for (std::size_t i = 1; i < calls.size(); ++i) {
          Context next = path.back();
          next.push_back(calls[i]);
          if (!cost_.count(next)) break;
          path.push_back(next);
        }
        if (path.size() != calls.size()) continue;
        result.roots.insert(node);
        result.along.insert(path.begin(), path.end());
        result.finals.insert(path.back());
      }
    }
    return result;
  }

  // descendants(S): nodes that have some final node as a proper prefix.
  std::set<Context> descendants(const std::set<Context>& finals) const {
    std::set<Context> result;
    for (const auto& [node, cost] : cost_)
      for (std::size_t len = 1; len < node.size(); ++len)
        if (finals.count(Context(node.begin(), node.begin() + static_cast<std::ptrdiff_t>(len)))) result.insert(node);
    return result;
  }

  // along(S) ∪ descendants(S): the nodes whose cost cum counts.
  std::set<Context> cum_nodes(const std::vector<Calls>& S) const {
    const NaivePaths p = paths(S);
    std::set<Context> nodes = descendants(p.finals);
    nodes.insert(p.along.begin(), p.along.end());
    return nodes;
  }

  Amount sum(const std::set<Context>& nodes) const {
    Amount total = 0;
    for (const Context& n : nodes) total += cost_.at(n);
    return total;
  }

  Amount total_base(const std::vector<Calls>& S) const { return sum(paths(S).along); }
  Amount total_cum(const std::vector<Calls>& S) const { return sum(cum_nodes(S)); }

  // Names m such that m :: calls (top) or calls @ [m] (bottom) has a root, sorted.
  std::vector<std::string> extensions(const Calls& calls, bool top) const {
    std::vector<std::string> result;
    for (const std::string& m : methods_) {
      Calls longer = calls;
      if (top)
        longer.insert(longer.begin(), m);
      else
        longer.push_back(m);
      if (!paths({longer}).roots.empty()) result.push_back(m);
    }
    return result;
  }

 private:
  std::map<Context, Cost> cost_;
  std::set<std::string> methods_;
};

// The CallTree node of a calling context, found by walking children by name.
NodeId node_of(const CallTree& tree, const Context& context) {
  NodeId n = kRootNode;
  for (const std::string& name : context) {
    NodeId next = kNoNode;
    for (NodeId c : tree.children(n))
      if (tree.node_name(c) == name) next = c;
    REQUIRE(next != kNoNode);
    n = next;
  }
  return n;
}

std::vector<std::string> strings(const std::vector<std::string_view>& views) { return {views.begin(), views.end()}; }

struct RandomCase {
  testing::Stacks stacks;
  std::vector<std::string> alphabet;
};

RandomCase random_case(std::mt19937& rng, bool large) {
  RandomCase c;
  const int letters = std::uniform_int_distribution<int>(1, 5)(rng);
  for (int i = 0; i < letters; ++i) c.alphabet.push_back(std::string(1, static_cast<char>('a' + i)));
  const int count = large ? 150 : std::uniform_int_distribution<int>(1, 25)(rng);
  std::uniform_int_distribution<int> depth(1, 12), letter(0, letters - 1), cost(0, 99);
  for (int s = 0; s < count; ++s) {
    std::string stack;
    for (int d = depth(rng); d > 0; --d) stack += (stack.empty() ? "" : ";") + c.alphabet[letter(rng)];
    // Mostly positive, sometimes zero or negative (the comparative backend relies on signs).
    c.stacks.push_back({stack, cost(rng) - (rng() % 8 == 0 ? 120 : 0)});
  }
  return c;
}

class Checker {
 public:
  Checker(const CallTree& tree, TreeProfile& p, const NaiveProfile& naive) : tree_(tree), p_(p), naive_(naive) {}

  // Every query about one summary agrees with the naive model; handles are stable.
  void check(Summary s, const Calls& expected) {
    const std::string sequence = join(expected);
    CAPTURE(sequence);
    REQUIRE(strings(p_.path_of(s)) == expected);
    const auto [known, inserted] = handles_.emplace(expected, s);
    CHECK(known->second == s);
    if (inserted) visited_.push_back(s);

    const NaivePaths paths = naive_.paths({expected});
    std::vector<NodeId> roots;
    for (const Context& r : paths.roots) roots.push_back(node_of(tree_, r));
    std::sort(roots.begin(), roots.end());
    const auto got = p_.roots(s);
    CHECK(std::vector<NodeId>(got.begin(), got.end()) == roots);
    CHECK(p_.base_of(s) == naive_.total_base({expected}));
    CHECK(p_.cum_of(s) == naive_.total_cum({expected}));
    CHECK(strings(p_.top_extensions(s)) == naive_.extensions(expected, true));
    CHECK(strings(p_.bottom_extensions(s)) == naive_.extensions(expected, false));
    // extension_amounts measures every extension without interning it (or reads the interned
    // one): the same names, and the naive cum and base of each extended sequence. Asked again
    // (top, bottom, top, bottom), the second answers come from the backend's cache.
    for (const bn::iface::End end :
         {bn::iface::End::top, bn::iface::End::bottom, bn::iface::End::top, bn::iface::End::bottom}) {
      const bool top = end == bn::iface::End::top;
      std::vector<std::string> listed;
      for (const bn::iface::ExtensionAmounts& e : p_.extension_amounts(s, end)) {
        Calls longer = expected;
        longer.insert(top ? longer.begin() : longer.end(), std::string(e.method));
        listed.push_back(std::string(e.method));
        CHECK(e.cum == naive_.total_cum({longer}));
        CHECK(e.base == naive_.total_base({longer}));
      }
      std::sort(listed.begin(), listed.end());
      CHECK(listed == naive_.extensions(expected, top));
    }
  }

  // extend/trim results: nullopt exactly when the naive sequence has no root.
  void check_result(std::optional<Summary> got, const Calls& expected) {
    const bool exists = !expected.empty() && !naive_.paths({expected}).roots.empty();
    REQUIRE(got.has_value() == exists);
    if (got) check(*got, expected);
  }

  // Totals and overlaps of a set, against unions and intersections of explicit node sets.
  void check_set(const std::vector<Summary>& S, Summary s) {
    std::vector<Calls> calls;
    for (Summary x : S) calls.push_back(strings(p_.path_of(x)));
    const Calls one = strings(p_.path_of(s));
    const std::string sequence = join(one);
    CAPTURE(sequence);
    CHECK(p_.total_base_of(S) == naive_.total_base(calls));
    CHECK(p_.total_cum_of(S) == naive_.total_cum(calls));

    std::set<Context> cum_shared, base_shared;
    const std::set<Context> cum_s = naive_.cum_nodes({one}), cum_S = naive_.cum_nodes(calls);
    std::set_intersection(cum_s.begin(), cum_s.end(), cum_S.begin(), cum_S.end(),
                          std::inserter(cum_shared, cum_shared.end()));
    const std::set<Context> along_s = naive_.paths({one}).along, along_S = naive_.paths(calls).along;
    std::set_intersection(along_s.begin(), along_s.end(), along_S.begin(), along_S.end(),
                          std::inserter(base_shared, base_shared.end()));
    CHECK(bn::iface::cum_overlap(p_, s, S) == naive_.sum(cum_shared));
    CHECK(bn::iface::base_overlap(p_, s, S) == naive_.sum(base_shared));
  }

  const std::vector<Summary>& visited() const { return visited_; }

 private:
  static std::string join(const Calls& calls) {
    std::string text;
    for (const auto& c : calls) text += (text.empty() ? "" : ";") + c;
    return text;
  }

  const CallTree& tree_;
  TreeProfile& p_;
  const NaiveProfile& naive_;
  std::map<Calls, Summary> handles_;
  std::vector<Summary> visited_;
};

template <typename T>
const T& pick(std::mt19937& rng, const std::vector<T>& items) {
  return items[std::uniform_int_distribution<std::size_t>(0, items.size() - 1)(rng)];
}

// The stacks' costs as metric "calls" of a tree whose metric 0 has other, random costs, then
// made the tree's metric 0 by with_metric: what `--metric` and `set metric` search.
CallTree tree_under_second_metric(const testing::Stacks& stacks, std::mt19937& rng) {
  TreeBuilder builder;
  builder.declare_extra_metrics({{"calls", "count"}});
  for (const auto& [stack, cost] : stacks) {
    const NodeId node =
        builder.add_stack(testing::frames_of(builder, stack), static_cast<Cost>(rng() % 1000));  // the decoy
    builder.add_metric_cost(1, node, cost);
  }
  Metadata metadata;
  metadata.metric = "time";
  metadata.unit = "ns";
  const CallTree both = std::move(builder).build(std::move(metadata));
  return both.with_metric(*both.find_metric("calls"));
}

void run_case(std::mt19937& rng, bool large, bool second_metric = false) {
  const RandomCase rc = random_case(rng, large);
  const CallTree tree = second_metric ? tree_under_second_metric(rc.stacks, rng) : testing::tree_from_stacks(rc.stacks);
  const NaiveProfile naive(rc.stacks);
  TreeProfile p(tree);
  Checker checker(tree, p, naive);

  const auto initial = p.initial_summaries();
  std::vector<std::string> names;
  for (Summary s : initial) names.push_back(strings(p.path_of(s)).front());
  REQUIRE(names == std::vector<std::string>(naive.methods().begin(), naive.methods().end()));
  for (Summary s : initial) checker.check(s, strings(p.path_of(s)));

  // Random walks of extend/trim, sometimes with a name that is not an extension.
  for (int walk = 0; walk < 4; ++walk) {
    Summary s = pick(rng, initial);
    for (int step = 0; step < 12; ++step) {
      const Calls calls = strings(p.path_of(s));
      const int op = std::uniform_int_distribution<int>(0, 5)(rng);
      Calls expected;
      std::optional<Summary> next;
      if (op <= 3) {
        const bool top = op % 2 == 0;
        const auto extensions = strings(top ? p.top_extensions(s) : p.bottom_extensions(s));
        const std::string m = op < 2 && !extensions.empty() ? pick(rng, extensions) : pick(rng, rc.alphabet);
        // Listing extensions keeps the nodes found for extending by them; listing another
        // summary's extensions first makes the extension search the tree itself.
        if (op >= 2) {
          const Summary other = pick(rng, checker.visited());
          if (top)
            p.top_extensions(other);
          else
            p.bottom_extensions(other);
        }
        expected = calls;
        if (top)
          expected.insert(expected.begin(), m);
        else
          expected.push_back(m);
        next = top ? p.extend_top(s, m) : p.extend_bottom(s, m);
      } else {
        if (calls.size() > 1)
          expected = op == 4 ? Calls(calls.begin() + 1, calls.end()) : Calls(calls.begin(), calls.end() - 1);
        next = op == 4 ? p.trim_top(s) : p.trim_bottom(s);
      }
      checker.check_result(next, expected);
      if (next) s = *next;
    }
  }

  // Random sets (with repeats) of the summaries seen, and one summary to overlap with them.
  const auto& seen = checker.visited();
  for (int round = 0; round < 6; ++round) {
    std::vector<Summary> S;
    for (int i = std::uniform_int_distribution<int>(0, 5)(rng); i > 0; --i) S.push_back(pick(rng, seen));
    checker.check_set(S, pick(rng, seen));
  }
}

}  // namespace

TEST_CASE("on random recursive trees every operation equals the naive set definitions") {
  std::mt19937 rng(20040607);
  for (int i = 0; i < 400; ++i) {
    CAPTURE(i);
    run_case(rng, false);
  }
}

TEST_CASE("under a profile's second metric every operation equals the naive recount of that metric") {
  std::mt19937 rng(15);
  for (int i = 0; i < 150; ++i) {
    CAPTURE(i);
    run_case(rng, i % 10 == 0, true);
  }
}

TEST_CASE("on larger random trees the sweeps agree with the naive set definitions") {
  std::mt19937 rng(31337);
  for (int i = 0; i < 15; ++i) {
    CAPTURE(i);
    run_case(rng, true);
  }
}
