#include "bn/iface/name_fit.h"

#include <doctest/doctest.h>

using bn::iface::columns;
using bn::iface::elide_middle;
using bn::iface::elide_name;

TEST_CASE("a name that fits is kept whole") {
  CHECK(elide_name("org.apache.xpath.objects.XNodeSet.compare", 41) == "org.apache.xpath.objects.XNodeSet.compare");
}

TEST_CASE("packages are shortened first, outermost first, then left out; Class.method stays") {
  const std::string name = "org.apache.xpath.objects.XNodeSet.compare";
  CHECK(elide_name(name, 40) == "o.apache.xpath.objects.XNodeSet.compare");
  CHECK(elide_name(name, 30) == "o.a.x.objects.XNodeSet.compare");
  CHECK(elide_name(name, 24) == "o.a.x.o.XNodeSet.compare");
  CHECK(elide_name(name, 23) == "…XNodeSet.compare");
  CHECK(elide_name(name, 17) == "…XNodeSet.compare");
  CHECK(columns(elide_name(name, 17)) == 17);
}

TEST_CASE("a Class.method too long alone is cut in the middle, keeping both") {
  CHECK(elide_name("java.lang.SecurityManager.checkRead", 16) == "Security…eckRead");
  CHECK(elide_name("SecurityManager.checkRead", 10) == "Secur…Read");
  CHECK(columns(elide_name("SecurityManager.checkRead", 1)) == 5);  // never below 5 columns
}

TEST_CASE("a class keeps only its own name whole; a signature and an aspect's @ stay") {
  CHECK(elide_name("java.lang.ref.Reference$ReferenceHandler", 32, 1) == "j.l.r.Reference$ReferenceHandler");
  CHECK(elide_name("com.example.Foo.bar(Ljava/lang/String;)V", 30) == "…Foo.bar(Ljava/lang/String;)V");
  CHECK(elide_name("com.example.Foo.bar(Ljava/lang/String;)V", 34) == "c.e.Foo.bar(Ljava/lang/String;)V");
  CHECK(elide_name("@java.lang.String.getBytes", 22) == "@j.l.String.getBytes");
}

TEST_CASE("cutting in the middle counts code points, not bytes") {
  CHECK(elide_middle("µµµµµµµµµµ", 5) == "µµ…µµ");
  CHECK(columns("µs") == 2);
}
