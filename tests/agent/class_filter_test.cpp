// The call-tree mode's class filter: globs, include/exclude, and the never-touched set.

#include "calltree/class_filter.h"

#include <doctest/doctest.h>

using bn::agent::ClassFilter;

TEST_CASE("with no include= every class but the never-touched set is instrumented") {
  const ClassFilter f("", "");
  CHECK(f.instruments("com/acme/Foo"));
  CHECK(f.instruments("java/util/HashMap"));
  CHECK(f.instruments("java/security/MessageDigest"));
  CHECK_FALSE(f.instruments("java/lang/Object"));
  CHECK_FALSE(f.instruments("java/lang/ThreadLocal$ThreadLocalMap"));
  CHECK_FALSE(f.instruments("java/lang/invoke/MethodHandle"));
  CHECK_FALSE(f.instruments("java/util/concurrent/atomic/AtomicInteger"));
  CHECK_FALSE(f.instruments("jdk/internal/misc/Unsafe"));
  CHECK_FALSE(f.instruments("bottlenecks/runtime/Probe"));
  CHECK_FALSE(f.instruments("bottlenecks/transform/Transformer"));
}

TEST_CASE("include= and exclude= take ':'-separated globs; exclude wins; never-touched always wins") {
  const ClassFilter f("com.acme.*:java.*", "com.acme.gen.*:java.util.*");
  CHECK(f.instruments("com/acme/Foo"));
  CHECK_FALSE(f.instruments("com/acme/gen/Foo"));
  CHECK(f.instruments("java/security/MessageDigest"));
  CHECK_FALSE(f.instruments("java/util/HashMap"));
  CHECK_FALSE(f.instruments("java/lang/String"));
  CHECK_FALSE(f.instruments("org/other/Foo"));
}
