// The closing walk begun while the first COST chunk is decoded (EarlyWalk) against the walk that
// CallTree::build does itself: the same file read with an empty COST chunk before END, which
// drops the early walk, must load the same tree (every node's subtree size, cost and cum-cost) or
// fail with the same message (the byte offsets aside, which the extra chunk moves). Random tables
// of more than kTwoThreadWalk nodes, in preorder and not, with repeated siblings and negative or
// huge costs; COST entries in node order and not, a node listed twice, several COST chunks, a
// NODE chunk after a COST chunk, and a bad entry at a random place.

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "bn/calltree/profile_format.h"
#include "profile_chunks.h"
#include "profile_test_util.h"

using namespace bn::calltree;

namespace early_walk_test {

using Entries = std::vector<std::pair<NodeId, Cost>>;

struct RandomFile {
  std::vector<NodeId> parent;  // of nodes 1.., as NODE chunks list them
  std::vector<MethodId> method;
  std::vector<std::string> names;
  std::vector<Entries> cost_chunks;  // each after the nodes below nodes_before[k]
  std::vector<std::size_t> nodes_before;
  bool preorder = true;  // the nodes' ids are their preorder numbers
};

// Costs of some nodes in [from, to), in node order: some below zero with `negative`, a few near
// 2^62 with `huge` (their sums pass 64 bits).
Entries random_entries(std::mt19937_64& rng, std::size_t from, std::size_t to, bool negative, bool huge) {
  Entries e;
  for (std::size_t v = from; v < to; ++v) {
    if (rng() % 4 == 0) continue;  // no entry: cost 0
    Cost c = static_cast<Cost>(rng() % 1000);
    if (negative && rng() % 50 == 0) c = -c;
    if (huge && rng() % 20000 == 0) c = std::numeric_limits<Cost>::max() / 2;
    e.emplace_back(static_cast<NodeId>(v), c);
    if (rng() % 100 == 0) e.emplace_back(static_cast<NodeId>(v), 1);  // listed twice in a row
  }
  return e;
}

// `layout` (0 to 5) says how the COST entries come; the rest is drawn.
RandomFile random_file(std::mt19937_64& rng, int layout) {
  RandomFile f;
  const std::size_t nodes = (std::size_t{1} << 16) + rng() % 30000;  // walked on two threads
  // Repeated siblings certain with 2,000 methods, impossible with a method a node, possible else.
  const unsigned labels = rng() % 3;
  const std::size_t methods = labels == 0 ? 2000 : 100000;
  const bool distinct = labels == 1;
  for (std::size_t m = 0; m < methods; ++m) f.names.push_back("m" + std::to_string(m));
  const bool preorder = rng() % 8 != 0, negative = rng() % 5 == 0, huge = rng() % 7 == 0;
  f.preorder = preorder;
  std::vector<NodeId> path{kRootNode};
  for (std::size_t i = 1; i < nodes; ++i) {
    // Pops 0.8 nodes a node on average: a deep tree, about two children a node.
    path.resize(path.size() - std::min<std::size_t>(path.size() - 1, rng() % 10 / 4));
    f.parent.push_back(preorder ? path.back() : static_cast<NodeId>(rng() % i));
    f.method.push_back(static_cast<MethodId>(distinct ? i : rng() % methods));
    path.push_back(static_cast<NodeId>(i));
  }
  Entries all = random_entries(rng, 0, nodes, negative, huge);
  const std::size_t cut = rng() % (all.size() + 1);
  switch (layout) {
    case 0:  // one COST chunk in node order, as write_profile writes it
      f.cost_chunks = {all};
      break;
    case 1:  // one COST chunk, two runs of entries swapped: out of order at a random place
      std::rotate(all.begin() + static_cast<std::ptrdiff_t>(cut / 2), all.begin() + static_cast<std::ptrdiff_t>(cut),
                  all.end());
      if (rng() % 2 == 0 && !all.empty() && all.back().first > 1) {
        // Then 2M entries adding nothing to the last node (~4 ms of decoding, by when the walk
        // has passed the nodes before it) and one going back to one of those nodes.
        const NodeId last = all.back().first;
        all.insert(all.end(), std::size_t{1} << 21, {last, 0});
        all.emplace_back(static_cast<NodeId>(1 + rng() % (last - 1)), 1);
      }
      f.cost_chunks = {all};
      break;
    case 2:  // two COST chunks, in node order across both
      f.cost_chunks = {Entries(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(cut)),
                       Entries(all.begin() + static_cast<std::ptrdiff_t>(cut), all.end())};
      break;
    case 3:  // a second COST chunk adding to nodes anywhere
      f.cost_chunks = {all, random_entries(rng, 0, nodes, negative, huge)};
      break;
    case 4: {  // a NODE chunk after the first COST chunk
      const std::size_t split = 1 + rng() % (nodes - 1);
      f.nodes_before = {split};
      f.cost_chunks = {random_entries(rng, 0, split, negative, huge), random_entries(rng, 0, nodes, negative, huge)};
      break;
    }
    default: {  // a bad entry at a random place: a node not read yet, or a cost past 64 bits
      const std::size_t at = rng() % (all.size() + 1);
      const Cost bad_cost = rng() % 2 == 0 ? std::numeric_limits<Cost>::max() : std::numeric_limits<Cost>::min();
      const NodeId node = rng() % 2 == 0 ? static_cast<NodeId>(nodes + rng() % 10)
                                         : (at < all.size() ? all[at].first : static_cast<NodeId>(nodes - 1));
      all.insert(all.begin() + static_cast<std::ptrdiff_t>(at), {node, bad_cost});
      f.cost_chunks = {all};
    }
  }
  f.nodes_before.resize(f.cost_chunks.size(), nodes);
  return f;
}

// The file's bytes; with `drop_early_walk`, an empty COST chunk right before END.
std::vector<std::byte> file_bytes(const RandomFile& f, bool drop_early_walk) {
  std::vector<std::byte> file = test::header_bytes();
  ByteSink strs;
  std::vector<std::string_view> views(f.names.begin(), f.names.end());
  encode_strings(views, std::numeric_limits<std::size_t>::max(), strs);
  test::add_chunk(file, kTagStrings, strs);
  std::size_t nodes_written = 1;
  __int128 total = 0;
  static const ByteSink pause = [] {
    ByteSink zeros;
    zeros.bytes(std::vector<std::byte>(std::size_t{16} << 20));
    return zeros;
  }();
  for (std::size_t k = 0; k < f.cost_chunks.size(); ++k) {
    // A NODE or COST chunk after the first COST chunk comes after an ancillary chunk that takes
    // the reader ~10 ms to decompress and keep, by when the first half has read its costs (~1 ms):
    // a reader that went on with the walk would have it read costs that change.
    if (k > 0) test::add_chunk(file, ChunkTag("paus"), pause);
    if (f.nodes_before[k] > nodes_written) {
      ByteSink nodes;
      const std::size_t count = f.nodes_before[k] - nodes_written;
      encode_nodes(std::span(f.parent).subspan(nodes_written - 1, count),
                   std::span(f.method).subspan(nodes_written - 1, count), static_cast<NodeId>(nodes_written),
                   std::numeric_limits<std::size_t>::max(), nodes);
      test::add_chunk(file, kTagNodes, nodes);
      nodes_written = f.nodes_before[k];
    }
    ByteSink costs;
    encode_costs(f.cost_chunks[k], std::numeric_limits<std::size_t>::max(), costs);
    test::add_chunk(file, kTagCosts, costs);
    for (const auto& [node, cost] : f.cost_chunks[k]) total += cost;
  }
  if (drop_early_walk) {
    ByteSink none;
    encode_costs({}, std::numeric_limits<std::size_t>::max(), none);
    test::add_chunk(file, kTagCosts, none);
  }
  ByteSink end;
  const bool fits = total >= std::numeric_limits<Cost>::min() && total <= std::numeric_limits<Cost>::max();
  encode_end({nodes_written - 1, f.names.size(), fits ? static_cast<Cost>(total) : 0}, end);
  test::add_chunk(file, kTagEnd, end);
  return file;
}

// The tree's columns, or the error without its byte offsets.
struct Loaded {
  std::string error;
  std::vector<std::uint32_t> size;
  std::vector<Cost> cost, cum;
  bool operator==(const Loaded&) const = default;
};

Loaded load(const std::vector<std::byte>& bytes) {
  Loaded l;
  try {
    const LoadedProfile p = read_profile_bytes(bytes, "early.bnp");
    for (NodeId v = 0; v < p.tree.node_count(); ++v) {
      l.size.push_back(p.tree.subtree_size(v));
      l.cost.push_back(p.tree.cost(v));
      l.cum.push_back(p.tree.cum_cost(v));
    }
  } catch (const bn::Error& e) {
    l.error = std::regex_replace(e.what(), std::regex(" at byte [0-9]+"), "");
  }
  return l;
}

// The columns of a table in preorder by their definitions: each node's cost the sum of its
// entries, its subtree size and cum-cost summed over the nodes after it in reverse.
Loaded naive_columns(const RandomFile& f) {
  const std::size_t n = f.parent.size() + 1;
  std::vector<__int128> cost(n, 0), cum(n, 0);
  for (const Entries& chunk : f.cost_chunks)
    for (const auto& [node, c] : chunk) cost[node] += c;
  Loaded l{"", std::vector<std::uint32_t>(n, 1), {}, {}};
  cum = cost;
  for (std::size_t v = n - 1; v > 0; --v) {
    l.size[f.parent[v - 1]] += l.size[v];
    cum[f.parent[v - 1]] += cum[v];
  }
  for (std::size_t v = 0; v < n; ++v) {
    l.cost.push_back(static_cast<Cost>(cost[v]));
    l.cum.push_back(static_cast<Cost>(cum[v]));
  }
  return l;
}

}  // namespace early_walk_test

TEST_CASE("a profile read with the closing walk begun during its COST chunk is the one read without") {
  using namespace early_walk_test;
  std::mt19937_64 rng(0x5eed18);
  int loaded = 0, failed = 0;
  for (int round = 0; round < 42; ++round) {
    const RandomFile f = random_file(rng, round % 6);
    const Loaded early = load(file_bytes(f, false));
    const Loaded reference = load(file_bytes(f, true));
    CAPTURE(round);
    CHECK(early.error == reference.error);
    CHECK(early.size == reference.size);
    CHECK(early.cost == reference.cost);
    CHECK(early.cum == reference.cum);
    if (early.error.empty() && f.preorder) CHECK(early == naive_columns(f));
    ++(early.error.empty() ? loaded : failed);
  }
  // Both outcomes are met: trees that load and files refused (repeated siblings, bad entries).
  CHECK(loaded >= 10);
  CHECK(failed >= 5);
}
