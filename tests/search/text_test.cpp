#include "bn/search/text.h"

#include <doctest/doctest.h>

using bn::search::split_word;
using SplitWords = std::vector<std::string_view>;

TEST_CASE("trim drops blanks at both ends and the line end of a CRLF script") {
  CHECK(bn::search::trim("  select 3 \t") == "select 3");
  CHECK(bn::search::trim("show\r\n") == "show");
  CHECK(bn::search::trim(" \t\r ").empty());
  CHECK(bn::search::trim("a  b") == "a  b");
}

TEST_CASE("a word ends at a blank and the rest comes back trimmed") {
  CHECK(split_word("  set  zoom on ") == std::pair<std::string_view, std::string_view>{"set", "zoom on"});
  CHECK(split_word("path a;b;c") == std::pair<std::string_view, std::string_view>{"path", "a;b;c"});
  CHECK(split_word("quit") == std::pair<std::string_view, std::string_view>{"quit", ""});
  CHECK(split_word(" \t ") == std::pair<std::string_view, std::string_view>{"", ""});
}

TEST_CASE("words are separated by blanks only, so a call sequence is one word") {
  CHECK(bn::search::split_words(" label\thot  path ") == SplitWords{"label", "hot", "path"});
  CHECK(bn::search::split_words("path a;b(I;J)V;c") == SplitWords{"path", "a;b(I;J)V;c"});
  CHECK(bn::search::split_words("   ").empty());
}

TEST_CASE("one pair of matching quotes is dropped, anything else is kept") {
  CHECK(bn::search::unquote("\"hot path\"") == "hot path");
  CHECK(bn::search::unquote("'x.labels'") == "x.labels");
  CHECK(bn::search::unquote("\"\"").empty());
  CHECK(bn::search::unquote("\"mixed'") == "\"mixed'");
  CHECK(bn::search::unquote("\"") == "\"");
  CHECK(bn::search::unquote("plain") == "plain");
}

TEST_CASE("case folding is ASCII and leaves other bytes alone") {
  CHECK(bn::search::lower("HighCum") == "highcum");
  CHECK(bn::search::lower("\xc3\x84") == "\xc3\x84");
  CHECK(bn::search::equals_nocase("ALL", "all"));
  CHECK_FALSE(bn::search::equals_nocase("al", "all"));
  CHECK(bn::search::starts_with_nocase("Suggest", "SUG"));
  CHECK_FALSE(bn::search::starts_with_nocase("su", "sug"));
  CHECK(bn::search::starts_with_nocase("x", ""));
}

TEST_CASE("a count takes the singular for exactly one and the plural otherwise") {
  CHECK(bn::search::counted(1, "method") == "1 method");
  CHECK(bn::search::counted(0, "method") == "0 methods");
  CHECK(bn::search::counted(12, "method") == "12 methods");
  CHECK(bn::search::counted(1, "labelled summary", "labelled summaries") == "1 labelled summary");
  CHECK(bn::search::counted(2, "labelled summary", "labelled summaries") == "2 labelled summaries");
}

TEST_CASE("terminal_safe escapes what a terminal would obey and keeps every other character") {
  using bn::search::terminal_safe;
  // An escape sequence that would retitle the window, a colour, a bell, a line end.
  CHECK(terminal_safe("a\x1b]0;pwned\x07.b") == "a\\x1b]0;pwned\\x07.b");
  CHECK(terminal_safe("\x1b[31mred") == "\\x1b[31mred");
  CHECK(terminal_safe("x\ny\rz\tw\x7f") == "x\\x0ay\\x0dz\\x09w\\x7f");
  // C1 controls (U+009B is CSI) and a right-to-left override, encoded as UTF-8.
  CHECK(terminal_safe("a\xc2\x9b"
                      "31m") == "a\\u009b31m");
  CHECK(terminal_safe("ab\xe2\x80\xae"
                      "cd") == "ab\\u202ecd");
  // Bytes that are not UTF-8: a stray continuation byte, a cut sequence, an overlong '/'.
  CHECK(terminal_safe("a\x80z") == "a\\x80z");
  CHECK(terminal_safe("a\xe2\x82") == "a\\xe2\\x82");
  CHECK(terminal_safe("\xc0\xaf") == "\\xc0\\xaf");
  // Printable text, accents, CJK and emoji pass unchanged.
  const std::string fine = "java.lang.String.<init>(I)V \xc3\xa9\xe6\xbc\xa2\xf0\x9f\x98\x80 $1";
  CHECK(terminal_safe(fine) == fine);
  CHECK(terminal_safe("").empty());
}
