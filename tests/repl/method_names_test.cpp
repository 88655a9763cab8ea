#include "bn/repl/method_names.h"

#include <doctest/doctest.h>

#include "bn/iface/error.h"
#include "bn/iface/glob.h"
#include "fake_profile.h"

using bn::repl::MethodIndex;
using bn::repl::testing::FakeProfile;

TEST_CASE("short names drop the package like seed 004 Fig. 1") {
  CHECK(bn::repl::short_name("java.lang.SecurityManager.getClassContext") == "SecurityManager.getClassContext");
  CHECK(bn::repl::short_name("Foo.bar") == "Foo.bar");
  CHECK(bn::repl::short_name("main") == "main");
  CHECK(bn::repl::short_name("a.b.C.m(Ljava/lang/String;)V") == "C.m(Ljava/lang/String;)V");
}

TEST_CASE("the short names of a view's pseudo-nodes keep what tells them apart from Java frames") {
  CHECK(bn::repl::short_name(":MONITOR") == ":MONITOR");
  CHECK(bn::repl::short_name(":THREAD java.lang.ref.Reference$Handler") == ":THREAD java.lang.ref.Reference$Handler");
  CHECK(bn::repl::short_name("@com.example.mail.Mailbox.fill") == "@Mailbox.fill");
}

TEST_CASE("call sequences split on ';' outside JVM signatures") {
  CHECK(bn::repl::split_call_sequence("a; b ;c") == std::vector<std::string>{"a", "b", "c"});
  CHECK(bn::repl::split_call_sequence("A.m(Ljava/lang/String;)V;B.n") ==
        std::vector<std::string>{"A.m(Ljava/lang/String;)V", "B.n"});
}

TEST_CASE("globs match any run of characters with '*'") {
  CHECK(bn::iface::glob_match("*Security*check*", "java.lang.SecurityManager.checkPermission"));
  CHECK(bn::iface::glob_match("a*", "a"));
  CHECK_FALSE(bn::iface::glob_match("*x", "abc"));
}

TEST_CASE("method names resolve exactly, by short name, by unique prefix and by unique glob") {
  FakeProfile p({{"org.x.Foo.run;org.x.Foo.call", 3}, {"org.y.Bar.go;org.y.Bar.gone", 1}, {"org.z.Baz.m", 1}});
  MethodIndex index(p);
  CHECK(index.resolve("org.x.Foo.run") == "org.x.Foo.run");
  CHECK(index.resolve("Foo.call") == "org.x.Foo.call");
  CHECK(index.resolve("org.z.Baz") == "org.z.Baz.m");  // a prefix that ends a name component
  // A prefix that stops inside a word is offered, not taken: `NoSuchMethod` is no NoSuchMethodError.
  CHECK_THROWS_WITH_AS(index.resolve("org.x.Foo.r"), "no method is named 'org.x.Foo.r'; did you mean org.x.Foo.run?",
                       bn::Error);
  CHECK(index.resolve("*call") == "org.x.Foo.call");
  CHECK(index.resolve("Bar.go") == "org.y.Bar.go");  // exact short name beats the longer prefix match
  CHECK_THROWS_WITH_AS(index.resolve("org.x.Foo"), "'org.x.Foo' is ambiguous: it matches org.x.Foo.call, org.x.Foo.run",
                       bn::Error);
  CHECK_THROWS_WITH_AS(index.resolve("nope"), "no method matches 'nope'", bn::Error);
}

TEST_CASE("a signature may be typed with the JVM's ';', stored as async-profiler's '|'") {
  FakeProfile p({{"T.main(Ljava/lang/String|)V;T.f(I)V", 2}});
  MethodIndex index(p);
  CHECK(index.resolve("T.main(Ljava/lang/String;)V") == "T.main(Ljava/lang/String|)V");
  CHECK(index.resolve("T.main(Ljava/lang/String|)V") == "T.main(Ljava/lang/String|)V");
}

TEST_CASE("a call sequence without a root is reported with what its longest rooted prefix calls") {
  FakeProfile p(bn::repl::testing::figure2());
  MethodIndex index(p);
  CHECK(p.path_of(bn::repl::resolve_call_sequence(p, index, "a;b;c")) == std::vector<std::string_view>{"a", "b", "c"});
  CHECK_THROWS_WITH_AS(bn::repl::resolve_call_sequence(p, index, "b;e"),
                       "call sequence [b;e] has no root: [b] never calls e (it calls c)", bn::Error);
}
