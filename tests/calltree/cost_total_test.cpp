// The END chunk's check of the total cost, which the reader answers from the COST entries' sum
// while no cost is negative (profile_reader.cpp, CostTally), against the definition: the node
// costs added in node order, refused at the first partial sum past 64 bits. Random files of
// several COST chunks with small, huge and negative costs and END totals right or off by one.

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "bn/calltree/profile_reader.h"
#include "profile_test_util.h"

using namespace bn::calltree;
using bn::calltree::test::add_chunk;
using bn::calltree::test::header_bytes;
using bn::calltree::test::load_error;

namespace {

// What reading the file must say: decode_costs' own refusal of a node's cost past 64 bits, then
// END's checks in node order, then the tree's cum-costs; the messages' tails as they are worded.
std::string expected_tail(const std::vector<Cost>& column, bool node_overflow, Cost declared) {
  if (node_overflow) return "overflows 64 bits";
  Cost total = 0;
  for (Cost c : column)
    if (__builtin_add_overflow(total, c, &total)) return "the node costs add up past 64 bits";
  if (total != declared)
    return "says the total cost is " + std::to_string(declared) + ", but the nodes add up to " + std::to_string(total);
  // The tree's cum-costs: every node is a child of the root, added into it last node first.
  Cost root = column[0];
  for (std::size_t i = column.size() - 1; i > 0; --i)
    if (__builtin_add_overflow(root, column[i], &root)) return "costs add up to more than a 64-bit total";
  return "(no error)";
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

TEST_CASE("END's total agrees with the node costs added in order, huge and negative costs included") {
  std::mt19937_64 rng(20261125);
  int loaded = 0, past_64_bits = 0, wrong_total = 0;
  for (int round = 0; round < 3000; ++round) {
    const std::size_t nodes = 1 + rng() % 6;  // children of the root, one method each
    auto file = header_bytes();
    ByteSink strs;
    strs.varint(nodes);
    for (std::size_t i = 0; i < nodes; ++i) strs.string("m" + std::to_string(i));
    add_chunk(file, kTagStrings, strs);
    ByteSink node_chunk;
    node_chunk.varint(nodes);
    for (std::size_t i = 1; i <= nodes; ++i) node_chunk.varint(i);  // parent distance to the root
    for (std::size_t i = 0; i < nodes; ++i) node_chunk.varint(i);
    add_chunk(file, kTagNodes, node_chunk);

    const bool with_negative = rng() % 3 == 0;
    std::vector<Cost> column(nodes + 1, 0);
    bool node_overflow = false;
    for (std::size_t chunk = 1 + rng() % 3; chunk-- > 0;) {
      ByteSink costs;
      const std::size_t entries = rng() % 5;
      costs.varint(entries);
      std::int64_t prev = 0;
      for (std::size_t e = 0; e < entries; ++e) {
        const auto node = static_cast<std::int64_t>(rng() % (nodes + 1));
        Cost cost = 0;
        switch (rng() % 4) {
          case 0:
            cost = static_cast<Cost>(rng() % 100);
            break;
          case 1:
            cost = INT64_MAX - static_cast<Cost>(rng() % 4);
            break;
          case 2:
            cost = INT64_MAX / 3 + static_cast<Cost>(rng() % 7);
            break;
          default:
            cost = with_negative ? -static_cast<Cost>(rng() % 2 == 0 ? rng() % 100 : INT64_MAX / 2) : 1;
        }
        costs.zigzag(node - prev);
        costs.zigzag(cost);
        prev = node;
        if (!node_overflow) node_overflow = __builtin_add_overflow(column[node], cost, &column[node]);
      }
      add_chunk(file, kTagCosts, costs);
    }
    Cost sum = 0;
    for (Cost c : column) sum = static_cast<Cost>(static_cast<std::uint64_t>(sum) + static_cast<std::uint64_t>(c));
    const Cost declared = rng() % 4 == 0 ? static_cast<Cost>(static_cast<std::uint64_t>(sum) + 1) : sum;
    ByteSink end;
    end.varint(nodes);
    end.varint(nodes);
    end.zigzag(declared);
    add_chunk(file, kTagEnd, end);

    const std::string expected = expected_tail(column, node_overflow, declared);
    const std::string got = load_error(file, "costs.bnp");
    CAPTURE(round);
    CAPTURE(got);
    CHECK(ends_with(got, expected));
    loaded += expected == "(no error)";
    past_64_bits += expected == "the node costs add up past 64 bits";
    wrong_total += expected.starts_with("says the total cost");
  }
  // Every verdict is reached often, with and without negative costs.
  CHECK(loaded > 300);
  CHECK(past_64_bits > 300);
  CHECK(wrong_total > 100);
}
