#include "bn/calltree/frame_names.h"

#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

using bn::calltree::normalize_frame;

TEST_CASE("async-profiler frame-type annotations are dropped from every kind of frame") {
  CHECK(normalize_frame("org/h2/Foo.bar_[j]") == "org.h2.Foo.bar");
  CHECK(normalize_frame("org/h2/Foo.bar_[i]") == "org.h2.Foo.bar");
  CHECK(normalize_frame("org/h2/Foo.bar_[0]") == "org.h2.Foo.bar");
  CHECK(normalize_frame("org/h2/Foo.bar_[1]") == "org.h2.Foo.bar");
  CHECK(normalize_frame("do_syscall_64_[k]") == "do_syscall_64");
  CHECK(normalize_frame("java.lang.String_[i]") == "java.lang.String");  // allocation frame
  CHECK(normalize_frame("byte[]_[k]") == "byte[]");
  // Only a whole trailing annotation: a frame that is nothing but one, or has it mid-name, stays.
  CHECK(normalize_frame("_[j]") == "_[j]");
  CHECK(normalize_frame("foo_[j]bar") == "foo_[j]bar");
  CHECK(normalize_frame("foo_[jj]") == "foo_[jj]");
  // Blanks before an annotation go with it (the collapsed writer refuses a name ending in one).
  CHECK(normalize_frame("q3 _[j]") == "q3");
  CHECK(normalize_frame("q3 \t_[j]") == "q3");
  CHECK(normalize_frame("q3 ") == "q3 ");
  CHECK(normalize_frame(" _[j]") == " _[j]");
}

TEST_CASE("Java class names with slashes become dotted") {
  CHECK(normalize_frame("org/h2/Foo.bar") == "org.h2.Foo.bar");
  CHECK(normalize_frame("java/util/HashMap$TreeNode.find") == "java.util.HashMap$TreeNode.find");
  CHECK(normalize_frame("java/lang/Object.<init>") == "java.lang.Object.<init>");
  CHECK(normalize_frame("Main.main_[0]") == "Main.main");
  CHECK(normalize_frame("org/h2/Foo.lambda$run$0") == "org.h2.Foo.lambda$run$0");
  CHECK(normalize_frame("org.h2.Foo.bar") == "org.h2.Foo.bar");  // stackcollapse-jstack style
}

TEST_CASE("native, C++ and kernel frames keep their names") {
  for (const char* name :
       {"os::javaTimeNanos()", "JavaThread::run()", "__GI___libc_write", "[unknown]", "[main tid=12345]",
        "/usr/lib/x86_64-linux-gnu/libc.so.6", "libc.so.6", "libjvm.so`JVM_Sleep",
        "std::vector<int>::push_back(int const&)", "tcp_sendmsg.isra.0", "[libjvm.so+0x1234]", "start_thread",
        "a/b c.d", "a/b::c.d", "github.com/x/y.Func", "runtime.goexit"}) {
    CAPTURE(name);
    CHECK(normalize_frame(name) == name);
  }
}

TEST_CASE("hidden and anonymous class suffixes are cut in all their spellings") {
  CHECK(normalize_frame("org/h2/Foo$$Lambda$14/0x0000000800c02a00.run") == "org.h2.Foo$$Lambda.run");
  CHECK(normalize_frame("org/h2/Foo$$Lambda/0x000000080106d800.run") == "org.h2.Foo$$Lambda.run");  // JDK 21
  CHECK(normalize_frame("org/h2/Foo$$Lambda.0x000000080106d800.run_[j]") == "org.h2.Foo$$Lambda.run");
  CHECK(normalize_frame("org/h2/Foo$$Lambda$14.0x0000000800c02a00.run") == "org.h2.Foo$$Lambda.run");
  CHECK(normalize_frame("org/h2/Foo$$Lambda+0x0000000800c02a00.run") == "org.h2.Foo$$Lambda.run");
  CHECK(normalize_frame("java/lang/invoke/LambdaForm$MH/0x0000000800c0c400.invoke") ==
        "java.lang.invoke.LambdaForm$MH.invoke");
  CHECK(normalize_frame("java/lang/invoke/LambdaForm$DMH/1234567.invokeStatic") ==
        "java.lang.invoke.LambdaForm$DMH.invokeStatic");  // JDK 8 VM-anonymous class
  CHECK(normalize_frame("org/h2/Foo$$Lambda$14.run") == "org.h2.Foo$$Lambda.run");
  CHECK(normalize_frame("org.h2.Foo$$Lambda.run") == "org.h2.Foo$$Lambda.run");
  // async-profiler's dotted style keeps the '/' before a hidden-class suffix.
  CHECK(normalize_frame("org.h2.Foo$$Lambda$14/0x0000000800c02a00.run") == "org.h2.Foo$$Lambda.run");
}

