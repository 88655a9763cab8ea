// The generic helpers on the profile interface, checked on a backend that is nothing but
// explicit sets: each summary owns a set of cells (measurements) for base and for cum, and
// totals are sums over unions. Overlap must then be the cost of the intersection.
#include "bn/iface/overlap.h"

#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "bn/base/error.h"
#include "bn/iface/coverage.h"

using namespace bn::iface;

namespace {

class SetProfile final : public Profile {
 public:
  struct Entry {
    std::vector<std::string> path;
    std::set<int> base_cells, cum_cells;
  };
  SetProfile(std::vector<Entry> entries, std::map<int, Amount> cell_cost)
      : entries_(std::move(entries)), cost_(std::move(cell_cost)) {}

  std::vector<std::string_view> path_of(Summary s) override { return {entry(s).path.begin(), entry(s).path.end()}; }
  std::vector<Summary> initial_summaries() override {
    std::vector<Summary> result;
    for (std::uint32_t i = 0; i < entries_.size(); ++i)
      if (entries_[i].path.size() == 1) result.push_back({i});
    return result;
  }
  std::optional<Summary> method_summary(std::string_view method) override { return lookup({std::string(method)}); }
  std::vector<std::string_view> top_extensions(Summary) override { return {}; }
  std::vector<std::string_view> bottom_extensions(Summary) override { return {}; }
  std::optional<Summary> extend_top(Summary s, std::string_view m) override {
    auto path = entry(s).path;
    path.insert(path.begin(), std::string(m));
    return lookup(path);
  }
  std::optional<Summary> extend_bottom(Summary s, std::string_view m) override {
    auto path = entry(s).path;
    path.push_back(std::string(m));
    return lookup(path);
  }
  std::optional<Summary> trim_top(Summary) override { return std::nullopt; }
  std::optional<Summary> trim_bottom(Summary) override { return std::nullopt; }
  Amount base_of(Summary s) override { return sum(entry(s).base_cells); }
  Amount cum_of(Summary s) override { return sum(entry(s).cum_cells); }
  Amount total_base_of(std::span<const Summary> S) override {
    std::set<int> cells;
    for (Summary s : S) cells.insert(entry(s).base_cells.begin(), entry(s).base_cells.end());
    return sum(cells);
  }
  Amount total_cum_of(std::span<const Summary> S) override {
    std::set<int> cells;
    for (Summary s : S) cells.insert(entry(s).cum_cells.begin(), entry(s).cum_cells.end());
    return sum(cells);
  }
  Amount total() override {
    Amount t = 0;
    for (const auto& [cell, cost] : cost_) t += cost;
    return t;
  }
  MetricInfo metric() override { return {"samples", "samples", true, 0}; }

 private:
  const Entry& entry(Summary s) const { return entries_.at(s.id); }
  std::optional<Summary> lookup(const std::vector<std::string>& path) const {
    for (std::uint32_t i = 0; i < entries_.size(); ++i)
      if (entries_[i].path == path) return Summary{i};
    return std::nullopt;
  }
  Amount sum(const std::set<int>& cells) const {
    Amount t = 0;
    for (int c : cells) t += cost_.at(c);
    return t;
  }
  std::vector<Entry> entries_;
  std::map<int, Amount> cost_;
};

// Cells 1..5 cost 1, 10, 100, 1000, -10000 (comparative profiles have negative cells).
SetProfile sample() {
  return SetProfile({{{"a"}, {1}, {1, 2, 3}},
                     {{"b"}, {2}, {2, 3, 4}},
                     {{"c"}, {3}, {3}},
                     {{"a", "b"}, {1, 2}, {1, 2, 3}},
                     {{"d"}, {5}, {5}}},
                    {{1, 1}, {2, 10}, {3, 100}, {4, 1000}, {5, -10000}});
}

}  // namespace

TEST_CASE("cum overlap is the cost a summary shares with a set, each cell once") {
  SetProfile p = sample();
  const Summary a{0}, b{1}, c{2}, ab{3}, d{4};
  CHECK(cum_overlap(p, a, std::vector{b, c}) == 110);
  CHECK(cum_overlap(p, a, std::vector<Summary>{}) == 0);
  CHECK(cum_overlap(p, a, std::vector{a}) == 111);     // s in S: all of it
  CHECK(cum_overlap(p, a, std::vector{c, c}) == 100);  // repeats change nothing
  CHECK(cum_overlap(p, d, std::vector{a, b}) == 0);
  CHECK(cum_overlap(p, d, std::vector{d}) == -10000);  // signs are kept
  CHECK(cum_overlap(p, ab, std::vector{b}) == 110);
}

TEST_CASE("base overlap uses the base cells") {
  SetProfile p = sample();
  const Summary a{0}, b{1}, ab{3};
  CHECK(base_overlap(p, ab, std::vector{a}) == 1);
  CHECK(base_overlap(p, ab, std::vector{a, b}) == 11);
  CHECK(base_overlap(p, a, std::vector{b}) == 0);
}

TEST_CASE("a summary is found for a path by extending at the bottom") {
  SetProfile p = sample();
  const std::vector<std::string_view> ab = {"a", "b"}, az = {"a", "zz"}, za = {"zz", "a"}, none = {};
  CHECK(p.path_summary(ab) == Summary{3});
  CHECK_FALSE(p.path_summary(az));
  CHECK_FALSE(p.path_summary(za));
  CHECK_FALSE(p.path_summary(none));
}

TEST_CASE("coverage of a set counts shared cost once and is a share of the total") {
  SetProfile p = sample();
  const Summary a{0}, b{1}, c{2}, d{4};
  const Coverage cov = coverage(p, std::vector{a, b, c});
  CHECK(cov.cum == 1111);
  CHECK(cov.total == 1111 - 10000);
  CHECK(cov.percent() == "-12.5%");
  CHECK(coverage(p, std::vector{a}).percent(2) == "-1.25%");
  CHECK(coverage(p, std::vector<Summary>{}).cum == 0);
  CHECK(coverage(p, std::vector{a, b, c, d}).percent() == "100.0%");
  CHECK(percent_of_total(p, -8889) == "100.0%");
}
