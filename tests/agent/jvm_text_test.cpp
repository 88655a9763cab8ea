// Modified UTF-8 from JVMTI to the standard UTF-8 the profile format requires
// (recorder-agent/src/core/jvm_text.cpp).

#include "core/jvm_text.h"

#include <doctest/doctest.h>

#include <string>

using bn::agent::standard_utf8;

TEST_CASE("ASCII and BMP characters pass through unchanged") {
  CHECK(standard_utf8("java.lang.Thread.run") == "java.lang.Thread.run");
  CHECK(standard_utf8("gr\xC3\xB6\xC3\x9F"
                      "e-\xE2\x82\xAC") ==
        "gr\xC3\xB6\xC3\x9F"
        "e-\xE2\x82\xAC");
}

TEST_CASE("a character beyond U+FFFF, sent as two encoded surrogates, becomes four bytes") {
  // U+1F600 in modified UTF-8: ED A0 BD ED B8 80; in UTF-8: F0 9F 98 80.
  CHECK(standard_utf8("w-\xED\xA0\xBD\xED\xB8\x80!") == "w-\xF0\x9F\x98\x80!");
}

TEST_CASE("NUL, lone surrogates and malformed bytes become U+FFFD") {
  const std::string fffd = "\xEF\xBF\xBD";
  CHECK(standard_utf8(std::string("a\xC0\x80"
                                  "b")) == "a" + fffd + "b");
  CHECK(standard_utf8("\xED\xA0\xBDx") == fffd + "x");  // high surrogate without its pair
  CHECK(standard_utf8("\xED\xB8\x80") == fffd);         // low surrogate alone
  CHECK(standard_utf8("\xFF") == fffd);
  CHECK(standard_utf8("\xE2\x82") == fffd + fffd);  // cut-off sequence
  CHECK(standard_utf8("\xE0\x80\x80") == fffd);     // overlong
}
