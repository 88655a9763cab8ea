#pragma once
// Recording one of tests/agent/java's programs under the agent and reading its metadata, for the
// end-to-end test files (agent_harness.h runs the JVM).

#include <doctest/doctest.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "agent_harness.h"

namespace bn::test {

// Runs `main_class` with `args` under the agent at interval=10ms (`extra_options`, each with a
// leading comma, are appended and win) and loads the profile; the run must succeed.
inline Profile record(const std::string& main_class, std::vector<std::string> args,
                      const std::string& extra_options = "") {
  // Several tests record the same program, and ctest runs them in parallel: one directory each.
  const auto file = work_dir(main_class + "-profile-" + std::to_string(getpid())) / "run.bnp";
  JavaRunOptions o;
  o.main_class = main_class;
  o.args = std::move(args);
  o.agent_options = "file=" + file.string() + ",interval=10ms,quiet" + extra_options;
  const JavaRun r = run_java(o);
  INFO("stderr: " << r.err);
  REQUIRE_FALSE(r.timed_out);
  REQUIRE(r.exit_code == 0);
  return load(file);
}

// A metadata extra that must be present, as a number.
inline double extra_number(const Profile& p, const char* key) {
  const auto v = p.loaded.tree.metadata().find_extra(key);
  INFO("metadata key " << key);
  REQUIRE(v.has_value());
  return std::stod(std::string(*v));
}

}  // namespace bn::test
