// End-to-end: mode=calltree keeps its transformer (bottlenecks.transform, with ASM relocated
// inside) out of C2 with a compiler directive (recorder-agent/src/calltree/compiler_directives.h), and only
// where C1 then compiles it: with C2 alone, an excluded method would stay interpreted. The
// directive matches class names, so it must leave a program's own org.objectweb.asm to C2.

#include <doctest/doctest.h>
#include <unistd.h>

#include <chrono>
#include <sstream>
#include <string>
#include <vector>

#include "agent_harness.h"

namespace {

constexpr const char* kMatching = "matching: bottlenecks/transform/*.*\n";

struct Run {
  bn::test::JavaRun java;
  std::string transformer_jit;  // the profile's metadata
};

// tests/agent/java/Directives.java (prints the JVM's directives) under mode=calltree.
Run directives_under_agent(const std::vector<std::string>& jvm_args, const std::string& name) {
  const auto file = bn::test::work_dir("Directives-" + name + "-" + std::to_string(getpid())) / "run.bnp";
  bn::test::JavaRunOptions o;
  o.main_class = "Directives";
  o.jvm_args = jvm_args;
  o.agent_options = "mode=calltree,quiet,file=" + file.string();
  Run r{bn::test::run_java(o), {}};
  INFO("stderr: " << r.java.err);
  REQUIRE_FALSE(r.java.timed_out);
  REQUIRE(r.java.exit_code == 0);
  const bn::test::Profile profile = bn::test::load(file);
  const auto jit = profile.loaded.tree.metadata().find_extra("transformer_jit");
  REQUIRE(jit.has_value());
  r.transformer_jit = std::string(*jit);
  return r;
}

}  // namespace

TEST_CASE("mode=calltree keeps its transformer's classes out of C2, and the profile says so") {
  const Run r = directives_under_agent({}, "tiered");
  INFO("stdout: " << r.java.out);
  const auto at = r.java.out.find(kMatching);
  REQUIRE(at != std::string::npos);
  // The directive's own c2 block (the next directive printed is the default, which excludes nothing).
  const auto c2 = r.java.out.find("c2 directives:", at);
  REQUIRE(c2 != std::string::npos);
  CHECK(r.java.out.find("Exclude:true", c2) < r.java.out.find("Directive:", c2));
  CHECK(r.transformer_jit.starts_with("C1 only"));
}

TEST_CASE("where C2 compiles alone no directive is added: the transformer would stay interpreted") {
  for (const char* flag : {"-XX:-TieredCompilation", "-XX:CompilationMode=high-only"}) {
    const Run r = directives_under_agent({flag}, flag + 4);
    INFO(std::string(flag) << " stdout: " << r.java.out);
    CHECK(r.java.out.find(kMatching) == std::string::npos);
    CHECK(r.transformer_jit.starts_with("C1 and C2: C2 compiles alone"));
  }
}

TEST_CASE(
    "the transformer's jar holds ASM relocated under bottlenecks/transform/asm, nothing under org/objectweb/asm") {
  const bn::test::JavaRun r = bn::test::run_command(
      {bn::test::java_tool("jar"), "--list", "--file", std::string(BN_BINARY_DIR) + "/bottlenecks-transformer.jar"},
      std::chrono::milliseconds(60'000));
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("bottlenecks/transform/Transformer.class\n") != std::string::npos);
  CHECK(r.out.find("bottlenecks/transform/asm/ClassReader.class\n") != std::string::npos);
  CHECK(r.out.find("bottlenecks/transform/asm/commons/AdviceAdapter.class\n") != std::string::npos);
  CHECK(r.out.find("org/objectweb/asm") == std::string::npos);
}

TEST_CASE("under mode=calltree a program's own ASM (org.objectweb.asm) is still compiled by C2") {
  const auto file = bn::test::work_dir("AsmUser-" + std::to_string(getpid())) / "run.bnp";
  bn::test::JavaRunOptions o;
  o.main_class = "AsmUser";
  o.class_path = BN_ASM_JARS;
  // -Xbatch: each compilation finishes before the call that asked for it goes on, so 100000 calls
  // reach level 4 (C2) whatever the machine's load. main stays interpreted: every call reaches
  // the ASM method itself.
  o.jvm_args = {"-Xbatch", "-XX:+PrintCompilation", "-XX:CompileCommand=quiet",
                "-XX:CompileCommand=exclude,AsmUser::main"};
  o.args = {"100000"};
  o.agent_options = "mode=calltree,quiet,file=" + file.string();
  const bn::test::JavaRun r = bn::test::run_java(o);
  INFO("stderr: " << r.err);
  REQUIRE_FALSE(r.timed_out);
  REQUIRE(r.exit_code == 0);
  const bn::test::Profile profile = bn::test::load(file);
  const auto jit = profile.loaded.tree.metadata().find_extra("transformer_jit");
  REQUIRE(jit.has_value());
  REQUIRE(jit->starts_with("C1 only"));  // the directive is in force
  // A PrintCompilation line: time, compile id, flags (%, s, !, b, n), level, method.
  bool compiled_by_c2 = false;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string previous;
    for (std::string word; words >> word; previous = word)
      if (word == "org.objectweb.asm.Type::getArgumentsAndReturnSizes" && previous == "4") compiled_by_c2 = true;
  }
  INFO("stdout: " << r.out);
  CHECK(compiled_by_c2);
}
