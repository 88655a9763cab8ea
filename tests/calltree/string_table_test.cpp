#include "bn/calltree/string_table.h"

#include <doctest/doctest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

using namespace bn::calltree;

namespace {

// The table against a deliberately naive one: a vector of the strings appended and a map from
// each string to its first id.
struct NaiveTable {
  std::vector<std::string> strings;
  std::map<std::string, MethodId> first;
  bool repeats = false;

  MethodId append(const std::string& s) {
    const auto id = static_cast<MethodId>(strings.size());
    strings.push_back(s);
    repeats |= !first.emplace(s, id).second;
    return id;
  }
};

std::string random_name(std::mt19937& rng) {
  // Few distinct short names (many repeats), some long ones (past a block's 64 KiB now and then)
  // and the empty string.
  const int kind = static_cast<int>(rng() % 20);
  if (kind == 0) return "";
  if (kind == 1) return std::string(1000 + rng() % 70000, static_cast<char>('a' + rng() % 26));
  return "pkg.C" + std::to_string(rng() % 300) + ".m" + std::to_string(rng() % 7);
}

void check_equal(const StringTable& table, const NaiveTable& naive) {
  REQUIRE(table.size() == naive.strings.size());
  CHECK(table.has_repeats() == naive.repeats);
  for (std::size_t id = 0; id < naive.strings.size(); ++id) {
    REQUIRE(table[static_cast<MethodId>(id)] == naive.strings[id]);
    const auto found = table.find(naive.strings[id]);
    REQUIRE(found.has_value());
    CHECK(*found == naive.first.at(naive.strings[id]));
  }
}

}  // namespace

TEST_CASE("appending, interning and finding agree with a naive table over random names") {
  for (unsigned seed = 1; seed <= 30; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    StringTable table;
    NaiveTable naive;
    if (seed % 3 == 0) table.reserve(rng() % 500);  // reserved or not, the same table
    const int steps = 1 + static_cast<int>(rng() % 2000);
    for (int i = 0; i < steps; ++i) {
      const std::string s = random_name(rng);
      if (rng() % 2 == 0) {
        CHECK(table.append(s) == naive.append(s));
      } else {
        const auto known = naive.first.find(s);
        const MethodId expected = known != naive.first.end() ? known->second : naive.append(s);
        CHECK(table.intern(s) == expected);
      }
      if (rng() % 4 == 0) table.reserve(table.size() + rng() % 100);
    }
    check_equal(table, naive);
    CHECK_FALSE(table.find("no such name").has_value());
    const StringTable copied = table.copy();
    check_equal(copied, naive);
    StringTable moved = std::move(table);
    check_equal(moved, naive);
    CHECK(moved.append("after the move") == naive.append("after the move"));
    check_equal(moved, naive);
  }
}

TEST_CASE("an empty table finds nothing and numbers its first string 0") {
  StringTable table;
  CHECK_FALSE(table.find("").has_value());
  CHECK_FALSE(table.has_repeats());
  CHECK(table.intern("") == 0);
  CHECK(table.find("") == MethodId{0});
  CHECK(table.append("") == 1);
  CHECK(table.has_repeats());
  CHECK(table.find("") == MethodId{0});
}
