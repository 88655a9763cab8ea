#pragma once
// Test helper: the strings a profile's views name (paths, extensions), copied so that they can
// be compared with the naive models' std::string lists and outlive the profile.

#include <string>
#include <string_view>
#include <vector>

namespace bn::test {

inline std::vector<std::string> strings(const std::vector<std::string_view>& views) {
  return {views.begin(), views.end()};
}

}  // namespace bn::test
