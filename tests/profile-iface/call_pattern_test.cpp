// Call sequences with gaps and aspects as text (seed 000 sec. 2-3): parsing, the rules a
// sequence must obey, and the aspects' patterns (glob with alternatives, or re:).
#include "bn/iface/call_pattern.h"

#include <doctest/doctest.h>

#include "bn/base/error.h"

using bn::base::MethodPattern;
using bn::iface::CallPattern;
using bn::iface::parse_call_pattern;
using Kind = bn::iface::PatternElement::Kind;

namespace {

std::shared_ptr<const MethodPattern> io = std::make_shared<const MethodPattern>("java.io.*|java.nio.*");

bn::iface::AspectLookup aspects() {
  return [](std::string_view name) { return name == "io" || name == "io2" ? io : nullptr; };
}

std::string error_of(std::string_view text) {
  try {
    parse_call_pattern(text, aspects());
  } catch (const bn::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a sequence splits into methods, gaps and aspects, with blanks trimmed") {
  const CallPattern p = parse_call_pattern("Server.handle; .. ;:io;Foo.bar(Ljava/lang/String;I)V", aspects());
  REQUIRE(p.elements.size() == 4);
  CHECK(p.elements[0].kind == Kind::method);
  CHECK(p.elements[1].kind == Kind::gap);
  CHECK(p.elements[2].kind == Kind::aspect);
  CHECK(p.elements[2].name == "io");
  CHECK(p.elements[3].name == "Foo.bar(Ljava/lang/String;I)V");
  CHECK(p.text() == "Server.handle;..;:io;Foo.bar(Ljava/lang/String;I)V");
  CHECK(p.key() == "Server.handle;..;:io=java.io.*|java.nio.*;Foo.bar(Ljava/lang/String;I)V");
  CHECK_FALSE(p.is_plain());
  CHECK(p.gaps() == std::vector<std::size_t>{1});
}

TEST_CASE("an unknown :NAME is a method, so the views' typed time stays searchable") {
  const CallPattern p = parse_call_pattern("a;:RUN", aspects());
  CHECK(p.is_plain());
  CHECK(p.elements[1].name == ":RUN");
}

TEST_CASE("sequences that break a rule are refused with the rule") {
  CHECK(error_of("..;a") == "call sequence '..;a': a gap '..' must stand between two calls, not at an end");
  CHECK(error_of("a;..") == "call sequence 'a;..': a gap '..' must stand between two calls, not at an end");
  CHECK(error_of("a;..;..;b") == "call sequence 'a;..;..;b': two gaps '..' in a row");
  CHECK(error_of(":io;:io2") ==
        "call sequence ':io;:io2': no immediate call from one aspect to another (:io to :io2); put '..' between them");
  CHECK(error_of("a;;b") == "call sequence 'a;;b': empty method name at position 2");
  CHECK(error_of(":io;..;:io2").empty());
}

TEST_CASE("extending, trimming and splitting keep the rules") {
  const CallPattern p = parse_call_pattern("a;..;b", aspects());
  CHECK(bn::iface::extended_through_gap(p, "c").text() == "a;..;b;..;c");
  CHECK(bn::iface::split_at(p, 1, "x").text() == "a;..;x;b");
  CHECK_THROWS_AS(bn::iface::split_at(p, 0, "x"), bn::Error);
  CHECK(bn::iface::trimmed(p, bn::iface::End::top)->text() == "b");
  CHECK(bn::iface::trimmed(p, bn::iface::End::bottom)->text() == "a");
  CHECK_FALSE(bn::iface::trimmed(parse_call_pattern(":io", aspects()), bn::iface::End::top));
  CHECK(bn::iface::extended(p, bn::iface::End::top, "z").text() == "z;a;..;b");
}

TEST_CASE("a pattern is a glob with alternatives, or a whole-name regular expression") {
  CHECK(io->matches("java.io.Writer.write"));
  CHECK(io->matches("java.nio.Buffer.get"));
  CHECK_FALSE(io->matches("sun.io.X"));
  const MethodPattern re("re:java\\.(io|nio)\\..*");
  CHECK(re.matches("java.nio.Buffer.get"));
  CHECK_FALSE(re.matches("xjava.io.A"));
  CHECK(MethodPattern("*.debug*").matches("a.B.debugLog"));
  CHECK_THROWS_WITH_AS(MethodPattern("a||b"), "method pattern 'a||b': empty alternative around '|'", bn::Error);
  CHECK_THROWS_AS(MethodPattern("re:("), bn::Error);
  CHECK_THROWS_AS(MethodPattern(""), bn::Error);
}
