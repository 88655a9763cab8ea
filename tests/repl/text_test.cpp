#include "bn/repl/text.h"

#include <doctest/doctest.h>

using bn::repl::split_word;
using Words = std::vector<std::string_view>;

TEST_CASE("trim drops blanks at both ends and the line end of a CRLF script") {
  CHECK(bn::repl::trim("  select 3 \t") == "select 3");
  CHECK(bn::repl::trim("show\r\n") == "show");
  CHECK(bn::repl::trim(" \t\r ").empty());
  CHECK(bn::repl::trim("a  b") == "a  b");
}

TEST_CASE("a word ends at a blank and the rest comes back trimmed") {
  CHECK(split_word("  set  zoom on ") == std::pair<std::string_view, std::string_view>{"set", "zoom on"});
  CHECK(split_word("path a;b;c") == std::pair<std::string_view, std::string_view>{"path", "a;b;c"});
  CHECK(split_word("quit") == std::pair<std::string_view, std::string_view>{"quit", ""});
  CHECK(split_word(" \t ") == std::pair<std::string_view, std::string_view>{"", ""});
}

TEST_CASE("words are separated by blanks only, so a call sequence is one word") {
  CHECK(bn::repl::split_words(" label\thot  path ") == Words{"label", "hot", "path"});
  CHECK(bn::repl::split_words("path a;b(I;J)V;c") == Words{"path", "a;b(I;J)V;c"});
  CHECK(bn::repl::split_words("   ").empty());
}

TEST_CASE("one pair of matching quotes is dropped, anything else is kept") {
  CHECK(bn::repl::unquote("\"hot path\"") == "hot path");
  CHECK(bn::repl::unquote("'x.labels'") == "x.labels");
  CHECK(bn::repl::unquote("\"\"").empty());
  CHECK(bn::repl::unquote("\"mixed'") == "\"mixed'");
  CHECK(bn::repl::unquote("\"") == "\"");
  CHECK(bn::repl::unquote("plain") == "plain");
}

TEST_CASE("case folding is ASCII and leaves other bytes alone") {
  CHECK(bn::repl::lower("HighCum") == "highcum");
  CHECK(bn::repl::lower("\xc3\x84") == "\xc3\x84");
  CHECK(bn::repl::equals_nocase("ALL", "all"));
  CHECK_FALSE(bn::repl::equals_nocase("al", "all"));
  CHECK(bn::repl::starts_with_nocase("Suggest", "SUG"));
  CHECK_FALSE(bn::repl::starts_with_nocase("su", "sug"));
  CHECK(bn::repl::starts_with_nocase("x", ""));
}