TEST_CASE("numbered and randomly named generated classes lose their number") {
  CHECK(normalize_frame("jdk/internal/reflect/GeneratedMethodAccessor123.invoke") ==
        "jdk.internal.reflect.GeneratedMethodAccessor.invoke");
  CHECK(normalize_frame("sun/reflect/GeneratedConstructorAccessor45.newInstance") ==
        "sun.reflect.GeneratedConstructorAccessor.newInstance");
  CHECK(normalize_frame("sun/reflect/GeneratedSerializationConstructorAccessor7.newInstance") ==
        "sun.reflect.GeneratedSerializationConstructorAccessor.newInstance");
  CHECK(normalize_frame("com/sun/proxy/$Proxy12.query") == "com.sun.proxy.$Proxy.query");
  CHECK(normalize_frame("jdk/proxy2/$Proxy31.query") == "jdk.proxy.$Proxy.query");
  CHECK(normalize_frame("org/h2/Foo$ByteBuddy$AbC123.call") == "org.h2.Foo$ByteBuddy.call");
  CHECK(normalize_frame("org/h2/Foo$ByteBuddy$auxiliary$AbC123.call") == "org.h2.Foo$ByteBuddy$auxiliary.call");
  CHECK(normalize_frame("org/h2/Foo$ByteBuddy$x1$auxiliary$y2.call") == "org.h2.Foo$ByteBuddy$auxiliary.call");
  CHECK(normalize_frame("org/h2/Foo$MockitoMock$1234567.call") == "org.h2.Foo$MockitoMock.call");
  CHECK(normalize_frame("org/h2/Foo$HibernateProxy$Xy7Q.getId") == "org.h2.Foo$HibernateProxy.getId");
  CHECK(normalize_frame("org/h2/Foo$$EnhancerBySpringCGLIB$$1a2b3c4d.save") ==
        "org.h2.Foo$$EnhancerBySpringCGLIB.save");
  CHECK(normalize_frame("org/h2/Foo$$FastClassBySpringCGLIB$$9f8e.invoke") ==
        "org.h2.Foo$$FastClassBySpringCGLIB.invoke");
  CHECK(normalize_frame("org/h2/Foo$$SpringCGLIB$$0.save") == "org.h2.Foo$$SpringCGLIB.save");
  // Not generated: counters that are stable across runs, and look-alikes.
  CHECK(normalize_frame("org/h2/Foo$1.run") == "org.h2.Foo$1.run");                    // anonymous class
  CHECK(normalize_frame("org/h2/Foo$Lambda$1.run") == "org.h2.Foo$Lambda$1.run");      // needs `$$Lambda`
  CHECK(normalize_frame("org/h2/Foo$$Lambda$x1.run") == "org.h2.Foo$$Lambda$x1.run");  // counter is digits
  CHECK(normalize_frame("org/h2/Foo$ByteBuddy$Ab$Inner.run") == "org.h2.Foo$ByteBuddy$Ab$Inner.run");
  CHECK(normalize_frame("org/h2/GeneratedMethodAccessorX.invoke") == "org.h2.GeneratedMethodAccessorX.invoke");
  CHECK(normalize_frame("org/h2/My$Proxy12.invoke") == "org.h2.My$Proxy12.invoke");
}

TEST_CASE("signatures are dropped by default and kept verbatim apart from ';' on request") {
  CHECK(normalize_frame("org/h2/Foo.bar(Ljava/lang/String;I)V_[j]") == "org.h2.Foo.bar");
  CHECK(normalize_frame("org/h2/Foo.bar(Ljava/lang/String|[[IJ)Ljava/lang/Object|") == "org.h2.Foo.bar");
  CHECK(normalize_frame("org/h2/Foo.bar(Ljava/lang/String;I)V_[j]", true) == "org.h2.Foo.bar(Ljava/lang/String|I)V");
  CHECK(normalize_frame("org/h2/Foo.bar(Ljava/lang/String|)V", true) == "org.h2.Foo.bar(Ljava/lang/String|)V");
  CHECK(normalize_frame("org/h2/Foo$$Lambda$3/0x01.run()V", true) == "org.h2.Foo$$Lambda.run()V");
  CHECK(normalize_frame("org/h2/Foo.bar", true) == "org.h2.Foo.bar");
  // Not a JVM descriptor, so not a Java frame: left alone.
  CHECK(normalize_frame("org/h2/Foo.bar(int)") == "org/h2/Foo.bar(int)");
  CHECK(normalize_frame("org/h2/Foo.bar(I)VV") == "org/h2/Foo.bar(I)VV");
  CHECK(normalize_frame("org/h2/Foo.bar(Ljava/lang/String)V") == "org/h2/Foo.bar(Ljava/lang/String)V");
}

TEST_CASE("normalising twice gives the same name as normalising once (random frames)") {
  // Names are assembled from the pieces every rule looks at, so the rules meet each other.
  const std::vector<std::string> pieces = {"org",
                                           "/",
                                           ".",
                                           "$",
                                           "$$",
                                           "Lambda",
                                           "14",
                                           "0x7f",
                                           "+",
                                           "Foo",
                                           "ByteBuddy",
                                           "auxiliary",
                                           "Ab1",
                                           "GeneratedMethodAccessor",
                                           "$Proxy",
                                           "jdk",
                                           "proxy2",
                                           "SpringCGLIB",
                                           "EnhancerBySpringCGLIB",
                                           "_[j]",
                                           "_[k]",
                                           "(",
                                           ")",
                                           "V",
                                           "I",
                                           "Ljava/lang/String;",
                                           "Ljava/lang/String|",
                                           "[",
                                           "run",
                                           "<init>",
                                           " ",
                                           "::",
                                           "x"};
  std::mt19937 rng(20040101);
  for (int i = 0; i < 20000; ++i) {
    std::string frame;
    const int n = std::uniform_int_distribution<int>(1, 12)(rng);
    for (int k = 0; k < n; ++k) frame += pieces[std::uniform_int_distribution<std::size_t>(0, pieces.size() - 1)(rng)];
    for (const bool keep : {false, true}) {
      const std::string once = normalize_frame(frame, keep);
      CAPTURE(frame);
      CAPTURE(keep);
      CHECK(normalize_frame(once, keep) == once);
      CHECK(!once.empty());
    }
  }
}
