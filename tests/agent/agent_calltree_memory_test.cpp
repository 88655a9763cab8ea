// End-to-end: mode=calltree's bound on the per-thread trees' memory (treememory=,
// docs/recorder.md "Where the trees live"), on a real JVM. A program whose calling contexts
// outgrow the bound finishes normally with every call counted: the contexts that fit exactly, the
// rest under "(call tree full)"; and threads that end give their memory back to those after them.

#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdint>
#include <string>

#include "agent_harness.h"
#include "calltree_profile.h"

namespace ct = bn::calltree;

namespace {

// Runs `main_class` in mode=calltree with `options` appended; returns its profile with calls as
// the cost.
ct::LoadedProfile record_calls(const std::string& main_class, const std::string& options) {
  const auto file = bn::test::work_dir(main_class + "-memory-" + std::to_string(getpid())) / "run.bnp";
  bn::test::JavaRunOptions o;
  o.main_class = main_class;
  o.agent_options = "mode=calltree,strict,trivial=count,file=" + file.string() + options;
  const bn::test::JavaRun run = bn::test::run_java(o);
  INFO("stderr: " << run.err);
  REQUIRE_FALSE(run.timed_out);
  REQUIRE(run.exit_code == 0);
  return bn::test::read_calls(file);
}

std::int64_t extra(const ct::CallTree& tree, const char* key) {
  const auto v = tree.metadata().find_extra(key);
  INFO("metadata key " << key);
  REQUIRE(v.has_value());
  return std::stoll(std::string(*v));
}

// Overflowing.java's constants: per pass, 2^13 - 1 calls of a and b and 3 calls under each of
// the 2^12 leaves (catcher, thrower, after).
constexpr ct::Cost kPasses = 3, kContexts = (1 << 13) - 1 + 3 * (1 << 12), kCalls = 1 + kPasses * kContexts;
constexpr std::int64_t kBound = 256 << 10;  // 4096 nodes of 64 bytes, the root and the overflow node included

}  // namespace

TEST_CASE(
    "a tree that fills treememory= stops adding calling contexts: the program finishes, the contexts that fit stay "
    "exact, every other call is counted under (call tree full), and the profile says so") {
  const ct::LoadedProfile p = record_calls("Overflowing", ",include=Overflowing*,treememory=256k");
  const ct::CallTree& tree = p.tree;
  const auto full = bn::test::node_at(tree, {"(call tree full)"});
  const auto main = bn::test::node_at(tree, {"Overflowing.main"});
  REQUIRE(full);
  REQUIRE(main);
  CHECK(tree.cost(*main) == 1);
  // Every context stored holds exactly its calls: one per pass.
  ct::Cost stored = 0, all = 0, wrong = 0;
  for (ct::NodeId n = ct::kRootNode + 1; n < tree.node_count(); ++n) {
    all += tree.cost(n);
    if (n == *full || n == *main) continue;
    stored += 1;
    wrong += tree.cost(n) != kPasses ? 1 : 0;
  }
  CHECK(wrong == 0);
  CHECK(all == kCalls);
  // Main's thread was the only one instrumented: its tree had room for 4096 - 3 of the contexts
  // below main.
  CHECK(stored == kBound / 64 - 3);
  CHECK(tree.cost(*full) == kCalls - 1 - stored * kPasses);
  CHECK(tree.subtree_end(*full) == *full + 1);
  CHECK(extra(tree, "treememory") == kBound);
  CHECK(extra(tree, "treememory_peak") <= kBound);
  CHECK(extra(tree, "tree_full_threads") == 1);
  CHECK(extra(tree, "tree_full_calls") == tree.cost(*full));
  CHECK(extra(tree, "tree_full_entries") > 0);
  CHECK(extra(tree, "calls") == kCalls);
}

TEST_CASE("threads that end give their trees' memory back: threads after them grow trees as large under the bound") {
  // Released.java: 8 threads in turn, each a binary tree of 2^12 - 1 calling contexts (4097
  // nodes: 512 KiB committed), under a bound two such trees fill.
  const ct::LoadedProfile p = record_calls("Released", ",include=Released$Work,flush=100ms,treememory=1m");
  const ct::CallTree& tree = p.tree;
  CHECK_FALSE(bn::test::node_at(tree, {"(call tree full)"}));
  const auto top = bn::test::node_at(tree, {"Released$Work.a"});
  REQUIRE(top);
  CHECK(tree.subtree_end(*top) - *top == (1 << 12) - 1);
  ct::Cost wrong = 0;
  for (ct::NodeId n = *top; n < tree.subtree_end(*top); ++n) wrong += tree.cost(n) != 8 ? 1 : 0;
  CHECK(wrong == 0);
  CHECK(extra(tree, "tree_full_threads") == 0);
  CHECK(extra(tree, "threads") == 8);
  CHECK(extra(tree, "treememory_peak") <= (1 << 20));
}
