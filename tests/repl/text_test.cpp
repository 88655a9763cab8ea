#include "bn/repl/text.h"

#include <doctest/doctest.h>

using bn::repl::split_word;
using SplitWords = std::vector<std::string_view>;

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
  CHECK(bn::repl::split_words(" label\thot  path ") == SplitWords{"label", "hot", "path"});
  CHECK(bn::repl::split_words("path a;b(I;J)V;c") == SplitWords{"path", "a;b(I;J)V;c"});
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

TEST_CASE("terminal_safe escapes what a terminal would obey and keeps every other character") {
  using bn::repl::terminal_safe;
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
