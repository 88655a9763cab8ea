#include "bn/search/method_names.h"

#include <doctest/doctest.h>

#include "bn/base/error.h"
#include "bn/base/glob.h"
#include "fake_profile.h"

using bn::search::MethodIndex;
using bn::search::testing::FakeProfile;

TEST_CASE("short names drop the package like seed 004 Fig. 1") {
  CHECK(bn::search::short_name("java.lang.SecurityManager.getClassContext") == "SecurityManager.getClassContext");
  CHECK(bn::search::short_name("Foo.bar") == "Foo.bar");
  CHECK(bn::search::short_name("main") == "main");
  CHECK(bn::search::short_name("a.b.C.m(Ljava/lang/String;)V") == "C.m(Ljava/lang/String;)V");
}

TEST_CASE("native names keep their compiler clone suffixes, C++ names their last two components") {
  using bn::search::short_name;
  // GCC and Clang clones are no package.class (this showed as "isra.0").
  CHECK(short_name("finish_task_switch.isra.0") == "finish_task_switch.isra.0");
  CHECK(short_name("foo.constprop.0.cold") == "foo.constprop.0.cold");
  CHECK(short_name("do_syscall_64.part.12") == "do_syscall_64.part.12");
  CHECK(short_name("bar.llvm.4711") == "bar.llvm.4711");
  CHECK(short_name("memcpy.cold") == "memcpy.cold");
  CHECK(short_name("ns::Cls::method.isra.0") == "Cls::method.isra.0");
  // A Java method named cold is still a Java method.
  CHECK(short_name("com.example.Cache.cold") == "Cache.cold");
  // Not Java: a library file name, a bracketed module, a thread frame.
  CHECK(short_name("libc.so.6") == "libc.so.6");
  CHECK(short_name("[kernel.kallsyms]") == "[kernel.kallsyms]");
  CHECK(short_name("[thread main]") == "[thread main]");
  // C++: "::" inside template arguments and parameter lists does not split.
  CHECK(short_name("std::vector<std::pair<int, int>>::push_back(std::pair<int, int> const&)") ==
        "vector<std::pair<int, int>>::push_back(std::pair<int, int> const&)");
  CHECK(short_name("ns::f(std::string)") == "ns::f(std::string)");
  CHECK(short_name("JavaThread::run()") == "JavaThread::run()");
  CHECK(short_name("(anonymous namespace)::Foo::bar") == "Foo::bar");
}

TEST_CASE("the short names of a view's pseudo-nodes keep what tells them apart from Java frames") {
  CHECK(bn::search::short_name(":MONITOR") == ":MONITOR");
  CHECK(bn::search::short_name(":THREAD java.lang.ref.Reference$Handler") == ":THREAD java.lang.ref.Reference$Handler");
  CHECK(bn::search::short_name("@com.example.mail.Mailbox.fill") == "@Mailbox.fill");
}

TEST_CASE("call sequences split on ';' outside JVM signatures") {
  CHECK(bn::search::split_call_sequence("a; b ;c") == std::vector<std::string>{"a", "b", "c"});
  CHECK(bn::search::split_call_sequence("A.m(Ljava/lang/String;)V;B.n") ==
        std::vector<std::string>{"A.m(Ljava/lang/String;)V", "B.n"});
}

TEST_CASE("globs match any run of characters with '*'") {
  CHECK(bn::base::glob_match("*Security*check*", "java.lang.SecurityManager.checkPermission"));
  CHECK(bn::base::glob_match("a*", "a"));
  CHECK_FALSE(bn::base::glob_match("*x", "abc"));
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
  FakeProfile p(bn::search::testing::figure2());
  MethodIndex index(p);
  CHECK(p.path_of(bn::search::resolve_call_sequence(p, index, "a;b;c", bn::search::AspectTable{})) ==
        std::vector<std::string_view>{"a", "b", "c"});
  CHECK_THROWS_WITH_AS(bn::search::resolve_call_sequence(p, index, "b;e", bn::search::AspectTable{}),
                       "call sequence [b;e] has no root: [b] never calls e (it calls c)", bn::Error);
}
