// The END chunk's check of the total cost and the MTOT chunk's of each extra metric's, which the
// reader answers from the cost entries' sum while no cost is negative (profile_reader.cpp,
// CostTally), against the definition: the column's costs added in node order, refused at the
// first partial sum past 64 bits. Random files of several COST (or MCST) chunks with small, huge
// and negative costs and totals right or off by one.

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

// The tree's cum-costs of a column whose nodes are all children of the root, added into it last
// node first: the open refuses a tree whose cum-costs pass 64 bits, in any metric.
std::string cum_tail(const std::vector<Cost>& column) {
  Cost root = column[0];
  for (std::size_t i = column.size() - 1; i > 0; --i)
    if (__builtin_add_overflow(root, column[i], &root)) return "costs add up to more than a 64-bit total";
  return "(no error)";
}

// What reading the file must say: decode_costs' own refusal of a node's cost past 64 bits, then
// the total's checks in node order (END's for metric 0, MTOT's for the extra metric 1), then the
// tree's cum-costs; the messages' tails as they are worded.
std::string expected_tail(const std::vector<Cost>& column, bool node_overflow, Cost declared, int metric) {
  if (node_overflow) return "overflows 64 bits";
  Cost total = 0;
  for (Cost c : column)
    if (__builtin_add_overflow(total, c, &total))
      return metric == 0 ? "the node costs add up past 64 bits" : "the costs of metric 1 add up past 64 bits";
  if (total != declared)
    return metric == 0 ? "says the total cost is " + std::to_string(declared) + ", but the nodes add up to " +
                             std::to_string(total)
                       : "says the total of metric 1 ('calls') is " + std::to_string(declared) +
                             ", but its costs add up to " + std::to_string(total);
  return cum_tail(column);
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

namespace {

// Counts of each verdict over one property's rounds.
struct Verdicts {
  int loaded = 0, past_64_bits = 0, wrong_total = 0;
};

// One random file: `nodes` children of the root, one to three chunks of random cost entries
// (small, huge and, in a third of the files, negative costs), the declared total right or off by
// one. With `metric` 0 the entries are COST chunks and END declares the total; with 1 they are
// MCST chunks of the one extra metric an MTRC chunk declares, MTOT declares its total and the
// node costs are all zero. Checks the reader's verdict against the definition.
void check_random_file(std::mt19937_64& rng, int metric, Verdicts& v) {
  const std::size_t nodes = 1 + rng() % 6;
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
  if (metric == 1) {
    ByteSink mtrc;
    mtrc.varint(1);
    mtrc.string("calls");
    mtrc.string("calls");
    add_chunk(file, kTagMetrics, mtrc);
  }

  const bool with_negative = rng() % 3 == 0;
  std::vector<Cost> column(nodes + 1, 0);
  bool node_overflow = false;
  for (std::size_t chunk = 1 + rng() % 3; chunk-- > 0;) {
    ByteSink costs;
    if (metric == 1) costs.varint(1);
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
    add_chunk(file, metric == 0 ? kTagCosts : kTagMetricCosts, costs);
  }
  Cost sum = 0;
  for (Cost c : column) sum = static_cast<Cost>(static_cast<std::uint64_t>(sum) + static_cast<std::uint64_t>(c));
  const Cost declared = rng() % 4 == 0 ? static_cast<Cost>(static_cast<std::uint64_t>(sum) + 1) : sum;
  if (metric == 1) {
    ByteSink mtot;
    mtot.varint(1);
    mtot.zigzag(declared);
    add_chunk(file, kTagMetricTotals, mtot);
  }
  ByteSink end;
  end.varint(nodes);
  end.varint(nodes);
  end.zigzag(metric == 0 ? declared : 0);
  add_chunk(file, kTagEnd, end);

  const std::string expected = expected_tail(column, node_overflow, declared, metric);
  const std::string got = load_error(file, "costs.bnp");
  CAPTURE(got);
  CHECK(ends_with(got, expected));
  v.loaded += expected == "(no error)";
  v.past_64_bits += expected.ends_with("add up past 64 bits");
  v.wrong_total += expected.starts_with("says the total");
}

// 3,000 random files of `metric`: every verdict is reached often, with and without negative costs.
void check_random_files(std::uint64_t seed, int metric) {
  std::mt19937_64 rng(seed);
  Verdicts v;
  for (int round = 0; round < 3000; ++round) {
    CAPTURE(round);
    check_random_file(rng, metric, v);
  }
  CHECK(v.loaded > 300);
  CHECK(v.past_64_bits > 300);
  CHECK(v.wrong_total > 100);
}

}  // namespace

TEST_CASE("END's total agrees with the node costs added in order, huge and negative costs included") {
  check_random_files(20261125, 0);
}

TEST_CASE("MTOT's total of an extra metric agrees with its costs added in order, huge and negative costs included") {
  check_random_files(20261126, 1);
}
