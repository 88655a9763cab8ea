#pragma once
// Which classes mode=calltree instruments, by name (`pkg.Outer$Inner`, dotted). A class is
// instrumented when no never-touched prefix names it, `include=` is empty or one of its globs
// matches, and no `exclude=` glob matches. (Without `include=` the engine also leaves out the
// JDK's runtime, by class loader: calltree_engine.h.) Globs: `*` matches any run of characters, dots
// included, so `com.acme.*` is the package and every package below it (bn/base/glob.h).
//
// Never touched (docs/recorder.md, "The classes never instrumented"), because the probes or the
// JVM's own start-up run them and an instrumented one would recurse or run before the runtime
// exists: the agent's runtime and transformer (`bottlenecks.runtime.`, `bottlenecks.transform.`),
// `java.lang.` and its subpackages (Object, Thread, ThreadLocal, System, Class, String: what the
// probes and the runtime use; java.lang.invoke runs lambda and string-concatenation bootstraps),
// `java.util.concurrent.atomic.` (ThreadLocal's constructor), `jdk.internal.` (Unsafe, the VM's
// own class loaders and reflection accessors) and `sun.misc.`, `sun.reflect.`, `sun.invoke.`.

#include <string>
#include <string_view>
#include <vector>

namespace bn::agent {

class ClassFilter {
 public:
  // `include` and `exclude` as the options give them: globs separated by ':' (may be empty).
  ClassFilter(std::string_view include, std::string_view exclude);

  // `name` in the JVM's internal form (`pkg/Outer$Inner`), as ClassFileLoadHook gives it.
  bool instruments(std::string_view internal_name) const;

  static bool never_touched(std::string_view dotted_name);
  bool has_include() const { return !include_.empty(); }

 private:
  std::vector<std::string> include_;
  std::vector<std::string> exclude_;
};

}  // namespace bn::agent
