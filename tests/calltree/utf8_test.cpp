// is_valid_utf8 (which skips ASCII a word at a time) against the definition applied one sequence
// at a time (utf8_sequence_length, the RFC 3629 rules): random strings of ASCII runs, valid
// multi-byte sequences and stray bytes, at every alignment.

#include "bn/calltree/utf8.h"

#include <doctest/doctest.h>

#include <random>
#include <string>

using namespace bn::calltree;

namespace {

bool valid_by_sequences(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t len = utf8_sequence_length(s, i);
    if (len == 0) return false;
    i += len;
  }
  return true;
}

}  // namespace

TEST_CASE("UTF-8 validation agrees with the sequence-by-sequence definition") {
  std::mt19937 rng(20261124);
  const char* pieces[] = {
      "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xed\xa0\x80" /* surrogate */, "\xc0\xaf" /* overlong */,
      "\x80",     "\xff",         "\xf4\x90\x80\x80" /* past U+10FFFF */};
  int valid = 0;
  for (int round = 0; round < 5000; ++round) {
    std::string s;
    const int parts = static_cast<int>(rng() % 6);
    for (int p = 0; p < parts; ++p) {
      s.append(rng() % 20, static_cast<char>('a' + rng() % 26));
      if (rng() % 2 == 0) s += pieces[rng() % (rng() % 4 == 0 ? 8 : 3)];
      if (!s.empty() && rng() % 8 == 0) s.pop_back();  // sometimes a sequence cut short
    }
    CAPTURE(s);
    const bool expected = valid_by_sequences(s);
    valid += expected;
    CHECK(is_valid_utf8(s) == expected);
  }
  CHECK(valid > 1000);
  CHECK(valid < 4000);
}
