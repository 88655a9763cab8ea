// Conversion of JVMTI's modified UTF-8 names to the standard UTF-8 the profile format stores.

#include "bn/calltree/jvm_utf8.h"

#include <doctest/doctest.h>

#include <string>

using bn::calltree::utf8_from_modified_utf8;

TEST_CASE("ASCII and ordinary UTF-8 names pass through unchanged") {
  CHECK(utf8_from_modified_utf8("java.lang.String.valueOf") == "java.lang.String.valueOf");
  CHECK(utf8_from_modified_utf8("Caf\xc3\xa9.m\xe2\x82\xac") == "Caf\xc3\xa9.m\xe2\x82\xac");
  CHECK(utf8_from_modified_utf8("").empty());
}

TEST_CASE("the two-byte NUL of modified UTF-8 becomes a real NUL") {
  CHECK(utf8_from_modified_utf8("a\xc0\x80z") == std::string("a\0z", 3));
}

TEST_CASE("a surrogate pair becomes one four-byte sequence") {
  // U+1F600 is the pair D83D DE00, which modified UTF-8 writes as ED A0 BD ED B8 80.
  CHECK(utf8_from_modified_utf8("m\xed\xa0\xbd\xed\xb8\x80") == "m\xf0\x9f\x98\x80");
}

TEST_CASE("lone surrogates and stray bytes become U+FFFD, one per byte") {
  CHECK(utf8_from_modified_utf8("a\xed\xa0\xbd"
                                "b") ==
        "a\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
        "b");
  CHECK(utf8_from_modified_utf8("\x80x\xff") == "\xef\xbf\xbdx\xef\xbf\xbd");
  CHECK(utf8_from_modified_utf8("\xc3") == "\xef\xbf\xbd");  // cut-off sequence at the end
}
