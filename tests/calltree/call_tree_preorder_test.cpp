// CallTree::build adopts a table already in preorder (as files are) without renumbering; it
// must give exactly the tree the general renumbering path gives.

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "bn/base/error.h"
#include "bn/calltree/profile_reader.h"
#include "bn/calltree/profile_writer.h"
#include "bn/calltree/synthetic_tree.h"

using namespace bn::calltree;

namespace {

void check_same(const CallTree& a, const CallTree& b) {
  REQUIRE(a.node_count() == b.node_count());
  for (NodeId n = 0; n < a.node_count(); ++n) {
    CAPTURE(n);
    REQUIRE(a.parent(n) == b.parent(n));
    REQUIRE(a.node_name(n) == b.node_name(n));
    REQUIRE(a.cost(n) == b.cost(n));
    REQUIRE(a.cum_cost(n) == b.cum_cost(n));
    REQUIRE(a.subtree_size(n) == b.subtree_size(n));
    REQUIRE(a.depth(n) == b.depth(n));
  }
  for (MethodId m = 0; m < a.method_count(); ++m) {
    const auto x = a.nodes_of(m), y = b.nodes_of(m);
    REQUIRE(std::equal(x.begin(), x.end(), y.begin(), y.end()));
  }
}

StringTable names(std::initializer_list<const char*> list) {
  StringTable t;
  for (const char* s : list) t.append(s);
  return t;
}

// The generator lists nodes depth by depth, so its tree goes through the renumbering path; read
// back from a file, the same tree is adopted.
void check_file_round_trip(std::uint64_t nodes) {
  const CallTree generated = generate_synthetic_tree({nodes, 5});
  const auto path = std::filesystem::temp_directory_path() / ("bn_preorder_" + std::to_string(::getpid()) + ".bnp");
  write_profile(generated, path);
  const LoadedProfile loaded = read_profile(path);
  std::filesystem::remove(path);
  check_same(generated, loaded.tree);
}

}  // namespace

TEST_CASE("a tree read from a file (preorder, adopted) equals the tree built by renumbering") {
  check_file_round_trip(20'000);
}

TEST_CASE("a tree big enough to be walked on two threads equals the tree built by renumbering") {
  check_file_round_trip(300'000);
}

TEST_CASE("a preorder table and the same tree listed breadth-first build the same tree") {
  // root -> a(1) -> b(2), root -> c(3) -> d(4) in preorder; breadth-first: a, c, b, d.
  const CallTree pre = CallTree::build({{kNoNode, 0, 1, 0, 3}, {kNoMethod, 0, 1, 2, 3}, {0, 1, 2, 3, 4}},
                                       names({"a", "b", "c", "d"}), {});
  const CallTree bfs = CallTree::build({{kNoNode, 0, 0, 1, 2}, {kNoMethod, 0, 2, 1, 3}, {0, 1, 3, 2, 4}},
                                       names({"a", "b", "c", "d"}), {});
  check_same(pre, bfs);
  CHECK(pre.subtree_size(1) == 2);
  CHECK(pre.depth(4) == 2);
  CHECK(pre.cum_cost(0) == 10);
}

TEST_CASE("repeated sibling methods are named by the input's node number on both paths") {
  // Preorder: node 1 has children 2 and 3, both 'b'.
  CHECK_THROWS_WITH_AS(CallTree::build({{kNoNode, 0, 1, 1}, {kNoMethod, 0, 1, 1}, {0, 0, 1, 1}}, names({"a", "b"}), {}),
                       doctest::Contains("node 1 has two children labelled 'b'"), bn::Error);
  // Not preorder (node 3 hangs below node 1 after node 2 started another branch): preorder
  // numbers node 2 as 3, but the message must say 2.
  CHECK_THROWS_WITH_AS(CallTree::build({{kNoNode, 0, 0, 1, 2, 2}, {kNoMethod, 2, 0, 3, 1, 1}, {0, 0, 0, 1, 1, 1}},
                                       names({"a", "b", "c", "d"}), {}),
                       doctest::Contains("node 2 has two children labelled 'b'"), bn::Error);
}
