#pragma once
// Test helper: Profile::top_extensions_up_to of a summary against the whole list of its callers
// (a naive model's, sorted by name): that list without the name left out, whole when it has at
// most `at_most` names, else `at_most` of them, sorted.

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "bn/iface/profile.h"
#include "owned_strings.h"

namespace bn::test {

inline void check_callers_up_to(iface::Profile& p, iface::Summary s, const std::vector<std::string>& callers) {
  std::vector<std::string> left_out{"", "no such method"};
  left_out.insert(left_out.end(), callers.begin(), callers.end());
  for (const std::string& other_than : left_out)
    for (std::size_t at_most = 0; at_most <= 3; ++at_most) {
      std::vector<std::string> others = callers;
      std::erase(others, other_than);
      const std::vector<std::string> got = strings(p.top_extensions_up_to(s, at_most, other_than));
      CHECK(std::is_sorted(got.begin(), got.end()));
      if (others.size() <= at_most) {
        CHECK(got == others);
      } else {
        CHECK(got.size() == at_most);
        CHECK(std::includes(others.begin(), others.end(), got.begin(), got.end()));
      }
    }
}

}  // namespace bn::test
